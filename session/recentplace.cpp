#include "recentplace.h"

#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace soul {

namespace {

// Each entry a group of its own: a folder path holds '/', which QSettings
// takes for groups in a key.
const QString PlacesKey = QStringLiteral("recentPlaces");
const QString DirectoryKey = QStringLiteral("directory");
const QString ProjectKey = QStringLiteral("homeProject");
const QString ProjectFileKey = QStringLiteral("homeProjectFile");
const QString RuntimeKey = QStringLiteral("homeRuntime");
// The keys of a home's project before homes kept their runtime's id; still
// read, so that an earlier version's recent list opens its homes.
const QString OldProjectKey = QStringLiteral("hermesProject");
const QString OldProjectFileKey = QStringLiteral("hermesProjectFile");
// The plain list of folders of earlier versions.
const QString OldFoldersKey = QStringLiteral("recentDirectories");

// The user's home folder as ~, as runtimes' own messages write it.
QString shortPath(const QString &path)
{
    const QString home = QDir::homePath();
    if (path == home)
        return QStringLiteral("~");
    if (path.startsWith(home + QLatin1Char('/')))
        return QDir::toNativeSeparators(QStringLiteral("~") + path.mid(home.size()));
    return QDir::toNativeSeparators(path);
}

} // namespace

QString RecentPlace::label() const
{
    if (!isHome()) {
        return QCoreApplication::translate("RecentPlace", "%1  (%2)")
            .arg(QFileInfo(directory).fileName(), QDir::toNativeSeparators(directory));
    }
    const RuntimeRegistry &registry = RuntimeRegistry::instance();
    const Runtime *owner = runtime.isEmpty() ? registry.homeRuntime() : registry.find(runtime);
    // The runtime's name without its version ("Hermes Agent 0.21.3": Hermes).
    const QString name = owner ? owner->displayName().section(QLatin1Char(' '), 0, 0) : QString();
    if (name.isEmpty()) {
        return QCoreApplication::translate("RecentPlace", "Home %1 with project %2  (%3)")
            .arg(shortPath(directory),
                 QFileInfo(project).fileName(),
                 QDir::toNativeSeparators(project));
    }
    return QCoreApplication::translate("RecentPlace", "%1 home %2 with project %3  (%4)")
        .arg(name,
             shortPath(directory),
             QFileInfo(project).fileName(),
             QDir::toNativeSeparators(project));
}

QList<RecentPlace> readRecentPlaces(const QSettings &settings)
{
    QList<RecentPlace> places;
    if (!settings.childGroups().contains(PlacesKey)) {
        for (const QString &dir : settings.value(OldFoldersKey).toStringList())
            places.append(RecentPlace::folder(dir));
        return places;
    }
    // QSettings::beginReadArray is not const; the entries are read by key.
    const int count = settings.value(PlacesKey + QStringLiteral("/size")).toInt();
    for (int i = 1; i <= count; ++i) {
        const QString group = QStringLiteral("%1/%2/").arg(PlacesKey).arg(i);
        RecentPlace place;
        place.directory = settings.value(group + DirectoryKey).toString();
        place.project
            = settings.value(group + ProjectKey, settings.value(group + OldProjectKey)).toString();
        place.projectFile = settings
                                .value(group + ProjectFileKey,
                                       settings.value(group + OldProjectFileKey))
                                .toString();
        place.runtime = settings.value(group + RuntimeKey).toString();
        if (!place.isEmpty())
            places.append(place);
    }
    return places;
}

void writeRecentPlaces(QSettings &settings, const QList<RecentPlace> &places)
{
    settings.remove(OldFoldersKey);
    settings.remove(PlacesKey);
    settings.beginWriteArray(PlacesKey, int(places.size()));
    for (int i = 0; i < places.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(DirectoryKey, places.at(i).directory);
        if (places.at(i).isHome()) {
            settings.setValue(ProjectKey, places.at(i).project);
            if (!places.at(i).projectFile.isEmpty())
                settings.setValue(ProjectFileKey, places.at(i).projectFile);
            if (!places.at(i).runtime.isEmpty())
                settings.setValue(RuntimeKey, places.at(i).runtime);
        }
    }
    settings.endArray();
}

} // namespace soul
