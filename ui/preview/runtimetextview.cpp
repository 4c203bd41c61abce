#include "runtimetextview.h"

#include "compose/displaytext.h"
#include "diff/textstretch.h"
#include "heap.h"
#include "text/wraplayout.h"

#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

#include <algorithm>

namespace soul {

namespace {

// The header's padding around its line of text, in pixels.
constexpr int HeaderPadding = 3;

} // namespace

RuntimeTextView::RuntimeTextView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_header(new QLabel(this))
{
    m_layout = makeLargeTextView(this);

    m_header->setAutoFillBackground(true);
    m_header->setBackgroundRole(QPalette::AlternateBase);
    m_header->setContentsMargins(HeaderPadding, HeaderPadding, HeaderPadding, HeaderPadding);
    m_header->setTextFormat(Qt::PlainText);
    m_header->setAccessibleName(tr("Block at the top of the preview"));
    m_header->hide();
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &RuntimeTextView::refreshHeader);
}

void RuntimeTextView::showText(const QString &text, bool invisibles)
{
    const QString &before = m_text;
    qsizetype head = 0;
    qsizetype tail = 0;
    if (invisibles == m_invisibles) {
        const qsizetype shorter = qMin(before.size(), text.size());
        head = commonStart(before, text);
        if (head == before.size() && head == text.size())
            return;
        // Never between the halves of a surrogate pair.
        if (head > 0 && head < shorter && before.at(head).isLowSurrogate())
            --head;
        // A CR's stand-in depends on the character after it.
        if (head > 0 && before.at(head - 1) == QLatin1Char('\r'))
            --head;
        tail = commonEnd(before, text, shorter - head);
        if (tail > 0 && before.at(before.size() - tail).isLowSurrogate())
            --tail;
    }
    m_invisibles = invisibles;
    QTextCursor cursor(document());
    // Replaces `before`'s units [from, to) by the display text of `text`'s
    // [start, end), made with the character after it, which decides the
    // stand-in of a CR at its end.
    const auto replace = [&](qsizetype from, qsizetype to, qsizetype start, qsizetype end) {
        QString inserted = displayText(text.mid(start, end - start + (end < text.size() ? 1 : 0)),
                                       invisibles);
        inserted.truncate(end - start);
        cursor.setPosition(int(from));
        cursor.setPosition(int(to), QTextCursor::KeepAnchor);
        cursor.insertText(inserted);
    };
    const qsizetype beforeEnd = before.size() - tail;
    const qsizetype textEnd = text.size() - tail;
    const SharedStretch shared = sharedStretch(QStringView(before).sliced(head, beforeEnd - head),
                                               QStringView(text).sliced(head, textEnd - head));
    // Two edits, not one edit block: the document would report a block's
    // changes as one span from the first to the last, and the layout would
    // take the megabyte between as changed. (The view keeps no undo steps.)
    if (shared.length > 0) {
        // The later edit first, so the earlier one's places stay where they were.
        replace(head + shared.before + shared.length,
                beforeEnd,
                head + shared.after + shared.length,
                textEnd);
        replace(head, head + shared.before, head, head + shared.after);
    } else {
        replace(head, beforeEnd, head, textEnd);
    }
    m_text = text;
}

void RuntimeTextView::clearText()
{
    document()->clear();
    m_text = QString();
    releaseFreeMemory();
}

void RuntimeTextView::setBlocks(const QList<Block> &blocks)
{
    const auto same = [](const Block &a, const Block &b) {
        return a.range == b.range && a.label == b.label && a.gapAfter == b.gapAfter;
    };
    // A run that left the blocks as they were (a keystroke in text the
    // runtime cuts) repaints nothing.
    if (std::equal(blocks.cbegin(), blocks.cend(), m_blocks.cbegin(), m_blocks.cend(), same))
        return;
    const bool had = !m_blocks.isEmpty();
    m_blocks = blocks;
    if (had != !m_blocks.isEmpty()) {
        // Only the top margin changes: the width, and so every line's
        // layout, stays.
        const int height = m_blocks.isEmpty()
                               ? 0
                               : m_header->fontMetrics().height() + 2 * HeaderPadding;
        setViewportMargins(0, height, 0, 0);
        m_header->setVisible(!m_blocks.isEmpty());
        placeHeader();
    }
    refreshHeader();
    viewport()->update();
}

