#pragma once

#include "sectionedsoul.h"
#include "tokenencoder.h"

#include <QByteArray>

namespace soul {

// What `soulc diff` prints of a against b: the unified diff of the sections,
// then "stable prefix: T of N tokens (P%)" in `encoding` and, when they
// differ, "; first change: FILE line L". `identical` (optional) says whether
// the souls are the same.
QByteArray soulDiffText(const SectionedSoul &a,
                        const SectionedSoul &b,
                        const TokenEncoding &encoding,
                        bool *identical = nullptr);

} // namespace soul
