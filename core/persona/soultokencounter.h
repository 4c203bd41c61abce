#pragma once

#include "compose/contract.h"
#include "personamodel.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace soul {

class Tokenizer;

// Exact token counts of a persona's soul, kept up to date while the user
// types: per section (each view of each slot, as PersonaModel::section()
// gives it) and for the whole soul.
//
// Counting happens on worker threads; the GUI thread only compares bytes and
// adds numbers. A slot has at most one count in flight: an edit made
// meanwhile is counted when that one returns, and a count whose text is no
// longer the slot's is dropped (and stopped early), so a stale number never
// replaces a newer one. Within a section only the changed part is counted
// again: the section is cut into chunks at points where no token can cross
// (a line feed before an ASCII letter, for the built-in encodings), and the
// chunks that did not change keep their counts.
//
// The soul's count is the sum of its sections' shares. A section's share is
// its text plus the "\n\n" that joins it to the next section: no token spans
// the boundary before "## " (tst_tokenizer proves it for both built-in
// encodings), while "\n\n" can merge with the end of a body (".\n\n" is one
// token), so the join is counted with the section before it.
//
// The tokenizer (its ranks, or a tokenizer.json) loads on a worker thread
// too; until it is there every count is pending, so opening a folder never
// waits for it.
class SoulTokenCounter : public QObject
{
    Q_OBJECT

public:
    struct Count
    {
        qint64 tokens = -1; // the last count known, -1 before the first
        bool exact = false; // tokens is the count of the current text
    };

    explicit SoulTokenCounter(const PersonaModel *model, QObject *parent = nullptr);
    ~SoulTokenCounter() override;

    // A built-in encoding ("o200k_base", "cl100k_base"); an unknown name is
    // reported through tokenizerFailed() and changes nothing.
    void setEncoding(const QString &name);
    // A Hugging Face tokenizer.json of a byte-level BPE model. A file that
    // cannot be used (SentencePiece, WordPiece, unreadable) leaves the current
    // tokenizer in place (o200k_base when there was none yet) and is reported
    // through tokenizerFailed().
    void setTokenizerFile(const QString &path);
    // The active tokenizer's name (an encoding, or a tokenizer.json's file
    // name); while another one loads, that one's name.
    QString encodingName() const;
    // The tokenizer.json in use or loading; empty for a built-in encoding.
    QString tokenizerFile() const;
    bool isLoading() const { return m_loading; }
    // The tokenizer in use, for counting other text the same way; null until
    // the first one has loaded.
    std::shared_ptr<const Tokenizer> tokenizer() const { return m_tokenizer; }

    // The slot's share of the soul of `view`: its section and, when another
    // section follows, the join. {0, exact} when the slot takes no part.
    Count sectionTokens(int slot, SoulView view) const;
    Count soulTokens(SoulView view) const;
    // Every count of both views is exact.
    bool isSettled() const;

    // Called on the worker thread before a slot's changed chunks are counted
    // (tests hold a count there to supersede it).
    void setWorkerHookForTesting(std::function<void(int slot)> hook);

Q_SIGNALS:
    // A count arrived or became pending.
    void countsChanged();
    // A new tokenizer is in use (its counts follow).
    void encodingChanged(const QString &name);
    // The requested tokenizer could not be loaded; `error` names the file.
    void tokenizerFailed(const QString &error);

private:
    struct Chunk
    {
        qsizetype begin = 0;
        qsizetype end = 0;
        qint64 tokens = -1;
    };
    // What a slot's last count knew: its text, cut into chunks, with the
    // counts it has; another count reuses them where the text is the same.
    struct Basis
    {
        QByteArray bytes;
        std::vector<Chunk> chunks;
        qint64 lastJoined = -1; // the last chunk followed by the join
    };
    struct Job;
    struct ViewState
    {
        std::optional<QByteArray> bytes;
        quint64 generation = 1; // a job's 0 means it does not count this view's text
        qint64 alone = -1;      // the section by itself
        qint64 joined = -1;     // the section followed by the join
        bool exact = false;
    };
    struct SlotState
    {
        std::array<ViewState, 2> views;
        std::shared_ptr<Job> job; // in flight
        Basis basis;
    };

    void requestTokenizer(const QString &name, const QString &file);
    void tokenizerLoaded(quint64 ticket,
                         std::shared_ptr<const Tokenizer> tokenizer,
                         bool chunked,
                         const QString &error);
    void readSection(int slot);
    void readAll();
    void cancelIfUnneeded(int slot);
    void schedule(int slot);
    void jobDone(const std::shared_ptr<Job> &job);
    static void runJob(Job &job);
    bool followed(int slot, SoulView view) const;

    const PersonaModel *m_model = nullptr;
    std::array<SlotState, SlotCount> m_slots;
    std::shared_ptr<const Tokenizer> m_tokenizer;
    bool m_chunked = false; // m_tokenizer may be counted in chunks
    QString m_activeName;
    QString m_activeFile;
    QString m_requestedName;
    QString m_requestedFile;
    bool m_loading = false;
    quint64 m_loadTicket = 0;
    quint64 m_epoch = 0; // counts from an older tokenizer are dropped
    std::function<void(int)> m_hook;
    QThreadPool m_pool;
};

} // namespace soul
