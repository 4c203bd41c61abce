#pragma once

#include "contract.h"
#include "tokenizer.h"

#include <QByteArray>
#include <QObject>
#include <QThreadPool>

#include <array>
#include <memory>
#include <optional>

// Token counts of a soul that is being edited: each section is counted on a
// worker thread when it changes, never on the caller's thread, and a newer
// text for a section supersedes an older one still being counted (at most one
// count per section runs; its result is dropped when the text moved on).
//
// The soul's total is the sum over the present sections, each counted with
// the "\n\n" that joins it to the next one, the last without: a token never
// spans the "\n\n## " boundary (tst_tokenizer proves it for both built-in
// encodings), but the join itself can merge with the end of the section
// before it (".\n\n" is one token), so it is counted with that section.
// With a tokenizer.json whose pattern lets a token span that boundary, the
// total can differ from counting the soul whole.
namespace soul {

class TokenCounter : public QObject
{
    Q_OBJECT

public:
    explicit TokenCounter(std::shared_ptr<const Tokenizer> tokenizer, QObject *parent = nullptr);
    ~TokenCounter() override;

    // Recounts every section with `tokenizer`.
    void setTokenizer(std::shared_ptr<const Tokenizer> tokenizer);
    std::shared_ptr<const Tokenizer> tokenizer() const { return m_tokenizer; }

    // The section of `slot` as it stands in the soul ("## NAME\n\n" and the
    // body, see composeSection()), or std::nullopt for an absent slot.
    void setSection(int slot, std::optional<QByteArray> section);

    // The tokens of the section alone; -1 while it is being counted or when
    // the slot is absent.
    qint64 sectionTokens(int slot) const;
    // The soul's tokens; -1 while any section is being counted.
    qint64 soulTokens() const;
    bool isCounting() const;

Q_SIGNALS:
    // A section's count arrived (and no newer text is waiting).
    void sectionCounted(int slot);
    // Every section is counted: soulTokens() is the soul's count.
    void soulCounted(qint64 tokens);

private:
    struct Slot
    {
        std::optional<QByteArray> text;
        quint64 generation = 0;
        bool running = false;
        bool counted = true; // the counts below belong to `text`
        qint64 alone = -1;   // the section's tokens
        qint64 joined = -1;  // the section's tokens followed by "\n\n"
    };

    void start(int slot);
    void finished(int slot, quint64 generation, qint64 alone, qint64 joined);

    std::shared_ptr<const Tokenizer> m_tokenizer;
    std::array<Slot, SlotCount> m_slots;
    QThreadPool m_pool;
};

} // namespace soul
