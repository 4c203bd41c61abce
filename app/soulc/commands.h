#pragma once

#include "result.h"

#include <QByteArray>

// The soulc commands. Each writes its output to standard output, reports a
// failure as one line on standard error ("soulc: " and a sentence naming the
// path and the cause) and returns the process exit status.
namespace soul {

struct Invocation;

inline constexpr int ExitSuccess = 0;
inline constexpr int ExitProblems = 1; // check found a truncated slot or an error; diff, differences
inline constexpr int ExitFailure = 2;  // bad usage, or a path that cannot be used

int runInvocation(const Invocation &invocation);

// The bytes `soulc compose` writes for the invocation's runtime, folder and
// settings, whole; or why the persona cannot be composed.
Result<QByteArray> composedSoul(const Invocation &invocation);

} // namespace soul
