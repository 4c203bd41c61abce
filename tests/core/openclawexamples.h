#pragma once

#include "testfiles.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

// The worked examples of the OpenClaw 2026.9 rule
// (tests/data/openclaw-2026.9-examples.json), produced by OpenClaw's own
// code: loading them and making their folders.
namespace soul::test {

inline QJsonObject openClawExamples()
{
    QFile file(QStringLiteral(SOUL_TEST_DATA_DIR "/openclaw-2026.9-examples.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The bytes of one file from its segments (see the JSON's "segments" key).
inline QByteArray exampleFileBytes(const QJsonArray &segments)
{
    QByteArray out;
    for (const QJsonValue &value : segments) {
        const QJsonObject segment = value.toObject();
        if (segment.contains(QStringLiteral("text"))) {
            out += segment.value(QStringLiteral("text")).toString().toUtf8();
        } else if (segment.contains(QStringLiteral("hex"))) {
            out += QByteArray::fromHex(segment.value(QStringLiteral("hex")).toString().toLatin1());
        } else if (segment.contains(QStringLiteral("repeat"))) {
            out += repeated(segment.value(QStringLiteral("repeat")).toString().toUtf8(),
                            segment.value(QStringLiteral("times")).toInteger());
        } else if (segment.contains(QStringLiteral("pattern"))) {
            const QString pattern = segment.value(QStringLiteral("pattern")).toString();
            const qsizetype count = segment.value(QStringLiteral("count")).toInteger();
            const qsizetype start = pattern.indexOf(QLatin1Char('#'));
            qsizetype width = 0;
            while (start + width < pattern.size() && pattern.at(start + width) == QLatin1Char('#'))
                ++width;
            for (qsizetype i = 1; i <= count; ++i) {
                QString line = pattern;
                line.replace(start,
                             width,
                             QString::number(i).rightJustified(width, QLatin1Char('0')));
                out += line.toUtf8();
            }
        }
    }
    return out;
}

// Makes the example's files in `dir`; false when one cannot be made.
inline bool makeExampleFolder(const QJsonObject &example, const QString &dir)
{
    const QJsonObject files = example.value(QStringLiteral("files")).toObject();
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString path = QDir(dir).filePath(it.key());
        if (it.value().isObject()) {
            const QString target = it.value().toObject().value(QStringLiteral("symlink")).toString();
            if (!QFile::link(target, path))
                return false;
        } else if (!writeFile(path, exampleFileBytes(it.value().toArray()))) {
            return false;
        }
    }
    return true;
}

inline QByteArray sha256Hex(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

} // namespace soul::test
