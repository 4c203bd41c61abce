#pragma once

#include "compose/composerule.h"
#include "compose/contract.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QMutex>
#include <QString>

#include <array>
#include <atomic>
#include <memory>
#include <optional>

// The sizes and token counts of a persona's sections across its history,
// cached by blob: a slot's section depends only on its blob (and the rule),
// so a blob is composed and counted once however many commits hold it.
// PersonaHistory::measure() fills and reads it. Both caches are bounded
// (MaxCachedSections, MaxCachedPieceBytes) and start again when full, so a
// history of any length is measured in the same memory: neighbouring commits
// share their blobs and lines, and those are what the caches are for.
//
// Safe to share between threads (a window's workers): lookups and inserts
// take a lock, counting does not, so two threads may count the same blob
// at the same moment; both get the same numbers.
namespace soul {

class Tokenizer;
struct SoulFigures;

class HistoryCounts
{
public:
    // `tokenizer` must not be null.
    explicit HistoryCounts(std::shared_ptr<const Tokenizer> tokenizer,
                           ComposeRule rule = ComposeRule::toolnexus());

    const ComposeRule &rule() const { return m_rule; }
    const Tokenizer &tokenizer() const { return *m_tokenizer; }

    // One slot's section ("## NAME\n\n" and the body, by the rule) measured.
    struct Section
    {
        qint64 bytes = 0;
        qint64 tokens = 0;      // the section alone, as soulc stat counts it
        qint64 shareTokens = 0; // the section and the join after it
        bool truncated = false;
    };

    // Composes slot `slot`'s section from `bytes` (its file, or at least the
    // first rule().readLimit() bytes of it) and counts it. With a tokenizer
    // that splits at lines (the built-in encodings) the section is counted
    // line by line, cut where no token crosses, and each line's count is
    // kept: a blob that differs from an earlier one by a line costs the
    // tokenizer that line, not the file.
    Section countSection(int slot, QByteArrayView bytes) const;

    // The cached section of `slot` made from blob `blobId` (hex), if counted.
    std::optional<Section> find(int slot, const QByteArray &blobId) const;
    void insert(int slot, const QByteArray &blobId, const Section &section);

    // How many sections countSection() has measured: a test of the cache
    // (measuring a history twice counts nothing the second time).
    qint64 sectionsCounted() const { return m_counted.load(); }
    // How many pieces of sections the tokenizer counted (see countSection()).
    qint64 piecesCounted() const { return m_piecesCounted.load(); }

    // The soul's figures from its sections (std::nullopt: the slot is
    // absent), in the rule's order. The soul's tokens are the sum of each
    // section's share and the last section alone: no token of the built-in
    // encodings crosses from a join into the next "## " head, so this is the
    // count of the joined soul without joining it.
    void addSoul(SoulFigures &figures,
                 const std::array<std::optional<Section>, SlotCount> &sections) const;

    // The bounds of the caches: sections kept, and bytes of pieces kept.
    static constexpr qsizetype MaxCachedSections = 16384;
    static constexpr qint64 MaxCachedPieceBytes = qint64(4) << 20;

private:
    static QByteArray key(int slot, const QByteArray &blobId);

    std::shared_ptr<const Tokenizer> m_tokenizer;
    ComposeRule m_rule;
    mutable QMutex m_mutex;
    QHash<QByteArray, Section> m_sections;      // guarded by m_mutex
    mutable QHash<QByteArray, qint64> m_pieces; // guarded by m_mutex
    mutable qint64 m_pieceBytes = 0;            // the keys' bytes in m_pieces, guarded by m_mutex
    mutable std::atomic<qint64> m_counted{0};
    mutable std::atomic<qint64> m_piecesCounted{0};

    qint64 countPiece(QByteArrayView piece) const;
    qint64 countByLines(QByteArrayView text, QByteArrayView *lastPiece) const;
};

} // namespace soul
