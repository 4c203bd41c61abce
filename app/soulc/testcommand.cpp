#include "testcommand.h"

#include "chatclient.h"
#include "commandline.h"
#include "commands.h"
#include "disk/atomicwrite.h"
#include "output.h"
#include "personatestfile.h"
#include "personatestrunner.h"
#include "tokens/tokenizer.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamWriter>

#include <algorithm>
#include <iterator>
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
        // A reason can quote the server or the tests file: nothing in it may
        // move the terminal's cursor or colour its text.
        for (const QString &reason : std::as_const(reasons))
            out += QStringLiteral("      ") + printableServerText(reason) + QLatin1Char('\n');
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

// The prompt function of an export. promptfoo renders what a prompt function
// returns with Nunjucks, so every '{' of a message goes out as the template
// {{ '{' }}, which renders as itself, and every '#' before a '}' as {{ '#' }}
// (Nunjucks refuses a '#}' outside a comment): no text of the soul or the
// turns can open or close a tag. With PROMPTFOO_DISABLE_TEMPLATING set,
// promptfoo renders nothing, and neither is anything escaped.
constexpr char PromptFunction[]
    = R"js(// Written by soulc test --export-promptfoo. promptfoo calls this with
// {vars, provider}; vars.case_index is the case's index into turns.json.
'use strict';

const fs = require('fs');
const path = require('path');

const soul = fs.readFileSync(path.join(__dirname, 'soul.txt'), 'utf8');
const turns = JSON.parse(fs.readFileSync(path.join(__dirname, 'turns.json'), 'utf8'));

// promptfoo renders the messages returned here as Nunjucks templates: each
// '{', and each '#' before a '}', becomes a template that renders as itself,
// so the text arrives as written.
function templating() {
  const value = (process.env.PROMPTFOO_DISABLE_TEMPLATING || '').toLowerCase();
  return !['1', 'true', 'yes', 'yup', 'yeppers'].includes(value);
}

