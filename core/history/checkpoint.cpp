// PersonaHistory::planCheckpoint() and checkpoint(): committing the slot
// files as they are on disk, and nothing else.

#include "atomicwrite.h"
#include "counttext.h"
#include "historycounts.h"
#include "historyowner.h"
#include "lint.h"
#include "slotreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace soul {

namespace {

bool isFileMode(git_filemode_t mode)
{
    return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE
           || mode == GIT_FILEMODE_LINK;
}

// A path HEAD holds as a folder or a submodule is not a slot file: a
// checkpoint leaves it, and everything in it, alone.
bool leftAlone(const git::TreeSlotEntry &head)
{
    return head.hasEntry && !isFileMode(head.entryMode);
}

// The slot file on disk as git would stage it: a file or a link (its blob
// id and mode), or nothing (missing, or a folder, FIFO or device, which git
// cannot hold as a file).
struct DiskEntry
{
    bool present = false;
    git_oid id{};
    git_filemode_t mode = GIT_FILEMODE_UNREADABLE;
};

bool readBool(git_repository *repo, const char *name, bool fallback)
{
    git_config *config = nullptr;
    if (git_repository_config_snapshot(&config, repo) != 0)
        return fallback;
    const git::Config owned(config);
    int value = 0;
    if (git_config_get_bool(&value, config, name) != 0) {
        git_error_clear();
        return fallback;
    }
    return value != 0;
}

Result<DiskEntry> diskEntry(const PersonaHistory::Owner &o,
                            int slot,
                            const git::TreeSlotEntry &head,
                            bool trustMode)
{
    using R = Result<DiskEntry>;
    const QByteArray relative = o.slotPath(slot);
    const QString path = o.workdir + QString::fromUtf8(relative);
    const QByteArray local = QFile::encodeName(path);
    struct stat st = {};
    if (::lstat(local.constData(), &st) != 0) {
        const int error = errno;
        if (error == ENOENT || error == ENOTDIR)
            return DiskEntry();
        return R::failure(QStringLiteral("%1: cannot look at it (%2). Check the folder's "
                                         "permissions, then checkpoint again.")
                              .arg(path, systemErrorText(error)));
    }
    DiskEntry entry;
    if (S_ISLNK(st.st_mode)) {
        // git keeps a link as a blob of its target path.
        QByteArray target(qsizetype(st.st_size > 0 ? st.st_size : 256), '\0');
        for (;;) {
            const ssize_t n = ::readlink(local.constData(), target.data(), size_t(target.size()));
            if (n < 0) {
                return R::failure(QStringLiteral("%1: cannot read the link (%2).")
                                      .arg(path, systemErrorText(errno)));
            }
            if (n < target.size()) {
                target.truncate(qsizetype(n));
                break;
            }
            target.resize(target.size() * 2);
        }
        if (git_odb_hash(&entry.id, target.constData(), size_t(target.size()), GIT_OBJECT_BLOB)
            != 0) {
            return R::failure(
                QStringLiteral("%1: cannot hash the link (%2).").arg(path, git::lastErrorText()));
        }
        entry.present = true;
        entry.mode = GIT_FILEMODE_LINK;
        return entry;
    }
    if (!S_ISREG(st.st_mode))
        return DiskEntry();
    // With the repository's filters (core.autocrlf, .gitattributes), as
    // `git add` would store it.
    if (git_repository_hashfile(&entry.id,
                                o.get(),
                                local.constData(),
                                GIT_OBJECT_BLOB,
                                relative.constData())
        != 0) {
        return R::failure(QStringLiteral("%1: cannot read it (%2). Make it readable, then "
                                         "checkpoint again.")
                              .arg(path, git::lastErrorText()));
    }
    entry.present = true;
    if (trustMode) {
        entry.mode = (st.st_mode & S_IXUSR) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
    } else {
        // core.filemode false: git keeps the mode it had.
        entry.mode = head.hasEntry && head.entryMode != GIT_FILEMODE_LINK ? head.entryMode
                                                                          : GIT_FILEMODE_BLOB;
    }
    return entry;
}

bool differs(const DiskEntry &disk, const git::TreeSlotEntry &head)
{
    if (disk.present != head.hasEntry)
        return true;
    return disk.present
           && (disk.mode != head.entryMode || git_oid_cmp(&disk.id, &head.entryId) != 0);
}

QString signedTokens(qint64 delta)
{
    return (delta > 0 ? QStringLiteral("+") : QStringLiteral("-"))
           + plural(delta < 0 ? -delta : delta, "token", "tokens");
}

// "SOUL.md +42 tokens; USER.md added (+120 tokens); MEMORY.md changed".
QString describeSlots(const QList<CheckpointSlot> &slots)
{
    QStringList parts;
    for (const CheckpointSlot &s : slots) {
        const QString name = slotName(s.slot);
        const qint64 before = qMax<qint64>(s.tokensBefore, 0);
        const qint64 after = qMax<qint64>(s.tokensAfter, 0);
        switch (s.change) {
        case SlotChange::Added:
            parts.append(s.tokensAfter >= 0
                             ? QStringLiteral("%1 added (%2)").arg(name, signedTokens(after))
                             : QStringLiteral("%1 added").arg(name));
            break;
        case SlotChange::Removed:
            parts.append(s.tokensBefore >= 0
                             ? QStringLiteral("%1 removed (%2)").arg(name, signedTokens(-before))
                             : QStringLiteral("%1 removed").arg(name));
            break;
        case SlotChange::Modified:
        case SlotChange::Unchanged:
            parts.append(after != before
                             ? QStringLiteral("%1 %2").arg(name, signedTokens(after - before))
                             : QStringLiteral("%1 changed").arg(name));
            break;
        }
    }
    return parts.join(QStringLiteral("; "));
}

// The author or committer: the environment (as git reads it), then the
// configuration, then Soul Studio's own name.
Result<git::Signature> signature(git_repository *repo,
                                 const char *nameVariable,
                                 const char *emailVariable)
{
    QString name = qEnvironmentVariable(nameVariable);
    QString email = qEnvironmentVariable(emailVariable);
    if (name.isEmpty() || email.isEmpty()) {
        git_signature *configured = nullptr;
        if (git_signature_default(&configured, repo) == 0) {
            const git::Signature owned(configured);
            if (name.isEmpty())
                name = QString::fromUtf8(configured->name);
            if (email.isEmpty())
                email = QString::fromUtf8(configured->email);
        } else {
            git_error_clear();
        }
    }
    if (name.isEmpty())
        name = QLatin1String(DefaultAuthorName);
    if (email.isEmpty())
        email = QLatin1String(DefaultAuthorEmail);
    git_signature *made = nullptr;
    if (git_signature_now(&made, name.toUtf8().constData(), email.toUtf8().constData()) != 0) {
        return Result<git::Signature>::failure(
            QStringLiteral("the author '%1 <%2>' is not one git accepts (%3). Set user.name and "
                           "user.email with git config.")
                .arg(name, email, git::lastErrorText()));
    }
    return git::Signature(made);
}

// The errno behind libgit2's last failure when the system refused a write,
// else `saved` (errno right after the call): libgit2 ends the message of an
// OS error with strerror()'s words.
int lastSystemError(int saved)
{
    const git_error *error = git_error_last();
    if (error && error->klass == GIT_ERROR_OS && error->message) {
        const QString message = QString::fromUtf8(error->message);
        for (const int candidate : {ENOSPC, EDQUOT, EROFS, EIO, EFBIG, EACCES, EPERM}) {
            if (message.contains(systemErrorText(candidate)))
                return candidate;
        }
    }
    switch (saved) {
    case ENOSPC:
    case EDQUOT:
    case EROFS:
    case EIO:
    case EFBIG:
        return saved;
    default:
        return 0;
    }
}

// What to do after the repository refused a write with `error` (0: not
// known), ending in a full stop.
QString writeAdvice(int error)
{
    switch (error) {
    case ENOSPC:
        return QStringLiteral("The disk is full: free some space on it, then checkpoint again; "
                              "nothing was committed.");
    case EDQUOT:
        return QStringLiteral("Your disk quota is used up: free some space, then checkpoint "
                              "again; nothing was committed.");
    case EROFS:
        return QStringLiteral("The file system is read-only: mount it read-write, then "
                              "checkpoint again; nothing was committed.");
    case EIO:
        return QStringLiteral("The device failed to store the data: check the disk, then "
                              "checkpoint again; nothing was committed.");
    default:
        return QStringLiteral("Check that it is writable and the disk has space; nothing was "
                              "committed.");
    }
}

// The index file as it was before a checkpoint wrote it, to put back when
// HEAD cannot be moved after all. Kept under a second name (a hard link, which
// takes no space, so the index comes back on a full disk too), or, where the
// file system has no hard links, as bytes written back.
class IndexBackup
{
public:
    IndexBackup(QString indexPath, std::optional<QByteArray> bytes)
        : m_index(std::move(indexPath))
        , m_bytes(std::move(bytes))
    {}
    ~IndexBackup() { drop(); }
    IndexBackup(const IndexBackup &) = delete;
    IndexBackup &operator=(const IndexBackup &) = delete;

