#include "testcommand.h"

#include "atomicwrite.h"
#include "commandline.h"
#include "commands.h"
#include "output.h"
#include "personatestfile.h"
#include "personatestrunner.h"
#include "tokenizer.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamWriter>

#include <memory>

namespace soul {

namespace {

QJsonValue count(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

QJsonValue assertValue(const AssertSpec &spec)
{
    if (spec.threshold)
        return *spec.threshold;
    if (spec.values.isEmpty())
        return QJsonValue();
    if (spec.baseType.endsWith(QLatin1String("-any"))
        || spec.baseType.endsWith(QLatin1String("-all")))
        return QJsonArray::fromStringList(spec.values);
    return spec.values.first();
}

// The failed asserts' reasons of a run, then the threshold's.
QStringList failureReasons(const PersonaTestCase &test, const CaseRun &run)
{
    QStringList reasons;
    for (qsizetype i = 0; i < run.outcomes.size() && i < test.asserts.size(); ++i) {
        if (!run.outcomes.at(i).pass)
            reasons.append(run.outcomes.at(i).reason);
    }
    if (!run.verdict.reason.isEmpty())
        reasons.append(run.verdict.reason);
    return reasons;
}

QString caseName(const PersonaTestCase &test)
{
    return test.description.isEmpty() ? QStringLiteral("test %1").arg(test.index)
                                      : test.description;
}

QByteArray resultText(const PersonaTestFile &file, const PersonaTestRun &result)
{
    QString out;
    int casesPassed = 0;
    for (qsizetype k = 0; k < result.runs.size();) {
        const CaseRun &first = result.runs.at(k);
        const PersonaTestCase &test = file.tests.at(first.testIndex);
        int passed = 0;
        QStringList reasons;
        qsizetype end = k;
        for (; end < result.runs.size() && result.runs.at(end).testIndex == first.testIndex; ++end) {
            const CaseRun &run = result.runs.at(end);
            if (run.verdict.pass) {
                ++passed;
                continue;
            }
            for (const QString &reason : failureReasons(test, run))
                reasons.append(run.runs > 1 ? QStringLiteral("run %1: %2").arg(run.run).arg(reason)
                                            : reason);
        }
        const int runs = int(end - k);
        const bool pass = passed == runs;
        casesPassed += pass ? 1 : 0;
        out += (pass ? QStringLiteral("PASS  ") : QStringLiteral("FAIL  ")) + caseName(test);
        if (runs > 1)
            out += QStringLiteral(" (%1 of %2 runs passed)").arg(passed).arg(runs);
        out += QLatin1Char('\n');
        for (const QString &reason : std::as_const(reasons))
            out += QStringLiteral("      ") + reason + QLatin1Char('\n');
        k = end;
    }
    const int cases = int(file.tests.size());
    out += QStringLiteral("%1 of %2 tests passed").arg(casesPassed).arg(cases);
    if (result.runs.size() != cases)
        out += QStringLiteral(" (%1 of %2 runs)").arg(result.passed).arg(result.runs.size());
    out += QStringLiteral(", %1 at %2.\n").arg(result.model, result.endpoint.toDisplayString());
    return out.toUtf8();
}

QByteArray resultJson(const Invocation &invocation,
                      const PersonaTestFile &file,
                      const QByteArray &soul,
                      const PersonaTestRun &result)
{
    const auto tokenizer = Tokenizer::builtin(QString());
    QJsonArray tests;
    for (const CaseRun &run : result.runs) {
        const PersonaTestCase &test = file.tests.at(run.testIndex);
        QJsonArray asserts;
        for (qsizetype i = 0; i < test.asserts.size() && i < run.outcomes.size(); ++i) {
            const AssertSpec &spec = test.asserts.at(i);
            asserts.append(QJsonObject{
                {QStringLiteral("type"), spec.type},
                {QStringLiteral("value"), assertValue(spec)},
                {QStringLiteral("weight"), spec.weight},
                {QStringLiteral("pass"), run.outcomes.at(i).pass},
                {QStringLiteral("reason"), run.outcomes.at(i).reason},
            });
        }
        const ChatUsage &usage = run.reply.usage;
        tests.append(QJsonObject{
            {QStringLiteral("description"), test.description},
            {QStringLiteral("run"), run.run},
            {QStringLiteral("runs"), run.runs},
            {QStringLiteral("pass"), run.verdict.pass},
            {QStringLiteral("score"), run.verdict.score},
            {QStringLiteral("output"), run.reply.content},
            {QStringLiteral("asserts"), asserts},
            {QStringLiteral("usage"),
             QJsonObject{{QStringLiteral("prompt_tokens"), count(usage.promptTokens)},
                         {QStringLiteral("cached_tokens"), count(usage.cachedTokens)},
                         {QStringLiteral("completion_tokens"), count(usage.completionTokens)}}},
            {QStringLiteral("latency_ms"), run.reply.latencyMs},
            {QStringLiteral("first_token_ms"),
             run.reply.firstTokenMs < 0 ? QJsonValue() : QJsonValue(run.reply.firstTokenMs)},
        });
    }
    const QJsonObject root{
        {QStringLiteral("soul"),
         QJsonObject{
             {QStringLiteral("sha256"),
              QString::fromLatin1(
                  QCryptographicHash::hash(soul, QCryptographicHash::Sha256).toHex())},
             {QStringLiteral("bytes"), soul.size()},
             {QStringLiteral("tokens"),
              tokenizer ? QJsonValue(tokenizer->count(soul)) : QJsonValue()},
         }},
        {QStringLiteral("runtime"), invocation.runtime},
        {QStringLiteral("tests_file"), file.path},
        {QStringLiteral("endpoint"), result.endpoint.toDisplayString()},
        {QStringLiteral("model"), result.model},
        {QStringLiteral("tests"), tests},
        {QStringLiteral("passed"), result.passed},
        {QStringLiteral("failed"), result.failed},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray resultJUnit(const PersonaTestFile &file, const PersonaTestRun &result)
{
    QByteArray xml;
    QXmlStreamWriter writer(&xml);
    writer.setAutoFormatting(true);
    writer.writeStartDocument();
    qint64 totalMs = 0;
    for (const CaseRun &run : result.runs)
        totalMs += run.reply.latencyMs;
    const QString suite = file.description.isEmpty() ? file.path : file.description;
    const auto seconds = [](qint64 ms) { return QString::number(double(ms) / 1000.0, 'f', 3); };
    writer.writeStartElement(QStringLiteral("testsuites"));
    writer.writeAttribute(QStringLiteral("tests"), QString::number(result.runs.size()));
    writer.writeAttribute(QStringLiteral("failures"), QString::number(result.failed));
    writer.writeStartElement(QStringLiteral("testsuite"));
    writer.writeAttribute(QStringLiteral("name"), suite);
    writer.writeAttribute(QStringLiteral("tests"), QString::number(result.runs.size()));
    writer.writeAttribute(QStringLiteral("failures"), QString::number(result.failed));
    writer.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
    writer.writeAttribute(QStringLiteral("time"), seconds(totalMs));
    for (const CaseRun &run : result.runs) {
        const PersonaTestCase &test = file.tests.at(run.testIndex);
        QString name = caseName(test);
        if (run.runs > 1)
            name += QStringLiteral(" (run %1 of %2)").arg(run.run).arg(run.runs);
        writer.writeStartElement(QStringLiteral("testcase"));
        writer.writeAttribute(QStringLiteral("classname"), suite);
        writer.writeAttribute(QStringLiteral("name"), name);
        writer.writeAttribute(QStringLiteral("time"), seconds(run.reply.latencyMs));
        if (!run.verdict.pass) {
            const QStringList reasons = failureReasons(test, run);
            writer.writeStartElement(QStringLiteral("failure"));
            writer.writeAttribute(QStringLiteral("message"),
                                  reasons.isEmpty() ? QString() : reasons.first());
            writer.writeCharacters(reasons.join(QLatin1Char('\n')));
            writer.writeEndElement();
        }
        writer.writeTextElement(QStringLiteral("system-out"), run.reply.content);
        writer.writeEndElement();
    }
    writer.writeEndElement();
    writer.writeEndElement();
    writer.writeEndDocument();
    return xml;
}

} // namespace

int runTest(const Invocation &invocation)
{
    // Nothing is sent while the tests cannot all be read.
    const QString dir = invocation.hermesHome.isEmpty() ? invocation.arguments.at(0)
                                                        : invocation.project;
    const QString testsPath = invocation.tests.isEmpty()
                                  ? QDir(dir).filePath(QLatin1String(PersonaTestsFileName))
                                  : invocation.tests;
    const Result<PersonaTestFile> file = loadPersonaTests(testsPath);
    if (!file)
        return fail(file.error());
    const Result<QByteArray> soul = composedSoul(invocation);
    if (!soul)
        return fail(soul.error());
    PersonaTestSettings settings;
    settings.endpoint = QUrl(invocation.endpoint);
    settings.model = invocation.model;
    settings.repeat = invocation.repeat;
    const QString keyVariable = file->apiKeyEnvar.isEmpty() ? QStringLiteral("OPENAI_API_KEY")
                                                            : file->apiKeyEnvar;
    settings.apiKey = qEnvironmentVariable(keyVariable.toLocal8Bit().constData());
    const Result<PersonaTestRun> plan = planPersonaTests(*file, settings);
    if (!plan)
        return fail(plan.error());
    if (!settings.apiKey.isEmpty()) {
        if (const QString problem = keyTransportProblem(plan->endpoint, keyVariable);
            !problem.isEmpty())
            return fail(problem);
    }

    // The network needs an event loop; soulc starts without an application.
    static int argc = 1;
    static char name[] = "soulc";
    static char *argv[] = {name, nullptr};
    std::unique_ptr<QCoreApplication> application;
    if (!QCoreApplication::instance())
        application = std::make_unique<QCoreApplication>(argc, argv);
    ChatClient client;
    const Result<PersonaTestRun> result = runPersonaTests(client, *file, *soul, settings);
    if (!result)
        return fail(QStringLiteral("%1: %2").arg(testsPath, result.error()));

    if (!invocation.junit.isEmpty()) {
        const Status written = writeFileAtomically(invocation.junit,
                                                   resultJUnit(*file, *result),
                                                   Overwrite::Allowed);
        if (!written)
            return fail(written.error());
        warnIfAny(written.warning());
    }
    const QByteArray out = invocation.json ? resultJson(invocation, *file, *soul, *result)
                                           : resultText(*file, *result);
    if (const int status = writeStandardOutput(out); status != ExitSuccess)
        return status;
    return result->failed == 0 ? ExitSuccess : ExitProblems;
}

} // namespace soul
