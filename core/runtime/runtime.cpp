#include "runtime.h"

#include "compose/composerule.h"
#include "disk/slotlayout.h"
#include "runtimeskills.h"

#include <QDir>

#include <algorithm>

namespace soul {

const RuntimeFileView *RuntimeComposition::file(QStringView name) const
{
    for (const RuntimeFileView &view : files) {
        if (view.name == name)
            return &view;
    }
    return nullptr;
}

bool RuntimeComposition::placeOf(const RuntimeFileView &file, KeptRange *range) const
{
    if (file.placed) {
        *range = file.inText;
        return true;
    }
    if (file.block >= 0 && file.block < blocks.size()) {
        *range = blocks.at(file.block).range;
        return true;
    }
    return false;
}

qint64 Runtime::totalBudget(const RuntimeSettings &) const
{
    return -1;
}

QString Runtime::lintLocation(const RuntimeInput &input, const Lint &lint) const
{
    // As the user named the folder: "personas/ava/SOUL.md".
    const QString clean = QDir::cleanPath(input.dir);
    if (clean == QLatin1String("."))
        return lint.file;
    return QDir(clean).filePath(lint.file);
}

Result<SlotLayout> Runtime::homeLayout(const QString &home,
                                       const QString &project,
                                       const QString &preferred) const
{
    Q_UNUSED(project)
    Q_UNUSED(preferred)
    return Result<SlotLayout>::failure(
        QStringLiteral("%1 reads one persona folder, not a home such as %2.")
            .arg(displayName(), QDir::toNativeSeparators(home)));
}

Result<QByteArray> Runtime::revisionReport(const Inspection &,
                                           const SoulTokenCounts &,
                                           const QString &rev,
                                           const QString &,
                                           const QByteArray &,
                                           bool) const
{
    return Result<QByteArray>::failure(
        QStringLiteral("%1 does not compose commits of a history such as %2.")
            .arg(displayName(), rev));
}

QStringList Runtime::readPaths(const RuntimeInput &input, const QStringList &slotNames) const
{
    QStringList paths;
    for (const QString &name : slotNames)
        paths.append(QDir(input.dir).filePath(name));
    return paths;
}

bool Runtime::reads(QStringView fileName) const
{
    const QStringList names = files();
    return std::any_of(names.cbegin(), names.cend(), [fileName](const QString &name) {
        return name == fileName;
    });
}

RuntimeSettings Runtime::withDefaults(const RuntimeSettings &values) const
{
    RuntimeSettings out;
    for (const RuntimeSetting &setting : settings())
        out.insert(setting.key, values.value(setting.key, setting.defaultValue));
    return out;
}

qint64 Runtime::setting(const RuntimeSettings &values, const QString &key) const
{
    for (const RuntimeSetting &setting : settings()) {
        if (setting.key == key)
            return values.value(setting.key, setting.defaultValue);
    }
    return 0;
}

qint64 Runtime::nearLimit(qint64 budget)
{
    return (budget * NearPercent + 99) / 100;
}

Result<SkillsList> Runtime::skills(const SkillsRequest &request) const
{
    Q_UNUSED(request)
    return Result<SkillsList>::failure(
        QStringLiteral("%1 lists no skills in its prompt.").arg(displayName()));
}

} // namespace soul
