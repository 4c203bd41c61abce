#pragma once

#include "disk/slotreader.h"
#include "runtime/lintitem.h"
#include "runtime/runtime.h"

#include <QList>
#include <QString>

namespace soul {

struct ComposeRule;
struct SlotFacts;

// Why a path named `name` that is not a readable regular file (`presence`,
// with absenceReason()) is skipped, and what to do: the sentence of its lint.
// Empty for Present and Missing.
QString skippedPathText(const QString &name, SlotPresence presence, const QString &absenceReason);

// Lints of one slot, from its facts (on disk, or of an editor buffer) taken
// under `rule`, whose cap and near share they speak of. The hint about what
// the registry's hinting runtime (paneHintRuntime()) would keep of the file
// uses `hintSettings`, that runtime's settings (its defaults for what is
// missing).
QList<Lint> lintSlot(const SlotFacts &facts,
                     const ComposeRule &rule,
                     const RuntimeSettings &hintSettings = {});

// Lints about the directory itself: case variants of slot names, files other
// runtimes read that this rule does not. `slotPresent` says which slots are
// present.
QList<Lint> lintDirectoryEntries(const QString &dir, const QList<bool> &slotPresent);
// The same from the folder's entry names (a commit's tree, say) and whether
// its "memory" entry is a folder.
QList<Lint> lintDirectoryEntries(const QStringList &entries,
                                 bool memoryFolder,
                                 const QList<bool> &slotPresent);

} // namespace soul
