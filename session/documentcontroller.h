#pragma once

#include "recentplace.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <optional>

class QSettings;

namespace soul {

class PersonaModel;
class Prompter;
class SaveResult;
enum class SaveMode;
class Status;
struct SlotLayout;

// The document lifecycle: opening and closing a persona folder (asking about
// unsaved panes), saving, reverting, creating slots and new personas, and the
// recent list. Questions go through the Prompter, so tests can answer them.
class DocumentController : public QObject
{
    Q_OBJECT

public:
    // `prompter` and `settings` must outlive the controller.
    DocumentController(PersonaModel *model,
                       Prompter *prompter,
                       QSettings *settings,
                       QObject *parent = nullptr);

    void setPrompter(Prompter *prompter) { m_prompter = prompter; }

    // Closes the current folder first (which may ask, and may be cancelled).
    bool open(const QString &dir);
    // The same for files where `layout` says (a runtime's home and project,
    // PersonaModel::open(const SlotLayout &)). A layout with a home and a
    // project (a runtime that reads a home) joins the recent list as such.
    bool openLayout(const SlotLayout &layout);
    bool openWithDialog();
    // False when the user cancelled or a save failed; the folder stays open.
    bool close();
    // The names of the files with unsaved text, as their panes name them:
    // the slots' in slot order, then the model's other documents (the
    // runtime's own file, setupDocument()). What close() asks about, and
    // what Save all writes.
    QStringList unsavedFiles() const;
    // The names of the files whose text a previous run left unsaved and
    // whose panes offer it, in the same order.
    QStringList recoveredFiles() const;

    // Saves the document (a slot or another document of the model); when its
    // file changed on disk since it was loaded, asks Overwrite / Compare /
    // Cancel first. False when cancelled or failed (the failure is shown);
    // the buffer then stays dirty.
    bool save(int slot);
    // Saving the document `doc` may be its link group's (every member's copy
    // written): `claims(doc)` says so, `save(doc)` does it.
    void setGroupSave(std::function<bool(int)> claims, std::function<bool(int)> save);
    bool savesGroup(int slot) const { return m_groupClaims && m_groupClaims(slot); }
    // Save on a pane without unsaved edits: says in the status bar why there
    // is nothing to save (read-only, recovered text waiting, no edits).
    void explainNothingToSave(int slot);
    // save() for every unsaved slot, asking about each changed file by name;
    // stops at the first cancel or failure. Also the close/quit "Save all"
    // answer and the export's "Save all and export".
    bool saveAll();
    // Asks for a folder, writes every pane into it and opens it (see
    // PersonaModel::saveAllTo). False when cancelled or refused; the
    // current folder and its buffers then stay as they were.
    bool saveAllElsewhere();
    // Drops the edits of `slot` (Revert, Reload, Discard). The pane takes the
    // file's text as one undoable edit; when there is no file to take (it was
    // deleted, or was never saved) the text goes for good, so it asks first.
    // False when the user kept the text.
    bool revert(int slot);
    // Renames the wrong-case file of `slot` ("soul.md") to its name; a
    // failure is shown.
    bool renameCaseVariant(int slot);
    void create(int slot);
    void compare(int slot);
    // Shows the file on disk against the text recovered for `slot`.
    void compareRecovery(int slot);

    // The file the chosen runtime reads beside the slots and that finishing
    // setup deletes (OpenClaw's BOOTSTRAP.md, Runtime::setupFile()): a
    // document of the model from the first runtime that names one on
    // (PersonaModel::addDocument()), kept while others are chosen. An empty
    // name keeps the document there is.
    void setSetupFile(const QString &name);
    // Its document number in the model; -1 until a runtime names one.
    int setupDocument() const { return m_setupDocument; }
    // Deletes the setup file after the user confirmed (Prompter::
    // askFinishSetup); a failure is shown. False when declined or failed.
    bool finishSetup();
    // Writes the text finishSetup() deleted back; a failure is shown.
    bool restoreSetupFile();

    // Asks for an empty folder and the slots, writes them from the templates
    // and opens the folder.
    bool newPersona();
    // Writes the templates of `slots` into the empty folder `dir`.
    bool createPersona(const QString &dir, const QList<int> &slots);

