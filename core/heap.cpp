#include "heap.h"

// Any C library header defines __GLIBC__ when the library is glibc.
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace soul {

bool releaseFreeMemory()
{
#if defined(__GLIBC__)
    // Also the free pages inside the heap and in every thread's arena, not
    // only its top.
    return ::malloc_trim(0) == 1;
#else
    return false;
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
