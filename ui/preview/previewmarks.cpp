#include "previewmarks.h"

#include "compose/displaytext.h"

#include <QGuiApplication>
#include <QPalette>
#include <QPlainTextEdit>
#include <QTextBlock>

namespace soul {

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

} // namespace soul
