#pragma once

#include <QByteArrayView>
#include <QtGlobal>

#include <algorithm>
#include <cstring>
#include <vector>

// A byte string -> id map built once and then only read: one arena for the
// bytes and an open-addressing table of 64-bit slots (hash tag and index), so
// a lookup touches one cache line of the table and one of the arena, and the
// whole vocabulary of o200k_base stays near 5 MiB.
namespace soul::tokens {

class RankTable
{
public:
    static constexpr quint32 NoId = 0xFFFFFFFFu;

    // Makes room for `count` entries of `totalBytes` bytes in all.
    void reserve(qsizetype count, qsizetype totalBytes);
    // False when `bytes` is already present (the first id is kept).
    bool insert(QByteArrayView bytes, quint32 id);

    quint32 find(const char *data, qsizetype size) const
    {
        if (m_slots.empty())
            return NoId;
        const quint64 h = hash(data, size);
        const quint32 tag = quint32(h >> 32);
        for (quint64 i = h & m_mask;; i = (i + 1) & m_mask) {
            const quint64 slot = m_slots[i];
            if (slot == EmptySlot)
                return NoId;
            if (quint32(slot >> 32) != tag)
                continue;
            const quint32 entry = quint32(slot);
            const quint32 begin = m_offsets[entry];
            const quint32 length = m_offsets[entry + 1] - begin;
            if (length == quint32(size) && std::equal(data, data + size, m_arena.data() + begin))
                return m_ids[entry];
        }
    }
    quint32 find(QByteArrayView bytes) const { return find(bytes.data(), bytes.size()); }

    qsizetype size() const { return qsizetype(m_ids.size()); }
    qsizetype memoryBytes() const;

    static quint64 hash(const char *data, qsizetype size)
    {
        // Eight bytes at a time with a multiply-xorshift mix: pieces are short
        // (a few bytes), so the loop runs once or twice.
        quint64 h = 0x9E3779B97F4A7C15ull ^ quint64(size) * 0xFF51AFD7ED558CCDull;
        qsizetype i = 0;
        for (; i + 8 <= size; i += 8) {
            quint64 w;
            std::memcpy(&w, data + i, 8);
            h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
            h ^= h >> 29;
        }
        if (i < size) {
            quint64 w = 0;
            std::memcpy(&w, data + i, size_t(size - i));
            h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
            h ^= h >> 29;
        }
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
        return h;
    }

private:
    static constexpr quint64 EmptySlot = ~quint64(0);
    void grow();

    std::vector<char> m_arena;
    std::vector<quint32> m_offsets{0}; // entry i is m_arena[m_offsets[i], m_offsets[i + 1])
    std::vector<quint32> m_ids;
    std::vector<quint64> m_slots;
    quint64 m_mask = 0;
};

} // namespace soul::tokens
