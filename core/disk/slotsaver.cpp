#include "slotsaver.h"

#include "atomicwrite.h"
#include "slotreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace soul {

Status saveSlotFile(const QString &path, QByteArrayView bytes, Overwrite overwrite)
{
    // Resolved here so that a loop fails instead of being replaced by a
    // file, and so that the messages name the real target. A file that must
    // not be replaced is its own path: a link there is a file that is there.
    QString error;
    const QString target = overwrite == Overwrite::Never ? path : resolveLinks(path, &error);
    if (target.isEmpty())
        return Status::failure(QStringLiteral("Cannot save %1: %2").arg(path, error));
    const QString named = target == path ? path
                                         : QStringLiteral("%1 (a link to %2)").arg(path, target);

    const QByteArray nativeTarget = QFile::encodeName(target);
    struct stat info
    {};
    const int statError = ::stat(nativeTarget.constData(), &info) == 0 ? 0 : errno;
    // A file that must not be replaced is refused by replaceFile() below,
    // in the words of the refusal at the rename.
    if (statError == 0 && overwrite == Overwrite::Allowed) {
        if (!S_ISREG(info.st_mode)) {
            return Status::failure(QStringLiteral("Cannot save %1: it is %2. Move it away to "
                                                  "save the slot as a file.")
                                       .arg(named, fileKindText(info.st_mode)));
        }
        // The rename would replace a read-only file as long as the folder is
        // writable; its mode says the owner does not want it changed. On a
        // read-only file system access() says EROFS, and the cure differs.
        if (::access(nativeTarget.constData(), W_OK) != 0) {
            if (errno == EROFS) {
                return Status::failure(QStringLiteral("Cannot save %1: the file system is "
                                                      "read-only. Mount it read-write, or save to "
                                                      "another place; the file on disk is "
                                                      "unchanged.")
                                           .arg(named));
            }
            return Status::failure(QStringLiteral("Cannot save %1: the file is read-only. Make it "
                                                  "writable, then save again.")
                                       .arg(named));
        }
    } else if (statError != 0 && statError != ENOENT) {
        return Status::failure(QStringLiteral("Cannot save %1: %2. Check that its folder exists "
                                              "and that you may write to it.")
                                   .arg(named, systemErrorText(statError)));
    } else if (statError == ENOENT && !QFileInfo(QFileInfo(target).absolutePath()).isDir()) {
        return Status::failure(
            QStringLiteral("Cannot save %1: the folder %2 does not exist. "
                           "Create it, or choose another folder.")
                .arg(named, QDir::toNativeSeparators(QFileInfo(target).absolutePath())));
    }

    const WriteOutcome outcome = replaceFile(target, bytes, overwrite);
    if (!outcome.ok()) {
        return Status::failure(QStringLiteral("Cannot save %1: %2%3.")
                                   .arg(named,
                                        writeFailureText(outcome),
                                        outcome.keptBackup.isEmpty()
                                            ? QStringLiteral("; the file on disk is unchanged")
                                            : QString()));
    }
    return Status::withWarning(writeWarningText(named, outcome));
}

} // namespace soul
