#pragma once

#include "history/historyjobs.h"
#include "registry/runtimeprofile.h"
#include "result.h"

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <array>
#include <memory>

class QSettings;
class QTemporaryDir;

namespace soul {

class DocumentController;
class HistoryListModel;
class HistoryLoader;
class PersonaModel;
class Prompter;
class RepositoryWatcher;
class SoulTokenCounter;

// One persona's git history, without a window: the log listed in a
// HistoryListModel (read on a worker, with each commit's figures), the soul
// at a selected commit, checkpoints (asked for, or after each save when
// asked to), a repository created where there is none, a file or the whole
// persona restored into the buffers as a commit had it (unsaved), the files
// that differ from the last checkpoint, and a RepositoryWatcher that
// follows commits made outside. Owned by PersonaSession; the History panel
// shows it and says what the user chose.
//
// Nothing runs until a window follows it (setFollowed()), and the log is
// read only while it is shown (setListShown()): a window with twenty agents
// reads the history of the one it shows. Questions and errors the user
// must answer go through the Prompter; sentences that need no answer go out
// as statusMessage(). Functions that can fail return a Result or Status
// whose error is the sentence (it has been shown through the Prompter too,
// unless the function says otherwise).
class HistorySession : public QObject
{
    Q_OBJECT

public:
    // Everything given must outlive the session (the Prompter may be
    // replaced with setPrompter()).
    HistorySession(PersonaModel *model,
                   DocumentController *documents,
                   SoulTokenCounter *tokens,
                   Prompter *prompter,
                   QSettings *settings,
                   QObject *parent = nullptr);
    ~HistorySession() override;

    void setPrompter(Prompter *prompter) { m_prompter = prompter; }

    HistoryListModel *rows() const { return m_rows; }
    HistoryLoader *loader() const { return m_loader; }
    RepositoryWatcher *repositoryWatcher() const { return m_repository; }

    // Whether a window follows this persona's history: its repository is
    // watched, HEAD's files are read and the panes told which files differ.
    // Following again reads everything afresh and says every pane's note.
    void setFollowed(bool followed);
    bool isFollowed() const { return m_followed; }
    // Whether the list is shown: the log is read whenever it is shown and
    // does not show the open folder's history.
    void setListShown(bool shown);
    // Reads the log again (when it is shown).
    void refresh();

    // How the history stands: the loader's status, or Failed with the
    // sentence why a runtime's home has no history here.
    HistoryStatus status() const;
    QString errorText() const;
    // Why a checkpoint cannot be made now (a merge under way), or empty.
    QString busyText() const;

    // The runtime a selected commit's soul is composed for; a runtime that
    // composes by sections composes by the folder's rule.
    void setRuntimeProfile(const RuntimeProfile &profile);
    // Reads the soul at commit `row` on a worker: soulRead() or soulFailed().
    void selectRow(int row);

    // Commits the slot files as they are on disk, asking for the message
    // (and, without a repository, whether to create one). False when
    // cancelled, when nothing changed, or on a failure (said in a sentence).
    bool checkpoint();
    // The same without a question, after a save: a failure is a statusMessage().
    bool checkpointQuietly();
    // What a checkpoint would commit now, with its message (each changed
    // file says whether this program saved it); an error sentence when no
    // checkpoint can be made (a runtime's home, no repository, a merge, a
    // lock another git holds). Not shown to the user.
    Result<CheckpointPlan> planCheckpoint() const;
    QString checkpointMessage(const CheckpointPlan &plan) const;
    // Commits the plan's files with `message`; on success HEAD's files are
    // read again and the list reloaded. Not shown to the user.
    Result<Checkpoint> commitCheckpoint(const QString &message);
    // A checkpoint of this folder was made elsewhere in the window (a link
    // group's): HEAD's files are read again and the list reloaded, as after
    // commitCheckpoint().
    void checkpointMadeHere(const Checkpoint &made);
    bool checkpointOnSave() const;
    void setCheckpointOnSave(bool on);
    // Makes the open folder a repository of its own.
    bool createRepository();