QString RuntimeTextView::joinText(qsizetype index) const
{
    if (index <= 0 || index >= m_blocks.size())
        return {};
    const QString gap = m_blocks.at(index - 1).gapAfter;
    const QString next = QStringLiteral("\u25BE ") + m_blocks.at(index).label;
    if (gap.isEmpty())
        return next;
    return tr("\u22EF here the prompt has %1 \u22EF").arg(gap) + QStringLiteral("   ") + next;
}

qsizetype RuntimeTextView::blockAt(qsizetype position) const
{
    for (qsizetype i = 0; i < m_blocks.size(); ++i) {
        const KeptRange &range = m_blocks.at(i).range;
        if (position < range.start + range.length)
            return i;
    }
    return m_blocks.size() - 1;
}

void RuntimeTextView::refreshHeader()
{
    if (m_blocks.isEmpty())
        return;
    const Block &block = m_blocks.at(blockAt(firstVisibleBlock().position()));
    QString text = block.label;
    if (!block.gapAfter.isEmpty())
        text += tr(" \u2014 then: %1").arg(block.gapAfter);
    // Cut to the width at the end, with an ellipsis; the tooltip has it whole.
    const QMargins margins = m_header->contentsMargins();
    const int room = m_header->width() - margins.left() - margins.right();
    m_header->setText(m_header->fontMetrics().elidedText(text, Qt::ElideRight, qMax(0, room)));
    m_header->setToolTip(text);
}

void RuntimeTextView::placeHeader()
{
    const QRect area = viewport()->geometry();
    m_header->setGeometry(area.left(), frameWidth(), area.width(), viewportMargins().top());
}

void RuntimeTextView::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    placeHeader();
    refreshHeader();
}

void RuntimeTextView::paintEvent(QPaintEvent *event)
{
    QPlainTextEdit::paintEvent(event);
    if (m_blocks.size() < 2)
        return;
    // Each join is a blank line: the block before it ends with a line break,
    // and the blank line's own ends just before the next block.
    QPainter painter(viewport());
    QFont font = painter.font();
    font.setItalic(true);
    painter.setFont(font);
    const QRect area = viewport()->rect();
    const QPointF offset = contentOffset();
    for (qsizetype i = 1; i < m_blocks.size(); ++i) {
        const QTextBlock line = document()->findBlock(int(m_blocks.at(i).range.start - 1));
        if (!line.isValid() || line.length() != 1)
            continue;
        const QRectF rect = blockBoundingGeometry(line).translated(offset);
        if (rect.bottom() < area.top())
            continue;
        if (rect.top() > area.bottom())
            break;
        const QRect band(area.left(), int(rect.top()), area.width(), int(rect.height()));
        const bool gap = !m_blocks.at(i - 1).gapAfter.isEmpty();
        painter.fillRect(band, palette().color(QPalette::AlternateBase));
        if (gap) {
            // Where the runtime puts blocks of its own: a dashed rule over
            // and under the line.
            painter.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
            painter.drawLine(band.topLeft(), band.topRight());
            painter.drawLine(band.bottomLeft(), band.bottomRight());
        }
        painter.setPen(palette().color(QPalette::PlaceholderText));
        // The next block's name and tokens whole, at the right; what the
        // runtime puts here in the room left of it.
        const QRect textArea = band.adjusted(HeaderPadding, 0, -HeaderPadding, 0);
        const QFontMetrics metrics = painter.fontMetrics();
        // A long list of files is cut in its middle: the block's name and
        // its tokens stay.
        const QString next = metrics.elidedText(QStringLiteral("\u25BE ") + m_blocks.at(i).label,
                                                Qt::ElideMiddle,
                                                textArea.width());
        painter.drawText(textArea, Qt::AlignRight | Qt::AlignVCenter, next);
        if (gap) {
            const int room = textArea.width() - metrics.horizontalAdvance(next)
                             - metrics.horizontalAdvance(QLatin1Char(' ')) * 3;
            const QString here
                = tr("\u22EF here the prompt has %1 \u22EF").arg(m_blocks.at(i - 1).gapAfter);
            painter.drawText(textArea,
                             Qt::AlignLeft | Qt::AlignVCenter,
                             metrics.elidedText(here, Qt::ElideRight, qMax(0, room)));
        }
    }
}

} // namespace soul
