#pragma once

#include "historyjobs.h"
#include "historypanel.h"

#include <QDockWidget>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

class QAction;
class QMainWindow;
class QSettings;

namespace soul {

class DocumentController;
class HistoryListModel;
class HistoryLoader;
class PersonaModel;
class RepositoryWatcher;
class Prompter;
class SoulTokenCounter;

// What the window does with the persona's git history: lists it in the
// History panel while the panel is shown (read on a worker), shows a
// commit's soul, makes checkpoints (File > Checkpoint, and after each save
// when asked to), creates a repository where there is none, and restores a
// file or the whole persona as a commit had it into the panes, unsaved.
// Questions go through the Prompter; sentences that need no answer go out
// as statusMessage().
class HistoryController : public QObject
{
    Q_OBJECT

public:
    // Everything given must outlive the controller.
    HistoryController(PersonaModel *model,
                      DocumentController *documents,
                      SoulTokenCounter *tokens,
                      Prompter *prompter,
                      QSettings *settings,
                      QObject *parent = nullptr);
    ~HistoryController() override;

    void setPrompter(Prompter *prompter) { m_prompter = prompter; }
    // Follows another persona (the window's current session): its history,
    // its checkpoints, its panes' notes. Everything given must outlive the
    // controller, or be replaced before it goes.
    void setSession(PersonaModel *model, DocumentController *documents, SoulTokenCounter *tokens);

    // Puts the panel in a dock of `window` (hidden unless it was shown last
    // time) and wires the actions: `toggle` shows it, `checkpoint` makes a
    // checkpoint, `onSave` (checkable, remembered) checkpoints after saves.
    void attach(QMainWindow *window, QAction *toggle, QAction *checkpoint, QAction *onSave);

    HistoryPanel *panel() const { return m_panel; }
    // Shows the History dock (as its action does) and puts the keyboard
    // focus in the commit list.
    void focusCommits();
    HistoryListModel *rows() const { return m_rows; }
    HistoryLoader *loader() const { return m_loader; }
    RepositoryWatcher *repositoryWatcher() const { return m_repository; }
    QDockWidget *dock() const { return m_dock; }

    // The context budget the timeline draws, in tokens.
    void setBudget(qint64 tokens);
    // The runtime a selected commit's soul is composed for (the preview's
    // choice); a runtime that composes by sections composes by the folder's
    // rule, as before.
    void setRuntimeProfile(const RuntimeProfile &profile);
    // Reads the history again (when the panel is shown).
    void refresh();

    // Commits the slot files as they are on disk, asking for the message
    // (and, without a repository, whether to create one). False when
    // cancelled, when nothing changed, or on a failure (said in a sentence).
    bool checkpoint();
    // The same without a question, after a save, when checkpointOnSave().
    bool checkpointQuietly();
    bool checkpointOnSave() const;
    void setCheckpointOnSave(bool on);
    // Makes the open folder a repository of its own.
    bool createRepository();

    // The pane of `slot` takes the file as commit `row` had it, unsaved and
    // undoable. False, with a sentence, when the file was absent there or the
    // pane cannot take it.
    bool restoreFile(int row, int slot);
    // Every file of commit `row` into its pane; files the commit did not
    // have are left as they are, and the sentence says so.
    bool restoreAll(int row);
    // Whether Soul Studio saved the file of `slot` as it is on disk now
    // (else another program wrote it since, or it was never saved here).
    bool savedHere(int slot) const;
    // Records that Soul Studio saved `slot` of `model` as it is on disk now:
    // any persona of the window, shown or not.
    void rememberSaved(const PersonaModel *model, int slot);
    // The slots whose file on disk differs from the last checkpoint's
    // (HEAD's blob), as last worked out while the panel is shown.
    QList<int> changedSinceCheckpoint() const { return m_changed; }
    // Shows the file of `slot` at HEAD against the file on disk.
    void diffWithCheckpoint(int slot);
    // Writes commit `row` as a snapshot on a worker, then asks for the
    // comparison (compareRequested()).
    void compareWith(int row);
    // Shows what changed from commit `older` to commit `newer` (composed for
    // the runtime chosen, see diffCommits()), read on a worker.
    void compareCommits(int older, int newer);

Q_SIGNALS:
    void statusMessage(const QString &text);
    // What the pane of `slot` says about its file against the last
    // checkpoint (rich text with a link to the diff); empty: nothing.
    void checkpointNoteChanged(int slot, const QString &note);
    // A checkpoint was made (its short id and message).
    void checkpointMade(const QString &shortId, const QString &message);
    // Compare the live soul with a commit, written as the snapshot at
    // `soulPath` (outside the persona folder, removed with the controller).
    void compareRequested(const QString &soulPath);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum class Asking { Yes, No };
    void connectSession();
    bool makeCheckpoint(Asking asking);
    void load();
    // Why the history of the persona open is not read (a runtime's home,
    // whose files are not a folder's by name); empty for a persona folder.
    QString layoutRefusal() const;
    void showStatus();
    void showSoulOf(int row);
    void readHeadFiles();
    void showChanged();
    QString savedKey(int slot) const;
    static QString savedKey(const PersonaModel *model, int slot);
    QString encoding() const;
    bool restoreBytes(const PersonaRevision &revision, int slot, QStringList &problems);

    PersonaModel *m_model = nullptr;
    DocumentController *m_documents = nullptr;
    SoulTokenCounter *m_tokens = nullptr;
    Prompter *m_prompter = nullptr;
    QSettings *m_settings = nullptr;
    HistoryListModel *m_rows = nullptr;
    HistoryLoader *m_loader = nullptr;
    RepositoryWatcher *m_repository = nullptr; // commits made outside the window
    QPointer<HistoryPanel> m_panel;
    QPointer<QDockWidget> m_dock;
    QAction *m_onSave = nullptr;
    QFutureWatcher<CommitSoul> m_soulWatcher;
    QFutureWatcher<CommitSnapshot> m_snapshotWatcher;
    QFutureWatcher<CommitsDiff> m_diffWatcher;
    QFutureWatcher<HeadFiles> m_headWatcher;
    HeadFiles m_head;                           // the last checkpoint's files
    QList<int> m_changed;                       // slots whose file differs from m_head's
    std::array<QString, SlotCount> m_notes;     // what each pane was told
    QTimer m_changedTimer;                      // a burst of disk changes is compared once
    std::unique_ptr<QTemporaryDir> m_snapshots; // the commits written for Compare
    QTimer m_onSaveTimer;                       // a Save All makes one checkpoint
    bool m_stale = true;                        // the list does not show the open folder's history
    QString m_loadedEncoding;                   // the encoding the list was counted in
    RuntimeProfile m_profile;                   // the runtime a commit's soul is shown for
    QString m_diffTitle;                        // what the comparison of two commits is
    QByteArray m_reselect;                      // the commit to select again once a reload lists it
};

} // namespace soul
