#include "slotsaver.h"

#include "atomicwrite.h"
#include "slotreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

// Far above any real chain; Linux itself gives up at 40.
constexpr int MaxLinkDepth = 64;

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
                                       .arg(named, fileKindText(info.st_mode)));
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
                                   .arg(named, systemErrorText(statError)));
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
    if (const QString why = writeAndCommit(file, bytes); !why.isEmpty()) {
        return Status::failure(QStringLiteral("Cannot save %1: %2. Free some space or check the "
                                              "folder's permissions, then save again; the file "
                                              "on disk is unchanged.")
                                   .arg(named, why));
    }
    return {};
}

} // namespace soul
