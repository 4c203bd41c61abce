#pragma once

#include "contract.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

// Small helpers shared by the core tests for building persona directories.
namespace soul::test {

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

} // namespace soul::test
