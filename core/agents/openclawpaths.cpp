#include "openclawpaths.h"

#include <QDir>
#include <QFileInfo>

namespace soul {

namespace {

// A home value OpenClaw takes: trimmed, and not the texts "undefined" or
// "null" that a shell script can leave behind.
QString homeValue(const QString &raw)
{
    const QString trimmed = raw.trimmed();
    if (trimmed.isEmpty() || trimmed == QLatin1String("undefined")
        || trimmed == QLatin1String("null"))
        return {};
    return trimmed;
}

bool startsWithTilde(const QString &path)
{
    return path == QLatin1String("~") || path.startsWith(QLatin1String("~/"))
           || path.startsWith(QLatin1String("~\\"));
}

bool exists(const QString &path)
{
    return QFileInfo::exists(path);
}

} // namespace

OpenClawPaths OpenClawPaths::system()
{
    return {QProcessEnvironment::systemEnvironment(), QDir::currentPath(), QDir::homePath()};
}

QString OpenClawPaths::variable(const char *name) const
{
    return environment.value(QLatin1String(name)).trimmed();
}

QString OpenClawPaths::home() const
{
    // The OS home: HOME, USERPROFILE, then the account's.
    QString osHome = homeValue(environment.value(QStringLiteral("HOME")));
    if (osHome.isEmpty())
        osHome = homeValue(environment.value(QStringLiteral("USERPROFILE")));
    if (osHome.isEmpty())
        osHome = homeValue(accountHome);
    const QString explicitHome = homeValue(environment.value(QStringLiteral("OPENCLAW_HOME")));
    QString chosen;
    if (explicitHome.isEmpty())
        chosen = osHome;
    else if (startsWithTilde(explicitHome))
        chosen = osHome.isEmpty() ? QString() : osHome + explicitHome.mid(1);
    else
        chosen = explicitHome;
    if (chosen.isEmpty())
        chosen = workingDirectory;
    return QDir::cleanPath(QDir(workingDirectory).absoluteFilePath(chosen));
}

QString OpenClawPaths::userPath(const QString &path) const
{
    QString trimmed = path.trimmed();
    if (trimmed.isEmpty())
        return {};
    if (startsWithTilde(trimmed))
        trimmed = home() + trimmed.mid(1);
    return QDir::cleanPath(QDir(workingDirectory).absoluteFilePath(trimmed));
}

QString OpenClawPaths::stateDir() const
{
    const QString override = variable("OPENCLAW_STATE_DIR");
    if (!override.isEmpty())
        return userPath(override);
    const QString current = QDir(home()).filePath(QStringLiteral(".openclaw"));
    if (exists(current))
        return current;
    const QString legacy = QDir(home()).filePath(QStringLiteral(".clawdbot"));
    return exists(legacy) ? legacy : current;
}

QString OpenClawPaths::configPath() const
{
    const QString override = variable("OPENCLAW_CONFIG_PATH");
    if (!override.isEmpty())
        return userPath(override);
    const QStringList names{QStringLiteral("openclaw.json"), QStringLiteral("clawdbot.json")};
    QStringList candidates;
    const QString state = stateDir();
    for (const QString &name : names)
        candidates.append(QDir(state).filePath(name));
    if (variable("OPENCLAW_STATE_DIR").isEmpty()) {
        for (const char *dir : {".openclaw", ".clawdbot"}) {
            for (const QString &name : names)
                candidates.append(
                    QDir(home()).filePath(QLatin1String(dir) + QLatin1Char('/') + name));
        }
    }
    for (const QString &candidate : std::as_const(candidates)) {
        if (exists(candidate))
            return candidate;
    }
    return QDir(state).filePath(QStringLiteral("openclaw.json"));
}

QString OpenClawPaths::defaultWorkspace() const
{
    const QString workspace = variable("OPENCLAW_WORKSPACE_DIR");
    if (!workspace.isEmpty())
        return QDir::cleanPath(QDir(workingDirectory).absoluteFilePath(workspace));
    if (!variable("OPENCLAW_STATE_DIR").isEmpty())
        return QDir(stateDir()).filePath(QStringLiteral("workspace"));
    const QString profile = variable("OPENCLAW_PROFILE");
    if (!profile.isEmpty() && profile.toLower() != QLatin1String("default"))
        return QDir(home()).filePath(QStringLiteral(".openclaw-") + profile
                                     + QStringLiteral("/workspace"));
    return QDir(home()).filePath(QStringLiteral(".openclaw/workspace"));
}

QStringList OpenClawPaths::includeRoots() const
{
    QStringList roots;
    const QString raw = variable("OPENCLAW_INCLUDE_ROOTS");
    for (const QString &entry : raw.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        const QString root = userPath(entry);
        if (!root.isEmpty() && !roots.contains(root))
            roots.append(root);
    }
    return roots;
}

} // namespace soul
