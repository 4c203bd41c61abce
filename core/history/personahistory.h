#pragma once

#include "compose/composer.h"
#include "compose/composerule.h"
#include "compose/contract.h"
#include "disk/slotreader.h"
#include "result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <memory>

// A persona folder's git history: the commits that touched its slot files,
// the slot files as a commit has them (read from git's objects, never by a
// checkout), and checkpoints (a commit of the slot files as they are on
// disk). libgit2 does the work, so no git program is needed at run time;
// nothing outside core/history sees a libgit2 type.
//
// Threads. A PersonaHistory is used by one thread at a time: a window opens
// it on a worker (QtConcurrent::run, a QThread), calls log(), measure() and
// readRevision() there, and hands the results, which are plain values
// (implicitly shared Qt types), to the GUI thread. Two workers each open
// their own PersonaHistory on the same folder. HistoryCounts
// (historycounts.h) may be shared by any number of them.
//
// Errors. Every failure is a sentence naming the folder, the repository,
// the revision or the object, and what to do: a folder outside any
// repository, a revision git does not know, an object that cannot be read
// (a damaged repository), a locked index.
//
// Symbolic links. The compose rule follows links on disk. In git a link is a
// blob holding its target path, so a slot that is a link is read from the
// same commit's tree: a relative target is followed entry by entry (through
// other links, up with "..", at most 40 links) as a checkout of that commit
// would lead the kernel; the slot takes the blob it reaches. A target that
// is absolute, leaves the repository's root, reaches nothing or a folder, or
// loops, makes the slot absent, as a dangling link does on disk. Names are
// exact: "soul.md" is not the SOUL.md slot.
//
// Bytes. A slot's bytes are the blob's, as stored: CR LF stays CR LF, and no
// .gitattributes filter or core.autocrlf conversion is applied (where one
// would change the bytes of a checkout, PersonaRevision says so).
namespace soul {

class HistoryCounts;

// How one slot stands in one commit.
struct HistorySlot
{
    SlotPresence presence = SlotPresence::Missing; // Present, Missing, DanglingLink or Directory
    bool isSymlink = false;                        // the slot's own entry is a link
    QByteArray blobId;                             // hex id of the blob composed, when Present
    QByteArray entryId; // hex id of the slot's own entry (the link's blob for a link)
    int entryMode = 0;  // its git file mode (0100644, 0100755, 0120000, ...); 0: no entry

    bool present() const { return presence == SlotPresence::Present; }
    bool operator==(const HistorySlot &other) const;
    bool operator!=(const HistorySlot &other) const { return !(*this == other); }
};
using HistorySlots = std::array<HistorySlot, SlotCount>;

// What a commit did to one slot, against its first parent.
enum class SlotChange {
    Unchanged,
    Added,    // absent before, present now
    Modified, // present in both, its blob, mode or link changed; or absent in both with
              // its entry changed (a dangling link made, moved or removed)
    Removed,  // present before, absent now
};

// "added", "modified", ...
QString slotChangeName(SlotChange change);

struct HistoryCommit
{
    QByteArray id;   // hex, 40 digits
    QString shortId; // the shortest unambiguous prefix, at least 7 digits
    QString authorName;
    QString authorEmail;
    QDateTime authorTime; // in the author's own UTC offset
    QDateTime commitTime; // in the committer's own UTC offset
    QString summary;      // the message's first paragraph, on one line
    QString message;
    int parentCount = 0;
    // A shallow clone's history ends at this commit: its parents are not in
    // the clone, so it is read as a first commit (every slot it has counts
    // as added) and nothing older is listed.
    bool cut = false;
    HistorySlots slots;  // at this commit
    HistorySlots before; // at its first parent; all Missing for a root commit

