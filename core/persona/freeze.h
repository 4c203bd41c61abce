#pragma once

#include "result.h"
#include "snapshot.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

// Freeze: an export to the snapshots folder the author chose, named by
// persona and time, so snapshots pile up side by side and sort by time.
namespace soul {

// "ava-2026-11-30T22-40-05.soul.md" for persona folder ".../ava" at that
// moment (UTC, as the manifest's createdAt; colons are not allowed in file
// names everywhere).
QString snapshotFileName(const QString &personaName, const QDateTime &createdAtUtc);

// Takes a snapshot of `personaDir` and writes it into `snapshotsDir` (made
// when missing) under snapshotFileName(), its manifest beside it. A second
// freeze within the same second gets "-2", "-3", ... before ".soul.md";
// nothing is ever overwritten, not even a file another program creates
// while the snapshot is written. Returns the soul's path (with a warning when
// the disk did not confirm it), or a sentence naming the folder or file that
// failed. `at`, when valid, stands for the current
// time (the manifest's createdAt and the name). Files still as `held` has
// them are not read again (inspectDirectory()). With `runtime`, the snapshot
// is of what that runtime injects by `settings` (toolnexus's soul without).
// `home` and `project`: a runtime's own places (RuntimeInput), when the
// persona is not a folder of its files.
Result<QString> freezeSnapshot(const QString &personaDir,
                               const QString &snapshotsDir,
                               const QDateTime &at = {},
                               const HeldReads &held = {},
                               const Runtime *runtime = nullptr,
                               const RuntimeSettings &settings = {},
                               const QString &home = {},
                               const QString &project = {});

// The souls frozen from persona `personaName` in `snapshotsDir`, newest
// first (by the time in their names), at most `limit`.
QStringList recentSnapshots(const QString &snapshotsDir, const QString &personaName, int limit = 10);

} // namespace soul