function literal(text) {
  return templating() ? text.replace(/\{|#(?=\})/g, (c) => "{{ '" + c + "' }}") : text;
}

module.exports = function (context) {
  const index = Number(context.vars.case_index);
  if (!Number.isInteger(index) || index < 0 || index >= turns.length) {
    throw new Error('case_index ' + context.vars.case_index + ' names no case of turns.json');
  }
  const messages = [{ role: 'system', content: soul }].concat(turns[index]);
  return messages.map((message) => ({ role: message.role, content: literal(message.content) }));
};
)js";

constexpr const char *ExportFiles[]
    = {"soul.txt", "turns.json", "prompt.cjs", "promptfooconfig.yaml"};

bool hasTemplateTag(const QString &text)
{
    return text.contains(QLatin1String("{{")) || text.contains(QLatin1String("{%"))
           || text.contains(QLatin1String("{#"));
}

// A grading provider as promptfoo's config names it.
QJsonObject exportedJudge(const JudgeProvider &judge, const QString &endpoint)
{
    return QJsonObject{{QStringLiteral("id"), QStringLiteral("openai:chat:") + judge.model},
                       {QStringLiteral("config"),
                        QJsonObject{{QStringLiteral("apiBaseUrl"),
                                     judge.apiBaseUrl.isEmpty() ? endpoint
                                                                : judge.apiBaseUrl.toString()}}}};
}

QJsonObject exportedAssert(const AssertSpec &spec, const QString &endpoint)
{
    QJsonObject object{{QStringLiteral("type"), spec.type}};
    if (spec.judge)
        object.insert(QStringLiteral("provider"), exportedJudge(*spec.judge, endpoint));
    if (spec.threshold)
        object.insert(QStringLiteral("threshold"), *spec.threshold);
    else if (const QJsonValue value = assertValue(spec); !value.isNull())
        object.insert(QStringLiteral("value"), value);
    object.insert(QStringLiteral("weight"), spec.weight);
    return object;
}

QByteArray promptfooConfig(const PersonaTestFile &file,
                           const PersonaTestRun &plan,
                           const QString &endpoint,
                           int repeat,
                           const QString &keyVariable)
{
    QJsonObject config{{QStringLiteral("apiBaseUrl"), endpoint}};
    if (file.temperature)
        config.insert(QStringLiteral("temperature"), *file.temperature);
    if (file.maxTokens)
        config.insert(QStringLiteral("max_tokens"), *file.maxTokens);
    if (file.seed)
        config.insert(QStringLiteral("seed"), *file.seed);
    // The variable the user named (--key-env), never the tests file's.
    if (!keyVariable.isEmpty())
        config.insert(QStringLiteral("apiKeyEnvar"), keyVariable);
    if (file.inputCost)
        config.insert(QStringLiteral("inputCost"), *file.inputCost);
    if (file.outputCost)
        config.insert(QStringLiteral("outputCost"), *file.outputCost);
    QJsonArray tests;
    for (qsizetype index = 0; index < file.tests.size(); ++index) {
        const PersonaTestCase &test = file.tests.at(index);
        QJsonArray asserts;
        for (const AssertSpec &spec : test.asserts)
            asserts.append(exportedAssert(spec, endpoint));
        const int runs = repeat > 0 ? repeat : test.repeat;
        for (int run = 1; run <= runs; ++run) {
            QString description = caseName(test);
            if (runs > 1)
                description += QStringLiteral(" (run %1 of %2)").arg(run).arg(runs);
            QJsonObject exported{
                {QStringLiteral("description"), description},
                {QStringLiteral("vars"), QJsonObject{{QStringLiteral("case_index"), int(index)}}},
                {QStringLiteral("assert"), asserts},
            };
            if (test.threshold)
                exported.insert(QStringLiteral("threshold"), *test.threshold);
            tests.append(exported);
        }
    }
    QJsonObject root{
        {QStringLiteral("prompts"), QJsonArray{QStringLiteral("file://prompt.cjs")}},
        {QStringLiteral("providers"),
         QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("openai:chat:") + plan.model},
                                {QStringLiteral("config"), config}}}},
        {QStringLiteral("tests"), tests},
    };
    if (!file.description.isEmpty())
        root.insert(QStringLiteral("description"), file.description);
    // Without a grader of its own, promptfoo would grade rubrics with its
    // default (OpenAI's); the file's grader, else the tested model, grades
    // them here.
    const bool graded = std::any_of(file.tests.cbegin(), file.tests.cend(), [](const auto &test) {
        return !modelGradedAsserts(test).isEmpty();
    });
    if (graded) {
        const JudgeProvider judge = file.judge.value_or(JudgeProvider{plan.model, QUrl()});
        root.insert(QStringLiteral("defaultTest"),
                    QJsonObject{{QStringLiteral("options"),
                                 QJsonObject{{QStringLiteral("provider"),
                                              exportedJudge(judge, endpoint)}}}});
    }
    // JSON is YAML: the strings need no YAML quoting of their own.
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray conversationTurns(const PersonaTestFile &file)
{
    QJsonArray cases;
    for (const PersonaTestCase &test : file.tests) {
        QJsonArray turns;
        for (const ChatMessage &message : test.messages)
            turns.append(QJsonObject{{QStringLiteral("role"), message.role},
                                     {QStringLiteral("content"), message.content}});
        cases.append(turns);
    }
    return QJsonDocument(cases).toJson(QJsonDocument::Indented);
}

// What soulc test never writes over, whatever --force says: the persona's
// files and the tests file; and never through a link.
OutputRule testOutputRule(const QString &option, const QString &testsPath)
{
    OutputRule rule;
    rule.option = option;
    rule.kept = {testsPath};
    rule.keptWhat = QStringLiteral("the tests file");
    rule.refuseLinks = true;
    return rule;
}

// Why --junit FILE may not be written; empty without --junit.
QString junitProblem(const Invocation &invocation, const QString &testsPath)
{
    if (invocation.junit.isEmpty())
        return {};
    return outputFileProblem(invocation,
                             invocation.junit,
                             testOutputRule(QStringLiteral("--junit"), testsPath));
}

