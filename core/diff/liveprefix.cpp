#include "liveprefix.h"

#include "compose/composerule.h"

#include <algorithm>

namespace soul {

namespace {

// Blocks of about this size: a keystroke encodes one or two of them.
constexpr qsizetype BlockBytes = qsizetype(16) * 1024;
// How far an edit may move the text after it and still find it again: the
// blocks after a paste of up to this many bytes keep their counts.
constexpr qsizetype MoveWindow = qsizetype(64) * 1024;
// Bytes before a block (its line feed first) looked for where the text moved.
constexpr qsizetype ProbeBytes = 64;
// Snapshot blocks whose ids are kept for the next prefix.
constexpr size_t HeldBlocks = 2;

// A snapshot section read equal to the model's is that very array: no
// bytes to compare.
bool sameBytes(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && (a.data() == b.data() || a == b);
}

// The toolnexus rule's join between sections, which a live soul is made with.
const QByteArray &sectionJoin()
{
    return ComposeRule::toolnexus().sectionJoin;
}

bool isAsciiLetter(char c)
{
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
            total += section->size() + sectionJoin().size();
    }
    s.soul.reserve(total);
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto &section = live.section[size_t(slot)];
        if (!section)
            continue;
        if (!s.soul.isEmpty())
            s.soul.append(sectionJoin());
        s.sectionOffset[size_t(slot)] = s.soul.size();
        s.sectionLength[size_t(slot)] = section->size();
        s.truncated[size_t(slot)] = live.truncated[size_t(slot)];
        s.bodyFirstLine[size_t(slot)] = live.bodyFirstLine[size_t(slot)];
        s.soul.append(*section);
    }
    return s;
}

qsizetype LivePrefix::Chunk::size() const
{
    return section.size() + (joined ? sectionJoin().size() : 0);
}

char LivePrefix::Chunk::at(qsizetype i) const
{
    return i < section.size() ? section[i] : sectionJoin().at(i - section.size());
}

QByteArrayView LivePrefix::Chunk::slice(qsizetype from, qsizetype to, QByteArray &scratch) const
{
    if (to <= section.size())
        return section.sliced(from, to - from);
    scratch.clear();
    scratch.reserve(to - from);
    if (from < section.size())
        scratch.append(section.sliced(from));
    for (qsizetype i = qMax(from, section.size()); i < to; ++i)
        scratch.append(at(i));
    return scratch;
}

namespace {

// Whether a block may end before `at` of a chunk: a line feed, then an
// ASCII letter. With both built-in encodings' patterns no piece reaches
// across that point (the tokenizer splits long texts there for the same
// reason); the end of a chunk is the "\n\n" before a "## " head.
template<typename C>
bool safeBoundary(const C &chunk, qsizetype at)
{
    return at > 0 && at < chunk.size() && chunk.at(at - 1) == '\n' && isAsciiLetter(chunk.at(at));
}

template<typename C>
qsizetype chunkPrefix(const C &a, const C &b)
{
    qsizetype n = commonPrefixLength(a.section, b.section);
    if (n == qMin(a.section.size(), b.section.size())) {
        while (n < a.size() && n < b.size() && a.at(n) == b.at(n))
            ++n;
    }
    return n;
}

// The bytes `a` and `b` share at their ends, at most `limit`; 0 when only
// one of them ends in a join (the few bytes that could still agree there
// are not worth a block).
template<typename C>
qsizetype chunkSuffix(const C &a, const C &b, qsizetype limit)
{
    if (a.joined != b.joined)
        return 0;
    const qsizetype join = a.joined ? sectionJoin().size() : 0;
    if (limit <= join)
        return limit;
    return join + commonSuffixLength(a.section, b.section, limit - join);
}

} // namespace

LivePrefix::LivePrefix(LiveSections snapshot, TokenEncoding encoding)
    : m_snapshot(std::move(snapshot))
    , m_encoding(std::move(encoding))
{
    int last = -1;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (m_snapshot.section[size_t(slot)])
            last = slot;
    }
    qsizetype offset = 0;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (!m_snapshot.section[size_t(slot)])
            continue;
        SnapshotChunk c;
        c.chunk = {slot, QByteArrayView(*m_snapshot.section[size_t(slot)]), slot != last};
        m_snapshotOffset[size_t(slot)] = offset;
        offset += c.chunk.size();
        if (m_encoding.bytesAreIds) {
            c.count = c.chunk.size();
        } else {
            // Counted once, block by block; the ids are not kept.
            qint64 encoded = 0;
            c.blocks = cutAndCount(c.chunk, 0, c.chunk.size(), encoded);
            for (const Block &b : c.blocks)
                c.count += b.count;
        }
        m_chunks.push_back(std::move(c));
    }
}

