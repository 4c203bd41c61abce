#pragma once

#include <QList>
#include <QTextCharFormat>
#include <QTextEdit>

class QPlainTextEdit;

namespace soul {

// What the preview paints over the soul's text, as extra selections rather
// than a QSyntaxHighlighter: a highlighter gives every block of a 14 MiB
// document its own layout and formats, which costs seconds and hundreds of
// MiB; the marks cost nothing for text that is not on screen.
class PreviewMarks
{
public:
    PreviewMarks();

    // A band across the line of the section header that starts at `position`.
    void addHeader(QTextDocument *document, int position);
    // Marks U+FEFF, NUL, tabs, CR, U+FFFD (and their stand-ins), non-ASCII
    // White_Space (U+00A0, U+2009, U+3000, ...) and trailing spaces in the
    // blocks `edit` shows now (invisibleRanges()). Used by the preview and the
    // slot panes.
    void addInvisibles(const QPlainTextEdit *edit);
    const QList<QTextEdit::ExtraSelection> &selections() const { return m_selections; }

private:
    QTextCharFormat m_header;
    QTextCharFormat m_invisible;
    QList<QTextEdit::ExtraSelection> m_selections;
};

} // namespace soul