    // The buffer of `slot` takes the file as commit `row` had it, unsaved
    // and undoable. Fails, with a sentence, when the file was absent there or
    // the buffer cannot take it.
    Status restoreFile(int row, int slot);
    // Every file of commit `row` into its buffer; files the commit did not
    // have are left as they are, and the sentence says so.
    Status restoreAll(int row);
    // Whether this program saved the file of `slot` as it is on disk now
    // (else another program wrote it since, or it was never saved here).
    bool savedHere(int slot) const;
    // The slots whose file on disk differs from the last checkpoint's
    // (HEAD's blob), as last worked out while followed.
    QList<int> changedSinceCheckpoint() const { return m_changed; }
    // The last checkpoint's short id, or empty.
    QString checkpointShortId() const;
    // Shows the file of `slot` at HEAD against the file on disk.
    void diffWithCheckpoint(int slot);
    // Writes commit `row` as a snapshot on a worker, then asks for the
    // comparison (compareRequested()).
    void compareWith(int row);
    // Shows what changed from commit `older` to commit `newer` (composed for
    // the runtime chosen, see diffCommits()), read on a worker.
    void compareCommits(int older, int newer);

    // The encoding the history is counted in: the tokenizer's, when built in.
    QString encoding() const;

Q_SIGNALS:
    void statusMessage(const QString &text);
    // status(), the progress of the figures or the rows changed.
    void statusChanged();
    // What the pane of `slot` says about its file against the last
    // checkpoint (rich text with a link to the diff); empty: nothing.
    void checkpointNoteChanged(int slot, const QString &note);
    // changedSinceCheckpoint() was worked out again.
    void changedSinceCheckpointChanged();
    void checkpointMade(const QString &shortId, const QString &message);
    // Compare the live soul with a commit, written as the snapshot at
    // `soulPath` (outside the persona folder, removed with the session).
    void compareRequested(const QString &soulPath);
    // The soul at the selected commit, or why it could not be read (empty:
    // no soul is shown, as after a reload).
    void soulRead(const soul::CommitSoul &soul);
    void soulFailed(const QString &error);
    // After HEAD moved outside, the commit that was selected is listed
    // again, at `row`.
    void reselectRequested(int row);

private:
    enum class Asking { Yes, No };
    bool makeCheckpoint(Asking asking);
    void load();
    // Why the history of the persona open is not read (a runtime's home,
    // whose files are not a folder's by name); empty for a persona folder.
    QString layoutRefusal() const;
    void readHeadFiles();
    void showChanged();
    void forgetHead();
    void rememberSaved(int slot);
    QString savedKey(int slot) const;
    // The files of `commit`, whole; an error is shown under `title`.
    Result<PersonaRevision> readToRestore(const HistoryCommit &commit, const QString &title) const;
    bool restoreBytes(const PersonaRevision &revision, int slot, QStringList &problems);

    PersonaModel *m_model = nullptr;
    DocumentController *m_documents = nullptr;
    SoulTokenCounter *m_tokens = nullptr;
    Prompter *m_prompter = nullptr;
    QSettings *m_settings = nullptr;
    HistoryListModel *m_rows = nullptr;
    HistoryLoader *m_loader = nullptr;
    RepositoryWatcher *m_repository = nullptr; // commits made outside the window
    QFutureWatcher<Result<CommitSoul>> m_soulWatcher;
    QFutureWatcher<Result<QString>> m_snapshotWatcher;
    QFutureWatcher<Result<QString>> m_diffWatcher;
    QFutureWatcher<Result<HeadFiles>> m_headWatcher;
    HeadFiles m_head;                           // the last checkpoint's files
    bool m_headRead = false;                    // m_head holds HEAD's files
    QList<int> m_changed;                       // slots whose file differs from m_head's
    std::array<QString, SlotCount> m_notes;     // what each pane was told
    QTimer m_changedTimer;                      // a burst of disk changes is compared once
    std::unique_ptr<QTemporaryDir> m_snapshots; // the commits written for Compare
    QTimer m_onSaveTimer;                       // a Save All makes one checkpoint
    bool m_followed = false;
    bool m_listShown = false;
    bool m_stale = true;      // the list does not show the open folder's history
    QString m_loadedEncoding; // the encoding the list was counted in
    RuntimeProfile m_profile; // the runtime a commit's soul is shown for
    QString m_diffTitle;      // what the comparison of two commits is
    QByteArray m_selected;    // the commit whose soul is shown
    QByteArray m_reselect;    // the commit to select again once a reload lists it
};

} // namespace soul
