#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "compose/contract.h"
#include "disk/fileio.h"
#include "guitestfiles.h"
#include "links/linkgroups.h"
#include "linksession.h"
#include "persona/personamodel.h"
#include "runtimepreview.h"
#include "slots/linkbar.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/agentssidebar.h"
#include "window/personaeditor.h"
#include "workspace.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>

using namespace soul;
using namespace soul::guitest;
using soul::test::readFile;
using soul::test::writeFile;

namespace {

// Answers the link groups' questions as the test says, and keeps what was asked.
class LinkPrompter : public QuietPrompter
{
public:
    QList<LinkedChangeAnswer> changeAnswers; // in turn; Cancel once used up
    DivergedAnswer divergedAnswer = DivergedAnswer::Close;
    QStringList changedAsked; // the agents askLinkedCopyChanged() named
    QList<ThreeWayTexts> threeWays;
    QStringList errors;
    QString linkName; // askLinkName()'s answer

    QString askLinkName(const QString &, const QStringList &, const QString &) override
    {
        return linkName;
    }

    LinkedChangeAnswer askLinkedCopyChanged(const QString &,
                                            const QString &agent,
                                            const QString &) override
    {
        changedAsked.append(agent);
        return changeAnswers.isEmpty() ? LinkedChangeAnswer::Cancel : changeAnswers.takeFirst();
    }
    DivergedAnswer askDivergedCopy(const ThreeWayTexts &texts) override
    {
        threeWays.append(texts);
        return divergedAnswer;
    }
    void showError(const QString &title, const QString &text) override
    {
        errors.append(title + QLatin1Char('\n') + text);
    }
};

const QByteArray UserText = "# User\n\nSam. Short answers.\n";

} // namespace

class tst_LinkGroups : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void typingEditsEveryMember();
    void saveWritesEveryCopyAndUndoReturns();
    void divergedCopyAdopted();
    void divergedCopyLeaves();
    void changedCopyAskedBeforeAnythingIsWritten();
    void failurePartWayFinishes_data();
    void failurePartWayFinishes();
    void keysForEveryAction();
    void killedSaveFinishedInNextWindow();
    void identicalFilesOffered();
    void brokenGroupFileSaid();
    void bootstrapGroup();
    void openClawRosterOfSix();

private:
    QString parent() const { return m_fixture.filePath(QStringLiteral("team")); }
    QString userPath(const QString &agent) const
    {
        return parent() + QLatin1Char('/') + agent + QStringLiteral("/USER.md");
    }
    // ava, coach and writer share USER.md in "house"; solo is in no group.
    void openTeam();
    MainWindow *window() const { return m_fixture.window(); }
    LinkSession *links() const { return window()->workspace()->links(); }
    SlotPane *userPane(int agent) const
    {
        return window()->editor(agent)->panes()->pane(slotIndex(u"USER.md"));
    }
    QByteArray buffer(int agent) const
    {
        return window()->session(agent)->model()->slot(slotIndex(u"USER.md")).bufferBytes;
    }
    // Types `text` at the start of agent `agent`'s USER.md pane.
    void typeInUser(int agent, const QString &text);
    // The group's digest as soul-links.json records it, and its pending one.
    QJsonObject groupOnDisk() const;
    QByteArray soulcLinksStates() const;

    TestWindow<LinkPrompter> m_fixture;
};

void tst_LinkGroups::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_LinkGroups::init()
{
    m_fixture.init();
}

void tst_LinkGroups::cleanup()
{
    fileio::clearFault();
    m_fixture.cleanup();
}

void tst_LinkGroups::openTeam()
{
    const QStringList agents = {QStringLiteral("ava"),
                                QStringLiteral("coach"),
                                QStringLiteral("solo"),
                                QStringLiteral("writer")};
    for (const QString &agent : agents) {
        QVERIFY(QDir().mkpath(parent() + QLatin1Char('/') + agent));
        QVERIFY(writeFile(parent() + QLatin1Char('/') + agent + QStringLiteral("/SOUL.md"),
                          "I am " + agent.toUtf8() + ".\n"));
        QVERIFY(writeFile(userPath(agent), UserText));
    }
    const QByteArray added = soulcLinkAdd(QStringLiteral("house"),
                                          QStringLiteral("USER.md"),
                                          QStringLiteral("ava,coach,writer"),
                                          parent());
    QVERIFY2(!added.startsWith("soulc failed"), added.constData());
    m_fixture.create();
    QVERIFY(window()->openPersonaFolder(parent()));
    QCOMPARE(window()->sessionCount(), 4);
    QTRY_VERIFY(links()->isReady());
    QVERIFY(links()->problem().isEmpty());
    QCOMPARE(links()->groups().groups.size(), 1);
    for (int agent : {0, 1, 3})
        QTRY_COMPARE(userPane(agent)->linkBar()->kind(), LinkBar::Kind::Shared);
    QVERIFY(userPane(2)->linkBar()->isHidden());
}