int LivePrefix::snapshotChunkOf(int slot) const
{
    for (size_t i = 0; i < m_chunks.size(); ++i) {
        if (m_chunks[i].chunk.slot == slot)
            return int(i);
    }
    return -1;
}

qsizetype LivePrefix::heldIds() const
{
    qsizetype n = 0;
    for (const HeldIds &h : m_held)
        n += qsizetype(h.ids.size());
    return n;
}

std::vector<quint32> LivePrefix::encodeRange(const Chunk &chunk,
                                             qsizetype from,
                                             qsizetype to,
                                             qint64 &encoded) const
{
    QByteArray scratch;
    const QByteArrayView bytes = chunk.slice(from, to, scratch);
    encoded += bytes.size();
    return m_encoding.encode(bytes);
}

std::vector<LivePrefix::Block> LivePrefix::cutAndCount(const Chunk &chunk,
                                                       qsizetype from,
                                                       qsizetype to,
                                                       qint64 &encoded)
{
    std::vector<Block> blocks;
    while (from < to) {
        qsizetype end = qMin(to, from + BlockBytes);
        while (end < to && !safeBoundary(chunk, end))
            ++end;
        Block b;
        b.start = from;
        b.length = end - from;
        b.count = qint64(encodeRange(chunk, from, end, encoded).size());
        blocks.push_back(b);
        from = end;
    }
    return blocks;
}

std::vector<LivePrefix::Block> LivePrefix::reblock(const Chunk &before,
                                                   const std::vector<Block> &blocks,
                                                   const Chunk &after,
                                                   qint64 &encoded)
{
    if (blocks.empty())
        return cutAndCount(after, 0, after.size(), encoded);
    const qsizetype prefix = chunkPrefix(before, after);
    if (prefix == before.size() && prefix == after.size())
        return blocks;

    // Blocks wholly inside the common prefix are unchanged, and so is the
    // boundary after each (the bytes on both sides of it are unchanged).
    std::vector<Block> out;
    size_t head = 0;
    qsizetype middleStart = 0;
    for (; head < blocks.size() && blocks[head].end() < prefix; ++head) {
        out.push_back(blocks[head]);
        middleStart = blocks[head].end();
    }

    // Blocks wholly inside the common suffix, with the byte before each.
    const qsizetype shift = after.size() - before.size();
    const qsizetype suffix = chunkSuffix(before, after, qMin(before.size(), after.size()) - prefix);
    size_t tail = blocks.size();
    while (tail > head && blocks[tail - 1].start > 0
           && blocks[tail - 1].start - 1 >= before.size() - suffix)
        --tail;

    // The common suffix may stop short of the edit: a section cut at the cap
    // ends with other bytes once the text before the cut moved. The blocks
    // after the edit are then found again where the edit moved them: the
    // line feed before one and the bytes after it, matched byte for byte.
    std::vector<Block> moved;
    for (size_t k = head; k < tail && k < head + 3 && moved.empty(); ++k) {
        const Block &old = blocks[k];
        if (old.end() >= before.section.size())
            break;
        if (old.start == 0)
            continue;
        const QByteArrayView probe = before.section.sliced(old.start - 1,
                                                           qMin(ProbeBytes, old.length + 1));
        const qsizetype lo = qMax(middleStart, old.start - 1 - MoveWindow);
        const qsizetype hi = qMin(after.section.size(), old.start - 1 + MoveWindow + probe.size());
        if (hi - lo < probe.size())
            continue;
        qsizetype at = after.section.sliced(lo, hi - lo).indexOf(probe);
        if (at < 0)
            continue;
        at += lo;
        if (at + 1 <= middleStart)
            continue;
        const qsizetype moveBy = at + 1 - old.start;
        const qsizetype matchedEnd = old.start - 1
                                     + commonPrefixLength(before.section.sliced(old.start - 1),
                                                          after.section.sliced(at));
        // A block is kept when its bytes and the byte after it matched, so
        // both its boundaries are still safe.
        for (size_t m = k; m < tail && blocks[m].end() < matchedEnd; ++m)
            moved.push_back({blocks[m].start + moveBy, blocks[m].length, blocks[m].count});
    }

    qsizetype at = middleStart;
    auto fill = [&](qsizetype to) {
        if (to > at) {
            const std::vector<Block> cut = cutAndCount(after, at, to, encoded);
            out.insert(out.end(), cut.begin(), cut.end());
        }
        at = to;
    };
    for (const Block &b : moved) {
        fill(b.start);
        out.push_back(b);
        at = b.end();
    }
    for (size_t k = tail; k < blocks.size(); ++k) {
        const Block b{blocks[k].start + shift, blocks[k].length, blocks[k].count};
        if (b.start < at)
            continue;
        fill(b.start);
        out.push_back(b);
        at = b.end();
    }
    fill(after.size());
    return out;
}