int exportPromptfoo(const Invocation &invocation,
                    const PersonaTestFile &file,
                    const QByteArray &soul,
                    const PersonaTestRun &plan,
                    const QString &keyVariable)
{
    const QDir out(invocation.exportPromptfoo);
    // The config first: it is the file a user knows the export by.
    OutputRule rule = testOutputRule(QStringLiteral("--export-promptfoo"), file.path);
    rule.another = QStringLiteral("another OUTDIR");
    for (size_t i = std::size(ExportFiles); i-- > 0;) {
        if (const QString problem = outputFileProblem(invocation,
                                                      out.filePath(QLatin1String(ExportFiles[i])),
                                                      rule);
            !problem.isEmpty())
            return fail(problem);
    }
    if (!QDir().mkpath(out.path()))
        return fail(QStringLiteral("Cannot create the folder %1: check that its parent exists "
                                   "and is writable.")
                        .arg(out.path()));
    for (const PersonaTestCase &test : file.tests) {
        for (qsizetype i = 0; i < test.asserts.size(); ++i) {
            const AssertSpec &spec = test.asserts.at(i);
            if (std::any_of(spec.values.cbegin(), spec.values.cend(), hasTemplateTag))
                warnIfAny(QStringLiteral("%1, assert %2 (%3): promptfoo renders its value as a "
                                         "Nunjucks template, and '{{', '{%' or '{#' in it would "
                                         "change it there, so promptfoo's verdict may differ.")
                              .arg(test.label())
                              .arg(i + 1)
                              .arg(spec.type));
        }
    }
    const QString endpoint = invocation.endpoint.isEmpty() ? plan.endpoint.toString()
                                                           : invocation.endpoint;
    const QByteArray contents[]
        = {soul,
           conversationTurns(file),
           QByteArray(PromptFunction),
           promptfooConfig(file, plan, endpoint, invocation.repeat, keyVariable)};
    QStringList written;
    for (size_t i = 0; i < std::size(ExportFiles); ++i) {
        const QString path = out.filePath(QLatin1String(ExportFiles[i]));
        const Status status = writeFileAtomically(path,
                                                  contents[i],
                                                  invocation.force ? Overwrite::Allowed
                                                                   : Overwrite::Never);
        if (!status)
            return fail(status.error());
        warnIfAny(status.warning());
        written.append(path);
    }
    const QString config = written.takeLast();
    const QString line = QStringLiteral("Wrote %1 with %2; run it with: npx promptfoo@0.123.1 eval "
                                        "--no-cache -c %1\n")
                             .arg(config, written.join(QStringLiteral(", ")));
    return writeStandardOutput(line.toUtf8());
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
    if (const QString problem = junitProblem(invocation, testsPath); !problem.isEmpty())
        return fail(problem);
    const Result<QByteArray> soul = composedSoul(invocation);
    if (!soul)
        return fail(soul.error());
    PersonaTestSettings settings;
    settings.endpoint = QUrl(invocation.endpoint);
    settings.model = invocation.model;
    settings.repeat = invocation.repeat;
    if (invocation.timeoutSeconds > 0)
        settings.timeoutMs = invocation.timeoutSeconds * 1000;
    if (invocation.idleTimeoutSeconds > 0)
        settings.idleTimeoutMs = invocation.idleTimeoutSeconds * 1000;
    // The key's variable is the user's to name, never the file's: a tests
    // file from another repository must not choose which secret is sent.
    const QString keyVariable = invocation.keyEnv.isEmpty() ? QStringLiteral("OPENAI_API_KEY")
                                                            : invocation.keyEnv;
    if (!file->apiKeyEnvar.isEmpty() && file->apiKeyEnvar != keyVariable)
        warnIfAny(QStringLiteral("%1 names apiKeyEnvar %2; soulc reads the API key only from "
                                 "the variable you name, here %3. To use %2, run with "
                                 "--key-env %2.")
                      .arg(testsPath, file->apiKeyEnvar, keyVariable));
    settings.apiKey = qEnvironmentVariable(keyVariable.toLocal8Bit().constData());
    for (const QString &endpoint : invocation.keyEndpoints)
        settings.keyEndpoints.append(QUrl(endpoint));
    const Result<PersonaTestRun> plan = planPersonaTests(*file, settings);
    if (!plan)
        return fail(plan.error());
    if (!invocation.exportPromptfoo.isEmpty())
        return exportPromptfoo(invocation,
                               *file,
                               *soul,
                               *plan,
                               invocation.keyEnv.isEmpty() ? QString() : keyVariable);
    if (!settings.apiKey.isEmpty()) {
        if (const QString problem = keyTextProblem(settings.apiKey, keyVariable); !problem.isEmpty())
            return fail(problem);
        if (const std::optional<QUrl> unconfirmed = unconfirmedKeyDestination(*file, settings)) {
            return fail(QStringLiteral("%1 sends requests to %2, which you did not give: soulc "
                                       "sends the API key in %3 only to an endpoint you name. "
                                       "Run with --key-endpoint %4 to send it there, or unset "
                                       "%3 for a server that needs no key.")
                            .arg(testsPath,
                                 unconfirmed->toDisplayString(),
                                 keyVariable,
                                 unconfirmed->toString()));
        }
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
        // Asked again now, as the run took a while: a link put there since
        // is refused too. Without --force the rename itself refuses a file
        // that appeared since.
        if (const QString problem = junitProblem(invocation, testsPath); !problem.isEmpty())
            return fail(problem);
        const Status written = writeFileAtomically(invocation.junit,
                                                   resultJUnit(*file, *result),
                                                   invocation.force ? Overwrite::Allowed
                                                                    : Overwrite::Never);
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