void tst_LinkGroups::typeInUser(int agent, const QString &text)
{
    window()->setCurrentIndex(agent);
    window()->goToLine(slotIndex(u"USER.md"), 1);
    QPlainTextEdit *editor = userPane(agent)->editor();
    QTRY_VERIFY(editor->hasFocus());
    QTest::keyClicks(editor, text);
}

QJsonObject tst_LinkGroups::groupOnDisk() const
{
    const QJsonObject file
        = QJsonDocument::fromJson(readFile(parent() + QStringLiteral("/soul-links.json"))).object();
    return file.value(QStringLiteral("groups")).toArray().at(0).toObject();
}

QByteArray tst_LinkGroups::soulcLinksStates() const
{
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                {QStringLiteral("links"), QStringLiteral("--json"), parent()});
    if (!soulc.waitForFinished(30000))
        return "soulc did not finish";
    QByteArray states;
    const QJsonObject out = QJsonDocument::fromJson(soulc.readAllStandardOutput()).object();
    for (const QJsonValue group : out.value(QStringLiteral("groups")).toArray()) {
        for (const QJsonValue member : group.toObject().value(QStringLiteral("members")).toArray())
            states += member.toObject().value(QStringLiteral("agent")).toString().toUtf8() + '='
                      + member.toObject().value(QStringLiteral("state")).toString().toUtf8() + ' ';
    }
    return states.trimmed();
}

void tst_LinkGroups::typingEditsEveryMember()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    QVERIFY(userPane(0)->linkBar()->text().contains(QStringLiteral("coach, writer")));
    typeInUser(0, QStringLiteral("Hi "));
    const QByteArray typed = "Hi " + UserText;
    QCOMPARE(buffer(0), typed);
    // Every member's buffer, hence its soul, follows after the typing's
    // pause (the hidden members' panes take it once); solo's does not.
    QCOMPARE(buffer(1), UserText);
    for (int agent : {1, 3}) {
        QTRY_COMPARE(buffer(agent), typed);
        QVERIFY(window()->session(agent)->model()->slot(slotIndex(u"USER.md")).dirty);
    }
    QCOMPARE(buffer(2), UserText);
    // Each member's soul is what soulc composes from its folder with the
    // group's text in it.
    for (int agent : {0, 1, 3}) {
        QTemporaryDir copy;
        const QString name = window()->session(agent)->agent().id;
        QVERIFY(
            writeFile(copy.filePath(QStringLiteral("SOUL.md")), "I am " + name.toUtf8() + ".\n"));
        QVERIFY(writeFile(copy.filePath(QStringLiteral("USER.md")), typed));
        const QByteArray expected = soulcOutput({QStringLiteral("compose"), copy.path()});
        QVERIFY2(!expected.startsWith("soulc failed"), expected.constData());
        QCOMPARE(window()->session(agent)->model()->soul(SoulView::Unsaved), expected);
    }
    // Nothing was written.
    for (const char *agent : {"ava", "coach", "writer"})
        QCOMPARE(readFile(userPath(QString::fromLatin1(agent))), UserText);
    // Showing another member hands the edit on at once, without the pause.
    typeInUser(0, QStringLiteral("Yo "));
    window()->setCurrentIndex(3);
    QCOMPARE(buffer(3), "Yo " + typed);
}

void tst_LinkGroups::saveWritesEveryCopyAndUndoReturns()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    typeInUser(1, QStringLiteral("New "));
    const QByteArray typed = "New " + UserText;
    QTest::keyClick(userPane(1)->editor(), Qt::Key_S, Qt::ControlModifier);
    for (const char *agent : {"ava", "coach", "writer"})
        QTRY_COMPARE(readFile(userPath(QString::fromLatin1(agent))), typed);
    QCOMPARE(readFile(userPath(QStringLiteral("solo"))), UserText);
    for (int agent : {0, 1, 3})
        QVERIFY(!window()->session(agent)->model()->slot(slotIndex(u"USER.md")).dirty);
    const QJsonObject group = groupOnDisk();
    QCOMPARE(group.value(QStringLiteral("sha256")).toString().toLatin1(),
             QCryptographicHash::hash(typed, QCryptographicHash::Sha256).toHex());
    QVERIFY(!group.contains(QStringLiteral("pendingFrom")));
    QCOMPARE(soulcLinksStates(), QByteArray("ava=same coach=same writer=same"));
    QVERIFY(m_fixture.prompter()->errors.isEmpty());

    // Ctrl+Z in the pane takes the group's text back in every member, unsaved.
    QTest::keyClick(userPane(1)->editor(), Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE(buffer(1), UserText);
    for (int agent : {0, 3}) {
        QTRY_COMPARE(buffer(agent), UserText);
        QVERIFY(window()->session(agent)->model()->slot(slotIndex(u"USER.md")).dirty);
    }
    QTest::keyClick(userPane(1)->editor(), Qt::Key_S, Qt::ControlModifier);
    for (const char *agent : {"ava", "coach", "writer"})
        QTRY_COMPARE(readFile(userPath(QString::fromLatin1(agent))), UserText);
}

