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

namespace {
bool s_largeBlocksMapped = false;
}

void mapLargeBlocks(bool mapped)
{
    s_largeBlocksMapped = mapped;
#if defined(__GLIBC__)
    constexpr int MappedFrom = 1 << 20;
    constexpr int HeapUpTo = 32 << 20; // glibc's own ceiling for its threshold
    ::mallopt(M_MMAP_THRESHOLD, mapped ? MappedFrom : HeapUpTo);
#endif
}

bool largeBlocksMapped()
{
    return s_largeBlocksMapped;
}

} // namespace soul
