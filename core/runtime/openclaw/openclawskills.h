#pragma once

#include "agents/openclawconfig.h"
#include "agents/openclawpaths.h"
#include "runtime/runtimeskills.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

// The skills list OpenClaw 2026.9 puts into an agent's system prompt
// (buildSkillSnapshot(...).prompt of the npm package openclaw@2026.9.6),
// computed from the same folders, config and environment, byte for byte;
// .ci/skills-oracle holds the two together. The sources, by rising
// precedence: the config's skills.load.extraDirs, the skills of the enabled
// plugins of the OpenClaw install (openclawplugins.h; when plugins are on
// and no install is found, a lint says their skills are unknown), the
// bundled skills folder, <state dir>/skills, ~/.agents/skills (only with the
// default state dir), <workspace>/.agents/skills, <workspace>/skills. Not
// read: an agent's workshop-skills and custodian skills, which need
// OpenClaw's agent runtime; skills.limits caps are read.
//
// Every file is read through the guard (disk/guardedread.h) and at most
// OpenClaw's own cap (256,000 bytes unless skills.limits.maxSkillFileBytes);
// folders are listed as OpenClaw lists them (3,000 entries a folder, 300
// candidates a root, 200 skills a source), so a folder of 100,000 skills
// costs what OpenClaw reads of it.
namespace soul {

struct SkillsInput
{
    QString workspaceDir;                 // absolute
    OpenClawPaths paths;                  // HOME, the state dir, PATH, OPENCLAW_* of the run
    std::optional<OpenClawConfig> config; // none: OpenClaw runs without a config
    QString agentId;                      // empty: no agent (no agents.list[].skills filter)
    // Unsaved editor texts that stand for files: absolute SKILL.md path -> bytes.
    QHash<QString, QByteArray> buffers;
    QString platform = QStringLiteral("linux"); // process.platform
};

SkillsList openClawSkills(const SkillsInput &input);

// The bundled skills folder OpenClaw would use: OPENCLAW_BUNDLED_SKILLS_DIR,
// else skills/ of the openclaw package whose `openclaw` command is on PATH.
QString openClawBundledSkillsDir(const OpenClawPaths &paths, QString *how = nullptr);

} // namespace soul
