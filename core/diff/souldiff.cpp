#include "souldiff.h"

#include "compose/composerule.h"
#include "sequencediff.h"

#include <QHash>

#include <algorithm>
#include <cstring>
#include <vector>

namespace soul {

namespace {

constexpr qsizetype CompareChunk = 4096;

// The lines of a text; each line's view keeps its '\n' (a last line may
// have none), so "x" at the end and "x\n" differ.
class Lines
{
public:
    explicit Lines(QByteArrayView text)
        : m_text(text)
    {
        qsizetype from = 0;
        while (from < text.size()) {
            m_starts.push_back(from);
            const void *nl = std::memchr(text.data() + from, '\n', size_t(text.size() - from));
            if (!nl)
                break;
            from = static_cast<const char *>(nl) - text.data() + 1;
        }
    }

    qsizetype count() const { return qsizetype(m_starts.size()); }
    qsizetype start(qsizetype i) const { return i < count() ? m_starts[size_t(i)] : m_text.size(); }
    QByteArrayView line(qsizetype i) const
    {
        return m_text.sliced(start(i), start(i + 1) - start(i));
    }
    // The line that holds byte `offset` (count() at the end).
    qsizetype lineAt(qsizetype offset) const
    {
        if (offset >= m_text.size())
            return count();
        return qsizetype(std::upper_bound(m_starts.begin(), m_starts.end(), offset)
                         - m_starts.begin())
               - 1;
    }

private:
    QByteArrayView m_text;
    std::vector<qsizetype> m_starts;
};

struct Block
{
    qsizetype a0, a1, b0, b1;
};

QByteArray rangeText(qsizetype start, qsizetype length)
{
    // As diff(1): "l" for one line, "l,n" otherwise, and for no lines the
    // line before the place.
    if (length == 1)
        return QByteArray::number(start + 1);
    return QByteArray::number(length == 0 ? start : start + 1) + ',' + QByteArray::number(length);
}

} // namespace

QString sectionStatusName(SectionStatus status)
{
    switch (status) {
    case SectionStatus::Absent:
        return QStringLiteral("absent");
    case SectionStatus::Unchanged:
        return QStringLiteral("unchanged");
    case SectionStatus::Changed:
        return QStringLiteral("changed");
    case SectionStatus::Added:
        return QStringLiteral("added");
    case SectionStatus::Removed:
        return QStringLiteral("removed");
    }
    return {};
}

std::array<SectionStatus, SlotCount> compareSections(const SectionedSoul &a, const SectionedSoul &b)
{
    std::array<SectionStatus, SlotCount> status{};
    for (int slot = 0; slot < SlotCount; ++slot) {
        const bool inA = a.present(slot);
        const bool inB = b.present(slot);
        status[size_t(slot)] = !inA && !inB                         ? SectionStatus::Absent
                               : !inA                               ? SectionStatus::Added
                               : !inB                               ? SectionStatus::Removed
                               : a.section(slot) == b.section(slot) ? SectionStatus::Unchanged
                                                                    : SectionStatus::Changed;
    }
    return status;
}

int StablePrefix::percent() const
{
    if (identical)
        return 100;
    if (totalTokens <= 0)
        return 0;
    return int(qMin<qint64>(99, tokens * 100 / totalTokens));
}

qsizetype commonPrefixLength(QByteArrayView a, QByteArrayView b)
{
    const qsizetype n = qMin(a.size(), b.size());
    qsizetype i = 0;
    while (i + CompareChunk <= n
           && std::memcmp(a.data() + i, b.data() + i, size_t(CompareChunk)) == 0)
        i += CompareChunk;
    while (i < n && a.at(i) == b.at(i))
        ++i;
    return i;
}

qsizetype commonSuffixLength(QByteArrayView a, QByteArrayView b, qsizetype limit)
{
    const qsizetype n = qMin(limit, qMin(a.size(), b.size()));
    const char *ea = a.data() + a.size();
    const char *eb = b.data() + b.size();
    qsizetype i = 0;
    while (i + CompareChunk <= n
           && std::memcmp(ea - i - CompareChunk, eb - i - CompareChunk, size_t(CompareChunk)) == 0)
        i += CompareChunk;
    while (i < n && ea[-i - 1] == eb[-i - 1])
        ++i;
    return i;
}

qsizetype commonPrefixLength(const std::vector<quint32> &a, const std::vector<quint32> &b)
{
    const auto end = a.begin() + qsizetype(qMin(a.size(), b.size()));
    return qsizetype(std::mismatch(a.begin(), end, b.begin()).first - a.begin());
}

StablePrefix stablePrefix(const QByteArray &a, const QByteArray &b, const TokenEncoder &encode)
{
    StablePrefix prefix;
    prefix.identical = a == b;
    prefix.bytes = commonPrefixLength(a, b);
    prefix.totalBytes = b.size();
    const std::vector<quint32> idsB = encode(b);
    prefix.totalTokens = qint64(idsB.size());
    prefix.tokens = prefix.identical ? prefix.totalTokens : commonPrefixLength(encode(a), idsB);
    return prefix;
}

StablePrefix stablePrefix(const QByteArray &a, const QByteArray &b, const TokenEncoding &encoding)
{
    if (!encoding.bytesAreIds)
        return stablePrefix(a, b, encoding.encode);
    StablePrefix prefix;
    prefix.identical = a == b;
    prefix.bytes = commonPrefixLength(a, b);
    prefix.totalBytes = b.size();
    prefix.tokens = prefix.bytes;
    prefix.totalTokens = prefix.totalBytes;
    return prefix;
}

FirstChange firstChangeInSection(int slot,
                                 QByteArrayView section,
                                 qsizetype sectionOffset,
                                 bool truncated,
                                 qint64 bodyFirstLine,
                                 qsizetype bytePrefix)
{
    FirstChange change;
    change.slot = slot;
    change.file = slotName(slot);
    const QByteArrayView body = section.sliced(sectionHeadLength(slot));
    const qsizetype bodyOffset = sectionOffset + sectionHeadLength(slot);
    // The truncation notice is not in the file: a change there is put on
    // the last line the agent gets.
    const QByteArray &notice = ComposeRule::toolnexus().notice;
    const qsizetype text = body.size() - (truncated && body.endsWith(notice) ? notice.size() : 0);
    const qsizetype within = qBound<qsizetype>(0, bytePrefix - bodyOffset, text);
    const QByteArrayView before = body.first(within);
    change.offset = bodyOffset + within;
    change.line = bodyFirstLine + qint64(std::count(before.begin(), before.end(), '\n'));
    change.column = within - (before.lastIndexOf('\n') + 1);
    return change;
}

std::optional<FirstChange> firstChange(const SectionedSoul &a,
                                       const SectionedSoul &b,
                                       const std::array<SectionStatus, SlotCount> &status,
                                       qsizetype bytePrefix)
{
    // Every section before the first one that differs is the same in both
    // souls, so the first changed byte is in that slot's section.
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SectionStatus s = status[size_t(slot)];
        if (s == SectionStatus::Absent || s == SectionStatus::Unchanged)
            continue;
        FirstChange change;
        change.slot = slot;
        change.file = slotName(slot);
        if (s == SectionStatus::Removed) {
            change.offset = a.sectionOffset[size_t(slot)];
            return change;
        }
        if (s == SectionStatus::Added) {
            change.offset = b.sectionOffset[size_t(slot)];
            return change;
        }
        return firstChangeInSection(slot,
                                    b.section(slot),
                                    b.sectionOffset[size_t(slot)],
                                    b.truncated[size_t(slot)],
                                    b.bodyFirstLine[size_t(slot)],
                                    bytePrefix);
    }
    return std::nullopt;
}

