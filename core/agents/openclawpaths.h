#pragma once

#include <QProcessEnvironment>
#include <QString>

// Where OpenClaw 2026.9 looks, decided from an environment given as a value
// (never the process's own, so tests and callers say exactly what OpenClaw
// would see): its home, state directory, config file and the default
// agent's workspace. docs/concepts/agent-workspace.md of the npm package
// openclaw@2026.9.6 describes them; the package's own resolvers are the
// oracle (.ci/agents-oracle).
namespace soul {

struct OpenClawPaths
{
    QProcessEnvironment environment;
    // The working directory OpenClaw would run in: relative paths resolve
    // against it.
    QString workingDirectory;
    // The account's home, used only when the environment names none
    // (OPENCLAW_HOME, HOME, USERPROFILE).
    QString accountHome;

    // The process's own environment, working directory and home.
    static OpenClawPaths system();

    // OPENCLAW_HOME (a leading ~ is the OS home), else HOME, else
    // USERPROFILE, else accountHome, else the working directory.
    QString home() const;
    // `path` trimmed, a leading "~" (alone or before a slash) replaced by
    // home(), made absolute against the working directory and cleaned, as
    // OpenClaw's resolveUserPath does; empty stays empty.
    QString userPath(const QString &path) const;
    // OPENCLAW_STATE_DIR, else ~/.openclaw, else the legacy ~/.clawdbot when
    // only that exists.
    QString stateDir() const;
    // OPENCLAW_CONFIG_PATH, else the first of openclaw.json and the legacy
    // clawdbot.json that exists in the state directory (and, without
    // OPENCLAW_STATE_DIR, in ~/.openclaw then ~/.clawdbot), else
    // <stateDir>/openclaw.json.
    QString configPath() const;
    // OPENCLAW_WORKSPACE_DIR, else <OPENCLAW_STATE_DIR>/workspace, else
    // ~/.openclaw-<OPENCLAW_PROFILE>/workspace for a named profile (not
    // "default"), else ~/.openclaw/workspace.
    QString defaultWorkspace() const;
    // OPENCLAW_INCLUDE_ROOTS: more folders a config's $include may read from.
    QStringList includeRoots() const;

    // The variable trimmed; empty when unset.
    QString variable(const char *name) const;
};

} // namespace soul
