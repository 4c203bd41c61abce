#pragma once

// soulc compose, stat and check with --runtime hermes: what Hermes Agent
// 0.21.3 injects from a flat persona folder or from a Hermes home and the
// project it runs in (docs/hermes-0.21.3.md). Same conventions as
// commands.h: output on standard output, one "soulc: " line on standard
// error for a failure, the exit status returned.
namespace soul {

struct Invocation;

int runHermesCompose(const Invocation &invocation);
int runHermesStat(const Invocation &invocation);
int runHermesCheck(const Invocation &invocation);

} // namespace soul
