#include "openclawroster.h"

#include "registry/runtimeregistry.h"
#include "runtime/openclaw/openclawruntime.h"

#include "openclawconfig.h"
#include "openclawpaths.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <cmath>

namespace soul {

QString normalizeAgentId(const QString &raw)
{
    static const QRegularExpression valid(QStringLiteral("^[a-z0-9][a-z0-9_-]{0,63}\\z"),
                                          QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression invalidRun(QStringLiteral("[^a-z0-9_-]+"));
    const QString trimmed = raw.trimmed();
    const QString lower = trimmed.toLower();
    if (valid.match(trimmed).hasMatch())
        return lower;
    QString id = lower;
    id.replace(invalidRun, QStringLiteral("-"));
    while (id.startsWith(QLatin1Char('-')))
        id.remove(0, 1);
    while (id.endsWith(QLatin1Char('-')))
        id.chop(1);
    id.truncate(64);
    return id.isEmpty() ? QStringLiteral("main") : id;
}

namespace {

// The patterns end in \z, not $: PCRE's $ also matches before a final line
// break, JavaScript's does not, and OpenClaw refuses "ops\n".
bool isEntryKey(const QString &key)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9_][a-z0-9_-]{0,63}\\z"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern.match(key).hasMatch();
}

bool isProfileName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9][a-z0-9_-]{0,63}\\z"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern.match(name).hasMatch();
}

bool isPositiveInteger(const QJsonValue &value)
{
    if (!value.isDouble())
        return false;
    const double n = value.toDouble();
    return std::isfinite(n) && n > 0 && std::floor(n) == n && n <= 9007199254740991.0;
}

// One roster entry as the reader keeps it.
struct Entry
{
    QString key;     // as written in agents.entries (or the list's id)
    QString pointer; // JSON pointer of the entry's object
    QJsonObject object;
};

class RosterReader
{
public:
    RosterReader(const OpenClawPaths &paths, const OpenClawConfig &config)
        : m_paths(paths)
        , m_config(config)
    {}

    Result<QList<OpenClawAgent>> read()
    {
        const QJsonValue agentsValue = m_config.root.value(QStringLiteral("agents"));
        if (!agentsValue.isUndefined() && !agentsValue.isObject())
            return failAt(QStringLiteral("/agents"), QStringLiteral("agents must be an object."));
        const QJsonObject agents = agentsValue.toObject();
        for (const QString &key : m_config.keys(QStringLiteral("/agents"))) {
            if (key != QLatin1String("ownership") && key != QLatin1String("defaults")
                && key != QLatin1String("entries") && key != QLatin1String("list")) {
                return failAt(QStringLiteral("/agents/") + jsonPointerSegment(key),
                              QStringLiteral("agents.%1 is not a key OpenClaw knows (agents "
                                             "holds ownership, defaults and entries).")
                                  .arg(printableText(key)));
            }
        }
        const QJsonValue ownership = agents.value(QStringLiteral("ownership"));
        if (!ownership.isUndefined() && ownership != QJsonValue(QStringLiteral("explicit")))
            return failAt(QStringLiteral("/agents/ownership"),
                          QStringLiteral("agents.ownership can only be \"explicit\"."));
        m_explicit = !ownership.isUndefined();
        if (Status defaults = readDefaults(agents); !defaults)
            return Result<QList<OpenClawAgent>>::failure(defaults.error());

        QList<Entry> entries;
        if (Status roster = readRoster(agents, entries); !roster)
            return Result<QList<OpenClawAgent>>::failure(roster.error());
        if (entries.isEmpty()) {
            if (m_explicit) {
                return failAt(QStringLiteral("/agents"),
                              QStringLiteral("agents.entries must hold at least one agent "
                                             "when agents.ownership is \"explicit\"."));
            }
            entries.append({QStringLiteral("main"), QString(), {}});
        }
        if (Status targets = checkTargets(entries); !targets)
            return Result<QList<OpenClawAgent>>::failure(targets.error());
        return resolve(entries);
    }

private:
    Result<QList<OpenClawAgent>> failAt(const QString &pointer, const QString &message) const
    {
        return Result<QList<OpenClawAgent>>::failure(
            QStringLiteral("%1: %2 OpenClaw refuses this config; fix it (openclaw doctor "
                           "--fix can), then try again.")
                .arg(m_config.where(pointer), message));
    }
    Status statusAt(const QString &pointer, const QString &message) const
    {
        return Status::failure(failAt(pointer, message).error());
    }

