#include "atomicwrite.h"

#include "fileio.h"
#include "slotreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

// Far above any real chain; Linux itself gives up at 40.
constexpr int MaxLinkDepth = 64;
// Enough tries to find a free hidden name among leftovers of other programs.
constexpr int NameAttempts = 100;

QByteArray native(const QString &path)
{
    return QFile::encodeName(path);
}

WriteOutcome failed(int error, const QString &step)
{
    WriteOutcome outcome;
    // A call that failed without saying why still failed.
    outcome.error = error != 0 ? error : EIO;
    outcome.step = step;
    return outcome;
}

// write() until every byte is out. A short count is not an error by itself
// (a signal, a pipe), so the rest is written again, and the call after it
// says why the disk took no more.
int writeAll(int fd, QByteArrayView bytes)
{
    const char *data = bytes.data();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t written = fileio::write(fd, data, size_t(left));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (written == 0)
            return ENOSPC; // no progress and no error: nothing more fits
        data += written;
        left -= written;
    }
    return 0;
}

// A new hidden file beside `path`, opened for writing; its name in `created`.
int createBeside(const QString &path, const char *suffix, mode_t mode, QString *created, int *error)
{
    const QFileInfo info(path);
    for (int attempt = 0; attempt < NameAttempts; ++attempt) {
        const QString name
            = QStringLiteral(".%1.%2.%3")
                  .arg(info.fileName())
                  .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'))
                  .arg(QLatin1String(suffix));
        const QString candidate = info.dir().filePath(name);
        const int fd = fileio::open(native(candidate).constData(),
                                    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                                    mode);
        if (fd >= 0) {
            *created = candidate;
            return fd;
        }
        if (errno != EEXIST) {
            *error = errno;
            return -1;
        }
    }
    *error = EEXIST;
    return -1;
}

// Writes `bytes` over the open file `fd` from its start, cuts it to their
// size and syncs it; closes `fd` in every case. 0 or the errno, with `step`.
int overwrite(int fd, QByteArrayView bytes, QString *step)
{
    int error = writeAll(fd, bytes);
    if (error != 0) {
        *step = QStringLiteral("writing it");
    } else if (fileio::ftruncate(fd, off_t(bytes.size())) != 0) {
        error = errno;
        *step = QStringLiteral("setting its size");
    } else if (fileio::fsync(fd) != 0) {
        error = errno;
        *step = QStringLiteral("flushing it to the disk");
    }
    if (fileio::close(fd) != 0 && error == 0) {
        error = errno;
        *step = QStringLiteral("closing it");
    }
    return error;
}

WriteOutcome replaceThroughTemporary(const QString &path,
                                     QByteArrayView bytes,
                                     const struct stat *old,
                                     Overwrite overwrite)
{
    QString temporary;
    int error = 0;
    // A new file gets 0666 less the umask, as any editor's; an existing one
    // keeps its mode, set below, so the temporary starts private.
    const int fd = createBeside(path, "tmp", old ? 0600 : 0666, &temporary, &error);
    if (fd < 0)
        return failed(error, QStringLiteral("creating a temporary file beside it"));
    if (old) {
        // Best effort, as QSaveFile: a file system without modes (FAT)
        // refuses, and only root may give a file to another owner.
        if (old->st_uid != ::geteuid() || old->st_gid != ::getegid())
            (void) ::fchown(fd, old->st_uid, old->st_gid);
        (void) ::fchmod(fd, old->st_mode & 07777);
    }
    const QByteArray nativeTemporary = native(temporary);
    QString step;
    error = writeAll(fd, bytes);
    if (error != 0) {
        step = QStringLiteral("writing it");
    } else if (fileio::fsync(fd) != 0) {
        error = errno;
        step = QStringLiteral("flushing it to the disk");
    }
    if (fileio::close(fd) != 0 && error == 0) {
        error = errno;
        step = QStringLiteral("closing it");
    }
    if (error == 0) {
        const QByteArray nativePath = native(path);
        const int renamed = overwrite == Overwrite::Never
                                ? fileio::renameNoReplace(nativeTemporary.constData(),
                                                          nativePath.constData())
                                : fileio::rename(nativeTemporary.constData(),
                                                 nativePath.constData());
        if (renamed != 0) {
            error = errno;
            step = QStringLiteral("putting the new file in its place");
        }
    }
    if (error != 0) {
        ::unlink(nativeTemporary.constData());
        return failed(error, step);
    }
    // The new file is the file now, whatever comes next. Until its folder is
    // on the disk, a power cut can still bring the old one back (or none):
    // the save happened, but the user is told it is not known to be durable.
    WriteOutcome outcome;
    if (fileio::syncFolder(native(QFileInfo(path).absolutePath()).constData()) != 0)
        outcome.folderSyncError = errno != 0 ? errno : EIO;
    return outcome;
}

