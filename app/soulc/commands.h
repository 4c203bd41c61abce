#pragma once

#include "result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

// The soulc commands. Each writes its output to standard output, reports a
// failure as one line on standard error ("soulc: " and a sentence naming the
// path and the cause) and returns the process exit status.
namespace soul {

struct Invocation;

inline constexpr int ExitSuccess = 0;
inline constexpr int ExitProblems = 1; // check found a truncated slot or an error; diff, differences
inline constexpr int ExitFailure = 2;  // bad usage, or a path that cannot be used

int runInvocation(const Invocation &invocation);

// What an output file of a command may not replace, beyond the persona's own
// files (which none replaces, whatever --force says).
struct OutputRule
{
    QString option = QStringLiteral("compose -o"); // the option, in sentences
    QStringList kept;                              // files it never writes over
    QString keptWhat;                              // what they are: "the tests file"
    bool refuseLinks = false; // never write through a symbolic link, even with --force
    QString another = QStringLiteral("another name"); // what to choose instead of an existing file
};

// Why `output` may not be written under `rule`: a file of the persona being
// composed or one of rule.kept (through links and hard links too), a folder,
// a link (with refuseLinks), or any existing file without --force. Empty
// when it may.
QString outputFileProblem(const Invocation &invocation,
                          const QString &output,
                          const OutputRule &rule);

// The bytes `soulc compose` writes for the invocation's runtime, folder and
// settings, whole; or why the persona cannot be composed.
Result<QByteArray> composedSoul(const Invocation &invocation);

} // namespace soul
