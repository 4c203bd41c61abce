#include "snapshotjobs.h"

#include <QMetaObject>

namespace soul {

SnapshotJobs::SnapshotJobs(QObject *parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    // The worker stays: a snapshot after a pause need not start a thread.
    m_pool.setExpiryTimeout(-1);
}

SnapshotJobs::~SnapshotJobs()
{
    m_pool.waitForDone();
}

void SnapshotJobs::run(Work work, Done done)
{
    ++m_pending;
    m_pool.start([this, work = std::move(work), done = std::move(done)] {
        Result<QString> result = work();
        // Queued to this object: dropped when it is gone by then.
        QMetaObject::invokeMethod(
            this,
            [this, done, result = std::move(result)] {
                done(result);
                --m_pending;
            },
            Qt::QueuedConnection);
    });
}

} // namespace soul
