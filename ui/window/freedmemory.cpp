#include "freedmemory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
#if defined(__GLIBC__)
    // Also the free pages inside the heap and in every thread's arena, not
    // only its top.
    return malloc_trim(0) == 1;
#else
    return false;
#endif
}

} // namespace soul
