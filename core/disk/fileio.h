#pragma once

#include <sys/types.h>

// The system calls every write of Soul Studio goes through (atomicwrite.cpp
// is their one caller), so that a test can make any one of them fail the way
// a full disk, a failing device or a read-only file system would, at exactly
// the call it picks. Outside tests they are the plain POSIX calls; errno is
// set as POSIX says. Not thread-safe while a fault is armed: the write path
// runs on one thread.
namespace soul::fileio {

enum class Op {
    Open,     // creating the temporary or backup file, opening a file in place
    Write,    // one write(); a short write counts as one call
    Sync,     // fsync() of a file (the folder's sync is not counted: see atomicwrite.cpp)
    Truncate, // ftruncate() after writing a file in place
    Close,
    Rename,
};
inline constexpr int OpCount = 6;

int open(const char *path, int flags, mode_t mode);
ssize_t write(int fd, const void *bytes, size_t size);
int fsync(int fd);
int ftruncate(int fd, off_t size);
int close(int fd);
int rename(const char *from, const char *to);

// For tests: from now on, the `nth` call (1-based) of `op` fails with
// `error` (close() still closes the descriptor, as Linux does). With
// `partial`, a failing write() first writes half of what it was given and
// returns that count, and the next write() fails: what a disk filling up
// mid-write looks like. Counting starts at zero again; one fault at a time.
void injectFault(Op op, int nth, int error, bool partial = false);
// Disarms the fault; returns whether it fired since injectFault().
bool clearFault();
// Calls of `op` since injectFault() (only counted while a fault is armed).
int callCount(Op op);

} // namespace soul::fileio
