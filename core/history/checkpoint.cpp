// PersonaHistory::planCheckpoint() and checkpoint(): committing the slot
// files as they are on disk, and nothing else.

#include "counttext.h"
#include "disk/atomicwrite.h"
#include "disk/fileio.h"
#include "disk/slotreader.h"
#include "history/guardedodb.h"
#include "history/repositoryfiles.h"
#include "historycounts.h"
#include "historyowner.h"
#include "persona/lint.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QSysInfo>

#include <git2/sys/odb_backend.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/file.h>
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

// A submodule's entry (a gitlink) where a slot file is: what `git status`
// calls a type change when the path is a file on disk.
bool isGitlink(const git::TreeSlotEntry &head)
{
    return head.hasEntry && head.entryMode == GIT_FILEMODE_COMMIT;
}

QString gitlinkText(const QString &path, const QByteArray &relative)
{
    return QStringLiteral("%1 is a submodule (a gitlink) in HEAD but a file on disk, and a "
                          "checkpoint does not turn a submodule into a file, so nothing was "
                          "committed. Remove the submodule's entry with 'git rm --cached %2' and "
                          "commit, or move the file away, then checkpoint again.")
        .arg(path, QString::fromUtf8(relative));
}

// Why the index `indexPath` cannot be read, from libgit2's words `why`.
QString indexText(const QString &repositoryText, const QString &indexPath, const QString &why)
{
    // git writes the "sdir" extension into a sparse index (index.sparse),
    // which libgit2 1.5 cannot read; the index is sound.
    if (why.contains(QLatin1String("'sdir'"))) {
        return QStringLiteral("the index of the repository at %1 (%2) is a sparse index "
                              "(index.sparse), which Soul Studio cannot read, so nothing was "
                              "committed. Expand it with 'git sparse-checkout disable', or keep "
                              "the sparse checkout with 'git config index.sparse false && git "
                              "sparse-checkout reapply', then checkpoint again.")
            .arg(repositoryText, indexPath);
    }
    return QStringLiteral("the index of the repository at %1 (%2) is damaged (%3), so "
                          "nothing was committed. Rebuild it from HEAD with 'rm %2 && git "
                          "reset' (your files stay as they are; what was staged is no "
                          "longer), then checkpoint again.")
        .arg(repositoryText, indexPath, why);
}

