#include "../live/gitfixture.h"
#include "compose/contract.h"
#include "guitestfiles.h"
#include "history/grouphistory.h"
#include "history/grouphistorycontroller.h"
#include "history/grouphistorymodel.h"
#include "history/grouphistorypanel.h"
#include "history/historycontroller.h"
#include "linksession.h"
#include "persona/personamodel.h"
#include "quietprompter.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/mainwindow.h"
#include "window/personaeditor.h"
#include "workspace.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace soul;
using namespace soul::guitest;
using soul::test::GitFixture;

namespace {

// Answers the checkpoint's question with the test's message, and keeps
// what was asked.
class GroupPrompter final : public QuietPrompter
{
public:
    QString message; // null cancels
    QString suggested;
    QString note;
    int asked = 0;
    QStringList errors;

    QString askCheckpointMessage(const QString &proposed, const QString &said) override
    {
        ++asked;
        suggested = proposed;
        note = said;
        return message;
    }
    void showError(const QString &title, const QString &text) override
    {
        errors.append(title + QLatin1Char('\n') + text);
    }
};

const QByteArray UserOld = "# User\n\nSam.\n";
const QByteArray UserText = "# User\n\nSam. Short answers.\n";

} // namespace

class tst_GroupHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void listsTheFilesCommitsOfEveryMember();
    void checkpointTheGroup();
    void followsThePaneLastFocused();

private:
    QString parent() const { return m_fixture.filePath(QStringLiteral("team")); }
    QString folder(const QString &agent) const { return parent() + QLatin1Char('/') + agent; }
    // ava, coach and writer have repositories (ava and coach commits of
    // USER.md, writer none), nomad has none; the four share USER.md in
    // "house". Opens the window on them with ava's USER.md pane focused.
    void openTeam();
    int indexOf(const QString &agent) const;
    void focusPane(const QString &agent, int slot);
    // Shows the group's page and waits for its list.
    void showGroupHistory();
    QByteArray lastSubject(const QString &agent);
    QByteArray head(const QString &agent)
    {
        return m_git->revParse(folder(agent), QStringLiteral("HEAD"));
    }

    MainWindow *window() const { return m_fixture.window(); }
    GroupHistoryController *controller() const { return window()->groupHistory(); }
    GroupHistoryPanel *panel() const { return controller()->panel(); }
    GroupHistoryModel *rows() const { return controller()->session()->rows(); }
    GroupPrompter *prompter() const { return m_fixture.prompter(); }

    TestWindow<GroupPrompter> m_fixture;
    std::unique_ptr<GitFixture> m_git;
    QByteArray m_ava1, m_coach1, m_ava2;
};

void tst_GroupHistory::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (!GitFixture::available())
        QFAIL("these tests make repositories with the git command line: install git");
}

void tst_GroupHistory::init()
{
    m_fixture.init();
    // libgit2 in this process, and soulc, read the test's home, never the user's.
    m_git = GitFixture::inHome(m_fixture.filePath(QStringLiteral("home")));
    QVERIFY(m_git);
}

void tst_GroupHistory::cleanup()
{
    m_fixture.cleanup();
    m_git.reset();
}

void tst_GroupHistory::openTeam()
{
    // In this order, each git run a minute after the last: ava's first
    // USER.md, coach's, then ava's second (the group's text).
    QVERIFY2(m_git->makeRepository(folder(QStringLiteral("ava")),
                                   folder(QStringLiteral("ava")),
                                   {{"SOUL.md", "I am ava.\n", QStringLiteral("ava: soul")},
                                    {"USER.md", UserOld, QStringLiteral("ava: first user")}}),
             qPrintable(m_git->lastError()));
    m_ava1 = head(QStringLiteral("ava"));
    QVERIFY2(m_git->makeRepository(folder(QStringLiteral("coach")),
                                   folder(QStringLiteral("coach")),
                                   {{"SOUL.md", "I am coach.\n", QStringLiteral("coach: soul")},
                                    {"USER.md", UserOld, QStringLiteral("coach: user")}}),
             qPrintable(m_git->lastError()));
    m_coach1 = head(QStringLiteral("coach"));
    QVERIFY2(m_git->makeRepository(folder(QStringLiteral("writer")),
                                   folder(QStringLiteral("writer")),
                                   {{"SOUL.md", "I am writer.\n", QStringLiteral("writer: soul")}}),
             qPrintable(m_git->lastError()));
    QVERIFY(test::writeBytes(folder(QStringLiteral("ava")) + QStringLiteral("/USER.md"), UserText));
    QVERIFY(!m_git->commitAll(folder(QStringLiteral("ava")), QStringLiteral("ava: user for all"))
                 .isEmpty());
    m_ava2 = head(QStringLiteral("ava"));
    QVERIFY(test::writeBytes(folder(QStringLiteral("nomad")) + QStringLiteral("/SOUL.md"),
                             "I am nomad.\n"));
    for (const char *agent : {"coach", "nomad", "writer"}) {
        QVERIFY(
            test::writeBytes(folder(QLatin1String(agent)) + QStringLiteral("/USER.md"), UserText));
    }
    const QByteArray added = soulcLinkAdd(QStringLiteral("house"),
                                          QStringLiteral("USER.md"),
                                          QStringLiteral("ava,coach,nomad,writer"),
                                          parent());
    QVERIFY2(!added.startsWith("soulc failed"), added.constData());

    m_fixture.create();
    prompter()->message = QStringLiteral("Sam prefers short answers");
    QVERIFY(window()->openPersonaFolder(parent()));
    QCOMPARE(window()->sessionCount(), 4);
    QTRY_VERIFY(window()->workspace()->links()->isReady());
    QCOMPARE(window()->workspace()->links()->groups().groups.size(), 1);
    focusPane(QStringLiteral("ava"), slotIndex(u"USER.md"));
}