    Status checkBudgets(const QJsonObject &object, const QString &pointer, const QString &path) const
    {
        for (const char *key : {"bootstrapMaxChars", "bootstrapTotalMaxChars"}) {
            const QJsonValue value = object.value(QLatin1String(key));
            if (!value.isUndefined() && !isPositiveInteger(value)) {
                return statusAt(pointer + QLatin1Char('/') + QLatin1String(key),
                                QStringLiteral("%1.%2 must be a whole number above 0.")
                                    .arg(path, QLatin1String(key)));
            }
        }
        return {};
    }

    Status checkString(const QJsonObject &object,
                       const char *key,
                       const QString &pointer,
                       const QString &path) const
    {
        const QJsonValue value = object.value(QLatin1String(key));
        if (!value.isUndefined() && !value.isString()) {
            return statusAt(pointer + QLatin1Char('/') + QLatin1String(key),
                            QStringLiteral("%1.%2 must be a string.").arg(path, QLatin1String(key)));
        }
        return {};
    }

    Status readDefaults(const QJsonObject &agents)
    {
        const QJsonValue value = agents.value(QStringLiteral("defaults"));
        if (value.isUndefined())
            return {};
        const QString pointer = QStringLiteral("/agents/defaults");
        if (!value.isObject())
            return statusAt(pointer, QStringLiteral("agents.defaults must be an object."));
        m_defaults = value.toObject();
        if (Status s
            = checkString(m_defaults, "workspace", pointer, QStringLiteral("agents.defaults"));
            !s)
            return s;
        if (Status s = checkBudgets(m_defaults, pointer, QStringLiteral("agents.defaults")); !s)
            return s;
        const QJsonValue system = m_defaults.value(QStringLiteral("systemAgent"));
        if (!system.isUndefined()) {
            if (!system.isObject())
                return statusAt(pointer + QStringLiteral("/systemAgent"),
                                QStringLiteral("agents.defaults.systemAgent must be an object."));
            if (Status s = checkString(system.toObject(),
                                       "agentId",
                                       pointer + QStringLiteral("/systemAgent"),
                                       QStringLiteral("agents.defaults.systemAgent"));
                !s)
                return s;
        }
        return {};
    }

    // The entries of agents.entries, or of agents.list as OpenClaw moves it
    // there, checked as OpenClaw checks them.
    Status readRoster(const QJsonObject &agents, QList<Entry> &entries)
    {
        if (agents.contains(QStringLiteral("entries"))) {
            const QJsonValue value = agents.value(QStringLiteral("entries"));
            const QString pointer = QStringLiteral("/agents/entries");
            if (!value.isObject())
                return statusAt(pointer,
                                QStringLiteral("agents.entries must be an object of agents "
                                               "keyed by id."));
            const QJsonObject object = value.toObject();
            for (const QString &key : m_config.keys(pointer)) {
                const QString member = pointer + QLatin1Char('/') + jsonPointerSegment(key);
                if (!isEntryKey(key)) {
                    return statusAt(member,
                                    QStringLiteral("\"%1\" is not a valid agent id (letters, "
                                                   "digits, _ and -, at most 64).")
                                        .arg(printableText(key)));
                }
                if (!object.value(key).isObject())
                    return statusAt(member,
                                    QStringLiteral("agents.entries.%1 must be an object.").arg(key));
                entries.append({key, member, object.value(key).toObject()});
            }
        } else if (agents.contains(QStringLiteral("list"))) {
            if (Status s = readList(agents.value(QStringLiteral("list")), entries); !s)
                return s;
        }
        QHash<QString, QString> firstKey;
        int marked = 0;
        for (const Entry &entry : std::as_const(entries)) {
            const QString path = QStringLiteral("agents.entries.") + entry.key;
            for (const QString &key : m_config.keys(entry.pointer)) {
                if (key == QLatin1String("__proto__") || key == QLatin1String("constructor")
                    || key == QLatin1String("prototype"))
                    return statusAt(entry.pointer,
                                    QStringLiteral("%1 must not hold the key %2.").arg(path, key));
            }
            const QJsonValue isDefault = entry.object.value(QStringLiteral("default"));
            if (!isDefault.isUndefined() && !isDefault.isBool())
                return statusAt(entry.pointer + QStringLiteral("/default"),
                                QStringLiteral("%1.default must be true or false.").arg(path));
            marked += isDefault.toBool();
            for (const char *key : {"workspace", "name"}) {
                if (Status s = checkString(entry.object, key, entry.pointer, path); !s)
                    return s;
            }
            if (Status s = checkBudgets(entry.object, entry.pointer, path); !s)
                return s;
            const QString id = normalizeAgentId(entry.key);
            if (firstKey.contains(id)) {
                return statusAt(entry.pointer,
                                QStringLiteral("agents.entries keys \"%1\" and \"%2\" are the "
                                               "same agent id \"%3\"; rename one.")
                                    .arg(firstKey.value(id), entry.key, id));
            }
            firstKey.insert(id, entry.key);
        }
        const QString agentsPointer = QStringLiteral("/agents");
        if (marked > 1)
            return statusAt(agentsPointer,
                            QStringLiteral("at most one agent can be marked default: true "
                                           "(%1 are).")
                                .arg(marked));
        if (m_explicit && marked > 0)
            return statusAt(agentsPointer + QStringLiteral("/ownership"),
                            QStringLiteral("agents.ownership \"explicit\" cannot go with a "
                                           "default: true marker."));
        if (entries.size() > 1 && marked == 0 && !m_explicit)
            return statusAt(agentsPointer,
                            QStringLiteral("a roster of several agents needs agents.ownership "
                                           "\"explicit\" or one agent marked default: true."));
        m_legacyDefault = !m_explicit && marked == 1;
        return {};
    }