void tst_LinkGroups::divergedCopyAdopted()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    QVERIFY(window()->chooseRuntime(QStringLiteral("openclaw")));
    // writer's agent rewrites its own copy.
    const QByteArray own = "# User\n\nSam. Long answers, with sources.\n";
    QVERIFY(writeAtomically(userPath(QStringLiteral("writer")), own));
    QTRY_COMPARE(userPane(3)->linkBar()->kind(), LinkBar::Kind::Diverged);
    QTRY_VERIFY(window()->sidebar()->list()->item(3)->text().contains(
        QStringLiteral("USER.md differs from its group")));
    QVERIFY(!window()->sidebar()->list()->item(0)->text().contains(QStringLiteral("differs")));
    QCOMPARE(soulcLinksStates(), QByteArray("ava=same coach=same writer=differs"));
    QVERIFY(userPane(0)->sameNote()->isHidden());
    QTRY_VERIFY(userPane(0)->linkBar()->text().contains(QStringLiteral("own way in writer")));
    // Typing in ava leaves writer's own text alone.
    typeInUser(0, QStringLiteral("x"));
    QTRY_COMPARE(buffer(1), "x" + UserText);
    links()->flush();
    QCOMPARE(buffer(3), own);
    QTest::keyClick(userPane(0)->editor(), Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE(buffer(1), UserText);

    // Three-way (Ctrl+Alt+3) on writer's pane, answered Adopt.
    m_fixture.prompter()->divergedAnswer = Prompter::DivergedAnswer::Adopt;
    window()->setCurrentIndex(3);
    window()->goToLine(slotIndex(u"USER.md"), 1);
    m_fixture.action("linkThreeWay")->trigger();
    QCOMPARE(m_fixture.prompter()->threeWays.size(), 1);
    const ThreeWayTexts texts = m_fixture.prompter()->threeWays.constFirst();
    QCOMPARE(texts.agent, QStringLiteral("writer"));
    QCOMPARE(texts.group, QStringLiteral("house"));
    QCOMPARE(texts.lastGroup, UserText);
    QCOMPARE(texts.thisCopy, own);
    QCOMPARE(texts.groupNow, UserText);
    // Every member's pane holds writer's text, unsaved; nothing is written yet.
    for (int agent : {0, 1})
        QCOMPARE(buffer(agent), own);
    QCOMPARE(readFile(userPath(QStringLiteral("ava"))), UserText);
    // Ctrl+S in writer's pane writes every copy.
    QTest::keyClick(userPane(3)->editor(), Qt::Key_S, Qt::ControlModifier);
    for (const char *agent : {"ava", "coach", "writer"})
        QTRY_COMPARE(readFile(userPath(QString::fromLatin1(agent))), own);
    QTRY_COMPARE(userPane(3)->linkBar()->kind(), LinkBar::Kind::Shared);
    QCOMPARE(soulcLinksStates(), QByteArray("ava=same coach=same writer=same"));
    QVERIFY(m_fixture.prompter()->changedAsked.isEmpty());
}

void tst_LinkGroups::divergedCopyLeaves()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    const QByteArray own = "# User\n\nSam, as coach knows him.\n";
    QVERIFY(writeAtomically(userPath(QStringLiteral("coach")), own));
    QTRY_COMPARE(userPane(1)->linkBar()->kind(), LinkBar::Kind::Diverged);
    window()->setCurrentIndex(1);
    window()->goToLine(slotIndex(u"USER.md"), 1);
    m_fixture.action("linkLeave")->trigger();
    QTRY_VERIFY(userPane(1)->linkBar()->isHidden());
    const QJsonArray members = groupOnDisk().value(QStringLiteral("members")).toArray();
    QCOMPARE(members, QJsonArray({QStringLiteral("ava"), QStringLiteral("writer")}));
    QCOMPARE(readFile(userPath(QStringLiteral("coach"))), own);
    // Edits no longer reach coach.
    typeInUser(0, QStringLiteral("y"));
    QTRY_COMPARE(buffer(3), "y" + UserText);
    links()->flush();
    QCOMPARE(buffer(1), own);
    QCOMPARE(soulcLinksStates(), QByteArray("ava=same writer=same"));
}

