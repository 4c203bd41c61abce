#include "freeze.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace soul {

namespace {

constexpr char SoulSuffix[] = ".soul.md";

QString personaNameOf(const QString &personaDir)
{
    const QString name = QFileInfo(QDir::cleanPath(QDir(personaDir).absolutePath())).fileName();
    return name.isEmpty() ? QStringLiteral("persona") : name;
}

} // namespace

QString snapshotFileName(const QString &personaName, const QDateTime &createdAtUtc)
{
    return personaName + QLatin1Char('-')
           + createdAtUtc.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH-mm-ss"))
           + QLatin1String(SoulSuffix);
}

Result<QString> freezeSnapshot(const QString &personaDir,
                               const QString &snapshotsDir,
                               const QDateTime &at,
                               const HeldReads &held,
                               const Runtime *runtime,
                               const RuntimeSettings &settings,
                               const QString &home,
                               const QString &project)
{
    RuntimeInput input;
    input.dir = personaDir;
    input.home = home;
    input.project = project;
    Result<Snapshot> snapshot = runtime && !runtime->sectionRule()
                                    ? takeRuntimeSnapshot(input, *runtime, settings)
                                    : takeSnapshot(personaDir,
                                                   runtime ? *runtime->sectionRule()
                                                           : ComposeRule::toolnexus(),
                                                   nullptr,
                                                   held);
    if (!snapshot)
        return Result<QString>::failure(snapshot.error());
    if (at.isValid())
        snapshot->createdAt = at.toUTC();
    if (!QDir().mkpath(snapshotsDir)) {
        return Result<QString>::failure(
            QStringLiteral("%1: cannot create the snapshots folder. Choose another one.")
                .arg(snapshotsDir));
    }
    const QString base = snapshotFileName(personaNameOf(personaDir), snapshot->createdAt);
    const QString stem = base.chopped(qsizetype(sizeof(SoulSuffix) - 1));
    const QDir dir(snapshotsDir);
    for (int n = 1; n < 1000; ++n) {
        const QString name = n == 1 ? base
                                    : stem + QLatin1Char('-') + QString::number(n)
                                          + QLatin1String(SoulSuffix);
        const QString path = dir.filePath(name);
        if (QFileInfo::exists(path) || QFileInfo::exists(manifestPathFor(path)))
            continue;
        // Without overwrite: a file that appears meanwhile, up to the moment
        // of the rename, is refused, not replaced.
        const Status written = writeSnapshot(*snapshot, path, false);
        if (!written)
            return Result<QString>::failure(written.error());
        Result<QString> frozen(path);
        frozen.addWarning(written.warning());
        return frozen;
    }
    return Result<QString>::failure(
        QStringLiteral("%1: too many snapshots of this second already. Try again.")
            .arg(snapshotsDir));
}

QStringList recentSnapshots(const QString &snapshotsDir, const QString &personaName, int limit)
{
    const QRegularExpression pattern(
        QStringLiteral("^%1-(\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2})(?:-(\\d+))?\\.soul\\.md$")
            .arg(QRegularExpression::escape(personaName)));
    struct Entry
    {
        QString time;
        int n;
        QString path;
    };
    QList<Entry> entries;
    const QDir dir(snapshotsDir);
    for (const QString &name :
         dir.entryList({personaName + QStringLiteral("-*.soul.md")}, QDir::Files)) {
        const QRegularExpressionMatch m = pattern.match(name);
        if (m.hasMatch() && QFileInfo::exists(manifestPathFor(dir.filePath(name))))
            entries.append({m.captured(1),
                            m.captured(2).isEmpty() ? 1 : m.captured(2).toInt(),
                            dir.filePath(name)});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry &x, const Entry &y) {
        return x.time != y.time ? x.time > y.time : x.n > y.n;
    });
    QStringList out;
    for (const Entry &e : std::as_const(entries)) {
        if (out.size() >= limit)
            break;
        out.append(e.path);
    }
    return out;
}

} // namespace soul
