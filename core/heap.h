#pragma once

namespace soul {

// Hands memory the program has freed back to the system. After a large text
// is dropped (the soul preview's document, some 14 MiB of text in a block
// per line), its many small blocks stay in the allocator's heap, counted as
// the program's memory, until something reuses them; a worker thread
// allocates from a heap of its own and never does. With glibc this returns
// every free page (malloc_trim); elsewhere it does nothing.
void releaseFreeMemory();

} // namespace soul
