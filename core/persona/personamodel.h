#pragma once

#include "compose/composer.h"
#include "compose/contract.h"
#include "disk/recoverystore.h"
#include "disk/slotlayout.h"
#include "disk/slotreader.h"
#include "editortext.h"
#include "inspection.h"
#include "result.h"

#include <QByteArray>
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <array>
#include <memory>
#include <optional>
#include <vector>

class QLockFile;

namespace soul {

class DirectoryWatcher;

enum class ConflictState {
    None,
    ChangedOnDisk, // the file changed on disk while the buffer had unsaved edits
    DeletedOnDisk, // the file went away while the buffer had unsaved edits
    // The path became something that is not read (a FIFO, a device, a
    // directory, a link loop, an unreadable file) while the buffer had
    // unsaved edits; SlotState::absenceReason says what.
    NotReadableOnDisk,
};

// Why a save wrote nothing although it could have: the file is no longer
// what the buffer was loaded from (or last saved as), so writing would
// drop another program's change. The window asks before overwriting.
enum class StaleReason {
    None,
    ChangedOnDisk, // other bytes than those the buffer came from
    DeletedOnDisk, // the file the buffer came from is gone
    CreatedOnDisk, // the buffer was created for an absent slot, and a file appeared
};

// A save's outcome: a Status (failed with a sentence, or ok), and for a
// refused stale save also why it was refused.
class SaveResult : public Status
{
public:
    SaveResult() = default;
    SaveResult(Status status) // NOLINT(google-explicit-constructor): any Status is an outcome
        : Status(std::move(status))
    {}
    static SaveResult stale(StaleReason reason, QString error)
    {
        SaveResult r(Status::failure(std::move(error)));
        r.m_stale = reason;
        return r;
    }
    bool isStale() const { return m_stale != StaleReason::None; }
    StaleReason staleReason() const { return m_stale; }

private:
    StaleReason m_stale = StaleReason::None;
};

// Whether a save first checks that the file is still the one the buffer
// came from (the default), or overwrites whatever is there (the user's
// answer "Overwrite").
enum class SaveMode { CheckDisk, Overwrite };

// The rule every document of a PersonaModel follows. The
// conflict unsaved text meets when its file, read again, holds other bytes
// than the buffer came from and than the buffer holds: `now` is what is at
// the path, `reason` the phrase absenceReason() gives a path not read.
ConflictState conflictWithDisk(SlotPresence now, const QString &reason);
// The staleness a conflict already shown settles; None when the file must
// be read again to know.
StaleReason staleReasonOf(ConflictState conflict);
// The staleness a read made now finds: `now` at the path, `sameBytes` its
// bytes are those the buffer came from, `wasPresent` the buffer came from
// a file at all.
StaleReason staleReasonOf(bool wasPresent, SlotPresence now, bool sameBytes);

// The sentence of a refused stale save of the file at `path` (native
// separators): what happened on disk, and that nothing was written.
QString staleSaveText(const QString &path, StaleReason reason);

// Which soul to compose: the editor buffers (unsaved edits included) or the
// files as an agent starting now would read them.
enum class SoulView { Unsaved, OnDisk };

struct SlotState
{
    // On disk, as last read.
    SlotPresence presence = SlotPresence::Missing;
    QString absenceReason; // a phrase for a present-but-unusable path; see soul::absenceReason()
    qint64 diskSize = -1;  // bytes, -1 when absent
    QByteArray diskBytes; // the whole file, or its first rule.readLimit() bytes when over the limit
    bool diskComplete = false;
    QByteArray diskSha256; // hex; empty when absent or not digested
    TextFormat format;     // line break and BOM of the file, kept for saving
    QStringList obstacles; // why the bytes cannot pass through a pane unchanged

    // The editor buffer, as the bytes a save would write.
    bool bufferPresent = false; // absent slot without a created buffer: false
    QByteArray bufferBytes;
    bool dirty = false;
    ConflictState conflict = ConflictState::None;

    bool readOnly = false;
    QString readOnlyReason;
    bool canEditAnyway = false; // read-only because of obstacles, not because of size

