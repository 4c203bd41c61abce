#pragma once

#include "agents/openclawpaths.h"
#include "runtime/lintitem.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// The skills OpenClaw 2026.9's enabled plugins bring to an agent's skills
// list: where they are, not what they say (openclawskills.cpp reads them).
//
// OpenClaw takes the plugins of the install it runs from (dist/extensions
// of the openclaw package); soulc finds that install as it finds the
// bundled skills folder: the package OPENCLAW_BUNDLED_SKILLS_DIR lies in,
// else the one whose `openclaw` command is on PATH. A plugin's manifest
// (openclaw.plugin.json) names its skills folders; the plugin counts when
// plugins.enabled is not false, it is not in plugins.deny, its
// plugins.entries.<id>.enabled is not false, plugins.allow (when set) names
// it, and it is on by default or turned on in entries (a memory plugin only
// when plugins.slots.memory picks it). OpenClaw links each such skill into
// <state dir>/plugin-skills/ and lists it from there; soulc writes nothing
// and reports the path the link has.
//
// Not read: plugins installed outside the package (<state dir>/extensions,
// <workspace>/.openclaw/extensions, plugins.load.paths, installed records),
// plugin id aliases and channel plugins' channel switches; their presence is
// a lint.
namespace soul {

struct PluginSkillRoot
{
    QString pluginId;
    QString dir; // a skills folder the manifest names, absolute
};

// A skill OpenClaw links into <state dir>/plugin-skills/.
struct PluginSkillLink
{
    QString name; // the link's name: the skill folder's name
    QString pluginId;
    QString target; // the skill folder in the plugin
};

struct PluginSkills
{
    bool enabled = false;      // plugins.enabled is not false
    bool known = false;        // the install was found and its plugins read
    QString installDir;        // the openclaw package
    QString how;               // how it was found
    QString pluginsDir;        // its bundled plugins folder
    QStringList activePlugins; // the enabled plugins with skills, in OpenClaw's order
    QList<PluginSkillRoot> roots;
    QList<PluginSkillLink> links; // in the order OpenClaw publishes them
    QList<Lint> lints;
};

// The openclaw package soulc takes plugin skills from; empty when none is
// found. `how` says how it was found.
QString openClawInstallDir(const OpenClawPaths &paths, QString *how = nullptr);

// The plugin skills of `config` for the agent whose workspace is
// `workspaceDir`.
PluginSkills openClawPluginSkills(const OpenClawPaths &paths,
                                  const QJsonObject &config,
                                  const QString &workspaceDir);

} // namespace soul
