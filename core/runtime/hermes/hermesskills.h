#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

// The skills index Hermes Agent 0.21.3 puts into its system prompt (the
// "## Skills" block, docs/hermes-0.21.3.md, section 14), built from a home's
// skills/ folder as Hermes builds it: every SKILL.md under it (a few folders
// pruned), its YAML frontmatter's name and description, the categories'
// DESCRIPTION.md, the skills config.yaml disables, the platform, environment
// and tool conditions of a session. The text is checked byte for byte against
// Hermes's own code by .ci/hermes-skills-oracle.
//
// Reading is bounded: files go through readGuardedFile (a FIFO, device or
// socket is never opened), a file over HermesSkillFileLimit is read only up to
// it, YAML aliases may expand to HermesSkillYamlBudget at most, and the walk
// stops after HermesSkillWalkLimit folder entries. Every bound that changes
// what is known says so in a sentence naming the file.
namespace soul {

inline constexpr qint64 HermesSkillFileLimit = qint64(4) * 1024 * 1024;
inline constexpr qint64 HermesSkillYamlBudget = qint64(4) * 1024 * 1024;
inline constexpr int HermesSkillWalkLimit = 50000;

// The session the index is built for. Hermes filters skills by the tools and
// toolsets the session has, the messaging platform it serves ("" for the
// CLI), the host OS and the environments it runs in.
struct HermesSkillsSession
{
    QStringList tools;
    QStringList toolsets;
    bool toolInfo = true;     // false: Hermes was given no tool lists (shows all)
    QString platform;         // HERMES_PLATFORM / HERMES_SESSION_PLATFORM; "" for the CLI
    QStringList environments; // active among "kanban", "docker", "s6"

    // An interactive CLI session with the default toolsets (docs, 14.2).
    static HermesSkillsSession defaultCli();
};

// One SKILL.md the walk found.
struct HermesSkill
{
    QString path;        // absolute path of the SKILL.md
    QString folder;      // the skill's folder name
    QString name;        // the name Hermes lists it under
    QString category;    // "general", "devops", "devops/cloud", "org:ID"
    QString description; // as the index shows it ("" for none)
    bool included = false;
    QString reason;    // why it is not listed, a sentence; "" when it is
    QStringList lints; // sentences: YAML errors, over-long fields, threat patterns
};

struct HermesSkillsIndex
{
    QString text;              // the block exactly as Hermes injects it; "" when no skill is listed
    QList<HermesSkill> skills; // in Hermes's reading order (paths by code point)
    QStringList notes;         // sentences about the home as a whole (walk bound, config)
};

// The index for the home at `home` (its skills/ and config.yaml). A path in
// `buffers` (absolute, as QFileInfo::absoluteFilePath gives it) stands for
// that file's bytes: unsaved text of a SKILL.md, DESCRIPTION.md or
// config.yaml; a buffered SKILL.md or DESCRIPTION.md that is not on disk yet
// is read too. Never fails: what cannot be read is a lint or a note.
HermesSkillsIndex hermesSkillsIndex(const QString &home,
                                    const HermesSkillsSession &session,
                                    const QHash<QString, QByteArray> &buffers = {});

// Only the text, for `soulc compose --runtime hermes --part skills`.
QString hermesSkillsIndexText(
    const QString &home, const HermesSkillsSession &session = HermesSkillsSession::defaultCli());

} // namespace soul
