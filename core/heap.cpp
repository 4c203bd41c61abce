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

} // namespace soul