    // A runtime's home: the labels of the files whose text makes its
    // project-context block on disk, in its order ("../AGENTS.md",
    // "AGENTS.md"; ".cursorrules", ".cursor/rules/a.mdc"), read when the
    // home opens and whenever the project pane may follow another file.
    // Empty for a persona folder, or when no project file has text.
    QStringList projectFiles() const { return m_projectFiles; }
    // Opens the AGENTS.md pane at `label`, another file of projectFiles(),
    // keeping the other panes' files. Refused, with a sentence in the status
    // bar naming the files and what to do, while any text is unsaved or a
    // recovered text waits for an answer: nothing is dropped. The layout
    // keeps the label, so the pane stays at that file while it is in the
    // block (followProjectFile()). False when refused or failed.
    bool showProjectFile(const QString &label);

    // Newest first: persona folders and runtime homes with their project.
    QList<RecentPlace> recentPlaces() const;
    // Forgets the recent folders (the last one stays for the next start).
    void clearRecent();
    // What was open last, for the next start: a folder or a home with its project.
    RecentPlace lastPlace() const;
    // Where a folder dialog starts: the last folder or home.
    QString lastDirectory() const;
    // The bundled example persona, or empty when it is not installed.
    static QString exampleDirectory();
    // The short text a new slot starts with.
    static QByteArray slotTemplate(int slot);

Q_SIGNALS:
    void recentChanged();
    void statusMessage(const QString &text);
    // Slot `slot` (one of the seven) was saved by this window (its file now
    // holds the buffer).
    void slotSaved(int slot);
    // A file was made, removed or renamed in a folder the runtime searches
    // for its project file (the home's project and its parents): which file it
    // reads may have changed, though no pane's file did.
    void projectFilesChanged();
    // projectFiles() changed.
    void projectFilesListed();

private:
    void remember(const RecentPlace &place);
    // The runtime home of `layout`, with its project pane's file.
    void rememberHome(const SlotLayout &layout);
    // A runtime's home: once nothing is unsaved, the AGENTS.md pane is opened
    // again at the project file the runtime reads now, when another one won since
    // (the pane's file saved empty or deleted, a file that comes first made).
    // A pane at one of several files of the block stays there while that
    // file is in it.
    void followProjectFile();
    // Reads projectFiles() from disk again.
    void listProjectFiles();
    // Watches the folders a runtime home's project file is searched in.
    void watchProjectFolders();
    // Closes the folder open (asking about unsaved text) and opens `layout`.
    // False when cancelled, or when it cannot be opened (the error is shown).
    bool replaceWith(const SlotLayout &layout);
    // Says what was opened, and which panes offer recovered text.
    void reportOpened(const QString &what);
    // A pane opened with Edit anyway: the first save asks, naming the bytes
    // it changes beyond the user's edits. False when the user declined.
    bool confirmChangedBytes(int slot);
    // One save of a slot or of the setup file, `name` as its pane says it:
    // `save` writes it, asking Overwrite / Compare / Cancel while the
    // result is stale (Compare calls `compare` and asks again; Overwrite
    // saves with SaveMode::Overwrite). A cancelled save writes nothing and
    // is said in the status bar; a failure is shown. False unless saved.
    bool saveFile(const QString &name,
                  const std::function<SaveResult(SaveMode)> &save,
                  const std::function<void()> &compare);
    // Dropping the unsaved text of `name` loses it `forGood` (nothing to
    // undo it to): asks first. False when the user kept the text.
    bool mayDrop(const QString &name, bool forGood);
    // Why Save on the pane of `name` writes nothing: recovered text waits,
    // the pane is read-only (`readOnlyReason`), or nothing is unsaved.
    void explainNothingToSave(const QString &name,
                              bool recovered,
                              const std::optional<QString> &readOnlyReason);
    // The compare of unsaved text (nullopt: none) against the disk's.
    void showEditsCompare(const QString &name,
                          const std::optional<QByteArray> &disk,
                          const std::optional<QByteArray> &buffer);
    // The compare of a recovered text: `disk` (nullopt: no file) against it.
    void showRecoveryCompare(const QString &name,
                             const std::optional<QByteArray> &disk,
                             const QByteArray &recovered);
    // Shows how a write ended: `failed` or `unconfirmed` titles the error
    // or the disk's warning, `done` goes to the status bar.
    bool reportWrite(const Status &written,
                     const QString &failed,
                     const QString &unconfirmed,
                     const QString &done);

    PersonaModel *m_model = nullptr;
    Prompter *m_prompter = nullptr;
    std::function<bool(int)> m_groupClaims;
    std::function<bool(int)> m_groupSave;
    QSettings *m_settings = nullptr;
    QTimer m_follow; // followProjectFile() once the change that started it is done
    QFileSystemWatcher m_projectFolders;
    QStringList m_projectFiles;
    int m_setupDocument = -1;
};

} // namespace soul
