#pragma once

#include "diff/cacherules.h"
#include "diff/liveprefix.h"
#include "persona/personamodel.h"
#include "registry/runtimecomparison.h"
#include "result.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <memory>
#include <vector>

class QTemporaryDir;

namespace soul {

class PersonaSession;
class Runtime;
class SoulTokenCounter;

// A comparison of the open persona (with or without unsaved edits) against a
// frozen snapshot, or against another agent's soul frozen into one, kept up
// to date as the author types. A snapshot of what a runtime injects (Freeze
// with OpenClaw chosen) is compared with what that runtime, by the settings
// the snapshot records, injects of the persona now: runtime text with
// runtime text. Every comparison runs on a worker thread; a
// newer edit supersedes one still waiting, and only the latest result is
// shown. What the window shows is decided here, as text (the diff as HTML),
// so tests read it without a window. A PersonaSession owns one; the compare
// dialog shows it.
class CompareController : public QObject
{
    Q_OBJECT

public:
    // `tokens` counts another agent's soul for openAgent(); both must
    // outlive the controller.
    CompareController(const PersonaModel *model,
                      const SoulTokenCounter *tokens,
                      QObject *parent = nullptr);
    ~CompareController() override;

    // Loads the snapshot at `soulPath` (checked against its manifest) and
    // starts comparing. False with error() set when it cannot be compared
    // (the sentence names the file; for a runtime this build does not know,
    // the runtime's id too); updated() follows either way.
    bool open(const QString &soulPath);
    // The file a runtime reads beside the slots (OpenClaw's BOOTSTRAP.md),
    // whose buffer a runtime comparison reads; it must outlive the
    // controller, or be replaced first.
    // Another agent's soul as `view` says (its unsaved edits, or its files
    // on disk), frozen into a snapshot in a temporary folder this controller
    // keeps while it lives: the snapshot's path, or why it could not be
    // written. Later edits of `theirs` are not followed.
    Result<QString> writeAgentSnapshot(const PersonaSession &theirs, SoulView view);
    // Compares with `theirs` as view() says: writeAgentSnapshot(), then open().
    bool openAgent(const PersonaSession &theirs);
    // Ends the comparison: nothing is compared any more and the snapshot's
    // sections are let go (on the worker, after a comparison under way).
    void close();
    QString snapshotPath() const { return m_path; }
    // Why the snapshot cannot be compared (its soul does not match its
    // manifest, ...); empty when it can.
    QString error() const { return m_error.isEmpty() ? m_liveError : m_error; }

    void setView(SoulView view);
    SoulView view() const { return m_view; }
    // Whether the diff marks invisibles as the preview does (its toggle).
    void setShowInvisibles(bool show);
    bool showInvisibles() const { return m_showInvisibles; }

    // The runtime the snapshot is of, as the registry has it, and the
    // settings it records; nullptr for a toolnexus soul (or nothing open).
    const Runtime *runtime() const { return m_runtime; }
    RuntimeSettings runtimeSettings() const;

    // The latest result; valid once hasResult(). For a runtime's text its
    // statuses are all absent (fileStatuses() has them), and it has no
    // first change to go to.
    bool hasResult() const { return m_hasResult; }
    const LiveComparison &result() const { return m_result; }
    // Each file the snapshot or the persona has text of, and what became
    // of it: the slots for a toolnexus soul, the runtime's files for its text.
    QList<RuntimeFileStatus> fileStatuses() const;
    // The runtime's text of the persona the latest result compared; empty
    // for a toolnexus soul.
    QString comparedText() const { return m_comparedText; }
    // The worker's CPU milliseconds for the latest result (the prefix, not the diff).
    double lastWorkCpuMs() const { return m_workMs; }
    // Waits until no comparison or diff is running (tests, the benchmark).
    void waitForWorker() { m_pool.waitForDone(); }

    // A comparison runs or waits: the result shown is older than the text.
    bool busy() const { return m_running || m_pending; }
    // True when the result shown is of the text as it is now.
    bool current() const { return m_hasResult && !busy() && m_resultGeneration == m_generation; }

    // "the first 12,345 of 14,020 tokens are unchanged (88%); the first
    // change is in MEMORY.md, line 12"
    QString prefixSentence() const;
    // One sentence per provider rule, then the note on what else is prefix.
    QStringList reuseSentences() const;
    QString prefixNote() const { return m_cache.prefixNote; }
    // The changed sections as a unified line diff (HTML, changed words
    // marked), computed on the same worker once the text has been still for
    // DiffDelayMs after its comparison.
    QString diffHtml() const { return m_diffHtml; }

    // Where the first change is in its slot's pane now: the 1-based line
    // and the column in UTF-16 units as the pane counts them (the body's
    // trimmed start counted in again; placeInEditor(), also when the pane
    // holds unsaved text and the on-disk view is compared). {0, 0} without a
    // change.
    QPair<qint64, qint64> firstChangePlace() const;

    static constexpr int DiffDelayMs = 150;

    // Builds the live side from the model as it is now.
    static LiveSections liveSections(const PersonaModel *model, SoulView view);

public Q_SLOTS:
    // Compares again (the model changed).
    void refresh();

Q_SIGNALS:
    // The prefix, the statuses and the first change are new.
    void updated();
    // The diff of the changed sections is new.
    void diffUpdated();

private:
    struct Shared;
    void start();
    void startDiff();
    // From a worker: shows `html` as the diff unless a newer comparison started.
    static void sendDiff(const std::shared_ptr<Shared> &shared,
                         quint64 generation,
                         const QString &html);
    void finished(quint64 generation, const LiveComparison &result, double workMs);
    bool openRuntime(const QString &soulPath);
    void startRuntime();
    struct RuntimeOutcome;
    void runtimeFinished(quint64 generation, const RuntimeOutcome &outcome, double workMs);
    RuntimeInput runtimeInput() const;
    void reset();

    const PersonaModel *m_model = nullptr;
    const SoulTokenCounter *m_tokens = nullptr;
    SoulView m_view = SoulView::Unsaved;
    bool m_showInvisibles = false;
    QString m_path;
    QString m_error;
    CacheTable m_cache;
    std::shared_ptr<Shared> m_shared;
    quint64 m_generation = 0;
    quint64 m_opens = 0; // snapshots opened, for close()
    bool m_running = false;
    bool m_pending = false;
    bool m_hasResult = false;
    quint64 m_resultGeneration = 0;
    LiveComparison m_result;
    // A runtime's text: the snapshot, its runtime, and the latest result.
    std::shared_ptr<const RuntimeSnapshot> m_runtimeSnapshot;
    std::shared_ptr<std::vector<quint32>> m_runtimeSnapshotIds; // its ids, once counted
    quint64 m_openedAt = 0; // the first generation compared with it
    const Runtime *m_runtime = nullptr;
    RuntimeTextComparison m_runtimeResult;
    QString m_comparedText;
    QString m_liveError; // the runtime could not read the persona just now
    QString m_diffHtml;
    double m_workMs = 0;
    // Its own thread: comparisons never queue behind other work of the
    // window (token counts, totals) in the global pool.
    QThreadPool m_pool;
    QTimer m_diffTimer;
    std::unique_ptr<QTemporaryDir> m_agentSnapshots; // other agents' souls, for openAgent()
};

} // namespace soul
