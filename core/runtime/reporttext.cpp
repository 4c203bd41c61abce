#include "reporttext.h"

#include "counttext.h"

#include <QCryptographicHash>

namespace soul {

QByteArray lintLine(const QString &file, const Lint &lint)
{
    return (file + QStringLiteral(": ") + lintLevelName(lint.level) + QStringLiteral(": ")
            + lint.message + QLatin1Char('\n'))
        .toUtf8();
}

void LintTally::add(const Lint &lint)
{
    switch (lint.level) {
    case LintLevel::Error:
        ++errors;
        break;
    case LintLevel::Warning:
        ++warnings;
        break;
    case LintLevel::Info:
        ++infos;
        break;
    }
}

QString LintTally::text() const
{
    QStringList parts;
    if (errors > 0)
        parts.append(plural(errors, "error", "errors"));
    if (warnings > 0)
        parts.append(plural(warnings, "warning", "warnings"));
    if (infos > 0)
        parts.append(plural(infos, "info", "info"));
    return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral(", "));
}

QJsonObject LintTally::json() const
{
    return QJsonObject{
        {QStringLiteral("error"), errors},
        {QStringLiteral("warning"), warnings},
        {QStringLiteral("info"), infos},
    };
}

LintTally tallyFor(const QList<Lint> &lints, const QString &file)
{
    LintTally tally;
    for (const Lint &lint : lints) {
        if (file.isNull() || lint.file == file)
            tally.add(lint);
    }
    return tally;
}

QJsonArray lintsJson(const QList<Lint> &lints)
{
    QJsonArray out;
    for (const Lint &lint : lints) {
        out.append(QJsonObject{
            {QStringLiteral("file"), lint.file},
            {QStringLiteral("level"), lintLevelName(lint.level)},
            {QStringLiteral("code"), lint.code},
            {QStringLiteral("message"), lint.message},
        });
    }
    return out;
}

QByteArray renderTable(const QList<QStringList> &rows, const QList<bool> &alignRight)
{
    QList<qsizetype> widths(alignRight.size(), 0);
    for (const QStringList &row : rows) {
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = qMax(widths[c], row.at(c).size());
    }
    QString out;
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype c = 0; c < row.size(); ++c) {
            if (c > 0)
                line += QStringLiteral("  ");
            line += alignRight.at(c) ? row.at(c).rightJustified(widths[c])
                                     : row.at(c).leftJustified(widths[c]);
        }
        // The last column is left-aligned; no padding after it.
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out += line + QLatin1Char('\n');
    }
    return out.toUtf8();
}

QString sha256Hex(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

} // namespace soul
