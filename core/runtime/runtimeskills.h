#pragma once

#include "lintitem.h"
#include "runtime.h"

#include <QHash>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// The skills a runtime lists in its prompt (OpenClaw's skills list, Hermes's
// skills index): each SKILL.md it finds, where from, whether it is listed
// and why not, and the list's exact text. Each runtime's rule lives in its
// own folder; Runtime::skills() answers for it.
namespace soul {

enum class SkillFate { Kept, Shortened, Dropped, Unlisted };

struct SkillItem
{
    QString name;
    QString description;
    QString source; // where it comes from, as the runtime names it: openclaw-workspace, a category
    QString filePath;    // as the runtime records it
    QString location;    // as the prompt writes it (~/ for the home)
    bool loaded = false; // false: the runtime skips the file; `problem` says why
    QString problem;
    bool winner = true;    // false: a later source has a skill of this name
    QString shadowedBy;    // "openclaw-workspace:/path/SKILL.md"
    QString plugin;        // the plugin that brings it; empty: none
    bool eligible = false; // listed unless dropped for the budget
    QString whyNot;        // ineligible, disabled, filtered, hidden from the model
    SkillFate fate = SkillFate::Unlisted;
    QString entry;            // its part of the list, as the prompt has it
    qsizetype entryChars = 0; // entry's length in the runtime's unit
    QList<Lint> lints;
};

struct SkillsList
{
    QString prompt;           // exactly as the runtime builds it; empty when no skill is listed
    QList<SkillItem> skills;  // every SKILL.md found, in the runtime's order
    qsizetype maxChars = -1;  // the list's budget in the runtime's unit; -1: none
    qsizetype maxCount = -1;  // the most skills it lists; -1: no limit
    qsizetype listed = 0;     // skills in the prompt
    qsizetype candidates = 0; // eligible skills before the budget
    bool compact = false;
    int descriptionMaxChars = -1; // compact: the cut; 0: descriptions dropped
    QString bundledDir;
    QString bundledHow; // how it was found ("OPENCLAW_BUNDLED_SKILLS_DIR"), "none"; empty: no such folder
    // The runtime's plugins whose skills are listed, and the install they
    // come from; pluginsHow empty: the runtime has no plugins, or they are off.
    QStringList plugins;
    QString pluginsDir;
    QString pluginsHow;
    // The list comes before the runtime's project text in its prompt (else
    // after it).
    bool beforeText = true;
    QList<Lint> lints; // the list's own: a folder cut short, a source unreadable
};

// "kept", "shortened", "dropped", "unlisted"
QString skillFateName(SkillFate fate);

// The names of the skills the list's text holds (kept or shortened), in the
// list's order.
QStringList listedSkillNames(const SkillsList &list);

// What a runtime reads an agent's skills from.
struct SkillsRequest
{
    // The agent's folder (or a home and project), and unsaved editor texts
    // by absolute path, which stand for the files.
    RuntimeInput input;
    // The runtime's own config named by the user (an OpenClaw config); empty:
    // the one the runtime would find.
    QString configFile;
    QString agentId; // the agent whose allowlist applies; empty: none
    // The run's environment (HOME, PATH, the runtime's variables), working
    // directory and account home.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QString workingDirectory;
    QString accountHome;
};

} // namespace soul
