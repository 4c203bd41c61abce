// The Tests room in the window: opened by its key, Ctrl+R runs the persona
// tests on the live soul against a model server in this process, the
// verdicts show, a save of the tests file asks again only for the case that
// changed, a bad file sends nothing, and a commit's soul runs beside the
// live one with the differing verdict marked.

#include "../chat/modelserver.h"
#include "../live/gitfixture.h"
#include "guitestfiles.h"
#include "personatestsession.h"
#include "quietprompter.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "tests/testsroom.h"
#include "testwindow.h"
#include "window/mainwindow.h"
#include "window/roomhost.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using namespace soul;
using soul::chattest::ModelServer;
using namespace soul::guitest;

namespace {

QByteArray suiteYaml(const QUrl &baseUrl, const QString &secondMessage)
{
    return QStringLiteral("providers:\n"
                          "  - id: openai:chat:stub\n"
                          "    config: {apiBaseUrl: '%1', temperature: 0}\n"
                          "tests:\n"
                          "  - description: says her name\n"
                          "    vars: {message: 'Who are you?'}\n"
                          "    assert:\n"
                          "      - {type: icontains, value: Ava}\n"
                          "  - description: answers\n"
                          "    vars: {message: '%2'}\n"
                          "    assert:\n"
                          "      - {type: contains, value: 'I am'}\n")
        .arg(baseUrl.toString(), secondMessage)
        .toUtf8();
}

} // namespace

