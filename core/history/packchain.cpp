#include "history/packchain.h"

#include "history/gitobjects.h"

#include <QFile>
#include <QFileInfo>
#include <QMutexLocker>

#include <atomic>

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace soul::git {

namespace {

// The offsets found sound are kept to spare the walk down a chain already
// walked; past this many a pack's set starts again.
constexpr qsizetype MaxSoundOffsets = qsizetype(1) << 16;

// A lookup touches a few pages of an index, and the pages stay in memory
// while it is mapped: after this many lookups they are given back.
constexpr int LookupsBeforeRelease = 1 << 14;

// Where the sizes at the start of a delta must appear: a deflate stream's
// first block header is a few hundred bytes at most.
constexpr qint64 MaxDeltaHeaderInput = qint64(64) * 1024;

constexpr int OfsDelta = 6;
constexpr int RefDelta = 7;

quint32 bigEndian32(const uchar *at)
{
    return (quint32(at[0]) << 24) | (quint32(at[1]) << 16) | (quint32(at[2]) << 8) | quint32(at[3]);
}

// Reads up to `size` bytes at `offset`; how many it read, -1 on an error.
qint64 readAt(int fd, qint64 offset, void *buffer, qint64 size)
{
    qint64 done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd,
                                  static_cast<char *>(buffer) + done,
                                  size_t(size - done),
                                  off_t(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        done += n;
    }
    return done;
}

// A delta's sizes are little-endian base-128 numbers. 1 when one was read at
// `pos`, 0 when more bytes are needed, -1 when it does not fit 64 bits.
int deltaVarint(const uchar *bytes, int size, int &pos, quint64 &value)
{
    value = 0;
    for (int shift = 0, at = pos; at < size; shift += 7) {
        if (shift > 63)
            return -1;
        const uchar c = bytes[at++];
        value |= quint64(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            pos = at;
            return 1;
        }
    }
    return 0;
}

struct Entry
{
    int type = 0;
    quint64 size = 0;       // for a delta: the size of its instructions
    qint64 data = 0;        // where its zlib stream starts
    qint64 baseOffset = -1; // an offset delta's base
    QByteArray baseId;      // a reference delta's base (raw)
};

} // namespace

struct PackChains::Pack
{
    QString packPath;
    std::unique_ptr<QFile> index;
    const uchar *map = nullptr;
    qint64 indexSize = 0;
    bool v2 = false;
    qint64 count = 0;
    int fd = -1; // the pack, opened on first use
    bool unopenable = false;
    qint64 packSize = 0;
    QSet<qint64> sound; // offsets whose whole chain was found within the cap
    std::atomic<int> lookups{0};

    ~Pack()
    {
        if (fd >= 0)
            ::close(fd);
    }

    quint32 fanout(int byte) const { return bigEndian32(map + (v2 ? 8 : 0) + qsizetype(4) * byte); }

    const uchar *name(qint64 i) const
    {
        return v2 ? map + 8 + 1024 + 20 * i : map + 1024 + 24 * i + 4;
    }

    qint64 offset(qint64 i) const
    {
        if (!v2)
            return bigEndian32(map + 1024 + 24 * i);
        const quint32 small = bigEndian32(map + 8 + 1024 + 24 * count + 4 * i);
        if (!(small & 0x80000000u))
            return small;
        const uchar *large = map + 8 + 1024 + 28 * count + 8 * qint64(small & 0x7fffffffu);
        return qint64((quint64(bigEndian32(large)) << 32) | bigEndian32(large + 4));
    }

    // The offset of the object `raw` (20 bytes), or -1.
    qint64 find(const uchar *raw) const
    {
        qint64 low = raw[0] ? fanout(raw[0] - 1) : 0;
        qint64 high = fanout(raw[0]);
        while (low < high) {
            const qint64 middle = low + (high - low) / 2;
            const int order = std::memcmp(name(middle), raw, GIT_OID_RAWSZ);
            if (order == 0)
                return offset(middle);
            if (order < 0)
                low = middle + 1;
            else
                high = middle;
        }
        return -1;
    }

    // The id (hex) of the object at `at`, or empty: only for a sentence.
    QByteArray idAt(qint64 at) const
    {
        for (qint64 i = 0; i < count; ++i) {
            if (offset(i) == at) {
                git_oid id;
                git_oid_fromraw(&id, name(i));
                return hex(id);
            }
        }
        return {};
    }

    // Why the entry at `at` cannot be read, or empty.
    QString readEntry(qint64 at, Entry &entry) const
    {
        const qint64 end = packSize - GIT_OID_RAWSZ; // the pack's checksum ends it
        if (at < 12 || at >= end)
            return QStringLiteral("it points outside the pack");
        uchar head[32] = {};
        const qint64 got = readAt(fd, at, head, qMin<qint64>(sizeof head, end - at));
        if (got < 0)
            return QStringLiteral("the pack cannot be read (%1)")
                .arg(QString::fromLocal8Bit(std::strerror(errno)));
        qint64 pos = 0;
        auto next = [&](uchar &c) {
            if (pos >= got)
                return false;
            c = head[pos++];
            return true;
        };
        uchar c = 0;
        if (!next(c))
            return QStringLiteral("it is cut short");
        entry.type = (c >> 4) & 7;
        entry.size = c & 0x0f;
        for (int shift = 4; c & 0x80; shift += 7) {
            if (shift > 57 || !next(c))
                return QStringLiteral("its header is cut short or too long");
            entry.size |= quint64(c & 0x7f) << shift;
        }
        if (entry.type == OfsDelta) {
            if (!next(c))
                return QStringLiteral("it is cut short");
            quint64 distance = c & 0x7f;
            while (c & 0x80) {
                if (distance >> 56 || !next(c))
                    return QStringLiteral("its base's distance is cut short or too long");
                distance = ((distance + 1) << 7) | (c & 0x7f);
            }
            if (distance == 0 || distance >= quint64(at))
                return QStringLiteral("its base would lie outside the pack");
            entry.baseOffset = at - qint64(distance);
        } else if (entry.type == RefDelta) {
            if (pos + GIT_OID_RAWSZ > got)
                return QStringLiteral("it is cut short");
            entry.baseId = QByteArray(reinterpret_cast<const char *>(head + pos), GIT_OID_RAWSZ);
            pos += GIT_OID_RAWSZ;
        } else if (entry.type < 1 || entry.type > 4) {
            return QStringLiteral("its type (%1) is none git writes").arg(entry.type);
        }
        entry.data = at + pos;
        return {};
    }

    // Inflates the start of the delta at `data` for the two sizes it opens
    // with: its base's and the one it makes. Why not, or empty.
    QString deltaSizes(qint64 data, quint64 &baseSize, quint64 &resultSize) const
    {
        const qint64 end = packSize - GIT_OID_RAWSZ;
        z_stream stream = {};
        if (inflateInit(&stream) != Z_OK)
            return QStringLiteral("zlib cannot be started");
        uchar out[20] = {};
        uchar in[512] = {};
        int made = 0;
        QString why;
        qint64 at = data;
        for (;;) {
            int pos = 0;
            const int first = deltaVarint(out, made, pos, baseSize);
            const int second = first == 1 ? deltaVarint(out, made, pos, resultSize) : 0;
            if (first < 0 || second < 0) {
                why = QStringLiteral("its delta's sizes do not fit 64 bits");
                break;
            }
            if (second == 1)
                break;
            if (made == int(sizeof out)) {
                why = QStringLiteral("its delta's sizes do not fit 64 bits");
                break;
            }
            if (stream.avail_in == 0) {
                const qint64 want = qMin<qint64>(sizeof in, end - at);
                const qint64 got = want > 0 && at - data < MaxDeltaHeaderInput
                                       ? readAt(fd, at, in, want)
                                       : 0;
                if (got <= 0) {
                    why = QStringLiteral("its delta is cut short");
                    break;
                }
                at += got;
                stream.next_in = in;
                stream.avail_in = uInt(got);
            }
            stream.next_out = out + made;
            stream.avail_out = uInt(int(sizeof out) - made);
            const int status = ::inflate(&stream, Z_NO_FLUSH);
            made = int(sizeof out) - int(stream.avail_out);
            if (status == Z_STREAM_END) {
                // All of it inflated: the sizes are in `out` or nowhere.
                pos = 0;
                if (deltaVarint(out, made, pos, baseSize) != 1
                    || deltaVarint(out, made, pos, resultSize) != 1)
                    why = QStringLiteral("its delta is too short to hold its sizes");
                break;
            }
            if (status != Z_OK && status != Z_BUF_ERROR) {
                why = QStringLiteral("its delta is not a zlib stream (%1)")
                          .arg(QString::fromLatin1(stream.msg ? stream.msg : "no reason given"));
                break;
            }
        }
        inflateEnd(&stream);
        return why;
    }
};

PackChains::PackChains(const QStringList &indexes)
{
    for (const QString &path : indexes) {
        auto pack = std::make_shared<Pack>();
        pack->index = std::make_unique<QFile>(path);
        if (!pack->index->open(QIODevice::ReadOnly))
            continue;
        pack->indexSize = pack->index->size();
        if (pack->indexSize < 1024 + 40)
            continue;
        pack->map = pack->index->map(0, pack->indexSize);
        if (!pack->map)
            continue;
        // The index was checked whole (guardedodb.cpp, checkPackIndex()):
        // its counts, sizes and large offsets fit the file.
        pack->v2 = bigEndian32(pack->map) == 0xff744f63u;
        pack->count = pack->fanout(255);
        QString packPath = path;
        packPath.chop(4); // ".idx"
        pack->packPath = packPath + QStringLiteral(".pack");
        m_packs.append(std::move(pack));
    }
}

PackChains::~PackChains() = default;

std::optional<PackChains::Problem> PackChains::check(const git_oid &id, qint64 cap) const
{
    for (const std::shared_ptr<Pack> &pack : m_packs) {
        if (++pack->lookups % LookupsBeforeRelease == 0)
            ::madvise(const_cast<uchar *>(pack->map), size_t(pack->indexSize), MADV_DONTNEED);
        const qint64 offset = pack->find(id.id);
        if (offset >= 0)
            return checkIn(*pack, id, offset, cap);
    }
    return std::nullopt;
}

std::optional<PackChains::Problem> PackChains::checkIn(Pack &pack,
                                                       const git_oid &id,
                                                       qint64 offset,
                                                       qint64 cap) const
{
    {
        const QMutexLocker locker(&m_mutex);
        if (pack.sound.contains(offset))
            return std::nullopt;
        if (pack.fd < 0 && !pack.unopenable) {
            pack.fd = ::open(QFile::encodeName(pack.packPath).constData(),
                             O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
            struct stat st = {};
            if (pack.fd >= 0 && (::fstat(pack.fd, &st) != 0 || !S_ISREG(st.st_mode))) {
                ::close(pack.fd);
                pack.fd = -1;
            }
            pack.unopenable = pack.fd < 0;
            pack.packSize = qint64(st.st_size);
        }
        // A pack that cannot be opened is libgit2's to name.
        if (pack.unopenable)
            return std::nullopt;
    }
    const QString subject = QStringLiteral("the packed object %1 in %2")
                                .arg(QString::fromLatin1(hex(id)), pack.packPath);
    auto damaged = [&](qint64 at, const QString &why) {
        const QString where
            = at == offset
                  ? QStringLiteral("its entry at offset %1").arg(at)
                  : QStringLiteral("the entry at offset %1 on its chain of deltas").arg(at);
        return Problem{QStringLiteral("%1 is damaged: %2 (%3)").arg(subject, why, where), false};
    };
    // `instructions`: the size is that of a delta's own instructions, not
    // of what it makes.
    auto tooLarge = [&](qint64 at, bool instructions, quint64 size) {
        QString what = instructions ? QStringLiteral("its delta is") : QStringLiteral("it is");
        if (at != offset) {
            const QByteArray base = pack.idAt(at);
            const QString from
                = base.isEmpty() ? QStringLiteral("the entry at offset %1 of the pack").arg(at)
                                 : QStringLiteral("the object %1").arg(QString::fromLatin1(base));
            what = QStringLiteral("it is made from %1, %2")
                       .arg(from,
                            instructions ? QStringLiteral("whose delta is")
                                         : QStringLiteral("which is"));
        }
        return Problem{QStringLiteral("%1 is too large to read: %2 %3 bytes, more than the %4 "
                                      "bytes of the largest object Soul Studio reads")
                           .arg(subject, what)
                           .arg(size)
                           .arg(cap),
                       true};
    };
    QList<qint64> walked;
    qint64 at = offset;
    for (int depth = 0;; ++depth) {
        if (depth > 0) {
            const QMutexLocker locker(&m_mutex);
            if (pack.sound.contains(at))
                break;
        }
        if (depth > MaxDeltaDepth) {
            return damaged(offset,
                           QStringLiteral("it has a chain of more than %1 deltas (git writes "
                                          "none longer), or one that loops")
                               .arg(MaxDeltaDepth));
        }
        Entry entry;
        if (const QString why = pack.readEntry(at, entry); !why.isEmpty())
            return damaged(at, why);
        const bool delta = entry.type == OfsDelta || entry.type == RefDelta;
        if (entry.size > quint64(cap)) {
            return tooLarge(at, delta, entry.size);
        }
        walked.append(at);
        if (!delta)
            break;
        quint64 baseSize = 0;
        quint64 resultSize = 0;
        if (const QString why = pack.deltaSizes(entry.data, baseSize, resultSize); !why.isEmpty())
            return damaged(at, why);
        if (resultSize > quint64(cap))
            return tooLarge(at, false, resultSize);
        if (entry.type == OfsDelta) {
            at = entry.baseOffset;
        } else {
            at = pack.find(reinterpret_cast<const uchar *>(entry.baseId.constData()));
            if (at < 0) {
                git_oid base;
                git_oid_fromraw(&base, reinterpret_cast<const uchar *>(entry.baseId.constData()));
                return damaged(walked.last(),
                               QStringLiteral("it is a delta on the object %1, which is not in "
                                              "the same pack")
                                   .arg(QString::fromLatin1(hex(base))));
            }
        }
    }
    const QMutexLocker locker(&m_mutex);
    if (pack.sound.size() + walked.size() > MaxSoundOffsets)
        pack.sound.clear();
    for (const qint64 sound : std::as_const(walked))
        pack.sound.insert(sound);
    return std::nullopt;
}

} // namespace soul::git
