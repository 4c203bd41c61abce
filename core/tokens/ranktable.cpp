#include "ranktable.h"

namespace soul::tokens {

void RankTable::reserve(qsizetype count, qsizetype totalBytes)
{
    m_arena.reserve(size_t(totalBytes));
    m_offsets.reserve(size_t(count) + 1);
    m_ids.reserve(size_t(count));
    // At most half full, so probes stay short.
    quint64 capacity = 16;
    while (capacity < quint64(count) * 2)
        capacity *= 2;
    if (capacity > m_slots.size()) {
        m_slots.assign(capacity, EmptySlot);
        m_mask = capacity - 1;
        for (quint32 e = 0; e < quint32(m_ids.size()); ++e) {
            const quint32 begin = m_offsets[e];
            const quint64 h = hash(m_arena.data() + begin, qsizetype(m_offsets[e + 1] - begin));
            quint64 i = h & m_mask;
            while (m_slots[i] != EmptySlot)
                i = (i + 1) & m_mask;
            m_slots[i] = (h & 0xFFFFFFFF00000000ull) | e;
        }
    }
}

void RankTable::grow()
{
    reserve(qsizetype(m_ids.size()) * 2 + 16, qsizetype(m_arena.size()));
}

bool RankTable::insert(QByteArrayView bytes, quint32 id)
{
    if (quint64(m_ids.size() + 1) * 2 > m_slots.size())
        grow();
    const quint64 h = hash(bytes.data(), bytes.size());
    quint64 i = h & m_mask;
    for (; m_slots[i] != EmptySlot; i = (i + 1) & m_mask) {
        if (quint32(m_slots[i] >> 32) != quint32(h >> 32))
            continue;
        const quint32 e = quint32(m_slots[i]);
        const quint32 begin = m_offsets[e];
        if (QByteArrayView(m_arena.data() + begin, qsizetype(m_offsets[e + 1] - begin)) == bytes)
            return false;
    }
    const auto entry = quint32(m_ids.size());
    m_arena.insert(m_arena.end(), bytes.begin(), bytes.end());
    m_offsets.push_back(quint32(m_arena.size()));
    m_ids.push_back(id);
    m_slots[i] = (h & 0xFFFFFFFF00000000ull) | entry;
    return true;
}

qsizetype RankTable::memoryBytes() const
{
    const size_t bytes = m_arena.capacity() + m_offsets.capacity() * sizeof(quint32)
                         + m_ids.capacity() * sizeof(quint32)
                         + m_slots.capacity() * sizeof(quint64);
    return qsizetype(bytes);
}

} // namespace soul::tokens
