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

// Whether each block of a mebibyte or more gets a mapping of its own,
// returned to the system the moment it is freed (true), or comes from the
// heap and stays there for reuse once freed (false: blocks up to 32 MiB, as
// glibc does by itself once large blocks were freed). A runtime whose text
// is made again whole on a worker at each keystroke (Hermes holds its memory
// files whole, megabytes on a large persona) leaves tens of MiB free in that
// worker's heap between runs unless they are mapped; a mapping costs its
// pages' first touch each time. glibc only; elsewhere it does nothing.
void mapLargeBlocks(bool mapped);
// The last mapLargeBlocks() choice; false before any.
bool largeBlocksMapped();

} // namespace soul
