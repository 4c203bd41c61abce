#include "suiterun.h"

#include <QCryptographicHash>
#include <QDataStream>

#include <algorithm>
#include <memory>

namespace soul {

int SuiteCase::passedRuns() const
{
    return int(std::count_if(runs.cbegin(), runs.cend(), [](const CaseRun &run) {
        return run.verdict.pass;
    }));
}

QByteArray caseKey(const PersonaTestFile &file,
                   const PersonaTestCase &test,
                   const QByteArray &soulSha256,
                   const QUrl &endpoint,
                   const QString &model,
                   int runs)
{
    QByteArray data;
    QDataStream out(&data, QIODevice::WriteOnly);
    out << soulSha256 << endpoint.toString() << model << runs;
    out << file.temperature.has_value() << file.temperature.value_or(0.0);
    out << file.maxTokens.has_value() << file.maxTokens.value_or(0);
    out << file.seed.has_value() << file.seed.value_or(0);
    out << file.inputCost.value_or(-1.0) << file.outputCost.value_or(-1.0);
    out << file.judge.has_value();
    if (file.judge)
        out << file.judge->model << file.judge->apiBaseUrl.toString();
    out << test.description << qint64(test.messages.size());
    for (const ChatMessage &message : test.messages)
        out << message.role << message.content;
    out << test.threshold.has_value() << test.threshold.value_or(0.0);
    out << qint64(test.asserts.size());
    for (const AssertSpec &spec : test.asserts) {
        out << spec.type << spec.values << spec.weight << spec.threshold.has_value()
            << spec.threshold.value_or(0.0) << spec.judge.has_value();
        if (spec.judge)
            out << spec.judge->model << spec.judge->apiBaseUrl.toString();
    }
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256);
}

SuiteRun::SuiteRun(QObject *parent)
    : QObject(parent)
{}

SuiteRun::~SuiteRun()
{
    // Deleting the call aborts it; it must not report to a half-gone run.
    if (m_call)
        m_call->disconnect(this);
    delete m_call;
}

Status SuiteRun::start(const PersonaTestFile &file,
                       const QByteArray &soul,
                       const PersonaTestSettings &settings)
{
    stop();
    Result<PersonaTestRun> plan = planPersonaTests(file, settings);
    if (!plan)
        return Status::failure(plan.error());
    m_plan = std::move(plan).value();
    m_file = file;
    m_soul = soul;
    m_settings = settings;
    const QByteArray soulSha = QCryptographicHash::hash(soul, QCryptographicHash::Sha256);
    QList<SuiteCase> cases;
    for (qsizetype index = 0; index < file.tests.size(); ++index) {
        const PersonaTestCase &test = file.tests.at(index);
        SuiteCase item;
        item.testIndex = int(index);
        item.runsWanted = runsOf(test, settings);
        item.key = caseKey(file, test, soulSha, m_plan.endpoint, m_plan.model, item.runsWanted);
        if (const auto found = m_done.constFind(item.key); found != m_done.constEnd()) {
            item.state = SuiteCase::State::Done;
            item.runs = found->runs;
            item.reused = true;
            for (CaseRun &run : item.runs)
                run.testIndex = int(index);
        }
        cases.append(std::move(item));
    }
    m_cases = std::move(cases);
    m_position = -1;
    Q_EMIT started();
    next();
    return {};
}

void SuiteRun::stop()
{
    if (!m_call)
        return;
    std::unique_ptr<ChatCall> call(m_call);
    m_call = nullptr;
    call->disconnect(this);
    m_grading.reset();
    m_toGrade.clear();
    for (qsizetype position = 0; position < m_cases.size(); ++position) {
        SuiteCase &item = m_cases[position];
        if (item.state == SuiteCase::State::Waiting || item.state == SuiteCase::State::Running) {
            item.state = SuiteCase::State::Stopped;
            Q_EMIT caseChanged(int(position));
        }
    }
    Q_EMIT finished();
}

void SuiteRun::next()
{
    // The case in flight runs again until it has all its runs.
    if (m_position < 0 || m_cases.at(m_position).state != SuiteCase::State::Running) {
        do
            ++m_position;
        while (m_position < m_cases.size()
               && m_cases.at(m_position).state != SuiteCase::State::Waiting);
        if (m_position >= m_cases.size()) {
            Q_EMIT finished();
            return;
        }
        m_cases[m_position].state = SuiteCase::State::Running;
        Q_EMIT caseChanged(m_position);
    }
    const PersonaTestCase &test = m_file.tests.at(m_cases.at(m_position).testIndex);
    m_caseRequest = caseRequest(m_file, test, m_soul, m_settings);
    send(m_caseRequest);
}

void SuiteRun::take()
{
    std::unique_ptr<ChatCall> call(m_call);
    m_call = nullptr;
    SuiteCase &item = m_cases[m_position];
    const PersonaTestCase &test = m_file.tests.at(item.testIndex);
    if (m_grading) {
        gradeRun(*m_grading, test, m_toGrade.takeFirst(), call->request(), call->result());
    } else {
        const Result<ChatReply> &result = call->result();
        if (!result) {
            item.error = result.error();
            endCase(item, SuiteCase::State::Failed);
            next();
            return;
        }
        m_grading = judgeRun(m_file,
                             test,
                             item.testIndex,
                             int(item.runs.size()) + 1,
                             item.runsWanted,
                             result.value());
        m_toGrade = modelGradedAsserts(test);
    }
    // A rubric is graded by a request of its own, after the reply.
    if (!m_toGrade.isEmpty()) {
        send(rubricRequest(test.asserts.at(m_toGrade.first()),
                           m_file,
                           m_grading->reply.content,
                           m_caseRequest));
        return;
    }
    item.runs.append(std::move(*m_grading));
    m_grading.reset();
    if (item.runs.size() >= item.runsWanted)
        endCase(item, SuiteCase::State::Done);
    else
        Q_EMIT caseChanged(m_position);
    next();
}

void SuiteRun::send(const ChatRequest &request)
{
    m_call = m_client.start(request);
    ++m_requestsSent;
    connect(m_call, &ChatCall::finished, this, &SuiteRun::take);
}

void SuiteRun::endCase(SuiteCase &item, SuiteCase::State state)
{
    item.state = state;
    if (state == SuiteCase::State::Done)
        m_done.insert(item.key, item);
    Q_EMIT caseChanged(m_position);
}

} // namespace soul