    bool diskPresent() const { return presence == SlotPresence::Present; }
    // "Edit anyway" was chosen: the pane takes edits, and saving will change
    // the bytes `obstacles` names, until the buffer is saved or reverted.
    bool editingAnyway() const { return bufferPresent && !readOnly && !obstacles.isEmpty(); }
};

// One persona directory and its documents: what is on disk, what the editor
// buffers hold, which are dirty and which conflict with the disk. Every
// decision about a document is taken here; widgets show the state and call
// the intent methods below.
//
// Documents are numbered. The seven slots are 0..SlotCount-1 and alone make
// the soul (sections, soul(), found(), heldReads()). Any other file the
// editor opens in the folder (a runtime's BOOTSTRAP.md, a skill's
// skills/NAME/SKILL.md) is added with addDocument() and numbered from
// SlotCount on: it is read, watched, saved, reverted, kept for recovery and
// settled on conflict exactly as a slot is, and sends the same signals
// except sectionChanged(). "slot" below means any document unless it says
// otherwise.
//
// Both flows end in sectionChanged(slot): typing (setBufferText) and the disk
// (the watcher's report, read here). The preview asks section() for the text.
//
// Crash recovery: a few seconds after a buffer changes, every dirty buffer is
// kept in a RecoveryStore (under the user's data folder, never in the persona
// folder) and the entries of slots that became clean are removed. close()
// means the user's choice about unsaved buffers was applied, so it clears the
// store; a crash or a kill leaves it. open() offers what a previous run left
// (hasRecovery()) and applies nothing until the user restores or discards it.
// One model at a time keeps copies for a directory (a lock beside the store);
// a second one keeps none and offers none, and says so once it has edits.
class PersonaModel : public QObject
{
    Q_OBJECT

public:
    // Composes by toolnexus's rule.
    explicit PersonaModel(QObject *parent = nullptr);
    // Composes by `rule`: its sections, its soul, and what it reads of a file
    // too large to read whole (rule.readLimit()).
    explicit PersonaModel(ComposeRule rule, QObject *parent = nullptr);
    ~PersonaModel() override;

    const ComposeRule &rule() const { return m_rule; }

    // Reads every slot and starts watching. Fails with a sentence when `dir`
    // is not a usable directory; the previous directory is then kept.
    Status open(const QString &dir);
    // The same for slot files where `layout` says (a runtime's own places):
    // each slot is read, watched and saved at its path, and no other file
    // is written. Fails with a sentence when its directory or its project
    // is not a usable directory.
    Status open(const SlotLayout &layout);
    void close();
    bool isOpen() const { return !m_dir.isEmpty(); }
    QString directory() const { return m_dir; }
    // Where each slot's file is; SlotLayout::folder(directory()) for a folder.
    const SlotLayout &layout() const { return m_layout; }
    // Slot `slot`'s file, absolute; empty while nothing is open.
    QString slotFilePath(int slot) const;
    // How its pane names it: the slot's name, or the layout's label
    // ("memories/MEMORY.md").
    QString slotLabel(int slot) const;
    bool directoryLost() const { return m_directoryLost; }
    bool isWatching() const;
    QDateTime lastRefresh() const { return m_lastRefresh; }
    DirectoryWatcher *watcher() const { return m_watcher; }

    const SlotState &slot(int slot) const { return m_slots.at(size_t(slot)); }