    // The agents the config names elsewhere must be in the roster: OpenClaw
    // refuses a config whose system agent, heartbeat agent, talk agent or a
    // binding's agent is not.
    Status checkTargets(const QList<Entry> &entries) const
    {
        QSet<QString> ids;
        for (const Entry &entry : entries)
            ids.insert(normalizeAgentId(entry.key));
        struct Target
        {
            QString pointer;
            QJsonValue agentId;
        };
        QList<Target> targets{
            {QStringLiteral("/agents/defaults/heartbeat/agentId"),
             m_defaults.value(QStringLiteral("heartbeat"))
                 .toObject()
                 .value(QStringLiteral("agentId"))},
            {QStringLiteral("/agents/defaults/systemAgent/agentId"),
             m_defaults.value(QStringLiteral("systemAgent"))
                 .toObject()
                 .value(QStringLiteral("agentId"))},
            {QStringLiteral("/talk/agentId"),
             m_config.root.value(QStringLiteral("talk")).toObject().value(QStringLiteral("agentId"))},
        };
        const QJsonArray bindings = m_config.root.value(QStringLiteral("bindings")).toArray();
        for (qsizetype i = 0; i < bindings.size(); ++i) {
            const QJsonValue agentId = bindings.at(i).toObject().value(QStringLiteral("agentId"));
            if (agentId != QJsonValue(QStringLiteral("main")))
                targets.append({QStringLiteral("/bindings/%1/agentId").arg(i), agentId});
        }
        for (const Target &target : std::as_const(targets)) {
            if (target.agentId.isString()
                && !ids.contains(normalizeAgentId(target.agentId.toString()))) {
                const QString path = target.pointer.mid(1).replace(QLatin1Char('/'),
                                                                   QLatin1Char('.'));
                return statusAt(target.pointer,
                                QStringLiteral("%1 names the agent \"%2\", which is not in the "
                                               "roster.")
                                    .arg(path, printableText(target.agentId.toString())));
            }
        }
        return {};
    }

