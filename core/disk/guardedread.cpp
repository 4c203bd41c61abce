#include "disk/guardedread.h"

#include "disk/slotreader.h"

namespace soul {

Result<QByteArray> readGuardedFile(const QString &path, const GuardedFile &file)
{
    const SlotRead read = readPath(path, ReadOptions(file.maxBytes + 1));
    const auto failure = [&](const QString &why, const QString &fix) {
        return Result<QByteArray>::failure(
            QStringLiteral("%1 %2 %3. %4").arg(file.what, path, why, fix));
    };
    switch (read.presence) {
    case SlotPresence::Present:
        break;
    case SlotPresence::Missing:
        return failure(QStringLiteral("does not exist"), QStringLiteral("Check the path."));
    case SlotPresence::DanglingLink:
        return failure(absenceReason(read),
                       QStringLiteral("Point the link at the file, or name the file itself."));
    case SlotPresence::Directory:
    case SlotPresence::NotRegularFile:
        return failure(QStringLiteral("is %1, not a regular file")
                           .arg(read.presence == SlotPresence::Directory
                                    ? QStringLiteral("a folder")
                                    : read.kindText),
                       QStringLiteral("Name %1.").arg(file.kind));
    case SlotPresence::Unreadable:
        return failure(absenceReason(read),
                       QStringLiteral("Check that it exists and that you may read it."));
    }
    if (read.bytes.size() > file.maxBytes) {
        return failure(QStringLiteral("is larger than %1 reads (%2 bytes at most)")
                           .arg(file.limitOwner)
                           .arg(file.maxBytes),
                       QStringLiteral("Make it smaller."));
    }
    return read.bytes;
}

} // namespace soul