    SlotChange change(int slot) const;
    // Whether the commit touched any slot at all (every commit log() gives does).
    bool touchesSlots() const;
};

// The slot files of the persona folder at one commit, as readSlot() reads
// them from a folder: `path` is "SHORTID:path/in/repository/NAME", `bytes`
// the first `limit` bytes of the blob, `size` the blob's size, `sha256` its
// digest when asked for. A slot whose blob cannot be read fails the whole
// read; no slot is ever reported absent because of a damaged object.
struct PersonaRevision
{
    QString rev; // as given: "HEAD~2", "v1.0", "1a2b3c4"
    HistoryCommit commit;
    std::array<SlotRead, SlotCount> reads;
    // The names in the folder at that commit, and whether "memory" is a
    // folder: what the lints about names beside the slots read.
    QStringList entryNames;
    bool memoryFolder = false;
    // Whether a checkout would write other bytes than the blob's for a slot
    // (a .gitattributes filter, core.autocrlf): the soul here is composed
    // from the blob, as stored.
    std::array<bool, SlotCount> checkoutConverts{};
    // The folder did not exist at that commit (every slot is then absent).
    bool folderMissing = false;
};

// The slot buffers compose() takes, from the reads of a revision.
SlotBuffers slotBuffers(const std::array<SlotRead, SlotCount> &reads);

// A slot's section at one commit, measured: see HistoryCounts.
struct SoulFigures
{
    qint64 soulBytes = 0;
    qint64 soulTokens = 0;
    // Per slot in BootstrapOrder; -1 for an absent (or not composed) slot.
    std::array<qint64, SlotCount> sectionBytes{-1, -1, -1, -1, -1, -1, -1};
    std::array<qint64, SlotCount> sectionTokens{-1, -1, -1, -1, -1, -1, -1};
    // Tokens of each section against the first parent (an absent section
    // counts 0): +42 for a section that grew by 42 tokens.
    std::array<qint64, SlotCount> tokenChange{};
};

// One slot of a checkpoint about to be made.
struct CheckpointSlot
{
    int slot = -1;
    SlotChange change = SlotChange::Unchanged;
    qint64 tokensBefore = -1; // the section's tokens at HEAD, -1 when absent there
    qint64 tokensAfter = -1;  // on disk, -1 when absent on disk
};

// What a checkpoint would commit: the slots whose file on disk differs from
// HEAD's (content, mode, or a link's target), in slot order, and the message
// that says so: "SOUL.md +42 tokens; MEMORY.md changed". Empty when nothing
// changed.
struct CheckpointPlan
{
    QList<CheckpointSlot> slots;
    QString message;
    bool isEmpty() const { return slots.isEmpty(); }
};

// The largest slot file a checkpoint commits (64 MiB): a larger one is
// refused with a sentence that says to commit it with git itself.
inline constexpr qint64 CheckpointFileLimit = qint64(64) << 20;

struct Checkpoint
{
    QStringList recovered; // a sentence for each checkpoint killed here whose leftovers were cleaned
    // A sentence for each file of this run that could not be removed once the
    // commit was made (the commit stands; the next checkpoint removes them
    // and says so in `recovered`).
    QStringList leftovers;
    bool nothingToCommit = false; // every slot file is as HEAD has it; nothing was written
    QByteArray id;                // the new commit, hex
    QString shortId;
    QString message;
    QList<CheckpointSlot> slots;
};

// Where HEAD points now, and the files and folders of the repository that
// change when a commit is made, the branch changes or HEAD moves in any
// other way (by git, by another program), for a window to watch.
struct HeadPlace
{
    QByteArray headId;        // hex; empty while HEAD's branch has no commit
    QString branch;           // "refs/heads/main"; empty for a detached HEAD
    QString busy;             // busyState(): a merge under way, ...
    QStringList watchFiles;   // HEAD, the branch's file, packed-refs (those that exist)
    QStringList watchFolders; // the git folder, the common one, and those the branch's file is in

    bool sameHead(const HeadPlace &other) const
    {
        return headId == other.headId && branch == other.branch && busy == other.busy;
    }
};

// The author a checkpoint is made by when the repository's git configuration
// names none (user.name, user.email) and the environment neither
// (GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL).
inline constexpr char DefaultAuthorName[] = "Soul Studio";
inline constexpr char DefaultAuthorEmail[] = "soulstudio@localhost";

class PersonaHistory
{
public:
    // Opens the repository that holds `dir`, searching from `dir` upwards as
    // git does (not across file systems); `dir` may be anywhere inside it.
    // Fails with a sentence naming `dir` when it is not a folder or is in no
    // repository, or when the repository is bare or cannot be opened.
    static Result<std::unique_ptr<PersonaHistory>> open(const QString &dir);

