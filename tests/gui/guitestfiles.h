#pragma once

#include "../core/testfiles.h"

#include <QByteArray>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QString>

// Writing persona files the ways other programs do, for the GUI and model tests.
namespace soul::guitest {

using test::CapBytes;
using test::NearCapBytes;

// Rewrites the file where it is (same inode), as most editors and `echo >` do.
inline bool writeInPlace(const QString &path, const QByteArray &bytes)
{
    return test::writeFile(path, bytes);
}

// Writes a temporary file beside it and renames it over the path, as atomic
// savers (and our own save) do.
inline bool writeAtomically(const QString &path, const QByteArray &bytes)
{
    const QString temp = path + QStringLiteral(".tmp~");
    if (!writeInPlace(temp, bytes))
        return false;
    return ::rename(QFile::encodeName(temp).constData(), QFile::encodeName(path).constData()) == 0;
}

inline QByteArray readAll(const QString &path)
{
    return test::readFile(path);
}

// Every file and folder below `dir` with its bytes: equal before and after
// means nothing there was written, created or removed.
inline QMap<QString, QByteArray> treeContents(const QString &dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir,
                    QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        files.insert(file, readAll(file));
    }
    return files;
}

} // namespace soul::guitest