    // Before the index is written.
    void take()
    {
        if (!m_bytes)
            return; // no index yet: putting it back removes the new one
        const QString link
            = QStringLiteral("%1.before-checkpoint-%2").arg(m_index).arg(qint64(::getpid()));
        const QByteArray local = QFile::encodeName(link);
        ::unlink(local.constData()); // left by a run that crashed
        if (::link(QFile::encodeName(m_index).constData(), local.constData()) == 0)
            m_link = link;
    }

    // The old index in place again.
    Status restore()
    {
        if (!m_link.isEmpty()) {
            if (::rename(QFile::encodeName(m_link).constData(),
                         QFile::encodeName(m_index).constData())
                == 0) {
                m_link.clear();
                return {};
            }
            drop();
        }
        if (m_bytes)
            return writeFileAtomically(m_index, *m_bytes);
        if (::unlink(QFile::encodeName(m_index).constData()) != 0 && errno != ENOENT) {
            return Status::failure(
                QStringLiteral("%1: cannot remove it (%2).").arg(m_index, systemErrorText(errno)));
        }
        return {};
    }

    // The second name goes; the index stays as it is.
    void drop()
    {
        if (!m_link.isEmpty())
            ::unlink(QFile::encodeName(m_link).constData());
        m_link.clear();
    }

private:
    QString m_index;
    std::optional<QByteArray> m_bytes;
    QString m_link;
};

// The reflogs a move of HEAD appends a line to (HEAD's, and its branch's), as
// they were. libgit2 appends them before it writes the ref, so a ref that
// cannot be written (a full disk) leaves a line, or on a full disk part of
// one, for a commit nothing points to; restore() takes it off again.
class ReflogGuard
{
public:
    explicit ReflogGuard(git_repository *repo)
    {
        const QString gitDir = QFile::decodeName(git_repository_path(repo));
        const QString commonDir = QFile::decodeName(git_repository_commondir(repo));
        add(gitDir, QStringLiteral("HEAD"));
        git_reference *head = nullptr;
        if (git_reference_lookup(&head, repo, "HEAD") == 0) {
            const git::Reference owned(head);
            if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC)
                add(commonDir, QString::fromUtf8(git_reference_symbolic_target(head)));
        }
        git_error_clear();
    }

