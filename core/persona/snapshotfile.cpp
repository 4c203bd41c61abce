#include "snapshotfile.h"

#include "inspection.h"
#include "snapshot.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace soul {

namespace {

Result<QByteArray> readWhole(const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Result<QByteArray>::failure(
            QStringLiteral("%1: cannot read %2 (%3).").arg(path, what, file.errorString()));
    }
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        return Result<QByteArray>::failure(
            QStringLiteral("%1: cannot read %2 (%3).").arg(path, what, file.errorString()));
    }
    return bytes;
}

// Sections as a schema 2 manifest records them, checked against the soul.
Result<SectionedSoul> manifestSections(const QByteArray &soul,
                                       const QJsonArray &files,
                                       const QString &soulPath,
                                       const QString &manifestPath)
{
    SectionedSoul s;
    s.label = soulPath;
    s.soul = soul;
    for (const QJsonValue &value : files) {
        const QJsonObject file = value.toObject();
        const QString name = file.value(QStringLiteral("name")).toString();
        const int slot = slotIndex(name);
        const QJsonObject section = file.value(QStringLiteral("section")).toObject();
        const qint64 offset = section.value(QStringLiteral("offset")).toInteger(-1);
        const qint64 length = section.value(QStringLiteral("bytes")).toInteger(-1);
        const qint64 bodyLine = section.value(QStringLiteral("bodyLine")).toInteger(1);
        // A snapshot is a toolnexus soul, as Freeze and Export write it.
        const QByteArray head = slot < 0 ? QByteArray()
                                         : ComposeRule::toolnexus().sectionHead(slot);
        if (slot < 0 || offset < 0 || length < head.size() || offset + length > soul.size()
            || bodyLine < 1 || !QByteArrayView(soul).sliced(offset).startsWith(head)) {
            return Result<SectionedSoul>::failure(
                QStringLiteral("%1: the section it records for '%2' is not where the soul "
                               "holds it. Export the persona again.")
                    .arg(manifestPath, name));
        }
        s.sectionOffset[size_t(slot)] = offset;
        s.sectionLength[size_t(slot)] = length;
        s.bodyFirstLine[size_t(slot)] = bodyLine;
    }
    return s;
}

} // namespace

Result<LoadedSnapshot> loadSnapshot(const QString &soulPath)
{
    using R = Result<LoadedSnapshot>;
    LoadedSnapshot loaded;
    loaded.soulPath = soulPath;
    loaded.manifestPath = manifestPathFor(soulPath);
    if (!QFileInfo(loaded.manifestPath).isFile()) {
        return R::failure(QStringLiteral("%1: no manifest beside it (%2). Give a persona folder, "
                                         "or a soul written by 'soulc export' with its manifest.")
                              .arg(soulPath, loaded.manifestPath));
    }
    Result<QByteArray> manifestBytes = readWhole(loaded.manifestPath,
                                                 QStringLiteral("the manifest"));
    if (!manifestBytes)
        return R::failure(manifestBytes.error());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*manifestBytes, &parseError);
    const QJsonObject manifest = doc.object();
    const QJsonObject soulFacts = manifest.value(QStringLiteral("soul")).toObject();
    const QString expectedSha = soulFacts.value(QStringLiteral("sha256")).toString();
    if (doc.isNull()
        || manifest.value(QStringLiteral("format")).toString() != QLatin1String(ManifestFormat)
        || expectedSha.isEmpty()) {
        return R::failure(
            QStringLiteral("%1: not a soul manifest (%2). Export the persona again.")
                .arg(loaded.manifestPath,
                     doc.isNull() ? parseError.errorString()
                                  : QStringLiteral("no \"format\": \"soul-snapshot\" with a soul "
                                                   "sha256")));
    }
    loaded.schema = manifest.value(QStringLiteral("schema")).toInt(1);
    if (loaded.schema > ManifestSchema) {
        return R::failure(QStringLiteral("%1: written by a newer Soul Studio (manifest schema %2; "
                                         "this one reads up to %3). Update Soul Studio.")
                              .arg(loaded.manifestPath)
                              .arg(loaded.schema)
                              .arg(ManifestSchema));
    }

    Result<QByteArray> soul = readWhole(soulPath, QStringLiteral("the soul"));
    if (!soul)
        return R::failure(soul.error());
    const QByteArray actualSha = QCryptographicHash::hash(*soul, QCryptographicHash::Sha256).toHex();
    if (actualSha != expectedSha.toLatin1()) {
        return R::failure(
            QStringLiteral("%1 does not match its manifest %2: the manifest records %3 bytes "
                           "with SHA-256 %4, the file has %5 bytes with SHA-256 %6. The soul was "
                           "changed after it was exported; compare the persona folder, or export "
                           "it again.")
                .arg(soulPath, loaded.manifestPath)
                .arg(soulFacts.value(QStringLiteral("bytes")).toInteger(-1))
                .arg(expectedSha)
                .arg(soul->size())
                .arg(QString::fromLatin1(actualSha)));
    }
    loaded.soulSha256 = actualSha;
    for (const QJsonValue &name : manifest.value(QStringLiteral("found")).toArray())
        loaded.found.append(name.toString());

    const QJsonArray files = manifest.value(QStringLiteral("files")).toArray();
    bool haveSections = loaded.schema >= 2 && files.size() == loaded.found.size();
    for (const QJsonValue &file : files)
        haveSections = haveSections && file.toObject().contains(QStringLiteral("section"));
    Result<SectionedSoul> sections
        = haveSections ? manifestSections(*soul, files, soulPath, loaded.manifestPath)
                       : recoverSections(*soul, loaded.found, soulPath);
    if (!sections)
        return R::failure(sections.error());
    loaded.sectionsFromManifest = haveSections;
    loaded.soul = std::move(sections).value();
    for (const QJsonValue &value : files) {
        const QJsonObject file = value.toObject();
        const int slot = slotIndex(file.value(QStringLiteral("name")).toString());
        if (slot >= 0)
            loaded.soul.truncated[size_t(slot)] = file.value(QStringLiteral("truncated")).toBool();
    }
    return loaded;
}

Result<SectionedSoul> loadComparableSoul(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir()) {
        if (const QString problem = checkDirectory(path); !problem.isEmpty())
            return Result<SectionedSoul>::failure(problem);
        return sectionedSoul(composeDirectory(path), path);
    }
    if (!info.exists()) {
        return Result<SectionedSoul>::failure(
            QStringLiteral("%1: no such persona folder or soul file. Check the path.").arg(path));
    }
    Result<LoadedSnapshot> loaded = loadSnapshot(path);
    if (!loaded)
        return Result<SectionedSoul>::failure(loaded.error());
    return std::move(loaded).value().soul;
}

} // namespace soul
