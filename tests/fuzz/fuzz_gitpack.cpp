// Packed git objects as a persona's history reads them (core/history's
// guarded object database), for libFuzzer.
//
// Input: a first byte of flags, then the bytes.
//   bit 0 clear: the bytes are a .pack; its index is made here, by a reader
//         of packs written apart from core/ (each entry's id is the hash of
//         the object it makes, when this reader can make it, else made up).
//         bit 1 set: the index records the hash of the pack's bytes, not the
//         checksum the pack ends with.
//   bit 0 set: two bytes (little-endian) give the length of a .idx that
//         follows, then the .pack; the index's own checksum is made right,
//         so that it is read further than that.
// The two are stored in a scratch repository, which is opened, given the
// guarded object database (installGuardedObjectDatabase(), as PersonaHistory
// does) and asked for every object the index lists, and for one it does not.
//
// What must hold: no crash, no hang, no allocation larger than libFuzzer
// allows; an object read is at most MaxObjectSize bytes and hashes to the id
// it was asked for, and its header agrees; every failure is a sentence that
// names the object or the pack.
#include "fuzzsupport.h"

#include "history/guardedodb.h"
#include "history/looseobject.h"

#include <git2.h>

#include <QCryptographicHash>
#include <QDir>
#include <QList>
#include <QMap>

#include <zlib.h>

#include <algorithm>
#include <cstdint>

using namespace soul;

namespace {

// Objects this reader makes are at most this large, and chains this deep.
constexpr qint64 MaxMade = qint64(1) << 20;
constexpr int MaxChain = 64;
constexpr int MaxEntries = 256;

const char *const TypeNames[] = {"", "commit", "tree", "blob", "tag"};

struct Entry
{
    qint64 offset = 0;
    qint64 end = 0;
    int type = 0;
    quint64 size = 0;
    qint64 baseOffset = -1;
    QByteArray baseId; // raw
    QByteArray data;   // inflated, when it inflated whole to `size` bytes
    bool whole = false;
    QByteArray id; // raw
    int madeType = 0;
    QByteArray made;
    bool resolved = false;
};

// Inflates the zlib stream at `at`: its end, or -1. At most MaxMade bytes
// are kept.
qint64 inflateAt(const QByteArray &pack, qint64 at, qint64 limit, QByteArray &out)
{
    z_stream stream = {};
    if (inflateInit(&stream) != Z_OK)
        return -1;
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(pack.constData() + at));
    stream.avail_in = uInt(limit - at);
    char buffer[4096];
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef *>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        const qsizetype made = qsizetype(sizeof buffer - stream.avail_out);
        if (out.size() + made > MaxMade) {
            status = Z_MEM_ERROR;
            break;
        }
        out.append(buffer, made);
        if (status == Z_BUF_ERROR || (status == Z_OK && made == 0 && stream.avail_in == 0))
            break;
    }
    const qint64 end = status == Z_STREAM_END ? at + qint64(stream.total_in) : -1;
    inflateEnd(&stream);
    return end;
}

bool deltaSize(const QByteArray &delta, qsizetype &at, quint64 &size)
{
    size = 0;
    for (int shift = 0; at < delta.size() && shift < 64; shift += 7) {
        const quint8 c = quint8(delta.at(at++));
        size |= quint64(c & 0x7f) << shift;
        if (!(c & 0x80))
            return true;
    }
    return false;
}

// git's delta format, applied here apart from libgit2.
bool applyDelta(const QByteArray &base, const QByteArray &delta, QByteArray &out)
{
    qsizetype at = 0;
    quint64 baseSize = 0;
    quint64 resultSize = 0;
    if (!deltaSize(delta, at, baseSize) || !deltaSize(delta, at, resultSize)
        || baseSize != quint64(base.size()) || resultSize > quint64(MaxMade))
        return false;
    out.clear();
    while (at < delta.size()) {
        const quint8 op = quint8(delta.at(at++));
        if (op & 0x80) {
            quint64 offset = 0;
            quint64 size = 0;
            for (int i = 0; i < 7; ++i) {
                if (!(op & (1 << i)))
                    continue;
                if (at >= delta.size())
                    return false;
                const quint64 byte = quint8(delta.at(at++));
                if (i < 4)
                    offset |= byte << (8 * i);
                else
                    size |= byte << (8 * (i - 4));
            }
            if (size == 0)
                size = 0x10000;
            if (offset + size > quint64(base.size())
                || out.size() + qint64(size) > qint64(resultSize))
                return false;
            out.append(base.constData() + offset, qsizetype(size));
        } else if (op) {
            if (at + op > delta.size() || out.size() + op > qint64(resultSize))
                return false;
            out.append(delta.constData() + at, op);
            at += op;
        } else {
            return false;
        }
    }
    return out.size() == qint64(resultSize);
}

