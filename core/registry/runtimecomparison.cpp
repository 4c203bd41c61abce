#include "runtimecomparison.h"

#include "diff/sectionedsoul.h"
#include "diff/tokenencoder.h"
#include "runtimeregistry.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

namespace soul {

namespace {

const RuntimeSnapshotFile *fileNamed(const RuntimeSnapshot &snapshot, const QString &name)
{
    for (const RuntimeSnapshotFile &file : snapshot.files) {
        if (file.name == name)
            return &file;
    }
    return nullptr;
}

RuntimeFileStatus statusOf(const RuntimeSnapshot &a, const RuntimeSnapshot &b, const QString &name)
{
    RuntimeFileStatus out;
    out.name = name;
    const RuntimeSnapshotFile *before = fileNamed(a, name);
    const RuntimeSnapshotFile *after = fileNamed(b, name);
    // A runtime that records nothing of a file still lists it among those
    // whose text it injected.
    const bool wasIn = before ? before->injected : a.found.contains(name);
    const bool isIn = after ? after->injected : b.found.contains(name);
    if (!wasIn && !isIn)
        return out;
    if (!wasIn || !isIn) {
        out.status = isIn ? SectionStatus::Added : SectionStatus::Removed;
        return out;
    }
    out.placed = before && after && before->placed && after->placed;
    bool same = false;
    if (out.placed) {
        same = QStringView(a.text).sliced(before->inText.start, before->inText.length)
               == QStringView(b.text).sliced(after->inText.start, after->inText.length);
    } else {
        // Without places, only texts that are the same throughout say that
        // the file's part is.
        same = a.text == b.text;
        if (before && after)
            same = same && before->kept == after->kept && before->truncated == after->truncated;
    }
    out.status = same ? SectionStatus::Unchanged : SectionStatus::Changed;
    return out;
}

// The file placed at `offset` of `snapshot`'s text, or empty.
QString fileAt(const RuntimeSnapshot &snapshot, qsizetype offset)
{
    for (const RuntimeSnapshotFile &file : snapshot.files) {
        // A part of no characters holds a change right where it stands.
        if (file.placed && offset >= file.inText.start
            && offset < file.inText.start + qMax<qsizetype>(file.inText.length, 1)) {
            return file.name;
        }
    }
    return {};
}

} // namespace

Result<const Runtime *> snapshotRuntime(const RuntimeSnapshot &snapshot)
{
    const RuntimeRegistry &registry = RuntimeRegistry::instance();
    if (const Runtime *runtime = registry.find(snapshot.runtimeId))
        return runtime;
    return Result<const Runtime *>::failure(
        QStringLiteral("%1: a snapshot of what runtime '%2' injects, which this Soul Studio does "
                       "not know (it knows %3). Compare it with a Soul Studio that has that "
                       "runtime, or freeze the persona again with one of these.")
            .arg(snapshot.soulPath,
                 snapshot.runtimeName.isEmpty()
                     ? snapshot.runtimeId
                     : QStringLiteral("%1 (%2)").arg(snapshot.runtimeId, snapshot.runtimeName),
                 registry.ids()));
}

RuntimeSnapshot runtimeTextOf(const Runtime &runtime,
                              const RuntimeSettings &settings,
                              const RuntimeComposition &composition,
                              const QString &label)
{
    RuntimeSnapshot out;
    out.soulPath = label;
    out.runtimeId = runtime.id();
    out.runtimeName = runtime.displayName();
    out.settings = runtime.withDefaults(settings);
    out.text = composition.text;
    out.found = composition.found;
    // What it kept of each file, as its manifest records it.
    QHash<QString, QJsonObject> recorded;
    for (const QJsonValue &value : composition.manifest.value(QStringLiteral("files")).toArray()) {
        const QJsonObject file = value.toObject();
        recorded.insert(file.value(QStringLiteral("name")).toString(), file);
    }
    for (const RuntimeFileView &view : composition.files) {
        RuntimeSnapshotFile file;
        file.name = view.name;
        file.injected = view.injected;
        file.truncated = view.truncated;
        for (const QJsonValue &range :
             recorded.value(view.name).value(QStringLiteral("kept")).toArray()) {
            const QJsonArray pair = range.toArray();
            file.kept.append(KeptRange{pair.at(0).toInteger(), pair.at(1).toInteger()});
        }
        file.placed = view.injected && composition.placeOf(view, &file.inText);
        out.files.append(file);
    }
    return out;
}

QList<RuntimeFileStatus> runtimeFileStatuses(const RuntimeSnapshot &a, const RuntimeSnapshot &b)
{
    QStringList names;
    for (const RuntimeSnapshot *side : {&b, &a}) {
        for (const RuntimeSnapshotFile &file : side->files) {
            if (!names.contains(file.name))
                names.append(file.name);
        }
        for (const QString &name : side->found) {
            if (!names.contains(name))
                names.append(name);
        }
    }
    QList<RuntimeFileStatus> out;
    for (const QString &name : std::as_const(names)) {
        const RuntimeFileStatus status = statusOf(a, b, name);
        if (status.status != SectionStatus::Absent)
            out.append(status);
    }
    return out;
}

RuntimeTextComparison compareRuntimeText(const RuntimeSnapshot &a,
                                         const RuntimeSnapshot &b,
                                         const TokenEncoding &encoding,
                                         std::vector<quint32> *aIds)
{
    RuntimeTextComparison out;
    const QByteArray bytesA = a.text.toUtf8();
    const QByteArray bytesB = b.text.toUtf8();
    if (aIds && !encoding.bytesAreIds) {
        if (aIds->empty() && !bytesA.isEmpty())
            *aIds = encoding.encode(bytesA);
        StablePrefix &p = out.prefix;
        p.identical = bytesA == bytesB;
        p.bytes = commonPrefixLength(bytesA, bytesB);
        p.totalBytes = bytesB.size();
        const std::vector<quint32> idsB = encoding.encode(bytesB);
        p.totalTokens = qint64(idsB.size());
        p.tokens = p.identical ? p.totalTokens : commonPrefixLength(*aIds, idsB);
    } else {
        out.prefix = stablePrefix(bytesA, bytesB, encoding);
    }
    out.files = runtimeFileStatuses(a, b);
    if (out.prefix.identical)
        return out;
    qsizetype first = 0;
    const qsizetype common = qMin(a.text.size(), b.text.size());
    while (first < common && a.text.at(first) == b.text.at(first))
        ++first;
    out.firstChangeFile = fileAt(b, first);
    if (out.firstChangeFile.isEmpty())
        out.firstChangeFile = fileAt(a, first);
    return out;
}

QByteArray runtimeTextDiff(const QString &a,
                           const QString &aLabel,
                           const QString &b,
                           const QString &bLabel)
{
    SectionedSoul before;
    before.label = aLabel;
    before.soul = a.toUtf8();
    SectionedSoul after;
    after.label = bLabel;
    after.soul = b.toUtf8();
    return unifiedSoulDiff(before, after);
}

} // namespace soul