    // agents.list, which OpenClaw moves to agents.entries only when every
    // item is an object whose id is already canonical and unique.
    Status readList(const QJsonValue &value, QList<Entry> &entries)
    {
        const QString pointer = QStringLiteral("/agents/list");
        const QString fix = QStringLiteral(" (each item an object whose id is lower case, "
                                           "unique, and made of letters, digits, _ and -).");
        if (!value.isArray())
            return statusAt(pointer, QStringLiteral("agents.list must be a list") + fix);
        const QJsonArray list = value.toArray();
        QStringList ids;
        QSet<QString> seen;
        QHash<QString, Entry> listed;
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString item = pointer + QLatin1Char('/') + QString::number(i);
            const QJsonObject object = list.at(i).toObject();
            const QString id = object.value(QStringLiteral("id")).toString();
            if (!list.at(i).isObject() || !object.value(QStringLiteral("id")).isString()
                || id.isEmpty() || id.trimmed() != id || normalizeAgentId(id) != id
                || seen.contains(id)) {
                return statusAt(item,
                                QStringLiteral("agents.list item %1 cannot be moved to "
                                               "agents.entries")
                                        .arg(i)
                                    + fix);
            }
            ids.append(id);
            seen.insert(id);
            QJsonObject rest = object;
            rest.remove(QStringLiteral("id"));
            listed.insert(id, {id, item, rest});
        }
        // agents.entries is an object: JavaScript lists its keys in its own order.
        for (const QString &id : javaScriptKeyOrder(ids))
            entries.append(listed.value(id));
        return {};
    }

    QString defaultsWorkspace() const
    {
        return m_defaults.value(QStringLiteral("workspace")).toString().trimmed();
    }

    // A sentence when OPENCLAW_PROFILE places the default workspace and is
    // not a name OpenClaw takes, else empty.
    QString profileProblem() const
    {
        const QString profile = m_paths.variable("OPENCLAW_PROFILE");
        if (!m_paths.variable("OPENCLAW_WORKSPACE_DIR").isEmpty()
            || !m_paths.variable("OPENCLAW_STATE_DIR").isEmpty() || profile.isEmpty()
            || profile.toLower() == QLatin1String("default") || isProfileName(profile))
            return {};
        return QStringLiteral("OPENCLAW_PROFILE \"%1\" is not a profile name OpenClaw takes (a "
                              "letter or digit, then letters, digits, _ and -, at most 64). Set "
                              "another, or unset it.")
            .arg(printableText(profile));
    }

    // Where the default workspace comes from, for workspaceSource.
    QString defaultWorkspaceSource() const
    {
        if (!m_paths.variable("OPENCLAW_WORKSPACE_DIR").isEmpty())
            return QStringLiteral("OPENCLAW_WORKSPACE_DIR");
        if (!m_paths.variable("OPENCLAW_STATE_DIR").isEmpty())
            return QStringLiteral("OPENCLAW_STATE_DIR");
        const QString profile = m_paths.variable("OPENCLAW_PROFILE");
        if (!profile.isEmpty() && profile.toLower() != QLatin1String("default"))
            return QStringLiteral("OPENCLAW_PROFILE");
        return QStringLiteral("OpenClaw's default");
    }

    Result<QList<OpenClawAgent>> resolve(const QList<Entry> &entries) const
    {
        QString dataOwner;
        if (entries.size() == 1) {
            dataOwner = normalizeAgentId(entries.first().key);
        } else if (m_legacyDefault) {
            for (const Entry &entry : entries) {
                if (entry.object.value(QStringLiteral("default")).toBool())
                    dataOwner = normalizeAgentId(entry.key);
            }
        }
        QStringList ids;
        for (const Entry &entry : entries)
            ids.append(normalizeAgentId(entry.key));
        QString defaultId = dataOwner;
        if (m_explicit) {
            const QString recorded = m_defaults.value(QStringLiteral("systemAgent"))
                                         .toObject()
                                         .value(QStringLiteral("agentId"))
                                         .toString()
                                         .trimmed();
            defaultId = recorded.isEmpty() ? QString() : normalizeAgentId(recorded);
            if (!ids.contains(defaultId))
                defaultId.clear();
        }
        QList<OpenClawAgent> agents;
        for (const Entry &entry : entries) {
            OpenClawAgent agent;
            agent.id = normalizeAgentId(entry.key);
            agent.name = entry.object.value(QStringLiteral("name")).toString();
            agent.isDefault = agent.id == defaultId;
            const QString own = entry.object.value(QStringLiteral("workspace")).toString().trimmed();
            const QString shared = defaultsWorkspace();
            if (!own.isEmpty()) {
                agent.workspace = m_paths.userPath(own);
                agent.workspaceSource = QStringLiteral("agents.entries.%1.workspace").arg(entry.key);
            } else if (agent.id == dataOwner && !shared.isEmpty()) {
                agent.workspace = m_paths.userPath(shared);
                agent.workspaceSource = QStringLiteral("agents.defaults.workspace");
            } else if (agent.id == dataOwner) {
                // OpenClaw stops at a profile name it cannot make a folder
                // of, when it needs the default workspace.
                if (const QString problem = profileProblem(); !problem.isEmpty())
                    return Result<QList<OpenClawAgent>>::failure(problem);
                agent.workspace = m_paths.defaultWorkspace();
                agent.workspaceSource = defaultWorkspaceSource();
            } else if (!shared.isEmpty()) {
                agent.workspace = QDir::cleanPath(m_paths.userPath(shared) + QLatin1Char('/')
                                                  + agent.id);
                agent.workspaceSource = QStringLiteral("agents.defaults.workspace");
            } else {
                agent.workspace
                    = QDir(m_paths.stateDir()).filePath(QStringLiteral("workspace-") + agent.id);
                agent.workspaceSource = QStringLiteral("the state directory");
            }
            // No file name can hold a NUL; Qt would only warn "Broken filename"
            // at each use of the path and find no folder.
            if (agent.workspace.contains(QChar(0))) {
                const QString pointer = !own.isEmpty()
                                            ? entry.pointer + QStringLiteral("/workspace")
                                            : QStringLiteral("/agents/defaults/workspace");
                return Result<QList<OpenClawAgent>>::failure(
                    QStringLiteral("%1: the workspace of agent \"%2\", %3, holds a NUL "
                                   "character (\\u0000), which no path can hold. Fix the path in "
                                   "the config.")
                        .arg(m_config.where(pointer), agent.id, printableText(agent.workspace)));
            }
            budget(entry.object,
                   "bootstrapMaxChars",
                   agent.settings.bootstrapMaxChars,
                   agent.maxCharsSource);
            budget(entry.object,
                   "bootstrapTotalMaxChars",
                   agent.settings.bootstrapTotalMaxChars,
                   agent.totalMaxCharsSource);
            agents.append(agent);
        }
        return agents;
    }

    // The entry's number, else the defaults', else OpenClaw's own (left in
    // `value`).
    void budget(const QJsonObject &entry, const char *key, int &value, BudgetSource &source) const
    {
        QJsonValue raw = entry.value(QLatin1String(key));
        source = BudgetSource::Agent;
        if (raw.isUndefined() || raw.isNull()) {
            raw = m_defaults.value(QLatin1String(key));
            source = BudgetSource::Defaults;
        }
        if (raw.isDouble() && std::isfinite(raw.toDouble()) && raw.toDouble() > 0) {
            value = int(qMin(std::floor(raw.toDouble()), 2147483647.0));
            return;
        }
        source = BudgetSource::OpenClaw;
    }

    const OpenClawPaths &m_paths;
    const OpenClawConfig &m_config;
    QJsonObject m_defaults;
    bool m_explicit = false;
    bool m_legacyDefault = false;
};

} // namespace

