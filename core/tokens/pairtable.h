#pragma once

#include <QtGlobal>

#include <vector>

// (left id, right id) -> (merge rank, merged id): the merge list of a Hugging
// Face BPE model, read only after it is built. Open addressing, at most half
// full.
namespace soul::tokens {

class PairTable
{
public:
    static constexpr quint32 NoRank = 0xFFFFFFFFu;

    struct Merge
    {
        quint32 rank = NoRank;
        quint32 id = NoRank;
    };

    void reserve(qsizetype count)
    {
        quint64 capacity = 16;
        while (capacity < quint64(count) * 2)
            capacity *= 2;
        m_slots.assign(capacity, Slot{});
        m_mask = capacity - 1;
    }

    // False when the pair is already present (the first, lower rank is kept).
    bool insert(quint32 left, quint32 right, Merge merge)
    {
        const quint64 key = keyOf(left, right);
        for (quint64 i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
            if (m_slots[i].key == EmptyKey) {
                m_slots[i] = Slot{key, merge};
                return true;
            }
            if (m_slots[i].key == key)
                return false;
        }
    }

    Merge find(quint32 left, quint32 right) const
    {
        if (m_slots.empty())
            return {};
        const quint64 key = keyOf(left, right);
        for (quint64 i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
            if (m_slots[i].key == key)
                return m_slots[i].merge;
            if (m_slots[i].key == EmptyKey)
                return {};
        }
    }

    qsizetype memoryBytes() const
    {
        const size_t bytes = m_slots.capacity() * sizeof(Slot);
        return qsizetype(bytes);
    }

private:
    static constexpr quint64 EmptyKey = ~quint64(0);
    static quint64 keyOf(quint32 left, quint32 right) { return (quint64(left) << 32) | right; }
    static quint64 mix(quint64 k)
    {
        k ^= k >> 33;
        k *= 0xFF51AFD7ED558CCDull;
        k ^= k >> 33;
        return k;
    }

    struct Slot
    {
        quint64 key = EmptyKey;
        Merge merge;
    };
    std::vector<Slot> m_slots;
    quint64 m_mask = 0;
};

} // namespace soul::tokens
