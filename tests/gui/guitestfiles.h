#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

// Writing persona files the ways other programs do, for the GUI and model tests.
namespace soul::guitest {

// Rewrites the file where it is (same inode), as most editors and `echo >` do.
inline bool writeInPlace(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(bytes) == bytes.size();
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
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace soul::guitest
