#include "assertcheck.h"

#include "personatestfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QStringList>

namespace soul {

namespace {

// How an outcome is said: what holds, what does not, and what was wanted
// ("contains 'Ava'", "does not contain 'Ava'", "contain 'Ava'").
struct Phrase
{
    QString holds;
    QString fails;
    QString wanted;
};

QString quoted(const QString &value)
{
    return QLatin1Char('\'') + value + QLatin1Char('\'');
}

QString quotedList(const QStringList &values)
{
    QStringList parts;
    for (const QString &value : values)
        parts.append(quoted(value));
    return parts.join(QStringLiteral(", "));
}

Phrase verbPhrase(const QString &third, const QString &base, const QString &object)
{
    return {third + QLatin1Char(' ') + object,
            QStringLiteral("does not ") + base + QLatin1Char(' ') + object,
            base + QLatin1Char(' ') + object};
}

// Whether `output` is one JSON value and nothing else, as JSON.parse takes
// it: a bare number or string too, which QJsonDocument alone refuses.
bool isJson(const QString &output)
{
    QJsonParseError error{};
    const QJsonDocument document
        = QJsonDocument::fromJson(QByteArray("[") + output.toUtf8() + QByteArray("]"), &error);
    return error.error == QJsonParseError::NoError && document.array().size() == 1;
}

AssertOutcome outcome(const AssertSpec &spec,
                      bool holds,
                      const Phrase &phrase,
                      const QString &subject = QStringLiteral("The output"))
{
    AssertOutcome result;
    result.pass = holds != spec.negated;
    result.score = result.pass ? 1.0 : 0.0;
    result.reason = subject + QLatin1Char(' ') + (holds ? phrase.holds : phrase.fails)
                    + QLatin1Char('.');
    if (!result.pass) {
        result.reason += QStringLiteral(" %1 wants it %2 %3.")
                             .arg(spec.type,
                                  spec.negated ? QStringLiteral("not to") : QStringLiteral("to"),
                                  phrase.wanted);
    }
    return result;
}

} // namespace

AssertOutcome checkAssert(const AssertSpec &spec, const QString &output, qint64 latencyMs)
{
    const QString &type = spec.baseType;
    const QString value = spec.values.isEmpty() ? QString() : spec.values.first();
    if (type == QLatin1String("equals")) {
        return outcome(spec,
                       output == value,
                       {QStringLiteral("equals ") + quoted(value),
                        QStringLiteral("does not equal ") + quoted(value),
                        QStringLiteral("equal ") + quoted(value)});
    }
    if (type == QLatin1String("contains") || type == QLatin1String("icontains")) {
        const bool ignoreCase = type.startsWith(QLatin1Char('i'));
        const Phrase phrase = verbPhrase(QStringLiteral("contains"),
                                         QStringLiteral("contain"),
                                         quoted(value)
                                             + (ignoreCase ? QStringLiteral(" (ignoring case)")
                                                           : QString()));
        return outcome(spec,
                       output.contains(value, ignoreCase ? Qt::CaseInsensitive : Qt::CaseSensitive),
                       phrase);
    }
    if (type.endsWith(QLatin1String("-any")) || type.endsWith(QLatin1String("-all"))) {
        const bool ignoreCase = type.startsWith(QLatin1Char('i'));
        const bool all = type.endsWith(QLatin1String("-all"));
        QStringList found;
        QStringList missing;
        for (const QString &item : spec.values) {
            (output.contains(item, ignoreCase ? Qt::CaseInsensitive : Qt::CaseSensitive) ? found
                                                                                         : missing)
                .append(item);
        }
        const QString caseNote = ignoreCase ? QStringLiteral(" (ignoring case)") : QString();
        const bool holds = all ? missing.isEmpty() : !found.isEmpty();
        Phrase phrase;
        if (all) {
            phrase = {QStringLiteral("contains all of ") + quotedList(spec.values) + caseNote,
                      QStringLiteral("lacks ") + quotedList(missing) + caseNote,
                      QStringLiteral("contain all of ") + quotedList(spec.values) + caseNote};
        } else {
            phrase = {QStringLiteral("contains ") + quotedList(found) + caseNote,
                      QStringLiteral("contains none of ") + quotedList(spec.values) + caseNote,
                      QStringLiteral("contain one of ") + quotedList(spec.values) + caseNote};
        }
        return outcome(spec, holds, phrase);
    }
    if (type == QLatin1String("starts-with")) {
        return outcome(spec,
                       output.startsWith(value),
                       verbPhrase(QStringLiteral("starts with"),
                                  QStringLiteral("start with"),
                                  quoted(value)));
    }
    if (type == QLatin1String("regex")) {
        const QRegularExpression expression(value);
        if (!expression.isValid()) {
            AssertOutcome invalid;
            invalid.reason = QStringLiteral("The regex %1 is invalid: %2 at offset %3.")
                                 .arg(quoted(value), expression.errorString())
                                 .arg(expression.patternErrorOffset());
            return invalid;
        }
        return outcome(spec,
                       expression.match(output).hasMatch(),
                       verbPhrase(QStringLiteral("matches"),
                                  QStringLiteral("match"),
                                  QLatin1Char('/') + value + QLatin1Char('/')));
    }
    if (type == QLatin1String("is-json")) {
        return outcome(spec,
                       isJson(output),
                       {QStringLiteral("is valid JSON"),
                        QStringLiteral("is not valid JSON"),
                        QStringLiteral("be valid JSON")});
    }
    if (type == QLatin1String("latency")) {
        const double limit = spec.threshold.value_or(0.0);
        const QString took = QStringLiteral("took %1 ms").arg(latencyMs);
        return outcome(spec,
                       double(latencyMs) <= limit,
                       {took + QStringLiteral(", within %1 ms").arg(limit),
                        took + QStringLiteral(", over %1 ms").arg(limit),
                        QStringLiteral("take at most %1 ms").arg(limit)},
                       QStringLiteral("The reply"));
    }
    AssertOutcome unknown;
    unknown.reason = QStringLiteral("Assert type '%1' is not supported. Supported: %2.")
                         .arg(spec.type, supportedAssertTypes().join(QStringLiteral(", ")));
    return unknown;
}

CaseVerdict judgeCase(const QList<AssertSpec> &specs,
                      const QList<AssertOutcome> &outcomes,
                      std::optional<double> threshold)
{
    CaseVerdict verdict;
    double weighted = 0.0;
    double weights = 0.0;
    bool allPass = true;
    for (qsizetype i = 0; i < specs.size() && i < outcomes.size(); ++i) {
        weighted += specs.at(i).weight * outcomes.at(i).score;
        weights += specs.at(i).weight;
        allPass = allPass && outcomes.at(i).pass;
    }
    verdict.score = weights > 0.0 ? weighted / weights : 1.0;
    if (threshold) {
        verdict.pass = verdict.score >= *threshold;
        if (!verdict.pass)
            verdict.reason = QStringLiteral("Weighted score %1 is below the threshold %2.")
                                 .arg(verdict.score, 0, 'g', 4)
                                 .arg(*threshold);
    } else {
        verdict.pass = allPass;
    }
    return verdict;
}

} // namespace soul