void tst_LinkGroups::changedCopyAskedBeforeAnythingIsWritten()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    typeInUser(0, QStringLiteral("Mine "));
    // Another program rewrites coach's copy while the author types: coach's
    // pane holds unsaved text, so its disk change is a conflict there.
    const QByteArray theirs = "# User\n\nSam, rewritten by the agent.\n";
    QVERIFY(writeAtomically(userPath(QStringLiteral("coach")), theirs));
    // Cancel: nothing is written anywhere.
    m_fixture.prompter()->changeAnswers = {Prompter::LinkedChangeAnswer::Cancel};
    QTest::keyClick(userPane(0)->editor(), Qt::Key_S, Qt::ControlModifier);
    QCOMPARE(m_fixture.prompter()->changedAsked, QStringList{QStringLiteral("coach")});
    QCOMPARE(readFile(userPath(QStringLiteral("ava"))), UserText);
    QCOMPARE(readFile(userPath(QStringLiteral("writer"))), UserText);
    QCOMPARE(readFile(userPath(QStringLiteral("coach"))), theirs);
    QVERIFY(window()->session(0)->model()->slot(slotIndex(u"USER.md")).dirty);
    // Take theirs: every copy gets coach's text.
    m_fixture.prompter()->changedAsked.clear();
    m_fixture.prompter()->changeAnswers = {Prompter::LinkedChangeAnswer::TakeTheirs};
    QTest::keyClick(userPane(0)->editor(), Qt::Key_S, Qt::ControlModifier);
    for (const char *agent : {"ava", "coach", "writer"})
        QTRY_COMPARE(readFile(userPath(QString::fromLatin1(agent))), theirs);
    QCOMPARE(buffer(0), theirs);
    QCOMPARE(soulcLinksStates(), QByteArray("ava=same coach=same writer=same"));
    // Overwrite: the author's text replaces another outside change.
    typeInUser(0, QStringLiteral("Again "));
    QVERIFY(writeAtomically(userPath(QStringLiteral("writer")), "changed again\n"));
    m_fixture.prompter()->changedAsked.clear();
    m_fixture.prompter()->changeAnswers = {Prompter::LinkedChangeAnswer::Overwrite};
    QTest::keyClick(userPane(0)->editor(), Qt::Key_S, Qt::ControlModifier);
    QCOMPARE(m_fixture.prompter()->changedAsked, QStringList{QStringLiteral("writer")});
    for (const char *agent : {"ava", "coach", "writer"})
        QTRY_COMPARE(readFile(userPath(QString::fromLatin1(agent))), "Again " + theirs);
}

void tst_LinkGroups::failurePartWayFinishes_data()
{
    QTest::addColumn<int>("error");
    QTest::addColumn<QString>("said");
    QTest::newRow("full disk") << ENOSPC << QStringLiteral("disk");
    QTest::newRow("read-only copy") << EROFS << QStringLiteral("read-only");
}

void tst_LinkGroups::failurePartWayFinishes()
{
    QFETCH(int, error);
    QFETCH(QString, said);
    openTeam();
    if (QTest::currentTestFailed())
        return;
    int stoppedPartWay = 0;
    QByteArray last = UserText;
    // A full disk at each rename in turn: the group's text store, the group
    // file, then each copy.
    for (int k = 1; k <= 6; ++k) {
        const QByteArray next = QByteArray::number(k) + ' ' + last;
        typeInUser(0, QString::number(k) + QLatin1Char(' '));
        QCOMPARE(buffer(0), next);
        m_fixture.prompter()->errors.clear();
        fileio::injectFault(fileio::Op::Rename, k, error);
        QTest::keyClick(userPane(0)->editor(), Qt::Key_S, Qt::ControlModifier);
        fileio::clearFault();
        QStringList hasNew;
        for (const char *agent : {"ava", "coach", "writer"}) {
            const QByteArray now = readFile(userPath(QString::fromLatin1(agent)));
            // Never torn: old or new.
            QVERIFY2(now == last || now == next, agent);
            if (now == next)
                hasNew.append(QString::fromLatin1(agent));
        }
        if (hasNew.size() == 3) {
            QVERIFY(m_fixture.prompter()->errors.isEmpty());
            last = next;
            continue;
        }
        QCOMPARE(m_fixture.prompter()->errors.size(), 1);
        const QString sentence = m_fixture.prompter()->errors.constFirst();
        QVERIFY2(sentence.contains(said), qPrintable(sentence));
        if (!hasNew.isEmpty()) {
            ++stoppedPartWay;
            // The sentence names who holds the new text; the copies left
            // behind say so, and Finish (Ctrl+Alt+F) writes them.
            QVERIFY2(sentence.contains(hasNew.join(QStringLiteral(", "))), qPrintable(sentence));
            QVERIFY(groupOnDisk().contains(QStringLiteral("pendingFrom")));
            for (const char *agent : {"ava", "coach", "writer"}) {
                if (hasNew.contains(QString::fromLatin1(agent)))
                    continue;
                const int index = QString::fromLatin1(agent) == QStringLiteral("ava")     ? 0
                                  : QString::fromLatin1(agent) == QStringLiteral("coach") ? 1
                                                                                          : 3;
                QTRY_COMPARE(userPane(index)->linkBar()->kind(), LinkBar::Kind::Behind);
            }
        }
        window()->goToLine(slotIndex(u"USER.md"), 1);
        m_fixture.action(hasNew.isEmpty() ? "save" : "linkFinish")->trigger();
        for (const char *agent : {"ava", "coach", "writer"})
            QTRY_COMPARE(readFile(userPath(QString::fromLatin1(agent))), next);
        QVERIFY(!groupOnDisk().contains(QStringLiteral("pendingFrom")));
        last = next;
    }
    QVERIFY2(stoppedPartWay >= 2, qPrintable(QString::number(stoppedPartWay)));
    QCOMPARE(soulcLinksStates(), QByteArray("ava=same coach=same writer=same"));
}

