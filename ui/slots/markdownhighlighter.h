#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace soul {

// Headings, emphasis, code and list markers. One linear scan per block, no
// regular expressions, so a 2 MiB pane stays cheap: typing re-highlights the
// edited block only (and the following ones while a code fence opens or closes).
class MarkdownHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT

public:
    explicit MarkdownHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;

private:
    void highlightInline(const QString &text);

    QTextCharFormat m_heading;
    QTextCharFormat m_code;
    QTextCharFormat m_emphasis;
    QTextCharFormat m_strong;
    QTextCharFormat m_listMarker;
};

} // namespace soul