// Whether the index has `path` with skip-worktree set (a sparse checkout
// leaves the file out of the working tree): a checkpoint leaves it as the
// index has it.
bool skipsWorktree(git_index *index, const QByteArray &path)
{
    const git_index_entry *entry = index ? git_index_get_bypath(index, path.constData(), 0)
                                         : nullptr;
    return entry && (entry->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0;
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

// A slot file too large to commit: hashing, compressing and writing a
// file of gigabytes (a sparse one costs nothing on disk) would run for
// minutes, and a persona's history has no use for it.
QString tooLargeText(const QString &path, qint64 size)
{
    return QStringLiteral("%1 is %2 MiB, more than the %3 MiB a checkpoint commits, so nothing was "
                          "committed. Make it smaller, or commit it with git itself (git add, git "
                          "commit) if it belongs in the history.")
        .arg(path,
             QString::number(double(size) / double(1 << 20), 'f', 1),
             QString::number(CheckpointFileLimit >> 20));
}

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
    if (qint64(st.st_size) > CheckpointFileLimit)
        return R::failure(tooLargeText(path, qint64(st.st_size)));
    // With the repository's filters (core.autocrlf, .gitattributes), as
    // `git add` would store it.
    if (git_repository_hashfile(&entry.id,
                                o.get(),
                                local.constData(),
                                GIT_OBJECT_BLOB,
                                relative.constData())
        != 0) {
        // The filters are looked up in the index too: a damaged index is the
        // repository's fault, not the file's.
        const git_error *error = git_error_last();
        if (error && error->klass == GIT_ERROR_INDEX) {
            return R::failure(
                indexText(o.repositoryText,
                          QFile::decodeName(git_repository_path(o.get())) + QStringLiteral("index"),
                          git::lastErrorText()));
        }
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

    // The logs a move appends to: HEAD's, then its branch's.
    QStringList paths() const
    {
        QStringList out;
        for (const Log &log : m_logs)
            out.append(log.path);
        return out;
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

// ---- objects ----------------------------------------------------------------

// An object libgit2 made for the checkpoint (a blob, a tree, the commit),
// held in memory until the locks are taken, then written by
// writeLooseObject().
struct CapturedObject
{
    git_oid id{};
    git_object_t type = GIT_OBJECT_BLOB;
    QByteArray data;
};

// An object database backend that keeps what libgit2 writes in memory and
// serves it back. Added first to the checkpoint's own repository, it takes
// every write, so libgit2 never writes an object file itself: the objects
// reach the disk through fileio (where tests fail or kill each call), under
// names the next run recognises, and only once the locks are held.
struct CaptureBackend
{
    git_odb_backend parent{}; // first: libgit2 sees a git_odb_backend
    std::vector<CapturedObject> *objects = nullptr;

    static const CapturedObject *find(git_odb_backend *backend, const git_oid *id)
    {
        const auto *self = reinterpret_cast<CaptureBackend *>(backend);
        for (const CapturedObject &object : *self->objects) {
            if (git_oid_equal(&object.id, id))
                return &object;
        }
        return nullptr;
    }

    static int read(
        void **out, size_t *size, git_object_t *type, git_odb_backend *b, const git_oid *id)
    {
        const CapturedObject *object = find(b, id);
        if (!object)
            return GIT_ENOTFOUND;
        const size_t length = size_t(object->data.size());
        void *copy = git_odb_backend_data_alloc(b, length + 1);
        if (!copy)
            return -1;
        std::memcpy(copy, object->data.constData(), length);
        *out = copy;
        *size = length;
        *type = object->type;
        return 0;
    }

    static int readHeader(size_t *size, git_object_t *type, git_odb_backend *b, const git_oid *id)
    {
        const CapturedObject *object = find(b, id);
        if (!object)
            return GIT_ENOTFOUND;
        *size = size_t(object->data.size());
        *type = object->type;
        return 0;
    }

    static int write(
        git_odb_backend *b, const git_oid *id, const void *data, size_t size, git_object_t type)
    {
        if (find(b, id))
            return 0;
        auto *self = reinterpret_cast<CaptureBackend *>(b);
        CapturedObject object;
        git_oid_cpy(&object.id, id);
        object.type = type;
        object.data = QByteArray(static_cast<const char *>(data), qsizetype(size));
        self->objects->push_back(std::move(object));
        return 0;
    }

    static int exists(git_odb_backend *b, const git_oid *id) { return find(b, id) ? 1 : 0; }

    static int freshen(git_odb_backend *b, const git_oid *id) { return find(b, id) ? 0 : -1; }

    static void free(git_odb_backend *b) { delete reinterpret_cast<CaptureBackend *>(b); }

    // Adds a backend that fills `objects` to `odb` (which owns it), before
    // the loose and packed ones.
    static int attach(git_odb *odb, std::vector<CapturedObject> *objects)
    {
        auto *backend = new CaptureBackend;
        if (git_odb_init_backend(&backend->parent, GIT_ODB_BACKEND_VERSION) != 0) {
            delete backend;
            return -1;
        }
        backend->objects = objects;
        backend->parent.read = &CaptureBackend::read;
        backend->parent.read_header = &CaptureBackend::readHeader;
        backend->parent.write = &CaptureBackend::write;
        backend->parent.exists = &CaptureBackend::exists;
        backend->parent.freshen = &CaptureBackend::freshen;
        backend->parent.free = &CaptureBackend::free;
        constexpr int FirstOfAll = 1000;
        if (git_odb_add_backend(odb, &backend->parent, FirstOfAll) != 0) {
            delete backend;
            return -1;
        }
        return 0;
    }
};

// ---- writing through fileio -------------------------------------------------

QByteArray local(const QString &path)
{
    return QFile::encodeName(path);
}

// Writes all of `bytes` to `fd`; 0 or the errno of the write that failed.
int writeAll(int fd, QByteArrayView bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = fileio::write(fd, bytes.data() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        done += qsizetype(n);
    }
    return 0;
}

// Creates `path` (which must not exist) with `bytes`, flushed to the disk;
// 0, or the errno of the call that failed, with the partial file removed.
int writeNewFile(const QString &path, QByteArrayView bytes, mode_t mode)
{
    const QByteArray name = local(path);
    const int fd = fileio::open(name.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0)
        return errno;
    int error = writeAll(fd, bytes);
    if (error == 0 && fileio::fsync(fd) != 0)
        error = errno;
    if (fileio::close(fd) != 0 && error == 0)
        error = errno;
    if (error != 0)
        ::unlink(name.constData());
    return error;
}

const char *typeName(git_object_t type)
{
    return git_object_type2string(type);
}

// A loose object as git stores it: "TYPE SIZE\0BYTES", deflated, under
// objects/XX/YYYY...; first as objects/soulstudio-checkpoint-PID.tmp, moved
// into place by a rename that never replaces (a file already there is the
// same object). 0 or an errno.
int writeLooseObject(const QString &objectsDir, const QString &tmpPath, const CapturedObject &object)
{
    const QByteArray hex = git::hex(object.id);
    const QString folder = QDir(objectsDir).filePath(QString::fromLatin1(hex.left(2)));
    const QString target = QDir(folder).filePath(QString::fromLatin1(hex.mid(2)));
    struct stat st = {};
    if (::lstat(local(target).constData(), &st) == 0)
        return 0;
    QByteArray raw = QByteArray(typeName(object.type)) + ' '
                     + QByteArray::number(object.data.size()) + '\0';
    raw += object.data;
    // qCompress() puts the length in four bytes before a zlib stream; git's
    // loose objects are that stream (core.looseCompression's default, 1).
    const QByteArray deflated = qCompress(raw, 1).mid(4);
    raw.clear();
    if (::mkdir(local(folder).constData(), 0777) != 0 && errno != EEXIST)
        return errno;
    ::unlink(local(tmpPath).constData()); // a failed write of ours before
    if (const int error = writeNewFile(tmpPath, deflated, 0444); error != 0)
        return error;
    if (fileio::renameNoReplace(local(tmpPath).constData(), local(target).constData()) != 0) {
        const int error = errno;
        ::unlink(local(tmpPath).constData());
        return error == EEXIST ? 0 : error;
    }
    return 0;
}

// ---- the index --------------------------------------------------------------

void appendBig32(QByteArray &out, quint32 value)
{
    const char bytes[4] = {char(value >> 24), char(value >> 16), char(value >> 8), char(value)};
    out.append(bytes, 4);
}

void appendBig16(QByteArray &out, quint16 value)
{
    const char bytes[2] = {char(value >> 8), char(value)};
    out.append(bytes, 2);
}

// The index file git reads (format version 2, or 3 when an entry has
// extended flags), from libgit2's entries in memory. Written here rather
// than by git_index_write(), which takes index.lock itself and writes
// outside fileio: the checkpoint holds index.lock for its whole run.
// Optional extensions (the tree cache, resolve-undo) are left out; git
// rebuilds the tree cache when it needs it.
//
// An entry whose file changed in the same second as the index it was read
// from was written (`git add`, then an edit) is "racily clean": only its
// content can tell. The new index is dated later, so such an entry is
// written with size 0, as git smudges it, and git reads the file again.
QByteArray serializeIndex(git_index *index, qint64 oldIndexSeconds)
{
    std::vector<const git_index_entry *> entries;
    const size_t count = git_index_entrycount(index);
    entries.reserve(count);
    bool extended = false;
    for (size_t i = 0; i < count; ++i) {
        const git_index_entry *entry = git_index_get_byindex(index, i);
        if (!entry)
            continue;
        entries.push_back(entry);
        extended = extended || (entry->flags_extended & GIT_INDEX_ENTRY_EXTENDED_FLAGS) != 0;
    }
    // git's order: by the path's bytes, then by stage (libgit2 sorts
    // case-insensitively when core.ignorecase is set).
    std::sort(entries.begin(),
              entries.end(),
              [](const git_index_entry *a, const git_index_entry *b) {
                  const int order = std::strcmp(a->path, b->path);
                  if (order != 0)
                      return order < 0;
                  return GIT_INDEX_ENTRY_STAGE(a) < GIT_INDEX_ENTRY_STAGE(b);
              });
    QByteArray out("DIRC");
    appendBig32(out, extended ? 3 : 2);
    appendBig32(out, quint32(entries.size()));
    for (const git_index_entry *e : entries) {
        const qsizetype start = out.size();
        appendBig32(out, quint32(e->ctime.seconds));
        appendBig32(out, e->ctime.nanoseconds);
        appendBig32(out, quint32(e->mtime.seconds));
        appendBig32(out, e->mtime.nanoseconds);
        appendBig32(out, e->dev);
        appendBig32(out, e->ino);
        appendBig32(out, e->mode);
        appendBig32(out, e->uid);
        appendBig32(out, e->gid);
        const bool racy = oldIndexSeconds > 0 && qint64(e->mtime.seconds) >= oldIndexSeconds;
        appendBig32(out, racy ? 0 : e->file_size);
        out.append(git::raw(e->id));
        const size_t length = std::strlen(e->path);
        const quint16 more = e->flags_extended & GIT_INDEX_ENTRY_EXTENDED_FLAGS;
        quint16 flags = quint16(std::min<size_t>(length, GIT_INDEX_ENTRY_NAMEMASK));
        flags |= e->flags & (GIT_INDEX_ENTRY_STAGEMASK | GIT_INDEX_ENTRY_VALID);
        if (more != 0)
            flags |= GIT_INDEX_ENTRY_EXTENDED;
        appendBig16(out, flags);
        if (more != 0)
            appendBig16(out, more);
        out.append(e->path, qsizetype(length));
        // One to eight NULs, to a multiple of eight from the entry's start.
        const qsizetype size = out.size() - start;
        out.append(QByteArray(((size + 8) & ~qsizetype(7)) - size, '\0'));
    }
    out.append(QCryptographicHash::hash(out, QCryptographicHash::Sha1));
    return out;
}

// ---- locks and what a killed run leaves -------------------------------------

// Every file a checkpoint makes outside the object folders starts with this,
// followed by its process id: the record "soulstudio-checkpoint-PID" (the
// host, the ref, its old and new commit), and "soulstudio-checkpoint-PID.index",
// ".head" and ".ref", the second names of the locks it holds (below). In
// the objects folder, "soulstudio-checkpoint-PID.tmp" is an object being
// written.
constexpr char OwnPrefix[] = "soulstudio-checkpoint-";

QString hostName()
{
    return QSysInfo::machineHostName();
}

bool processAlive(qint64 pid)
{
    if (pid <= 0 || pid == qint64(::getpid()))
        return false; // an earlier run with our id ended before we started
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

bool sameFile(const QString &a, const QString &b)
{
    struct stat sa = {};
    struct stat sb = {};
    return ::lstat(local(a).constData(), &sa) == 0 && ::lstat(local(b).constData(), &sb) == 0
           && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool pathExists(const QString &path)
{
    struct stat st = {};
    return ::lstat(local(path).constData(), &st) == 0;
}

QString lockedText(const QString &repository, const QString &lockPath)
{
    return QStringLiteral("the repository at %1 is locked: %2 exists, so another git program may "
                          "be using it. Wait for it to finish (or remove the file if no git "
                          "program is running), then checkpoint again; nothing was written.")
        .arg(repository, lockPath);
}

// Takes the last line off `path` when it is the reflog line a move from
// `from` to `to` wrote (hex ids).
void dropReflogLine(const QString &path, const QByteArray &from, const QByteArray &to)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QByteArray bytes = file.readAll();
    file.close();
    if (!bytes.endsWith('\n'))
        return;
    const qsizetype start = bytes.lastIndexOf('\n', bytes.size() - 2) + 1;
    if (bytes.mid(start).startsWith(from + ' ' + to + ' '))
        ::truncate(local(path).constData(), off_t(start));
}

// The checkpoint's git folders and the ref HEAD names.
struct GitPlaces
{
    QString gitDir;    // HEAD, the index, the record and second names
    QString commonDir; // refs, packed-refs, logs of branches, objects
    QString indexPath;
    QString branch; // "refs/heads/main"; empty for a detached HEAD

    QString objectsDir() const { return QDir(commonDir).filePath(QStringLiteral("objects")); }
    QString headPath() const { return QDir(gitDir).filePath(QStringLiteral("HEAD")); }
    QString refPath() const
    {
        return branch.isEmpty() ? headPath() : QDir(commonDir).filePath(branch);
    }
    // The locks git takes to commit, and the one it takes to rewrite refs.
    QStringList locks() const
    {
        QStringList out = {indexPath + QStringLiteral(".lock"),
                           headPath() + QStringLiteral(".lock")};
        if (!branch.isEmpty())
            out.append(refPath() + QStringLiteral(".lock"));
        out.append(QDir(commonDir).filePath(QStringLiteral("packed-refs.lock")));
        return out;
    }
    QString record(qint64 pid) const
    {
        return QDir(gitDir).filePath(QLatin1String(OwnPrefix) + QString::number(pid));
    }
    QString second(qint64 pid, const char *role) const
    {
        return record(pid) + QLatin1Char('.') + QLatin1String(role);
    }
    QString tmpObject(qint64 pid) const
    {
        return QDir(objectsDir())
            .filePath(QLatin1String(OwnPrefix) + QString::number(pid) + QStringLiteral(".tmp"));
    }
};

Result<GitPlaces> gitPlaces(git_repository *repo, const QString &repositoryText)
{
    GitPlaces places;
    places.gitDir = QDir::cleanPath(QFile::decodeName(git_repository_path(repo)));
    places.commonDir = QDir::cleanPath(QFile::decodeName(git_repository_commondir(repo)));
    places.indexPath = QDir(places.gitDir).filePath(QStringLiteral("index"));
    git_reference *head = nullptr;
    if (git_reference_lookup(&head, repo, "HEAD") != 0) {
        return Result<GitPlaces>::failure(
            QStringLiteral("the repository at %1 has no HEAD that can be read (%2). Check it with "
                           "'git status'; nothing was written.")
                .arg(repositoryText, git::lastErrorText()));
    }
    const git::Reference owned(head);
    if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC) {
        places.branch = QString::fromUtf8(git_reference_symbolic_target(head));
        if (!places.branch.startsWith(QLatin1String("refs/heads/"))) {
            return Result<GitPlaces>::failure(
                QStringLiteral("HEAD of the repository at %1 names %2, which is not a branch. "
                               "Check out a branch with git first; nothing was written.")
                    .arg(repositoryText, places.branch));
        }
    }
    return places;
}

// What this process wrote, to take back when the checkpoint stops before
// HEAD moved: the locks it holds (each linked from a second name it wrote
// first, so a lock is only ever removed through a name that proves it is
// ours), the object being written and the record.
class RunFiles
{
public:
    explicit RunFiles(const GitPlaces &places)
        : m_places(places)
        , m_pid(qint64(::getpid()))
    {}
    ~RunFiles()
    {
        release();
        if (m_recordLock >= 0)
            ::close(m_recordLock);
    }
    RunFiles(const RunFiles &) = delete;
    RunFiles &operator=(const RunFiles &) = delete;

    qint64 pid() const { return m_pid; }

    // The record comes first, so that every later file of this run is
    // explained by it; 0 or an errno.
    int writeRecord(const QByteArray &old, const QByteArray &made)
    {
        const QString path = m_places.record(m_pid);
        ::unlink(local(path).constData()); // an earlier run with our id
        const QByteArray text = "host " + hostName().toUtf8() + "\nref "
                                + (m_places.branch.isEmpty() ? QByteArray("HEAD")
                                                             : m_places.branch.toUtf8())
                                + "\nold " + old + "\nnew " + made + "\n";
        const int error = writeNewFile(path, text, 0644);
        if (error == 0) {
            m_record = true;
            // Held for the whole run, and let go by the kernel however it
            // ends: a run in another PID namespace (a container sharing the
            // repository and the host name) is alive while its record is
            // locked, whatever its process id says here.
            m_recordLock = ::open(local(path).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
            if (m_recordLock >= 0)
                ::flock(m_recordLock, LOCK_EX | LOCK_NB);
        }
        return error;
    }

    // Takes the lock `lock` as git does (NAME.lock, which must not exist),
    // holding `bytes`: written in full under our second name `role` first,
    // then linked to the lock's name, which fails if another program holds
    // it. 0, EEXIST when the lock is held, or another errno.
    int take(const char *role, const QString &lock, QByteArrayView bytes)
    {
        const QString second = m_places.second(m_pid, role);
        ::unlink(local(second).constData());
        if (const int error = writeNewFile(second, bytes, 0644); error != 0)
            return error;
        m_held.append({lock, second});
        if (fileio::link(local(second).constData(), local(lock).constData()) != 0) {
            const int error = errno;
            // A file system without hard links (FAT, exFAT, some network and
            // FUSE ones): the lock is made as git makes it, O_EXCL. A run
            // killed then leaves a lock the next cannot prove its own; it is
            // named, never removed.
            if (error == EPERM || error == EOPNOTSUPP || error == ENOSYS) {
                if (const int made = writeNewFile(lock, bytes, 0644); made != 0) {
                    m_held.last().lock.clear(); // not ours
                    return made;
                }
                return 0;
            }
            m_held.last().lock.clear(); // not ours
            return error;
        }
        return 0;
    }

    // The lock at `lock` became the file `target` (rename), or went.
    int commit(const QString &lock, const QString &target)
    {
        if (fileio::rename(local(lock).constData(), local(target).constData()) != 0)
            return errno;
        forget(lock);
        return 0;
    }
    int drop(const QString &lock)
    {
        if (fileio::unlink(local(lock).constData()) != 0 && errno != ENOENT)
            return errno;
        forget(lock);
        return 0;
    }

    // After success: the second names and the record go; a kill meanwhile
    // leaves only them, which the next run removes. Returns a sentence for
    // each that could not be removed: the commit stands, and the next run
    // removes them and says so.
    QStringList finish()
    {
        QStringList left;
        const auto remove = [&left](const QString &path) {
            if (fileio::unlink(local(path).constData()) != 0 && errno != ENOENT) {
                left.append(QStringLiteral("%1 could not be removed (%2); the next checkpoint "
                                           "removes it.")
                                .arg(path, systemErrorText(errno)));
            }
        };
        for (const Held &held : std::as_const(m_held))
            remove(held.second);
        m_held.clear();
        if (m_record)
            remove(m_places.record(m_pid));
        m_record = false;
        return left;
    }

    // Keeps everything as it is for the next run to finish (the index lock
    // after HEAD moved).
    void keep()
    {
        m_held.clear();
        m_record = false;
    }

private:
    struct Held
    {
        QString lock; // empty once it is no lock of ours
        QString second;
    };

    void forget(const QString &lock)
    {
        for (Held &held : m_held) {
            if (held.lock == lock)
                held.lock.clear();
        }
    }

    void release()
    {
        for (const Held &held : std::as_const(m_held)) {
            if (!held.lock.isEmpty() && sameFile(held.lock, held.second))
                ::unlink(local(held.lock).constData());
            ::unlink(local(held.second).constData());
        }
        m_held.clear();
        ::unlink(local(m_places.tmpObject(m_pid)).constData());
        if (m_record)
            ::unlink(local(m_places.record(m_pid)).constData());
        m_record = false;
    }

    const GitPlaces &m_places;
    qint64 m_pid = 0;
    QList<Held> m_held;
    bool m_record = false;
    int m_recordLock = -1;
};

// Whether the run that wrote `record` still holds its lock on it (see
// RunFiles::writeRecord).
bool recordHeld(const QString &record)
{
    const int fd = ::open(local(record).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return false;
    const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return held;
}

// The commit `ref` ("HEAD" or a branch) points to now, hex, or zeros when
// it has none.
QByteArray currentId(git_repository *repo, const QByteArray &ref)
{
    git_oid id{};
    if (git_reference_name_to_id(&id, repo, ref.constData()) != 0) {
        git_error_clear();
        return QByteArray(GIT_OID_HEXSZ, '0');
    }
    return git::hex(id);
}

// Removes what checkpoints killed on this host left in the repository (its
// process gone): a lock is removed only when our second name still links to
// it, so a lock another program took later is kept. When HEAD had already
// moved to the killed run's commit, its index (still under index.lock) is
// put in place instead: that finishes the checkpoint. Returns one sentence
// per run cleaned.
QStringList cleanLeftovers(git_repository *repo, const GitPlaces &places)
{
    static const QRegularExpression recordName(
        QStringLiteral("^%1(\\d+)$").arg(QLatin1String(OwnPrefix)));
    static const QRegularExpression secondName(
        QStringLiteral("^%1(\\d+)\\.(index|head|ref)$").arg(QLatin1String(OwnPrefix)));
    static const QRegularExpression tmpName(
        QStringLiteral("^%1(\\d+)\\.tmp$").arg(QLatin1String(OwnPrefix)));
    // What the checkpoints before this one left beside the index.
    static const QRegularExpression oldBackup(QStringLiteral("^index\\.before-checkpoint-(\\d+)$"));
    QStringList notes;
    const QDir gitDir(places.gitDir);
    QSet<qint64> pids;
    const QStringList names = gitDir.entryList(QDir::Files | QDir::Hidden | QDir::System);
    for (const QString &name : names) {
        for (const QRegularExpression *re : {&recordName, &secondName, &oldBackup}) {
            const QRegularExpressionMatch m = re->match(name);
            if (m.hasMatch())
                pids.insert(m.captured(1).toLongLong());
        }
    }
    const QStringList objectNames = QDir(places.objectsDir()).entryList(QDir::Files | QDir::Hidden);
    for (const QString &name : objectNames) {
        const QRegularExpressionMatch m = tmpName.match(name);
        if (m.hasMatch())
            pids.insert(m.captured(1).toLongLong());
    }
    QList<qint64> sorted(pids.begin(), pids.end());
    std::sort(sorted.begin(), sorted.end());
    for (const qint64 pid : std::as_const(sorted)) {
        if (processAlive(pid) || recordHeld(places.record(pid)))
            continue; // its run is still going, or the id is another program's now
        QStringList done;
        const auto removeFile = [&done](const QString &path) {
            if (::unlink(local(path).constData()) == 0)
                done.append(path);
        };
        const QString record = places.record(pid);
        QFile recordFile(record);
        QHash<QByteArray, QByteArray> fields;
        if (recordFile.open(QIODevice::ReadOnly)) {
            const QList<QByteArray> lines = recordFile.readAll().split('\n');
            for (const QByteArray &line : lines) {
                const qsizetype space = line.indexOf(' ');
                if (space > 0)
                    fields.insert(line.left(space), line.mid(space + 1));
            }
            recordFile.close();
            // Another machine's process is not ours to judge. A record cut
            // short was being written when its run ended (locks come after
            // it), so whoever wrote it holds nothing yet.
            if (fields.contains("new") && fields.value("host") != hostName().toUtf8())
                continue;
        }
        // A record names HEAD or a branch, and two commit ids; one that does
        // not (written by hand, or in a copy from elsewhere) leads nowhere
        // outside the git folder: it is left alone, and so is its run.
        static const QRegularExpression commitId(QStringLiteral("^[0-9a-f]{40}$"));
        const QByteArray claimedRef = fields.value("ref");
        int validName = 0;
        const bool validRef = claimedRef == "HEAD"
                              || (claimedRef.startsWith("refs/heads/")
                                  && git_reference_name_is_valid(&validName, claimedRef.constData())
                                         == 0
                                  && validName == 1);
        if (fields.contains("ref")
            && (!validRef || claimedRef.contains("..")
                || !commitId.match(QString::fromLatin1(fields.value("old"))).hasMatch()
                || !commitId.match(QString::fromLatin1(fields.value("new"))).hasMatch()))
            continue;
        const bool recorded = fields.contains("ref") && fields.contains("old")
                              && fields.contains("new");
        const QByteArray ref = fields.value("ref");
        const QByteArray old = fields.value("old");
        const QByteArray made = fields.value("new");
        const QByteArray now = recorded ? currentId(repo, ref) : QByteArray();
        const QString refPath = ref == "HEAD"
                                    ? places.headPath()
                                    : QDir(places.commonDir).filePath(QString::fromUtf8(ref));
        const struct
        {
            const char *role;
            QString lock;
            QString target;
        } roles[] = {{"index", places.indexPath + QStringLiteral(".lock"), places.indexPath},
                     {"ref", refPath + QStringLiteral(".lock"), refPath},
                     {"head", places.headPath() + QStringLiteral(".lock"), places.headPath()}};
        QString finished;
        for (const auto &role : roles) {
            const QString second = places.second(pid, role.role);
            if (!pathExists(second))
                continue;
            if (recorded && pathExists(role.lock) && sameFile(second, role.lock)) {
                if (qstrcmp(role.role, "index") == 0 && now == made) {
                    // HEAD is the killed run's commit: its index goes with it.
                    if (::rename(local(role.lock).constData(), local(role.target).constData()) == 0)
                        finished = QString::fromLatin1(made.left(7));
                } else {
                    removeFile(role.lock);
                }
            }
            removeFile(second);
        }
        if (recorded && now == old && old != made) {
            // HEAD did not move: the reflog lines written for the move go.
            dropReflogLine(QDir(places.gitDir).filePath(QStringLiteral("logs/HEAD")), old, made);
            if (ref != "HEAD")
                dropReflogLine(QDir(places.commonDir)
                                   .filePath(QStringLiteral("logs/") + QString::fromUtf8(ref)),
                               old,
                               made);
        }
        removeFile(places.tmpObject(pid));
        removeFile(QStringLiteral("%1.before-checkpoint-%2").arg(places.indexPath).arg(pid));
        removeFile(record);
        if (done.isEmpty() && finished.isEmpty())
            continue;
        QString note
            = QStringLiteral("A checkpoint (process %1) was stopped before it ended").arg(pid);
        if (!finished.isEmpty())
            note += QStringLiteral(" after it made commit %1; its index is now in place")
                        .arg(finished);
        if (!done.isEmpty())
            note += QStringLiteral("; removed what it left: %1").arg(done.join(QStringLiteral(", ")));
        notes.append(note + QLatin1Char('.'));
    }
    return notes;
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
    git_index *index = nullptr;
    if (git_repository_index(&index, o.get()) != 0) {
        const QString why = git::lastErrorText();
        if (QFile::exists(QFile::decodeName(git_repository_path(o.get())) + QStringLiteral("index")))
            return R::failure(
                indexText(o.repositoryText,
                          QFile::decodeName(git_repository_path(o.get())) + QStringLiteral("index"),
                          why));
        index = nullptr;
    }
    const git::Index ownedIndex(index);
    CheckpointPlan plan;
    const ComposeRule &rule = counts.rule();
    for (int slot = 0; slot < SlotCount; ++slot) {
        const git::TreeSlotEntry &was = head[size_t(slot)];
        if (isGitlink(was)) {
            const QString path = o.workdir + QString::fromUtf8(o.slotPath(slot));
            struct stat st = {};
            if (::lstat(QFile::encodeName(path).constData(), &st) == 0
                && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
                return R::failure(gitlinkText(path, o.slotPath(slot)));
        }
        if (leftAlone(was) || skipsWorktree(index, o.slotPath(slot)))
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
    const Result<GitPlaces> placesFound = gitPlaces(o.get(), o.repositoryText);
    if (!placesFound)
        return R::failure(placesFound.error());
    const GitPlaces &places = *placesFound;
    Checkpoint result;
    result.recovered = cleanLeftovers(o.get(), places);
    const auto fail = [&result](const QString &text) {
        return R::failure(result.recovered.isEmpty()
                              ? text
                              : result.recovered.join(QLatin1Char(' ')) + QLatin1Char(' ') + text);
    };
    // Every lock git honours, before anything is read or written. Taking
    // them below fails the same way, for a program that comes in between.
    for (const QString &lock : places.locks()) {
        if (pathExists(lock))
            return fail(lockedText(o.repositoryText, lock));
    }
    const Result<CheckpointPlan> plan = planCheckpoint(counts);
    if (!plan)
        return fail(plan.error());
    if (plan->isEmpty()) {
        result.nothingToCommit = true;
        return result;
    }

    // A repository of the checkpoint's own, whose object database keeps in
    // memory what libgit2 makes (CaptureBackend): nothing reaches the disk
    // before the locks are held.
    std::vector<CapturedObject> made;
    git_repository *rawWork = nullptr;
    if (git::openRepository(&rawWork, local(o.workdir), GIT_REPOSITORY_OPEN_NO_SEARCH) != 0)
        return fail(o.damaged(QStringLiteral("the repository"), git::lastErrorText()));
    const git::Repository work(rawWork);
    // Read as the history reads (damaged objects refused, not trusted).
    if (const QString why = git::installGuardedObjectDatabase(work.get()); !why.isEmpty())
        return fail(o.damaged(QStringLiteral("the object database"), why));
    git_odb *odb = nullptr;
    if (git_repository_odb(&odb, work.get()) != 0 || CaptureBackend::attach(odb, &made) != 0) {
        git_odb_free(odb);
        return fail(o.damaged(QStringLiteral("the object database"), git::lastErrorText()));
    }
    git_odb_free(odb);
    // The index as it is on disk now; taking index.lock checks it is still so.
    std::optional<QByteArray> originalIndex;
    if (pathExists(places.indexPath)) {
        QFile file(places.indexPath);
        if (!file.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("%1: cannot read the index (%2). Make it readable, then "
                                       "checkpoint again; nothing was written.")
                            .arg(places.indexPath, file.errorString()));
        originalIndex = file.readAll();
    }
    git_index *rawIndex = nullptr;
    if (git_repository_index(&rawIndex, work.get()) != 0)
        return fail(indexText(o.repositoryText, places.indexPath, git::lastErrorText()));
    const git::Index index(rawIndex);
    if (git_index_read(index.get(), 1) != 0)
        return fail(indexText(o.repositoryText, places.indexPath, git::lastErrorText()));

    git::Commit headCommit;
    git::Tree baseline;
    git::TreeSlotEntries head;
    if (git_repository_head_unborn(work.get()) != 1) {
        git_reference *headRef = nullptr;
        git_object *peeled = nullptr;
        if (git_repository_head(&headRef, work.get()) != 0
            || git_reference_peel(&peeled, headRef, GIT_OBJECT_COMMIT) != 0) {
            git_reference_free(headRef);
            return fail(o.damaged(QStringLiteral("HEAD"), git::lastErrorText()));
        }
        git_reference_free(headRef);
        headCommit.reset(reinterpret_cast<git_commit *>(peeled));
        git_tree *tree = nullptr;
        if (git_commit_tree(&tree, headCommit.get()) != 0)
            return fail(o.damaged(QStringLiteral("HEAD's tree"), git::lastErrorText()));
        baseline.reset(tree);
        Result<git::TreeSlotEntries> entries = git::slotEntries(work.get(),
                                                                *git_tree_id(tree),
                                                                o.folder);
        if (!entries)
            return fail(o.damaged(QStringLiteral("HEAD's files"), entries.error()));
        head = *entries;
    } else {
        // The first commit starts from the empty tree (kept in memory).
        git_treebuilder *builder = nullptr;
        git_oid emptyId;
        if (git_treebuilder_new(&builder, work.get(), nullptr) != 0
            || git_treebuilder_write(&emptyId, builder) != 0) {
            git_treebuilder_free(builder);
            return fail(o.damaged(QStringLiteral("the empty tree"), git::lastErrorText()));
        }
        git_treebuilder_free(builder);
        git_tree *tree = nullptr;
        if (git_tree_lookup(&tree, work.get(), &emptyId) != 0)
            return fail(o.damaged(QStringLiteral("the empty tree"), git::lastErrorText()));
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
        if (leftAlone(was) || skipsWorktree(index.get(), paths.at(slot)))
            continue;
        const QByteArray &path = paths.at(slot);
        struct stat st = {};
        const QString diskPath = o.workdir + QString::fromUtf8(path);
        const bool onDisk = ::lstat(local(diskPath).constData(), &st) == 0
                            && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
        if (onDisk) {
            if (S_ISREG(st.st_mode) && qint64(st.st_size) > CheckpointFileLimit)
                return fail(tooLargeText(diskPath, qint64(st.st_size)));
            if (git_index_add_bypath(index.get(), path.constData()) != 0) {
                return fail(QStringLiteral("%1: cannot add it to the repository at %2 (%3). "
                                           "Nothing was committed.")
                                .arg(diskPath, o.repositoryText, git::lastErrorText()));
            }
            const git_index_entry *staged = git_index_get_bypath(index.get(), path.constData(), 0);
            if (!staged)
                return fail(o.damaged(QStringLiteral("the index"), git::lastErrorText()));
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
                return fail(QStringLiteral("%1: cannot remove it from the index of the "
                                           "repository at %2 (%3). Nothing was committed.")
                                .arg(diskPath, o.repositoryText, git::lastErrorText()));
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
        result.nothingToCommit = true;
        return result;
    }

    git_oid treeId;
    if (git_tree_create_updated(&treeId, work.get(), baseline.get(), updates.size(), updates.data())
        != 0)
        return fail(o.damaged(QStringLiteral("the new tree"), git::lastErrorText()));
    git_tree *rawTree = nullptr;
    if (git_tree_lookup(&rawTree, work.get(), &treeId) != 0)
        return fail(o.damaged(QStringLiteral("the new tree"), git::lastErrorText()));
    const git::Tree tree(rawTree);

    Result<git::Signature> author = signature(work.get(), "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL");
    Result<git::Signature> committer = signature(work.get(),
                                                 "GIT_COMMITTER_NAME",
                                                 "GIT_COMMITTER_EMAIL");
    if (!author || !committer)
        return fail(!author ? author.error() : committer.error());
    QString text = message.trimmed().isEmpty() ? plan->message : message;
    git::Buffer pretty;
    if (git_message_prettify(&pretty.buf, text.toUtf8().constData(), 0, '#') != 0)
        return fail(QStringLiteral("the message cannot be used (%1).").arg(git::lastErrorText()));

    const git_commit *parents[1] = {headCommit.get()};
    git_oid commitId{};
    if (git_commit_create(&commitId,
                          work.get(),
                          nullptr,
                          author->get(),
                          committer->get(),
                          nullptr,
                          pretty.buf.ptr,
                          tree.get(),
                          headCommit ? 1 : 0,
                          parents)
        != 0) {
        return fail(QStringLiteral("cannot make the commit in the repository at %1 (%2). Nothing "
                                   "was committed.")
                        .arg(o.repositoryText, git::lastErrorText()));
    }
    const QByteArray oldHex = headCommit ? git::hex(*git_commit_id(headCommit.get()))
                                         : QByteArray(GIT_OID_HEXSZ, '0');
    const QByteArray newHex = git::hex(commitId);
    struct stat indexStat = {};
    const qint64 oldIndexSeconds = ::stat(local(places.indexPath).constData(), &indexStat) == 0
                                       ? qint64(indexStat.st_mtime)
                                       : 0;
    const QByteArray newIndex = serializeIndex(index.get(), oldIndexSeconds);
    const QByteArray refName = places.branch.isEmpty() ? QByteArray("HEAD")
                                                       : places.branch.toUtf8();

    // The writes, in git's order, so that a kill at any call leaves HEAD old
    // or new with an index that matches it:
    //   1. the record of this run, then index.lock (holding the new index),
    //      HEAD.lock and the branch's lock, each taken as git takes it (a
    //      name that must not exist), so a git that comes in between is
    //      refused and refuses us;
    //   2. the objects (whole files, renamed into place; unreferenced until
    //      HEAD moves, so any subset of them is harmless);
    //   3. the reflog lines (a reflog may name a commit HEAD does not yet
    //      point to; git commit writes them here too);
    //   4. the branch's lock renamed over the branch: HEAD moves, in one step;
    //   5. index.lock renamed over the index;
    //   6. HEAD.lock, the second names and the record removed.
    // A kill before 4 leaves HEAD and the index old, and locks the next run
    // recognises as its own (the record and the second names) and removes,
    // with the reflog lines. A kill between 4 and 5 leaves HEAD new and the
    // new index waiting in index.lock: the next run sees HEAD at the
    // recorded commit and renames it into place, finishing the commit
    // (git's own commit has the same step). The index is renamed after HEAD
    // moves, not before: the reverse would show the slot files staged
    // against an old HEAD to every git that runs meanwhile.
    RunFiles run(places);
    const auto writeFailed = [&](const QString &what, int error) {
        return fail(QStringLiteral("cannot write %1 in the repository at %2 (%3). %4")
                        .arg(what, o.repositoryText, systemErrorText(error), writeAdvice(error)));
    };
    if (const int error = run.writeRecord(oldHex, newHex); error != 0)
        return writeFailed(places.record(run.pid()), error);
    const QString indexLock = places.indexPath + QStringLiteral(".lock");
    const QString headLock = places.headPath() + QStringLiteral(".lock");
    const QString refLock = places.refPath() + QStringLiteral(".lock");
    if (const int error = run.take("index", indexLock, newIndex); error != 0)
        return error == EEXIST ? fail(lockedText(o.repositoryText, indexLock))
                               : writeFailed(indexLock, error);
    {
        std::optional<QByteArray> nowIndex;
        QFile file(places.indexPath);
        if (file.open(QIODevice::ReadOnly))
            nowIndex = file.readAll();
        if (nowIndex != originalIndex) {
            return fail(QStringLiteral("the index of the repository at %1 changed while the "
                                       "checkpoint was being made (another git program). "
                                       "Checkpoint again; nothing was committed.")
                            .arg(o.repositoryText));
        }
    }
    QByteArray headBytes;
    if (places.branch.isEmpty()) {
        headBytes = newHex + '\n';
    } else {
        QFile file(places.headPath());
        if (file.open(QIODevice::ReadOnly))
            headBytes = file.readAll();
    }
    if (const int error = run.take("head", headLock, headBytes); error != 0)
        return error == EEXIST ? fail(lockedText(o.repositoryText, headLock))
                               : writeFailed(headLock, error);
    // HEAD still names the branch the commit was made for (a checkout of
    // another branch at the same commit changes nothing else).
    if (!places.branch.isEmpty() && headBytes.trimmed() != "ref: " + places.branch.toUtf8()) {
        return fail(QStringLiteral("HEAD of the repository at %1 moved to another branch while the "
                                   "checkpoint was being made (another git program). Checkpoint "
                                   "again; nothing was committed.")
                        .arg(o.repositoryText));
    }
    if (!places.branch.isEmpty()) {
        QDir().mkpath(QFileInfo(refLock).path()); // a new branch in a new folder
        if (const int error = run.take("ref", refLock, newHex + '\n'); error != 0)
            return error == EEXIST ? fail(lockedText(o.repositoryText, refLock))
                                   : writeFailed(refLock, error);
    }
    // Under the locks, HEAD must still be where the commit starts from: a
    // commit made meanwhile is not lost.
    if (currentId(work.get(), refName) != oldHex) {
        return fail(QStringLiteral("HEAD of the repository at %1 moved while the checkpoint was "
                                   "being made (another git program). Checkpoint again; nothing "
                                   "was committed.")
                        .arg(o.repositoryText));
    }
    for (const CapturedObject &object : made) {
        if (const int error = writeLooseObject(places.objectsDir(),
                                               places.tmpObject(run.pid()),
                                               object);
            error != 0)
            return writeFailed(QStringLiteral("the object %1")
                                   .arg(QString::fromLatin1(git::hex(object.id))),
                               error);
    }
    // The reflogs, as git writes them (core.logAllRefUpdates: a log is
    // created for HEAD and branches unless it is false).
    ReflogGuard reflogs(work.get());
    const bool createLogs = readBool(work.get(),
                                     "core.logallrefupdates",
                                     !git_repository_is_bare(work.get()));
    {
        const git_signature *who = committer->get();
        const int offset = who->when.offset;
        const QByteArray zone = QStringLiteral("%1%2%3")
                                    .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                                    .arg(qAbs(offset) / 60, 2, 10, QLatin1Char('0'))
                                    .arg(qAbs(offset) % 60, 2, 10, QLatin1Char('0'))
                                    .toLatin1();
        const QByteArray summary = QByteArray(pretty.buf.ptr).split('\n').value(0);
        const QByteArray line = oldHex + ' ' + newHex + ' ' + QByteArray(who->name) + " <"
                                + QByteArray(who->email) + "> "
                                + QByteArray::number(qint64(who->when.time)) + ' ' + zone
                                + (headCommit ? "\tcommit: " : "\tcommit (initial): ") + summary
                                + '\n';
        for (const QString &log : reflogs.paths()) {
            if (!createLogs && !pathExists(log))
                continue;
            QDir().mkpath(QFileInfo(log).path());
            const int fd = fileio::open(local(log).constData(),
                                        O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                                        0666);
            int error = fd < 0 ? errno : 0;
            if (fd >= 0) {
                error = writeAll(fd, line);
                if (fileio::close(fd) != 0 && error == 0)
                    error = errno;
            }
            if (error != 0) {
                reflogs.restore(headCommit ? *git_commit_id(headCommit.get()) : git_oid{}, commitId);
                return writeFailed(log, error);
            }
        }
    }
    // HEAD moves.
    if (const int error = run.commit(places.branch.isEmpty() ? headLock : refLock, places.refPath());
        error != 0) {
        reflogs.restore(headCommit ? *git_commit_id(headCommit.get()) : git_oid{}, commitId);
        return writeFailed(places.refPath(), error);
    }
    if (const int error = run.commit(indexLock, places.indexPath); error != 0) {
        // HEAD has moved: the new index stays in index.lock, and the next
        // checkpoint puts it in place.
        run.keep();
        return fail(QStringLiteral("commit %1 was made in the repository at %2, but its index "
                                   "could not be put in place (%3). Checkpoint again to finish; "
                                   "until then %4 stays locked.")
                        .arg(QString::fromLatin1(newHex.left(7)),
                             o.repositoryText,
                             systemErrorText(error),
                             indexLock));
    }
    if (const int error = places.branch.isEmpty() ? 0 : run.drop(headLock); error != 0) {
        // The commit is made; the lock stays recognisably ours, for the
        // next run to remove. Until then git refuses to move HEAD.
        run.keep();
        result.leftovers.append(QStringLiteral("%1 could not be removed (%2): git refuses to "
                                               "move HEAD while it is there. The next checkpoint "
                                               "removes it.")
                                    .arg(headLock, systemErrorText(error)));
    } else {
        result.leftovers = run.finish();
    }

    result.id = newHex;
    git_commit *madeCommit = nullptr;
    if (git_commit_lookup(&madeCommit, o.get(), &commitId) == 0) {
        const git::Commit owned(madeCommit);
        git::Buffer shortId;
        if (git_object_short_id(&shortId.buf, reinterpret_cast<const git_object *>(madeCommit)) == 0)
            result.shortId = QString::fromLatin1(shortId.bytes());
    }
    git_error_clear();
    if (result.shortId.isEmpty())
        result.shortId = QString::fromLatin1(result.id.left(7));
    result.message = QString::fromUtf8(pretty.buf.ptr).trimmed();
    result.slots = plan->slots;
    return result;
}

} // namespace soul