QByteArray sha1(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha1);
}

// The entries of `pack` as far as they can be read.
QList<Entry> scan(const QByteArray &pack)
{
    QList<Entry> entries;
    if (pack.size() < 32 || !pack.startsWith("PACK"))
        return entries;
    const qint64 limit = pack.size() - 20;
    qint64 at = 12;
    while (at < limit && entries.size() < MaxEntries) {
        Entry e;
        e.offset = at;
        quint8 c = quint8(pack.at(at++));
        e.type = (c >> 4) & 7;
        e.size = c & 15;
        for (int shift = 4; c & 0x80; shift += 7) {
            if (at >= limit || shift > 57)
                return entries;
            c = quint8(pack.at(at++));
            e.size |= quint64(c & 0x7f) << shift;
        }
        if (e.type == 6) {
            if (at >= limit)
                return entries;
            c = quint8(pack.at(at++));
            quint64 distance = c & 0x7f;
            while (c & 0x80) {
                if (at >= limit || distance >> 50)
                    return entries;
                c = quint8(pack.at(at++));
                distance = ((distance + 1) << 7) | (c & 0x7f);
            }
            e.baseOffset = e.offset - qint64(distance);
        } else if (e.type == 7) {
            if (at + 20 > limit)
                return entries;
            e.baseId = pack.mid(at, 20);
            at += 20;
        }
        const qint64 end = inflateAt(pack, at, limit, e.data);
        if (end < 0)
            return entries;
        e.whole = quint64(e.data.size()) == e.size;
        e.end = at = end;
        entries.append(e);
    }
    return entries;
}

// Gives each entry its id: the hash of the object it makes, else one made up.
void resolve(QList<Entry> &entries)
{
    QMap<qint64, qsizetype> byOffset;
    for (qsizetype i = 0; i < entries.size(); ++i)
        byOffset.insert(entries[i].offset, i);
    for (int pass = 0; pass < MaxChain; ++pass) {
        bool progress = false;
        for (Entry &e : entries) {
            if (e.resolved || !e.whole)
                continue;
            if (e.type >= 1 && e.type <= 4) {
                e.madeType = e.type;
                e.made = e.data;
            } else if (e.type == 6 || e.type == 7) {
                const Entry *base = nullptr;
                for (const Entry &b : entries) {
                    if (b.resolved && (e.type == 6 ? b.offset == e.baseOffset : b.id == e.baseId)) {
                        base = &b;
                        break;
                    }
                }
                QByteArray made;
                if (!base || !applyDelta(base->made, e.data, made))
                    continue;
                e.madeType = base->madeType;
                e.made = made;
            } else {
                continue;
            }
            e.id = sha1(QByteArray(TypeNames[e.madeType]) + ' ' + QByteArray::number(e.made.size())
                        + '\0' + e.made);
            e.resolved = progress = true;
        }
        if (!progress)
            break;
    }
    for (Entry &e : entries) {
        if (!e.resolved)
            e.id = sha1("an entry that makes nothing, at " + QByteArray::number(e.offset));
    }
}

void appendBig32(QByteArray &out, quint32 value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.append(char((value >> shift) & 0xff));
}

QByteArray makeIndex(const QByteArray &pack, QList<Entry> entries, bool trueChecksum)
{
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return a.id < b.id;
    });
    entries.erase(std::unique(entries.begin(),
                              entries.end(),
                              [](const Entry &a, const Entry &b) { return a.id == b.id; }),
                  entries.end());
    QByteArray index("\xfftOc");
    appendBig32(index, 2);
    for (int byte = 0; byte < 256; ++byte) {
        quint32 count = 0;
        for (const Entry &e : entries)
            count += quint8(e.id.at(0)) <= byte ? 1 : 0;
        appendBig32(index, count);
    }
    for (const Entry &e : entries)
        index += e.id;
    for (const Entry &e : entries) {
        const QByteArray raw = pack.mid(e.offset, e.end - e.offset);
        appendBig32(index,
                    quint32(crc32(0,
                                  reinterpret_cast<const Bytef *>(raw.constData()),
                                  uInt(raw.size()))));
    }
    for (const Entry &e : entries)
        appendBig32(index, quint32(e.offset));
    index += trueChecksum ? sha1(pack.first(pack.size() - 20)) : pack.last(20);
    index += sha1(index);
    return index;
}

// The ids an index lists (raw), read as git would, for the ones to ask for.
QList<QByteArray> listedIds(const QByteArray &index)
{
    QList<QByteArray> ids;
    if (index.size() < 8 + 1024 + 40 || !index.startsWith("\xfftOc"))
        return ids;
    const auto *u = reinterpret_cast<const uchar *>(index.constData()) + 8 + 1020;
    const qint64 count = (qint64(u[0]) << 24) | (qint64(u[1]) << 16) | (qint64(u[2]) << 8) | u[3];
    for (qint64 i = 0; i < count && i < MaxEntries && 8 + 1024 + 20 * (i + 1) <= index.size(); ++i)
        ids.append(index.mid(8 + 1024 + 20 * i, 20));
    return ids;
}

