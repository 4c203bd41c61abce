#include "background.h"

#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace soul {

void yieldToWindow()
{
#ifdef Q_OS_LINUX
    // Linux keeps a nice value per thread: PRIO_PROCESS with a thread id sets
    // that thread's alone. Raising it needs no privilege.
    constexpr int BackgroundNice = 10;
    thread_local bool done = false;
    if (done)
        return;
    done = true;
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    const int now = ::getpriority(PRIO_PROCESS, tid);
    if (now < BackgroundNice)
        ::setpriority(PRIO_PROCESS, tid, BackgroundNice);
#endif
}

} // namespace soul