    // Adds the file at `relativePath` under the folder ("BOOTSTRAP.md",
    // "skills/demo/SKILL.md") as a document and returns its number, at
    // least SlotCount; the number of the document already at that path
    // when there is one; -1 for a path that is empty, absolute, leaves the
    // folder ("..") or names a slot. A document stays for the model's life:
    // every open() reads it again, at once when a folder is open now, with
    // the recovered text a previous run left for it offered. It is read only
    // in a persona folder (a runtime's own layout names its files itself);
    // elsewhere it is as a file that is not there, and is not saved.
    int addDocument(const QString &relativePath);
    // The number of the document at `relativePath`; -1 when none.
    int documentIndex(const QString &relativePath) const;
    // The slots and the added documents.
    int documentCount() const { return int(m_slots.size()); }
    // Whether `slot` is a file of an open folder: a slot while a folder is
    // open, an added document while a persona folder is.
    bool isDocumentOpen(int slot) const;
    // Deletes the file of added document `slot` (after the user confirmed:
    // OpenClaw's BOOTSTRAP.md, whose removal finishes setup); its bytes are
    // kept for restoreDeleted(). Fails with a sentence naming the file,
    // deleting nothing, while its text is unsaved, when it is a slot, or
    // when there is no file.
    Status deleteFile(int slot);
    // Writes the bytes deleteFile() removed back, byte for byte. Fails with
    // a sentence naming the file, writing nothing, when a file is there
    // again. nullopt from deletedBytes() when there is nothing to restore.
    Status restoreDeleted(int slot);
    const std::optional<QByteArray> &deletedBytes(int slot) const
    {
        return m_deleted.at(size_t(slot));
    }
    // The text a pane loads (with setPlainText) for the current buffer.
    // Not thread-safe: it hands over a cached conversion.
    QString paneText(int slot) const;
    // Any document unsaved, slots and added documents.
    bool hasUnsaved() const;
    // The unsaved slots (0..SlotCount-1 only: what a checkpoint leaves out).
    QList<int> unsavedSlots() const;
    // Every unsaved document, slots first: what close asks about.
    QList<int> unsavedDocuments() const;

    // Typing: the pane's text as QTextDocument::toRawText() gives it.
    void setBufferText(int slot, QStringView rawText);
    // Gives an absent slot a buffer with `bytes`, unsaved until saved.
    void createSlot(int slot, const QByteArray &bytes);

    // Writes slot `slot`'s buffer (atomic, through links, permissions and
    // hard links kept). On failure the buffer stays dirty and the sentence
    // says why. With SaveMode::CheckDisk, a file that is no longer what the
    // buffer came from (the changed-on-disk bar shows, or the file changed,
    // appeared or went away before the watcher said so) is not written: the
    // result isStale(), and the slot now shows the conflict, its disk bytes
    // read again for comparing. A saved slot can come with a warning (its
    // folder not confirmed by the disk: writeWarningText()).
    SaveResult save(int slot, SaveMode mode = SaveMode::CheckDisk);
    // Saves every dirty document; stops at, and returns, the first failure or
    // stale slot. On success, the warnings of every save.
    SaveResult saveAll(SaveMode mode = SaveMode::CheckDisk);
    // Whether saving `slot` now would replace a change made outside: the
    // conflict the model knows of, else the file's digest read now against
    // the one the buffer came from (one streamed read; nothing is kept).
    StaleReason staleness(int slot) const;
    // The way out when the folder is lost: writes every buffer (dirty or not,
    // since the files it came from may be gone) into `dir`, creating it when
    // missing, then opens `dir`, so the buffers become its clean files. Fails
    // with a sentence, writing nothing, when `dir` already holds any slot file
    // (nothing there is overwritten, and no foreign slot joins the persona)
    // or a slot's buffer is not the whole file. A write that fails stops
    // there; what was written stays, and the current folder stays open. A
    // slot file another program creates in `dir` meanwhile is kept, and
    // fails the save the same way. On success, the saves' warnings. A
    // layout's buffers go there by their slot names: `dir` opens as a
    // persona folder. Added documents go too, at their relative paths
    // (their folders made), under the same rule.
    Status saveAllTo(const QString &dir);
    // Drops the buffer's edits: it takes what is on disk again. Also the
    // answer "Reload" and "Discard" to a conflict. The pane takes the text
    // as one undoable edit (bufferReplaced), and undoing it is typing.
    void revert(int slot);
    // Keeps the edits and forgets the conflict; the buffer stays dirty, and
    // the file as it is now becomes what a save may replace without asking.
    void keepMine(int slot);
    // A file in the folder whose name differs from slot `slot`'s only in
    // case ("soul.md" for SOUL.md): it is not read. Empty when there is none.
    QString caseVariant(int slot) const;
    // Renames caseVariant(slot) to the slot's name, so it is read. Fails with
    // a sentence, renaming nothing, when there is no variant any more or the
    // slot's file (or link, or anything) exists, even if it appeared just now.
    Status renameCaseVariant(int slot);
    // Whether another window holds this folder, so unsaved text here is not
    // kept for crash recovery; the sentence says so. Empty otherwise.
    QString recoveryUnavailable() const { return m_recoveryUnavailable; }
    // Lifts the read-only state of a slot whose bytes would change in a pane.
    // The obstacles stay (SlotState::editingAnyway()) until a save or a
    // revert, so the pane keeps saying which bytes a save will change.
    void editAnyway(int slot);

