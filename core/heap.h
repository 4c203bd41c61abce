#pragma once

namespace soul {

// Hands memory the program has freed back to the system. After a large text
// is dropped (the soul preview's document, some 14 MiB of text in a block
// per line), its many small blocks stay in the allocator's heap, counted as
// the program's memory, until something reuses them; a worker thread
// allocates from a heap of its own and never does. With glibc this returns
// every free page (malloc_trim) and says whether the system got some back;
// elsewhere it does nothing and returns false.
bool releaseFreeMemory();

// Has the allocator give every block of a mebibyte or more its own mapping,
// returned to the system the moment it is freed. glibc raises that threshold
// as large blocks are freed (up to 32 MiB), after which a runtime's text of
// several MiB, made again on a worker at each keystroke, stays in that
// thread's heap between runs. Called once, first thing in main(); elsewhere
// than glibc it does nothing.
void keepLargeBlocksMapped();

} // namespace soul
