#include "snapshot.h"

#include "atomicwrite.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace soul {

QJsonObject Snapshot::manifest() const
{
    QJsonArray files;
    for (const SlotFacts &facts : inspection.slotFacts) {
        if (!facts.present())
            continue;
        files.append(QJsonObject{
            {QStringLiteral("name"), facts.name},
            {QStringLiteral("bytes"), facts.size},
            {QStringLiteral("truncated"), facts.truncated},
            {QStringLiteral("sha256"), QString::fromLatin1(facts.sha256)},
        });
    }
    const Composition &c = inspection.composition;
    return QJsonObject{
        {QStringLiteral("format"), QLatin1String(ManifestFormat)},
        {QStringLiteral("version"), ManifestVersion},
        {QStringLiteral("createdAt"), createdAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("directory"), inspection.directory},
        {QStringLiteral("capBytes"), CapBytes},
        {QStringLiteral("order"), QJsonArray::fromStringList(bootstrapOrder())},
        {QStringLiteral("found"), QJsonArray::fromStringList(c.found)},
        {QStringLiteral("files"), files},
        {QStringLiteral("soul"),
         QJsonObject{
             {QStringLiteral("bytes"), qint64(c.soul.size())},
             {QStringLiteral("sha256"), QString::fromLatin1(inspection.soulSha256)},
         }},
    };
}

Result<Snapshot> takeSnapshot(const QString &dir)
{
    Result<Inspection> inspection = inspectDirectory(dir, true);
    if (!inspection)
        return Result<Snapshot>::failure(inspection.error());
    Snapshot snapshot;
    snapshot.inspection = std::move(inspection).value();
    snapshot.createdAt = QDateTime::currentDateTimeUtc();
    return snapshot;
}

QString manifestPathFor(const QString &soulPath)
{
    return soulPath + QStringLiteral(".manifest.json");
}

Status writeSnapshot(const Snapshot &snapshot, const QString &soulPath, bool overwrite)
{
    const QString manifestPath = manifestPathFor(soulPath);
    if (!overwrite) {
        for (const QString &path : {soulPath, manifestPath}) {
            if (QFileInfo::exists(path))
                return Status::failure(QStringLiteral("%1 already exists. Choose another name, "
                                                      "or allow overwriting (--force).")
                                           .arg(path));
        }
    }
    const QByteArray manifest = QJsonDocument(snapshot.manifest()).toJson(QJsonDocument::Indented);
    // A soul beside a manifest that does not describe it is worse than the
    // old pair: when the manifest cannot be written, the soul goes back.
    QFile oldSoulFile(soulPath);
    const bool hadSoul = oldSoulFile.open(QIODevice::ReadOnly);
    const QByteArray oldSoul = hadSoul ? oldSoulFile.readAll() : QByteArray();
    oldSoulFile.close();
    if (Status s = writeFileAtomically(soulPath, snapshot.soul()); !s)
        return s;
    Status written = writeFileAtomically(manifestPath, manifest);
    if (!written) {
        const bool restored = hadSoul ? writeFileAtomically(soulPath, oldSoul).ok()
                                      : QFile::remove(soulPath);
        if (!restored) {
            return Status::failure(
                written.error() + QStringLiteral(" %1 already holds the new soul.").arg(soulPath));
        }
    }
    return written;
}

} // namespace soul
