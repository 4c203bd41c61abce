#pragma once

#include "souldiff.h"

#include <QByteArray>

#include <array>
#include <optional>
#include <vector>

// Comparing a soul being edited against a fixed one (a snapshot) again and
// again, keystroke after keystroke, without encoding the whole soul each
// time. No token spans the "\n\n" join and the "## " after it, so the ids of
// a soul are the ids of its sections, each with the join after it, laid end
// to end. Sections equal to the snapshot's take the snapshot's ids (encoded
// once); a section that differs is encoded once per new text; the stable
// prefix is the equal sections' ids plus the common prefix of the ids from
// the first section that differs on.
namespace soul {

// The live side, as the persona model holds it: each present slot's section
// ("## NAME\n\n" + body), whether it was truncated, and the line of its file
// where the body starts.
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
    // How many sections had to be encoded for this comparison (for tests and
    // the benchmark: an edit encodes only sections whose text is new).
    int encodedSections = 0;
};

// Not thread-safe: one comparison at a time, from any one thread.
class LivePrefix
{
public:
    LivePrefix(SectionedSoul snapshot, TokenEncoding encoding);

    const SectionedSoul &snapshot() const { return m_snapshot; }
    const TokenEncoding &encoding() const { return m_encoding; }

    // The snapshot (a) against `live` (b): the same numbers as
    // compareSections(), stablePrefix() and firstChange() of the two souls.
    LiveComparison compare(const SectionedSoul &live);

private:
    struct Chunk
    {
        int slot = -1;
        QByteArrayView bytes; // the section and the join after it
    };
    struct Cached
    {
        QByteArray bytes;
        std::vector<quint32> ids;
        qint64 count = -1;
        bool hasIds = false;
    };
    // A stretch of a live chunk that ends where no token can cross (after a
    // line feed followed by an ASCII letter), with its ids: an edit encodes
    // again only the blocks it touches.
    struct Block
    {
        qsizetype start = 0;
        qsizetype length = 0;
        std::vector<quint32> ids;
    };
    void encodeBlocks(int slot, QByteArrayView bytes);
    static std::vector<Chunk> chunks(const SectionedSoul &soul);
    const std::vector<quint32> &snapshotIds(size_t index);
    const std::vector<quint32> &liveIds(const Chunk &chunk, int &encoded);
    qint64 liveCount(const Chunk &chunk, int &encoded);

    SectionedSoul m_snapshot;
    TokenEncoding m_encoding;
    std::vector<Chunk> m_snapshotChunks;
    std::vector<Cached> m_snapshotCache; // by index in m_snapshotChunks
    std::array<Cached, SlotCount> m_liveCache;
    std::array<std::vector<Block>, SlotCount> m_liveBlocks;
};

} // namespace soul
