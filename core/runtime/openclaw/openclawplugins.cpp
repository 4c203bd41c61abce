#include "openclawplugins.h"

#include "disk/guardedread.h"
#include "runtime/openclaw/skillpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <optional>

#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

using namespace skillpaths;

// A package.json or a plugin manifest larger than this is not one.
constexpr qint64 MaxManifestBytes = qint64(1) << 20;
// Folders of the plugins folder looked at, and skill folders of one skills
// folder: a hostile install costs this much, not what it holds.
constexpr qsizetype MaxEntries = 3000;
// How far above the `openclaw` command or the bundled skills folder the
// package's root may be.
constexpr int MaxPackageDepth = 4;

std::optional<QJsonObject> jsonFile(const QString &path, const QString &what)
{
    GuardedFile guard;
    guard.what = what;
    guard.kind = QStringLiteral("a JSON file");
    guard.limitOwner = QStringLiteral("Soul Studio");
    guard.maxBytes = MaxManifestBytes;
    const Result<QByteArray> read = readGuardedFile(path, guard);
    if (!read)
        return std::nullopt;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(*read, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    return doc.object();
}

// The folder at or above `start` holding the package.json of the openclaw
// package, or empty.
QString packageAbove(const QString &start)
{
    QString dir = realPath(start);
    for (int depth = 0; !dir.isEmpty() && depth <= MaxPackageDepth; ++depth) {
        const QString manifest = joined(dir, QStringLiteral("package.json"));
        if (QFileInfo(manifest).isFile()) {
            const std::optional<QJsonObject> package = jsonFile(manifest,
                                                                QStringLiteral("The package file"));
            if (package && package->value(QLatin1String("name")) == QLatin1String("openclaw"))
                return dir;
        }
        const QString parent = QFileInfo(dir).path();
        if (parent == dir)
            break;
        dir = parent;
    }
    return {};
}

// Child folders of `dir`, sorted, from its first MaxEntries entries.
QStringList childFolders(const QString &dir, bool followLinks)
{
    QStringList out = childDirectories(dir, MaxEntries, followLinks).dirs;
    std::sort(out.begin(), out.end());
    return out;
}

// A SKILL.md OpenClaw publishes: a regular file, not a link, inside `root`.
bool publishable(const QString &skillDir, const QString &root)
{
    const QString file = joined(skillDir, QStringLiteral("SKILL.md"));
    struct stat st
    {};
    if (::lstat(QFile::encodeName(file).constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    const QString real = realPath(file);
    const QString rootReal = realPath(root);
    return !real.isEmpty() && !rootReal.isEmpty() && isInside(rootReal, real);
}

QString lowered(const QString &text)
{
    return text.trimmed().toLower();
}

QStringList idList(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &item : value.toArray()) {
        const QString id = item.isString() ? lowered(item.toString()) : QString();
        if (!id.isEmpty())
            out.append(id);
    }
    return out;
}

struct Policy
{
    bool enabled = true;
    QStringList allow;
    QStringList deny;
    QHash<QString, QJsonObject> entries; // by lowercase id
    std::optional<QString> memorySlot;   // nullopt: turned off
    QString contextEngineSlot;

    static Policy from(const QJsonObject &config)
    {
        Policy out;
        const QJsonObject plugins = config.value(QLatin1String("plugins")).toObject();
        out.enabled = plugins.value(QLatin1String("enabled")) != QJsonValue(false);
        out.allow = idList(plugins.value(QLatin1String("allow")));
        out.deny = idList(plugins.value(QLatin1String("deny")));
        const QJsonObject entries = plugins.value(QLatin1String("entries")).toObject();
        for (auto it = entries.begin(); it != entries.end(); ++it) {
            const QString id = lowered(it.key());
            if (!id.isEmpty())
                out.entries.insert(id, it.value().toObject());
        }
        const QJsonObject slots = plugins.value(QLatin1String("slots")).toObject();
        const QJsonValue memory = slots.value(QLatin1String("memory"));
        if (memory.isNull()) {
            out.memorySlot = std::nullopt;
        } else {
            const QString picked = memory.isString() ? memory.toString().trimmed() : QString();
            if (picked.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
                out.memorySlot = std::nullopt;
            else
                out.memorySlot = picked.isEmpty() ? QStringLiteral("memory-core") : picked;
        }
        const QJsonValue engine = slots.value(QLatin1String("contextEngine"));
        out.contextEngineSlot = engine.isString() ? engine.toString().trimmed() : QString();
        return out;
    }

    // Whether a bundled plugin is on, and why not when it is off.
    bool active(const QString &id, bool enabledByDefault, QString *whyNot) const
    {
        const QString key = lowered(id);
        const auto entry = entries.constFind(key);
        const QJsonValue entryEnabled = entry == entries.cend()
                                            ? QJsonValue()
                                            : entry->value(QLatin1String("enabled"));
        if (deny.contains(key)) {
            *whyNot = QStringLiteral("in plugins.deny");
            return false;
        }
        if (entryEnabled == QJsonValue(false)) {
            *whyNot = QStringLiteral("plugins.entries.%1.enabled is false").arg(id);
            return false;
        }
        if (memorySlot == id || contextEngineSlot == id)
            return true;
        if (!allow.isEmpty() && !allow.contains(key)) {
            *whyNot = QStringLiteral("not in plugins.allow");
            return false;
        }
        if (entryEnabled == QJsonValue(true) || enabledByDefault)
            return true;
        *whyNot = QStringLiteral("off by default");
        return false;
    }
};

bool isMemoryKind(const QJsonValue &kind, bool *multiKind)
{
    *multiKind = kind.isArray() && kind.toArray().size() > 1;
    if (kind.isString())
        return kind.toString() == QLatin1String("memory");
    return kind.isArray() && kind.toArray().contains(QJsonValue(QStringLiteral("memory")));
}

Lint pluginLint(const QString &file, LintLevel level, const char *code, const QString &message)
{
    return {file, -1, level, QLatin1String(code), message};
}

} // namespace

QString openClawInstallDir(const OpenClawPaths &paths, QString *how)
{
    const QString override = paths.variable("OPENCLAW_BUNDLED_SKILLS_DIR");
    if (!override.isEmpty()) {
        const QString dir = packageAbove(
            QDir(paths.workingDirectory).absoluteFilePath(paths.userPath(override)));
        if (!dir.isEmpty()) {
            if (how)
                *how = QStringLiteral("the openclaw package holding OPENCLAW_BUNDLED_SKILLS_DIR");
            return dir;
        }
    }
    const QString pathVariable = paths.environment.value(QStringLiteral("PATH"));
    for (const QString &part : pathVariable.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        QString command = QDir::cleanPath(part + QStringLiteral("/openclaw"));
        if (QDir::isRelativePath(command))
            command = joined(paths.workingDirectory, command);
        if (::access(QFile::encodeName(command).constData(), X_OK) != 0)
            continue;
        const QString dir = packageAbove(QFileInfo(realPath(command)).path());
        if (how)
            *how = dir.isEmpty() ? QStringLiteral("%1 is not in an openclaw package").arg(command)
                                 : QStringLiteral("the openclaw package on PATH (%1)").arg(command);
        return dir;
    }
    if (how)
        *how = QStringLiteral("no openclaw command on PATH");
    return {};
}

PluginSkills openClawPluginSkills(const OpenClawPaths &paths,
                                  const QJsonObject &config,
                                  const QString &workspaceDir)
{
    PluginSkills out;
    const Policy policy = Policy::from(config);
    out.enabled = policy.enabled && !workspaceDir.trimmed().isEmpty();
    if (!out.enabled)
        return out;

    // Plugins from elsewhere than the install: soulc does not read them.
    const QJsonObject plugins = config.value(QLatin1String("plugins")).toObject();
    QStringList elsewhere;
    const QString global = joined(paths.stateDir(), QStringLiteral("extensions"));
    if (!childFolders(global, true).isEmpty())
        elsewhere.append(global);
    const QString local = joined(workspaceDir, QStringLiteral(".openclaw/extensions"));
    if (!childFolders(local, true).isEmpty())
        elsewhere.append(local);
    if (!plugins.value(QLatin1String("load"))
             .toObject()
             .value(QLatin1String("paths"))
             .toArray()
             .isEmpty())
        elsewhere.append(QStringLiteral("plugins.load.paths"));
    if (!plugins.value(QLatin1String("installs")).toObject().isEmpty())
        elsewhere.append(QStringLiteral("plugins.installs"));
    for (const QString &where : std::as_const(elsewhere))
        out.lints.append(pluginLint(where.startsWith(QLatin1Char('/')) ? where : QString(),
                                    LintLevel::Warning,
                                    "plugin-skills-unread",
                                    QStringLiteral("OpenClaw may list skills of the plugins in %1; "
                                                   "soulc reads only the plugins of the openclaw "
                                                   "package, so their skills are not shown.")
                                        .arg(where)));

    out.installDir = openClawInstallDir(paths, &out.how);
    if (out.installDir.isEmpty()) {
        out.lints.append(pluginLint(QString(),
                                    LintLevel::Warning,
                                    "plugin-skills-unknown",
                                    QStringLiteral("Plugins are enabled, but no OpenClaw install "
                                                   "was found (%1): the skills of its enabled "
                                                   "plugins are unknown and not shown. Put the "
                                                   "openclaw command on PATH, or turn plugins off "
                                                   "with plugins.enabled: false.")
                                        .arg(out.how)));
        return out;
    }
    out.known = true;
    const QString disabled = lowered(paths.variable("OPENCLAW_DISABLE_BUNDLED_PLUGINS"));
    if (disabled == QLatin1String("1") || disabled == QLatin1String("true"))
        return out;
    for (const char *candidate : {"dist-runtime/extensions", "dist/extensions"}) {
        const QString dir = joined(out.installDir, QLatin1String(candidate));
        if (isDirectory(dir) && isInside(out.installDir, realPath(dir))) {
            out.pluginsDir = dir;
            break;
        }
    }
    if (out.pluginsDir.isEmpty())
        return out;

    QSet<QString> seen;
    std::optional<QString> memoryPicked;
    for (const QString &name : childFolders(out.pluginsDir, false)) {
        const QString rootDir = joined(out.pluginsDir, name);
        const std::optional<QJsonObject> manifest
            = jsonFile(joined(rootDir, QStringLiteral("openclaw.plugin.json")),
                       QStringLiteral("The plugin manifest"));
        if (!manifest)
            continue;
        const QString id = manifest->value(QLatin1String("id")).toString().trimmed();
        const QJsonArray skills = manifest->value(QLatin1String("skills")).toArray();
        if (id.isEmpty() || skills.isEmpty())
            continue;
        QString whyNot;
        if (!policy.active(id,
                           manifest->value(QLatin1String("enabledByDefault")) == QJsonValue(true),
                           &whyNot))
            continue;
        bool multiKind = false;
        if (isMemoryKind(manifest->value(QLatin1String("kind")), &multiKind) && !multiKind) {
            if (!policy.memorySlot || *policy.memorySlot != id)
                continue;
            if (memoryPicked && *memoryPicked != id)
                continue;
            memoryPicked = id;
        }
        out.activePlugins.append(id);
        const QString rootReal = realPath(rootDir);
        for (const QJsonValue &raw : skills) {
            const QString trimmed = raw.toString().trimmed();
            if (trimmed.isEmpty())
                continue;
            const QString dir = QDir::cleanPath(QDir(rootDir).absoluteFilePath(trimmed));
            const QString real = realPath(dir);
            if (real.isEmpty() || !isInside(rootDir, dir) || rootReal.isEmpty()
                || !isInside(rootReal, real))
                continue;
            if (seen.contains(dir))
                continue;
            seen.insert(dir);
            out.roots.append({id, dir});
        }
    }

    // The links OpenClaw makes: a folder with SKILL.md is one skill, else
    // each child folder with one; the first of a name wins.
    QSet<QString> names;
    const auto add = [&](const QString &name, const QString &pluginId, const QString &target) {
        if (names.contains(name))
            return;
        names.insert(name);
        out.links.append({name, pluginId, target});
    };
    for (const PluginSkillRoot &root : std::as_const(out.roots)) {
        if (publishable(root.dir, root.dir)) {
            add(QFileInfo(root.dir).fileName(), root.pluginId, root.dir);
            continue;
        }
        for (const QString &child : childFolders(root.dir, false)) {
            const QString dir = joined(root.dir, child);
            if (publishable(dir, root.dir))
                add(child, root.pluginId, dir);
        }
    }
    return out;
}

} // namespace soul
