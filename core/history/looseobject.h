#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>

// Reading one loose object of a git repository (objects/xx/yyyy...), checked
// before anything trusts it. A loose object is a zlib stream of "TYPE SIZE\0"
// and SIZE bytes. libgit2 1.5 trusts the header: a SIZE smaller than the body
// corrupts its heap, and a cut stream makes it spin in its inflate loop. Here
// the stream is inflated with its output bounded by SIZE, so a damaged object
// is refused, in time proportional to its file, with a sentence saying what is
// wrong with it. No libgit2 type appears here, so the reader can be fuzzed on
// bytes alone.
namespace soul::git {

enum class LooseType { CommitObject, TreeObject, BlobObject, TagObject };

struct LooseObject
{
    LooseType type = LooseType::BlobObject;
    qint64 size = 0;  // as the header declares it, and (unless headerOnly) as inflated
    QByteArray bytes; // the content; empty when only the header was read
};

struct LooseResult
{
    bool ok = false;
    LooseObject object;
    QString problem; // why the object cannot be read: "its stream is cut short", ...
    // The object may be sound, but it is larger than MaxObjectSize: not read,
    // and not to be called damaged.
    bool tooLarge = false;
};

// The largest object, loose or packed, that is read: larger ones are refused
// before anything is allocated for them. The slot files are capped at 2 MiB;
// trees and commits of any real repository are far smaller.
inline constexpr qint64 MaxObjectSize = qint64(1) << 30;

// Gives the next bytes of the object's file into `buffer` (at most
// `capacity`), 0 at its end, -1 on a read error.
using ChunkReader = std::function<qint64(char *buffer, qint64 capacity)>;

// Inflates a loose object from `read`. With `headerOnly`, stops after the
// header. Refused: a stream that is not zlib, is cut short or damaged; a
// header that is not "commit", "tree", "blob" or "tag", a space, a decimal
// size and a NUL within its first 64 bytes; a body longer or shorter than
// the header declares. Bytes after the end of the zlib stream are ignored,
// as git does.
// A header declaring more than `fileBound` bytes (what its file could hold
// compressed) is damaged; one declaring more than MaxObjectSize is too large
// (`tooLarge`). Both are refused before anything is allocated for them.
LooseResult inflateLooseObject(const ChunkReader &read,
                               bool headerOnly = false,
                               qint64 fileBound = MaxObjectSize);

// What a file of `fileSize` bytes can inflate to at most: deflate makes at
// most about 1,032 bytes of one, and a header of up to 64 comes first.
qint64 inflatedBound(qint64 fileSize);

// The same over bytes in memory.
LooseResult inflateLooseObject(QByteArrayView file, bool headerOnly = false);

// Why an object of `size` bytes is not read: "it is N bytes, more than ...".
QString tooLargeText(qint64 size);

// "blob", "tree", ...
const char *looseTypeName(LooseType type);

} // namespace soul::git
