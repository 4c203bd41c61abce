#include "fileio.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace soul::fileio {

namespace {

struct Plan
{
    bool armed = false;
    Op op = Op::Open;
    int nth = 0;
    int error = 0;
    bool partial = false;
    bool fired = false;
    bool failNextWrite = false; // the second half of a partial write
    std::array<int, OpCount> calls = {};
};

Plan &plan()
{
    static Plan p;
    return p;
}

// Counts the call and says whether it is the one to fail.
bool shouldFail(Op op)
{
    Plan &p = plan();
    if (!p.armed)
        return false;
    const int count = ++p.calls[size_t(op)];
    if (p.fired || p.op != op || count != p.nth)
        return false;
    p.fired = true;
    return true;
}

} // namespace

int open(const char *path, int flags, mode_t mode)
{
    if (shouldFail(Op::Open)) {
        errno = plan().error;
        return -1;
    }
    int fd = -1;
    do {
        fd = ::open(path, flags, mode);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

ssize_t write(int fd, const void *bytes, size_t size)
{
    Plan &p = plan();
    if (p.failNextWrite) {
        ++p.calls[size_t(Op::Write)];
        p.failNextWrite = false;
        errno = p.error;
        return -1;
    }
    if (shouldFail(Op::Write)) {
        if (p.partial && size > 1) {
            p.failNextWrite = true;
            return ::write(fd, bytes, size / 2);
        }
        errno = p.error;
        return -1;
    }
    return ::write(fd, bytes, size);
}

int fsync(int fd)
{
    if (shouldFail(Op::Sync)) {
        errno = plan().error;
        return -1;
    }
    return ::fsync(fd);
}

int ftruncate(int fd, off_t size)
{
    if (shouldFail(Op::Truncate)) {
        errno = plan().error;
        return -1;
    }
    return ::ftruncate(fd, size);
}

int close(int fd)
{
    // The descriptor is gone whatever close() says (Linux), so a failing
    // close still closes: retrying would close another thread's file.
    const int result = ::close(fd);
    if (shouldFail(Op::Close)) {
        errno = plan().error;
        return -1;
    }
    return result;
}

int rename(const char *from, const char *to)
{
    if (shouldFail(Op::Rename)) {
        errno = plan().error;
        return -1;
    }
    return ::rename(from, to);
}

void injectFault(Op op, int nth, int error, bool partial)
{
    Plan &p = plan();
    p = Plan();
    p.armed = true;
    p.op = op;
    p.nth = nth;
    p.error = error;
    p.partial = partial;
}

bool clearFault()
{
    Plan &p = plan();
    const bool fired = p.fired;
    p = Plan();
    return fired;
}

int callCount(Op op)
{
    return plan().calls[size_t(op)];
}

} // namespace soul::fileio
