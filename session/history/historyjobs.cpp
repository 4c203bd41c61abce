#include "history/historyjobs.h"

#include "diff/linediff.h"
#include "diff/sectionedsoul.h"
#include "diff/souldifftext.h"
#include "history/commitreader.h"
#include "history/historycounts.h"
#include "persona/inspection.h"
#include "persona/snapshot.h"
#include "tokens/soultokens.h"
#include "tokens/tokenizer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPromise>

namespace soul {

namespace {

// A batch of figures goes to the window at least this often while counting.
constexpr qint64 FiguresIntervalMs = 100;
constexpr int CommitsPerBatch = 200;

HistoryBatch readyBatch()
{
    HistoryBatch batch;
    batch.status = HistoryStatus::Ready;
    return batch;
}

} // namespace

std::shared_ptr<HistoryCounts> SharedHistoryCounts::get(const QString &encoding,
                                                        const ComposeRule &rule)
{
    const QString key = encoding + QLatin1Char('/') + QString::number(rule.capBytes);
    QMutexLocker lock(&m_mutex);
    if (!m_counts || key != m_key) {
        m_counts = std::make_shared<HistoryCounts>(Tokenizer::builtin(encoding), rule);
        m_key = key;
    }
    return m_counts;
}

void loadHistory(QPromise<HistoryBatch> &promise,
                 const QString &dir,
                 const std::shared_ptr<SharedHistoryCounts> &counts,
                 const QString &encoding,
                 const ComposeRule &rule)
{
    promise.start();
    HistoryBatch first;
    if (!insideRepository(dir)) {
        first.status = HistoryStatus::NoRepository;
        first.finished = true;
        promise.addResult(first);
        return;
    }
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened) {
        first.status = HistoryStatus::Failed;
        first.error = opened.error();
        first.finished = true;
        promise.addResult(first);
        return;
    }
    const PersonaHistory &history = **opened;
    first.busy = history.busyState();
    first.repositoryRoot = history.repositoryRoot();

    // The commits, newest first, in batches the list shows as they come.
    QList<HistoryCommit> commits;
    HistoryBatch batch = first;
    const Status walked = history.log([&](const HistoryCommit &commit) {
        if (promise.isCanceled())
            return false;
        commits.append(commit);
        batch.status = HistoryStatus::Ready;
        batch.commits.append(commit);
        if (batch.commits.size() >= CommitsPerBatch) {
            promise.addResult(std::exchange(batch, readyBatch()));
        }
        return true;
    });
    if (promise.isCanceled())
        return;
    if (!walked) {
        batch.status = HistoryStatus::Failed;
        batch.error = walked.error();
        batch.finished = true;
        promise.addResult(batch);
        return;
    }
    if (commits.isEmpty()) {
        batch.status = HistoryStatus::Empty;
        batch.finished = true;
        promise.addResult(batch);
        return;
    }
    promise.addResult(std::exchange(batch, readyBatch()));

    // Then the figures, newest first: what the list shows at the top comes
    // first. A blob counted before (another commit, an earlier load) is only
    // looked up.
    const std::shared_ptr<HistoryCounts> shared = counts->get(encoding, rule);
    QElapsedTimer sinceBatch;
    sinceBatch.start();
    for (int row = 0; row < commits.size(); ++row) {
        if (promise.isCanceled())
            return;
        const Result<SoulFigures> figures = history.measure(commits.at(row), *shared);
        if (!figures) {
            batch.status = HistoryStatus::Failed;
            batch.error = figures.error();
            batch.finished = true;
            promise.addResult(batch);
            return;
        }
        batch.figures.append({row, *figures});
        if (sinceBatch.elapsed() >= FiguresIntervalMs) {
            promise.addResult(std::exchange(batch, readyBatch()));
            sinceBatch.restart();
        }
    }
    batch.finished = true;
    promise.addResult(batch);
}

Result<HeadFiles> readHead(const QString &dir)
{
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened)
        return Result<HeadFiles>::failure(opened.error());
    HeadFiles head;
    if (!(*opened)->hasCommits()) {
        head.none = true;
        return head;
    }
    Result<PersonaRevision> revision = (*opened)->readRevision(QStringLiteral("HEAD"),
                                                               ReadOptions(-1));
    if (!revision)
        return Result<HeadFiles>::failure(revision.error());
    head.revision = std::move(revision).value();
    return head;
}