    // Takes off what a failed move from `from` (zero: an unborn branch) to
    // `to` appended, and removes the logs and folders it created. Lines
    // another git added meanwhile stay.
    void restore(const git_oid &from, const git_oid &to)
    {
        const QByteArray ours = git::hex(from) + ' ' + git::hex(to) + ' ';
        for (const Log &log : m_logs) {
            QFile file(log.path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            // A log that was not there may have been left empty.
            if (log.existed && file.size() <= log.size)
                continue;
            if (!file.seek(log.size))
                continue;
            const QByteArray tail = file.read(ours.size());
            file.close();
            if (!ours.startsWith(tail))
                continue;
            const QByteArray local = QFile::encodeName(log.path);
            if (log.existed)
                ::truncate(local.constData(), off_t(log.size));
            else
                ::unlink(local.constData());
        }
        for (const QString &folder : m_folders)
            ::rmdir(QFile::encodeName(folder).constData()); // only when empty
    }

private:
    struct Log
    {
        QString path;
        bool existed = false;
        qint64 size = 0;
    };

    void add(const QString &base, const QString &refName)
    {
        Log log;
        log.path = QDir(base).filePath(QStringLiteral("logs/") + refName);
        struct stat st = {};
        log.existed = ::stat(QFile::encodeName(log.path).constData(), &st) == 0;
        log.size = log.existed ? qint64(st.st_size) : 0;
        m_logs.append(log);
        const QString root = QDir::cleanPath(base);
        for (QString folder = QFileInfo(log.path).path();
             folder.size() > root.size() && !QFileInfo::exists(folder);
             folder = QFileInfo(folder).path()) {
            m_folders.append(folder);
        }
        // The deepest first, so each is empty when its turn comes.
        m_folders.removeDuplicates();
        std::sort(m_folders.begin(), m_folders.end(), [](const QString &a, const QString &b) {
            return a.size() > b.size();
        });
    }

    QList<Log> m_logs;
    QStringList m_folders;
};

bool objectExists(git_repository *repo, const git_oid &id)
{
    git_odb *odb = nullptr;
    if (git_repository_odb(&odb, repo) != 0)
        return false;
    const bool exists = git_odb_exists(odb, &id) == 1;
    git_odb_free(odb);
    return exists;
}

QString lockedText(const QString &repository, const QString &lockPath)
{
    return QStringLiteral("the index of the repository at %1 is locked: %2 exists, so another git "
                          "program is using it. Wait for it to finish (or remove the file if "
                          "no git is running), then checkpoint again.")
        .arg(repository, lockPath);
}

} // namespace