// Every action of a linked file has a key of its own, and is in the menu.
void tst_LinkGroups::keysForEveryAction()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    QMenu *menu = m_fixture.menu("linksMenu");
    for (const char *name :
         {"linkThreeWay", "linkAdopt", "linkLeave", "linkFinish", "linkIdentical"}) {
        QAction *action = m_fixture.action(name);
        QVERIFY2(!action->shortcut().isEmpty(), name);
        QVERIFY2(action->isEnabled(), name);
        QVERIFY2(menu->actions().contains(action), name);
    }
    // Each key is the window's only one of its kind.
    QList<QKeySequence> keys;
    for (QAction *action : window()->findChildren<QAction *>()) {
        if (action->shortcut().isEmpty())
            continue;
        QVERIFY2(!keys.contains(action->shortcut()), qPrintable(action->shortcut().toString()));
        keys.append(action->shortcut());
    }
}

// What a save killed after its second copy leaves: the group file records
// the new text and the one it replaces, ava and coach hold the new text,
// writer the old. The next window says so and finishes the job.
void tst_LinkGroups::killedSaveFinishedInNextWindow()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    m_fixture.close();
    const QByteArray next = "# User\n\nSam. Answers with one source each.\n";
    const Result<LinkPlace> place = personaFoldersPlace(parent());
    QVERIFY(place.ok());
    Result<LinkGroups> groups = readLinkGroups(place.value());
    QVERIFY(groups.ok());
    const Result<QByteArray> kept = keepGroupText(place.value(), next);
    QVERIFY(kept.ok());
    LinkGroup &group = groups.value().groups.first();
    group.pendingFrom = group.sha256;
    group.sha256 = kept.value();
    QVERIFY(writeLinkGroups(groups.value()).ok());
    for (const char *agent : {"ava", "coach"})
        QVERIFY(writeAtomically(userPath(QString::fromLatin1(agent)), next));

    m_fixture.create();
    QVERIFY(window()->openPersonaFolder(parent()));
    QTRY_VERIFY(links()->isReady());
    QTRY_COMPARE(userPane(3)->linkBar()->kind(), LinkBar::Kind::Behind);
    QCOMPARE(userPane(0)->linkBar()->kind(), LinkBar::Kind::Shared);
    QVERIFY(
        userPane(0)->linkBar()->text().contains(QStringLiteral("Still the old text in writer")));
    QTRY_VERIFY(window()->sidebar()->list()->item(3)->text().contains(
        QStringLiteral("USER.md waits for a save to finish")));
    window()->setCurrentIndex(3);
    window()->goToLine(slotIndex(u"USER.md"), 1);
    m_fixture.action("linkFinish")->trigger();
    QTRY_COMPARE(readFile(userPath(QStringLiteral("writer"))), next);
    QCOMPARE(readFile(userPath(QStringLiteral("ava"))), next);
    QVERIFY(!groupOnDisk().contains(QStringLiteral("pendingFrom")));
    QTRY_COMPARE(userPane(3)->linkBar()->kind(), LinkBar::Kind::Shared);
    QCOMPARE(soulcLinksStates(), QByteArray("ava=same coach=same writer=same"));
    QVERIFY(m_fixture.prompter()->errors.isEmpty());
}

