#include "tokencounter.h"

namespace soul {

namespace {

// Where the section may be split for counting: right after the last line
// feed that is followed by an ASCII letter (no token spans that point, see
// Tokenizer), or the start.
qsizetype lastSafeCut(QByteArrayView text)
{
    for (qsizetype i = text.size() - 2; i >= 0; --i) {
        if (text[i] != '\n')
            continue;
        const char next = text[i + 1];
        if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))
            return i + 1;
    }
    return 0;
}

} // namespace

TokenCounter::TokenCounter(std::shared_ptr<const Tokenizer> tokenizer, QObject *parent)
    : QObject(parent)
    , m_tokenizer(std::move(tokenizer))
{
    // One section at a time is enough to keep up with typing, and leaves the
    // other core to the window.
    m_pool.setMaxThreadCount(1);
}

TokenCounter::~TokenCounter()
{
    // The tasks post their results to this object: they must be done (and
    // their posted events are then dropped with it).
    m_pool.clear();
    m_pool.waitForDone();
}

void TokenCounter::setTokenizer(std::shared_ptr<const Tokenizer> tokenizer)
{
    m_tokenizer = std::move(tokenizer);
    for (int slot = 0; slot < SlotCount; ++slot) {
        Slot &s = m_slots[size_t(slot)];
        ++s.generation;
        if (s.text) {
            s.counted = false;
            start(slot);
        }
    }
}

void TokenCounter::setSection(int slot, std::optional<QByteArray> section)
{
    Q_ASSERT(slot >= 0 && slot < SlotCount);
    Slot &s = m_slots[size_t(slot)];
    s.text = std::move(section);
    ++s.generation;
    s.counted = !s.text.has_value();
    s.alone = -1;
    s.joined = -1;
    if (s.text)
        start(slot);
    else if (!isCounting())
        Q_EMIT soulCounted(soulTokens());
}

void TokenCounter::start(int slot)
{
    Slot &s = m_slots[size_t(slot)];
    if (s.running || !s.text || !m_tokenizer)
        return;
    s.running = true;
    const QByteArray text = *s.text; // shared, not copied
    const quint64 generation = s.generation;
    const std::shared_ptr<const Tokenizer> tokenizer = m_tokenizer;
    m_pool.start([this, slot, text, generation, tokenizer] {
        // Count the section once, and only its end again with the join. The
        // cut is proven safe for the built-in encodings only.
        const bool builtin = Tokenizer::builtin(tokenizer->name()) == tokenizer;
        const qsizetype cut = builtin ? lastSafeCut(text) : 0;
        const QByteArrayView head = QByteArrayView(text).first(cut);
        const QByteArray tail = text.mid(cut);
        const qint64 headTokens = tokenizer->count(head);
        const qint64 alone = headTokens + tokenizer->count(tail);
        const qint64 joined = headTokens + tokenizer->count(tail + SectionJoin);
        QMetaObject::invokeMethod(
            this,
            [this, slot, generation, alone, joined] { finished(slot, generation, alone, joined); },
            Qt::QueuedConnection);
    });
}

void TokenCounter::finished(int slot, quint64 generation, qint64 alone, qint64 joined)
{
    Slot &s = m_slots[size_t(slot)];
    s.running = false;
    if (generation != s.generation) {
        // The text changed meanwhile: count the newest one.
        start(slot);
        return;
    }
    s.counted = true;
    s.alone = alone;
    s.joined = joined;
    Q_EMIT sectionCounted(slot);
    if (!isCounting())
        Q_EMIT soulCounted(soulTokens());
}

qint64 TokenCounter::sectionTokens(int slot) const
{
    const Slot &s = m_slots[size_t(slot)];
    return s.text && s.counted ? s.alone : -1;
}

bool TokenCounter::isCounting() const
{
    for (const Slot &s : m_slots) {
        if (!s.counted)
            return true;
    }
    return false;
}

qint64 TokenCounter::soulTokens() const
{
    if (isCounting())
        return -1;
    int last = -1;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (m_slots[size_t(slot)].text)
            last = slot;
    }
    qint64 total = 0;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const Slot &s = m_slots[size_t(slot)];
        if (s.text)
            total += slot == last ? s.alone : s.joined;
    }
    return total;
}

} // namespace soul
