#include "recoverystore.h"

#include "atomicwrite.h"
#include "compose/contract.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace soul {

namespace {

constexpr int IndexVersion = 1;
constexpr char IndexName[] = "index.json";

struct Index
{
    QString directory;
    QJsonObject slots; // slot file name -> {buffer, diskSha256, savedAt}
};

QString indexPath(const QString &storePath)
{
    return QDir(storePath).filePath(QLatin1String(IndexName));
}

// A missing, unreadable or foreign index reads as empty: recovery is a
// convenience, and a broken index must not stop the persona from opening.
Index readIndex(const QString &storePath, const QString &dir)
{
    Index index;
    index.directory = dir;
    QFile file(indexPath(storePath));
    if (!file.open(QIODevice::ReadOnly))
        return index;
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    if (root.value(QLatin1String("version")).toInt() != IndexVersion
        || root.value(QLatin1String("directory")).toString() != dir) {
        return index;
    }
    index.slots = root.value(QLatin1String("slots")).toObject();
    return index;
}

Status writeIndex(const QString &storePath, const Index &index)
{
    QJsonObject root;
    root.insert(QLatin1String("version"), IndexVersion);
    root.insert(QLatin1String("directory"), index.directory);
    root.insert(QLatin1String("slots"), index.slots);
    return writeFileAtomically(indexPath(storePath), QJsonDocument(root).toJson());
}

// Buffer files the index does not name are leftovers of an interrupted store.
void removeStrays(const QString &storePath, const Index &index)
{
    QStringList named;
    for (auto it = index.slots.constBegin(); it != index.slots.constEnd(); ++it)
        named << it.value().toObject().value(QLatin1String("buffer")).toString();
    const QDir folder(storePath);
    const QStringList entries = folder.entryList(QDir::Files | QDir::Hidden);
    for (const QString &name : entries) {
        if (name != QLatin1String(IndexName) && !named.contains(name))
            QFile::remove(folder.filePath(name));
    }
}

// The entry of `name` with its buffer's bytes; nullopt when the index does
// not name it or its buffer file is gone or unreadable.
std::optional<RecoveredSlot> readEntry(const QString &storePath,
                                       const Index &index,
                                       const QString &name)
{
    const QJsonObject entry = index.slots.value(name).toObject();
    const QString buffer = entry.value(QLatin1String("buffer")).toString();
    if (buffer.isEmpty() || buffer.contains(u'/'))
        return std::nullopt;
    QFile file(QDir(storePath).filePath(buffer));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    RecoveredSlot recovered;
    recovered.fileName = name;
    recovered.bytes = file.readAll();
    recovered.diskSha256 = entry.value(QLatin1String("diskSha256")).toString().toLatin1();
    recovered.savedAt = QDateTime::fromString(entry.value(QLatin1String("savedAt")).toString(),
                                              Qt::ISODateWithMs);
    return recovered;
}

Status noLocation(const QString &dir)
{
    return Status::failure(QStringLiteral("Cannot keep unsaved changes of %1 for recovery: the "
                                          "system gives no folder for application data. Set "
                                          "HOME to a folder you may write to, and save often.")
                               .arg(dir));
}

} // namespace

RecoveryStore::RecoveryStore(const QString &dir, const QString &project)
    : m_dir(QFileInfo(dir).absoluteFilePath())
{
    const QString root = rootPath();
    if (!root.isEmpty()) {
        // A folder's key is its path alone, as it always was.
        const QString keyed = project.isEmpty() ? m_dir
                                                : m_dir + QLatin1Char('\n')
                                                      + QFileInfo(project).absoluteFilePath();
        const QByteArray key
            = QCryptographicHash::hash(keyed.toUtf8(), QCryptographicHash::Sha1).toHex();
        m_storePath = QDir(root).filePath(QString::fromLatin1(key));
    }
}

QString RecoveryStore::rootPath()
{
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (data.isEmpty())
        return {};
    return QDir(data).filePath(QStringLiteral("recovery"));
}

Status RecoveryStore::store(int slot, QByteArrayView bytes, const QByteArray &diskSha256)
{
    if (slot < 0 || slot >= SlotCount)
        return Status::failure(
            QStringLiteral("There is no slot %1 to keep for recovery.").arg(slot));
    return storeFile(slotName(slot), bytes, diskSha256);
}