const OpenClawAgent *OpenClawRoster::defaultAgent() const
{
    for (const OpenClawAgent &agent : agents) {
        if (agent.isDefault)
            return &agent;
    }
    return nullptr;
}

QString budgetSourceText(BudgetSource source, const QString &agentId)
{
    switch (source) {
    case BudgetSource::Agent:
        return QStringLiteral("agents.entries.") + agentId;
    case BudgetSource::Defaults:
        return QStringLiteral("agents.defaults");
    case BudgetSource::OpenClaw:
        break;
    }
    return QStringLiteral("OpenClaw's default");
}

Result<OpenClawRoster> readOpenClawRoster(const OpenClawPaths &paths, const QString &configFile)
{
    OpenClawRoster roster;
    roster.configPath = configFile.isEmpty() ? paths.configPath() : paths.userPath(configFile);
    roster.stateDir = paths.stateDir();
    const Result<OpenClawConfig> config = readOpenClawConfig(roster.configPath,
                                                             paths,
                                                             !configFile.isEmpty());
    if (!config)
        return Result<OpenClawRoster>::failure(config.error());
    roster.configExists = config->exists;
    const Result<QList<OpenClawAgent>> agents = RosterReader(paths, *config).read();
    if (!agents)
        return Result<OpenClawRoster>::failure(agents.error());
    roster.agents = *agents;
    return roster;
}

RuntimeProfile OpenClawAgent::profile() const
{
    return RuntimeProfile::of(RuntimeRegistry::instance().find(QString::fromLatin1(OpenClawId)),
                              settings.values());
}

} // namespace soul
