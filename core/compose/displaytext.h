#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringView>

// The soul's text as the window shows it, decided once for the preview, the
// slot panes and the compare diff (shown as HTML by the window, built
// without one by the compare controller).
namespace soul {

// `soul` as the views show it: same length, stand-ins for characters
// QTextDocument cannot hold as they are (and marks, with invisibles on).
// A lone CR always shows as a mark; the CR of a CR LF only with invisibles.
// Text with nothing to stand in for comes back still shared.
QString displayText(QString soul, bool invisibles);

// What the views mark as invisible in one line of displayText()'s text:
// U+FEFF, NUL, tabs, CR (their stand-ins), U+FFFD, non-ASCII White_Space
// (U+00A0, U+2009, U+3000, ...) and trailing spaces, as (start, length)
// pairs in UTF-16 units.
QList<QPair<int, int>> invisibleRanges(QStringView line);

// Text that someone else wrote (a server's message, a tests file's value)
// fit for a terminal or a status line: control characters (an escape
// sequence, a carriage return, DEL, C1) and bidirectional overrides and
// marks written as \xNN or \u{NNNN}, so it cannot move the cursor, colour
// the text or reorder a line. Line feeds and tabs are kept when asked.
enum class LineBreaks { Escape, Keep };
QString escapedControls(const QString &text, LineBreaks lineBreaks = LineBreaks::Escape);

} // namespace soul
