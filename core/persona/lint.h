#pragma once

#include "runtimeprofile.h"

#include <QList>
#include <QString>

namespace soul {

struct ComposeRule;
struct SlotFacts;
struct OpenClawInput;
struct OpenClawComposition;

enum class LintLevel { Info, Warning, Error };

// Something a persona author should know, as one sentence naming the file.
struct Lint
{
    QString file;  // the file (or folder) it is about, relative to the persona
    int slot = -1; // its slot, or -1 for a file beside the slots
    LintLevel level = LintLevel::Info;
    QString code;    // stable, for scripts: "truncated", "bom", ...
    QString message; // a sentence for a person
};

QString lintLevelName(LintLevel level); // "info", "warning", "error"

// Lints of one slot, from its facts (on disk, or of an editor buffer) taken
// under `rule`, whose cap and near share they speak of. The hint about what
// OpenClaw would keep uses `openClaw` (its defaults unless given).
QList<Lint> lintSlot(const SlotFacts &facts,
                     const ComposeRule &rule,
                     const OpenClawSettings &openClaw = {});

// Lints about the directory itself: case variants of slot names, files other
// runtimes read that this rule does not. `slotPresent` says which slots are
// present.
QList<Lint> lintDirectoryEntries(const QString &dir, const QList<bool> &slotPresent);
// The same from the folder's entry names (a commit's tree, say) and whether
// its "memory" entry is a folder.
QList<Lint> lintDirectoryEntries(const QStringList &entries,
                                 bool memoryFolder,
                                 const QList<bool> &slotPresent);

// Lints of `dir` under the OpenClaw 2026.9 profile, from what it reads
// (`input`) and injects (`composition`): cut files with the computed counts,
// files refused or never loaded, files the total leaves out, and what
// OpenClaw does to the folder itself before a run (templates for missing
// files, the pending first run).
QList<Lint> lintOpenClaw(const QString &dir,
                         const OpenClawInput &input,
                         const OpenClawComposition &composition);

bool hasErrors(const QList<Lint> &lints);

} // namespace soul
