#pragma once

#include <functional>
#include <sys/types.h>

// The system calls every write of Soul Studio goes through (atomicwrite.cpp
// is their one caller), so that a test can make any one of them fail the way
// a full disk, a failing device or a read-only file system would, at exactly
// the call it picks. Outside tests they are the plain POSIX calls; errno is
// set as POSIX says. Not thread-safe while a fault is armed: the write path
// runs on one thread.
namespace soul::fileio {

enum class Op {
    Open,       // creating the temporary or backup file, opening a file in place
    Write,      // one write(); a short write counts as one call
    Sync,       // fsync() of a file
    Truncate,   // ftruncate() after writing a file in place
    Close,      // close(); the descriptor is closed even when it fails
    Rename,     // rename(), or the renameat2() of renameNoReplace()
    SyncFolder, // syncFolder(): opening, fsync()ing and closing a folder, one call
    Link,       // the link() renameNoReplace() falls back to, or link()
    Unlink,     // unlink()
};
inline constexpr int OpCount = 9;

int open(const char *path, int flags, mode_t mode);
ssize_t write(int fd, const void *bytes, size_t size);
int fsync(int fd);
int ftruncate(int fd, off_t size);
int close(int fd);
int rename(const char *from, const char *to);
// A second name for a file; never replaces (EEXIST), so it takes a git lock
// as O_EXCL would, for a file written in full beforehand.
int link(const char *from, const char *to);
int unlink(const char *path);

// Renames `from` to `to` only if nothing is at `to`, in one step the file
// system checks: otherwise fails with EEXIST and both stay as they were, even
// for a file another program created there a moment before. It is
// renameat2(RENAME_NOREPLACE); where the file system refuses that flag
// (EINVAL, or ENOSYS from an old kernel) it is link() then unlink(), and
// link() never replaces either. Fails with ENOTSUP where the file system can
// do neither.
int renameNoReplace(const char *from, const char *to);

// Makes the folder `path`'s entries durable (its open, fsync() and close as
// one call): after a rename, so that a power cut cannot undo it. A file
// system that cannot sync a folder (EINVAL) counts as done.
int syncFolder(const char *path);

// For tests: from now on, the `nth` call (1-based) of `op` fails with
// `error` (close() still closes the descriptor, as Linux does). With
// `partial`, a failing write() first writes half of what it was given and
// returns that count, and the next write() fails: what a disk filling up
// mid-write looks like. Counting starts at zero again, and a fault armed
// before is disarmed.
void injectFault(Op op, int nth, int error, bool partial = false);
// For tests: arms a second fault beside injectFault()'s, counted from the
// same start, for the branches only a second failure reaches (putting back
// the old text after a failed write, and that failing too).
void injectSecondFault(Op op, int nth, int error);
// Disarms the faults (their hits and the call counts stay to be read);
// returns whether the first one fired since injectFault().
bool clearFault();
// How many calls fault `index` (0: injectFault()'s, 1: injectSecondFault()'s)
// has failed since it was armed; kept until the next injectFault().
int hits(int index = 0);
// Calls of `op` since injectFault() (only counted while a fault is armed).
int callCount(Op op);

// For tests: the `nth` call (1-based, every kind counted together) from now
// on kills the process with SIGKILL instead of running, as kill -9 or a
// power cut at that moment would. For a forked child whose leftovers the
// test then looks at. Disarmed by clearFault() and injectFault().
void injectKill(int nth);

// For tests: `hook` runs at the start of every renameNoReplace() with its
// target, while a file another program creates "between the check and the
// rename" can still be there in time. An empty function removes it.
void setBeforeNoReplaceRename(std::function<void(const char *to)> hook);

} // namespace soul::fileio
