#include "previewmarks.h"

#include "contract.h"

#include <QGuiApplication>
#include <QPalette>
#include <QPlainTextEdit>
#include <QTextBlock>

namespace soul {

namespace {

bool isInvisible(char16_t c)
{
    switch (c) {
    case u'\t':
    case 0x21B5: // CR stand-in
    case 0x2205: // NUL stand-in
    case 0x25CA: // U+FEFF stand-in
    case 0x25A1: // U+FDD0 / U+FDD1 stand-in
    case 0xFFFD:
    case 0x200B:
        return true;
    default:
        // U+00A0 and the other spaces that look like a space or like nothing
        // but are not one: the contract trims them, a reader cannot see them.
        return c >= 0x80 && isWhiteSpace(c);
    }
}

} // namespace

PreviewMarks::PreviewMarks()
{
    const QPalette pal = QGuiApplication::palette();
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    // Colours only: an extra selection must not change the text's metrics.
    // A band across the whole line, tinted from the palette's highlight so
    // the header text keeps the normal text colour and stays readable.
    const QColor base = pal.color(QPalette::Base);
    const QColor accent = pal.color(QPalette::Highlight);
    m_header.setBackground(QColor((base.red() * 2 + accent.red()) / 3,
                                  (base.green() * 2 + accent.green()) / 3,
                                  (base.blue() * 2 + accent.blue()) / 3));
    m_header.setProperty(QTextFormat::FullWidthSelection, true);
    m_invisible.setBackground(dark ? QColor(0x80, 0x40, 0x40) : QColor(0xff, 0xc8, 0xc8));
    m_invisible.setForeground(dark ? QColor(0xff, 0xc0, 0xc0) : QColor(0xa0, 0x00, 0x00));
}

void PreviewMarks::addHeader(QTextDocument *document, int position)
{
    QTextEdit::ExtraSelection selection;
    selection.cursor = QTextCursor(document);
    // Collapsed: a full-width selection then paints the header's whole line.
    selection.cursor.setPosition(position);
    selection.format = m_header;
    m_selections.append(selection);
}

void PreviewMarks::addInvisibles(const QPlainTextEdit *edit)
{
    const QTextDocument *document = edit->document();
    const int bottom = edit->viewport()->height();
    const QRect visible = edit->viewport()->rect();
    // Start at the block at the top of the viewport, end past its bottom.
    QTextBlock block = edit->cursorForPosition(visible.topLeft()).block();
    const int end = edit->cursorForPosition(QPoint(visible.right(), bottom)).block().blockNumber();
    for (; block.isValid() && block.blockNumber() <= end; block = block.next()) {
        const int base = block.position();
        for (const QPair<int, int> &range : invisibleRanges(block.text())) {
            QTextEdit::ExtraSelection selection;
            selection.cursor = QTextCursor(const_cast<QTextDocument *>(document));
            selection.cursor.setPosition(base + range.first);
            selection.cursor.setPosition(base + range.first + range.second, QTextCursor::KeepAnchor);
            selection.format = m_invisible;
            m_selections.append(selection);
        }
    }
}

QList<QPair<int, int>> PreviewMarks::invisibleRanges(QStringView text)
{
    QList<QPair<int, int>> ranges;
    const int n = int(text.size());
    for (int i = 0; i < n; ++i) {
        if (isInvisible(text.at(i).unicode()))
            ranges.append({i, 1});
    }
    // Spaces before a CR of a CR LF line are trailing too.
    int trailing = n;
    if (trailing > 0
        && (text.at(trailing - 1) == QChar(0x21B5) || text.at(trailing - 1) == QChar(0x200B)))
        --trailing;
    const int lineEnd = trailing;
    while (trailing > 0 && text.at(trailing - 1) == QLatin1Char(' '))
        --trailing;
    if (trailing < lineEnd)
        ranges.append({trailing, lineEnd - trailing});
    return ranges;
}

} // namespace soul
