#include "liveprefix.h"

namespace soul {

namespace {

// Blocks of about this size: a keystroke encodes one or two of them.
constexpr qsizetype BlockBytes = qsizetype(16) * 1024;

// Whether a block may end before `at`: a line feed, then an ASCII letter.
// With both built-in encodings' patterns no piece reaches across that point
// (the tokenizer splits long texts there for the same reason).
bool safeBoundary(QByteArrayView bytes, qsizetype at)
{
    if (at <= 0 || at >= bytes.size() || bytes[at - 1] != '\n')
        return false;
    const char c = bytes[at];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

} // namespace

SectionedSoul joinSections(const LiveSections &live, const QString &label)
{
    SectionedSoul s;
    s.label = label;
    qsizetype total = 0;
    for (const auto &section : live.section) {
        if (section)
            total += section->size() + qsizetype(sizeof(SectionJoin) - 1);
    }
    s.soul.reserve(total);
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto &section = live.section[size_t(slot)];
        if (!section)
            continue;
        if (!s.soul.isEmpty())
            s.soul.append(SectionJoin);
        s.sectionOffset[size_t(slot)] = s.soul.size();
        s.sectionLength[size_t(slot)] = section->size();
        s.truncated[size_t(slot)] = live.truncated[size_t(slot)];
        s.bodyFirstLine[size_t(slot)] = live.bodyFirstLine[size_t(slot)];
        s.soul.append(*section);
    }
    return s;
}

LivePrefix::LivePrefix(SectionedSoul snapshot, TokenEncoding encoding)
    : m_snapshot(std::move(snapshot))
    , m_encoding(std::move(encoding))
    , m_snapshotChunks(chunks(m_snapshot))
    , m_snapshotCache(m_snapshotChunks.size())
{}

std::vector<LivePrefix::Chunk> LivePrefix::chunks(const SectionedSoul &soul)
{
    std::vector<Chunk> out;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (!soul.present(slot))
            continue;
        // Each chunk runs to the next section's head: the join belongs to the
        // section before it, as the token counts take it.
        if (!out.empty()) {
            Chunk &last = out.back();
            const qsizetype start = last.bytes.data() - soul.soul.constData();
            last.bytes = QByteArrayView(soul.soul).sliced(start,
                                                          soul.sectionOffset[size_t(slot)] - start);
        }
        out.push_back({slot,
                       QByteArrayView(soul.soul).sliced(soul.sectionOffset[size_t(slot)],
                                                        soul.sectionLength[size_t(slot)])});
    }
    // The last chunk runs to the end of the soul.
    if (!out.empty()) {
        const qsizetype start = out.back().bytes.data() - soul.soul.constData();
        out.back().bytes = QByteArrayView(soul.soul).sliced(start);
    }
    return out;
}

const std::vector<quint32> &LivePrefix::snapshotIds(size_t index)
{
    Cached &c = m_snapshotCache[index];
    if (!c.hasIds) {
        c.ids = m_encoding.encode(m_snapshotChunks[index].bytes);
        c.count = qint64(c.ids.size());
        c.hasIds = true;
    }
    return c.ids;
}

void LivePrefix::encodeBlocks(int slot, QByteArrayView bytes)
{
    Cached &c = m_liveCache[size_t(slot)];
    std::vector<Block> &old = m_liveBlocks[size_t(slot)];
    std::vector<Block> blocks;
    qsizetype middleStart = 0;
    qsizetype middleEnd = bytes.size();
    std::vector<Block> tail;
    if (c.hasIds) {
        // Blocks wholly inside the common prefix, or wholly inside the
        // common suffix, are unchanged, and so are the boundaries after and
        // before them (the byte on each side of a boundary is unchanged).
        const QByteArrayView before(c.bytes);
        const qsizetype prefix = commonPrefixLength(before, bytes);
        const qsizetype most = qMin(before.size(), bytes.size()) - prefix;
        qsizetype suffix = 0;
        while (suffix < most
               && before[before.size() - 1 - suffix] == bytes[bytes.size() - 1 - suffix])
            ++suffix;
        const qsizetype shift = bytes.size() - before.size();
        size_t i = 0;
        for (; i < old.size() && old[i].start + old[i].length < prefix; ++i) {
            middleStart = old[i].start + old[i].length;
            blocks.push_back(std::move(old[i]));
        }
        size_t j = old.size();
        while (j > i && old[j - 1].start - 1 >= before.size() - suffix && old[j - 1].start > 0)
            --j;
        if (j < old.size())
            middleEnd = old[j].start + shift;
        for (; j < old.size(); ++j) {
            old[j].start += shift;
            tail.push_back(std::move(old[j]));
        }
    }
    // The middle, cut at safe boundaries into blocks of about BlockBytes.
    qsizetype from = middleStart;
    while (from < middleEnd) {
        qsizetype end = qMin(middleEnd, from + BlockBytes);
        while (end < middleEnd && !safeBoundary(bytes, end))
            ++end;
        Block b;
        b.start = from;
        b.length = end - from;
        b.ids = m_encoding.encode(bytes.sliced(from, b.length));
        blocks.push_back(std::move(b));
        from = end;
    }
    for (Block &b : tail)
        blocks.push_back(std::move(b));
    c.ids.clear();
    for (const Block &b : blocks)
        c.ids.insert(c.ids.end(), b.ids.begin(), b.ids.end());
    c.bytes = bytes.toByteArray();
    c.count = qint64(c.ids.size());
    c.hasIds = true;
    old = std::move(blocks);
}