Result<CheckpointPlan> PersonaHistory::planCheckpoint(HistoryCounts &counts) const
{
    using R = Result<CheckpointPlan>;
    const Owner &o = *m_owner;
    git::TreeSlotEntries head;
    git::Commit headCommit;
    if (git_repository_head_unborn(o.get()) != 1) {
        Result<git::Commit> resolved = o.resolve(QStringLiteral("HEAD"));
        if (!resolved)
            return R::failure(resolved.error());
        headCommit = std::move(resolved).value();
        Result<git::TreeSlotEntries> entries
            = git::slotEntries(o.get(), *git_commit_tree_id(headCommit.get()), o.folder);
        if (!entries)
            return R::failure(o.damaged(QStringLiteral("HEAD's files"), entries.error()));
        head = *entries;
    }
    const bool trustMode = readBool(o.get(), "core.filemode", true);
    CheckpointPlan plan;
    const ComposeRule &rule = counts.rule();
    for (int slot = 0; slot < SlotCount; ++slot) {
        const git::TreeSlotEntry &was = head[size_t(slot)];
        if (leftAlone(was))
            continue;
        const Result<DiskEntry> disk = diskEntry(o, slot, was, trustMode);
        if (!disk)
            return R::failure(disk.error());
        if (!differs(*disk, was))
            continue;
        CheckpointSlot s;
        s.slot = slot;
        s.change = !was.hasEntry    ? SlotChange::Added
                   : !disk->present ? SlotChange::Removed
                                    : SlotChange::Modified;
        if (was.presence == SlotPresence::Present && rule.composes(slot)) {
            const QByteArray blobId = git::hex(was.blobId);
            std::optional<HistoryCounts::Section> section = counts.find(slot, blobId);
            if (!section) {
                const Result<QByteArray> bytes = o.readBlob(was.blobId,
                                                            QStringLiteral("%1 at HEAD (blob %2)")
                                                                .arg(slotName(slot),
                                                                     QString::fromLatin1(blobId)),
                                                            rule.readLimit());
                if (!bytes)
                    return R::failure(bytes.error());
                section = counts.countSection(slot, *bytes);
                counts.insert(slot, blobId, *section);
            }
            s.tokensBefore = section->tokens;
        }
        // What the compose rule reads of the folder now (a link followed on
        // disk): the soul the author sees.
        const SlotRead now = readSlot(m_directory, slot, rule.readLimit());
        if (now.presence == SlotPresence::Present && rule.composes(slot))
            s.tokensAfter = counts.countSection(slot, now.bytes).tokens;
        plan.slots.append(s);
    }
    plan.message = describeSlots(plan.slots);
    return plan;
}