    // "## NAME\n\n" + body, as composeSection() builds it by rule(); nullopt when the
    // slot takes no part in that view.
    std::optional<QByteArray> section(int slot, SoulView view) const;
    bool truncated(int slot, SoulView view) const;
    qint64 sizeIn(int slot, SoulView view) const; // bytes, -1 when absent
    // The whole soul of a view, joined from the cached sections in the rule's
    // order.
    QByteArray soul(SoulView view) const;
    QStringList found(SoulView view) const;
    qint64 soulSize(SoulView view) const;

    // The files as last read, for an inspection that need not read them
    // again (a snapshot): each present slot's digest and bytes, shared.
    HeldReads heldReads() const;

    // Unsaved text a previous run left for slot `slot`, offered until the
    // user restores or discards it. Text equal to the file is dropped on
    // open. While it is offered, typing into the slot is ignored, so the
    // offer and new edits never compete for the slot's one recovery entry.
    bool hasRecovery(int slot) const { return m_recovered.at(size_t(slot)).has_value(); }
    std::optional<RecoveredSlot> recovery(int slot) const { return m_recovered.at(size_t(slot)); }
    // The file changed (or appeared, or went away) since the recovered text
    // was kept, so restoring it would also undo that change.
    bool recoveryPredatesDisk(int slot) const;
    // The buffer takes the recovered text and is dirty; the offer ends.
    void restoreRecovery(int slot);
    // The buffer takes `bytes` (a file as a commit of its history had it),
    // unsaved until saved; the pane takes the text as one undoable edit
    // (bufferReplaced), and nothing is written. Fails with a sentence, changing
    // nothing, when no folder is open or recovered text waits for an answer.
    Status replaceBuffer(int slot, const QByteArray &bytes);
    // Forgets the recovered text; the buffer stays as it is.
    void discardRecovery(int slot);
    // How long after a change the dirty buffers are written (tests shorten it).
    void setRecoveryInterval(int ms) { m_recoveryTimer.setInterval(ms); }
    int recoveryInterval() const { return m_recoveryTimer.interval(); }
    // Writes what is due now instead of when the timer fires, and waits (a
    // few seconds at most) until every copy asked for is on disk.
    void flushRecovery();

Q_SIGNALS:
    void opened(const QString &dir);
    void closed();
    // Header state: presence, dirty, conflict, read-only, sizes.
    void slotStateChanged(int slot);
    // The buffer was replaced from outside the pane (disk, revert, create):
    // the pane reloads paneText(), keeping its cursor and scroll.
    void bufferReplaced(int slot);
    // The pane's text changed the buffer (typing, undo, paste): what a link
    // group hands on to its other copies; a change from outside is
    // bufferReplaced().
    void bufferEdited(int slot);
    // Section `slot` may differ in either view.
    void sectionChanged(int slot);
    void directoryLostChanged(bool lost);
    void watchingChanged(bool watching);
    void refreshed(const QDateTime &when);
    // An offer of recovered text for `slot` appeared or ended.
    void recoveryChanged(int slot);
    // Keeping unsaved buffers for recovery failed; `error` says why. Sent
    // once until a write succeeds again.
    void recoveryFailed(const QString &error);

private:
    struct Sections
    {
        std::optional<QByteArray> unsaved;
        std::optional<QByteArray> onDisk;
        bool unsavedTruncated = false;
        bool onDiskTruncated = false;
    };