void tst_LinkGroups::identicalFilesOffered()
{
    // TOOLS.md the same in ava and solo, in no group; USER.md of solo is the
    // same as the group's text but not offered (the others are linked).
    for (const char *agent : {"ava", "solo"}) {
        QVERIFY(QDir().mkpath(parent() + QLatin1Char('/') + QString::fromLatin1(agent)));
        QVERIFY(writeFile(parent() + QLatin1Char('/') + QString::fromLatin1(agent)
                              + QStringLiteral("/TOOLS.md"),
                          "Use the web.\n"));
    }
    openTeam();
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(links()->candidates().size(), 1);
    QCOMPARE(links()->candidates().constFirst().file, QStringLiteral("TOOLS.md"));
    QCOMPARE(links()->candidates().constFirst().agents,
             QStringList({QStringLiteral("ava"), QStringLiteral("solo")}));
    // Ctrl+Alt+I links them under the name given.
    m_fixture.prompter()->linkName = QStringLiteral("tools");
    m_fixture.action("linkIdentical")->trigger();
    QTRY_COMPARE(links()->groups().groups.size(), 2);
    QTRY_VERIFY(links()->candidates().isEmpty());
    const int tools = slotIndex(u"TOOLS.md");
    QTRY_COMPARE(window()->editor(0)->panes()->pane(tools)->linkBar()->kind(),
                 LinkBar::Kind::Shared);
    window()->setCurrentIndex(0);
    window()->goToLine(tools, 1);
    QTest::keyClicks(window()->editor(0)->panes()->pane(tools)->editor(),
                     QStringLiteral("Always: "));
    QTRY_COMPARE(window()->session(2)->model()->slot(tools).bufferBytes,
                 QByteArray("Always: Use the web.\n"));
}

// A group file naming an agent the place does not have: a sentence naming
// the file and the line; no bar, nothing handed on, nothing written.
void tst_LinkGroups::brokenGroupFileSaid()
{
    for (const char *agent : {"ava", "coach"}) {
        QVERIFY(QDir().mkpath(parent() + QLatin1Char('/') + QString::fromLatin1(agent)));
        QVERIFY(writeFile(userPath(QString::fromLatin1(agent)), UserText));
    }
    const QByteArray broken = "{\n  \"version\": 1,\n  \"groups\": [\n    {\"name\": \"u\", "
                              "\"file\": \"USER.md\",\n     \"members\": [\"ava\", \"ghost\"], "
                              "\"sha256\": \"00\"}\n  ]\n}\n";
    QVERIFY(writeFile(parent() + QStringLiteral("/soul-links.json"), broken));
    m_fixture.create();
    QVERIFY(window()->openPersonaFolder(parent()));
    QTRY_VERIFY(links()->isReady());
    QVERIFY(links()->problem().contains(parent() + QStringLiteral("/soul-links.json")));
    QVERIFY2(links()->problem().contains(QStringLiteral("ghost")), qPrintable(links()->problem()));
    QVERIFY2(links()->problem().contains(QStringLiteral("line")), qPrintable(links()->problem()));
    QTRY_VERIFY(window()->statusMessage()->text().contains(QStringLiteral("soul-links.json")));
    QVERIFY(userPane(0)->linkBar()->isHidden());
    typeInUser(0, QStringLiteral("z"));
    links()->flush();
    QCOMPARE(buffer(1), UserText);
    QTest::keyClick(userPane(0)->editor(), Qt::Key_S, Qt::ControlModifier);
    QTRY_COMPARE(readFile(userPath(QStringLiteral("ava"))), "z" + UserText);
    QCOMPARE(readFile(userPath(QStringLiteral("coach"))), UserText);
    QCOMPARE(readFile(parent() + QStringLiteral("/soul-links.json")), broken);
}

