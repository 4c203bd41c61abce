#pragma once

#include "text/wraplayout.h"

#include <QList>
#include <QTextCharFormat>
#include <QTextLayout>
#include <QTimer>

namespace soul {

// Headings, emphasis, code and list markers in a slot pane, given to a block
// when it is first laid out, which QPlainTextEdit does only for what it shows
// (and the cursor's surroundings). A QSyntaxHighlighter formats every block
// whenever a document loads, which gives each line of a 2 MiB pane (some
// 30,000) its own QTextLayout and format list: about 15 MiB and 100 ms a pane,
// for the twenty lines on screen. The one state that crosses lines, "inside a
// ``` fence", lives in QTextBlock::userState(), which every block has anyway,
// and is kept exact for the whole document.
//
// One linear scan per line, no regular expressions. Typing formats the edited
// block at once; when a fence opens or closes, the lines after it lose their
// formats and get them again when next laid out.
//
// It is the document's layout (a QPlainTextDocumentLayout, as QPlainTextEdit
// requires), because laying out a block is the one moment every way of showing
// it goes through; a WrapLayout, since panes wrap at their width and never
// need their widest line.
class MarkdownHighlighter : public WrapLayout
{
    Q_OBJECT

public:
    // Becomes `document`'s layout, owned by `document`; hand the document to
    // the editor with QPlainTextEdit::setDocument().
    explicit MarkdownHighlighter(QTextDocument *document);

    QRectF blockBoundingRect(const QTextBlock &block) const override;

    // The formats of `text`, a line that starts inside a fence when `inFence`.
    QList<QTextLayout::FormatRange> formatsFor(const QString &text, bool inFence) const;
    // Whether `block` carries its formats now (for tests).
    static bool isFormatted(const QTextBlock &block);

private:
    void contentsChange(int from, int charsRemoved, int charsAdded);
    // Gives a block its formats before it is laid out.
    void format(const QTextBlock &block) const;
    // Sets the formats of `block`; false when they were (and stay) none.
    bool apply(const QTextBlock &block, const QString &text, bool inFence) const;
    void addInline(QList<QTextLayout::FormatRange> &ranges, const QString &text) const;
    // Reports [from, to) as changed to the document from the event loop, so
    // it is laid out and painted again.
    void scheduleFlush(int from, int to) const;
    void flush();

    QTextCharFormat m_heading;
    QTextCharFormat m_code;
    QTextCharFormat m_emphasis;
    QTextCharFormat m_strong;
    QTextCharFormat m_listMarker;
    // QTextLayout::setFormats() records a change of the block's text with the
    // document, to be reported with the next edit; blocks formatted while
    // being laid out are reported right after, from the event loop, never
    // from inside the layout.
    mutable QTimer m_flushTimer;
    mutable int m_flushFrom = -1;
    mutable int m_flushTo = -1;
};

} // namespace soul
