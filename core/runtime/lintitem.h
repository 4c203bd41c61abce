#pragma once

#include <QList>
#include <QString>

// What every rule and runtime reports to the author: a sentence about one
// file, with a level and a stable code. The lints themselves are computed by
// the toolnexus rule (persona/lint.h) and by each runtime.
namespace soul {

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

bool hasErrors(const QList<Lint> &lints);

} // namespace soul
