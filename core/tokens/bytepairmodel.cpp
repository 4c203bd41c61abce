#include "bytepairmodel.h"

#include <algorithm>
#include <functional>

namespace soul::tokens {

namespace {

constexpr quint32 NoId = RankTable::NoId;
constexpr quint32 NoRank = PairTable::NoRank;

// std::push_heap / pop_heap build a max-heap; the smallest key must come first.
using LaterCandidate = std::greater<quint64>;

} // namespace

BytePairModel::BytePairModel(Kind kind, RankTable tokens, PairTable merges, bool wholeTokens)
    : m_kind(kind)
    , m_tokens(std::move(tokens))
    , m_merges(std::move(merges))
    , m_wholeTokens(wholeTokens)
{
    for (int b = 0; b < 256; ++b) {
        const char c = char(b);
        m_byteIds[size_t(b)] = m_tokens.find(&c, 1);
    }
}

BytePairModel BytePairModel::fromRanks(RankTable tokens)
{
    return BytePairModel(Kind::Ranks, std::move(tokens), PairTable(), true);
}

BytePairModel BytePairModel::fromMerges(RankTable vocabulary, PairTable merges, bool ignoreMerges)
{
    return BytePairModel(Kind::Merges, std::move(vocabulary), std::move(merges), ignoreMerges);
}

quint32 BytePairModel::wholeToken(QByteArrayView piece) const
{
    if (piece.size() == 1)
        return m_byteIds[uchar(piece[0])];
    if (!m_wholeTokens)
        return NoId;
    return m_tokens.find(piece);
}

template<typename Emit>
void BytePairModel::merge(QByteArrayView piece, Scratch &scratch, Emit &&emit) const
{
    if (piece.size() <= FlatLimit)
        mergeFlat(piece, scratch, emit);
    else
        mergeHeap(piece, scratch, emit);
}

template<typename Emit>
void BytePairModel::mergeFlat(QByteArrayView piece, Scratch &scratch, Emit &&emit) const
{
    const char *data = piece.data();
    const auto n = quint32(piece.size());
    auto &parts = scratch.parts;
    parts.resize(n);
    for (quint32 i = 0; i < n; ++i)
        parts[i] = {i, m_byteIds[uchar(data[i])], NoRank, NoId};
    quint32 count = n;
    const auto endOf = [&](quint32 i) { return i + 1 < count ? parts[i + 1].start : n; };
    const auto pairAt = [&](quint32 i) {
        const PairTable::Merge m
            = pairOf(data, parts[i].start, endOf(i + 1), parts[i].id, parts[i + 1].id);
        parts[i].pairRank = m.rank;
        parts[i].pairId = m.id;
    };
    for (quint32 i = 0; i + 1 < count; ++i)
        pairAt(i);
    for (;;) {
        quint32 best = NoRank;
        quint32 at = 0;
        for (quint32 i = 0; i + 1 < count; ++i) {
            if (parts[i].pairRank < best) {
                best = parts[i].pairRank;
                at = i;
            }
        }
        if (best == NoRank)
            break;
        parts[at].id = parts[at].pairId;
        parts.erase(parts.begin() + at + 1);
        --count;
        if (at + 1 < count)
            pairAt(at);
        else
            parts[at].pairRank = NoRank;
        if (at > 0)
            pairAt(at - 1);
    }
    for (quint32 i = 0; i < count; ++i) {
        if (parts[i].id != NoId)
            emit(parts[i].id);
    }
}

template<typename Emit>
void BytePairModel::mergeHeap(QByteArrayView piece, Scratch &scratch, Emit &&emit) const
{
    // A node's candidate is current when the heap entry's rank is the node's
    // pair rank: a rank names one pair (one byte string, or one merge), and a
    // node's pair only ever grows, so an old entry with an equal rank cannot
    // be mistaken for a new pair.
    const char *data = piece.data();
    const auto n = quint32(piece.size());
    auto &nodes = scratch.nodes;
    auto &heap = scratch.heap;
    nodes.resize(n);
    heap.clear();
    for (quint32 i = 0; i < n; ++i)
        nodes[i] = {i, m_byteIds[uchar(data[i])], i - 1, i + 1, NoRank, NoId};
    const auto endOf = [&](quint32 i) { return nodes[i].next < n ? nodes[nodes[i].next].start : n; };
    const auto update = [&](quint32 i) {
        Scratch::Node &node = nodes[i];
        const quint32 right = node.next;
        const PairTable::Merge m
            = right < n ? pairOf(data, node.start, endOf(right), node.id, nodes[right].id)
                        : PairTable::Merge{};
        node.pairRank = m.rank;
        node.pairId = m.id;
        return m.rank;
    };
    for (quint32 i = 0; i + 1 < n; ++i) {
        const quint32 rank = update(i);
        if (rank != NoRank)
            heap.push_back((quint64(rank) << 32) | i);
    }
    std::make_heap(heap.begin(), heap.end(), LaterCandidate{});
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), LaterCandidate{});
        const quint64 key = heap.back();
        heap.pop_back();
        const auto i = quint32(key);
        Scratch::Node &node = nodes[i];
        if (node.start == NoId || node.pairRank != quint32(key >> 32))
            continue;
        const quint32 right = node.next;
        node.id = node.pairId;
        node.next = nodes[right].next;
        nodes[right].start = NoId;
        nodes[right].pairRank = NoRank;
        if (node.next < n)
            nodes[node.next].prev = i;
        for (const quint32 changed : {i, i > 0 ? node.prev : NoId}) {
            if (changed == NoId)
                continue;
            const quint32 rank = update(changed);
            if (rank != NoRank) {
                heap.push_back((quint64(rank) << 32) | changed);
                std::push_heap(heap.begin(), heap.end(), LaterCandidate{});
            }
        }
    }
    for (quint32 i = 0; i < n; i = nodes[i].next) {
        if (nodes[i].id != NoId)
            emit(nodes[i].id);
    }
}

void BytePairModel::mergeInto(QByteArrayView piece,
                              Scratch &scratch,
                              std::vector<quint32> &out) const
{
    if (piece.isEmpty())
        return;
    merge(piece, scratch, [&out](quint32 id) { out.push_back(id); });
}

} // namespace soul::tokens
