#pragma once

#include "souldiff.h"

#include <QByteArray>

#include <array>
#include <optional>
#include <vector>

// Comparing a soul being edited against a fixed one (a snapshot) again and
// again, keystroke after keystroke, without joining, comparing or encoding
// the whole soul each time.
//
// No token spans a line feed followed by an ASCII letter (the "\n\n## " of a
// join is one such place), so the ids of a soul are the ids of its sections,
// each with the join after it (a "chunk"), laid end to end, and the ids of a
// chunk are those of its blocks: stretches of about 16 KiB cut at such
// places. Only the count of each block is kept. A section the live side
// shares with the snapshot (the same array as last time, or equal bytes once
// when it is new) takes the snapshot's count; an edited one encodes again
// only the blocks its edit touched, also when the rest of it moved by the
// edit's length. The stable prefix in ids is the count of the chunks and
// blocks before the first differing byte plus the common prefix of the ids
// of both sides from that block on, encoded there on demand.
namespace soul {

// A soul as one array per section: each present slot's section
// ("## NAME\n\n" + body), whether it was truncated, and the line of its file
// where the body starts. The live side's arrays are shared with the model,
// not copied; a snapshot's are shared with it where they are equal.
struct LiveSections
{
    std::array<std::optional<QByteArray>, SlotCount> section;
    std::array<bool, SlotCount> truncated{};
    std::array<qint64, SlotCount> bodyFirstLine{1, 1, 1, 1, 1, 1, 1};
};

// The sections joined into a soul, as compose() joins them.
SectionedSoul joinSections(const LiveSections &live, const QString &label);

struct LiveComparison
{
    std::array<SectionStatus, SlotCount> status{};
    StablePrefix prefix;
    std::optional<FirstChange> firstChange;
    // How many sections had blocks encoded again for their counts, and how
    // many bytes were encoded in all (for tests and the benchmark: an edit
    // encodes only the blocks around it and where the prefix ends).
    int encodedSections = 0;
    qint64 encodedBytes = 0;
};

// Not thread-safe: one comparison at a time, from any one thread.
class LivePrefix
{
public:
    // The snapshot as one array per section (as loadSnapshotSections() reads
    // it, sharing the arrays the model holds where they are equal), kept for
    // the life of the comparison; its chunks view those arrays.
    LivePrefix(LiveSections snapshot, TokenEncoding encoding);

    const LiveSections &snapshot() const { return m_snapshot; }
    const TokenEncoding &encoding() const { return m_encoding; }

    // The snapshot (a) against `live` (b): the same numbers as
    // compareSections(), stablePrefix() and firstChange() of the two souls.
    LiveComparison compare(const LiveSections &live);

    // Ids held now, for tests: those of snapshot blocks kept for the next
    // prefix (a block or two), never those of whole sections.
    qsizetype heldIds() const;

    struct Block
    {
        qsizetype start = 0;
        qsizetype length = 0;
        qint64 count = 0;
        qsizetype end() const { return start + length; }
    };

private:
    // A section and, when another section follows it, the join after it.
    struct Chunk
    {
        int slot = -1;
        QByteArrayView section;
        bool joined = false;
        qsizetype size() const;
        char at(qsizetype i) const;
        // Bytes [from, to): a view of the section, or a copy in `scratch`
        // when the range takes in the join.
        QByteArrayView slice(qsizetype from, qsizetype to, QByteArray &scratch) const;
    };
    struct SnapshotChunk
    {
        Chunk chunk;
        std::vector<Block> blocks;
        qint64 count = 0;
    };
    struct LiveSlot
    {
        QByteArray section; // shared with the model
        bool present = false;
        bool joined = false;
        bool equal = false; // the section is the snapshot's section of this slot
        // Blocks of (section, joined); empty when the count is the snapshot's.
        std::vector<Block> blocks;
        bool ownBlocks = false;
        qint64 count = 0;
    };
    // Ids of one snapshot block, kept while the prefix ends there.
    struct HeldIds
    {
        size_t chunk = 0;
        size_t block = 0;
        std::vector<quint32> ids;
    };
    std::vector<Block> cutAndCount(const Chunk &chunk,
                                   qsizetype from,
                                   qsizetype to,
                                   qint64 &encoded);
    std::vector<Block> reblock(const Chunk &before,
                               const std::vector<Block> &blocks,
                               const Chunk &after,
                               qint64 &encoded);
    void updateSlot(int slot, const LiveSections &live, bool joined, LiveComparison &out);
    const std::vector<Block> &liveBlocks(int slot) const;
    const std::vector<quint32> &snapshotBlockIds(size_t chunk, size_t block, qint64 &encoded);
    std::vector<quint32> encodeRange(const Chunk &chunk,
                                     qsizetype from,
                                     qsizetype to,
                                     qint64 &encoded) const;
    int snapshotChunkOf(int slot) const;

    LiveSections m_snapshot;
    // Where each snapshot section starts in the soul its chunks make.
    std::array<qsizetype, SlotCount> m_snapshotOffset{};
    TokenEncoding m_encoding;
    std::vector<SnapshotChunk> m_chunks;
    std::array<LiveSlot, SlotCount> m_live;
    std::vector<HeldIds> m_held;
};

} // namespace soul