Result<CommitSoul> composeCommit(const QString &dir,
                                 const QByteArray &commitId,
                                 const ComposeRule &rule)
{
    const Result<PersonaRevision> revision = readCommit(dir,
                                                        QString::fromLatin1(commitId),
                                                        ReadOptions(rule.readLimit()));
    if (!revision)
        return Result<CommitSoul>::failure(revision.error());
    CommitSoul result;
    result.commitId = commitId;
    const Composition composition = compose(slotBuffers(revision->reads), rule);
    result.soul = composition.soul;
    result.present = composition.present;
    result.notes = describeRevision(*revision);
    return result;
}

Result<CommitSoul> composeCommitAs(const QString &dir,
                                   const QByteArray &commitId,
                                   const RuntimeProfile &profile)
{
    const Result<PersonaRevision> revision = readCommit(dir,
                                                        QString::fromLatin1(commitId),
                                                        ReadOptions(-1));
    if (!revision)
        return Result<CommitSoul>::failure(revision.error());
    CommitSoul result;
    result.commitId = commitId;
    result.runtimeName = profile.displayName();
    RuntimeInput input;
    input.dir = dir;
    input.buffersOnly = true;
    for (int k = 0; k < SlotCount; ++k) {
        const SlotRead &read = revision->reads[size_t(k)];
        result.present[size_t(k)] = read.presence == SlotPresence::Present;
        if (result.present[size_t(k)])
            input.buffers.insert(slotName(k), read.bytes);
    }
    const Result<RuntimeComposition> composed = profile.runtime->compose(input, profile.settings);
    if (!composed)
        return Result<CommitSoul>::failure(composed.error());
    result.soul = composed->text.toUtf8();
    QStringList notHeld;
    for (const QString &name : profile.loadedFiles()) {
        if (slotIndex(name) < 0)
            notHeld.append(name);
    }
    result.notes.append(
        notHeld.isEmpty()
            ? QObject::tr("What %1 injects, from the slot files this commit holds.")
                  .arg(result.runtimeName)
            : QObject::tr("What %1 injects, from the slot files this commit holds; the history "
                          "keeps only slot files, so %2 count as absent.")
                  .arg(result.runtimeName, notHeld.join(QStringLiteral(", "))));
    result.notes += describeRevision(*revision);
    return result;
}

Result<QString> diffCommits(const QString &dir,
                            const QByteArray &older,
                            const QByteArray &newer,
                            const RuntimeProfile &profile,
                            const ComposeRule &rule,
                            const QString &encoding)
{
    if (!profile.sectioned()) {
        const Result<CommitSoul> a = composeCommitAs(dir, older, profile);
        if (!a)
            return Result<QString>::failure(a.error());
        const Result<CommitSoul> b = composeCommitAs(dir, newer, profile);
        if (!b)
            return Result<QString>::failure(b.error());
        const auto lines = [](const QByteArray &soul) {
            return QString::fromUtf8(soul).split(QLatin1Char('\n'));
        };
        return lineDiff(QString::fromLatin1(older),
                        lines(a->soul),
                        QString::fromLatin1(newer),
                        lines(b->soul));
    }
    const Result<TokenEncoding> encodingUsed = tokenEncoding(encoding);
    if (!encodingUsed)
        return Result<QString>::failure(encodingUsed.error());
    const Result<SectionedSoul> a = revisionSoul(dir, QString::fromLatin1(older), rule);
    if (!a)
        return Result<QString>::failure(a.error());
    const Result<SectionedSoul> b = revisionSoul(dir, QString::fromLatin1(newer), rule);
    if (!b)
        return Result<QString>::failure(b.error());
    return QString::fromUtf8(soulDiffText(*a, *b, *encodingUsed));
}

Result<QString> writeCommitSnapshot(const QString &dir,
                                    const QByteArray &commitId,
                                    const ComposeRule &rule,
                                    const QString &encoding,
                                    const QString &folder)
{
    ReadOptions options(rule.readLimit());
    options.sha256 = true;
    const Result<PersonaRevision> revision = readCommit(dir, QString::fromLatin1(commitId), options);
    if (!revision)
        return Result<QString>::failure(revision.error());
    Snapshot snapshot;
    snapshot.inspection = inspectReads(QFileInfo(dir).absoluteFilePath(),
                                       revision->reads,
                                       revision->entryNames,
                                       revision->memoryFolder,
                                       rule);
    snapshot.createdAt = revision->commit.commitTime.toUTC();
    snapshot.tokens = countSoulTokens(snapshot.inspection.composition,
                                      *Tokenizer::builtin(encoding));
    const QString soulPath = QDir(folder).filePath(
        QStringLiteral("%1-%2.soul.md").arg(QFileInfo(dir).fileName(), revision->commit.shortId));
    if (const Status written = writeSnapshot(snapshot, soulPath, true); !written)
        return Result<QString>::failure(written.error());
    return soulPath;
}

} // namespace soul
