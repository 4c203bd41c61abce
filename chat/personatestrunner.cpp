#include "personatestrunner.h"

#include "personatestfile.h"

#include <algorithm>

namespace soul {

namespace {

// The case's verdict of its asserts; a reply that was cut fails whatever
// they say, since they judged part of it.
CaseVerdict judgeRun(const PersonaTestCase &test, const CaseRun &caseRun)
{
    CaseVerdict verdict = judgeCase(test.asserts, caseRun.outcomes, test.threshold);
    if (!caseRun.reply.cut.isEmpty()) {
        verdict.pass = false;
        verdict.reason = caseRun.reply.cut;
    }
    return verdict;
}

} // namespace

ChatRequest caseRequest(const PersonaTestFile &file,
                        const PersonaTestCase &test,
                        const QByteArray &soul,
                        const PersonaTestSettings &settings)
{
    ChatRequest request;
    request.baseUrl = settings.endpoint.isEmpty() ? file.apiBaseUrl : settings.endpoint;
    request.model = settings.model.isEmpty() ? file.model : settings.model;
    request.messages.append({QStringLiteral("system"), QString::fromUtf8(soul)});
    request.messages.append(test.messages);
    request.temperature = file.temperature;
    request.maxTokens = file.maxTokens;
    request.seed = file.seed;
    request.apiKey = settings.apiKey;
    request.timeoutMs = settings.timeoutMs;
    request.idleTimeoutMs = settings.idleTimeoutMs;
    return request;
}

int runsOf(const PersonaTestCase &test, const PersonaTestSettings &settings)
{
    return settings.repeat > 0 ? settings.repeat : test.repeat;
}

CaseRun judgeRun(const PersonaTestFile &file,
                 const PersonaTestCase &test,
                 int testIndex,
                 int run,
                 int runs,
                 ChatReply reply)
{
    CaseRun caseRun;
    caseRun.testIndex = testIndex;
    caseRun.run = run;
    caseRun.runs = runs;
    caseRun.reply = std::move(reply);
    for (const AssertSpec &spec : test.asserts)
        caseRun.outcomes.append(checkAssert(spec, caseRun.reply, file));
    caseRun.verdict = judgeRun(test, caseRun);
    return caseRun;
}

QList<int> modelGradedAsserts(const PersonaTestCase &test)
{
    QList<int> graded;
    for (qsizetype i = 0; i < test.asserts.size(); ++i) {
        if (isModelGraded(test.asserts.at(i)))
            graded.append(int(i));
    }
    return graded;
}

void gradeRun(CaseRun &caseRun,
              const PersonaTestCase &test,
              int index,
              const ChatRequest &request,
              const Result<ChatReply> &answer)
{
    caseRun.outcomes[index] = rubricOutcome(test.asserts.at(index), request, answer);
    caseRun.verdict = judgeRun(test, caseRun);
}

namespace {

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    const int defaultPort = a.scheme() == QLatin1String("https") ? 443 : 80;
    return a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0
           && a.host().compare(b.host(), Qt::CaseInsensitive) == 0
           && a.port(defaultPort) == b.port(defaultPort);
}

} // namespace

std::optional<QUrl> unconfirmedKeyDestination(const PersonaTestFile &file,
                                              const PersonaTestSettings &settings)
{
    if (settings.apiKey.isEmpty())
        return std::nullopt;
    const QUrl tested = settings.endpoint.isEmpty() ? file.apiBaseUrl : settings.endpoint;
    QList<QUrl> destinations{tested};
    if (file.judge && !file.judge->apiBaseUrl.isEmpty())
        destinations.append(file.judge->apiBaseUrl);
    for (const PersonaTestCase &test : file.tests) {
        for (const AssertSpec &spec : test.asserts) {
            if (spec.judge && !spec.judge->apiBaseUrl.isEmpty())
                destinations.append(spec.judge->apiBaseUrl);
        }
    }
    for (const QUrl &url : std::as_const(destinations)) {
        if (url.isEmpty() || isLoopback(url))
            continue;
        if (!settings.endpoint.isEmpty() && sameOrigin(url, settings.endpoint))
            continue;
        if (std::any_of(settings.keyEndpoints.cbegin(),
                        settings.keyEndpoints.cend(),
                        [&url](const QUrl &confirmed) { return sameOrigin(url, confirmed); }))
            continue;
        return url;
    }
    return std::nullopt;
}

Result<PersonaTestRun> planPersonaTests(const PersonaTestFile &file,
                                        const PersonaTestSettings &settings)
{
    PersonaTestRun plan;
    plan.endpoint = settings.endpoint.isEmpty() ? file.apiBaseUrl : settings.endpoint;
    plan.model = settings.model.isEmpty() ? file.model : settings.model;
    if (plan.endpoint.isEmpty()) {
        return Result<PersonaTestRun>::failure(
            QStringLiteral("%1 names no endpoint: give one with --endpoint URL (such as "
                           "http://127.0.0.1:8080/v1), or as apiBaseUrl in its provider's "
                           "config.")
                .arg(file.path));
    }
    if (plan.model.isEmpty()) {
        return Result<PersonaTestRun>::failure(
            QStringLiteral("%1 names no model: give one with --model NAME, or as the "
                           "provider's id (openai:chat:MODEL).")
                .arg(file.path));
    }
    qint64 runs = 0;
    for (const PersonaTestCase &test : file.tests)
        runs += runsOf(test, settings);
    if (runs > MaxPersonaTestRuns) {
        return Result<PersonaTestRun>::failure(
            QStringLiteral("%1 would run its cases %2 times (each case times its repeat), more "
                           "than the %3 runs persona tests send: nothing was sent. Lower the "
                           "repeats (--repeat), or split the file.")
                .arg(file.path)
                .arg(runs)
                .arg(MaxPersonaTestRuns));
    }
    return plan;
}

Result<PersonaTestRun> runPersonaTests(ChatClient &client,
                                       const PersonaTestFile &file,
                                       const QByteArray &soul,
                                       const PersonaTestSettings &settings,
                                       const std::function<void(const CaseRun &)> &progress)
{
    Result<PersonaTestRun> planned = planPersonaTests(file, settings);
    if (!planned)
        return planned;
    PersonaTestRun result = std::move(planned).value();
    for (qsizetype index = 0; index < file.tests.size(); ++index) {
        const PersonaTestCase &test = file.tests.at(index);
        const ChatRequest request = caseRequest(file, test, soul, settings);
        const int runs = runsOf(test, settings);
        for (int run = 1; run <= runs; ++run) {
            Result<ChatReply> reply = client.exchange(request);
            if (!reply)
                return Result<PersonaTestRun>::failure(reply.error());
            CaseRun caseRun = judgeRun(file, test, int(index), run, runs, std::move(reply).value());
            for (const int graded : modelGradedAsserts(test)) {
                const ChatRequest judge
                    = rubricRequest(test.asserts.at(graded), file, caseRun.reply.content, request);
                gradeRun(caseRun, test, graded, judge, client.exchange(judge));
            }
            (caseRun.verdict.pass ? result.passed : result.failed) += 1;
            if (progress)
                progress(caseRun);
            result.runs.append(std::move(caseRun));
        }
    }
    return result;
}

} // namespace soul
