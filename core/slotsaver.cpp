#include "slotsaver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

// Far above any real chain; Linux itself gives up at 40.
constexpr int MaxLinkDepth = 64;

QString systemError(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a folder");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("a device");
    return QStringLiteral("not a regular file");
}

// Where the bytes of `path` really go: the end of its chain of symbolic
// links, which may not exist yet (a dangling link is saved by creating its
// target). Empty with `error` set for a loop.
QString finalPath(const QString &path, QString *error)
{
    QString current = path;
    for (int depth = 0; depth < MaxLinkDepth; ++depth) {
        const QFileInfo info(current);
        if (!info.isSymLink())
            return current;
        // symLinkTarget() resolves a relative target against the link's folder.
        current = info.symLinkTarget();
    }
    *error = QStringLiteral("Cannot save %1: it is a loop of symbolic links. Point the link at "
                            "a file, or remove it.")
                 .arg(path);
    return {};
}

// A write() that stops short (disk full, file size limit) is no error to
// QSaveFile (Qt 6.4): it returns the shorter count, keeps error() at NoError,
// and commit() would then succeed with a cut file. The cause is only in the
// errno of the failed system call.
QString writeFailure(const QSaveFile &file, int error)
{
    if (file.error() == QFileDevice::NoError)
        return error != 0 ? systemError(error) : QStringLiteral("the write stopped short");
    return file.errorString();
}

} // namespace

Status saveSlotFile(const QString &path, QByteArrayView bytes)
{
    // QSaveFile (Qt 6.4) follows links by itself, but treats a loop as a plain
    // file and would replace the link; resolving here also lets the messages
    // name the real target.
    QString error;
    const QString target = finalPath(path, &error);
    if (target.isEmpty())
        return Status::failure(error);
    const QString named = target == path ? path
                                         : QStringLiteral("%1 (a link to %2)").arg(path, target);

    const QByteArray nativeTarget = QFile::encodeName(target);
    struct stat info
    {};
    const int statError = ::stat(nativeTarget.constData(), &info) == 0 ? 0 : errno;
    if (statError == 0) {
        if (!S_ISREG(info.st_mode)) {
            return Status::failure(QStringLiteral("Cannot save %1: it is %2. Move it away to "
                                                  "save the slot as a file.")
                                       .arg(named, kindOf(info.st_mode)));
        }
        // The rename would replace a read-only file as long as the folder is
        // writable; its mode says the owner does not want it changed.
        if (::access(nativeTarget.constData(), W_OK) != 0) {
            return Status::failure(QStringLiteral("Cannot save %1: the file is read-only. Make it "
                                                  "writable, then save again.")
                                       .arg(named));
        }
    } else if (statError != ENOENT) {
        return Status::failure(QStringLiteral("Cannot save %1: %2. Check that its folder exists "
                                              "and that you may write to it.")
                                   .arg(named, systemError(statError)));
    } else if (!QFileInfo(QFileInfo(target).absolutePath()).isDir()) {
        return Status::failure(
            QStringLiteral("Cannot save %1: the folder %2 does not exist. "
                           "Create it, or choose another folder.")
                .arg(named, QDir::toNativeSeparators(QFileInfo(target).absolutePath())));
    }

    // QSaveFile writes a temporary file beside the target and renames it over
    // the target on commit(), copying the old file's permissions; a new file
    // gets 0666 less the umask.
    QSaveFile file(target);
    if (!file.open(QIODevice::WriteOnly)) {
        return Status::failure(QStringLiteral("Cannot save %1: %2. Check that you may write to "
                                              "its folder; the file on disk is unchanged.")
                                   .arg(named, file.errorString()));
    }
    errno = 0;
    const qint64 written = file.write(bytes.data(), bytes.size());
    const int writeError = errno;
    if (written != bytes.size()) {
        const QString why = writeFailure(file, writeError);
        file.cancelWriting();
        return Status::failure(QStringLiteral("Cannot save %1: %2. Free some space and save "
                                              "again; the file on disk is unchanged.")
                                   .arg(named, why));
    }
    errno = 0;
    if (!file.commit()) {
        const int commitError = errno;
        return Status::failure(QStringLiteral("Cannot save %1: %2. Free some space or check the "
                                              "folder's permissions, then save again; the file "
                                              "on disk is unchanged.")
                                   .arg(named, writeFailure(file, commitError)));
    }
    return {};
}

} // namespace soul
