#pragma once

#include "compose/composerule.h"
#include "compose/contract.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimesoul.h"

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

// Small helpers shared by the core tests for building persona directories.
namespace soul::test {

// The numbers of today's toolnexus rule, for the tests of its exact behaviour;
// tests of another rule build their own ComposeRule.
inline const qint64 CapBytes = ComposeRule::toolnexus().capBytes;
inline const qint64 NearCapBytes = ComposeRule::toolnexus().nearCapBytes();

// Writes `bytes` to `path`, replacing it; false (and nothing else) on failure,
// so the caller can QVERIFY it.
inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(bytes) == bytes.size() && file.flush();
}

inline bool writeSlot(const QString &dir, int slot, const QByteArray &bytes)
{
    return writeFile(QDir(dir).filePath(slotName(slot)), bytes);
}

inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// What `soulc compose --runtime <profile>` writes for `dir`: the same core
// function, its bytes gathered.
inline QByteArray composedBy(const QString &dir, const RuntimeProfile &profile)
{
    QByteArray out;
    const bool ok = composeDirectoryTo(
        dir,
        [&out](QByteArrayView piece) {
            out.append(piece);
            return true;
        },
        profile);
    return ok ? out : QByteArray("(not composed)");
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
        files.insert(file, readFile(file));
    }
    return files;
}

// Bytes this process has read so far (rchar of /proc/self/io), -1 when the
// system does not say: a difference shows whether a file was read whole.
inline qint64 bytesReadSoFar()
{
    const QList<QByteArray> lines = readFile(QStringLiteral("/proc/self/io")).split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("rchar:"))
            return line.mid(6).trimmed().toLongLong();
    }
    return -1;
}

inline QByteArray repeated(QByteArrayView unit, qsizetype times)
{
    QByteArray out;
    out.reserve(unit.size() * times);
    for (qsizetype i = 0; i < times; ++i)
        out.append(unit);
    return out;
}

inline QByteArray notice()
{
    return QByteArray(TruncationNotice, TruncationNoticeBytes);
}

inline QByteArray head(int slot)
{
    return QByteArray("## ") + BootstrapOrder[static_cast<size_t>(slot)] + "\n\n";
}

// Turns the snapshot manifest at `manifestPath` into one of schema 1, as
// written before the sections were recorded: no "schema", no "section".
inline bool makeSchemaOne(const QString &manifestPath)
{
    QJsonObject manifest = QJsonDocument::fromJson(readFile(manifestPath)).object();
    if (manifest.isEmpty())
        return false;
    manifest.remove(QStringLiteral("schema"));
    QJsonArray files = manifest.value(QLatin1String("files")).toArray();
    for (qsizetype i = 0; i < files.size(); ++i) {
        QJsonObject file = files.at(i).toObject();
        file.remove(QStringLiteral("section"));
        files.replace(i, file);
    }
    manifest.insert(QStringLiteral("files"), files);
    return writeFile(manifestPath, QJsonDocument(manifest).toJson());
}

} // namespace soul::test
