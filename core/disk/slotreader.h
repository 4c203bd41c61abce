#pragma once

#include "compose/contract.h"

#include <QByteArray>
#include <QString>

#include <sys/types.h>

// Reading one slot of a persona directory from disk. Presence follows the
// contract: after following symbolic links the path must be a regular file
// that opens and reads; anything else is absent. Reading never blocks on a
// FIFO and never reads more than it is asked to keep (plus, when hashing, a
// streaming pass over the rest in fixed-size chunks).
namespace soul {

// A slot over this size opens read-only and is never read whole: only the
// first ComposeRule::readLimit() bytes, which are all the agent can get, are
// kept, and the watcher does not digest it whole either.
inline constexpr qint64 WholeReadLimitBytes = qint64(64) * 1024 * 1024;

enum class SlotPresence {
    Present,
    Missing,        // no such path
    DanglingLink,   // a symbolic link whose target does not exist
    Directory,      // a directory named like the slot
    NotRegularFile, // a FIFO, socket or device
    Unreadable,     // exists but cannot be opened or read
};

struct SlotRead
{
    int slot = -1;
    QString path;
    SlotPresence presence = SlotPresence::Missing;
    bool isSymlink = false;
    QString errorText;     // the system's words for an Unreadable slot
    QString kindText;      // "a FIFO", "a socket", ... for a NotRegularFile slot
    qint64 size = -1;      // bytes on disk, once present
    QByteArray bytes;      // the first `limit` bytes
    bool complete = false; // `bytes` hold the whole file
    QByteArray sha256;     // hex digest of the whole file, when asked for
    // fstat() of the file read, taken before reading: a later stat() that
    // matches says the file is still what was read (DirectoryWatcher takes
    // its baseline from it instead of reading the file again).
    quint64 device = 0;
    quint64 inode = 0;
    qint64 statSize = -1;
    qint64 mtimeNs = 0;
    qint64 ctimeNs = 0;
};

// What a read keeps. The limit has no default: it is a rule's readLimit(), or
// 0 to keep nothing (a digest only), or a caller's own bound, always said.
struct ReadOptions
{
    explicit ReadOptions(qint64 keep)
        : limit(keep)
    {}

    qint64 limit;        // keep at most this many bytes
    bool sha256 = false; // also digest the whole file (streamed)
};

QString slotPath(const QString &dir, int slot);

SlotRead readSlot(const QString &dir, int slot, qint64 limit);
SlotRead readSlot(const QString &dir, int slot, const ReadOptions &options);
// The same for any path (used for files beside the slots, and by tests).
SlotRead readPath(const QString &path, const ReadOptions &options);

// As above, reading into `buffer`'s memory: a caller reading slot after slot
// moves the previous result's `bytes` back in, so one allocation serves them
// all instead of fresh pages for every file. The memory comes back in `bytes`
// whatever the presence (empty, but still allocated, for an absent slot), so
// the caller can always move it back in for the next read.
SlotRead readSlot(const QString &dir, int slot, const ReadOptions &options, QByteArray &&buffer);
SlotRead readPath(const QString &path, const ReadOptions &options, QByteArray &&buffer);

// absenceReason() of a symbolic link that leads back to itself.
inline constexpr char LinkLoopReason[] = "is a loop of symbolic links";

// Why an absent slot is absent, as a phrase: "is a directory",
// "is a dangling symbolic link", "is a FIFO", "cannot be read (Permission
// denied)". Empty for Present and Missing.
QString absenceReason(const SlotRead &read);

// What stat() says a path is when it is not a regular file: "a folder", "a FIFO",
// "a socket", "a character device", "a block device".
QString fileKindText(mode_t mode);

// The system's words for an errno value: "Permission denied".
QString systemErrorText(int error);

} // namespace soul
