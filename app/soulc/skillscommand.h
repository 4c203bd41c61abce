#pragma once

#include "result.h"

#include <QByteArray>

// soulc skills, and the skills part of soulc compose --runtime openclaw.
namespace soul {

struct Invocation;

int runSkills(const Invocation &invocation);

// OpenClaw's skills list for the invocation's DIR, config and agent, as the
// prompt has it; or why the config cannot be read.
Result<QByteArray> openClawSkillsPart(const Invocation &invocation);

} // namespace soul