QByteArray unifiedSoulDiff(const SectionedSoul &a, const SectionedSoul &b, int context)
{
    if (a.soul == b.soul)
        return {};
    const QByteArrayView ta(a.soul);
    const QByteArrayView tb(b.soul);
    const Lines la(ta);
    const Lines lb(tb);

    // The lines both souls share at their start and at their end are found
    // in bytes, so only the lines between them are hashed and diffed.
    const qsizetype prefixBytes = commonPrefixLength(ta, tb);
    // Lines that end inside the shared start are the same in both.
    const QByteArrayView shared = ta.first(prefixBytes);
    const auto head = qsizetype(std::count(shared.begin(), shared.end(), '\n'));
    const qsizetype headBytes = la.start(head);
    const qsizetype suffixBytes = commonSuffixLength(ta, tb, qMin(ta.size(), tb.size()) - headBytes);
    qsizetype tailStartA = ta.size() - suffixBytes;
    const auto isLineStart = [](QByteArrayView t, qsizetype at) {
        return at == 0 || at == t.size() || t.at(at - 1) == '\n';
    };
    if (!isLineStart(ta, tailStartA) || !isLineStart(tb, tb.size() - suffixBytes)) {
        // Move to the next line start inside the shared end, where both agree.
        const qsizetype nl = ta.indexOf('\n', tailStartA);
        tailStartA = nl < 0 ? ta.size() : nl + 1;
    }
    const qsizetype tail = la.count() - la.lineAt(tailStartA);

    const qsizetype endA = la.count() - tail;
    const qsizetype endB = lb.count() - tail;
    QHash<QByteArrayView, quint32> ids;
    const auto idOf = [&ids](QByteArrayView line) {
        const auto it = ids.constFind(line);
        if (it != ids.constEnd())
            return *it;
        const auto next = quint32(ids.size());
        ids.insert(line, next);
        return next;
    };
    std::vector<quint32> middleA;
    std::vector<quint32> middleB;
    for (qsizetype i = head; i < endA; ++i)
        middleA.push_back(idOf(la.line(i)));
    for (qsizetype i = head; i < endB; ++i)
        middleB.push_back(idOf(lb.line(i)));

    std::vector<Block> blocks;
    qsizetype i = head;
    qsizetype j = head;
    for (const DiffRun &run : diffSequences(middleA, middleB)) {
        if (run.kind == DiffKind::Keep) {
            i += run.count;
            j += run.count;
            continue;
        }
        if (blocks.empty() || blocks.back().a1 != i || blocks.back().b1 != j)
            blocks.push_back({i, i, j, j});
        if (run.kind == DiffKind::Remove)
            i += run.count;
        else
            j += run.count;
        blocks.back().a1 = i;
        blocks.back().b1 = j;
    }

    QByteArray out;
    out += "--- " + a.label.toUtf8() + "\n+++ " + b.label.toUtf8() + '\n';
    const auto emitLine = [&out](char mark, QByteArrayView line) {
        out += mark;
        out += line;
        if (!line.endsWith('\n'))
            out += "\n\\ No newline at end of file\n";
    };
    const qsizetype ctx = qMax(0, context);
    for (size_t first = 0; first < blocks.size();) {
        size_t last = first;
        while (last + 1 < blocks.size() && blocks[last + 1].a0 - blocks[last].a1 <= 2 * ctx)
            ++last;
        const Block &f = blocks[first];
        const Block &l = blocks[last];
        const qsizetype before = qMin(ctx, f.a0);
        const qsizetype after = qMin(ctx, la.count() - l.a1);
        const qsizetype a0 = f.a0 - before;
        const qsizetype b0 = f.b0 - before;
        const qsizetype a1 = l.a1 + after;
        const qsizetype b1 = l.b1 + after;
        // Named after the section of the first changed line.
        const int slot = f.b1 > f.b0 ? b.slotAt(lb.start(f.b0)) : a.slotAt(la.start(f.a0));
        out += "@@ -" + rangeText(a0, a1 - a0) + " +" + rangeText(b0, b1 - b0) + " @@";
        if (slot >= 0)
            out += ' ' + QByteArray(BootstrapOrder[size_t(slot)]);
        out += '\n';
        qsizetype ai = a0;
        for (size_t k = first; k <= last; ++k) {
            const Block &block = blocks[k];
            for (; ai < block.a0; ++ai)
                emitLine(' ', la.line(ai));
            for (qsizetype r = block.a0; r < block.a1; ++r)
                emitLine('-', la.line(r));
            for (qsizetype s = block.b0; s < block.b1; ++s)
                emitLine('+', lb.line(s));
            ai = block.a1;
        }
        for (; ai < a1; ++ai)
            emitLine(' ', la.line(ai));
        first = last + 1;
    }
    return out;
}

} // namespace soul
