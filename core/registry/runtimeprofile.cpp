#include "runtimeprofile.h"

#include "runtimeregistry.h"

#include <utility>

namespace soul {

RuntimeProfile::RuntimeProfile()
    : runtime(RuntimeRegistry::instance().defaultRuntime())
{}

RuntimeProfile RuntimeProfile::toolnexus()
{
    return {};
}

RuntimeProfile RuntimeProfile::toolnexus(ComposeRule rule)
{
    RuntimeProfile profile;
    profile.rule = std::move(rule);
    return profile;
}

RuntimeProfile RuntimeProfile::of(const Runtime *runtime, const RuntimeSettings &settings)
{
    RuntimeProfile profile;
    if (runtime)
        profile.runtime = runtime;
    profile.settings = profile.runtime->withDefaults(settings);
    if (const ComposeRule *rule = profile.runtime->sectionRule())
        profile.rule = *rule;
    return profile;
}

QString RuntimeProfile::id() const
{
    return runtime->id();
}

QString RuntimeProfile::displayName() const
{
    return runtime->displayName();
}

QStringList RuntimeProfile::loadedFiles() const
{
    return sectioned() ? rule.fileNames() : runtime->files();
}

bool RuntimeProfile::loads(QStringView fileName) const
{
    return loadedFiles().contains(fileName.toString());
}

qint64 RuntimeProfile::fileBudget(QStringView fileName) const
{
    return sectioned() ? rule.capBytes : runtime->fileBudget(fileName, settings);
}

qint64 RuntimeProfile::totalBudget() const
{
    return runtime->totalBudget(settings);
}

bool RuntimeProfile::operator==(const RuntimeProfile &other) const
{
    return runtime == other.runtime
           && runtime->withDefaults(settings) == other.runtime->withDefaults(other.settings)
           && rule == other.rule;
}

std::optional<RuntimeProfile> runtimeProfileNamed(QStringView id)
{
    const Runtime *runtime = RuntimeRegistry::instance().find(id);
    if (!runtime)
        return std::nullopt;
    return RuntimeProfile::of(runtime);
}

QString runtimeProfileNames()
{
    return RuntimeRegistry::instance().ids();
}

} // namespace soul
