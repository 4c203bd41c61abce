#pragma once

#include "compose/composerule.h"
#include "history/historyjobs.h"

#include <QFutureWatcher>
#include <QObject>

#include <memory>

namespace soul {

class HistoryListModel;

// Reads a persona's history on a worker and fills a HistoryListModel as the
// batches come: the commits first, newest first, then their figures. The
// window never waits for it; a new load or cancel() drops the one running
// (its worker stops at its next commit).
class HistoryLoader : public QObject
{
    Q_OBJECT

public:
    // `rows` must outlive the loader.
    explicit HistoryLoader(HistoryListModel *rows, QObject *parent = nullptr);
    ~HistoryLoader() override;

    void load(const QString &dir, const QString &encoding, const ComposeRule &rule);
    // Stops the load (the rows stay as they are) and says Closed.
    void clear();

    HistoryStatus status() const { return m_status; }
    QString errorText() const { return m_error; }
    // Why a checkpoint cannot be made now (a merge under way), or empty.
    QString busyText() const { return m_busy; }
    QString repositoryRoot() const { return m_root; }
    bool isRunning() const { return m_watcher.isRunning(); }
    // The counts kept across loads (shared with checkpoint plans).
    std::shared_ptr<SharedHistoryCounts> counts() const { return m_counts; }

Q_SIGNALS:
    void statusChanged();
    // New figures arrived (the timeline draws them).
    void figuresChanged();
    // The load ended: every commit is listed and measured, or it failed.
    void finished();

private:
    void take(int index);
    void stop();

    HistoryListModel *m_rows = nullptr;
    QFutureWatcher<HistoryBatch> m_watcher;
    std::shared_ptr<SharedHistoryCounts> m_counts = std::make_shared<SharedHistoryCounts>();
    HistoryStatus m_status = HistoryStatus::Closed;
    QString m_error;
    QString m_busy;
    QString m_root;
    bool m_firstBatch = true;
};

} // namespace soul
