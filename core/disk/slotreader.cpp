#include "slotreader.h"

#include "disk/filedescriptor.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

constexpr qint64 ChunkBytes = 1 << 20;

// Sets the presence of a path that stat() says is not a regular file, and
// returns true; returns false for a regular file.
bool rejectNonRegular(SlotRead &read, mode_t mode)
{
    if (S_ISREG(mode))
        return false;
    if (S_ISDIR(mode)) {
        read.presence = SlotPresence::Directory;
    } else {
        read.presence = SlotPresence::NotRegularFile;
        read.kindText = fileKindText(mode);
    }
    return true;
}

// read() that retries on EINTR; returns -1 with errno set on failure.
ssize_t readSome(int fd, char *buffer, size_t size)
{
    for (;;) {
        const ssize_t n = ::read(fd, buffer, size);
        if (n >= 0 || errno != EINTR)
            return n;
    }
}

} // namespace

QString slotPath(const QString &dir, int slot)
{
    return QDir(dir).filePath(slotName(slot));
}

SlotRead readSlot(const QString &dir, int slot, qint64 limit)
{
    return readSlot(dir, slot, ReadOptions(limit));
}

SlotRead readSlot(const QString &dir, int slot, const ReadOptions &options)
{
    SlotRead read = readPath(slotPath(dir, slot), options);
    read.slot = slot;
    return read;
}

SlotRead readSlot(const QString &dir, int slot, const ReadOptions &options, QByteArray &&buffer)
{
    SlotRead read = readPath(slotPath(dir, slot), options, std::move(buffer));
    read.slot = slot;
    return read;
}

SlotRead readPath(const QString &path, const ReadOptions &options)
{
    return readPath(path, options, QByteArray());
}

SlotRead readPath(const QString &path, const ReadOptions &options, QByteArray &&buffer)
{
    SlotRead read;
    read.path = path;
    // Taken at once, so the memory goes back to the caller on every path.
    read.bytes = std::move(buffer);
    read.bytes.resize(0);
    const QByteArray nativePath = QFile::encodeName(path);

    struct stat linkInfo
    {};
    if (::lstat(nativePath.constData(), &linkInfo) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            read.presence = SlotPresence::Missing;
        } else {
            read.presence = SlotPresence::Unreadable;
            read.errorText = systemErrorText(errno);
        }
        return read;
    }
    read.isSymlink = S_ISLNK(linkInfo.st_mode);

    // stat() first, so a FIFO or device is never opened at all.
    struct stat info
    {};
    if (::stat(nativePath.constData(), &info) != 0) {
        if (read.isSymlink && (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)) {
            read.presence = SlotPresence::DanglingLink;
            if (errno == ELOOP)
                read.errorText = systemErrorText(errno);
        } else {
            read.presence = SlotPresence::Unreadable;
            read.errorText = systemErrorText(errno);
        }
        return read;
    }
    if (rejectNonRegular(read, info.st_mode))
        return read;

    // O_NONBLOCK: should the path have become a FIFO since stat(), opening it
    // still returns at once, and fstat() below rejects it.
    const FileDescriptor fd(::open(nativePath.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) {
        read.presence = SlotPresence::Unreadable;
        read.errorText = systemErrorText(errno);
        return read;
    }
    if (::fstat(fd.get(), &info) != 0) {
        read.presence = SlotPresence::Unreadable;
        read.errorText = systemErrorText(errno);
        return read;
    }
    if (rejectNonRegular(read, info.st_mode))
        return read;
    read.size = info.st_size;
    read.device = quint64(info.st_dev);
    read.inode = quint64(info.st_ino);
    read.statSize = qint64(info.st_size);
    read.mtimeNs = qint64(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
    read.ctimeNs = qint64(info.st_ctim.tv_sec) * 1000000000 + info.st_ctim.tv_nsec;

    // Keep at most `limit` bytes. The size from fstat() is only a hint: the
    // file may grow or shrink while we read.
    const qint64 keep = qMax<qint64>(0, options.limit);
    const qint64 expected = qMin<qint64>(keep, info.st_size);
    read.bytes.resize(expected);
    qint64 got = 0;
    std::unique_ptr<QCryptographicHash> hash;
    if (options.sha256)
        hash = std::make_unique<QCryptographicHash>(QCryptographicHash::Sha256);
    bool eof = false;
    while (got < keep) {
        if (got == read.bytes.size())
            read.bytes.resize(qMin<qint64>(keep, got + ChunkBytes));
        const ssize_t n = readSome(fd.get(),
                                   read.bytes.data() + got,
                                   static_cast<size_t>(read.bytes.size() - got));
        if (n < 0) {
            read.presence = SlotPresence::Unreadable;
            read.errorText = systemErrorText(errno);
            read.bytes.resize(0);
            return read;
        }
        if (n == 0) {
            eof = true;
            break;
        }
        got += n;
    }
    read.bytes.resize(got);
    if (hash)
        hash->addData(read.bytes);

    if (!eof && hash) {
        QByteArray chunk(ChunkBytes, Qt::Uninitialized);
        for (;;) {
            const ssize_t n = readSome(fd.get(), chunk.data(), static_cast<size_t>(chunk.size()));
            if (n < 0) {
                read.presence = SlotPresence::Unreadable;
                read.errorText = systemErrorText(errno);
                read.bytes.resize(0);
                return read;
            }
            if (n == 0)
                break;
            hash->addData(QByteArrayView(chunk.constData(), n));
            got += n;
        }
        eof = true;
    } else if (!eof) {
        // Find out whether anything follows, without reading it all.
        char probe = 0;
        const ssize_t n = readSome(fd.get(), &probe, 1);
        eof = (n == 0);
        // The size from fstat() is only a hint (0 for a /proc file, stale for
        // a file that grew): more follows, so there are at least got + 1.
        if (n > 0)
            read.size = qMax<qint64>(read.size, got + 1);
    }
    read.complete = eof && got == read.bytes.size();
    if (hash) {
        read.sha256 = hash->result().toHex();
        // The digest covers what was read; report that size, not a stale hint.
        read.size = got;
    } else if (read.complete) {
        read.size = got;
    }
    read.presence = SlotPresence::Present;
    return read;
}

QString absenceReason(const SlotRead &read)
{
    switch (read.presence) {
    case SlotPresence::Present:
    case SlotPresence::Missing:
        return {};
    case SlotPresence::DanglingLink:
        return read.errorText.isEmpty() ? QStringLiteral("is a dangling symbolic link")
                                        : QString::fromLatin1(LinkLoopReason);
    case SlotPresence::Directory:
        return QStringLiteral("is a directory");
    case SlotPresence::NotRegularFile:
        return QStringLiteral("is %1, not a regular file").arg(read.kindText);
    case SlotPresence::Unreadable:
        return QStringLiteral("cannot be read (%1)").arg(read.errorText);
    }
    return {};
}

QString fileKindText(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    return QStringLiteral("not a regular file");
}

QString systemErrorText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

} // namespace soul
