#include "snapshot.h"

#include "disk/atomicwrite.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace soul {

namespace {

// The schema and where each file's section stands in the soul, so a
// comparison maps bytes to slots without parsing the soul again.
void addSectionLayout(QJsonObject &manifest, const Composition &c)
{
    // A toolnexus soul records no skills list: schema 2, which an older
    // Soul Studio still reads.
    manifest.insert(QStringLiteral("schema"), ManifestSchema - 1);
    QJsonArray files = manifest.value(QStringLiteral("files")).toArray();
    for (qsizetype i = 0; i < files.size(); ++i) {
        QJsonObject file = files.at(i).toObject();
        const int slot = slotIndex(file.value(QStringLiteral("name")).toString());
        if (slot < 0 || c.sectionOffset[size_t(slot)] < 0)
            continue;
        file.insert(QStringLiteral("section"),
                    QJsonObject{
                        {QStringLiteral("offset"), qint64(c.sectionOffset[size_t(slot)])},
                        {QStringLiteral("bytes"), qint64(c.sectionLength[size_t(slot)])},
                        {QStringLiteral("bodyLine"), c.bodyFirstLine[size_t(slot)]},
                    });
        files.replace(i, file);
    }
    manifest.insert(QStringLiteral("files"), files);
}

// Where each file's part stands in the runtime's text, on the file's entry
// (one is added for a file the runtime's part does not list): a comparison
// then tells which files changed without the files themselves.
QJsonObject withPlaces(QJsonObject part, const RuntimeComposition &composition)
{
    QJsonArray files = part.value(QStringLiteral("files")).toArray();
    for (const RuntimeFileView &view : composition.files) {
        KeptRange range;
        if (!composition.placeOf(view, &range))
            continue;
        const QJsonObject place{{QStringLiteral("offset"), qint64(range.start)},
                                {QStringLiteral("length"), qint64(range.length)}};
        qsizetype at = 0;
        while (at < files.size()
               && files.at(at).toObject().value(QStringLiteral("name")).toString() != view.name) {
            ++at;
        }
        QJsonObject file = at < files.size() ? files.at(at).toObject()
                                             : QJsonObject{{QStringLiteral("name"), view.name}};
        file.insert(QStringLiteral("text"), place);
        if (at < files.size())
            files.replace(at, file);
        else
            files.append(file);
    }
    part.insert(QStringLiteral("files"), files);
    return part;
}

} // namespace

QString skillsSha256(const QString &text)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

SkillsRequest defaultSkillsRequest(const RuntimeInput &input)
{
    SkillsRequest request;
    request.input = input;
    request.workingDirectory = QDir::currentPath();
    request.accountHome = QDir::homePath();
    return request;
}