// A group of BOOTSTRAP.md (a document after the slots, no pane until opened):
// an edit in one member's pane reaches the other's buffer, and Save writes both.
void tst_LinkGroups::bootstrapGroup()
{
    for (const char *agent : {"ava", "coach"}) {
        const QString dir = parent() + QLatin1Char('/') + QString::fromLatin1(agent);
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(writeFile(dir + QStringLiteral("/SOUL.md"), "Soul.\n"));
        QVERIFY(writeFile(dir + QStringLiteral("/BOOTSTRAP.md"), "Say hello.\n"));
    }
    const QByteArray added = soulcLinkAdd(QStringLiteral("boot"),
                                          QStringLiteral("BOOTSTRAP.md"),
                                          QStringLiteral("ava,coach"),
                                          parent());
    QVERIFY2(!added.startsWith("soulc failed"), added.constData());
    m_fixture.create();
    QVERIFY(window()->openPersonaFolder(parent()));
    QTRY_VERIFY(links()->isReady());
    PersonaEditor *ava = window()->editor(0);
    QVERIFY(ava->openDocument(QStringLiteral("BOOTSTRAP.md")));
    const int doc = window()->session(0)->model()->documentIndex(QStringLiteral("BOOTSTRAP.md"));
    QVERIFY(doc >= SlotCount);
    SlotPane *pane = ava->panes()->pane(doc);
    QVERIFY(pane);
    QTRY_COMPARE(pane->linkBar()->kind(), LinkBar::Kind::Shared);
    pane->editor()->setFocus();
    QTRY_VERIFY(pane->editor()->hasFocus());
    QTest::keyClicks(pane->editor(), QStringLiteral("First: "));
    const PersonaModel *coach = window()->session(1)->model();
    const int coachDoc = coach->documentIndex(QStringLiteral("BOOTSTRAP.md"));
    QVERIFY(coachDoc >= SlotCount);
    QTRY_COMPARE(coach->slot(coachDoc).bufferBytes, QByteArray("First: Say hello.\n"));
    QTest::keyClick(pane->editor(), Qt::Key_S, Qt::ControlModifier);
    for (const char *agent : {"ava", "coach"})
        QTRY_COMPARE(readFile(parent() + QLatin1Char('/') + QString::fromLatin1(agent)
                              + QStringLiteral("/BOOTSTRAP.md")),
                     QByteArray("First: Say hello.\n"));
}