const std::vector<LivePrefix::Block> &LivePrefix::liveBlocks(int slot) const
{
    const LiveSlot &ls = m_live[size_t(slot)];
    if (ls.ownBlocks)
        return ls.blocks;
    // Not its own: the section and its join are the snapshot's.
    return m_chunks[size_t(snapshotChunkOf(slot))].blocks;
}

void LivePrefix::updateSlot(int slot, const LiveSections &live, bool joined, LiveComparison &out)
{
    LiveSlot &ls = m_live[size_t(slot)];
    const std::optional<QByteArray> &section = live.section[size_t(slot)];
    const int ai = snapshotChunkOf(slot);
    if (!section) {
        ls = LiveSlot();
        out.status[size_t(slot)] = ai < 0 ? SectionStatus::Absent : SectionStatus::Removed;
        return;
    }
    // The model hands over the same array while a section is unchanged; we
    // hold a reference to it, so an edit there gives the model a new one.
    const bool same = ls.present && ls.section.constData() == section->constData()
                      && ls.section.size() == section->size();
    const bool equal = same ? ls.equal
                            : ai >= 0 && sameBytes(m_chunks[size_t(ai)].chunk.section, *section);
    out.status[size_t(slot)] = ai < 0  ? SectionStatus::Added
                               : equal ? SectionStatus::Unchanged
                                       : SectionStatus::Changed;

    const Chunk chunk{slot, QByteArrayView(*section), joined};
    if (m_encoding.bytesAreIds) {
        ls.ownBlocks = false;
        ls.blocks.clear();
        ls.count = chunk.size();
    } else if (equal && m_chunks[size_t(ai)].chunk.joined == joined) {
        ls.ownBlocks = false;
        ls.blocks.clear();
        ls.count = m_chunks[size_t(ai)].count;
    } else if (!same || !ls.ownBlocks || ls.joined != joined) {
        // New text: from this slot's last blocks, else from the snapshot's.
        qint64 encoded = 0;
        if (ls.ownBlocks) {
            const Chunk before{slot, QByteArrayView(ls.section), ls.joined};
            ls.blocks = reblock(before, ls.blocks, chunk, encoded);
        } else if (ai >= 0) {
            const SnapshotChunk &c = m_chunks[size_t(ai)];
            ls.blocks = reblock(c.chunk, c.blocks, chunk, encoded);
        } else {
            ls.blocks = cutAndCount(chunk, 0, chunk.size(), encoded);
        }
        ls.ownBlocks = true;
        ls.count = 0;
        for (const Block &b : ls.blocks)
            ls.count += b.count;
        if (encoded > 0)
            ++out.encodedSections;
        out.encodedBytes += encoded;
    }
    ls.section = *section;
    ls.present = true;
    ls.joined = joined;
    ls.equal = equal;
}

const std::vector<quint32> &LivePrefix::snapshotBlockIds(size_t chunk, size_t block, qint64 &encoded)
{
    for (const HeldIds &h : m_held) {
        if (h.chunk == chunk && h.block == block)
            return h.ids;
    }
    if (m_held.size() >= HeldBlocks)
        m_held.erase(m_held.begin());
    const SnapshotChunk &c = m_chunks[chunk];
    const Block &b = c.blocks[block];
    m_held.push_back({chunk, block, encodeRange(c.chunk, b.start, b.end(), encoded)});
    return m_held.back().ids;
}