QJsonObject Snapshot::manifest() const
{
    if (ofRuntime()) {
        QJsonObject manifest{
            {QStringLiteral("format"), QLatin1String(ManifestFormat)},
            {QStringLiteral("version"), ManifestVersion},
            // Schema 3 only with a skills list: without one the manifest is
            // schema 2's, which an older Soul Studio still reads.
            {QStringLiteral("schema"), skills ? ManifestSchema : ManifestSchema - 1},
            {QStringLiteral("createdAt"), createdAt.toString(Qt::ISODateWithMs)},
            {QStringLiteral("directory"), inspection.directory},
            {QStringLiteral("runtime"), runtimePart},
            {QStringLiteral("found"), QJsonArray::fromStringList(runtimeFound)},
            {QStringLiteral("soul"),
             QJsonObject{
                 {QStringLiteral("bytes"), qint64(runtimeText.size())},
                 {QStringLiteral("tokens"), tokens.soul},
                 {QStringLiteral("encoding"), tokens.encoding},
                 {QStringLiteral("sha256"),
                  QString::fromLatin1(
                      QCryptographicHash::hash(runtimeText, QCryptographicHash::Sha256).toHex())},
             }},
        };
        if (skills) {
            manifest.insert(QStringLiteral("skills"),
                            QJsonObject{
                                {QStringLiteral("sha256"), skillsSha256(skills->text)},
                                {QStringLiteral("chars"), qint64(skills->text.size())},
                                {QStringLiteral("tokens"), skills->tokens},
                                {QStringLiteral("encoding"), tokens.encoding},
                                {QStringLiteral("names"), QJsonArray::fromStringList(skills->names)},
                                {QStringLiteral("text"), skills->text},
                            });
        }
        return manifest;
    }
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
    QJsonObject manifest{
        {QStringLiteral("format"), QLatin1String(ManifestFormat)},
        {QStringLiteral("version"), ManifestVersion},
        {QStringLiteral("createdAt"), createdAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("directory"), inspection.directory},
        {QStringLiteral("capBytes"), inspection.rule.capBytes},
        {QStringLiteral("order"), QJsonArray::fromStringList(inspection.rule.fileNames())},
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
    addSectionLayout(manifest, c);
    return manifest;
}

Result<Snapshot> takeSnapshot(const QString &dir, const Tokenizer *tokenizer)
{
    return takeSnapshot(dir, ComposeRule::toolnexus(), tokenizer);
}

Result<Snapshot> takeSnapshot(const QString &dir,
                              const ComposeRule &rule,
                              const Tokenizer *tokenizer,
                              const HeldReads &held)
{
    Result<Inspection> inspection = inspectDirectory(dir, rule, true, held);
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

Result<Snapshot> takeRuntimeSnapshot(const RuntimeInput &input,
                                     const Runtime &runtime,
                                     const RuntimeSettings &settings,
                                     const Tokenizer *tokenizer,
                                     const SkillsRequest *skillsRequest)
{
    const QDateTime createdAt = QDateTime::currentDateTimeUtc();
    Result<RuntimeComposition> composition = runtime.compose(input, settings);
    if (!composition)
        return Result<Snapshot>::failure(composition.error());
    Snapshot snapshot;
    snapshot.createdAt = createdAt;
    snapshot.inspection.directory = QFileInfo(input.dir).absoluteFilePath();
    snapshot.runtimeText = composition->text.toUtf8();
    snapshot.runtimePart = withPlaces(composition->manifest, *composition);
    snapshot.runtimeFound = composition->found;
    const std::shared_ptr<const Tokenizer> fallback = tokenizer ? nullptr : Tokenizer::builtin(u"");
    const Tokenizer &counter = tokenizer ? *tokenizer : *fallback;
    snapshot.tokens.encoding = counter.name();
    snapshot.tokens.soul = counter.count(snapshot.runtimeText);
    if (runtime.listsSkills()) {
        const Result<SkillsList> list = runtime.skills(skillsRequest ? *skillsRequest
                                                                     : defaultSkillsRequest(input));
        if (!list)
            return Result<Snapshot>::failure(list.error());
        snapshot.skills = SnapshotSkills{list->prompt,
                                         listedSkillNames(*list),
                                         counter.count(list->prompt.toUtf8())};
    }
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
    // The look above is for the kinder sentence; the renames are what keep a
    // file that appears meanwhile.
    const Overwrite mode = overwrite ? Overwrite::Allowed : Overwrite::Never;
    const Status soulWritten = writeFileAtomically(soulPath, snapshot.soul(), mode);
    if (!soulWritten)
        return soulWritten;
    Status written = writeFileAtomically(manifestPath, manifest, mode);
    if (!written) {
        // Without overwrite the soul was new, so it is ours to remove.
        const bool restored = hadSoul ? writeFileAtomically(soulPath, oldSoul).ok()
                                      : QFile::remove(soulPath);
        if (!restored) {
            return Status::failure(
                written.error() + QStringLiteral(" %1 already holds the new soul.").arg(soulPath));
        }
        return written;
    }
    return Status::withWarning(joinedWarnings(soulWritten.warning(), written.warning()));
}

} // namespace soul
