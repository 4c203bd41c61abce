#include "snapshot.h"

#include "atomicwrite.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace soul {

QJsonObject Snapshot::manifest() const
{
    QJsonArray files;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotFacts &facts = inspection.slotFacts[size_t(slot)];
        if (!facts.present())
            continue;
        files.append(QJsonObject{
            {QStringLiteral("name"), facts.name},
            {QStringLiteral("bytes"), facts.size},
            {QStringLiteral("tokens"), tokens.sections[size_t(slot)]},
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
             {QStringLiteral("tokens"), tokens.soul},
             {QStringLiteral("encoding"), tokens.encoding},
             {QStringLiteral("sha256"), QString::fromLatin1(inspection.soulSha256)},
         }},
    };
}

Result<Snapshot> takeSnapshot(const QString &dir, const Tokenizer *tokenizer)
{
    Result<Inspection> inspection = inspectDirectory(dir, true);
    if (!inspection)
        return Result<Snapshot>::failure(inspection.error());
    Snapshot snapshot;
    snapshot.inspection = std::move(inspection).value();
    snapshot.createdAt = QDateTime::currentDateTimeUtc();
    const std::shared_ptr<const Tokenizer> fallback = tokenizer ? nullptr : Tokenizer::builtin(u"");
    snapshot.tokens = countSoulTokens(snapshot.inspection.composition,
                                      tokenizer ? *tokenizer : *fallback);
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
    if (Status s = writeFileAtomically(soulPath, snapshot.soul()); !s)
        return s;
    return writeFileAtomically(manifestPath, manifest);
}

} // namespace soul
