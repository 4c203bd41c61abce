#pragma once

#include "lintitem.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// The pieces every runtime's `soulc stat` report is made of: tables, lint
// lines and tallies, digests.
namespace soul {

// "FILE: warning: MESSAGE\n"
QByteArray lintLine(const QString &file, const Lint &lint);

// Lints by level, of one file or of all.
struct LintTally
{
    qint64 errors = 0;
    qint64 warnings = 0;
    qint64 infos = 0;

    void add(const Lint &lint);
    // "1 error, 2 warnings", or "-" when there is nothing.
    QString text() const;
    QJsonObject json() const;
};

// The lints of `file`; of every file when `file` is null.
LintTally tallyFor(const QList<Lint> &lints, const QString &file);

// The lints as JSON objects: file, level, code, message.
QJsonArray lintsJson(const QList<Lint> &lints);

// Left-aligned text columns and right-aligned number columns, two spaces apart.
QByteArray renderTable(const QList<QStringList> &rows, const QList<bool> &alignRight);

// Lower-case hexadecimal SHA-256 of `bytes`.
QString sha256Hex(const QByteArray &bytes);

} // namespace soul
