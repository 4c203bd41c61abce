#pragma once

#include "contract.h"
#include "personamodel.h"
#include "runtimefile.h"
#include "runtimeprofile.h"
#include "slots/runtimepaneview.h"

#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <array>
#include <memory>

namespace soul {

class ChunkedTokenCount;
class SoulTokenCounter;

// The runtime's view of the open persona, for a runtime that does not compose
// by sections (OpenClaw, Hermes): what it would inject, from the editors'
// buffers or from disk, and what each pane keeps. A runtime reads every file
// once (hundreds of milliseconds on a large persona), so it runs on a worker
// thread after a pause in typing; one
// run at a time, and a result older than the one shown, or one whose inputs
// changed while it ran, is dropped.
class RuntimeComposer : public QObject
{
    Q_OBJECT

public:
    explicit RuntimeComposer(const PersonaModel *model, QObject *parent = nullptr);
    ~RuntimeComposer() override;

    void setProfile(const RuntimeProfile &profile);
    // The settings of the runtime that hints at what it would keep
    // (RuntimeRegistry::hintRuntime()), for the panes' hint, which they show
    // under every runtime.
    void setHintSettings(const RuntimeSettings &settings);
    const RuntimeProfile &profile() const { return m_profile; }
    void setView(SoulView view);
    // Counts what the runtime injects with the counter's tokenizer, on the
    // same worker as the rule; a new tokenizer counts again. Not owned.
    void setTokenCounter(const SoulTokenCounter *counter);
    SoulView view() const { return m_view; }
    // The file the runtime reads beside the slots (BOOTSTRAP.md): its
    // buffer stands for it, unsaved edits included, when the runtime reads
    // it. Not owned.
    void setRuntimeFile(const RuntimeFile *file);

    // Recomputes after the typing pause (a change in a buffer) or at once.
    void schedule();
    void recomputeNow();

    // The last result shown: the runtime's text of the chosen view, and its
    // figures.
    const RuntimeComposition &composition() const { return m_composition; }
    // Exact tokens of composition().text, -1 while unknown, and the
    // tokenizer's name.
    qint64 sectionTokens() const { return m_sectionTokens; }
    // Exact tokens of each of composition().blocks, in its order; -1 while
    // unknown.
    qint64 blockTokens(qsizetype block) const
    {
        return block >= 0 && block < m_blockTokens.size() ? m_blockTokens.at(block) : -1;
    }
    const QString &encodingName() const { return m_encoding; }
    // The SHA-256 (hex) of composition().text as UTF-8.
    const QString &textSha256() const { return m_sha256; }
    const RuntimePaneView &paneView(int slot) const { return m_panes.at(size_t(slot)); }
    // The same for setRuntimeFile()'s pane; inactive when the runtime does
    // not read it.
    const RuntimePaneView &runtimeFileView() const { return m_runtimeFileView; }
    // A change is waiting for its pause, or a run has not reported yet.
    bool busy() const { return m_timer.isActive() || m_running; }
    // For tests and the benchmark: results shown so far.
    quint64 shownGeneration() const { return m_shown; }

    static constexpr int DelayMs = 150;

Q_SIGNALS:
    void updated();

private:
    struct Job;
    struct Output;
    void start();
    void finish(quint64 generation, const std::shared_ptr<Output> &output);
    static std::shared_ptr<Output> run(const Job &job);

    const PersonaModel *m_model = nullptr;
    RuntimeProfile m_profile;
    SoulView m_view = SoulView::Unsaved;
    QTimer m_timer;
    QThreadPool m_pool;
    bool m_running = false;
    bool m_again = false;
    quint64 m_requested = 0;
    quint64 m_shown = 0;
    RuntimeSettings m_hint;
    RuntimeComposition m_composition;
    std::array<RuntimePaneView, SlotCount> m_panes;
    RuntimePaneView m_runtimeFileView;
    const RuntimeFile *m_runtimeFile = nullptr;
    const SoulTokenCounter *m_counter = nullptr;
    std::shared_ptr<ChunkedTokenCount> m_counts;
    qint64 m_sectionTokens = -1;
    QList<qint64> m_blockTokens;
    QString m_encoding;
    QString m_sha256;
};

} // namespace soul
