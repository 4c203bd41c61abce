#pragma once

#include "compose/composerule.h"
#include "history/personahistory.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimeregistry.h"
#include "result.h"

#include <QList>
#include <QMutex>
#include <QString>

#include <memory>
#include <utility>

template<typename T>
class QPromise;

// What a persona's history session runs off the window's thread: the log
// and each commit's figures, a commit's files, its soul, two commits
// compared. Each job opens its own PersonaHistory (one serves one thread)
// and hands back plain values: a Result, whose error is the sentence to
// show. Reading one commit is history/commitreader's, shared with soulc.
namespace soul {

class HistoryCounts;

// How the persona's history stands, as the panel shows it.
enum class HistoryStatus {
    Closed,       // no folder open
    Loading,      // the log is being read
    NoRepository, // the folder is in no git repository
    Empty,        // a repository without a commit that touches the slot files
    Ready,        // commits listed (their figures may still be coming)
    Failed,       // the repository could not be read; the error says why
};

// One step of a load: the first says the status, then commits come newest
// first, then their figures; the last has `finished`.
struct HistoryBatch
{
    HistoryStatus status = HistoryStatus::Loading;
    QString error;          // the sentence, when Failed
    QString busy;           // why a checkpoint cannot be made now (a merge), or empty
    QString repositoryRoot; // the working tree's root
    QList<HistoryCommit> commits;
    QList<std::pair<int, SoulFigures>> figures; // the row (0: newest) and its figures
    bool finished = false;
};

// The counts of a history's sections, kept across loads while the encoding
// and the rule stay, so a blob counted once is not counted again after a
// checkpoint or a refresh. Shared by the jobs; get() builds the counts (and
// loads the tokenizer) on the calling worker.
class SharedHistoryCounts
{
public:
    std::shared_ptr<HistoryCounts> get(const QString &encoding, const ComposeRule &rule);

private:
    QMutex m_mutex;
    QString m_key;                           // guarded by m_mutex
    std::shared_ptr<HistoryCounts> m_counts; // guarded by m_mutex
};

// The log of `dir`'s repository, then each commit's figures, newest first,
// as batches; stops early when the promise is cancelled.
void loadHistory(QPromise<HistoryBatch> &promise,
                 const QString &dir,
                 const std::shared_ptr<SharedHistoryCounts> &counts,
                 const QString &encoding,
                 const ComposeRule &rule);

// The slot files at HEAD, whole, to tell which files changed since the last
// checkpoint; `none` when HEAD has no commit yet.
struct HeadFiles
{
    bool none = false;
    PersonaRevision revision;
};
Result<HeadFiles> readHead(const QString &dir);

// A commit's soul, composed by `rule` from its blobs, with what the panel
// says about it (checkout conversions, links), or why it cannot be read.
struct CommitSoul
{
    QByteArray commitId;
    QByteArray soul;
    // Who composed it: the registry's default runtime, whose rule composes by
    // sections, unless another did.
    QString runtimeName = RuntimeRegistry::instance().defaultRuntime()->displayName();
    QStringList notes;
    std::array<bool, SlotCount> present{}; // the slot files the commit holds
};
Result<CommitSoul> composeCommit(const QString &dir,
                                 const QByteArray &commitId,
                                 const ComposeRule &rule);
// The same by `profile`'s runtime, whichever it is: the commit's slot files,
// whole, are the folder (RuntimeInput::buffersOnly), so a file the runtime
// reads that the history does not hold counts as absent, and a note says so.
Result<CommitSoul> composeCommitAs(const QString &dir,
                                   const QByteArray &commitId,
                                   const RuntimeProfile &profile);

// Two commits' souls compared, `older` against `newer`: for a runtime that
// composes by sections (toolnexus) what `soulc diff --rev OLDER --rev NEWER
// DIR` prints (the sections' diff, the stable prefix in `encoding`, the
// first change); for another runtime the line diff of what it injects at
// each. Or why a commit cannot be read.
Result<QString> diffCommits(const QString &dir,
                            const QByteArray &older,
                            const QByteArray &newer,
                            const RuntimeProfile &profile,
                            const ComposeRule &rule,
                            const QString &encoding);

// Commit `commitId` of `dir` as a snapshot (the soul and its manifest,
// counted in `encoding`) written into `folder`, for the snapshot comparison:
// the soul file's path, or a sentence.
Result<QString> writeCommitSnapshot(const QString &dir,
                                    const QByteArray &commitId,
                                    const ComposeRule &rule,
                                    const QString &encoding,
                                    const QString &folder);

} // namespace soul
