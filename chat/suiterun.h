#pragma once

#include "chatclient.h"
#include "personatestfile.h"
#include "personatestrunner.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <optional>

// A persona's tests run without blocking the thread: one request at a
// time through ChatClient::start, each case's verdict told as it ends. The
// window runs its Tests panel on it; soulc runs the same cases, judged by
// the same judgeRun(), synchronously (runPersonaTests()).
namespace soul {

// One case of a run: its runs so far and how it stands.
struct SuiteCase
{
    enum class State { Waiting, Running, Done, Failed, Stopped };

    int testIndex = 0; // into the file's tests
    QByteArray key;    // caseKey(): what the case, the soul and the model were
    State state = State::Waiting;
    int runsWanted = 1;
    QList<CaseRun> runs; // the runs that ended, in order
    QString error;       // why a request failed (state Failed)
    bool reused = false; // the verdict of an earlier run with the same key

    int passedRuns() const;
    // Done, and every run passed.
    bool pass() const { return state == State::Done && passedRuns() == runs.size(); }
};

// What decides a case's verdict, hashed: its turns, asserts (with their
// graders), threshold and number of runs, the file's sampling settings,
// prices and grader, the soul's bytes, the endpoint and the model. A case whose key is unchanged need not run again.
QByteArray caseKey(const PersonaTestFile &file,
                   const PersonaTestCase &test,
                   const QByteArray &soulSha256,
                   const QUrl &endpoint,
                   const QString &model,
                   int runs);

class SuiteRun : public QObject
{
    Q_OBJECT

public:
    explicit SuiteRun(QObject *parent = nullptr);
    ~SuiteRun() override;

    // Runs `file`'s cases on `soul` (its exact bytes are the system
    // message) and returns at once; a run in progress is stopped first. A
    // case whose key equals one that ended Done in an earlier run of this
    // object takes that verdict without a request. Fails, sending nothing,
    // when no endpoint or model is known (planPersonaTests()'s sentence).
    Status start(const PersonaTestFile &file,
                 const QByteArray &soul,
                 const PersonaTestSettings &settings);
    // Ends the request in flight; the cases not finished are Stopped.
    void stop();
    bool isRunning() const { return m_call != nullptr; }

    const QList<SuiteCase> &cases() const { return m_cases; }
    const PersonaTestFile &file() const { return m_file; }
    const QByteArray &soul() const { return m_soul; }
    QUrl endpoint() const { return m_plan.endpoint; }
    QString model() const { return m_plan.model; }
    // Requests this object has sent, reruns and stopped ones included.
    int requestsSent() const { return m_requestsSent; }

Q_SIGNALS:
    // A run began: cases() holds its cases, the reused ones Done.
    void started();
    // Case `position` (into cases()) started, ended a run, or ended.
    void caseChanged(int position);
    // The run ended: every case ran, or it was stopped.
    void finished();

private:
    void next();
    void take();
    void send(const ChatRequest &request);
    void endCase(SuiteCase &item, SuiteCase::State state);

    PersonaTestFile m_file;
    QByteArray m_soul;
    PersonaTestSettings m_settings;
    PersonaTestRun m_plan;
    QList<SuiteCase> m_cases;
    // Cases that ended Done, by key, for a later run to reuse.
    QHash<QByteArray, SuiteCase> m_done;
    ChatClient m_client;
    ChatCall *m_call = nullptr; // owned by m_client until take() deletes it
    int m_position = -1;        // the case in flight
    ChatRequest m_caseRequest;  // its request
    // A run whose reply came, while its rubrics are graded: the asserts
    // (by index) still to grade, the first in flight.
    std::optional<CaseRun> m_grading;
    QList<int> m_toGrade;
    int m_requestsSent = 0;
};

} // namespace soul
