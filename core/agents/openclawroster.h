#pragma once

#include "registry/runtimeprofile.h"
#include "result.h"
#include "runtime/openclaw/openclawsettings.h"

#include <QList>
#include <QString>

// OpenClaw 2026.9's agents as `openclaw agents list --json` lists them: the
// roster of the config (agents.entries keyed by id, or the older agents.list
// that OpenClaw moves there on reading), each agent's workspace and whether
// it is the default, and each agent's bootstrap budgets. No config, or one
// without a roster, is the single agent `main`.
//
// The rules, as the package's resolvers apply them (.ci/agents-oracle holds
// this code to them):
// - a roster of more than one agent needs agents.ownership "explicit" or
//   exactly one legacy `default: true` marker; OpenClaw refuses the config
//   otherwise, and so does this reader;
// - the data owner (a sole agent, or the one marked default in a legacy
//   roster) works in agents.defaults.workspace, else in the default
//   workspace (OpenClawPaths::defaultWorkspace()); every other agent in
//   <agents.defaults.workspace>/<id>, else <stateDir>/workspace-<id>;
//   agents.entries.<id>.workspace overrides both;
// - the default agent (isDefault) is, with ownership "explicit",
//   agents.defaults.systemAgent.agentId when it names an agent of the
//   roster (else none), and otherwise the data owner.
namespace soul {

struct OpenClawPaths;

// Where one of an agent's budget numbers came from.
enum class BudgetSource { Agent, Defaults, OpenClaw };

struct OpenClawAgent
{
    QString id;        // normalized: lower case
    QString name;      // agents.entries.<id>.name, or empty
    QString workspace; // absolute
    bool isDefault = false;
    // The agent's own bootstrapMaxChars and bootstrapTotalMaxChars, ready
    // for RuntimeProfile::openClaw2026_9().
    OpenClawSettings settings;
    BudgetSource maxCharsSource = BudgetSource::OpenClaw;
    BudgetSource totalMaxCharsSource = BudgetSource::OpenClaw;
    // Where the workspace came from: "agents.entries.work.workspace",
    // "agents.defaults.workspace", "OPENCLAW_WORKSPACE_DIR", ...
    QString workspaceSource;

    RuntimeProfile profile() const;
};

struct OpenClawRoster
{
    QString configPath; // absolute, whether or not it exists
    bool configExists = false;
    QString stateDir;
    QList<OpenClawAgent> agents; // in OpenClaw's order

    // The agent marked isDefault, or nullptr.
    const OpenClawAgent *defaultAgent() const;
};

// "agents.entries.work", "agents.defaults", "OpenClaw's default".
QString budgetSourceText(BudgetSource source, const QString &agentId);

// The roster OpenClaw would list with `paths` (its environment, working
// directory and home). `configFile`, when not empty, is read instead of the
// config OpenClaw would find, and must exist. A config that cannot be read,
// is not JSON5, or that OpenClaw would refuse for its agents is a failure
// naming the file and, where there is one, the line; what this reader does
// not support is refused by name, never guessed.
// OpenClaw's canonical agent id: lower case, runs of other characters than
// a-z, 0-9, _ and - made one '-', dashes trimmed from both ends, at most 64;
// "main" for what leaves nothing.
QString normalizeAgentId(const QString &raw);

Result<OpenClawRoster> readOpenClawRoster(const OpenClawPaths &paths,
                                          const QString &configFile = {});

} // namespace soul