Result<Checkpoint> PersonaHistory::checkpoint(const QString &message, HistoryCounts &counts)
{
    using R = Result<Checkpoint>;
    Owner &o = *m_owner;
    if (const QString busy = busyState(); !busy.isEmpty())
        return R::failure(busy);
    const Result<CheckpointPlan> plan = planCheckpoint(counts);
    if (!plan)
        return R::failure(plan.error());
    Checkpoint result;
    if (plan->isEmpty()) {
        result.nothingToCommit = true;
        return result;
    }

    git_index *rawIndex = nullptr;
    if (git_repository_index(&rawIndex, o.get()) != 0)
        return R::failure(o.damaged(QStringLiteral("the index"), git::lastErrorText()));
    const git::Index index(rawIndex);
    const QString indexPath = QFile::decodeName(git_index_path(index.get()));
    const QString lockPath = indexPath + QStringLiteral(".lock");
    if (QFileInfo::exists(lockPath))
        return R::failure(lockedText(o.repositoryText, lockPath));
    // The index as it is, to put back if HEAD cannot be moved after it was
    // written.
    std::optional<QByteArray> originalIndex;
    if (QFileInfo::exists(indexPath)) {
        QFile file(indexPath);
        if (!file.open(QIODevice::ReadOnly))
            return R::failure(QStringLiteral("%1: cannot read the index (%2).")
                                  .arg(indexPath, file.errorString()));
        originalIndex = file.readAll();
        if (file.error() != QFileDevice::NoError)
            return R::failure(QStringLiteral("%1: cannot read the index (%2).")
                                  .arg(indexPath, file.errorString()));
    }
    if (git_index_read(index.get(), 1) != 0)
        return R::failure(
            o.damaged(QStringLiteral("the index %1").arg(indexPath), git::lastErrorText()));
    // Anything that fails before the index is written drops the changes made
    // to it in memory.
    const auto discard = [&index]() {
        git_index_read(index.get(), 1);
        git_error_clear();
    };

    git::Commit headCommit;
    git::Tree baseline;
    git::TreeSlotEntries head;
    if (git_repository_head_unborn(o.get()) != 1) {
        Result<git::Commit> resolved = o.resolve(QStringLiteral("HEAD"));
        if (!resolved)
            return R::failure(resolved.error());
        headCommit = std::move(resolved).value();
        git_tree *tree = nullptr;
        if (git_commit_tree(&tree, headCommit.get()) != 0)
            return R::failure(o.damaged(QStringLiteral("HEAD's tree"), git::lastErrorText()));
        baseline.reset(tree);
        Result<git::TreeSlotEntries> entries = git::slotEntries(o.get(),
                                                                *git_tree_id(tree),
                                                                o.folder);
        if (!entries)
            return R::failure(o.damaged(QStringLiteral("HEAD's files"), entries.error()));
        head = *entries;
    } else {
        // The first commit starts from the empty tree.
        git_treebuilder *builder = nullptr;
        git_oid emptyId;
        if (git_treebuilder_new(&builder, o.get(), nullptr) != 0
            || git_treebuilder_write(&emptyId, builder) != 0) {
            const int error = lastSystemError(errno);
            git_treebuilder_free(builder);
            return R::failure(QStringLiteral("cannot write to the repository at %1 (%2). %3")
                                  .arg(o.repositoryText, git::lastErrorText(), writeAdvice(error)));
        }
        git_treebuilder_free(builder);
        git_tree *tree = nullptr;
        if (git_tree_lookup(&tree, o.get(), &emptyId) != 0)
            return R::failure(o.damaged(QStringLiteral("the empty tree"), git::lastErrorText()));
        baseline.reset(tree);
    }

    // Stage the seven paths (and only them) as `git add` would, and take the
    // commit's tree entries from what was staged, so the two agree.
    QList<QByteArray> paths;
    for (int slot = 0; slot < SlotCount; ++slot)
        paths.append(o.slotPath(slot));
    std::vector<git_tree_update> updates;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const git::TreeSlotEntry &was = head[size_t(slot)];
        if (leftAlone(was))
            continue;
        const QByteArray &path = paths.at(slot);
        struct stat st = {};
        const QString diskPath = o.workdir + QString::fromUtf8(path);
        const bool onDisk = ::lstat(QFile::encodeName(diskPath).constData(), &st) == 0
                            && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
        if (onDisk) {
            if (git_index_add_bypath(index.get(), path.constData()) != 0) {
                const int error = lastSystemError(errno);
                const QString why = git::lastErrorText();
                discard();
                return R::failure(QStringLiteral("%1: cannot add it to the repository at %2 (%3). "
                                                 "%4")
                                      .arg(diskPath, o.repositoryText, why, writeAdvice(error)));
            }
            const git_index_entry *staged = git_index_get_bypath(index.get(), path.constData(), 0);
            if (!staged) {
                discard();
                return R::failure(o.damaged(QStringLiteral("the index"), git::lastErrorText()));
            }
            if (!was.hasEntry || was.entryMode != git_filemode_t(staged->mode)
                || git_oid_cmp(&was.entryId, &staged->id) != 0) {
                git_tree_update update{};
                update.action = GIT_TREE_UPDATE_UPSERT;
                update.id = staged->id;
                update.filemode = git_filemode_t(staged->mode);
                update.path = path.constData();
                updates.push_back(update);
            }
        } else {
            if (git_index_remove_bypath(index.get(), path.constData()) != 0) {
                const QString why = git::lastErrorText();
                discard();
                return R::failure(QStringLiteral("%1: cannot remove it from the index of the "
                                                 "repository at %2 (%3). Nothing was committed.")
                                      .arg(diskPath, o.repositoryText, why));
            }
            if (was.hasEntry) {
                git_tree_update update{};
                update.action = GIT_TREE_UPDATE_REMOVE;
                update.path = path.constData();
                updates.push_back(update);
            }
        }
    }
    if (updates.empty()) {
        // The files went back to HEAD's between the plan and now.
        discard();
        result.nothingToCommit = true;
        return result;
    }

    git_oid treeId;
    if (git_tree_create_updated(&treeId, o.get(), baseline.get(), updates.size(), updates.data())
        != 0) {
        const int error = lastSystemError(errno);
        const QString why = git::lastErrorText();
        discard();
        return R::failure(QStringLiteral("cannot write to the repository at %1 (%2). %3")
                              .arg(o.repositoryText, why, writeAdvice(error)));
    }
    git_tree *rawTree = nullptr;
    if (git_tree_lookup(&rawTree, o.get(), &treeId) != 0) {
        const QString why = git::lastErrorText();
        discard();
        return R::failure(o.damaged(QStringLiteral("the new tree"), why));
    }
    const git::Tree tree(rawTree);

    Result<git::Signature> author = signature(o.get(), "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL");
    Result<git::Signature> committer = signature(o.get(),
                                                 "GIT_COMMITTER_NAME",
                                                 "GIT_COMMITTER_EMAIL");
    if (!author || !committer) {
        discard();
        return R::failure(!author ? author.error() : committer.error());
    }
    QString text = message.trimmed().isEmpty() ? plan->message : message;
    git::Buffer pretty;
    if (git_message_prettify(&pretty.buf, text.toUtf8().constData(), 0, '#') != 0) {
        discard();
        return R::failure(
            QStringLiteral("the message cannot be used (%1).").arg(git::lastErrorText()));
    }

    // The index first: when it cannot be written (locked meanwhile, a full
    // disk), HEAD has not moved and nothing refers to the new objects.
    IndexBackup backup(indexPath, originalIndex);
    backup.take();
    if (git_index_write(index.get()) != 0) {
        const int error = lastSystemError(errno);
        const QString why = git::lastErrorText();
        discard();
        if (QFileInfo::exists(lockPath))
            return R::failure(lockedText(o.repositoryText, lockPath));
        return R::failure(QStringLiteral("%1: cannot write the index (%2). %3")
                              .arg(indexPath, why, writeAdvice(error)));
    }

    const git_commit *parents[1] = {headCommit.get()};
    git_oid commitId{};
    ReflogGuard reflogs(o.get());
    // "HEAD" moves the branch HEAD names (creating it in an empty
    // repository), or a detached HEAD itself, only if it still points where
    // it did: a commit made meanwhile is not lost.
    int created = git_commit_create(&commitId,
                                    o.get(),
                                    "HEAD",
                                    author->get(),
                                    committer->get(),
                                    nullptr,
                                    pretty.buf.ptr,
                                    tree.get(),
                                    headCommit ? 1 : 0,
                                    parents);
    // libgit2 1.5 reports success when the commit object could not be
    // written (a full disk), having left HEAD alone: a commit the object
    // store does not hold was not made.
    const int error = lastSystemError(errno);
    const QString why = git::lastErrorText();
    if (created == 0 && !objectExists(o.get(), commitId))
        created = -1;
    if (created != 0) {
        if (!git_oid_is_zero(&commitId)) {
            git_oid from{};
            if (headCommit)
                git_oid_cpy(&from, git_commit_id(headCommit.get()));
            reflogs.restore(from, commitId);
        }
        const Status restored = backup.restore();
        discard();
        if (!restored) {
            return R::failure(QStringLiteral("cannot commit in the repository at %1 (%2), and the "
                                             "index could not be put back: %3")
                                  .arg(o.repositoryText, why, restored.error()));
        }
        if (error != 0) {
            return R::failure(QStringLiteral("cannot commit in the repository at %1 (%2). %3 HEAD "
                                             "and the index are as they were.")
                                  .arg(o.repositoryText, why, writeAdvice(error)));
        }
        return R::failure(QStringLiteral("cannot commit in the repository at %1 (%2). HEAD and "
                                         "the index are as they were; nothing was committed.")
                              .arg(o.repositoryText, why));
    }
    backup.drop();
    result.id = git::hex(commitId);
    git_commit *made = nullptr;
    if (git_commit_lookup(&made, o.get(), &commitId) == 0) {
        const git::Commit owned(made);
        git::Buffer shortId;
        if (git_object_short_id(&shortId.buf, reinterpret_cast<const git_object *>(made)) == 0)
            result.shortId = QString::fromLatin1(shortId.bytes());
    }
    if (result.shortId.isEmpty())
        result.shortId = QString::fromLatin1(result.id.left(7));
    result.message = QString::fromUtf8(pretty.buf.ptr).trimmed();
    result.slots = plan->slots;
    return result;
}

} // namespace soul