LiveComparison LivePrefix::compare(const LiveSections &live)
{
    LiveComparison out;
    int last = -1;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (live.section[size_t(slot)])
            last = slot;
    }
    std::vector<Chunk> b;
    std::array<qsizetype, SlotCount> offset{};
    StablePrefix &prefix = out.prefix;
    for (int slot = 0; slot < SlotCount; ++slot) {
        updateSlot(slot, live, slot != last, out);
        if (!live.section[size_t(slot)])
            continue;
        b.push_back({slot, QByteArrayView(*live.section[size_t(slot)]), slot != last});
        offset[size_t(slot)] = prefix.totalBytes;
        prefix.totalBytes += b.back().size();
        prefix.totalTokens += m_live[size_t(slot)].count;
    }
    prefix.identical = std::all_of(out.status.begin(), out.status.end(), [](SectionStatus s) {
        return s == SectionStatus::Absent || s == SectionStatus::Unchanged;
    });
    if (prefix.identical) {
        prefix.bytes = prefix.totalBytes;
        prefix.tokens = prefix.totalTokens;
        return out;
    }

    // The chunks before the first one that differs are the same on both
    // sides, and so are their counts.
    size_t first = 0;
    qint64 bytesBefore = 0;
    qint64 tokensBefore = 0;
    while (first < m_chunks.size() && first < b.size()) {
        const Chunk &a = m_chunks[first].chunk;
        const int slot = b[first].slot;
        if (a.slot != slot || !m_live[size_t(slot)].equal || a.joined != b[first].joined)
            break;
        bytesBefore += a.size();
        tokensBefore += m_chunks[first].count;
        ++first;
    }

    // The bytes from there on, across chunks, until they part.
    qsizetype common = 0;
    {
        size_t ia = first;
        size_t ib = first;
        qsizetype oa = 0;
        qsizetype ob = 0;
        const QByteArrayView join(sectionJoin());
        auto run = [&join](const Chunk &c, qsizetype o) {
            return o < c.section.size() ? c.section.sliced(o) : join.sliced(o - c.section.size());
        };
        while (ia < m_chunks.size() && ib < b.size()) {
            if (oa == m_chunks[ia].chunk.size()) {
                ++ia;
                oa = 0;
                continue;
            }
            if (ob == b[ib].size()) {
                ++ib;
                ob = 0;
                continue;
            }
            const QByteArrayView ra = run(m_chunks[ia].chunk, oa);
            const QByteArrayView rb = run(b[ib], ob);
            const qsizetype n = commonPrefixLength(ra, rb);
            common += n;
            oa += n;
            ob += n;
            if (n < qMin(ra.size(), rb.size()))
                break;
        }
    }
    prefix.bytes = bytesBefore + common;

    for (int slot = 0; slot < SlotCount; ++slot) {
        const SectionStatus s = out.status[size_t(slot)];
        if (s == SectionStatus::Absent || s == SectionStatus::Unchanged)
            continue;
        if (s == SectionStatus::Changed) {
            out.firstChange = firstChangeInSection(slot,
                                                   *live.section[size_t(slot)],
                                                   offset[size_t(slot)],
                                                   live.truncated[size_t(slot)],
                                                   live.bodyFirstLine[size_t(slot)],
                                                   prefix.bytes);
        } else {
            FirstChange change;
            change.slot = slot;
            change.file = slotName(slot);
            change.offset = s == SectionStatus::Removed ? m_snapshotOffset[size_t(slot)]
                                                        : offset[size_t(slot)];
            out.firstChange = change;
        }
        break;
    }

    if (m_encoding.bytesAreIds) {
        prefix.tokens = prefix.bytes;
        return out;
    }

    // The ids of both sides from a block start before the first differing
    // byte (one both sides have, so a safe boundary on both), block after
    // block, until they part: almost always within the first block.
    prefix.tokens = tokensBefore;
    size_t ja = 0; // the snapshot's block of chunk `first`
    qsizetype start = 0;
    if (first < m_chunks.size() && first < b.size()) {
        const std::vector<Block> &blocks = m_chunks[first].blocks;
        const qsizetype limit = qMin<qsizetype>(common, b[first].size());
        while (ja + 1 < blocks.size() && blocks[ja + 1].start < limit) {
            prefix.tokens += blocks[ja].count;
            ++ja;
        }
        start = blocks.empty() ? 0 : blocks[ja].start;
    }
    size_t ia = first;
    size_t ib = first;
    qsizetype ob = start;
    qint64 encoded = 0;
    auto nextA = [&](std::vector<quint32> &ids) {
        while (ia < m_chunks.size() && ja >= m_chunks[ia].blocks.size()) {
            ++ia;
            ja = 0;
        }
        if (ia >= m_chunks.size())
            return false;
        ids = snapshotBlockIds(ia, ja, encoded);
        ++ja;
        return true;
    };
    auto nextB = [&](std::vector<quint32> &ids) {
        while (ib < b.size() && ob >= b[ib].size()) {
            ++ib;
            ob = 0;
        }
        if (ib >= b.size())
            return false;
        // To the end of the live block that holds `ob`: a safe boundary.
        const std::vector<Block> &blocks = liveBlocks(b[ib].slot);
        auto it = std::upper_bound(blocks.begin(),
                                   blocks.end(),
                                   ob,
                                   [](qsizetype o, const Block &k) { return o < k.end(); });
        const qsizetype end = it == blocks.end() ? b[ib].size() : it->end();
        ids = encodeRange(b[ib], ob, end, encoded);
        ob = end;
        return true;
    };
    std::vector<quint32> idsA;
    std::vector<quint32> idsB;
    size_t pa = 0;
    size_t pb = 0;
    for (;;) {
        if (pa == idsA.size()) {
            if (!nextA(idsA))
                break;
            pa = 0;
            continue;
        }
        if (pb == idsB.size()) {
            if (!nextB(idsB))
                break;
            pb = 0;
            continue;
        }
        while (pa < idsA.size() && pb < idsB.size() && idsA[pa] == idsB[pb]) {
            ++pa;
            ++pb;
            ++prefix.tokens;
        }
        if (pa < idsA.size() && pb < idsB.size())
            break;
    }
    out.encodedBytes += encoded;
    return out;
}

} // namespace soul
