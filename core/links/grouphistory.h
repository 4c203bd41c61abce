#pragma once

#include "history/personahistory.h"
#include "links/linkgroups.h"
#include "result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

// A link group's git history: the commits of every member's repository that
// changed the group's file, in one list, and a checkpoint of every member
// with one message. The window's group history and `soulc links
// checkpoint` both call these. Each call opens every member's repository
// itself (a PersonaHistory serves one thread), so any of them may run on a
// worker; reading the members' logs is bounded by MaxGroupFileCommits.
namespace soul {

class HistoryCounts;

// One commit of one member that changed the group's file against its first
// parent.
struct GroupFileCommit
{
    QString agent;
    QString folder; // the member's folder, absolute
    HistoryCommit commit;
    bool present = false; // the file is there at that commit (false: the commit removed it)
    QByteArray blobId;    // hex id of the file's blob at that commit; empty when absent
};

// How one member's log was read.
struct GroupMemberLog
{
    QString agent;
    QString folder;
    // Why none of its commits are listed: no folder, no repository, a
    // repository that cannot be read. Empty when it was read.
    QString problem;
    int listed = 0;   // its commits in the list
    bool cut = false; // it has more than MaxGroupFileCommits; the newest are listed
};

struct GroupFileLog
{
    QString file; // the group's file, "USER.md"
    // Why no member's commits can be listed (a file the history does not
    // read); empty when the members were read.
    QString problem;
    QList<GroupFileCommit> commits; // newest first across the members
    QList<GroupMemberLog> members;  // in the group's order
};

// The most commits of one member the group's history lists.
inline constexpr int MaxGroupFileCommits = 1000;

// The commits of every member of `group` that changed its file, newest first
// (by commit time; a tie keeps the group's order of members). `cancelled`,
// when given, is asked between commits and stops the read (what was found
// is returned). A member that cannot be read gets its sentence in
// `members` and the others are read all the same.
GroupFileLog readGroupFileLog(const LinkPlace &place,
                              const LinkGroup &group,
                              const std::function<bool()> &cancelled = {});

// git's id of a blob holding `bytes` (hex): what a commit's tree names, so a
// commit's file can be told equal to a text without reading the blob.
QByteArray gitBlobId(const QByteArray &bytes);

// The group's file as `agent`'s commit `commitId` has it, at most
// MaxLinkCopyBytes; an empty array when the commit has no such file. Fails
// with PersonaHistory's sentence (a damaged object, an unknown commit).
Result<QByteArray> readGroupFileAt(const QString &folder,
                                   const QString &file,
                                   const QByteArray &commitId);

// Why a checkpoint cannot commit `group`'s file (a checkpoint commits the
// slot files, and the group shares another file); empty when it can.
QString groupCheckpointProblem(const LinkGroup &group);
// The message a group's checkpoint takes when none is given.
QString groupCheckpointMessage(const LinkGroup &group);

// One member's part of a group's checkpoint.
struct MemberCheckpoint
{
    QString agent;
    QString error;   // why no commit was made (no repository, a lock); empty otherwise
    Checkpoint made; // when `error` is empty: a commit, or nothingToCommit
    bool ok() const { return error.isEmpty(); }
};

// Commits each member's slot files as they are on disk (checkpointFolder()),
// all with `message` (empty: groupCheckpointMessage()), measured by
// `counts`, in the group's order. A member that fails gets its sentence
// ("coach: ...") and, unless `stopAtFailure`, the others are committed all
// the same; with it, the list ends at the first failure. A group whose file
// is not a slot file commits nothing: one entry whose error says why.
QList<MemberCheckpoint> checkpointGroup(const LinkPlace &place,
                                        const LinkGroup &group,
                                        const QString &message,
                                        HistoryCounts &counts,
                                        bool stopAtFailure);

} // namespace soul
