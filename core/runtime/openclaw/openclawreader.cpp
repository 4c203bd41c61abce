#include "openclawreader.h"

#include "compose/utf8.h"

#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace soul {

OpenClawEntry openClawUnreadable(const QString &name, const QString &reason)
{
    OpenClawEntry entry;
    entry.name = name;
    entry.kind = OpenClawEntry::Kind::Unreadable;
    entry.reason = reason;
    entry.text = QStringLiteral("[UNREADABLE: ") + reason + QLatin1Char(']');
    return entry;
}

namespace {

// The system's sentence for an error, as one line of at most 300 units.
QString ioReason(int error)
{
    QString reason = QString::fromLocal8Bit(std::strerror(error)).simplified();
    reason = safeHead(reason, 300).toString();
    return reason.isEmpty() ? QStringLiteral("workspace file could not be read (io)") : reason;
}

// Whether the listing of `dir` has an entry named exactly `name`; a dangling
// link counts, as a listing shows it.
bool listed(const QString &dir, const QString &name)
{
    DIR *handle = ::opendir(QFile::encodeName(dir).constData());
    if (!handle)
        return false;
    const QByteArray wanted = QFile::encodeName(name);
    bool found = false;
    while (const dirent *entry = ::readdir(handle)) {
        if (wanted == entry->d_name) {
            found = true;
            break;
        }
    }
    ::closedir(handle);
    return found;
}

QString homeDirectory()
{
    const QString home = qEnvironmentVariable("HOME");
    return home.isEmpty() ? QDir::homePath() : home;
}

} // namespace

QString openClawDirectoryPath(const QString &dir)
{
    QString path = jsTrimmed(dir).toString();
    if (path == QLatin1String("~"))
        path = homeDirectory();
    else if (path.startsWith(QLatin1String("~/")))
        path = homeDirectory() + path.mid(1);
    if (!QDir::isAbsolutePath(path))
        path = QDir::currentPath() + QLatin1Char('/') + path;
    // Lexical, as a path resolver does it: links are not looked at.
    path = QDir::cleanPath(path);
    return path;
}

OpenClawEntry readOpenClawFile(const QString &path, const QString &name, bool read)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat info = {};
    if (::lstat(native.constData(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            OpenClawEntry entry;
            entry.name = name;
            entry.kind = OpenClawEntry::Kind::Missing;
            return entry;
        }
        return openClawUnreadable(name, ioReason(errno));
    }
    if (S_ISLNK(info.st_mode))
        return openClawUnreadable(name, QStringLiteral("symlink path component not allowed"));
    if (!S_ISREG(info.st_mode))
        return openClawUnreadable(name, QStringLiteral("path does not have the required file type"));
    if (info.st_nlink > 1)
        return openClawUnreadable(name, QStringLiteral("path must not be hardlinked"));
    if (info.st_size > OpenClawMaxFileBytes)
        return openClawUnreadable(name,
                                  QStringLiteral("File exceeds %1 bytes").arg(OpenClawMaxFileBytes));
    // O_NOFOLLOW and O_NONBLOCK: if the path was swapped for a link or a FIFO
    // since the lstat, the open fails or returns at once instead of following
    // or blocking; the fstat below then refuses what is not a regular file.
    const int fd = ::open(native.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return openClawUnreadable(name, ioReason(errno));
    QByteArray bytes;
    struct stat opened = {};
    if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
        const int error = errno;
        ::close(fd);
        return S_ISREG(opened.st_mode)
                   ? openClawUnreadable(name, ioReason(error))
                   : openClawUnreadable(name,
                                        QStringLiteral(
                                            "path does not have the required file type"));
    }
    if (!read) {
        ::close(fd);
        OpenClawEntry entry;
        entry.name = name;
        return entry;
    }
    bytes.reserve(qsizetype(std::min<qint64>(opened.st_size, OpenClawMaxFileBytes)) + 1);
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            ::close(fd);
            return openClawUnreadable(name, ioReason(error));
        }
        if (n == 0)
            break;
        bytes.append(buffer, n);
        if (bytes.size() > OpenClawMaxFileBytes) {
            ::close(fd);
            return openClawUnreadable(name,
                                      QStringLiteral("File exceeds %1 bytes")
                                          .arg(OpenClawMaxFileBytes));
        }
    }
    ::close(fd);
    OpenClawEntry entry;
    entry.name = name;
    entry.text = utf8::decode(bytes);
    return entry;
}

OpenClawInput readOpenClawDirectory(const QString &dir)
{
    return readOpenClawDirectory(dir, {});
}

OpenClawInput readOpenClawDirectory(const QString &dir, const QStringList &checkOnly)
{
    OpenClawInput input;
    input.dir = openClawDirectoryPath(dir);
    const QString base = dir.endsWith(QLatin1Char('/')) ? dir : dir + QLatin1Char('/');
    struct stat info = {};
    input.bootstrapPending
        = ::stat(QFile::encodeName(base + QStringLiteral("BOOTSTRAP.md")).constData(), &info) == 0;
    for (const QString &name : openClawFileOrder()) {
        const bool listedOnly = name == QLatin1String("USER.md")
                                || name == QLatin1String("MEMORY.md");
        if (listedOnly && !listed(dir, name))
            continue;
        if (name == QLatin1String("BOOTSTRAP.md") && !input.bootstrapPending)
            continue;
        input.entries.append(readOpenClawFile(base + name, name, !checkOnly.contains(name)));
    }
    return input;
}

} // namespace soul
