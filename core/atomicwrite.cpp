#include "atomicwrite.h"

#include <QSaveFile>

namespace soul {

Status writeFileAtomically(const QString &path, QByteArrayView bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return Status::failure(QStringLiteral("Cannot write %1: %2. Choose another place or fix "
                                              "the folder's permissions.")
                                   .arg(path, file.errorString()));
    }
    if (file.write(bytes.data(), bytes.size()) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return Status::failure(QStringLiteral("Cannot write %1: %2. Free some space and try "
                                              "again; the old file is unchanged.")
                                   .arg(path, why));
    }
    if (!file.commit()) {
        return Status::failure(QStringLiteral("Cannot write %1: %2. The old file is unchanged.")
                                   .arg(path, file.errorString()));
    }
    return {};
}

} // namespace soul
