#include "historyjobs.h"

#include "history/historycounts.h"
#include "inspection.h"
#include "linediff.h"
#include "snapshot.h"
#include "souldifftext.h"
#include "soultokens.h"
#include "tokenizer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPromise>

namespace soul {

namespace {

// What the panel says about a commit's files beside the soul.
QStringList revisionNotes(const PersonaRevision &revision)
{
    QStringList notes;
    if (revision.folderMissing)
        notes.append(QObject::tr("The folder did not exist at this commit."));
    for (int k = 0; k < SlotCount; ++k) {
        const SlotRead &read = revision.reads[size_t(k)];
        if (read.isSymlink && read.presence == SlotPresence::Present) {
            notes.append(
                QObject::tr("%1 is a symbolic link at this commit: the file it leads to in the "
                            "same commit is shown.")
                    .arg(slotName(k)));
        }
        if (revision.checkoutConverts[size_t(k)]) {
            notes.append(
                QObject::tr("%1: a checkout would convert its bytes (.gitattributes or "
                            "core.autocrlf); the soul is composed from the bytes git stores.")
                    .arg(slotName(k)));
        }
    }
    return notes;
}

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

bool insideRepository(const QString &dir)
{
    QDir at(QFileInfo(dir).absoluteFilePath());
    while (true) {
        if (QFileInfo::exists(at.filePath(QStringLiteral(".git"))))
            return true;
        if (!at.cdUp())
            return false;
    }
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

Result<PersonaRevision> readCommit(const QString &dir, const QByteArray &commitId, qint64 limit)
{
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened)
        return Result<PersonaRevision>::failure(opened.error());
    const ReadOptions options(limit);
    return (*opened)->readRevision(QString::fromLatin1(commitId), options);
}

HeadFiles readHead(const QString &dir)
{
    HeadFiles result;
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened) {
        result.error = opened.error();
        return result;
    }
    if (!(*opened)->hasCommits()) {
        result.none = true;
        return result;
    }
    Result<PersonaRevision> revision = (*opened)->readRevision(QStringLiteral("HEAD"),
                                                               ReadOptions(-1));
    if (!revision)
        result.error = revision.error();
    else
        result.revision = std::move(revision).value();
    return result;
}

CommitSoul composeCommit(const QString &dir, const QByteArray &commitId, const ComposeRule &rule)
{
    CommitSoul result;
    result.commitId = commitId;
    const Result<PersonaRevision> revision = readCommit(dir, commitId, rule.readLimit());
    if (!revision) {
        result.error = revision.error();
        return result;
    }
    const Composition composition = compose(slotBuffers(revision->reads), rule);
    result.soul = composition.soul;
    result.present = composition.present;
    result.notes = revisionNotes(*revision);
    return result;
}

CommitSoul composeCommitAs(const QString &dir,
                           const QByteArray &commitId,
                           const RuntimeProfile &profile)
{
    CommitSoul result;
    result.commitId = commitId;
    result.runtimeName = profile.displayName();
    const Result<PersonaRevision> revision = readCommit(dir, commitId, -1);
    if (!revision) {
        result.error = revision.error();
        return result;
    }
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
    if (!composed) {
        result.error = composed.error();
        return result;
    }
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
    result.notes += revisionNotes(*revision);
    return result;
}

CommitsDiff diffCommits(const QString &dir,
                        const QByteArray &older,
                        const QByteArray &newer,
                        const RuntimeProfile &profile,
                        const ComposeRule &rule,
                        const QString &encoding)
{
    CommitsDiff result;
    if (!profile.sectioned()) {
        const CommitSoul a = composeCommitAs(dir, older, profile);
        const CommitSoul b = composeCommitAs(dir, newer, profile);
        result.error = a.error.isEmpty() ? b.error : a.error;
        if (result.error.isEmpty()) {
            const auto lines = [](const QByteArray &soul) {
                return QString::fromUtf8(soul).split(QLatin1Char('\n'));
            };
            result.diff = lineDiff(QString::fromLatin1(older),
                                   lines(a.soul),
                                   QString::fromLatin1(newer),
                                   lines(b.soul));
        }
        return result;
    }
    const Result<TokenEncoding> encodingUsed = tokenEncoding(encoding);
    if (!encodingUsed) {
        result.error = encodingUsed.error();
        return result;
    }
    std::array<SectionedSoul, 2> souls;
    const std::array<QByteArray, 2> ids = {older, newer};
    for (size_t k = 0; k < ids.size(); ++k) {
        const Result<PersonaRevision> revision = readCommit(dir, ids.at(k), rule.readLimit());
        if (!revision) {
            result.error = revision.error();
            return result;
        }
        souls.at(k) = sectionedSoul(compose(slotBuffers(revision->reads), rule),
                                    QString::fromLatin1(ids.at(k)) + QLatin1Char(':')
                                        + QDir::cleanPath(dir));
    }
    result.diff = QString::fromUtf8(soulDiffText(souls[0], souls[1], *encodingUsed));
    return result;
}

CommitSnapshot writeCommitSnapshot(const QString &dir,
                                   const QByteArray &commitId,
                                   const ComposeRule &rule,
                                   const QString &encoding,
                                   const QString &folder)
{
    CommitSnapshot result;
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened) {
        result.error = opened.error();
        return result;
    }
    ReadOptions options(rule.readLimit());
    options.sha256 = true;
    const Result<PersonaRevision> revision = (*opened)->readRevision(QString::fromLatin1(commitId),
                                                                     options);
    if (!revision) {
        result.error = revision.error();
        return result;
    }
    Snapshot snapshot;
    snapshot.inspection = inspectReads(QFileInfo(dir).absoluteFilePath(),
                                       revision->reads,
                                       revision->entryNames,
                                       revision->memoryFolder,
                                       rule);
    snapshot.createdAt = revision->commit.commitTime.toUTC();
    snapshot.tokens = countSoulTokens(snapshot.inspection.composition,
                                      *Tokenizer::builtin(encoding));
    result.soulPath = QDir(folder).filePath(
        QStringLiteral("%1-%2.soul.md").arg(QFileInfo(dir).fileName(), revision->commit.shortId));
    const Status written = writeSnapshot(snapshot, result.soulPath, true);
    if (!written)
        result.error = written.error();
    return result;
}

} // namespace soul