void ask(git_odb *odb, const QByteArray &raw)
{
    git_oid id;
    git_oid_fromraw(&id, reinterpret_cast<const unsigned char *>(raw.constData()));
    const QByteArray hex = raw.toHex();
    auto said = [&hex](const char *what) {
        const git_error *error = git_error_last();
        const QByteArray text = error && error->message ? QByteArray(error->message) : QByteArray();
        if (text.isEmpty() || !(text.contains(hex) || text.contains("pack"))) {
            std::fprintf(stderr, "asked for %s: \"%s\"\n", hex.constData(), text.constData());
            fuzz::fail(what);
        }
    };
    git_error_clear();
    git_odb_object *object = nullptr;
    if (git_odb_read(&object, odb, &id) != 0) {
        said("a failed read is a sentence naming the object or the pack");
    } else {
        const size_t size = git_odb_object_size(object);
        fuzz::require(qint64(size) <= git::MaxObjectSize, "no object larger than the cap is read");
        git_oid actual;
        fuzz::require(git_odb_hash(&actual,
                                   git_odb_object_data(object),
                                   size,
                                   git_odb_object_type(object))
                              == 0
                          && git_oid_equal(&actual, &id),
                      "an object read hashes to its id");
        size_t headerSize = 0;
        git_object_t headerType = GIT_OBJECT_INVALID;
        git_error_clear();
        if (git_odb_read_header(&headerSize, &headerType, odb, &id) == 0) {
            fuzz::require(headerSize == size && headerType == git_odb_object_type(object),
                          "the header of an object read agrees with it");
        } else {
            said("a failed header is a sentence naming the object or the pack");
        }
        git_odb_object_free(object);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int init = git_libgit2_init();
    (void) init;
    if (size < 1)
        return 0;
    const quint8 flags = data[0];
    QByteArray rest(reinterpret_cast<const char *>(data) + 1, qsizetype(size) - 1);
    QByteArray index;
    QByteArray pack;
    if (flags & 1) {
        if (rest.size() < 2)
            return 0;
        const qsizetype length = quint8(rest.at(0)) | (qsizetype(quint8(rest.at(1))) << 8);
        index = rest.mid(2, length);
        pack = rest.mid(2 + length);
        if (index.size() >= 20) {
            index.chop(20);
            index += sha1(index);
        }
    } else {
        pack = rest;
        if (pack.size() < 32)
            return 0;
        QList<Entry> entries = scan(pack);
        resolve(entries);
        index = makeIndex(pack, entries, (flags & 2) != 0);
    }

    const QString root = fuzz::scratchDir() + QStringLiteral("/repo");
    QDir(root).removeRecursively();
    const QString git = root + QStringLiteral("/.git");
    QDir().mkpath(git + QStringLiteral("/refs/heads"));
    QDir().mkpath(git + QStringLiteral("/objects/pack"));
    fuzz::writeFile(git + QStringLiteral("/HEAD"), "ref: refs/heads/main\n");
    fuzz::writeFile(git + QStringLiteral("/config"),
                    "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
    const QString name = git + QStringLiteral("/objects/pack/pack-")
                         + QString::fromLatin1(sha1(pack).toHex());
    if (!fuzz::writeFile(name + QStringLiteral(".pack"), pack)
        || !fuzz::writeFile(name + QStringLiteral(".idx"), index))
        fuzz::fail("cannot write the repository");

    git_repository *repo = nullptr;
    if (git_repository_open(&repo, QFile::encodeName(root).constData()) != 0)
        fuzz::fail("cannot open the scratch repository");
    const QString installed = git::installGuardedObjectDatabase(repo);
    git_odb *odb = nullptr;
    if (installed.isEmpty() && git_repository_odb(&odb, repo) == 0) {
        QList<QByteArray> ids = listedIds(index);
        QByteArray absent(20, '\x5a');
        if (!ids.isEmpty()) {
            absent = ids.first();
            absent[19] = char(absent.at(19) ^ 1);
        }
        ids.append(absent);
        for (const QByteArray &id : std::as_const(ids)) {
            // libgit2 refuses the null id itself, before any reader sees it
            // ("null OID cannot exist"); callers name the object then.
            if (id != QByteArray(20, '\0'))
                ask(odb, id);
        }
        git_odb_free(odb);
    } else {
        fuzz::require(!installed.isEmpty(), "a failure to read the object store says why");
    }
    git_repository_free(repo);
    return 0;
}