const std::vector<quint32> &LivePrefix::liveIds(const Chunk &chunk, int &encoded)
{
    Cached &c = m_liveCache[size_t(chunk.slot)];
    if (!c.hasIds || c.bytes != chunk.bytes) {
        encodeBlocks(chunk.slot, chunk.bytes);
        ++encoded;
    }
    return c.ids;
}

qint64 LivePrefix::liveCount(const Chunk &chunk, int &encoded)
{
    // A chunk the snapshot has at the same place counts as the snapshot's.
    for (size_t i = 0; i < m_snapshotChunks.size(); ++i) {
        if (m_snapshotChunks[i].slot == chunk.slot && m_snapshotChunks[i].bytes == chunk.bytes)
            return qint64(snapshotIds(i).size());
    }
    // A changed chunk keeps its ids: the prefix compares them next.
    return qint64(liveIds(chunk, encoded).size());
}

LiveComparison LivePrefix::compare(const SectionedSoul &live)
{
    LiveComparison out;
    out.status = compareSections(m_snapshot, live);
    StablePrefix &prefix = out.prefix;
    prefix.identical = m_snapshot.soul == live.soul;
    prefix.bytes = commonPrefixLength(m_snapshot.soul, live.soul);
    prefix.totalBytes = live.soul.size();
    out.firstChange = prefix.identical ? std::nullopt
                                       : firstChange(m_snapshot, live, out.status, prefix.bytes);
    if (m_encoding.bytesAreIds) {
        prefix.tokens = prefix.bytes;
        prefix.totalTokens = prefix.totalBytes;
        return out;
    }

    const std::vector<Chunk> liveChunks = chunks(live);
    int encoded = 0;
    for (const Chunk &chunk : liveChunks)
        prefix.totalTokens += liveCount(chunk, encoded);

    // Equal chunks at the same places: their ids are the snapshot's.
    size_t i = 0;
    while (i < m_snapshotChunks.size() && i < liveChunks.size()
           && m_snapshotChunks[i].slot == liveChunks[i].slot
           && m_snapshotChunks[i].bytes == liveChunks[i].bytes) {
        prefix.tokens += qint64(snapshotIds(i).size());
        ++i;
    }
    // From the first chunk that differs: the ids of both sides, chunk after
    // chunk, until they part. Almost always within that first chunk.
    size_t ai = i, bi = i;
    size_t ap = 0, bp = 0;
    while (ai < m_snapshotChunks.size() && bi < liveChunks.size()) {
        const std::vector<quint32> &a = snapshotIds(ai);
        const std::vector<quint32> &b = liveIds(liveChunks[bi], encoded);
        // Each slot has one chunk per soul, so `b` stays valid while `a` is
        // fetched and the next chunk goes to another slot's entry.
        while (ap < a.size() && bp < b.size() && a[ap] == b[bp]) {
            ++ap;
            ++bp;
            ++prefix.tokens;
        }
        if (ap < a.size() && bp < b.size())
            break;
        if (ap == a.size()) {
            ++ai;
            ap = 0;
        }
        if (bp == b.size()) {
            ++bi;
            bp = 0;
        }
    }
    if (prefix.identical)
        prefix.tokens = prefix.totalTokens;
    out.encodedSections = encoded;
    return out;
}

} // namespace soul
