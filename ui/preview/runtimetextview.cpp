#include "runtimetextview.h"

#include "displaytext.h"
#include "heap.h"
#include "text/wraplayout.h"

#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

#include <cstring>

namespace soul {

namespace {

// The header's padding around its line of text, in pixels.
constexpr int HeaderPadding = 3;

// Units compared at a time by memcmp before the unit that differs is looked
// for: a keystroke changes a few characters of a text of megabytes.
constexpr qsizetype CompareChunk = 4096;

qsizetype commonStart(QStringView a, QStringView b)
{
    const qsizetype n = qMin(a.size(), b.size());
    qsizetype at = 0;
    while (at + CompareChunk <= n
           && std::memcmp(a.data() + at, b.data() + at, CompareChunk * sizeof(QChar)) == 0)
        at += CompareChunk;
    while (at < n && a.at(at) == b.at(at))
        ++at;
    return at;
}

// How many units `a` and `b` have in common at their ends, before `limit`.
qsizetype commonEnd(QStringView a, QStringView b, qsizetype limit)
{
    const QChar *ea = a.data() + a.size();
    const QChar *eb = b.data() + b.size();
    qsizetype n = 0;
    while (n + CompareChunk <= limit
           && std::memcmp(ea - n - CompareChunk, eb - n - CompareChunk, CompareChunk * sizeof(QChar))
                  == 0)
        n += CompareChunk;
    while (n < limit && *(ea - 1 - n) == *(eb - 1 - n))
        ++n;
    return n;
}

// A stretch two changed middles share: where it starts in each and its
// length (0: none). A keystroke in Hermes's MEMORY.md changes the block's
// header too, a megabyte before it; the text between stays as it is.
struct SharedStretch
{
    qsizetype before = 0;
    qsizetype after = 0;
    qsizetype length = 0;
};

SharedStretch sharedStretch(QStringView before, QStringView after)
{
    // Worth a second edit: shorter stretches are replaced with the rest.
    constexpr qsizetype MinShared = 4096;
    // The units looked for, from the middle of `before`.
    constexpr qsizetype Anchor = 64;
    // How far from the same place the anchor is looked for, beyond the
    // difference in length.
    constexpr qsizetype Reach = 4096;
    if (before.size() < 2 * MinShared || after.size() < 2 * MinShared)
        return {};
    const qsizetype middle = before.size() / 2;
    const QStringView anchor = before.sliced(middle, Anchor);
    const qsizetype shift = after.size() - before.size();
    // Any place where the anchor matches gives a right result (the stretch
    // is the same in both); in text that repeats itself, the wrong one is
    // shorter. The places a header's few characters would move it to are
    // tried first, and the longest stretch taken.
    const auto stretchAt = [&](qsizetype at) {
        const qsizetype back = commonEnd(before.first(middle), after.first(at), qMin(middle, at));
        const qsizetype forward = commonStart(before.sliced(middle), after.sliced(at));
        return SharedStretch{middle - back, at - back, back + forward};
    };
    SharedStretch shared;
    for (const qsizetype at :
         {middle, middle + shift, middle - 2, middle - 1, middle + 1, middle + 2}) {
        if (at < 0 || at + Anchor > after.size() || after.sliced(at, Anchor) != anchor)
            continue;
        const SharedStretch candidate = stretchAt(at);
        if (candidate.length > shared.length)
            shared = candidate;
    }
    if (shared.length == 0) {
        const qsizetype slack = Reach + qAbs(shift);
        const qsizetype from = qMax<qsizetype>(0, middle - slack);
        const qsizetype to = qMin(after.size(), middle + slack + Anchor);
        const qsizetype found = after.sliced(from, to - from).indexOf(anchor);
        if (found < 0)
            return {};
        shared = stretchAt(from + found);
    }
    // Never between the halves of a surrogate pair, and a CR's stand-in
    // depends on the character after it, which the second edit changes.
    if (shared.length > 0 && before.at(shared.before).isLowSurrogate()) {
        ++shared.before;
        ++shared.after;
        --shared.length;
    }
    while (shared.length > 0) {
        const QChar last = before.at(shared.before + shared.length - 1);
        if (!last.isHighSurrogate() && last != QLatin1Char('\r'))
            break;
        --shared.length;
    }
    return shared.length >= MinShared ? shared : SharedStretch();
}

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
