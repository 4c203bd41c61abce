#pragma once

#include "compose/composer.h"

#include <QString>
#include <QStringList>

// A persona folder composed as it is on disk: each slot read by readSlot()
// and composed by compose()'s rules, one slot at a time.
namespace soul {

// Reads each slot of `dir` (at most rule.readLimit() bytes of each, one file at a
// time, so memory stays bounded) and composes. A slot that is not a readable
// regular file is absent. A directory that does not exist composes to nothing;
// callers that must tell a missing directory apart check it first.
Composition composeDirectory(const QString &dir, const ComposeRule &rule = ComposeRule::toolnexus());

// The same soul as composeDirectory(dir).soul, handed to `write` slot by slot
// instead of built whole, so memory holds one slot, not the persona: what
// `soulc compose` streams to its output. Returns false when `write` did (the
// pieces before it were written). `found`, when given, receives the names.
bool composeDirectoryTo(const QString &dir,
                        const SoulWriter &write,
                        const ComposeRule &rule,
                        QStringList *found = nullptr);

// A sentence when `dir` is not a usable persona directory, else empty.
QString checkDirectory(const QString &dir);

} // namespace soul