WriteOutcome replaceInPlace(const QString &path, QByteArrayView bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return failed(EACCES, QStringLiteral("reading its old text for a backup"));
    const QByteArray old = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return failed(EIO, QStringLiteral("reading its old text for a backup"));
    file.close();

    // The backup is on disk before the first byte of the file changes, so
    // even a crash halfway leaves the old text somewhere.
    QString backup;
    int error = 0;
    int fd = createBeside(path, "bak", 0600, &backup, &error);
    if (fd < 0)
        return failed(error, QStringLiteral("creating a backup copy beside it"));
    QString step;
    error = overwrite(fd, old, &step);
    if (error != 0) {
        ::unlink(native(backup).constData());
        return failed(error, step + QStringLiteral(" (its backup copy)"));
    }

    fd = fileio::open(native(path).constData(), O_WRONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        error = errno;
        ::unlink(native(backup).constData());
        return failed(error, QStringLiteral("opening it"));
    }
    error = overwrite(fd, bytes, &step);
    if (error == 0) {
        ::unlink(native(backup).constData());
        return {};
    }

    WriteOutcome outcome = failed(error, step);
    QString restoreStep;
    const int restoreFd = fileio::open(native(path).constData(), O_WRONLY | O_CLOEXEC, 0);
    if (restoreFd >= 0 && overwrite(restoreFd, old, &restoreStep) == 0)
        ::unlink(native(backup).constData());
    else
        outcome.keptBackup = backup;
    return outcome;
}

} // namespace

WriteOutcome replaceFile(const QString &path, QByteArrayView bytes, Overwrite overwrite)
{
    struct stat info
    {};
    if (overwrite == Overwrite::Never) {
        // lstat(): a link, even a dangling one, is something that is there.
        // The rename checks again; this only spares writing the bytes.
        if (::lstat(native(path).constData(), &info) == 0)
            return failed(EEXIST, QStringLiteral("creating it"));
        if (errno != ENOENT)
            return failed(errno, QStringLiteral("looking at it"));
        return replaceThroughTemporary(path, bytes, nullptr, overwrite);
    }
    if (::stat(native(path).constData(), &info) != 0) {
        if (errno != ENOENT)
            return failed(errno, QStringLiteral("looking at it"));
        return replaceThroughTemporary(path, bytes, nullptr, overwrite);
    }
    if (!S_ISREG(info.st_mode))
        return failed(S_ISDIR(info.st_mode) ? EISDIR : EINVAL, QStringLiteral("looking at it"));
    if (info.st_nlink > 1)
        return replaceInPlace(path, bytes);
    return replaceThroughTemporary(path, bytes, &info, overwrite);
}

QString writeErrorAdvice(int error)
{
    switch (error) {
    case EROFS:
        return QStringLiteral("The file system is read-only: mount it read-write, or save to "
                              "another place");
    case ENOSPC:
        return QStringLiteral("The disk is full: free some space on it, then try again");
    case EDQUOT:
        return QStringLiteral("Your disk quota is used up: free some space, then try again");
    case EIO:
        return QStringLiteral("The device failed to store the data: check the disk, or save to "
                              "another place");
    case EFBIG:
        return QStringLiteral("The file would be larger than this system allows: free some "
                              "space or raise the limit, then try again");
    case EACCES:
    case EPERM:
        return QStringLiteral("Check that you may write to the file and its folder");
    case ENOENT:
    case ENOTDIR:
        return QStringLiteral("Its folder was removed or renamed: put it back, or save to "
                              "another place");
    case EISDIR:
    case EINVAL:
        return QStringLiteral("Something other than a file is in its place: move it away");
    case EEXIST:
        return QStringLiteral("Another file has that name, and it was left as it is: choose "
                              "another name, or move that file away");
    case ENOTSUP:
        return QStringLiteral("This file system cannot add a file without the risk of "
                              "replacing one that appears meanwhile: save to another place");
    default:
        return QStringLiteral("Check the disk and the folder's permissions, then try again");
    }
}

QString writeFailureText(const WriteOutcome &outcome)
{
    QString text = QStringLiteral("%1 (while %2). %3")
                       .arg(systemErrorText(outcome.error),
                            outcome.step,
                            writeErrorAdvice(outcome.error));
    if (!outcome.keptBackup.isEmpty()) {
        text += QStringLiteral(". Its old text could not be put back and is kept in %1")
                    .arg(QDir::toNativeSeparators(outcome.keptBackup));
    }
    return text;
}

QString writeWarningText(const QString &shown, const WriteOutcome &outcome)
{
    if (!outcome.ok() || outcome.folderSyncError == 0)
        return {};
    return QStringLiteral("%1 was written, but the disk did not confirm it (%2, while flushing its "
                          "folder), so a power cut or a system crash could still undo that. %3.")
        .arg(QDir::toNativeSeparators(shown),
             systemErrorText(outcome.folderSyncError),
             writeErrorAdvice(outcome.folderSyncError));
}

QString resolveLinks(const QString &path, QString *error)
{
    QString current = path;
    for (int depth = 0; depth < MaxLinkDepth; ++depth) {
        const QFileInfo info(current);
        if (!info.isSymLink())
            return current;
        // symLinkTarget() resolves a relative target against the link's folder.
        current = info.symLinkTarget();
    }
    *error = QStringLiteral("it is a loop of symbolic links. Point the link at a file, or "
                            "remove it.");
    return {};
}

Status writeFileAtomically(const QString &path, QByteArrayView bytes, Overwrite overwrite)
{
    QString error;
    const QString target = overwrite == Overwrite::Never ? path : resolveLinks(path, &error);
    if (target.isEmpty())
        return Status::failure(QStringLiteral("Cannot write %1: %2").arg(path, error));
    const WriteOutcome outcome = replaceFile(target, bytes, overwrite);
    if (!outcome.ok()) {
        return Status::failure(QStringLiteral("Cannot write %1: %2%3.")
                                   .arg(QDir::toNativeSeparators(path),
                                        writeFailureText(outcome),
                                        outcome.keptBackup.isEmpty()
                                            ? QStringLiteral("; any old file there is unchanged")
                                            : QString()));
    }
    return Status::withWarning(writeWarningText(path, outcome));
}

} // namespace soul
