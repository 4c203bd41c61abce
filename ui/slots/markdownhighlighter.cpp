#include "markdownhighlighter.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QPalette>
#include <QTextBlock>
#include <QTextDocument>

namespace soul {

namespace {

// QTextBlock::userState() of a pane's block: -1 before the block was seen,
// then these bits.
constexpr int FenceAfter = 1; // the next line starts inside a ``` fence
constexpr int Formatted = 2;  // the block's layout holds its current formats

// An edit touching up to this many blocks (typing, a small paste) is formatted
// at once, within the edit, as QSyntaxHighlighter would; a larger one (loading
// a file) only updates the fence states, and its blocks are formatted when
// they are laid out.
constexpr int EagerBlocks = 64;

// Emphasis is only looked for on lines of reasonable length: one huge line
// must not cost a quadratic search on every keystroke.
constexpr qsizetype InlineScanLimit = 10000;

qsizetype indentOf(const QString &text)
{
    qsizetype i = 0;
    while (i < text.size() && i < 4 && text.at(i) == QLatin1Char(' '))
        ++i;
    return i;
}

bool isFence(const QString &text)
{
    const qsizetype i = indentOf(text);
    return i < 4 && QStringView(text).mid(i, 3) == QLatin1String("```");
}

bool fenceBefore(const QTextBlock &block)
{
    const QTextBlock previous = block.previous();
    return previous.isValid() && previous.userState() >= 0
           && (previous.userState() & FenceAfter) != 0;
}

} // namespace

MarkdownHighlighter::MarkdownHighlighter(QTextDocument *document)
    : WrapLayout(document)
{
    const QPalette pal = QGuiApplication::palette();
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    m_heading.setFontWeight(QFont::Bold);
    m_heading.setForeground(dark ? QColor(0x8c, 0xb4, 0xff) : QColor(0x1c, 0x4f, 0xb0));
    m_code.setFontFamilies({QFontDatabase::systemFont(QFontDatabase::FixedFont).family()});
    m_code.setForeground(dark ? QColor(0xe0, 0xa8, 0x70) : QColor(0x9a, 0x4a, 0x00));
    m_emphasis.setFontItalic(true);
    m_strong.setFontWeight(QFont::Bold);
    m_listMarker.setFontWeight(QFont::Bold);
    m_listMarker.setForeground(dark ? QColor(0x9a, 0xd0, 0x9a) : QColor(0x2a, 0x7a, 0x2a));

    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(0);
    connect(&m_flushTimer, &QTimer::timeout, this, &MarkdownHighlighter::flush);
    connect(document, &QTextDocument::contentsChange, this, &MarkdownHighlighter::contentsChange);
    // Reports the whole text as changed, which sets every fence state.
    document->setDocumentLayout(this);
}

bool MarkdownHighlighter::isFormatted(const QTextBlock &block)
{
    const int state = block.userState();
    return state >= 0 && (state & Formatted) != 0;
}

QRectF MarkdownHighlighter::blockBoundingRect(const QTextBlock &block) const
{
    if (block.isValid() && !isFormatted(block))
        format(block);
    return WrapLayout::blockBoundingRect(block);
}

void MarkdownHighlighter::contentsChange(int from, int charsRemoved, int charsAdded)
{
    Q_UNUSED(charsRemoved);
    const QTextDocument *doc = document();
    QTextBlock block = doc->findBlock(from);
    if (!block.isValid())
        return;
    QTextBlock last = doc->findBlock(qMin(from + charsAdded, doc->characterCount() - 1));
    if (!last.isValid())
        last = doc->lastBlock();
    const bool eager = last.blockNumber() - block.blockNumber() < EagerBlocks;
    bool inFence = fenceBefore(block);
    bool inChange = true;
    int flippedFrom = -1;
    int flippedTo = -1;
    for (; block.isValid(); block = block.next()) {
        const int old = block.userState();
        const QString text = block.text();
        const bool fenceAfter = inFence != isFence(text);
        // Past the edit, a block whose fence state holds keeps its formats,
        // and so does every block after it.
        if (!inChange && old >= 0 && ((old & FenceAfter) != 0) == fenceAfter)
            break;
        if (!inChange) {
            if (flippedFrom < 0)
                flippedFrom = block.position();
            flippedTo = block.position() + block.length();
        }
        int state = fenceAfter ? FenceAfter : 0;
        // Within the edit the document lays the changed blocks out again
        // right after this signal, so formats set now need nothing more.
        if (inChange && eager) {
            apply(block, text, inFence);
            state |= Formatted;
        }
        block.setUserState(state);
        inFence = fenceAfter;
        if (block == last)
            inChange = false;
    }
    // The lines a fence now opens or closes show their old formats until they
    // are laid out again.
    if (flippedFrom >= 0)
        scheduleFlush(flippedFrom, flippedTo);
}

void MarkdownHighlighter::format(const QTextBlock &block) const
{
    const QString text = block.text();
    const bool inFence = fenceBefore(block);
    QTextBlock target = block;
    target.setUserState((inFence != isFence(text) ? FenceAfter : 0) | Formatted);
    if (!apply(block, text, inFence))
        return;
    // Laid out before without these formats (as the cursor's neighbours can
    // be): the base class lays it out again.
    block.layout()->clearLayout();
    scheduleFlush(block.position(), block.position() + block.length());
}

void MarkdownHighlighter::scheduleFlush(int from, int to) const
{
    m_flushFrom = m_flushFrom < 0 ? from : qMin(m_flushFrom, from);
    m_flushTo = qMax(m_flushTo, to);
    m_flushTimer.start();
}

void MarkdownHighlighter::flush()
{
    const int length = document()->characterCount();
    const int from = qMin(m_flushFrom, length);
    const int to = qMin(m_flushTo, length);
    m_flushFrom = -1;
    m_flushTo = -1;
    if (from >= 0 && to > from)
        document()->markContentsDirty(from, to - from);
}

bool MarkdownHighlighter::apply(const QTextBlock &block, const QString &text, bool inFence) const
{
    QList<QTextLayout::FormatRange> ranges = formatsFor(text, inFence);
    QTextLayout *layout = block.layout();
    // An input method's preedit text sits inside the layout's text: shift
    // around it and keep its own formats, as QSyntaxHighlighter does.
    const int preeditStart = layout->preeditAreaPosition();
    const int preeditLength = int(layout->preeditAreaText().size());
    if (preeditLength > 0) {
        for (QTextLayout::FormatRange &range : ranges) {
            if (range.start >= preeditStart)
                range.start += preeditLength;
            else if (range.start + range.length >= preeditStart)
                range.length += preeditLength;
        }
        const QList<QTextLayout::FormatRange> current = layout->formats();
        for (const QTextLayout::FormatRange &range : current) {
            if (range.start >= preeditStart
                && range.start + range.length <= preeditStart + preeditLength)
                ranges.append(range);
        }
    } else if (ranges.isEmpty() && layout->formats().isEmpty()) {
        return false;
    }
    layout->setFormats(ranges);
    return true;
}

QList<QTextLayout::FormatRange> MarkdownHighlighter::formatsFor(const QString &text,
                                                                bool inFence) const
{
    QList<QTextLayout::FormatRange> ranges;
    const int n = int(text.size());
    if (n == 0)
        return ranges;
    if (inFence || isFence(text)) {
        ranges.append({0, n, m_code});
        return ranges;
    }

    const qsizetype indent = indentOf(text);
    qsizetype i = indent;
    if (indent < 4) {
        while (i < text.size() && i - indent < 6 && text.at(i) == QLatin1Char('#'))
            ++i;
        if (i > indent && (i == text.size() || text.at(i) == QLatin1Char(' '))) {
            ranges.append({0, n, m_heading});
            return ranges;
        }
    }

    qsizetype lead = 0;
    while (lead < text.size()
           && (text.at(lead) == QLatin1Char(' ') || text.at(lead) == QLatin1Char('\t')))
        ++lead;
    if (lead < text.size()) {
        const QChar c = text.at(lead);
        qsizetype end = -1;
        if ((c == QLatin1Char('-') || c == QLatin1Char('*') || c == QLatin1Char('+'))
            && lead + 1 < text.size() && text.at(lead + 1) == QLatin1Char(' ')) {
            end = lead + 1;
        } else if (c.isDigit()) {
            qsizetype d = lead;
            while (d < text.size() && d - lead < 9 && text.at(d).isDigit())
                ++d;
            if (d + 1 < text.size()
                && (text.at(d) == QLatin1Char('.') || text.at(d) == QLatin1Char(')'))
                && text.at(d + 1) == QLatin1Char(' '))
                end = d + 1;
        }
        if (end > 0)
            ranges.append({int(lead), int(end - lead), m_listMarker});
    }
    if (text.size() <= InlineScanLimit)
        addInline(ranges, text);
    return ranges;
}

// Inline spans never overlap the list marker: the scan only starts a span at
// a backtick or at '*'/'_' followed by a non-space, and a marker is followed
// by a space.
void MarkdownHighlighter::addInline(QList<QTextLayout::FormatRange> &ranges,
                                    const QString &text) const
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('`')) {
            const qsizetype close = text.indexOf(QLatin1Char('`'), i + 1);
            if (close < 0)
                return;
            ranges.append({int(i), int(close - i + 1), m_code});
            i = close + 1;
            continue;
        }
        if (c == QLatin1Char('*') || c == QLatin1Char('_')) {
            const bool strong = i + 1 < n && text.at(i + 1) == c;
            const qsizetype width = strong ? 2 : 1;
            const qsizetype start = i + width;
            // An opening run must touch text: "a * b" is not emphasis.
            if (start < n && !text.at(start).isSpace()) {
                const QString marker(width, c);
                const qsizetype close = text.indexOf(marker, start);
                if (close > start && !text.at(close - 1).isSpace()) {
                    ranges.append({int(i), int(close + width - i), strong ? m_strong : m_emphasis});
                    i = close + width;
                    continue;
                }
            }
            i += width;
            continue;
        }
        ++i;
    }
}

} // namespace soul