int tst_GroupHistory::indexOf(const QString &agent) const
{
    for (int i = 0; i < window()->sessionCount(); ++i) {
        if (QDir(window()->workspace()->at(i)->model()->directory()).dirName() == agent)
            return i;
    }
    return -1;
}

void tst_GroupHistory::focusPane(const QString &agent, int slot)
{
    // The agents open one per turn of the event loop.
    int index = -1;
    QTRY_VERIFY((index = indexOf(agent)) >= 0);
    window()->setCurrentIndex(index);
    window()->goToLine(slot, 1);
    QTRY_VERIFY(window()->editor(index)->panes()->pane(slot)->editor()->hasFocus());
    QTRY_COMPARE(window()->editor(index)->currentSlot(), slot);
}

void tst_GroupHistory::showGroupHistory()
{
    m_fixture.action("linkHistory")->trigger();
    QTRY_VERIFY(panel()->isVisible());
    QVERIFY(window()->history()->dock()->isVisible());
    QCOMPARE(window()->history()->tabs()->currentWidget(), panel());
    QTRY_COMPARE(controller()->session()->state(), GroupHistory::State::Ready);
}

QByteArray tst_GroupHistory::lastSubject(const QString &agent)
{
    return m_git
        ->git(folder(agent),
              {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s")})
        .trimmed();
}

void tst_GroupHistory::listsTheFilesCommitsOfEveryMember()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    showGroupHistory();
    QCOMPARE(window()->history()->tabs()->tabText(1), QStringLiteral("Linked File: USER.md"));
    QVERIFY(window()->history()->tabs()->tabBar()->isVisible());

    // Exactly the commits that changed USER.md, newest first, with their agents.
    QCOMPARE(rows()->count(), 3);
    const QList<std::pair<QString, QByteArray>> expected = {{QStringLiteral("ava"), m_ava2},
                                                            {QStringLiteral("coach"), m_coach1},
                                                            {QStringLiteral("ava"), m_ava1}};
    for (int row = 0; row < 3; ++row) {
        QCOMPARE(rows()->commit(row).agent, expected.at(row).first);
        QCOMPARE(rows()->commit(row).commit.id, expected.at(row).second);
        QCOMPARE(rows()->index(row, GroupHistoryModel::AgentColumn).data().toString(),
                 expected.at(row).first);
        QCOMPARE(rows()->index(row, GroupHistoryModel::CommitColumn).data().toString(),
                 rows()->commit(row).commit.shortId);
    }
    QCOMPARE(rows()->index(0, GroupHistoryModel::MessageColumn).data().toString(),
             QStringLiteral("ava: user for all"));
    // Only ava's last commit holds the group's text.
    QVERIFY(rows()->sameAsGroup(0));
    QVERIFY(!rows()->sameAsGroup(1));
    QVERIFY(!rows()->sameAsGroup(2));
    QCOMPARE(rows()->index(0, GroupHistoryModel::TextColumn).data().toString(),
             QStringLiteral("the group's text"));

    // The member without a repository gets its sentence; writer, with one
    // but no commit of the file, none.
    QVERIFY(panel()->notes()->isVisible());
    QVERIFY2(panel()->notes()->text().contains(QLatin1String("nomad has no git repository")),
             qPrintable(panel()->notes()->text()));
    QVERIFY(!panel()->notes()->text().contains(QLatin1String("writer")));
    QVERIFY2(panel()->status()->text().contains(QLatin1String("3 commits")),
             qPrintable(panel()->status()->text()));

    // Selecting a row shows the file as that commit has it, read only.
    panel()->list()->setFocus();
    panel()->selectRow(1);
    QTRY_COMPARE(panel()->textView()->toPlainText().toUtf8(), UserOld);
    QVERIFY(panel()->textView()->isReadOnly());
    QVERIFY2(panel()->textTitle()->text().contains(QLatin1String("coach")),
             qPrintable(panel()->textTitle()->text()));
    QTest::keyClick(panel()->list(), Qt::Key_Up);
    QTRY_COMPARE(panel()->textView()->toPlainText().toUtf8(), UserText);
    QVERIFY2(panel()->textTitle()->text().contains(QLatin1String("the group's text now")),
             qPrintable(panel()->textTitle()->text()));
}

void tst_GroupHistory::checkpointTheGroup()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    const QByteArray avaHead = head(QStringLiteral("ava"));
    const QByteArray coachHead = head(QStringLiteral("coach"));
    const QByteArray writerHead = head(QStringLiteral("writer"));

    m_fixture.action("linkCheckpoint")->trigger();
    QCOMPARE(prompter()->asked, 1); // once for the whole group
    QCOMPARE(prompter()->suggested, QStringLiteral("Link group house: USER.md"));
    QVERIFY2(prompter()->note.contains(QLatin1String("nomad has no git repository")),
             qPrintable(prompter()->note));

    // One commit with the message in each member that changed, none in ava.
    QCOMPARE(lastSubject(QStringLiteral("coach")), QByteArray("Sam prefers short answers"));
    QCOMPARE(lastSubject(QStringLiteral("writer")), QByteArray("Sam prefers short answers"));
    QCOMPARE(m_git->revParse(folder(QStringLiteral("coach")), QStringLiteral("HEAD~1")), coachHead);
    QCOMPARE(m_git->revParse(folder(QStringLiteral("writer")), QStringLiteral("HEAD~1")),
             writerHead);
    QCOMPARE(head(QStringLiteral("ava")), avaHead);
    QVERIFY(!QFileInfo::exists(folder(QStringLiteral("nomad")) + QStringLiteral("/.git")));
    QCOMPARE(m_git->git(folder(QStringLiteral("writer")),
                        {QStringLiteral("show"), QStringLiteral("HEAD:USER.md")}),
             UserText);

    // The status bar says who got a commit and who had nothing to commit.
    const QString said = window()->statusMessage()->text();
    QVERIFY2(said.contains(QLatin1String("committed in coach (")), qPrintable(said));
    QVERIFY2(said.contains(QLatin1String("writer (")), qPrintable(said));
    QVERIFY2(said.contains(QLatin1String("nothing to commit in ava")), qPrintable(said));
    QVERIFY2(said.contains(QLatin1String("no repository in nomad")), qPrintable(said));
    QVERIFY(prompter()->errors.isEmpty());

    // The group's history lists the new commits, holding the group's text.
    showGroupHistory();
    QTRY_COMPARE(rows()->count(), 5);
    QStringList newest = {rows()->commit(0).agent, rows()->commit(1).agent};
    newest.sort();
    QCOMPARE(newest, QStringList({QStringLiteral("coach"), QStringLiteral("writer")}));
    QVERIFY(rows()->sameAsGroup(0));
    QVERIFY(rows()->sameAsGroup(1));

    // A second checkpoint finds nothing to commit anywhere.
    m_fixture.action("linkCheckpoint")->trigger();
    QCOMPARE(prompter()->asked, 2);
    QVERIFY2(window()->statusMessage()->text().contains(
                 QLatin1String("nothing to commit in ava, coach, writer")),
             qPrintable(window()->statusMessage()->text()));
}

