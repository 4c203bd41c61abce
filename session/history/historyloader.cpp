#include "history/historyloader.h"

#include "history/historylistmodel.h"

#include <QtConcurrent>

namespace soul {

HistoryLoader::HistoryLoader(HistoryListModel *rows, QObject *parent)
    : QObject(parent)
    , m_rows(rows)
{
    connect(&m_watcher, &QFutureWatcher<HistoryBatch>::resultReadyAt, this, &HistoryLoader::take);
}

HistoryLoader::~HistoryLoader()
{
    // The worker holds only values and shared counts: it is not waited for.
    stop();
}

void HistoryLoader::stop()
{
    if (!m_watcher.future().isFinished())
        m_watcher.future().cancel();
    m_watcher.setFuture(QFuture<HistoryBatch>());
}

void HistoryLoader::load(const QString &dir, const QString &encoding, const ComposeRule &rule)
{
    stop();
    m_rows->clear();
    m_status = HistoryStatus::Loading;
    m_error.clear();
    m_busy.clear();
    m_root.clear();
    m_firstBatch = true;
    Q_EMIT statusChanged();
    m_watcher.setFuture(QtConcurrent::run(
        [dir, encoding, rule, counts = m_counts](QPromise<HistoryBatch> &promise) {
            loadHistory(promise, dir, counts, encoding, rule);
        }));
}

void HistoryLoader::clear()
{
    stop();
    m_rows->clear();
    m_status = HistoryStatus::Closed;
    m_error.clear();
    m_busy.clear();
    m_root.clear();
    Q_EMIT statusChanged();
}

void HistoryLoader::take(int index)
{
    const HistoryBatch batch = m_watcher.resultAt(index);
    if (m_firstBatch) {
        m_firstBatch = false;
        m_busy = batch.busy;
        m_root = batch.repositoryRoot;
    }
    m_rows->appendCommits(batch.commits);
    if (!batch.figures.isEmpty()) {
        m_rows->setFigures(batch.figures);
        Q_EMIT figuresChanged();
    }
    if (batch.status != m_status || !batch.error.isEmpty()) {
        m_status = batch.status;
        m_error = batch.error;
        Q_EMIT statusChanged();
    }
    if (batch.finished)
        Q_EMIT finished();
}

} // namespace soul