    // `read`, when given, takes the read without its bytes.
    // Reads the slot into `state`'s disk fields, or takes `given`, a read
    // made the same way (the watcher's, which found the change).
    void readFromDisk(int slot,
                      SlotState &state,
                      std::optional<SlotRead> *read = nullptr,
                      std::optional<SlotRead> given = std::nullopt) const;
    void applyDiskChange(int slot, std::optional<SlotRead> given = std::nullopt);
    void setBuffer(int slot, const QByteArray &bytes, bool present);
    // The buffer takes `bytes` with their own line break and BOM, and the
    // pane text is made from them.
    void takeBytes(int slot, const QByteArray &bytes);
    // open() once its folders are known to be usable. By value: the layout
    // may be this model's own, which closing clears.
    void openChecked(SlotLayout layout);
    SlotRead readSlotFile(int slot, const ReadOptions &options) const;
    // Creates the folder of `path` when the layout says the runtime makes
    // it (SlotLayout::madeFolders) and it is missing; a failure is a
    // sentence naming it.
    Status makeRuntimeFolder(const QString &path) const;
    void recomputeUnsaved(int slot);
    void recomputeOnDisk(int slot);
    void touchRefresh();
    QString staleText(int slot, StaleReason reason) const;
    void scheduleRecovery(int slot);
    // One copy to write (`unsaved`) or to remove (no `unsaved`).
    struct RecoveryWrite
    {
        QString key;
        std::optional<QByteArray> unsaved;
        QByteArray diskSha256;
    };
    // Hands the copies due to the recovery thread: the window's thread never
    // waits on the disk for them. A failure comes back as recoveryFailed().
    void writeRecovery();
    // Every change to the store goes through the recovery thread, in the
    // order asked; `lock`, when given, is let go after these writes.
    void postRecovery(std::vector<RecoveryWrite> writes, std::shared_ptr<QLockFile> lock = {});
    void recoveryWritten(quint64 generation, const QStringList &failedKeys, const QString &error);
    // Removes document `slot`'s copy, after the copies on their way, and
    // waits (a few seconds at most) until it is gone.
    void removeRecovery(int slot);
    void openRecovery();
    // The offer of a previous run's text for document `slot`, when it
    // differs from the file.
    void offerRecovered(int slot, std::optional<RecoveredSlot> recovered);
    // How the recovery store names the document: the slot's name, or the
    // added document's relative path (BOOTSTRAP.md's copies kept before
    // documents were numbered have that name too).
    QString recoveryKey(int slot) const;
    // Every per-document vector back to its empty state, keeping the count.
    void resetDocuments();

    ComposeRule m_rule;
    QString m_dir;
    SlotLayout m_layout;
    // Per document, slots first; they grow together in addDocument().
    std::vector<SlotState> m_slots;
    std::vector<Sections> m_sections; // only the slots' are ever filled
    // The text a pane is about to load, kept from reading the file so that
    // 2 MiB are not converted twice; taken (and dropped) by paneText().
    mutable std::vector<QString> m_paneTextCache;
    // The added documents' paths under the folder, from SlotCount on.
    QStringList m_documents;
    // What deleteFile() removed, for restoreDeleted().
    std::vector<std::optional<QByteArray>> m_deleted;
    DirectoryWatcher *m_watcher = nullptr;
    bool m_directoryLost = false;
    QDateTime m_lastRefresh;

    std::unique_ptr<RecoveryStore> m_recovery; // the open directory's; null when closed
    std::shared_ptr<QLockFile> m_recoveryLock; // held while m_recovery is ours
    QString m_recoveryUnavailable;             // why there is no m_recovery while open
    QTimer m_recoveryTimer;
    std::vector<bool> m_recoveryDue;
    // What this run last wrote for a slot, to skip writing it again.
    std::vector<std::optional<KeptBuffer>> m_recoveryKept;
    std::vector<std::optional<RecoveredSlot>> m_recovered;
    bool m_recoveryFailing = false;
    // Which open the copies on their way belong to: a report of an earlier
    // folder's is not this one's.
    quint64 m_recoveryGeneration = 0;
};

} // namespace soul
