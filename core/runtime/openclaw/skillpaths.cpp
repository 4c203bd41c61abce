#include "skillpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <dirent.h>
#include <sys/stat.h>

namespace soul::skillpaths {

QString realPath(const QString &path)
{
    return QFileInfo(path).canonicalFilePath();
}

bool lexists(const QString &path)
{
    struct stat st
    {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0;
}

bool isSymlink(const QString &path)
{
    struct stat st
    {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISLNK(st.st_mode);
}

bool isDirectory(const QString &path)
{
    struct stat st
    {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isInside(const QString &root, const QString &path)
{
    return path == root
           || path.startsWith(root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/'));
}

QString joined(const QString &dir, const QString &name)
{
    return QDir::cleanPath(dir + QLatin1Char('/') + name);
}

// The folders (and, when `followLinks`, links to folders) in `dir`, leaving
// out names starting with '.' and node_modules, from the first `limit`
// entries the system lists.
ChildScan childDirectories(const QString &dir, qsizetype limit, bool followLinks)
{
    ChildScan out;
    DIR *handle = ::opendir(QFile::encodeName(dir).constData());
    if (!handle)
        return out;
    qsizetype scanned = 0;
    while (const dirent *entry = ::readdir(handle)) {
        const QString name = QFile::decodeName(entry->d_name);
        if (name == QLatin1String(".") || name == QLatin1String(".."))
            continue;
        if (scanned >= limit) {
            out.truncated = true;
            break;
        }
        ++scanned;
        if (name.startsWith(QLatin1Char('.')) || name == QLatin1String("node_modules"))
            continue;
        const QString path = joined(dir, name);
        unsigned char type = entry->d_type;
        if (type == DT_UNKNOWN) {
            struct stat st
            {};
            if (::lstat(QFile::encodeName(path).constData(), &st) == 0)
                type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
        }
        if (type == DT_DIR || (type == DT_LNK && followLinks && isDirectory(path)))
            out.dirs.append(name);
    }
    ::closedir(handle);
    return out;
}

} // namespace soul::skillpaths
