#pragma once

#include "../core/testfiles.h"

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

// Writing persona files the ways other programs do, for the GUI and model tests.
namespace soul::guitest {

using test::CapBytes;
using test::NearCapBytes;

// What this build's soulc prints with `arguments`; on a failure "soulc
// failed: " and what it said, so a comparison names the failure.
inline QByteArray soulcOutput(const QStringList &arguments)
{
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"), arguments);
    if (!soulc.waitForFinished(30000) || soulc.exitStatus() != QProcess::NormalExit
        || soulc.exitCode() != 0)
        return "soulc failed: " + soulc.readAllStandardError();
    return soulc.readAllStandardOutput();
}

// `soulc links add --name NAME --file FILE --agents AGENTS` and then `place`
// (a folder of personas, or "--openclaw"): soulc's output, or its error
// after "soulc failed: ".
inline QByteArray soulcLinkAdd(const QString &name,
                               const QString &file,
                               const QString &agents,
                               const QString &place)
{
    return soulcOutput({QStringLiteral("links"),
                        QStringLiteral("add"),
                        QStringLiteral("--name"),
                        name,
                        QStringLiteral("--file"),
                        file,
                        QStringLiteral("--agents"),
                        agents,
                        place});
}

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

using test::treeContents;

} // namespace soul::guitest
