#include "runtime.h"

#include "composerule.h"

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

} // namespace soul
