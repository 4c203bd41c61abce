#include "runtimeprofile.h"

#include "contract.h"
#include "openclawrule.h"

#include <algorithm>
#include <utility>

namespace soul {

int OpenClawSettings::limitFor(QStringView fileName) const
{
    if (fileName == QLatin1String("USER.md"))
        return std::min(maxChars(), UserMaxChars);
    return maxChars();
}

QString RuntimeProfile::id() const
{
    return runtime == Runtime::OpenClaw ? QStringLiteral("openclaw") : QStringLiteral("toolnexus");
}

QString RuntimeProfile::displayName() const
{
    return runtime == Runtime::OpenClaw ? QStringLiteral("OpenClaw 2026.9")
                                        : QStringLiteral("toolnexus");
}

QStringList RuntimeProfile::loadedFiles() const
{
    if (runtime == Runtime::OpenClaw)
        return openClawFileOrder();
    return rule.fileNames();
}

bool RuntimeProfile::loads(QStringView fileName) const
{
    const QStringList names = loadedFiles();
    return std::any_of(names.cbegin(), names.cend(), [fileName](const QString &name) {
        return name == fileName;
    });
}

qint64 RuntimeProfile::fileBudget(QStringView fileName) const
{
    if (runtime == Runtime::OpenClaw)
        return openClaw.limitFor(fileName);
    return rule.capBytes;
}

qint64 RuntimeProfile::totalBudget() const
{
    return runtime == Runtime::OpenClaw ? openClaw.totalMaxChars() : -1;
}

qint64 RuntimeProfile::nearLimit(qint64 budget)
{
    return (budget * 85 + 99) / 100;
}

std::optional<RuntimeProfile> runtimeProfileNamed(QStringView id)
{
    if (id == QLatin1String("toolnexus"))
        return RuntimeProfile::toolnexus();
    if (id == QLatin1String("openclaw"))
        return RuntimeProfile::openClaw2026_9();
    return std::nullopt;
}

QString runtimeProfileNames()
{
    return QStringLiteral("toolnexus, openclaw");
}

} // namespace soul