Status RecoveryStore::storeFile(const QString &name,
                                QByteArrayView bytes,
                                const QByteArray &diskSha256)
{
    // A slot's name, or a path under the folder ("skills/demo/SKILL.md").
    if (name.isEmpty() || name.startsWith(u'/') || name.split(u'/').contains(QLatin1String(".."))
        || name.contains(u'\\'))
        return Status::failure(
            QStringLiteral("There is no file \"%1\" to keep for recovery.").arg(name));
    if (m_storePath.isEmpty())
        return noLocation(m_dir);
    if (!QDir().mkpath(m_storePath)) {
        return Status::failure(QStringLiteral("Cannot keep unsaved changes of %1 for recovery: "
                                              "cannot create %2. Check that you may write there.")
                                   .arg(m_dir, m_storePath));
    }
    // Unsaved text may be private: only the owner may read the copies.
    QFile::setPermissions(m_storePath,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

    // A fresh name each time, so the index never points at a half-written
    // buffer: the buffer is complete before the index switches to it.
    // The store is flat: a path's folders become part of the buffer's name.
    const QString buffer = QStringLiteral("%1.%2")
                               .arg(QString(name).replace(u'/', u'_'))
                               .arg(QDateTime::currentMSecsSinceEpoch());
    QString bufferFile = QDir(m_storePath).filePath(buffer);
    for (int n = 1; QFileInfo::exists(bufferFile); ++n)
        bufferFile = QDir(m_storePath).filePath(QStringLiteral("%1-%2").arg(buffer).arg(n));
    if (Status written = writeFileAtomically(bufferFile, bytes); !written)
        return written;

    Index index = readIndex(m_storePath, m_dir);
    QJsonObject entry;
    entry.insert(QLatin1String("buffer"), QFileInfo(bufferFile).fileName());
    entry.insert(QLatin1String("diskSha256"), QString::fromLatin1(diskSha256));
    entry.insert(QLatin1String("savedAt"),
                 QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    index.slots.insert(name, entry);
    if (Status written = writeIndex(m_storePath, index); !written) {
        QFile::remove(bufferFile);
        return written;
    }
    removeStrays(m_storePath, index);
    // Without the writes' warnings: a copy whose folder the disk did not
    // confirm still guards against the crash of this program, which is what
    // it is for, and a warning every few seconds of typing would drown the
    // ones about the user's own files.
    return {};
}

Status RecoveryStore::remove(int slot)
{
    if (slot < 0 || slot >= SlotCount)
        return {};
    return removeFile(slotName(slot));
}

Status RecoveryStore::removeFile(const QString &name)
{
    if (name.isEmpty() || m_storePath.isEmpty())
        return {};
    Index index = readIndex(m_storePath, m_dir);
    if (!index.slots.contains(name))
        return {};
    index.slots.remove(name);
    if (index.slots.isEmpty())
        return clear();
    if (Status written = writeIndex(m_storePath, index); !written)
        return written;
    removeStrays(m_storePath, index);
    return {};
}

Status RecoveryStore::clear()
{
    if (m_storePath.isEmpty() || !QFileInfo::exists(m_storePath))
        return {};
    if (!QDir(m_storePath).removeRecursively()) {
        return Status::failure(QStringLiteral("Cannot remove the recovery copies of %1 in %2. "
                                              "Check that you may write there.")
                                   .arg(m_dir, m_storePath));
    }
    return {};
}

QList<RecoveredSlot> RecoveryStore::pending() const
{
    QList<RecoveredSlot> result;
    if (m_storePath.isEmpty())
        return result;
    const Index index = readIndex(m_storePath, m_dir);
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (std::optional<RecoveredSlot> recovered = readEntry(m_storePath, index, slotName(slot))) {
            recovered->slot = slot;
            result.append(*recovered);
        }
    }
    return result;
}

std::optional<RecoveredSlot> RecoveryStore::pendingFile(const QString &fileName) const
{
    if (m_storePath.isEmpty() || fileName.isEmpty())
        return std::nullopt;
    return readEntry(m_storePath, readIndex(m_storePath, m_dir), fileName);
}

} // namespace soul
