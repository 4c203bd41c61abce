#include "runtimememory.h"

#include "registry/runtimeregistry.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

namespace soul {

namespace {

const QString LastGroup = QStringLiteral("preview");
const QString RuntimeKey = QStringLiteral("runtime");

// A folder's group: its canonical path hashed, since QSettings takes '/' in a
// key as a group separator.
QString folderGroup(const QString &folder)
{
    const QFileInfo info(folder);
    const QString path = info.canonicalFilePath().isEmpty() ? info.absoluteFilePath()
                                                            : info.canonicalFilePath();
    return QStringLiteral("folders/")
           + QString::fromLatin1(
               QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

RuntimeMemory::RuntimeMemory(QSettings *settings)
    : m_settings(settings)
{}

RuntimeProfile RuntimeMemory::profileFor(const QString &folder) const
{
    if (!folder.isEmpty()) {
        const QString group = folderGroup(folder);
        if (m_settings->contains(group + QLatin1Char('/') + RuntimeKey))
            return read(group);
    }
    return read(LastGroup);
}

RuntimeSettings RuntimeMemory::settingsOf(const Runtime &runtime) const
{
    RuntimeSettings values;
    for (const RuntimeSetting &setting : runtime.settings()) {
        const QString key = LastGroup + QLatin1Char('/') + runtime.id() + QLatin1Char('/')
                            + setting.key;
        if (m_settings->contains(key))
            values.insert(setting.key, m_settings->value(key).toLongLong());
    }
    return values;
}

void RuntimeMemory::remember(const QString &folder, const RuntimeProfile &profile)
{
    write(LastGroup, profile);
    if (!folder.isEmpty())
        write(folderGroup(folder), profile);
}

RuntimeProfile RuntimeMemory::read(const QString &group) const
{
    const Runtime *runtime = RuntimeRegistry::instance().find(
        m_settings->value(group + QLatin1Char('/') + RuntimeKey).toString());
    if (!runtime)
        runtime = RuntimeRegistry::instance().defaultRuntime();
    RuntimeSettings values = settingsOf(*runtime);
    for (const RuntimeSetting &setting : runtime->settings()) {
        const QString key = group + QLatin1Char('/') + runtime->id() + QLatin1Char('/')
                            + setting.key;
        if (m_settings->contains(key))
            values.insert(setting.key, m_settings->value(key).toLongLong());
    }
    return RuntimeProfile::of(runtime, values);
}

void RuntimeMemory::write(const QString &group, const RuntimeProfile &profile)
{
    m_settings->setValue(group + QLatin1Char('/') + RuntimeKey, profile.id());
    for (auto it = profile.settings.cbegin(); it != profile.settings.cend(); ++it) {
        m_settings->setValue(group + QLatin1Char('/') + profile.id() + QLatin1Char('/') + it.key(),
                             it.value());
    }
}

} // namespace soul
