#include "history/guardedodb.h"

#include "disk/filedescriptor.h"
#include "history/gitobjects.h"
#include "history/looseobject.h"
#include "history/packchain.h"

#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace soul::git {

namespace {

// What libgit2 may keep of the objects it parsed, in all repositories open,
// counted as libgit2 counts it: by the objects' own sizes, a tenth or less of
// what a parsed tree or commit takes.
constexpr qint64 MaxParsedObjectCache = qint64(1) << 20;
// The most of the packs libgit2 keeps mapped at once, and the windows it maps
// them in: the pages mapped stay in memory while the mapping lasts.
constexpr qint64 MaxMappedPacks = qint64(32) << 20;
constexpr qint64 PackWindow = qint64(4) << 20;

// As git: alternates may list alternates, five deep at most.
constexpr int MaxAlternateDepth = 5;

git_object_t objectType(LooseType type)
{
    switch (type) {
    case LooseType::CommitObject:
        return GIT_OBJECT_COMMIT;
    case LooseType::TreeObject:
        return GIT_OBJECT_TREE;
    case LooseType::BlobObject:
        return GIT_OBJECT_BLOB;
    case LooseType::TagObject:
        return GIT_OBJECT_TAG;
    }
    return GIT_OBJECT_INVALID;
}

// One of libgit2's backends (loose or pack) behind a guard: loose objects
// are read through inflateLooseObject(), every object read is checked against
// its id, and a commit where a shallow clone is cut is given without its
// parents, as git treats it. Everything else (writing, existence, listing)
// is the wrapped backend's.
struct GuardedBackend
{
    git_odb_backend parent{}; // first: libgit2 hands back this pointer
    git_odb_backend *inner = nullptr;
    bool loose = false;
    QByteArray objectsDir;                           // with a trailing '/'
    std::shared_ptr<const QSet<QByteArray>> shallow; // raw ids of the commits a shallow clone is cut at
    std::unique_ptr<PackChains> chains;              // a pack reader's: its packs' delta chains
};

GuardedBackend *guarded(git_odb_backend *backend)
{
    return reinterpret_cast<GuardedBackend *>(backend);
}

QByteArray objectPath(const GuardedBackend *backend, const QByteArray &hex)
{
    return backend->objectsDir + hex.left(2) + '/' + hex.mid(2);
}

int failWith(const QByteArray &hex,
             const QByteArray &path,
             const QString &problem,
             bool tooLarge = false)
{
    const QString text = QStringLiteral("the loose object %1 (%2) %3: %4")
                             .arg(QString::fromLatin1(hex),
                                  QFile::decodeName(path),
                                  tooLarge ? QLatin1String(TooLargeMark)
                                           : QLatin1String("is damaged"),
                                  problem);
    git_error_set_str(GIT_ERROR_ODB, text.toUtf8().constData());
    return GIT_ERROR;
}

// Reads the loose object `hex`: GIT_ENOTFOUND when there is no such file (it
// may be packed), GIT_ERROR with libgit2's error set when it is damaged.
int readLoose(GuardedBackend *backend, const QByteArray &hex, bool headerOnly, LooseObject &out)
{
    const QByteArray path = objectPath(backend, hex);
    // Not following a link, and not waiting on a FIFO a damaged repository
    // may hold in an object's place.
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        const int error = errno;
        if (error == ENOENT || error == ENOTDIR)
            return GIT_ENOTFOUND;
        return failWith(hex,
                        path,
                        QStringLiteral("its file cannot be opened (%1)")
                            .arg(QString::fromLocal8Bit(std::strerror(error))));
    }
    const FileDescriptor file(fd);
    struct stat st = {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return failWith(hex, path, QStringLiteral("it is not a file"));
    const ChunkReader read = [fd](char *buffer, qint64 capacity) -> qint64 {
        for (;;) {
            const ssize_t n = ::read(fd, buffer, size_t(capacity));
            if (n >= 0 || errno != EINTR)
                return qint64(n);
        }
    };
    // A header declaring more than the file could hold is refused before
    // anything is allocated for it.
    LooseResult result = inflateLooseObject(read, headerOnly, inflatedBound(qint64(st.st_size)));
    if (!result.ok)
        return failWith(hex, path, result.problem, result.tooLarge);
    out = std::move(result.object);
    return 0;
}

// Whether `data` is the object `id` names; sets libgit2's error when not.
bool matchesId(
    const git_oid &id, const void *data, size_t len, git_object_t type, const QString &where)
{
    git_oid actual;
    if (git_odb_hash(&actual, data, len, type) == 0 && git_oid_equal(&actual, &id))
        return true;
    const QString text = QStringLiteral("the object %1 (%2) is damaged: its content does not "
                                        "match its id (it hashes to %3)")
                             .arg(QString::fromLatin1(hex(id)),
                                  where,
                                  QString::fromLatin1(hex(actual)));
    git_error_set_str(GIT_ERROR_ODB, text.toUtf8().constData());
    return false;
}

// A commit's text without its "parent" lines: a shallow clone's cut.
QByteArray withoutParents(QByteArrayView commit)
{
    const qsizetype headerEnd = commit.indexOf("\n\n");
    const QByteArrayView header = headerEnd < 0 ? commit : commit.first(headerEnd + 1);
    QByteArray out;
    out.reserve(commit.size());
    qsizetype at = 0;
    while (at < header.size()) {
        qsizetype end = header.indexOf('\n', at);
        end = end < 0 ? header.size() : end + 1;
        const QByteArrayView line = header.sliced(at, end - at);
        if (!line.startsWith("parent "))
            out.append(line);
        at = end;
    }
    if (headerEnd >= 0)
        out.append(commit.sliced(headerEnd + 1));
    return out;
}

// Hands `bytes` to libgit2 in a buffer of its own.
int handOver(QByteArrayView bytes, git_odb_backend *backend, void **data, size_t *len)
{
    // One byte more, so an empty object still has a buffer.
    void *buffer = git_odb_backend_data_alloc(backend, size_t(bytes.size()) + 1);
    if (!buffer) {
        git_error_set_str(GIT_ERROR_NOMEMORY, "out of memory");
        return GIT_ERROR;
    }
    if (!bytes.isEmpty())
        std::memcpy(buffer, bytes.data(), size_t(bytes.size()));
    static_cast<char *>(buffer)[bytes.size()] = '\0';
    *data = buffer;
    *len = size_t(bytes.size());
    return 0;
}

bool isCut(const GuardedBackend *b, const git_oid &id, git_object_t type)
{
    return type == GIT_OBJECT_COMMIT && b->shallow && b->shallow->contains(raw(id));
}

// The object `id`, checked, into libgit2's buffer.
int readChecked(GuardedBackend *b, const git_oid &id, void **data, size_t *len, git_object_t *type)
{
    if (b->loose) {
        const QByteArray name = hex(id);
        LooseObject object;
        if (const int status = readLoose(b, name, false, object); status != 0)
            return status;
        *type = objectType(object.type);
        if (!matchesId(id,
                       object.bytes.constData(),
                       size_t(object.bytes.size()),
                       *type,
                       QFile::decodeName(objectPath(b, name))))
            return GIT_ERROR;
        if (isCut(b, id, *type))
            return handOver(withoutParents(object.bytes), &b->parent, data, len);
        return handOver(object.bytes, &b->parent, data, len);
    }
    // The sizes first, from the pack's headers: a delta of a few bytes may
    // claim gigabytes, or be made from a base of gigabytes that libgit2
    // would inflate whole.
    if (b->chains) {
        if (const std::optional<PackChains::Problem> problem = b->chains->check(id, MaxObjectSize)) {
            git_error_set_str(GIT_ERROR_ODB, problem->text.toUtf8().constData());
            return GIT_ERROR;
        }
    }
    size_t declared = 0;
    git_object_t declaredType = GIT_OBJECT_INVALID;
    if (b->inner->read_header && b->inner->read_header(&declared, &declaredType, b->inner, &id) == 0
        && qint64(declared) > MaxObjectSize) {
        const QString text = QStringLiteral("the packed object %1 in %2 %3: %4")
                                 .arg(QString::fromLatin1(hex(id)),
                                      QFile::decodeName(b->objectsDir + "pack"),
                                      QLatin1String(TooLargeMark),
                                      tooLargeText(qint64(declared)));
        git_error_set_str(GIT_ERROR_ODB, text.toUtf8().constData());
        return GIT_ERROR;
    }
    git_error_clear();
    void *packed = nullptr;
    size_t size = 0;
    if (const int status = b->inner->read(&packed, &size, type, b->inner, &id); status != 0) {
        if (status == GIT_ENOTFOUND || status == GIT_PASSTHROUGH)
            return status;
        // libgit2 names the fault (zlib's words), not the object.
        const QString text = QStringLiteral("the packed object %1 in %2 is damaged: %3")
                                 .arg(QString::fromLatin1(hex(id)),
                                      QFile::decodeName(b->objectsDir + "pack"),
                                      lastErrorText());
        git_error_set_str(GIT_ERROR_ODB, text.toUtf8().constData());
        return GIT_ERROR;
    }
    if (!matchesId(id, packed, size, *type, QStringLiteral("in a pack"))) {
        git_odb_backend_data_free(b->inner, packed);
        return GIT_ERROR;
    }
    if (isCut(b, id, *type)) {
        const int status = handOver(withoutParents(QByteArrayView(static_cast<const char *>(packed),
                                                                  qsizetype(size))),
                                    &b->parent,
                                    data,
                                    len);
        git_odb_backend_data_free(b->inner, packed);
        return status;
    }
    *data = packed;
    *len = size;
    return 0;
}

int guardedRead(
    void **data, size_t *len, git_object_t *type, git_odb_backend *backend, const git_oid *id)
{
    return readChecked(guarded(backend), *id, data, len, type);
}

int guardedReadHeader(size_t *len, git_object_t *type, git_odb_backend *backend, const git_oid *id)
{
    GuardedBackend *b = guarded(backend);
    // A cut commit is shorter than its header says: read it whole.
    if (b->shallow && b->shallow->contains(raw(*id)))
        return GIT_PASSTHROUGH;
    if (!b->loose)
        return b->inner->read_header(len, type, b->inner, id);
    LooseObject object;
    if (const int status = readLoose(b, hex(*id), true, object); status != 0)
        return status;
    *len = size_t(object.size);
    *type = objectType(object.type);
    return 0;
}

// The one loose object whose name starts with `wanted`: GIT_ENOTFOUND,
// GIT_EAMBIGUOUS, or 0 with `out` set.
int findLoosePrefix(const GuardedBackend *b, const QByteArray &wanted, git_oid &out)
{
    if (wanted.size() < 2)
        return GIT_ENOTFOUND;
    if (wanted.size() == GIT_OID_HEXSZ)
        return git_oid_fromstrn(&out, wanted.constData(), size_t(wanted.size())) == 0
                       && QFile::exists(QFile::decodeName(objectPath(b, wanted)))
                   ? 0
                   : GIT_ENOTFOUND;
    const QDir folder(QFile::decodeName(b->objectsDir + wanted.left(2)));
    const QStringList names = folder.entryList(QDir::Files | QDir::System | QDir::Hidden);
    const QByteArray rest = wanted.mid(2);
    QByteArray match;
    for (const QString &name : names) {
        const QByteArray latin = name.toLatin1();
        static const QRegularExpression hexName(QStringLiteral("^[0-9a-f]{38}$"));
        if (!latin.startsWith(rest) || !hexName.match(name).hasMatch())
            continue;
        if (!match.isEmpty()) {
            git_error_set_str(GIT_ERROR_ODB,
                              QStringLiteral("more than one object starts with %1")
                                  .arg(QString::fromLatin1(wanted))
                                  .toUtf8()
                                  .constData());
            return GIT_EAMBIGUOUS;
        }
        match = wanted.left(2) + latin;
    }
    if (match.isEmpty() || git_oid_fromstrn(&out, match.constData(), size_t(match.size())) != 0)
        return GIT_ENOTFOUND;
    return 0;
}

int guardedReadPrefix(git_oid *found,
                      void **data,
                      size_t *len,
                      git_object_t *type,
                      git_odb_backend *backend,
                      const git_oid *prefix,
                      size_t digits)
{
    GuardedBackend *b = guarded(backend);
    git_oid id;
    if (b->loose) {
        if (const int status = findLoosePrefix(b, hex(*prefix).left(qsizetype(digits)), id);
            status != 0)
            return status;
    } else {
        // The pack's index finds the id; the object is then read checked.
        if (const int status = b->inner->exists_prefix(&id, b->inner, prefix, digits); status != 0)
            return status;
    }
    if (const int status = readChecked(b, id, data, len, type); status != 0)
        return status;
    git_oid_cpy(found, &id);
    return 0;
}

int guardedWrite(
    git_odb_backend *backend, const git_oid *id, const void *data, size_t len, git_object_t type)
{
    git_odb_backend *inner = guarded(backend)->inner;
    return inner->write(inner, id, data, len, type);
}

int guardedWriteStream(git_odb_stream **stream,
                       git_odb_backend *backend,
                       git_object_size_t size,
                       git_object_t type)
{
    git_odb_backend *inner = guarded(backend)->inner;
    return inner->writestream(stream, inner, size, type);
}

int guardedExists(git_odb_backend *backend, const git_oid *id)
{
    git_odb_backend *inner = guarded(backend)->inner;
    return inner->exists(inner, id);
}

int guardedExistsPrefix(git_oid *found,
                        git_odb_backend *backend,
                        const git_oid *prefix,
                        size_t digits)
{
    git_odb_backend *inner = guarded(backend)->inner;
    return inner->exists_prefix(found, inner, prefix, digits);
}

int guardedForeach(git_odb_backend *backend, git_odb_foreach_cb callback, void *payload)
{
    git_odb_backend *inner = guarded(backend)->inner;
    return inner->foreach(inner, callback, payload);
}

int guardedFreshen(git_odb_backend *backend, const git_oid *id)
{
    git_odb_backend *inner = guarded(backend)->inner;
    return inner->freshen(inner, id);
}

void guardedFree(git_odb_backend *backend)
{
    GuardedBackend *b = guarded(backend);
    if (b->inner)
        b->inner->free(b->inner);
    delete b;
}

// A guarded backend over libgit2's `inner` for `objectsDir`.
git_odb_backend *makeGuarded(git_odb_backend *inner,
                             bool loose,
                             const QByteArray &objectsDir,
                             const std::shared_ptr<const QSet<QByteArray>> &shallow,
                             const QStringList &packIndexes = {})
{
    auto *backend = new GuardedBackend;
    std::memset(&backend->parent, 0, sizeof backend->parent);
    git_odb_init_backend(&backend->parent, GIT_ODB_BACKEND_VERSION);
    backend->inner = inner;
    backend->loose = loose;
    backend->objectsDir = objectsDir.endsWith('/') ? objectsDir : objectsDir + '/';
    backend->shallow = shallow;
    if (!loose)
        backend->chains = std::make_unique<PackChains>(packIndexes);
    git_odb_backend &p = backend->parent;
    p.read = &guardedRead;
    p.read_header = inner->read_header ? &guardedReadHeader : nullptr;
    p.read_prefix = inner->read_prefix ? &guardedReadPrefix : nullptr;
    p.write = inner->write ? &guardedWrite : nullptr;
    p.writestream = inner->writestream ? &guardedWriteStream : nullptr;
    p.exists = inner->exists ? &guardedExists : nullptr;
    p.exists_prefix = inner->exists_prefix ? &guardedExistsPrefix : nullptr;
    // No refresh: libgit2's would open packs that appeared since (after a
    // git gc) without their indexes being checked. A repository is opened
    // again when its folder changes.
    p.refresh = nullptr;
    p.foreach = inner->foreach ? &guardedForeach : nullptr;
    p.freshen = inner->freshen ? &guardedFreshen : nullptr;
    p.free = &guardedFree;
    return &backend->parent;
}

int addBackend(git_odb *odb, git_odb_backend *backend, int priority, bool alternate)
{
    const int status = alternate ? git_odb_add_alternate(odb, backend, priority)
                                 : git_odb_add_backend(odb, backend, priority);
    if (status != 0)
        backend->free(backend);
    return status;
}

// The same for a guarded backend: the wrapped one learns its database too,
// as libgit2 asks a write stream's backend for it when the write ends.
int addGuarded(git_odb *odb, git_odb_backend *backend, int priority, bool alternate)
{
    git_odb_backend *inner = guarded(backend)->inner;
    const int status = addBackend(odb, backend, priority, alternate);
    if (status == 0)
        inner->odb = odb;
    return status;
}

quint32 bigEndian32(const char *at)
{
    const auto *u = reinterpret_cast<const unsigned char *>(at);
    return (quint32(u[0]) << 24) | (quint32(u[1]) << 16) | (quint32(u[2]) << 8) | quint32(u[3]);
}

// Why the pack index `path` cannot be trusted, or empty. libgit2 1.5 sizes
// its tables from the index's own counts in 32-bit arithmetic, so a damaged
// fan-out table makes it read far outside the file; here the counts, the
// sizes and the file's own checksum are checked first.
QString checkPackIndex(const QString &path);

// The verdicts on the pack indexes read so far in this process, by file
// identity: a repository is opened again after every change in its folder,
// and a large index is not hashed each time.
QString packIndexProblem(const QString &path)
{
    struct Key
    {
        QString path;
        dev_t device = 0;
        ino_t inode = 0;
        qint64 size = 0;
        qint64 mtime = 0;
        bool operator==(const Key &o) const
        {
            return path == o.path && device == o.device && inode == o.inode && size == o.size
                   && mtime == o.mtime;
        }
    };
    struct stat st = {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return checkPackIndex(path);
    const Key key{path,
                  st.st_dev,
                  st.st_ino,
                  qint64(st.st_size),
                  qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
    static QMutex mutex;
    static QList<QPair<Key, QString>> known;
    {
        const QMutexLocker locker(&mutex);
        for (const auto &[k, verdict] : std::as_const(known)) {
            if (k == key)
                return verdict;
        }
    }
    const QString verdict = checkPackIndex(path);
    const QMutexLocker locker(&mutex);
    if (known.size() >= 256)
        known.removeFirst();
    known.append({key, verdict});
    return verdict;
}

QString checkPackIndex(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("it cannot be read (%1)").arg(file.errorString());
    constexpr qint64 MaxIndex = qint64(1) << 30;
    if (file.size() > MaxIndex)
        return QStringLiteral("it is larger than any pack index Soul Studio reads");
    const QByteArray data = file.readAll();
    const qint64 size = data.size();
    if (size < 4 * 256 + 20 + 20)
        return QStringLiteral("it is too short to be a pack index");
    const QByteArray sum = QCryptographicHash::hash(QByteArrayView(data).first(size - 20),
                                                    QCryptographicHash::Sha1);
    if (sum != QByteArrayView(data).last(20))
        return QStringLiteral("its checksum does not match its content");
    const bool v2 = bigEndian32(data.constData()) == 0xff744f63u; // "\377tOc"
    if (v2 && bigEndian32(data.constData() + 4) != 2)
        return QStringLiteral("its version is not one git writes");
    constexpr qint64 FanoutBytes = qint64(4) * 256;
    const qint64 fanout = v2 ? 8 : 0;
    if (size < fanout + FanoutBytes + 40)
        return QStringLiteral("it is too short to be a pack index");
    qint64 count = 0;
    for (qint64 i = 0; i < 256; ++i) {
        const qint64 n = bigEndian32(data.constData() + fanout + qint64(4) * i);
        if (n < count)
            return QStringLiteral("its fan-out table is not in order");
        count = n;
    }
    if (!v2) {
        if (size != FanoutBytes + count * 24 + 40)
            return QStringLiteral("its size does not fit the %1 objects it lists").arg(count);
        return {};
    }
    const qint64 minimum = 8 + FanoutBytes + count * (20 + 4 + 4) + 40;
    const qint64 maximum = minimum + (count > 0 ? (count - 1) * 8 : 0);
    if (size < minimum || size > maximum)
        return QStringLiteral("its size does not fit the %1 objects it lists").arg(count);
    // Offsets of 2 GiB and more point into a table of 8-byte entries.
    const qint64 large = (size - minimum) / 8;
    const char *offsets = data.constData() + 8 + FanoutBytes + count * 24;
    for (qint64 i = 0; i < count; ++i) {
        const quint32 offset = bigEndian32(offsets + qint64(4) * i);
        if ((offset & 0x80000000u) && qint64(offset & 0x7fffffffu) >= large)
            return QStringLiteral("an offset points outside its table of large offsets");
    }
    return {};
}

// Answers for the objects a damaged pack index may hold: a read that nothing
// else answered fails with a sentence naming the index, instead of "not
// found".
struct DamagedPacks
{
    git_odb_backend parent{}; // first: libgit2 hands back this pointer
    QString problems;
};

int damagedPacksRead(git_odb_backend *backend, const git_oid &id)
{
    const QString text = QStringLiteral("the object %1 is in no readable part of the object store, "
                                        "and %2")
                             .arg(QString::fromLatin1(hex(id)),
                                  reinterpret_cast<DamagedPacks *>(backend)->problems);
    git_error_set_str(GIT_ERROR_ODB, text.toUtf8().constData());
    return GIT_ERROR;
}

int damagedPacksReadObject(
    void **, size_t *, git_object_t *, git_odb_backend *backend, const git_oid *id)
{
    return damagedPacksRead(backend, *id);
}

int damagedPacksReadHeader(size_t *, git_object_t *, git_odb_backend *, const git_oid *)
{
    // A header another reader passed on (a shallow clone's cut commit) is
    // read whole next; the sentence comes then, if nothing has the object.
    return GIT_PASSTHROUGH;
}

int damagedPacksExists(git_odb_backend *, const git_oid *)
{
    return 0;
}

void damagedPacksFree(git_odb_backend *backend)
{
    delete reinterpret_cast<DamagedPacks *>(backend);
}

// The pack readers of `objectsDir`: libgit2's for the whole folder when every
// index checks out, else one per sound index and a reporter of the damaged
// ones (the folder's multi-pack-index is then not read).
int addPacks(git_odb *odb,
             const QByteArray &objectsDir,
             const std::shared_ptr<const QSet<QByteArray>> &shallow,
             bool alternate)
{
    const QDir packs(QDir::cleanPath(QFile::decodeName(objectsDir) + QStringLiteral("/pack")));
    const QStringList indexes = packs.entryList({QStringLiteral("*.idx")}, QDir::Files);
    QStringList sound;
    QStringList problems;
    for (const QString &name : indexes) {
        const QString path = packs.filePath(name);
        if (const QString problem = packIndexProblem(path); !problem.isEmpty())
            problems.append(QStringLiteral("the pack index %1 is damaged: %2").arg(path, problem));
        else
            sound.append(path);
    }
    const QString midx = packs.filePath(QStringLiteral("multi-pack-index"));
    if (problems.isEmpty() && !QFileInfo::exists(midx)) {
        git_odb_backend *all = nullptr;
        if (git_odb_backend_pack(&all, objectsDir.constData()) != 0)
            return GIT_ERROR;
        return addGuarded(odb, makeGuarded(all, false, objectsDir, shallow, sound), 2, alternate);
    }
    for (const QString &path : std::as_const(sound)) {
        git_odb_backend *one = nullptr;
        if (const int status = git_odb_backend_one_pack(&one, QFile::encodeName(path).constData());
            status != 0) {
            // An index whose pack is gone (left by a repack cut short) is
            // skipped, as git skips it.
            if (status == GIT_ENOTFOUND) {
                git_error_clear();
                continue;
            }
            return GIT_ERROR;
        }
        if (addGuarded(odb, makeGuarded(one, false, objectsDir, shallow, {path}), 2, alternate) != 0)
            return GIT_ERROR;
    }
    if (problems.isEmpty())
        return 0;
    auto *reporter = new DamagedPacks;
    std::memset(&reporter->parent, 0, sizeof reporter->parent);
    git_odb_init_backend(&reporter->parent, GIT_ODB_BACKEND_VERSION);
    reporter->problems = problems.join(QStringLiteral("; "));
    reporter->parent.read = &damagedPacksReadObject;
    reporter->parent.read_header = &damagedPacksReadHeader;
    reporter->parent.exists = &damagedPacksExists;
    reporter->parent.free = &damagedPacksFree;
    // Last of all: only what no other reader has comes here.
    return addBackend(odb, &reporter->parent, 0, alternate);
}

// Adds the loose and pack readers of `objectsDir`, and of the alternates it
// lists.
int addObjectsDir(git_odb *odb,
                  const QByteArray &objectsDir,
                  const std::shared_ptr<const QSet<QByteArray>> &shallow,
                  int depth,
                  QSet<QString> &seen)
{
    const QString canonical = QDir(QFile::decodeName(objectsDir)).canonicalPath();
    if (canonical.isEmpty() || seen.contains(canonical))
        return 0; // an alternate that does not exist, or one listed twice: as git, skipped
    seen.insert(canonical);
    const bool alternate = depth > 0;
    git_odb_backend *loose = nullptr;
    if (git_odb_backend_loose(&loose, objectsDir.constData(), -1, 0, 0, 0) != 0)
        return GIT_ERROR;
    if (addGuarded(odb, makeGuarded(loose, true, objectsDir, shallow), 1, alternate) != 0)
        return GIT_ERROR;
    if (addPacks(odb, objectsDir, shallow, alternate) != 0)
        return GIT_ERROR;
    if (depth >= MaxAlternateDepth)
        return 0;
    QFile list(QDir(canonical).filePath(QStringLiteral("info/alternates")));
    if (!list.open(QIODevice::ReadOnly))
        return 0;
    // A few paths; a file far longer is no list of alternates.
    const QByteArray text = list.read(qint64(1) << 16);
    for (QByteArray line : text.split('\n')) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QString path = QDir(canonical).absoluteFilePath(QFile::decodeName(line));
        if (addObjectsDir(odb, QFile::encodeName(QDir::cleanPath(path)), shallow, depth + 1, seen)
            != 0)
            return GIT_ERROR;
    }
    return 0;
}

} // namespace

QSet<QByteArray> shallowCommits(git_repository *repo)
{
    QSet<QByteArray> cut;
    QFile file(
        QDir(QFile::decodeName(git_repository_commondir(repo))).filePath(QStringLiteral("shallow")));
    if (!file.open(QIODevice::ReadOnly))
        return cut;
    // 41 bytes a commit; a file of a million of them is no shallow list.
    const QByteArray text = file.read(qint64(41) << 20);
    for (const QByteArray &line : text.split('\n')) {
        git_oid id;
        if (line.trimmed().size() == GIT_OID_HEXSZ
            && git_oid_fromstrn(&id, line.trimmed().constData(), GIT_OID_HEXSZ) == 0)
            cut.insert(raw(id));
    }
    return cut;
}

QString installGuardedObjectDatabase(git_repository *repo)
{
    // The guard checks every object it reads against its id itself, so that
    // a shallow clone's cut commits can be given without their parents.
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    // libgit2 keeps the commits and trees it parsed up to 256 MiB by
    // default, and maps packs up to 8 GiB: a walk down a long history would
    // fill both. What a walk reads again is close by, and the slot entries
    // are cached above.
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, ssize_t(MaxParsedObjectCache));
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, size_t(PackWindow));
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, size_t(MaxMappedPacks));
    Buffer objects;
    if (git_repository_item_path(&objects.buf, repo, GIT_REPOSITORY_ITEM_OBJECTS) != 0)
        return lastErrorText();
    git_odb *odb = nullptr;
    if (git_odb_new(&odb) != 0)
        return lastErrorText();
    const auto shallow = std::make_shared<const QSet<QByteArray>>(shallowCommits(repo));
    QSet<QString> seen;
    if (addObjectsDir(odb, objects.bytes(), shallow, 0, seen) != 0) {
        const QString why = lastErrorText();
        git_odb_free(odb);
        return why;
    }
    const int status = git_repository_set_odb(repo, odb);
    git_odb_free(odb); // the repository holds its own reference
    return status == 0 ? QString() : lastErrorText();
}

} // namespace soul::git
