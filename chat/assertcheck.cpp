#include "assertcheck.h"

#include "personatestfile.h"
#include "regexsearch.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>

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

// The grader's instructions: its answer must be one JSON object that
// rubricOutcome() can read.
constexpr char RubricInstructions[]
    = "You grade a reply against a rubric. Read the reply in <Output> and the rubric in "
      "<Rubric>, then answer with one JSON object and nothing else:\n"
      "{\"reason\": \"why, in one or two sentences\", \"score\": a number from 0.0 to "
      "1.0, \"pass\": true or false}\n"
      "The reply passes when it meets the rubric.";

// "$0.000123".
QString dollars(double amount)
{
    return QLatin1Char('$') + QString::number(amount, 'g', 6);
}

AssertOutcome costOutcome(const AssertSpec &spec,
                          const ChatReply &reply,
                          const PersonaTestFile &file)
{
    AssertOutcome result;
    const double limit = spec.threshold.value_or(0.0);
    if (!file.inputCost || !file.outputCost) {
        result.reason = QStringLiteral("No price per token is given, so the cost is not known: "
                                       "set cost (or inputCost and outputCost), in dollars per "
                                       "token, in the provider's config.");
        return result;
    }
    const ChatUsage &usage = reply.usage;
    if (!usage.impossible.isEmpty()) {
        result.reason = usage.impossible + QStringLiteral(" The cost is not known.");
        return result;
    }
    if (!usage.promptTokens || !usage.completionTokens) {
        result.reason = QStringLiteral("The server reported no token usage, so the cost is not "
                                       "known.");
        return result;
    }
    const double cost = double(*usage.promptTokens) * *file.inputCost
                        + double(*usage.completionTokens) * *file.outputCost;
    const QString took = QStringLiteral("cost %1 (%2 prompt and %3 completion tokens)")
                             .arg(dollars(cost))
                             .arg(*usage.promptTokens)
                             .arg(*usage.completionTokens);
    return outcome(spec,
                   cost <= limit,
                   {took + QStringLiteral(", within %1").arg(dollars(limit)),
                    took + QStringLiteral(", over %1").arg(dollars(limit)),
                    QStringLiteral("cost at most %1").arg(dollars(limit))},
                   QStringLiteral("The request"));
}

} // namespace

AssertOutcome checkAssert(const AssertSpec &spec,
                          const ChatReply &reply,
                          const PersonaTestFile &file)
{
    if (spec.baseType == QLatin1String("cost"))
        return costOutcome(spec, reply, file);
    if (isModelGraded(spec)) {
        AssertOutcome pending;
        pending.reason = QStringLiteral("Not graded yet.");
        return pending;
    }
    return checkAssert(spec, reply.content, reply.latencyMs);
}

bool isModelGraded(const AssertSpec &spec)
{
    return spec.baseType == QLatin1String("llm-rubric");
}

ChatRequest rubricRequest(const AssertSpec &spec,
                          const PersonaTestFile &file,
                          const QString &output,
                          const ChatRequest &tested)
{
    const JudgeProvider judge = spec.judge ? *spec.judge : file.judge.value_or(JudgeProvider());
    ChatRequest request;
    request.baseUrl = judge.apiBaseUrl.isEmpty() ? tested.baseUrl : judge.apiBaseUrl;
    request.model = judge.model.isEmpty() ? tested.model : judge.model;
    request.apiKey = tested.apiKey;
    request.timeoutMs = tested.timeoutMs;
    request.idleTimeoutMs = tested.idleTimeoutMs;
    request.temperature = 0.0;
    request.seed = tested.seed;
    const QString rubric = spec.values.isEmpty() ? QString() : spec.values.first();
    request.messages
        = {{QStringLiteral("system"), QString::fromLatin1(RubricInstructions)},
           {QStringLiteral("user"),
            QStringLiteral("<Output>\n%1\n</Output>\n<Rubric>\n%2\n</Rubric>").arg(output, rubric)}};
    return request;
}

