#pragma once

#include "pairtable.h"
#include "ranktable.h"

#include <QByteArrayView>

#include <array>
#include <vector>

// Byte-pair merging of one pre-tokenized piece. Two kinds of model share the
// merge loop:
// - Ranks (tiktoken's .tiktoken files): every token is a byte string with a
//   rank, which is also its id; two adjacent parts merge when their bytes
//   together are a token, the lowest rank first.
// - Merges (a Hugging Face byte-level BPE): a vocabulary and an ordered list
//   of merges; two adjacent parts merge when their pair is in the list, the
//   earliest first.
// Either way, among equal ranks the leftmost pair merges first.
//
// Short pieces merge in a flat array (a scan for the minimum per merge, which
// beats anything cleverer below a hundred bytes); longer ones in a linked
// list with a min-heap of candidate pairs, O(n log n), so a megabyte of one
// letter or a long base64 blob stays fast. Neither allocates per merge: the
// buffers live in a Scratch the caller reuses across pieces.
namespace soul::tokens {

class BytePairModel
{
public:
    enum class Kind { Ranks, Merges };

    // Buffers reused from one piece to the next.
    struct Scratch
    {
        struct Part
        {
            quint32 start;
            quint32 id;
            quint32 pairRank;
            quint32 pairId;
        };
        struct Node
        {
            quint32 start; // NoId once merged into its left neighbour
            quint32 id;
            quint32 prev;
            quint32 next;
            quint32 pairRank; // of this node with the next; NoRank for none
            quint32 pairId;
        };
        std::vector<Part> parts;
        std::vector<Node> nodes;
        // Candidate pairs, rank << 32 | node: a min-heap with stale entries
        // left in place and skipped when their rank is no longer the node's.
        std::vector<quint64> heap;
    };

    // Pieces at most this long merge in the flat array.
    static constexpr qsizetype FlatLimit = 96;

    static BytePairModel fromRanks(RankTable tokens);
    // `vocabulary` maps byte strings to ids; `byteIds` is the id of each
    // single byte (RankTable::NoId where the vocabulary lacks it); `merges`
    // holds the merge list. `ignoreMerges`: a piece that is itself in the
    // vocabulary is one token without merging (Llama 3 sets it).
    static BytePairModel fromMerges(RankTable vocabulary, PairTable merges, bool ignoreMerges);

    Kind kind() const { return m_kind; }
    qsizetype vocabularySize() const { return m_tokens.size(); }
    qsizetype memoryBytes() const { return m_tokens.memoryBytes() + m_merges.memoryBytes(); }

    // The id of the whole piece when it is one token without merging, else
    // RankTable::NoId.
    quint32 wholeToken(QByteArrayView piece) const;
    // Appends the ids of `piece` to `out`, merging byte by byte (callers try
    // wholeToken() first).
    void mergeInto(QByteArrayView piece, Scratch &scratch, std::vector<quint32> &out) const;

private:
    BytePairModel(Kind kind, RankTable tokens, PairTable merges, bool wholeTokens);
    // Merges `piece` and calls emit(id) for each resulting token in order.
    template<typename Emit>
    void merge(QByteArrayView piece, Scratch &scratch, Emit &&emit) const;
    template<typename Emit>
    void mergeFlat(QByteArrayView piece, Scratch &scratch, Emit &&emit) const;
    template<typename Emit>
    void mergeHeap(QByteArrayView piece, Scratch &scratch, Emit &&emit) const;
    // The merge of the parts [start, middle) and [middle, end) with ids
    // `left` and `right`: its rank and the merged id, or NoRank.
    PairTable::Merge pairOf(
        const char *data, quint32 start, quint32 end, quint32 left, quint32 right) const
    {
        if (m_kind == Kind::Ranks) {
            const quint32 rank = m_tokens.find(data + start, qsizetype(end - start));
            return {rank, rank};
        }
        if (left == RankTable::NoId || right == RankTable::NoId)
            return {};
        return m_merges.find(left, right);
    }

    Kind m_kind = Kind::Ranks;
    RankTable m_tokens;
    PairTable m_merges;
    std::array<quint32, 256> m_byteIds{};
    bool m_wholeTokens = true;
};

} // namespace soul::tokens
