#include "freedmemory.h"

#include "heap.h"

namespace soul {

FreedMemory::FreedMemory(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(QuietMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        releaseNow();
        ++m_releases;
        Q_EMIT released();
    });
}

void FreedMemory::releaseSoon()
{
    m_timer.start();
}

bool FreedMemory::releaseNow()
{
    return releaseFreeMemory();
}

} // namespace soul