void tst_GroupHistory::followsThePaneLastFocused()
{
    openTeam();
    if (QTest::currentTestFailed())
        return;
    showGroupHistory();
    // A pane of a file in no group: the page says how to choose one, and
    // Checkpoint the Group has nothing to commit.
    focusPane(QStringLiteral("coach"), slotIndex(u"SOUL.md"));
    QTRY_COMPARE(controller()->session()->state(), GroupHistory::State::NoFile);
    QCOMPARE(rows()->count(), 0);
    QVERIFY(!panel()->checkpointButton()->isEnabled());
    QCOMPARE(window()->history()->tabs()->tabText(1), QStringLiteral("Linked File"));
    const QByteArray coachHead = head(QStringLiteral("coach"));
    m_fixture.action("linkCheckpoint")->trigger();
    QCOMPARE(prompter()->asked, 0);
    QCOMPARE(head(QStringLiteral("coach")), coachHead);
    // Another member's USER.md: the same group's history again.
    focusPane(QStringLiteral("writer"), slotIndex(u"USER.md"));
    QTRY_COMPARE(controller()->session()->state(), GroupHistory::State::Ready);
    QCOMPARE(rows()->count(), 3);
    QVERIFY(panel()->checkpointButton()->isEnabled());
}

QTEST_MAIN(tst_GroupHistory)
#include "tst_grouphistory.moc"
