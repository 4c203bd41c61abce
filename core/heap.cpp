#include "heap.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace soul {

void releaseFreeMemory()
{
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

void keepLargeBlocksMapped()
{
#if defined(__GLIBC__)
    constexpr int MappedFrom = 1 << 20;
    ::mallopt(M_MMAP_THRESHOLD, MappedFrom);
#endif
}

} // namespace soul