AssertOutcome rubricOutcome(const AssertSpec &spec,
                            const ChatRequest &request,
                            const Result<ChatReply> &answer)
{
    AssertOutcome result;
    const QString judgedBy = QStringLiteral("judged by %1: ").arg(request.model);
    if (!answer) {
        result.reason = judgedBy + QStringLiteral("the grader gave no answer: ") + answer.error();
        return result;
    }
    // A grader may wrap its object in prose or a code fence.
    const QString text = answer->content;
    const qsizetype open = text.indexOf(QLatin1Char('{'));
    const qsizetype close = text.lastIndexOf(QLatin1Char('}'));
    const QJsonObject judgement
        = open >= 0 && close > open
              ? QJsonDocument::fromJson(text.mid(open, close - open + 1).toUtf8()).object()
              : QJsonObject();
    if (open < 0 || close <= open || judgement.isEmpty()) {
        result.reason = judgedBy
                        + QStringLiteral("its answer is not a JSON object, so the rubric is not "
                                         "graded: '%1'.")
                              .arg(printableServerText(text.left(200)));
        return result;
    }
    // promptfoo's reading of a judgement: pass when it does not say (or
    // says "yes", "pass", "y", "true"); the score as given, else a number in
    // a string, else the pass as 1 or 0; with a threshold, the score must
    // reach it too.
    const QJsonValue passValue = judgement.value(QStringLiteral("pass"));
    bool passed = true;
    if (passValue.isBool())
        passed = passValue.toBool();
    else if (!passValue.isUndefined() && !passValue.isNull())
        passed = QRegularExpression(QStringLiteral("^(true|yes|pass|y)$"),
                                    QRegularExpression::CaseInsensitiveOption)
                     .match(passValue.isString() ? passValue.toString()
                                                 : QString::number(passValue.toDouble()))
                     .hasMatch();
    // JavaScript's Number() of what is there: null is 0, a boolean 1 or 0,
    // an empty string 0.
    const QJsonValue scoreValue = judgement.value(QStringLiteral("score"));
    bool numeric = true;
    double graded = 0.0;
    if (scoreValue.isDouble())
        graded = scoreValue.toDouble();
    else if (scoreValue.isBool())
        graded = scoreValue.toBool() ? 1.0 : 0.0;
    else if (scoreValue.isString() && !scoreValue.toString().trimmed().isEmpty())
        graded = scoreValue.toString().trimmed().toDouble(&numeric);
    else if (!scoreValue.isNull() && !scoreValue.isString())
        numeric = false; // absent, an array or an object
    if (!numeric || !std::isfinite(graded))
        graded = passed ? 1.0 : 0.0;
    if (spec.threshold)
        passed = passed && graded >= *spec.threshold;
    result.pass = passed != spec.negated;
    result.score = spec.negated ? 1.0 - graded : graded;
    QString reason = judgement.value(QStringLiteral("reason")).toString().trimmed();
    if (reason.isEmpty())
        reason = passed ? QStringLiteral("the reply meets the rubric.")
                        : QStringLiteral("the reply does not meet the rubric.");
    result.reason = judgedBy + reason;
    if (spec.negated)
        result.reason += passed ? QStringLiteral(" not-llm-rubric wants it not to.") : QString();
    return result;
}

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
        const Result<bool> found = searchRegex(value, output);
        if (!found) {
            // Neither a match nor its absence is known: regex and not-regex
            // both fail, as promptfoo's do when the search throws.
            AssertOutcome unknown;
            unknown.reason = QStringLiteral("The regex %1 could not be checked: %2.")
                                 .arg(quoted(value), found.error());
            return unknown;
        }
        return outcome(spec,
                       *found,
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
    // promptfoo's: no asserts at all pass with 1; asserts that weigh
    // nothing in all score 0.
    verdict.score = specs.isEmpty() ? 1.0 : weights > 0.0 ? weighted / weights : 0.0;
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
