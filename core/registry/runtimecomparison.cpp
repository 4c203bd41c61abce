#include "runtimecomparison.h"

#include "runtimeregistry.h"
#include "sectionedsoul.h"
#include "tokenencoder.h"

#include <QJsonArray>
#include <QJsonObject>

namespace soul {

namespace {

// What the live composition's manifest records a file kept ([start, length]
// pairs), for a file the runtime does not place.
QList<KeptRange> liveKept(const RuntimeComposition &live, const QString &name)
{
    QList<KeptRange> kept;
    for (const QJsonValue &value : live.manifest.value(QStringLiteral("files")).toArray()) {
        const QJsonObject file = value.toObject();
        if (file.value(QStringLiteral("name")).toString() != name)
            continue;
        for (const QJsonValue &range : file.value(QStringLiteral("kept")).toArray()) {
            const QJsonArray pair = range.toArray();
            kept.append(KeptRange{pair.at(0).toInteger(), pair.at(1).toInteger()});
        }
    }
    return kept;
}

const RuntimeSnapshotFile *snapshotFile(const RuntimeSnapshot &snapshot, const QString &name)
{
    for (const RuntimeSnapshotFile &file : snapshot.files) {
        if (file.name == name)
            return &file;
    }
    return nullptr;
}

RuntimeFileStatus statusOf(const RuntimeSnapshot &snapshot,
                           const RuntimeComposition &live,
                           const QString &name)
{
    RuntimeFileStatus out;
    out.name = name;
    const RuntimeSnapshotFile *before = snapshotFile(snapshot, name);
    const RuntimeFileView *after = live.file(name);
    const bool wasIn = before && (before->placed || !before->kept.isEmpty());
    const bool isIn = after && after->injected;
    if (!wasIn && !isIn)
        return out;
    if (!wasIn || !isIn) {
        out.status = isIn ? SectionStatus::Added : SectionStatus::Removed;
        return out;
    }
    KeptRange place;
    out.placed = before->placed && live.placeOf(*after, &place);
    bool same = false;
    if (out.placed) {
        same = QStringView(snapshot.text).sliced(before->inText.start, before->inText.length)
               == QStringView(live.text).sliced(place.start, place.length);
    } else {
        same = before->kept == liveKept(live, name) && before->truncated == after->truncated
               && snapshot.text == live.text;
    }
    out.status = same ? SectionStatus::Unchanged : SectionStatus::Changed;
    return out;
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

QList<RuntimeFileStatus> runtimeFileStatuses(const RuntimeSnapshot &snapshot,
                                             const RuntimeComposition &live)
{
    QStringList names;
    for (const RuntimeFileView &view : live.files)
        names.append(view.name);
    for (const RuntimeSnapshotFile &file : snapshot.files) {
        if (!names.contains(file.name))
            names.append(file.name);
    }
    QList<RuntimeFileStatus> out;
    for (const QString &name : std::as_const(names)) {
        RuntimeFileStatus status = statusOf(snapshot, live, name);
        if (status.status != SectionStatus::Absent)
            out.append(status);
    }
    return out;
}

RuntimeTextComparison compareRuntimeText(const RuntimeSnapshot &snapshot,
                                         const RuntimeComposition &live,
                                         const TokenEncoding &encoding)
{
    RuntimeTextComparison out;
    out.prefix = stablePrefix(snapshot.text.toUtf8(), live.text.toUtf8(), encoding);
    out.files = runtimeFileStatuses(snapshot, live);
    if (out.prefix.identical)
        return out;
    qsizetype first = 0;
    const qsizetype common = qMin(snapshot.text.size(), live.text.size());
    while (first < common && snapshot.text.at(first) == live.text.at(first))
        ++first;
    for (const RuntimeFileView &view : live.files) {
        KeptRange place;
        if (live.placeOf(view, &place) && first >= place.start
            && first < place.start + qMax<qsizetype>(place.length, 1)) {
            out.firstChangeFile = view.name;
            return out;
        }
    }
    for (const RuntimeSnapshotFile &file : snapshot.files) {
        if (file.placed && first >= file.inText.start
            && first < file.inText.start + qMax<qsizetype>(file.inText.length, 1)) {
            out.firstChangeFile = file.name;
            return out;
        }
    }
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
