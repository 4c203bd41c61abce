#pragma once

#include "result.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <functional>

namespace soul {

// Writing snapshots (Export, Freeze) off the GUI thread: taking one hashes,
// composes and counts the tokens of the whole persona, a second or more for a
// large one, and the window keeps taking keys meanwhile. Jobs run one at a
// time, in the order asked. The destructor waits for what was asked, so
// closing the window never leaves a snapshot unwritten or half written.
class SnapshotJobs : public QObject
{
    Q_OBJECT

public:
    using Work = std::function<Result<QString>()>;
    using Done = std::function<void(const Result<QString> &)>;

    explicit SnapshotJobs(QObject *parent = nullptr);
    ~SnapshotJobs() override;

    // Runs `work` on the worker, then `done` with its result on this
    // object's thread (not at all once this object is gone).
    void run(Work work, Done done);
    // A job runs or waits.
    bool busy() const { return m_pending > 0; }

private:
    QThreadPool m_pool;
    int m_pending = 0;
};

} // namespace soul
