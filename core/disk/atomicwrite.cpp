#include "atomicwrite.h"

#include "slotreader.h"

#include <QSaveFile>

#include <cerrno>

namespace soul {

namespace {

// A write() that stops short (disk full, file size limit) is no error to
// QSaveFile (Qt 6.4): it returns the shorter count, keeps error() at NoError,
// and commit() would then succeed with a cut file. The cause is only in the
// errno of the failed system call.
QString failure(const QSaveFile &file, int error)
{
    if (file.error() == QFileDevice::NoError)
        return error != 0 ? systemErrorText(error) : QStringLiteral("the write stopped short");
    return file.errorString();
}

} // namespace

QString writeAndCommit(QSaveFile &file, QByteArrayView bytes)
{
    errno = 0;
    const qint64 written = file.write(bytes.data(), bytes.size());
    const int writeError = errno;
    if (written != bytes.size()) {
        const QString why = failure(file, writeError);
        file.cancelWriting();
        return why;
    }
    errno = 0;
    if (!file.commit())
        return failure(file, errno);
    return {};
}

Status writeFileAtomically(const QString &path, QByteArrayView bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return Status::failure(QStringLiteral("Cannot write %1: %2. Choose another place or fix "
                                              "the folder's permissions.")
                                   .arg(path, file.errorString()));
    }
    if (const QString why = writeAndCommit(file, bytes); !why.isEmpty()) {
        return Status::failure(QStringLiteral("Cannot write %1: %2. Free some space or check the "
                                              "folder's permissions, then try again; any old "
                                              "file there is unchanged.")
                                   .arg(path, why));
    }
    return {};
}

} // namespace soul