class tst_TestsRoom : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_fixture.init();
        m_server = std::make_unique<ModelServer>();
        QVERIFY(m_server->listen());
        // "I am Ava." when the soul names her.
        m_server->setAnswer([](const QJsonObject &request) {
            return ModelServer::systemMessage(request).contains(QLatin1String("Ava"))
                       ? QStringLiteral("I am Ava.")
                       : QStringLiteral("I am nobody.");
        });
        QVERIFY(
            writeInPlace(m_fixture.path(1), "# Soul\n\nYou are Ava, caf\xc3\xa9 {{ owner }}.\n"));
        QVERIFY(writeInPlace(testsPath(), suiteYaml(m_server->baseUrl(), QStringLiteral("Hi"))));
    }

    void cleanup()
    {
        m_fixture.cleanup();
        m_server.reset();
    }

    void runsOnTheLiveSoulAndRerunsWhatChanged()
    {
        m_fixture.open(m_fixture.dir());
        auto *dock = m_fixture.window()->findChild<QDockWidget *>(QStringLiteral("testsDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());
        QTest::keyClick(m_fixture.window(), Qt::Key_E, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(dock->isVisible());
        QTRY_VERIFY(dock->isAncestorOf(QApplication::focusWidget()));
        auto *cases = dock->findChild<QTreeWidget *>(QStringLiteral("testsCases"));
        auto *file = dock->findChild<QLabel *>(QStringLiteral("testsFile"));
        QVERIFY(cases && file);
        QTRY_COMPARE(file->text(), QStringLiteral("persona-tests.yaml: 2 cases"));

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_R, Qt::ControlModifier);
        QTRY_COMPARE(cases->topLevelItemCount(), 2);
        QTRY_COMPARE(cases->topLevelItem(1)->text(1), QStringLiteral("pass"));
        QCOMPARE(cases->topLevelItem(0)->text(0), QStringLiteral("says her name"));
        QCOMPARE(cases->topLevelItem(0)->text(1), QStringLiteral("pass"));
        QCOMPARE(cases->topLevelItem(0)->text(4), QStringLiteral("64 of 100"));
        QCOMPARE(m_server->chats().size(), 2);
        // The system message is the soul as soulc composes it, byte for byte.
        const QByteArray composed = soulcOutput({QStringLiteral("compose"), m_fixture.dir()});
        for (const QJsonObject &request : m_server->chats())
            QCOMPARE(ModelServer::systemMessage(request).toUtf8(), composed);
        // The case's reply and each assert with its reason.
        QTreeWidgetItem *first = cases->topLevelItem(0);
        QCOMPARE(first->childCount(), 2);
        QCOMPARE(first->child(0)->text(0), QStringLiteral("Reply: I am Ava."));
        QVERIFY2(first->child(1)->text(0).contains(QLatin1String("icontains: The output contains")),
                 qPrintable(first->child(1)->text(0)));

        // A save of the file: only the case that changed is asked again.
        QVERIFY(
            writeAtomically(testsPath(), suiteYaml(m_server->baseUrl(), QStringLiteral("Hello"))));
        QTRY_COMPARE(m_server->chats().size(), 3);
        QCOMPARE(m_server->userTurns().last(), QStringLiteral("Hello"));
        QTRY_COMPARE(cases->topLevelItem(1)->text(1), QStringLiteral("pass"));
        QTRY_VERIFY(!m_room()->tests()->isRunning());
        QCOMPARE(m_server->chats().size(), 3);

        // A bad file: its sentence with line and column, and nothing sent.
        QVERIFY(writeAtomically(testsPath(), "tests:\n  - vars: {message: [oops\n"));
        auto *problem = dock->findChild<QLabel *>(QStringLiteral("testsProblem"));
        QTRY_VERIFY(problem->isVisible());
        QVERIFY2(QRegularExpression(QStringLiteral("persona-tests\\.yaml:\\d+:\\d+: "))
                     .match(problem->text())
                     .hasMatch(),
                 qPrintable(problem->text()));
        QTest::keyClick(cases, Qt::Key_R, Qt::ControlModifier);
        QCOMPARE(m_server->chats().size(), 3);
    }

    void aRunKeepsItsSoulWhileTheAuthorTypes()
    {
        m_fixture.open(m_fixture.dir());
        TestsRoom *room = m_room();
        QVERIFY(room);
        const QByteArray composed = soulcOutput({QStringLiteral("compose"), m_fixture.dir()});
        m_server->hold();
        QSignalSpy received(m_server.get(), &ModelServer::received);
        room->run();
        QVERIFY(received.wait(10000));
        QVERIFY(room->tests()->isRunning());
        // Typing while the first case waits for its reply: the window answers,
        // the run goes on, on the soul it started with.
        QPlainTextEdit *editor = m_fixture.window()->panes()->pane(1)->editor();
        editor->setFocus();
        editor->moveCursor(QTextCursor::End);
        QTest::keyClicks(editor, QStringLiteral(" Brief."));
        QVERIFY(editor->toPlainText().endsWith(QLatin1String(" Brief.")));
        QVERIFY(room->tests()->isRunning());
        m_server->release();
        QTRY_COMPARE(m_server->chats().size(), 2);
        m_server->release();
        QTRY_VERIFY(!room->tests()->isRunning());
        for (const QJsonObject &request : m_server->chats())
            QCOMPARE(ModelServer::systemMessage(request).toUtf8(), composed);
        auto *status = room->dock()->findChild<QLabel *>(QStringLiteral("testsStatus"));
        QTRY_VERIFY2(status->text().contains(QLatin1String("The soul has changed")),
                     qPrintable(status->text()));
        // The next run takes the soul as it is now: every case is asked again.
        m_server->setAnswer({});
        room->run();
        QTRY_VERIFY(!room->tests()->isRunning());
        QCOMPARE(m_server->chats().size(), 4);
        QVERIFY(
            ModelServer::systemMessage(m_server->chats().last()).contains(QLatin1String(" Brief.")));
    }

    void runsAgainstACommit()
    {
        if (!test::GitFixture::available())
            QFAIL("git is not installed: the tests need it (apt-get install git)");
        test::GitFixture git(m_fixture.filePath(QStringLiteral("home")));
        QVERIFY(QDir().mkpath(m_fixture.filePath(QStringLiteral("home"))));
        // The commit's soul does not name her; the live one does.
        QVERIFY(writeInPlace(m_fixture.path(1), "You are nobody.\n"));
        QVERIFY2(!git.git(m_fixture.dir(), {QStringLiteral("init"), QStringLiteral("-q")}).isNull(),
                 qPrintable(git.lastError()));
        QVERIFY(!git.git(m_fixture.dir(), {QStringLiteral("add"), QStringLiteral(".")}).isNull());
        QVERIFY(!git.git(m_fixture.dir(),
                         {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("one")})
                     .isNull());
        QVERIFY(writeInPlace(m_fixture.path(1), "You are Ava.\n"));
        m_fixture.open(m_fixture.dir());
        TestsRoom *room = m_room();
        QVERIFY(room);
        QVERIFY(room->setAgainstCommit(QStringLiteral("HEAD")));
        room->run();
        QTRY_VERIFY(!room->tests()->isRunning());
        QCOMPARE(m_server->chats().size(), 4);
        auto *cases = room->dock()->findChild<QTreeWidget *>(QStringLiteral("testsCases"));
        QVERIFY(!cases->isColumnHidden(2));
        QCOMPARE(cases->headerItem()->text(2), QStringLiteral("Commit HEAD"));
        QCOMPARE(cases->topLevelItem(0)->text(1), QStringLiteral("pass"));
        QCOMPARE(cases->topLevelItem(0)->text(2), QStringLiteral("≠ fail"));
        QCOMPARE(cases->topLevelItem(0)->toolTip(2),
                 QStringLiteral("verdict differs, reply differs"));
        // Both pass with other replies: the reply is marked, not the verdict.
        QCOMPARE(cases->topLevelItem(1)->text(2), QStringLiteral("≠ pass"));
        QCOMPARE(cases->topLevelItem(1)->toolTip(2), QStringLiteral("reply differs"));
    }

    // A tests file from someone else names a grader on another host: the key
    // goes there only once the author says yes for that file and host, and
    // the answer is kept. A no sends nothing at all.
    void keyGoesToAHostTheFileNamesOnlyOnceConfirmed()
    {
        qputenv("OPENAI_API_KEY", "sk-room-test");
        const auto unset = qScopeGuard([] { qunsetenv("OPENAI_API_KEY"); });
        QByteArray yaml = suiteYaml(m_server->baseUrl(), QStringLiteral("Hi"));
        yaml.replace("tests:\n",
                     "defaultTest:\n  options:\n    provider:\n      id: openai:chat:judge\n"
                     "      config: {apiBaseUrl: 'https://grader.example/v1'}\n"
                     "tests:\n");
        yaml += "  - description: graded\n    vars: {message: Hi}\n    assert:\n"
                "      - {type: llm-rubric, value: is kind}\n";
        QVERIFY(writeInPlace(testsPath(), yaml));
        m_fixture.open(m_fixture.dir());
        TestsRoom *room = m_room();
        QVERIFY(room);
        QList<QUrl> asked;
        room->setKeyQuestion([&asked](const QUrl &endpoint, const QString &) {
            asked.append(endpoint);
            return false;
        });
        room->run();
        auto *problem = room->dock()->findChild<QLabel *>(QStringLiteral("testsProblem"));
        QTRY_VERIFY(!problem->isHidden());
        QVERIFY2(problem->text().contains(QLatin1String("Nothing was sent"))
                     && problem->text().contains(QLatin1String("https://grader.example/v1")),
                 qPrintable(problem->text()));
        QCOMPARE(asked, QList<QUrl>{QUrl(QStringLiteral("https://grader.example/v1"))});
        QCOMPARE(m_server->requests().size(), 0);

        // Yes: the run starts (held at its first request, and stopped there,
        // so nothing goes to the other host), and the answer is kept.
        room->setKeyQuestion([&asked](const QUrl &endpoint, const QString &) {
            asked.append(endpoint);
            return true;
        });
        m_server->hold();
        QSignalSpy received(m_server.get(), &ModelServer::received);
        room->run();
        QVERIFY(received.wait(10000));
        QCOMPARE(asked.size(), 2);
        QVERIFY(m_server->requests().first().head.contains("Authorization: Bearer sk-room-test"));
        room->tests()->stop();
        m_server->release();
        const QStringList kept = m_fixture.window()
                                     ->findChild<RoomHost *>()
                                     ->settings()
                                     ->value(QStringLiteral("tests/keyHosts"))
                                     .toStringList();
        QCOMPARE(kept, QStringList{testsPath() + QStringLiteral("\nhttps://grader.example:443")});

        // The same file read again: not asked again.
        room->chooseTestsFile(testsPath());
        QTRY_VERIFY(room->tests()->fileIsValid());
        m_server->hold();
        room->run();
        QVERIFY(received.wait(10000));
        QCOMPARE(asked.size(), 2);
        room->tests()->stop();
        m_server->release();
    }

private:
    TestsRoom *m_room() const { return m_fixture.window()->findChild<TestsRoom *>(); }
    QString testsPath() const { return m_fixture.filePath(QStringLiteral("persona-tests.yaml")); }

    TestWindow<> m_fixture;
    std::unique_ptr<ModelServer> m_server;
};

QTEST_MAIN(tst_TestsRoom)
#include "tst_testsroom.moc"