// Six agents of OpenClaw's roster, four in OpenClaw's own workspaces and two
// in a folder of personas, three groups; coach's budget cuts the shared
// USER.md where the others keep it whole.
void tst_LinkGroups::openClawRosterOfSix()
{
    const QString state = m_fixture.filePath(QStringLiteral("state"));
    const QString personas = m_fixture.filePath(QStringLiteral("personas"));
    QVERIFY(QDir().mkpath(state));
    QVERIFY(writeFile(state + QStringLiteral("/openclaw.json"),
                      "{ agents: { ownership: 'explicit',\n"
                      "  entries: { work: {}, coach: { bootstrapMaxChars: 300 }, ops: {},\n"
                      "    writer: {}, ana: { workspace: '"
                          + personas.toUtf8()
                          + "/ana' },\n"
                            "    ben: { workspace: '"
                          + personas.toUtf8() + "/ben' }, }, }, }\n"));
    for (const char *name :
         {"OPENCLAW_CONFIG_PATH", "OPENCLAW_PROFILE", "OPENCLAW_WORKSPACE_DIR", "OPENCLAW_HOME"})
        qunsetenv(name);
    qputenv("OPENCLAW_STATE_DIR", QFile::encodeName(state));
    const auto unset = qScopeGuard([] { qunsetenv("OPENCLAW_STATE_DIR"); });
    const Result<OpenClawRoster> roster = readOpenClawRoster(OpenClawPaths::system());
    QVERIFY2(roster.ok(), qPrintable(roster.error()));
    QCOMPARE(roster.value().agents.size(), 6);
    QMap<QString, QString> folderOf;
    for (const OpenClawAgent &agent : roster.value().agents) {
        folderOf.insert(agent.id, agent.workspace);
        QVERIFY(QDir().mkpath(agent.workspace));
        QVERIFY(writeFile(agent.workspace + QStringLiteral("/SOUL.md"),
                          "You are " + agent.id.toUtf8() + ".\n"));
        QVERIFY(writeFile(agent.workspace + QStringLiteral("/USER.md"), UserText));
        QVERIFY(writeFile(agent.workspace + QStringLiteral("/TOOLS.md"), "Use the shell.\n"));
        QVERIFY(writeFile(agent.workspace + QStringLiteral("/AGENTS.md"), "House rules.\n"));
    }
    QVERIFY(folderOf.value(QStringLiteral("ana")).startsWith(personas));
    const auto add = [](const char *name, const char *file, const char *agents) {
        return soulcLinkAdd(QString::fromLatin1(name),
                            QString::fromLatin1(file),
                            QString::fromLatin1(agents),
                            QStringLiteral("--openclaw"));
    };
    for (const QByteArray &added : {add("user", "USER.md", "work,coach,ana,ben"),
                                    add("tools", "TOOLS.md", "ops,writer"),
                                    add("house", "AGENTS.md", "work,coach,ana,ben,ops,writer")})
        QVERIFY2(!added.startsWith("soulc failed"), added.constData());
    QVERIFY(QFileInfo::exists(state + QStringLiteral("/soul-links.json")));

    m_fixture.create();
    QVERIFY(window()->openOpenClawAgents());
    QCOMPARE(window()->sessionCount(), 6);
    QTRY_VERIFY(links()->isReady());
    QVERIFY2(links()->problem().isEmpty(), qPrintable(links()->problem()));
    QCOMPARE(links()->groups().groups.size(), 3);
    QMap<QString, int> index;
    for (int i = 0; i < window()->sessionCount(); ++i) {
        index.insert(window()->session(i)->agent().id, i);
        // Each agent previewed as OpenClaw runs it, with its own budgets.
        window()->session(i)->setRuntimeProfile(window()->session(i)->agent().openClaw);
    }
    // Typing in work's USER.md past coach's 300 characters: coach's copy is
    // cut, work's is whole, and work's bar says so.
    const int work = index.value(QStringLiteral("work"));
    const int coach = index.value(QStringLiteral("coach"));
    const QString longer = QString(QLatin1Char('w')).repeated(400) + QLatin1Char(' ');
    typeInUser(work, longer);
    for (const char *agent : {"coach", "ana", "ben"})
        QTRY_COMPARE(buffer(index.value(QString::fromLatin1(agent))), longer.toUtf8() + UserText);
    const int user = slotIndex(u"USER.md");
    QTRY_VERIFY(!window()->session(coach)->runtimePreview()->paneView(user).whole);
    QTRY_VERIFY(window()->session(work)->runtimePreview()->paneView(user).whole);
    QTRY_VERIFY2(userPane(work)->linkBar()->text().contains(
                     QStringLiteral("Cut by the runtime in coach")),
                 qPrintable(userPane(work)->linkBar()->text()));
    QVERIFY(!userPane(work)->linkBar()->text().contains(QStringLiteral("in work")));
    // A group of six: the bar names four others and counts the rest; its
    // tooltip names every member.
    const LinkBar *house = window()->editor(work)->panes()->pane(slotIndex(u"AGENTS.md"))->linkBar();
    QTRY_VERIFY2(house->text().startsWith(QStringLiteral(
                     "Shared in \"house\" with coach, ana, ben, ops and one other agent:")),
                 qPrintable(house->text()));
    QVERIFY2(house->toolTip().contains(QStringLiteral("writer: the group's text")),
             qPrintable(house->toolTip()));
    // Another process rewrites ops's TOOLS.md while the author types in
    // writer's: soulc names exactly that copy, and the save asks about it.
    const int tools = slotIndex(u"TOOLS.md");
    const int writer = index.value(QStringLiteral("writer"));
    window()->setCurrentIndex(writer);
    window()->goToLine(tools, 1);
    QPlainTextEdit *toolsEditor = window()->editor(writer)->panes()->pane(tools)->editor();
    QTest::keyClicks(toolsEditor, QStringLiteral("Always "));
    QVERIFY(writeAtomically(folderOf.value(QStringLiteral("ops")) + QStringLiteral("/TOOLS.md"),
                            "Use the shell, carefully.\n"));
    QTest::keyClicks(toolsEditor, QStringLiteral("and "));
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                {QStringLiteral("links"), QStringLiteral("--json"), QStringLiteral("--openclaw")});
    QVERIFY(soulc.waitForFinished(30000));
    QCOMPARE(soulc.exitCode(), 1);
    QStringList divergent;
    const QJsonArray groups = QJsonDocument::fromJson(soulc.readAllStandardOutput())
                                  .object()
                                  .value(QStringLiteral("groups"))
                                  .toArray();
    for (const QJsonValue group : groups) {
        for (const QJsonValue member : group.toObject().value(QStringLiteral("members")).toArray()) {
            if (member.toObject().value(QStringLiteral("state")).toString()
                != QStringLiteral("same"))
                divergent.append(member.toObject().value(QStringLiteral("agent")).toString());
        }
    }
    QCOMPARE(divergent, QStringList{QStringLiteral("ops")});
    m_fixture.prompter()->changeAnswers = {Prompter::LinkedChangeAnswer::Overwrite};
    QTest::keyClick(toolsEditor, Qt::Key_S, Qt::ControlModifier);
    QCOMPARE(m_fixture.prompter()->changedAsked, QStringList{QStringLiteral("ops")});
    for (const char *agent : {"ops", "writer"})
        QTRY_COMPARE(readFile(folderOf.value(QString::fromLatin1(agent))
                              + QStringLiteral("/TOOLS.md")),
                     QByteArray("Always and Use the shell.\n"));
    // The other groups were not touched.
    QCOMPARE(readFile(folderOf.value(QStringLiteral("ana")) + QStringLiteral("/AGENTS.md")),
             QByteArray("House rules.\n"));
    QCOMPARE(readFile(folderOf.value(QStringLiteral("ana")) + QStringLiteral("/USER.md")), UserText);
}

QTEST_MAIN(tst_LinkGroups)
#include "tst_linkgroups.moc"
