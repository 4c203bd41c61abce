#pragma once

#include <unistd.h>

namespace soul {

// A file descriptor, closed with the scope. For reads: a close that fails
// after a read loses nothing (writes go through fileio, which checks it).
class FileDescriptor
{
public:
    explicit FileDescriptor(int fd)
        : m_fd(fd)
    {}
    ~FileDescriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    int get() const { return m_fd; }

private:
    int m_fd = -1;
};

} // namespace soul
