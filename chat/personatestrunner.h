#pragma once

#include "assertcheck.h"
#include "chatclient.h"
#include "result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

// Runs a persona's tests: each case, as many times as it repeats, one
// request at a time, the composed soul as the system message.
namespace soul {

struct PersonaTestCase;
struct PersonaTestFile;

// What the command line sets over the file's provider.
struct PersonaTestSettings
{
    QUrl endpoint;  // the API's base; empty: the file's apiBaseUrl
    QString model;  // empty: the file's
    int repeat = 0; // above 0: every case runs this often, whatever its repeat says
    QString apiKey; // empty: none sent
    // Endpoints the user confirmed for the key beside `endpoint` (which they
    // gave) and this machine: the window's answers, per tests file.
    QList<QUrl> keyEndpoints;
    int timeoutMs = ChatRequest::DefaultTimeoutMs;         // each request, in all
    int idleTimeoutMs = ChatRequest::DefaultIdleTimeoutMs; // each wait for the next byte
};

struct CaseRun
{
    int testIndex = 0; // into PersonaTestFile::tests
    int run = 1;       // 1-based
    int runs = 1;
    ChatReply reply;
    QList<AssertOutcome> outcomes;
    CaseVerdict verdict;
};

struct PersonaTestRun
{
    QUrl endpoint;
    QString model;
    QList<CaseRun> runs; // in the file's order, each case's runs together
    int passed = 0;
    int failed = 0;
};

// The request a case makes: `soul` (its exact bytes, UTF-8) as the system
// message, then the case's turns.
ChatRequest caseRequest(const PersonaTestFile &file,
                        const PersonaTestCase &test,
                        const QByteArray &soul,
                        const PersonaTestSettings &settings);

// How often `test` runs under `settings`.
int runsOf(const PersonaTestCase &test, const PersonaTestSettings &settings);

// Run `run` of `runs` of the case at `testIndex`, judged: `reply` checked
// against each of the case's asserts (prices from `file`), and the case's
// verdict of them. A model-graded assert fails as not graded until
// gradeRun() gives its grader's answer.
CaseRun judgeRun(const PersonaTestFile &file,
                 const PersonaTestCase &test,
                 int testIndex,
                 int run,
                 int runs,
                 ChatReply reply);

// The model-graded asserts of `test`, by index: each needs a request
// (rubricRequest()) and its answer given to gradeRun().
QList<int> modelGradedAsserts(const PersonaTestCase &test);
// Assert `index` of `caseRun` graded by `answer` to `request`, and the
// case's verdict again.
void gradeRun(CaseRun &caseRun,
              const PersonaTestCase &test,
              int index,
              const ChatRequest &request,
              const Result<ChatReply> &answer);

// The first endpoint a run of `file` would send settings.apiKey to (the
// tested one, or a grader's) that the user neither gave (settings.endpoint,
// settings.keyEndpoints) nor is on this machine; std::nullopt when there is
// none, or no key. A tests file from someone else's repository must not
// choose where the user's key goes.
std::optional<QUrl> unconfirmedKeyDestination(const PersonaTestFile &file,
                                              const PersonaTestSettings &settings);

// The endpoint and model a run uses, or why it cannot run (none given, or
// more runs than MaxPersonaTestRuns).
Result<PersonaTestRun> planPersonaTests(const PersonaTestFile &file,
                                        const PersonaTestSettings &settings);

// Runs every case in order; `progress`, when set, hears each run as it
// ends. Fails at the first request that fails, with its sentence.
Result<PersonaTestRun> runPersonaTests(ChatClient &client,
                                       const PersonaTestFile &file,
                                       const QByteArray &soul,
                                       const PersonaTestSettings &settings,
                                       const std::function<void(const CaseRun &)> &progress = {});

} // namespace soul
