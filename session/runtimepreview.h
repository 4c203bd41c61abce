#pragma once

#include "compose/contract.h"
#include "persona/personamodel.h"
#include "registry/runtimeprofile.h"
#include "runtimememory.h"
#include "runtimepaneview.h"

#include <QHash>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <array>
#include <memory>

class QSettings;

namespace soul {

class ChunkedTokenCount;
class SoulTokenCounter;

// The runtime a persona's soul is read for, and what that runtime makes of
// it: one per session (PersonaSession::runtimePreview()). It holds the chosen
// runtime with its settings (each runtime's last settings, and the choice
// made for each folder, remembered in the session's QSettings and applied
// when a folder opens), the composition of the open persona for that
// runtime, from the panes' buffers or from disk, what each pane keeps of its
// file, and the exact tokens and SHA-256 of the text. The window only shows
// what it holds.
//
// A runtime that does not compose by sections (OpenClaw, Hermes) reads every
// file once, hundreds of milliseconds on a large persona, so it runs on a
// worker thread after a pause in typing; one run at a time, and a result
// older than the one shown, or one whose inputs changed while it ran, is
// dropped. currentText() answers at once, from the result shown when that is
// still the buffers' text, else by composing on the calling thread.
class RuntimePreview : public QObject
{
    Q_OBJECT

public:
    // `model` must outlive the preview. `settings` keeps the choices; null:
    // nothing is remembered, and the preview starts with the default runtime.
    RuntimePreview(const PersonaModel *model, QSettings *settings, QObject *parent = nullptr);
    ~RuntimePreview() override;

    // The runtime and settings the preview composes for.
    const RuntimeProfile &profile() const { return m_profile; }
    // The user chose `profile` (a runtime, or its settings): applied, and
    // remembered as the last choice and as the open folder's.
    void choose(const RuntimeProfile &profile);
    // The user chose the runtime `runtimeId`, with its last settings; false
    // (and nothing changes) for an id the registry does not know.
    bool chooseRuntime(const QString &runtimeId);
    // The settings last chosen for each runtime, by its id (empty: defaults).
    RuntimeSettings settingsFor(const QString &runtimeId) const;
    // Those of the runtime whose hint the panes show (RuntimeRegistry::
    // hintRuntime()), with its defaults; empty when no runtime hints.
    RuntimeSettings hintSettings() const;
    // An agent of a roster previews with its own settings of `own`'s runtime
    // (OpenClaw's budgets from its config), from the next folder opened on.
    void setAgentProfile(const RuntimeProfile &own);

    // Unsaved edits included, or what is on disk: the composition() shown.
    void setView(SoulView view);
    SoulView view() const { return m_view; }
    // Counts what the runtime injects with the counter's tokenizer, on the
    // same worker as the rule; a new tokenizer counts again. Not owned.
    void setTokenCounter(const SoulTokenCounter *counter);
    // The model's document the chosen runtime reads beside the slots
    // (OpenClaw's BOOTSTRAP.md, PersonaModel::addDocument()): its buffer
    // stands for the file, unsaved edits included. -1 when the runtime
    // reads no such document of the open folder.
    int readRuntimeDocument() const;

    // Recomputes after the typing pause (a change in a buffer) or at once.
    void schedule();
    void recomputeNow();

    // The last result shown: the runtime's text of the chosen view, and its
    // figures. Empty under a runtime that composes by sections (the soul is
    // the model's).
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
    // What pane `slot` keeps under the runtime, from the last result.
    const RuntimePaneView &paneView(int slot) const { return m_panes.at(size_t(slot)); }
    // The same for readRuntimeDocument()'s pane; inactive when the runtime
    // does not read it.
    const RuntimePaneView &runtimeFileView() const { return m_runtimeFileView; }
    // A change is waiting for its pause, or a run has not reported yet.
    bool busy() const { return m_timer.isActive() || m_running; }
    // For tests and the benchmark: results shown so far.
    quint64 shownGeneration() const { return m_shown; }

    // Exactly the bytes Copy Soul copies with unsaved edits shown, for the
    // buffers as they are now: under a runtime that composes by sections,
    // the soul; under another, what it injects (soulc compose --runtime on
    // the same files). Empty while no folder is open. Cheap when the result
    // shown is the buffers' (one UTF-8 conversion); right after an edit,
    // before the pause, it composes on the calling thread instead (what the
    // worker would, without the counts).
    QByteArray currentText() const;
    // composition() is the text of the buffers as they are now.
    bool upToDate() const;

    static constexpr int DelayMs = 150;

Q_SIGNALS:
    // Another runtime or other settings apply, chosen or from what was
    // remembered for the folder opened; said before the text is composed.
    void profileChanged(const RuntimeProfile &profile);
    // A new result is shown (composition(), its figures and the panes').
    void compositionChanged();

private:
    struct Job;
    struct Output;
    void setProfile(const RuntimeProfile &profile);
    void folderOpened(const QString &dir);
    Job job() const;
    void start();
    void finish(quint64 generation, const std::shared_ptr<Output> &output);
    static std::shared_ptr<Output> run(const Job &job);
    static RuntimeInput diskInput(const Job &job);
    static RuntimeInput unsavedInput(const Job &job);

    const PersonaModel *m_model = nullptr;
    RuntimeMemory m_memory;
    bool m_remembers = false;
    RuntimeProfile m_profile;
    QHash<QString, RuntimeSettings> m_settings;
    RuntimeProfile m_agentProfile;
    SoulView m_view = SoulView::Unsaved;
    QTimer m_timer;
    QThreadPool m_pool;
    bool m_running = false;
    bool m_again = false;
    quint64 m_requested = 0;
    quint64 m_shown = 0;
    // The view and profile of the result shown.
    SoulView m_shownView = SoulView::Unsaved;
    RuntimeProfile m_shownProfile;
    RuntimeSettings m_hint;
    RuntimeComposition m_composition;
    std::array<RuntimePaneView, SlotCount> m_panes;
    RuntimePaneView m_runtimeFileView;
    const SoulTokenCounter *m_counter = nullptr;
    std::shared_ptr<ChunkedTokenCount> m_counts;
    qint64 m_sectionTokens = -1;
    QList<qint64> m_blockTokens;
    QString m_encoding;
    QString m_sha256;
};

} // namespace soul
