#pragma once

#include "runtime/lintitem.h"

#include <QList>
#include <QString>

namespace soul {

struct OpenClawInput;
struct OpenClawComposition;

// Lints of `dir` under the OpenClaw 2026.9 profile, from what it reads
// (`input`) and injects (`composition`): cut files with the computed counts,
// files refused or never loaded, files the total leaves out, and what
// OpenClaw does to the folder itself before a run (templates for missing
// files, the pending first run).
QList<Lint> lintOpenClaw(const QString &dir,
                         const OpenClawInput &input,
                         const OpenClawComposition &composition);

} // namespace soul
