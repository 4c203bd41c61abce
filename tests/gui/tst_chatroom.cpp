#include "../chat/modelserver.h"
#include "chat/chatroom.h"
#include "conversation.h"
#include "documentcontroller.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "quietprompter.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/mainwindow.h"
#include "window/roomhost.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>

using namespace soul;
using namespace soul::chattest;
using namespace soul::guitest;

// The Chat dock in the window: its key shows it, a message goes to a server
// in the test's process with the live soul as the system message, the reply
// streams into the transcript with its usage line under it, Esc stops a
// reply, and after an edit the dock offers to restart on the current soul.
class tst_ChatRoom : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void keyTogglesTheDock();
    void roomsShareATabAndAKeyBringsOneToTheFront();
    void messageStreamsOnTheLiveSoul();
    void escapeStopsTheReply();
    void restartOfferedAfterAnEdit();
    void keyNeverInTheSettings();
    void urlCredentialsNeverInTheSettings();
    void keyOverPlainHttpIsAsked();

private:
    MainWindow *window() const { return m_fixture.window(); }
    ChatRoom *room() const { return window()->findChild<ChatRoom *>(QStringLiteral("chatDock")); }
    template<typename T>
    T *part(const char *name) const
    {
        return room()->findChild<T *>(QLatin1String(name));
    }
    // Shows the dock with its key and points it at the server.
    void openDock();
    void sendMessage(const QString &text);

    TestWindow<QuietPrompter> m_fixture;
    std::unique_ptr<ModelServer> m_server;
    QString m_persona;
};

void tst_ChatRoom::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_ChatRoom::init()
{
    m_fixture.init();
    const QString example = DocumentController::exampleDirectory();
    QVERIFY(!example.isEmpty());
    m_persona = m_fixture.filePath(QStringLiteral("ava"));
    QVERIFY(QDir().mkpath(m_persona));
    for (int k = 0; k < SlotCount; ++k) {
        if (QFile::exists(slotPath(example, k)))
            QVERIFY(QFile::copy(slotPath(example, k), slotPath(m_persona, k)));
    }
    m_server = std::make_unique<ModelServer>();
    QVERIFY(m_server->listen());
    m_server->setEvents({deltaEvent(QStringLiteral("I am ")),
                         deltaEvent(QStringLiteral("Ava.")),
                         "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":812,"
                         "\"completion_tokens\":3,\"prompt_tokens_details\":"
                         "{\"cached_tokens\":800}}}\n\n",
                         "data: [DONE]\n\n"});
    m_fixture.open(m_persona);
}

void tst_ChatRoom::cleanup()
{
    m_fixture.cleanup();
    m_server.reset();
}

