#pragma once

#include "result.h"

#include <QByteArray>

// soulc skills, and the skills part of soulc compose (--part skills|all).
namespace soul {

struct Invocation;

int runSkills(const Invocation &invocation);

struct SkillsList;
struct SkillsRequest;

// The invocation's runtime's skills list for its DIR, config and agent; or
// why it cannot be read.
Result<SkillsList> skillsPart(const Invocation &invocation);

// What the invocation's runtime reads the skills from: DIR (or the home and
// project), --config, --agent and the process's environment.
SkillsRequest skillsRequest(const Invocation &invocation);

} // namespace soul
