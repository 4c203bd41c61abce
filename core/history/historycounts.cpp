#include "historycounts.h"

#include "composer.h"
#include "personahistory.h"
#include "tokenizer.h"

#include <QMutexLocker>

namespace soul {

HistoryCounts::HistoryCounts(std::shared_ptr<const Tokenizer> tokenizer, ComposeRule rule)
    : m_tokenizer(std::move(tokenizer))
    , m_rule(std::move(rule))
{}

HistoryCounts::Section HistoryCounts::countSection(int slot, QByteArrayView bytes) const
{
    Section section;
    QByteArray text = composeSection(slot, bytes, &section.truncated, m_rule);
    section.bytes = text.size();
    section.tokens = m_tokenizer->count(text);
    text.append(m_rule.sectionJoin);
    section.shareTokens = m_tokenizer->count(text);
    ++m_counted;
    return section;
}

QByteArray HistoryCounts::key(int slot, const QByteArray &blobId)
{
    return QByteArray::number(slot) + ':' + blobId;
}

std::optional<HistoryCounts::Section> HistoryCounts::find(int slot, const QByteArray &blobId) const
{
    const QMutexLocker locker(&m_mutex);
    const auto it = m_sections.constFind(key(slot, blobId));
    if (it == m_sections.cend())
        return std::nullopt;
    return *it;
}

void HistoryCounts::insert(int slot, const QByteArray &blobId, const Section &section)
{
    const QMutexLocker locker(&m_mutex);
    m_sections.insert(key(slot, blobId), section);
}

void HistoryCounts::addSoul(SoulFigures &figures,
                            const std::array<std::optional<Section>, SlotCount> &sections) const
{
    figures.soulBytes = 0;
    figures.soulTokens = 0;
    const Section *previous = nullptr;
    for (const int slot : m_rule.order) {
        const std::optional<Section> &section = sections[size_t(slot)];
        if (!section)
            continue;
        figures.sectionBytes[size_t(slot)] = section->bytes;
        figures.sectionTokens[size_t(slot)] = section->tokens;
        if (previous) {
            figures.soulBytes += m_rule.sectionJoin.size();
            figures.soulTokens += previous->shareTokens;
        }
        figures.soulBytes += section->bytes;
        previous = &*section;
    }
    if (previous)
        figures.soulTokens += previous->tokens;
}

} // namespace soul
