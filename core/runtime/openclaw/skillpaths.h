#pragma once

#include <QString>
#include <QStringList>

// The path tests OpenClaw's skill and plugin discovery make, as small free
// functions: none follows a link unless it says so, none reads a file.
namespace soul::skillpaths {

QString realPath(const QString &path); // links resolved; empty when it does not exist
bool lexists(const QString &path);     // the entry itself, a dangling link too
bool isSymlink(const QString &path);
bool isDirectory(const QString &path); // links followed
// Whether `path` is `root` or below it (text only: give real paths for real answers).
bool isInside(const QString &root, const QString &path);
QString joined(const QString &dir, const QString &name);

struct ChildScan
{
    QStringList dirs; // in the order the system lists them
    bool truncated = false;
};

// The folders (and, when `followLinks`, links to folders) in `dir`, leaving
// out names starting with '.' and node_modules, from the first `limit`
// entries the system lists, as OpenClaw lists a folder.
ChildScan childDirectories(const QString &dir, qsizetype limit, bool followLinks);

} // namespace soul::skillpaths
