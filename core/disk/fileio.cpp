#include "fileio.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace soul::fileio {

namespace {

// One armed fault: the `nth` call of `op` fails with `error`.
struct Fault
{
    bool armed = false;
    Op op = Op::Open;
    int nth = 0;
    int error = 0;
    bool partial = false;
    int hits = 0; // calls it failed (or cut short)
};

struct Plan
{
    bool armed = false;
    std::array<Fault, 2> faults = {};
    int failNextWrite = 0; // the errno of the second half of a partial write
    std::array<int, OpCount> calls = {};
    int killAt = 0;   // injectKill()'s call, 0: none
    int allCalls = 0; // calls of every kind since injectKill()
};

Plan &plan()
{
    static Plan p;
    return p;
}

std::function<void(const char *)> &beforeNoReplaceRename()
{
    static std::function<void(const char *)> hook;
    return hook;
}

// Counts the call; the fault that fails it, or null.
Fault *failing(Op op)
{
    Plan &p = plan();
    if (!p.armed)
        return nullptr;
    if (p.killAt > 0 && ++p.allCalls == p.killAt)
        ::raise(SIGKILL);
    const int count = ++p.calls[size_t(op)];
    for (Fault &fault : p.faults) {
        if (fault.armed && fault.hits == 0 && fault.op == op && fault.nth == count) {
            ++fault.hits;
            return &fault;
        }
    }
    return nullptr;
}

// Fails the call with the fault's errno when one is armed for it.
bool shouldFail(Op op)
{
    if (const Fault *fault = failing(op)) {
        errno = fault->error;
        return true;
    }
    return false;
}

} // namespace

int open(const char *path, int flags, mode_t mode)
{
    if (shouldFail(Op::Open))
        return -1;
    int fd = -1;
    do {
        fd = ::open(path, flags, mode);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

ssize_t write(int fd, const void *bytes, size_t size)
{
    Plan &p = plan();
    if (p.failNextWrite != 0) {
        ++p.calls[size_t(Op::Write)];
        errno = p.failNextWrite;
        p.failNextWrite = 0;
        return -1;
    }
    if (const Fault *fault = failing(Op::Write)) {
        if (fault->partial && size > 1) {
            p.failNextWrite = fault->error;
            return ::write(fd, bytes, size / 2);
        }
        errno = fault->error;
        return -1;
    }
    return ::write(fd, bytes, size);
}

int fsync(int fd)
{
    if (shouldFail(Op::Sync))
        return -1;
    return ::fsync(fd);
}

int ftruncate(int fd, off_t size)
{
    if (shouldFail(Op::Truncate))
        return -1;
    return ::ftruncate(fd, size);
}

int close(int fd)
{
    // The descriptor is gone whatever close() says (Linux), so a failing
    // close still closes: retrying would close another thread's file.
    const int result = ::close(fd);
    if (shouldFail(Op::Close))
        return -1;
    return result;
}

int rename(const char *from, const char *to)
{
    if (shouldFail(Op::Rename))
        return -1;
    return ::rename(from, to);
}

int link(const char *from, const char *to)
{
    if (shouldFail(Op::Link))
        return -1;
    return ::link(from, to);
}

int unlink(const char *path)
{
    if (shouldFail(Op::Unlink))
        return -1;
    return ::unlink(path);
}

int renameNoReplace(const char *from, const char *to)
{
    if (const auto &hook = beforeNoReplaceRename())
        hook(to);
    if (!shouldFail(Op::Rename)) {
        if (::renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
            return 0;
    }
    // NFS, some FUSE file systems and kernels before 3.15 refuse the flag.
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    if (shouldFail(Op::Link) || ::link(from, to) != 0) {
        // EPERM: this file system has no hard links (POSIX), so nothing
        // here can create a name without the risk of replacing one.
        if (errno == EPERM)
            errno = ENOTSUP;
        return -1;
    }
    // The new name is in place; a leftover old name would only be a second
    // link to the same bytes, so its removal is not checked.
    ::unlink(from);
    return 0;
}

int syncFolder(const char *path)
{
    if (shouldFail(Op::SyncFolder))
        return -1;
    int fd = -1;
    do {
        fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return -1;
    int result = ::fsync(fd);
    // POSIX: EINVAL is a file system that does not sync this kind of file;
    // its folders are as durable as it makes them, and no retry changes that.
    if (result != 0 && errno == EINVAL)
        result = 0;
    const int error = errno;
    ::close(fd);
    errno = error;
    return result;
}

void injectFault(Op op, int nth, int error, bool partial)
{
    Plan &p = plan();
    p = Plan();
    p.armed = true;
    p.faults[0] = {true, op, nth, error, partial, 0};
}

void injectSecondFault(Op op, int nth, int error)
{
    plan().faults[1] = {true, op, nth, error, false, 0};
}

void injectKill(int nth)
{
    Plan &p = plan();
    p = Plan();
    p.armed = true;
    p.killAt = nth;
}

bool clearFault()
{
    // The counts and hits stay for the test to read; nothing fails any more.
    Plan &p = plan();
    p.armed = false;
    p.failNextWrite = 0;
    return p.faults[0].hits > 0;
}

int hits(int index)
{
    return plan().faults.at(size_t(index)).hits;
}

int callCount(Op op)
{
    return plan().calls[size_t(op)];
}

void setBeforeNoReplaceRename(std::function<void(const char *to)> hook)
{
    beforeNoReplaceRename() = std::move(hook);
}

} // namespace soul::fileio