    // Makes `dir` a repository of its own (`git init`, on the branch
    // init.defaultBranch names), for a persona that has none. Fails when
    // `dir` is not a folder or the repository cannot be made.
    static Status initRepository(const QString &dir);

    ~PersonaHistory();
    PersonaHistory(const PersonaHistory &) = delete;
    PersonaHistory &operator=(const PersonaHistory &) = delete;

    QString directory() const { return m_directory; }         // absolute, as given
    QString repositoryRoot() const { return m_workdir; }      // the working tree's root
    QString pathInRepository() const { return m_folderPath; } // "" for the root, "agents/ava"
    // "ava" or "agents/ava in /home/me/repo": how sentences name the folder.
    QString folderText() const;

    // Whether the repository is a shallow clone (its history is cut: see
    // HistoryCommit::cut).
    bool isShallow() const;

    // Whether HEAD has a commit yet (a repository OpenClaw made with `git
    // init` has none).
    bool hasCommits() const;
    // Why a checkpoint cannot be made now (a merge, rebase or cherry-pick is
    // under way), or empty. Reading works in any state.
    QString busyState() const;
    // HEAD as it is now, and what to watch to see it move (see HeadPlace).
    HeadPlace headPlace() const;

    // The commits reachable from HEAD that touched a slot file (its entry, or
    // the blob a link slot leads to, differs from the first parent's), newest
    // first, each with its slots and its first parent's. `visit` gets each as
    // soon as it is found and returns false to stop early. An empty
    // repository visits nothing and succeeds.
    Status log(const std::function<bool(const HistoryCommit &)> &visit) const;
    Result<QList<HistoryCommit>> log() const;

    // The commit `rev` names (anything git understands: HEAD~2, a tag, a
    // branch, a short id, HEAD@{1}), with its slots.
    Result<HistoryCommit> commit(const QString &rev) const;

    // The persona's slot files at `rev` (see PersonaRevision), keeping at
    // most `options.limit` bytes of each: a rule's readLimit() to compose,
    // or -1 for the whole files (to restore one as it was).
    Result<PersonaRevision> readRevision(const QString &rev, const ReadOptions &options) const;

    // The soul's bytes and tokens at `commit` and each section's change
    // against the first parent, by `counts`' rule and tokenizer. A section is
    // composed and counted once per blob for the life of `counts`; the rest
    // are looked up.
    Result<SoulFigures> measure(const HistoryCommit &commit, HistoryCounts &counts) const;

    // What a checkpoint would commit now, measured by `counts` (no object is
    // written).
    Result<CheckpointPlan> planCheckpoint(HistoryCounts &counts) const;

    // Commits the slot files as they are on disk, and nothing else: the new
    // commit's tree is HEAD's with the seven slot paths of the folder
    // replaced (a file or link added or changed, a file gone removed), and in
    // the index only those seven entries change, so other staged and
    // unstaged changes stay as they were. The message is `message`, or the
    // plan's when empty; the author and committer come from the git
    // configuration (see DefaultAuthorName). Nothing changed: a Checkpoint
    // with nothingToCommit and nothing written.
    //
    // A failure (a lock git honours held by another program, a read-only
    // repository, a full disk at any of its writes, HEAD moved meanwhile, a
    // merge under way, a slot file over CheckpointFileLimit) leaves HEAD, the
    // refs and their reflogs, the index and the files as they were and says
    // why (a full disk: that it is full, and to free space); at most objects
    // nothing refers to are left in the object store, as a failed `git
    // commit` leaves them, for `git gc` to drop. The one exception is an
    // index that cannot be renamed into place after HEAD moved: the error
    // says so, and the next checkpoint finishes it. Writes go through fileio
    // in git's order under git's locks, so a kill at any call leaves HEAD old
    // or new; the next checkpoint cleans what a killed one left (listed in
    // Checkpoint::recovered).
    Result<Checkpoint> checkpoint(const QString &message, HistoryCounts &counts);

    // The libgit2 repository and what was found about it (historyowner.h,
    // internal to core/history).
    struct Owner;

private:
    PersonaHistory() = default;

    std::unique_ptr<Owner> m_owner;
    QString m_directory;
    QString m_workdir;
    QString m_folderPath;
};

} // namespace soul
