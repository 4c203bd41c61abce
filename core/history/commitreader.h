#pragma once

#include "diff/sectionedsoul.h"
#include "history/personahistory.h"
#include "result.h"

#include <QString>
#include <QStringList>

// Reading and describing one commit of a persona folder's history: the slot
// files at a revision, what can be said about them beside the soul, and the
// soul they compose. soulc (`log`, `--rev`, `checkpoint`) and the History
// session both call these, so the two cannot tell a commit apart
// differently. Each call opens the repository itself (a PersonaHistory
// serves one thread), so any of them may run on a worker.
namespace soul {

class HistoryCounts;
struct ComposeRule;

// Whether `dir` or a folder above it holds a ".git": no repository, as
// opposed to one that cannot be read.
bool insideRepository(const QString &dir);

// The slot files of `dir` at `rev` ("HEAD~2", a tag, a commit id), read by
// `options` (the whole files, or as a rule reads them). Fails with the
// sentence PersonaHistory gives: no repository, a revision it does not
// know, a damaged object.
Result<PersonaRevision> readCommit(const QString &dir,
                                   const QString &rev,
                                   const ReadOptions &options);

// What is worth saying about a commit's files beside its soul: the folder
// did not exist then, a slot is a symbolic link, a checkout would convert a
// file's bytes. One sentence each; none for a plain commit.
QStringList describeRevision(const PersonaRevision &revision);

// "HEAD~2:examples/ava": how a comparison names the soul of `dir` at `rev`.
QString revisionLabel(const QString &dir, const QString &rev);

// The soul of `dir` at `rev`, composed by `rule` and cut into its sections,
// labelled by revisionLabel(); or why the commit cannot be read.
Result<SectionedSoul> revisionSoul(const QString &dir, const QString &rev, const ComposeRule &rule);

// One slot file a commit changed against its first parent, and the change
// of its section's tokens (0 until measured).
struct ChangedSlot
{
    int slot = -1;
    SlotChange change = SlotChange::Unchanged;
    qint64 tokenChange = 0;
};
// The slot files `commit` changed, in slot order, with the token change
// `figures` measured (none: not measured yet). What a log says of a commit,
// the History list's Changes column and `soulc log` alike.
QList<ChangedSlot> changedSlots(const HistoryCommit &commit, const SoulFigures *figures);

// Commits the slot files of `dir` as they are on disk, with `message` (empty:
// the one the plan writes), measured by `counts`. Fails when `dir` is in no
// repository, the repository cannot be written or is busy (a merge, an
// index.lock another git holds).
Result<Checkpoint> checkpointFolder(const QString &dir,
                                    const QString &message,
                                    HistoryCounts &counts);

} // namespace soul
