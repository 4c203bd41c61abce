// The persona tests run without blocking: against a model server in this
// process that records each request, the system message is the soul's
// bytes, a save reruns only the cases that changed, Stop ends a run, and an
// A/B run marks the cases whose verdicts differ.

#include "modelserver.h"
#include "personatestsession.h"
#include "suiterun.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace soul;
using soul::chattest::ModelServer;

namespace {

QByteArray suiteYaml(const QUrl &baseUrl, const QString &secondMessage = QStringLiteral("Hello"))
{
    return QStringLiteral("description: Ava keeps her voice\n"
                          "providers:\n"
                          "  - id: openai:chat:stub\n"
                          "    config: {apiBaseUrl: %1, temperature: 0, max_tokens: 64}\n"
                          "tests:\n"
                          "  - description: introduces herself\n"
                          "    vars: {message: 'Who are you?'}\n"
                          "    assert:\n"
                          "      - {type: icontains, value: Ava}\n"
                          "  - description: echoes\n"
                          "    vars: {message: '%2'}\n"
                          "    assert:\n"
                          "      - {type: contains, value: said}\n")
        .arg(baseUrl.toString(), secondMessage)
        .toUtf8();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

// "I am Ava." when the soul names her, else "I am nobody."
QString answerBySoul(const QJsonObject &request)
{
    return ModelServer::systemMessage(request).contains(QLatin1String("Ava"))
               ? QStringLiteral("I am Ava.")
               : QStringLiteral("I am nobody.");
}

} // namespace

class TstSuiteRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<ModelServer>();
        QVERIFY(m_server->listen());
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_testsPath = m_dir->filePath(QStringLiteral("persona-tests.yaml"));
        QVERIFY(writeFile(m_testsPath, suiteYaml(m_server->baseUrl())));
    }

    void systemMessageIsTheSoulsBytes()
    {
        const QByteArray soul = "# Ava\r\nCaf\xc3\xa9 {{ name }} {% raw %}\r\n\xf0\x9f\x99\x82";
        const Result<PersonaTestFile> file = loadPersonaTests(m_testsPath);
        QVERIFY2(file.ok(), qPrintable(file.error()));
        SuiteRun run;
        QSignalSpy finished(&run, &SuiteRun::finished);
        QVERIFY(run.start(*file, soul, {}).ok());
        QVERIFY(run.isRunning());
        QVERIFY(finished.wait(10000));
        QCOMPARE(m_server->chats().size(), 2);
        for (const QJsonObject &request : m_server->chats())
            QCOMPARE(ModelServer::systemMessage(request).toUtf8(), soul);
        QCOMPARE(m_server->userTurns(),
                 QStringList({QStringLiteral("Who are you?"), QStringLiteral("Hello")}));
        QCOMPARE(run.cases().size(), 2);
        // "You said: Who are you?" has no Ava; "You said: Hello" has "said".
        QCOMPARE(run.cases().at(0).state, SuiteCase::State::Done);
        QVERIFY(!run.cases().at(0).pass());
        QVERIFY(run.cases().at(1).pass());
        QCOMPARE(run.cases().at(1).runs.first().reply.usage.cachedTokens, 64);
        QVERIFY(!run.isRunning());
    }

    void repeatRunsACaseNTimes()
    {
        PersonaTestFile file = *loadPersonaTests(m_testsPath);
        PersonaTestSettings settings;
        settings.repeat = 3;
        SuiteRun run;
        QSignalSpy finished(&run, &SuiteRun::finished);
        QVERIFY(run.start(file, "soul", settings).ok());
        QVERIFY(finished.wait(10000));
        QCOMPARE(m_server->chats().size(), 6);
        QCOMPARE(run.cases().at(1).runs.size(), 3);
        QCOMPARE(run.cases().at(1).passedRuns(), 3);
        QCOMPARE(run.cases().at(0).passedRuns(), 0);
    }

    void rubricsAreGradedAfterTheReply()
    {
        m_server->setAnswer([](const QJsonObject &request) {
            return ModelServer::systemMessage(request).contains(QLatin1String("rubric"))
                       ? QStringLiteral("{\"reason\": \"Brief.\", \"score\": 1, \"pass\": true}")
                       : QStringLiteral("Hi.");
        });
        const Result<PersonaTestFile> file = parsePersonaTests(
            QStringLiteral("providers: [{id: 'openai:chat:stub', config: {apiBaseUrl: '%1'}}]\n"
                           "tests:\n  - vars: {message: Hello}\n    repeat: 2\n    assert:\n"
                           "      - {type: llm-rubric, value: is brief}\n"
                           "      - {type: contains, value: Hi}\n")
                .arg(m_server->baseUrl().toString())
                .toUtf8(),
            m_testsPath);
        QVERIFY2(file.ok(), qPrintable(file.error()));
        SuiteRun run;
        QSignalSpy finished(&run, &SuiteRun::finished);
        QVERIFY(run.start(*file, "soul", {}).ok());
        QVERIFY(finished.wait(10000));
        // Each run: the reply, then its grading.
        QCOMPARE(m_server->chats().size(), 4);
        QCOMPARE(run.requestsSent(), 4);
        const SuiteCase &item = run.cases().first();
        QCOMPARE(item.runs.size(), 2);
        QVERIFY(item.pass());
        QCOMPARE(item.runs.at(1).outcomes.at(0).reason, QStringLiteral("judged by stub: Brief."));
    }

    void aSaveRerunsOnlyTheChangedCase()
    {
        PersonaTestSession session;
        QByteArray soul = "You are Ava.";
        session.setSoulSource([&soul] { return soul; });
        session.setTestsPath(m_testsPath);
        QTRY_VERIFY_WITH_TIMEOUT(!session.isLoading(), 10000);
        QVERIFY2(session.fileIsValid(), qPrintable(session.fileError()));
        QSignalSpy running(&session, &PersonaTestSession::runningChanged);
        QVERIFY(session.run().ok());
        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 10000);
        QCOMPARE(m_server->chats().size(), 2);

        // The second case's message changes: only it is asked again.
        QVERIFY(writeFile(m_testsPath, suiteYaml(m_server->baseUrl(), QStringLiteral("Good day"))));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->chats().size(), 3, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 10000);
        QCOMPARE(m_server->userTurns().last(), QStringLiteral("Good day"));
        QVERIFY(session.live().cases().at(0).reused);
        QVERIFY(!session.live().cases().at(1).reused);
        QCOMPARE(session.live().cases().at(1).runs.first().reply.content,
                 QStringLiteral("You said: Good day"));

        // A new soul changes every key.
        soul = "You are Ava, and brief.";
        QVERIFY(session.run().ok());
        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 10000);
        QCOMPARE(m_server->chats().size(), 5);
        // Nothing changed: nothing is sent.
        QVERIFY(session.run().ok());
        QVERIFY(!session.isRunning());
        QCOMPARE(m_server->chats().size(), 5);
        QVERIFY(session.live().cases().at(0).reused && session.live().cases().at(1).reused);
    }

    void aBadFileSendsNothing()
    {
        QVERIFY(writeFile(m_testsPath, "tests:\n  - vars: {message: [unclosed\n"));
        PersonaTestSession session;
        session.setTestsPath(m_testsPath);
        QTRY_VERIFY_WITH_TIMEOUT(!session.isLoading(), 10000);
        QVERIFY(!session.fileIsValid());
        QVERIFY2(session.fileError().contains(m_testsPath + QStringLiteral(":")),
                 qPrintable(session.fileError()));
        QVERIFY(
            QRegularExpression(QStringLiteral(":\\d+:\\d+: ")).match(session.fileError()).hasMatch());
        const Status status = session.run();
        QVERIFY(!status.ok());
        QCOMPARE(status.error(), session.fileError());
        QCOMPARE(m_server->chats().size(), 0);
    }

    void stopEndsTheRun()
    {
        m_server->hold();
        PersonaTestSession session;
        session.setSoulSource([] { return QByteArray("soul"); });
        session.setTestsPath(m_testsPath);
        QTRY_VERIFY_WITH_TIMEOUT(!session.isLoading(), 10000);
        QSignalSpy received(m_server.get(), &ModelServer::received);
        QSignalSpy running(&session, &PersonaTestSession::runningChanged);
        QVERIFY(session.run().ok());
        QVERIFY(received.wait(10000));
        QVERIFY(session.isRunning());
        session.stop();
        QVERIFY(!session.isRunning());
        QCOMPARE(running.size(), 2);
        QCOMPARE(running.last().first().toBool(), false);
        QCOMPARE(session.live().cases().at(0).state, SuiteCase::State::Stopped);
        QCOMPARE(session.live().cases().at(1).state, SuiteCase::State::Stopped);
        m_server->release();
        QTest::qWait(0);
        QCOMPARE(m_server->chats().size(), 1);
        // Stopped cases run again next time.
        QVERIFY(session.run().ok());
        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 10000);
        QCOMPARE(session.live().cases().at(1).state, SuiteCase::State::Done);
    }

    void aHostileFileNeverHoldsTheCaller_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("said");
        QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("is a FIFO");
        QTest::newRow("alias bomb")
            << QStringLiteral("bomb") << QStringLiteral("repeat more text than persona tests read");
    }

    void aHostileFileNeverHoldsTheCaller()
    {
        QFETCH(QString, kind);
        QFETCH(QString, said);
        QFile::remove(m_testsPath);
        if (kind == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(QFile::encodeName(m_testsPath).constData(), 0600), 0);
        } else {
            QByteArray yaml = "big: &big \"" + QByteArray(1 << 20, 'x')
                              + "\"\ntests:\n"
                                "  - vars: {message: hi}\n    assert:\n"
                                "      - type: contains-any\n        value: [";
            for (int i = 0; i < 5000; ++i)
                yaml += i ? ", *big" : "*big";
            QVERIFY(writeFile(m_testsPath, yaml + "]\n"));
        }
        PersonaTestSession session;
        QSignalSpy changed(&session, &PersonaTestSession::fileChanged);
        QElapsedTimer clock;
        clock.start();
        session.setTestsPath(m_testsPath);
        // The caller (the window's thread) goes on at once; a worker reads.
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(changed.wait(20000));
        QVERIFY(!session.isLoading());
        QVERIFY(!session.fileIsValid());
        QVERIFY2(session.fileError().contains(said), qPrintable(session.fileError()));
        QVERIFY(!session.run().ok());
        QCOMPARE(m_server->chats().size(), 0);
    }

    void abMarksDifferingVerdicts()
    {
        m_server->setAnswer(answerBySoul);
        QVERIFY(writeFile(m_testsPath,
                          QStringLiteral("providers: [{id: 'openai:chat:stub', config: "
                                         "{apiBaseUrl: '%1'}}]\n"
                                         "tests:\n"
                                         "  - vars: {message: 'Who are you?'}\n"
                                         "    assert: [{type: icontains, value: Ava}]\n"
                                         "  - vars: {message: Say something}\n"
                                         "    assert: [{type: contains, value: 'I am'}]\n")
                              .arg(m_server->baseUrl().toString())
                              .toUtf8()));
        PersonaTestSession session;
        session.setSoulSource([] { return QByteArray("You are Ava."); });
        session.setTestsPath(m_testsPath);
        QTRY_VERIFY_WITH_TIMEOUT(!session.isLoading(), 10000);
        session.setAgainst("You are nobody in particular.", QStringLiteral("snapshot"));
        QVERIFY(session.run().ok());
        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 10000);
        QCOMPARE(m_server->chats().size(), 4);
        QVERIFY(session.live().cases().at(0).pass());
        QVERIFY(!session.against().cases().at(0).pass());
        QVERIFY(session.difference(0).verdict);
        QVERIFY(session.difference(0).output);
        // Both pass, but the replies differ.
        QVERIFY(!session.difference(1).verdict);
        QVERIFY(session.difference(1).output);

        // The same soul on both sides: nothing differs.
        session.setAgainst("You are Ava.", QStringLiteral("snapshot"));
        QVERIFY(session.run().ok());
        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 10000);
        QVERIFY(!session.difference(0).any());
        QVERIFY(!session.difference(1).any());
    }

private:
    std::unique_ptr<ModelServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_testsPath;
};

QTEST_GUILESS_MAIN(TstSuiteRun)
#include "tst_suiterun.moc"
