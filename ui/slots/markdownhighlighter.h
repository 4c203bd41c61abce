#pragma once

#include <QList>
#include <QObject>
#include <QTextCharFormat>
#include <QTextLayout>

class QPlainTextEdit;
class QTextBlock;

namespace soul {

// Headings, emphasis, code and list markers in a slot pane, formatted only
// where the user looks. A QSyntaxHighlighter formats every block whenever a
// document loads, which gives each line of a 2 MiB pane (some 30,000) its own
// QTextLayout and format list: about 15 MiB and 100 ms a pane, for the twenty
// lines on screen. Here a block is formatted just before it is first painted,
// and again when its text or its fence state changes. The one state that
// crosses lines, "inside a ``` fence", lives in QTextBlock::userState(),
// which every block has anyway, so it stays exact at no cost.
//
// One linear scan per line, no regular expressions: typing formats the edited
// block at once (and clears the formats of the lines that follow while a code
// fence opens or closes, so they are redone when next painted).
class MarkdownHighlighter : public QObject
{
    Q_OBJECT

public:
    // Highlights `editor`'s document; a child of `editor`.
    explicit MarkdownHighlighter(QPlainTextEdit *editor);

    // The formats of `text`, a line that starts inside a fence when `inFence`.
    QList<QTextLayout::FormatRange> formatsFor(const QString &text, bool inFence) const;
    // Whether `block` carries its formats now (for tests).
    static bool isFormatted(const QTextBlock &block);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void contentsChange(int from, int charsRemoved, int charsAdded);
    // Formats the blocks in the viewport that are not formatted yet.
    void formatVisible();
    void apply(QTextBlock &block, const QString &text, bool inFence) const;
    void addInline(QList<QTextLayout::FormatRange> &ranges, const QString &text) const;

    QPlainTextEdit *m_editor = nullptr;
    QTextCharFormat m_heading;
    QTextCharFormat m_code;
    QTextCharFormat m_emphasis;
    QTextCharFormat m_strong;
    QTextCharFormat m_listMarker;
};

} // namespace soul