void tst_ChatRoom::openDock()
{
    QVERIFY(room());
    QVERIFY(!room()->isVisible());
    QTest::keyClick(window(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(room()->isVisible());
    auto *url = part<QLineEdit>("chatEndpoint");
    url->clear();
    QTest::keyClicks(url, m_server->baseUrl().toString());
    QTest::keyClick(url, Qt::Key_Return);
    part<QPushButton>("chatModels")->click();
    auto *model = part<QComboBox>("chatModel");
    QTRY_COMPARE(model->count(), 2);
    QCOMPARE(model->currentText(), QStringLiteral("tiny-a"));
}

void tst_ChatRoom::sendMessage(const QString &text)
{
    auto *input = part<QLineEdit>("chatInput");
    input->setFocus();
    QTest::keyClicks(input, text);
    QTest::keyClick(input, Qt::Key_Return);
}

void tst_ChatRoom::keyTogglesTheDock()
{
    QAction *toggle = m_fixture.action("chatDockToggle");
    QCOMPARE(toggle->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C));
    QVERIFY(!room()->isVisible());
    QTest::keyClick(window(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(room()->isVisible());
    QVERIFY(toggle->isChecked());
    QTRY_VERIFY(part<QLineEdit>("chatInput")->hasFocus());
    QTest::keyClick(window(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(!room()->isVisible());
}

void tst_ChatRoom::roomsShareATabAndAKeyBringsOneToTheFront()
{
    auto *tests = window()->findChild<QDockWidget *>(QStringLiteral("testsDock"));
    QVERIFY(tests);
    const auto inFront = [](QWidget *dock) { return !dock->visibleRegion().isEmpty(); };
    QTest::keyClick(window(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(inFront(room()));
    QTest::keyClick(window(), Qt::Key_E, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(inFront(tests));
    QVERIFY(window()->tabifiedDockWidgets(room()).contains(tests));
    QVERIFY(!inFront(room()));
    // Behind the Tests tab, the Chat's key brings it to the front, open.
    QAction *toggle = m_fixture.action("chatDockToggle");
    QTest::keyClick(window(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(inFront(room()));
    QVERIFY(toggle->isChecked());
    QVERIFY(!tests->isHidden());
    QTRY_VERIFY(part<QLineEdit>("chatInput")->hasFocus());
    // In front, the same key closes it, and the Tests panel is shown again.
    QTest::keyClick(window(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(room()->isHidden());
    QVERIFY(!toggle->isChecked());
    QTRY_VERIFY(inFront(tests));
}

void tst_ChatRoom::messageStreamsOnTheLiveSoul()
{
    openDock();
    if (QTest::currentTestFailed())
        return;
    const LiveSoul live = window()->findChild<RoomHost *>()->liveSoul();
    QVERIFY(!live.bytes.isEmpty());
    sendMessage(QStringLiteral("Who are you?"));
    auto *transcript = part<QTextBrowser>("chatTranscript");
    QTRY_VERIFY(transcript->toPlainText().contains(QLatin1String("I am Ava.")));
    QTRY_VERIFY2(transcript->toPlainText().contains(QLatin1String("prompt 812")),
                 qPrintable(transcript->toPlainText()));
    const QString text = transcript->toPlainText();
    QVERIFY2(text.contains(QLatin1String("cached 800 (98%)")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("completion 3")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("none cached")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("You: Who are you?")));

    QCOMPARE(m_server->chatRequests(), 1);
    const QJsonObject body = m_server->chatBody(0);
    QCOMPARE(body.value(QStringLiteral("model")).toString(), QStringLiteral("tiny-a"));
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    // The soul sent is what soulc compose writes for the folder, byte for byte.
    QCOMPARE(messages.first().toObject().value(QStringLiteral("content")).toString().toUtf8(),
             soulcOutput({QStringLiteral("compose"), m_persona}));
    QCOMPARE(messages.first().toObject().value(QStringLiteral("content")).toString().toUtf8(),
             live.bytes);
    QVERIFY(part<QWidget>("chatSoul")->property("text").toString().contains(live.sha256().left(12)));
}

void tst_ChatRoom::escapeStopsTheReply()
{
    openDock();
    if (QTest::currentTestFailed())
        return;
    m_server->hold(1);
    QSignalSpy finished(room()->conversation(), &Conversation::turnFinished);
    sendMessage(QStringLiteral("Go on"));
    auto *transcript = part<QTextBrowser>("chatTranscript");
    QTRY_VERIFY(transcript->toPlainText().contains(QLatin1String("I am ")));
    QVERIFY(part<QPushButton>("chatStop")->isEnabled());
    QTest::keyClick(part<QLineEdit>("chatInput"), Qt::Key_Escape);
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(room()->conversation()->turns().first().stopped);
    QCOMPARE(room()->conversation()->turns().first().reply.content, QStringLiteral("I am "));
    QVERIFY(transcript->toPlainText().contains(QLatin1String("Stopped.")));
    QVERIFY(!part<QPushButton>("chatStop")->isEnabled());
    QVERIFY(part<QPushButton>("chatSend")->isEnabled());
}

void tst_ChatRoom::restartOfferedAfterAnEdit()
{
    openDock();
    if (QTest::currentTestFailed())
        return;
    sendMessage(QStringLiteral("Hello"));
    QSignalSpy finished(room()->conversation(), &Conversation::turnFinished);
    QVERIFY(finished.wait(5000));
    const QString frozenSha = room()->conversation()->soul().sha256;
    auto *stale = part<QWidget>("chatStaleBar");
    QVERIFY(!stale->isVisible());

    QPlainTextEdit *editor = window()->panes()->pane(0)->editor();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral(" She also hums."));
    QTRY_VERIFY(stale->isVisible());
    QCOMPARE(room()->conversation()->soul().sha256, frozenSha); // still frozen

    part<QPushButton>("chatRestart")->click();
    QVERIFY(!stale->isVisible());
    const LiveSoul live = window()->findChild<RoomHost *>()->liveSoul();
    QCOMPARE(room()->conversation()->soul().sha256, live.sha256());
    QVERIFY(live.sha256() != frozenSha);
    QVERIFY(room()->conversation()->turns().isEmpty());
    sendMessage(QStringLiteral("Again"));
    QTRY_COMPARE(m_server->chatRequests(), 2);
    const QByteArray sent = m_server->chatBody(1)
                                .value(QStringLiteral("messages"))
                                .toArray()
                                .first()
                                .toObject()
                                .value(QStringLiteral("content"))
                                .toString()
                                .toUtf8();
    QCOMPARE(sent, live.bytes);
    // Sent unsaved; once saved, soulc compose writes the same bytes.
    QVERIFY(sent.contains(" She also hums."));
    QAction *save = m_fixture.action("saveAll");
    QTRY_VERIFY(save->isEnabled());
    save->trigger();
    QTRY_COMPARE(soulcOutput({QStringLiteral("compose"), m_persona}), sent);
}

void tst_ChatRoom::keyNeverInTheSettings()
{
    openDock();
    if (QTest::currentTestFailed())
        return;
    const QString key = QStringLiteral("sk-local-test-key");
    auto *field = part<QLineEdit>("chatKey");
    QTest::keyClicks(field, key);
    QTest::keyClick(field, Qt::Key_Return);
    sendMessage(QStringLiteral("Hi"));
    QTRY_COMPARE(m_server->chatRequests(), 1);
    QVERIFY(m_server->requests().last().head.contains("Bearer " + key.toUtf8()));
    window()->findChild<RoomHost *>()->settings()->sync();
    QVERIFY(m_fixture.close());
    const QByteArray settings = readAll(m_fixture.filePath(QStringLiteral("settings.ini")));
    QVERIFY(settings.contains(m_server->baseUrl().toString().toUtf8())); // the endpoint is kept
    QVERIFY(!settings.contains(key.toUtf8()));
}

void tst_ChatRoom::keyOverPlainHttpIsAsked()
{
    QTest::keyClick(window(), Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
    QTRY_VERIFY(room()->isVisible());
    auto *url = part<QLineEdit>("chatEndpoint");
    url->clear();
    QTest::keyClicks(url, QStringLiteral("http://192.0.2.1:8080/v1")); // not this machine
    QTest::keyClick(url, Qt::Key_Return);
    QTest::keyClicks(part<QLineEdit>("chatKey"), QStringLiteral("sk-x"));
    auto *question = part<QWidget>("chatKeyQuestion");
    QVERIFY(!question->isVisible());
    sendMessage(QStringLiteral("Hi"));
    QVERIFY(question->isVisible());
    QVERIFY(room()->conversation()->turns().isEmpty()); // nothing sent before the answer
    const QString asked = question->findChild<QLabel *>()->text();
    QVERIFY2(asked.contains(QLatin1String("plain http"))
                 && asked.contains(QLatin1String("192.0.2.1")),
             qPrintable(asked));
}

// A user name and password typed in the endpoint's URL leave the field (and
// so the settings) and go with the keys; the requests still go to the server.
void tst_ChatRoom::urlCredentialsNeverInTheSettings()
{
    openDock();
    if (QTest::currentTestFailed())
        return;
    QUrl withPassword = m_server->baseUrl();
    withPassword.setUserInfo(QStringLiteral("ava:pa55word"));
    auto *field = part<QLineEdit>("chatEndpoint");
    field->clear();
    QTest::keyClicks(field, withPassword.toString());
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(field->text(), m_server->baseUrl().toString());
    sendMessage(QStringLiteral("Hi"));
    QTRY_COMPARE(m_server->chatRequests(), 1);
    window()->findChild<RoomHost *>()->settings()->sync();
    QVERIFY(m_fixture.close());
    const QByteArray settings = readAll(m_fixture.filePath(QStringLiteral("settings.ini")));
    QVERIFY(settings.contains(m_server->baseUrl().toString().toUtf8()));
    QVERIFY2(!settings.contains("pa55word"), settings.constData());
}

QTEST_MAIN(tst_ChatRoom)
#include "tst_chatroom.moc"
