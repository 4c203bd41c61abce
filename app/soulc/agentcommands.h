#pragma once

// soulc agents (OpenClaw's roster, core/agents/openclawroster.h) and soulc
// stat --all (a folder of personas, core/agents/personafolders.h). Same
// conventions as commands.h: output on standard output, one "soulc: " line
// on standard error for a failure, the exit status returned.
namespace soul {

struct Invocation;

int runAgents(const Invocation &invocation);
int runStatAll(const Invocation &invocation);

} // namespace soul
