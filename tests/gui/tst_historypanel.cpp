#include "../live/gitfixture.h"
#include "compare/comparedialog.h"
#include "compose/composer.h"
#include "counttext.h"
#include "documentcontroller.h"
#include "guitestfiles.h"
#include "history/historycontroller.h"
#include "history/historycounts.h"
#include "history/historylistmodel.h"
#include "history/historyloader.h"
#include "history/historypanel.h"
#include "history/historytimeline.h"
#include "history/personahistory.h"
#include "history/repositorywatcher.h"
#include "persona/personamodel.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "quietprompter.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "tokens/tokenizer.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

using namespace soul;
using namespace soul::guitest;
using soul::test::GitFixture;

namespace {

// Answers the history's questions as a test tells it to, and records them.
class HistoryPrompter final : public QuietPrompter
{
public:
    bool createRepository = false;
    QString message; // the checkpoint message given; null cancels
    QStringList asked;
    QStringList errors;
    QString suggested; // the message the window proposed

    bool askCreateRepository(const QString &, const QString &) override
    {
        asked.append(QStringLiteral("createRepository"));
        return createRepository;
    }
    QString askCheckpointMessage(const QString &proposed, const QString &) override
    {
        asked.append(QStringLiteral("checkpointMessage"));
        suggested = proposed;
        return message;
    }
    void showError(const QString &, const QString &text) override { errors.append(text); }
    void showCompare(const QString &, const QString &diff) override { diffs.append(diff); }
    QStringList diffs;
};

const QByteArray SoulOne = "You are Kip.\n";
const QByteArray SoulTwo = "You are Kip, a terse assistant.\nYou answer in plain words.\n";
const QByteArray SoulThree = "You are Kip, a terse assistant.\nYou answer in plain words.\n"
                             "You never guess.\n";
const QByteArray Memory = "- prefers metric units\n";
const QByteArray MemoryTwo = "- prefers metric units\n- works late\n";

} // namespace

class tst_HistoryPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void listContents_data();
    void listContents();
    void selectionShowsSoulAtCommit();
    void selectionComposesForTheChosenRuntime_data();
    void selectionComposesForTheChosenRuntime();
    void states_data();
    void states();
    void midMergeIsReadOnly();
    void damagedRepositoryKeepsTheWindow();
    void keysReachTheCommitsAndTheTimeline();
    void checkpoint_data();
    void checkpoint();
    void checkpointSaysWhoChangedIt();
    void checkpointOnSave();
    void restoreIsUndoableAndUnsaved_data();
    void restoreIsUndoableAndUnsaved();
    void restoreAllLeavesDisk();
    void restoreKeepsTheCommitsBytes();
    void timelineHitTesting_data();
    void timelineHitTesting();
    void changedSinceCheckpoint();
    void compareWithCommit();
    void compareTwoCommits_data();
    void compareTwoCommits();
    void panelIsRemembered();
    void followsCommitsMadeOutside();
    void followsFirstCommitMadeOutside();

private:
    // A repository at "repo" with the persona at `sub` in it, three commits
    // touching its slot files and one that does not; the persona's folder.
    QString makeHistory(const QString &sub);
    void openWindow(const QString &dir);
    // Shows the panel and waits until every commit is listed and counted.
    void showHistory();
    QList<HistoryCommit> coreLog(const QString &dir);

    MainWindow *window() const { return m_fixture.window(); }
    HistoryController *history() const { return window()->history(); }
    HistoryPanel *panel() const { return history()->panel(); }
    HistoryPrompter *prompter() const { return m_fixture.prompter(); }
    QAction *action(const char *name) { return m_fixture.action(name); }

    TestWindow<HistoryPrompter> m_fixture;
    std::unique_ptr<GitFixture> m_git;
};

void tst_HistoryPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (!GitFixture::available())
        QFAIL("these tests make repositories with the git command line: install git");
}

void tst_HistoryPanel::init()
{
    m_fixture.init();
    // libgit2 in this process reads the test's home, never the user's.
    m_git = GitFixture::inHome(m_fixture.filePath(QStringLiteral("home")));
    QVERIFY(m_git);
}

void tst_HistoryPanel::cleanup()
{
    m_fixture.cleanup();
    m_git.reset();
}

QString tst_HistoryPanel::makeHistory(const QString &sub)
{
    const QString repo = m_fixture.filePath(QStringLiteral("repo"));
    const QString dir = sub.isEmpty() ? repo : QDir(repo).filePath(sub);
    const bool made
        = m_git->makeRepository(repo,
                                dir,
                                {{"SOUL.md", SoulOne, QStringLiteral("first soul")},
                                 {"MEMORY.md", Memory, QStringLiteral("a memory")},
                                 {"notes.txt", "not a slot\n", QStringLiteral("notes only")},
                                 {"SOUL.md", SoulTwo, QStringLiteral("longer soul")}});
    return made ? dir : QString();
}

void tst_HistoryPanel::openWindow(const QString &dir)
{
    auto prompter = std::make_unique<HistoryPrompter>();
    m_fixture.open(dir, std::move(prompter));
}

void tst_HistoryPanel::showHistory()
{
    QAction *show = action("showHistory");
    if (!show->isChecked())
        show->trigger();
    QVERIFY(history()->dock()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!history()->loader()->isRunning()
                                 && history()->loader()->status() != HistoryStatus::Loading,
                             20000);
}

QList<HistoryCommit> tst_HistoryPanel::coreLog(const QString &dir)
{
    auto opened = PersonaHistory::open(dir);
    if (!opened)
        return {};
    const Result<QList<HistoryCommit>> log = (*opened)->log();
    return log ? *log : QList<HistoryCommit>();
}

void tst_HistoryPanel::listContents_data()
{
    QTest::addColumn<QString>("sub");
    QTest::newRow("persona at the root") << QString();
    QTest::newRow("persona in a subfolder") << QStringLiteral("agents/kip");
}

void tst_HistoryPanel::listContents()
{
    QFETCH(QString, sub);
    const QString dir = makeHistory(sub);
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    openWindow(dir);
    showHistory();
    QCOMPARE(history()->loader()->status(), HistoryStatus::Ready);
    const HistoryListModel *rows = history()->rows();
    // The commit that touched only notes.txt is not listed.
    const QList<HistoryCommit> log = coreLog(dir);
    QCOMPARE(rows->count(), 3);
    QCOMPARE(log.size(), 3);
    for (int row = 0; row < rows->count(); ++row)
        QCOMPARE(rows->commit(row).id, log.at(row).id);
    const auto cell = [rows](int row, int column) {
        return rows->data(rows->index(row, column)).toString();
    };
    QCOMPARE(cell(0, HistoryListModel::MessageColumn), QStringLiteral("longer soul"));
    QCOMPARE(cell(1, HistoryListModel::MessageColumn), QStringLiteral("a memory"));
    QCOMPARE(cell(2, HistoryListModel::MessageColumn), QStringLiteral("first soul"));
    QCOMPARE(cell(0, HistoryListModel::AuthorColumn), QStringLiteral("Test Author"));
    QTRY_COMPARE(rows->measured(), 3);
    // Each change is the figures' change of that slot, and only changed slots are named.
    auto opened = PersonaHistory::open(dir);
    QVERIFY(opened.ok());
    HistoryCounts counts(Tokenizer::builtin(QStringLiteral("o200k_base")));
    for (int row = 0; row < rows->count(); ++row) {
        const Result<SoulFigures> figures = (*opened)->measure(log.at(row), counts);
        QVERIFY(figures.ok());
        QCOMPARE(rows->figures(row)->soulTokens, figures->soulTokens);
        QCOMPARE(cell(row, HistoryListModel::TokensColumn), formatCount(figures->soulTokens));
    }
    const qint64 soulDelta = rows->figures(0)->tokenChange[size_t(slotIndex(u"SOUL.md"))];
    QVERIFY(soulDelta > 0);
    QCOMPARE(cell(0, HistoryListModel::ChangesColumn),
             QStringLiteral("SOUL.md +%1 tokens").arg(soulDelta));
    QVERIFY2(cell(1, HistoryListModel::ChangesColumn).startsWith(QLatin1String("MEMORY.md +")),
             qPrintable(cell(1, HistoryListModel::ChangesColumn)));
    QVERIFY(cell(1, HistoryListModel::ChangesColumn).contains(QLatin1String("(added)")));
    QVERIFY(panel()
                ->findChild<QLabel *>(QStringLiteral("historyStatus"))
                ->text()
                .startsWith(QLatin1String("3 commits")));
}

void tst_HistoryPanel::selectionShowsSoulAtCommit()
{
    const QString dir = makeHistory(QStringLiteral("agents/kip"));
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    showHistory();
    const QList<HistoryCommit> log = coreLog(dir);
    auto opened = PersonaHistory::open(dir);
    QVERIFY(opened.ok());
    for (int row = 0; row < log.size(); ++row) {
        panel()->selectRow(row);
        const Result<PersonaRevision> revision
            = (*opened)->readRevision(QString::fromLatin1(log.at(row).id),
                                      ReadOptions(ComposeRule::toolnexus().readLimit()));
        QVERIFY(revision.ok());
        const QByteArray expected = compose(slotBuffers(revision->reads)).soul;
        QTRY_COMPARE(panel()->soulView()->toPlainText(), QString::fromUtf8(expected));
        QVERIFY(panel()->soulView()->isReadOnly());
    }
    // The oldest commit had SOUL.md alone.
    QCOMPARE(panel()->fileChooser()->count(), 1);
    QCOMPARE(panel()->fileChooser()->currentText(), QStringLiteral("SOUL.md"));
}

void tst_HistoryPanel::selectionComposesForTheChosenRuntime_data()
{
    QTest::addColumn<QString>("runtime");
    QTest::newRow("openclaw") << QStringLiteral("openclaw");
    QTest::newRow("hermes") << QStringLiteral("hermes");
}

// With a runtime chosen in the preview, a commit's soul is what that runtime
// injects from a checkout of the commit (soulc compose of `git worktree add`),
// whatever the folder holds on disk now.
void tst_HistoryPanel::selectionComposesForTheChosenRuntime()
{
    QFETCH(QString, runtime);
    const QString dir = makeHistory(QString());
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    // On disk only, never committed: no commit's soul may hold them.
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("BOOTSTRAP.md")), "Ask.\n"));
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("AGENTS.md")), "On disk.\n"));
    openWindow(dir);
    QComboBox *chooser = window()->previewPanel()->runtimeChooser();
    chooser->setCurrentIndex(chooser->findData(runtime));
    QCOMPARE(window()->previewPanel()->runtimeProfile().id(), runtime);
    showHistory();
    const QList<HistoryCommit> log = coreLog(dir);
    QCOMPARE(log.size(), 3);
    for (int row = 0; row < log.size(); ++row) {
        const QString checkout = m_fixture.filePath(QStringLiteral("checkout%1").arg(row));
        QVERIFY2(!m_git
                      ->git(dir,
                            {QStringLiteral("worktree"),
                             QStringLiteral("add"),
                             QStringLiteral("-q"),
                             QStringLiteral("--detach"),
                             checkout,
                             QString::fromLatin1(log.at(row).id)})
                      .isNull(),
                 qPrintable(m_git->lastError()));
        QProcess soulc;
        soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                    {QStringLiteral("compose"), QStringLiteral("--runtime"), runtime, checkout});
        QVERIFY(soulc.waitForFinished(30000));
        QCOMPARE(soulc.exitCode(), 0);
        // The text names the folder it was composed from: the checkout's
        // stands for the persona's.
        const QString expected
            = QString::fromUtf8(soulc.readAllStandardOutput()).replace(checkout, dir);
        QVERIFY(!expected.isEmpty());
        panel()->selectRow(row);
        QTRY_COMPARE(panel()->soulView()->toPlainText(), expected);
        QVERIFY(!expected.contains(QLatin1String("On disk.")));
        const QString title
            = panel()->findChild<QLabel *>(QStringLiteral("historySoulTitle"))->text();
        QVERIFY2(title.contains(window()->previewPanel()->runtimeProfile().displayName()),
                 qPrintable(title));
    }
    // What the history cannot hold is said.
    const QString notes = panel()->findChild<QLabel *>(QStringLiteral("historyNotes"))->text();
    if (runtime == QLatin1String("openclaw"))
        QVERIFY2(notes.contains(QLatin1String("BOOTSTRAP.md")), qPrintable(notes));
    QVERIFY2(notes.contains(window()->previewPanel()->runtimeProfile().displayName()),
             qPrintable(notes));
}

void tst_HistoryPanel::states_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("says");
    QTest::addColumn<bool>("offersCreate");
    QTest::newRow("no repository") << QStringLiteral("none") << int(HistoryStatus::NoRepository)
                                   << QStringLiteral("in no git repository") << true;
    QTest::newRow("empty repository (OpenClaw's)")
        << QStringLiteral("empty") << int(HistoryStatus::Empty)
        << QStringLiteral("no commit of the slot files yet") << false;
    QTest::newRow("commits, none touching the slots")
        << QStringLiteral("others") << int(HistoryStatus::Empty)
        << QStringLiteral("no commit of the slot files yet") << false;
}

void tst_HistoryPanel::states()
{
    QFETCH(QString, kind);
    QFETCH(int, status);
    QFETCH(QString, says);
    QFETCH(bool, offersCreate);
    const QString dir = m_fixture.filePath(QStringLiteral("kip"));
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("SOUL.md")), SoulOne));
    if (kind != QLatin1String("none"))
        QVERIFY(!m_git->git(dir, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
    if (kind == QLatin1String("others")) {
        QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("notes.txt")), "x\n"));
        QVERIFY(!m_git->git(dir, {QStringLiteral("add"), QStringLiteral("notes.txt")}).isNull());
        QVERIFY(
            !m_git->git(dir, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("n")})
                 .isNull());
    }
    openWindow(dir);
    showHistory();
    QCOMPARE(int(history()->loader()->status()), status);
    QVERIFY2(panel()->message()->text().contains(says), qPrintable(panel()->message()->text()));
    QVERIFY(panel()->message()->isVisible());
    QCOMPARE(panel()->createButton()->isVisible(), offersCreate);
    if (!offersCreate)
        return;
    // Create Repository makes it one, with nothing committed.
    QTest::mouseClick(panel()->createButton(), Qt::LeftButton);
    QVERIFY(QFileInfo(QDir(dir).filePath(QStringLiteral(".git"))).isDir());
    QTRY_COMPARE(history()->loader()->status(), HistoryStatus::Empty);
    QVERIFY(!panel()->createButton()->isVisible());
}

// A damaged object in the history (here a header shorter than its content,
// which corrupts libgit2's own reader's heap) is named in the panel; the
// window, its other functions and the unsaved text are untouched.
void tst_HistoryPanel::damagedRepositoryKeepsTheWindow()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    const QByteArray blob = m_git->revParse(dir, QStringLiteral("HEAD:SOUL.md"));
    QCOMPARE(blob.size(), 40);
    const QString object = QDir(dir).filePath(
        QStringLiteral(".git/objects/%1/%2")
            .arg(QString::fromLatin1(blob.left(2)), QString::fromLatin1(blob.mid(2))));
    QVERIFY(QFile::setPermissions(object, QFile::ReadOwner | QFile::WriteOwner));
    const QByteArray shortHeader = "blob " + QByteArray::number(SoulTwo.size() - 9) + '\0'
                                   + SoulTwo;
    QVERIFY(test::writeBytes(object, qCompress(shortHeader).mid(4)));

    openWindow(dir);
    SlotPane *pane = window()->panes()->pane(slotIndex(u"SOUL.md"));
    window()->panes()->showPane(slotIndex(u"SOUL.md"));
    pane->editor()->setFocus();
    pane->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane->editor(), QStringLiteral("Unsaved words."));
    QTRY_VERIFY(window()->model()->slot(slotIndex(u"SOUL.md")).dirty);

    showHistory();
    QCOMPARE(history()->loader()->status(), HistoryStatus::Failed);
    const QString said = panel()->message()->text();
    QVERIFY2(said.contains(QLatin1String("is damaged")) && said.contains(QLatin1String(blob))
                 && said.contains(QLatin1String("git fsck")),
             qPrintable(said));
    QVERIFY(panel()->message()->isVisible());

    // The unsaved text is there, the preview shows it, and saving works.
    QVERIFY(pane->editor()->toPlainText().endsWith(QLatin1String("Unsaved words.")));
    QVERIFY(window()->model()->slot(slotIndex(u"SOUL.md")).dirty);
    QTRY_VERIFY(window()->previewPanel()->preview()->document()->toPlainText().contains(
        QLatin1String("Unsaved words.")));
    QVERIFY(window()->documents()->save(slotIndex(u"SOUL.md")));
    QCOMPARE(test::readBytes(QDir(dir).filePath(QStringLiteral("SOUL.md"))),
             SoulTwo + "Unsaved words.");
}

// From a pane (where Tab types a tab), Ctrl+9 shows the hidden panel and
// puts the focus in the commit list; the arrows select commits, Shift+Down
// widens the selection for Compare These Two, and Shift+Tab reaches the
// timeline, whose arrows step through the commits.
void tst_HistoryPanel::keysReachTheCommitsAndTheTimeline()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    QVERIFY(history()->dock()->isHidden());
    SlotPane *pane = window()->panes()->pane(slotIndex(u"SOUL.md"));
    window()->panes()->showPane(slotIndex(u"SOUL.md"));
    QTRY_VERIFY(pane->editor()->hasFocus());

    QTest::keyClick(pane->editor(), Qt::Key_9, Qt::ControlModifier);
    QVERIFY(history()->dock()->isVisible());
    QVERIFY(action("showHistory")->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(history()->loader()->status() == HistoryStatus::Ready, 20000);
    QTRY_COMPARE(panel()->list()->model()->rowCount(), 3);
    // Pressed while the list was being read, the key lands in it once filled.
    QTRY_VERIFY(panel()->list()->hasFocus());
    QCOMPARE(panel()->selectedRow(), 0);

    QTest::keyClick(panel()->list(), Qt::Key_Down);
    QCOMPARE(panel()->selectedRow(), 1);
    QTest::keyClick(panel()->list(), Qt::Key_Down, Qt::ShiftModifier);
    QCOMPARE(panel()->selectedRows(), (QList<int>{1, 2}));

    // Tab goes on to the soul at the commit and the controls under it.
    QTest::keyClick(panel()->list(), Qt::Key_Tab);
    QTRY_VERIFY(panel()->soulView()->hasFocus());
    QTest::keyClick(panel()->soulView(), Qt::Key_Tab);
    QTRY_VERIFY(panel()->fileChooser()->hasFocus());
    QTest::keyClick(panel()->fileChooser(), Qt::Key_Backtab, Qt::ShiftModifier);
    QTRY_VERIFY(panel()->soulView()->hasFocus());
    QTest::keyClick(panel()->soulView(), Qt::Key_Backtab, Qt::ShiftModifier);
    QTRY_VERIFY(panel()->list()->hasFocus());

    QTest::keyClick(panel()->list(), Qt::Key_Backtab, Qt::ShiftModifier);
    QTRY_VERIFY(panel()->timeline()->hasFocus());
    QTest::keyClick(panel()->timeline(), Qt::Key_End);
    QCOMPARE(panel()->selectedRow(), 0); // the newest
    QTest::keyClick(panel()->timeline(), Qt::Key_Left);
    QCOMPARE(panel()->selectedRow(), 1);
}

void tst_HistoryPanel::midMergeIsReadOnly()
{
    const QString dir = m_fixture.filePath(QStringLiteral("merge"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(!m_git->git(dir, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
    const QString soul = QDir(dir).filePath(QStringLiteral("SOUL.md"));
    QVERIFY(test::writeBytes(soul, "base\n"));
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("base")).isEmpty());
    QVERIFY(
        !m_git->git(dir, {QStringLiteral("checkout"), QStringLiteral("-qb"), QStringLiteral("side")})
             .isNull());
    QVERIFY(test::writeBytes(soul, "side\n"));
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("side")).isEmpty());
    QVERIFY(
        !m_git->git(dir, {QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("main")})
             .isNull());
    QVERIFY(test::writeBytes(soul, "main\n"));
    const QByteArray head = m_git->commitAll(dir, QStringLiteral("main"));
    QVERIFY(m_git->git(dir, {QStringLiteral("merge"), QStringLiteral("-q"), QStringLiteral("side")})
                .isNull()); // a conflict
    openWindow(dir);
    showHistory();
    QCOMPARE(history()->loader()->status(), HistoryStatus::Ready);
    const QLabel *status = panel()->findChild<QLabel *>(QStringLiteral("historyStatus"));
    QVERIFY2(status->text().startsWith(QLatin1String("Read only:"))
                 && status->text().contains(QLatin1String("merge")),
             qPrintable(status->text()));
    QVERIFY(!panel()->findChild<QPushButton *>(QStringLiteral("historyCheckpoint"))->isEnabled());
    // Ctrl+Alt+S says why and commits nothing.
    prompter()->message = QStringLiteral("during a merge");
    action("checkpoint")->trigger();
    QCOMPARE(prompter()->errors.size(), 1);
    QVERIFY2(prompter()->errors.first().contains(QLatin1String("merge")),
             qPrintable(prompter()->errors.first()));
    QCOMPARE(m_git->revParse(dir, QStringLiteral("HEAD")), head);
}

void tst_HistoryPanel::checkpoint_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("create");
    QTest::addColumn<bool>("made");
    QTest::newRow("changed file") << QStringLiteral("changed") << false << true;
    QTest::newRow("nothing to commit") << QStringLiteral("clean") << false << false;
    QTest::newRow("no repository, created") << QStringLiteral("none") << true << true;
    QTest::newRow("no repository, declined") << QStringLiteral("none") << false << false;
    QTest::newRow("index locked by another git") << QStringLiteral("locked") << false << false;
}

void tst_HistoryPanel::checkpoint()
{
    QFETCH(QString, kind);
    QFETCH(bool, create);
    QFETCH(bool, made);
    QString dir;
    if (kind == QLatin1String("none")) {
        dir = m_fixture.filePath(QStringLiteral("loose"));
        QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("SOUL.md")), SoulOne));
    } else {
        dir = makeHistory(QString());
        QVERIFY(!dir.isEmpty());
        if (kind != QLatin1String("clean"))
            QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("SOUL.md")), SoulThree));
        if (kind == QLatin1String("locked"))
            QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral(".git/index.lock")), ""));
    }
    const QByteArray before = kind == QLatin1String("none")
                                  ? QByteArray()
                                  : m_git->revParse(dir, QStringLiteral("HEAD"));
    openWindow(dir);
    prompter()->createRepository = create;
    prompter()->message = QStringLiteral("my checkpoint");
    QSignalSpy spy(history(), &HistoryController::checkpointMade);
    // Ctrl+Alt+S.
    QTest::keyClick(window(), Qt::Key_S, Qt::ControlModifier | Qt::AltModifier);
    QCOMPARE(spy.size(), made ? 1 : 0);
    if (kind == QLatin1String("locked")) {
        // Said in a sentence; the commit, the index and the file as they were.
        QCOMPARE(prompter()->errors.size(), 1);
        QVERIFY2(prompter()->errors.first().contains(QLatin1String("index.lock")),
                 qPrintable(prompter()->errors.first()));
        QCOMPARE(m_git->revParse(dir, QStringLiteral("HEAD")), before);
        QCOMPARE(test::readBytes(QDir(dir).filePath(QStringLiteral("SOUL.md"))), SoulThree);
        const QByteArray staged = m_git->git(dir,
                                             {QStringLiteral("diff"), QStringLiteral("--cached")});
        QVERIFY2(!staged.isNull() && staged.isEmpty(), staged.constData());
        return;
    }
    QVERIFY2(prompter()->errors.isEmpty(), qPrintable(prompter()->errors.join(QLatin1Char('\n'))));
    QCOMPARE(prompter()->asked.contains(QStringLiteral("createRepository")),
             kind == QLatin1String("none"));
    QCOMPARE(QFileInfo::exists(QDir(dir).filePath(QStringLiteral(".git"))),
             kind != QLatin1String("none") || create);
    if (!made) {
        if (!before.isEmpty())
            QCOMPARE(m_git->revParse(dir, QStringLiteral("HEAD")), before);
        QVERIFY(!prompter()->asked.contains(QStringLiteral("checkpointMessage")));
        return;
    }
    QVERIFY(prompter()->suggested.startsWith(QLatin1String("SOUL.md")));
    QCOMPARE(m_git
                 ->git(dir,
                       {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s")})
                 .trimmed(),
             QByteArray("my checkpoint"));
    QCOMPARE(m_git->git(dir, {QStringLiteral("show"), QStringLiteral("HEAD:SOUL.md")}),
             kind == QLatin1String("none") ? SoulOne : SoulThree);
}

void tst_HistoryPanel::checkpointSaysWhoChangedIt()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    // SOUL.md saved here, MEMORY.md written by another program.
    SlotPane *pane = window()->panes()->pane(slotIndex(u"SOUL.md"));
    window()->panes()->showPane(slotIndex(u"SOUL.md"));
    pane->editor()->setFocus();
    pane->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane->editor(), QStringLiteral("Be kind."));
    QTRY_VERIFY(window()->model()->slot(slotIndex(u"SOUL.md")).dirty);
    QVERIFY(window()->documents()->save(slotIndex(u"SOUL.md")));
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("MEMORY.md")), MemoryTwo));
    QTRY_COMPARE(window()->model()->slot(slotIndex(u"MEMORY.md")).diskBytes, MemoryTwo);
    prompter()->message = QString(); // cancel: only the proposal is looked at
    action("checkpoint")->trigger();
    QVERIFY(history()->savedHere(slotIndex(u"SOUL.md")));
    QVERIFY(!history()->savedHere(slotIndex(u"MEMORY.md")));
    QVERIFY2(prompter()->suggested.contains(QLatin1String("MEMORY.md +")),
             qPrintable(prompter()->suggested));
    QVERIFY2(prompter()->suggested.contains(QLatin1String("MEMORY.md +"))
                 && prompter()->suggested.endsWith(QLatin1String("(changed outside Soul Studio)")),
             qPrintable(prompter()->suggested));
    QVERIFY2(!prompter()
                  ->suggested.section(QLatin1String("; "), 0, 0)
                  .contains(QLatin1String("outside")),
             qPrintable(prompter()->suggested));
    QCOMPARE(m_git
                 ->git(dir,
                       {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s")})
                 .trimmed(),
             QByteArray("longer soul")); // cancelled: nothing committed
}

void tst_HistoryPanel::checkpointOnSave()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    QAction *onSave = action("checkpointOnSave");
    QVERIFY(!onSave->isChecked()); // off by default
    onSave->trigger();
    QVERIFY(history()->checkpointOnSave());
    SlotPane *pane = window()->panes()->pane(slotIndex(u"SOUL.md"));
    window()->panes()->showPane(slotIndex(u"SOUL.md"));
    pane->editor()->setFocus();
    pane->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane->editor(), QStringLiteral("Saved and kept."));
    QTRY_VERIFY(window()->model()->slot(slotIndex(u"SOUL.md")).dirty);
    QSignalSpy spy(history(), &HistoryController::checkpointMade);
    QVERIFY(window()->documents()->save(slotIndex(u"SOUL.md")));
    QVERIFY(spy.wait(10000));
    QVERIFY(!prompter()->asked.contains(QStringLiteral("checkpointMessage"))); // no question
    QVERIFY(m_git->git(dir, {QStringLiteral("show"), QStringLiteral("HEAD:SOUL.md")})
                .endsWith("Saved and kept."));
    // Remembered.
    m_fixture.reopen();
    QVERIFY(action("checkpointOnSave")->isChecked());
}

void tst_HistoryPanel::restoreIsUndoableAndUnsaved_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("SOUL.md at the first commit") << 2 << SoulOne;
    QTest::newRow("SOUL.md at HEAD, a no-op edit of an unchanged file") << 0 << SoulTwo;
}

void tst_HistoryPanel::restoreIsUndoableAndUnsaved()
{
    QFETCH(int, row);
    QFETCH(QByteArray, expected);
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    const QString path = QDir(dir).filePath(QStringLiteral("SOUL.md"));
    openWindow(dir);
    showHistory();
    const int slot = slotIndex(u"SOUL.md");
    window()->panes()->showPane(slot);
    SlotPane *pane = window()->panes()->pane(slot);
    panel()->selectRow(row);
    QTRY_VERIFY(panel()->fileChooser()->findData(slot) >= 0);
    panel()->fileChooser()->setCurrentIndex(panel()->fileChooser()->findData(slot));
    QPushButton *restore = panel()->findChild<QPushButton *>(QStringLiteral("historyRestoreFile"));
    QVERIFY(restore->isEnabled());
    QTest::mouseClick(restore, Qt::LeftButton);
    QCOMPARE(window()->model()->slot(slot).bufferBytes, expected);
    QCOMPARE(pane->editor()->toPlainText(), QString::fromUtf8(expected));
    QCOMPARE(window()->model()->slot(slot).dirty, expected != SoulTwo);
    QCOMPARE(test::readBytes(path), SoulTwo); // nothing written
    if (expected == SoulTwo)
        return;
    QVERIFY(pane->editor()->document()->isUndoAvailable());
    pane->editor()->undo();
    QTRY_COMPARE(window()->model()->slot(slot).bufferBytes, SoulTwo);
    QVERIFY(!window()->model()->slot(slot).dirty);
    QCOMPARE(test::readBytes(path), SoulTwo);
}

void tst_HistoryPanel::restoreAllLeavesDisk()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    const QMap<QString, QByteArray> tree = treeContents(dir);
    openWindow(dir);
    showHistory();
    // The first commit had SOUL.md alone: MEMORY.md is kept as it is.
    panel()->selectRow(2);
    QTRY_VERIFY(panel()->findChild<QPushButton *>(QStringLiteral("historyRestoreAll"))->isEnabled());
    QTest::mouseClick(panel()->findChild<QPushButton *>(QStringLiteral("historyRestoreAll")),
                      Qt::LeftButton);
    QCOMPARE(window()->model()->slot(slotIndex(u"SOUL.md")).bufferBytes, SoulOne);
    QCOMPARE(window()->model()->slot(slotIndex(u"MEMORY.md")).bufferBytes, Memory);
    QVERIFY(window()->model()->slot(slotIndex(u"MEMORY.md")).bufferPresent);
    QVERIFY(window()->model()->hasUnsaved());
    QVERIFY(prompter()->errors.isEmpty());
    QCOMPARE(treeContents(dir), tree);
    QVERIFY(window()->statusMessage()->text().contains(QLatin1String("MEMORY.md did not exist")));
}

void tst_HistoryPanel::restoreKeepsTheCommitsBytes()
{
    // A commit's CR LF file (and BOM) comes back as it was stored, not in the
    // line breaks of the file on disk now.
    const QString dir = m_fixture.filePath(QStringLiteral("crlf"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(!m_git->git(dir, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
    const QString path = QDir(dir).filePath(QStringLiteral("SOUL.md"));
    const QByteArray old = "\xEF\xBB\xBFYou are Kip.\r\nYou are terse.\r\n";
    QVERIFY(test::writeBytes(path, old));
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("crlf")).isEmpty());
    QVERIFY(test::writeBytes(path, SoulTwo));
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("lf")).isEmpty());
    openWindow(dir);
    showHistory();
    const int slot = slotIndex(u"SOUL.md");
    window()->panes()->showPane(slot);
    QVERIFY(history()->restoreFile(1, slot));
    QCOMPARE(window()->model()->slot(slot).bufferBytes, old);
    QVERIFY(window()->model()->slot(slot).dirty);
    QCOMPARE(window()->panes()->pane(slot)->editor()->toPlainText(),
             QStringLiteral("You are Kip.\nYou are terse.\n"));
    QCOMPARE(test::readBytes(path), SoulTwo);
    // Saved, the file holds the commit's bytes.
    QVERIFY(window()->documents()->save(slot));
    QCOMPARE(test::readBytes(path), old);
}

void tst_HistoryPanel::timelineHitTesting_data()
{
    QTest::addColumn<int>("commits");
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("allDrawn");
    QTest::newRow("wide bars") << 6 << 400 << true;
    QTest::newRow("more commits than pixels") << 40 << 100 << false;
}

void tst_HistoryPanel::timelineHitTesting()
{
    QFETCH(int, commits);
    QFETCH(int, width);
    QFETCH(bool, allDrawn);
    const QString dir = m_fixture.filePath(QStringLiteral("many"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(!m_git->git(dir, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
    for (int n = 0; n < commits; ++n) {
        QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("MEMORY.md")),
                                 QByteArray("- fact\n").repeated(n + 1)));
        QVERIFY(!m_git->commitAll(dir, QStringLiteral("commit %1").arg(n)).isEmpty());
    }
    openWindow(dir);
    showHistory();
    QTRY_COMPARE(history()->rows()->measured(), commits);
    HistoryTimeline *timeline = panel()->timeline();
    // Tall enough for the legend, which wraps at a narrow width.
    timeline->setFixedSize(width, 360);
    QTRY_COMPARE(timeline->width(), width);
    int hit = 0;
    int middle = -1; // the plot's middle line
    for (int row = 0; row < commits; ++row) {
        const QPoint point = timeline->pointOf(row);
        if (point.isNull())
            continue; // drawn under another commit's column
        ++hit;
        middle = point.y();
        QCOMPARE(timeline->rowAt(point), row);
        QTest::mouseClick(timeline, Qt::LeftButton, {}, point);
        QCOMPARE(panel()->selectedRow(), row);
        QCOMPARE(timeline->selectedRow(), row);
    }
    QVERIFY(hit > commits / 2);
    QCOMPARE(hit == commits, allDrawn);
    // Every column of the plot selects some commit, in order: oldest on the left.
    int last = commits;
    for (int x = 0; x < timeline->width(); ++x) {
        const int row = timeline->rowAt(QPoint(x, middle));
        if (row < 0)
            continue;
        QVERIFY(row <= last);
        last = row;
    }
    QCOMPARE(last, 0);
    // The keys: Home the oldest, Right a newer one, End the newest.
    QTest::keyClick(timeline, Qt::Key_Home);
    QCOMPARE(panel()->selectedRow(), commits - 1);
    QTest::keyClick(timeline, Qt::Key_Right);
    QCOMPARE(panel()->selectedRow(), commits - 2);
    QTest::keyClick(timeline, Qt::Key_Left);
    QCOMPARE(panel()->selectedRow(), commits - 1);
    QTest::keyClick(timeline, Qt::Key_End);
    QCOMPARE(panel()->selectedRow(), 0);
    QCOMPARE(timeline->rowAt(QPoint(2, middle)), -1);    // the axis
    QCOMPARE(timeline->rowAt(QPoint(width / 2, 1)), -1); // the legend
}

void tst_HistoryPanel::changedSinceCheckpoint()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    // Another program (the agent) writes MEMORY.md: its pane says so, with
    // the panel hidden too.
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("MEMORY.md")), MemoryTwo));
    const QLabel *note = window()->panes()->pane(slotIndex(u"MEMORY.md"))->checkpointNote();
    QTRY_VERIFY(note->isVisible());
    QVERIFY2(note->text().contains(QLatin1String("by something other than Soul Studio")),
             qPrintable(note->text()));
    QVERIFY(!window()->panes()->pane(slotIndex(u"SOUL.md"))->checkpointNote()->isVisible());
    QVERIFY(!history()->dock()->isVisible());
    showHistory();
    QTRY_COMPARE(history()->changedSinceCheckpoint(), QList<int>{slotIndex(u"MEMORY.md")});
    QVERIFY(panel()->changedLabel()->isVisible());
    QVERIFY2(panel()->changedLabel()->text().contains(
                 QLatin1String("MEMORY.md</a> (changed outside Soul Studio)")),
             qPrintable(panel()->changedLabel()->text()));
    history()->diffWithCheckpoint(slotIndex(u"MEMORY.md"));
    QCOMPARE(prompter()->diffs.size(), 1);
    QVERIFY2(prompter()->diffs.first().contains(QLatin1String("+- works late")),
             qPrintable(prompter()->diffs.first()));
    // A checkpoint takes it in.
    prompter()->message = QStringLiteral("agent memory");
    action("checkpoint")->trigger();
    QTRY_VERIFY(history()->changedSinceCheckpoint().isEmpty());
    QTRY_VERIFY(!panel()->changedLabel()->isVisible());
    QVERIFY(!note->isVisible());
}

void tst_HistoryPanel::compareWithCommit()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    const QMap<QString, QByteArray> tree = treeContents(dir);
    openWindow(dir);
    showHistory();
    panel()->selectRow(2);
    QPushButton *compare = panel()->findChild<QPushButton *>(QStringLiteral("historyCompare"));
    QTRY_VERIFY(compare->isEnabled());
    QTest::mouseClick(compare, Qt::LeftButton);
    QTRY_VERIFY(window()->compareDialog() && window()->compareDialog()->isVisible());
    QVERIFY(prompter()->errors.isEmpty());
    QCOMPARE(treeContents(dir), tree); // nothing written in the persona
}

void tst_HistoryPanel::compareTwoCommits_data()
{
    QTest::addColumn<QString>("runtime");
    QTest::newRow("toolnexus") << QStringLiteral("toolnexus");
    QTest::newRow("openclaw") << QStringLiteral("openclaw");
}

// Two rows selected, Compare These Two: for toolnexus what `soulc diff --rev
// OLDER --rev NEWER` prints; for another runtime the diff of what it injects.
void tst_HistoryPanel::compareTwoCommits()
{
    QFETCH(QString, runtime);
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    QComboBox *chooser = window()->previewPanel()->runtimeChooser();
    chooser->setCurrentIndex(chooser->findData(runtime));
    showHistory();
    const QList<HistoryCommit> log = coreLog(dir);
    QCOMPARE(log.size(), 3);
    QPushButton *compareTwo = panel()->findChild<QPushButton *>(
        QStringLiteral("historyCompareTwo"));
    panel()->selectRow(0);
    QVERIFY(!compareTwo->isEnabled());
    auto *list = panel()->findChild<QTreeView *>(QStringLiteral("historyList"));
    list->selectionModel()->select(history()->rows()->index(2, 0),
                                   QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(panel()->selectedRows(), (QList<int>{0, 2}));
    QVERIFY(compareTwo->isEnabled());
    QTest::mouseClick(compareTwo, Qt::LeftButton);
    QTRY_COMPARE(prompter()->diffs.size(), 1);
    QVERIFY(prompter()->errors.isEmpty());
    const QString diff = prompter()->diffs.first();
    if (runtime == QLatin1String("toolnexus")) {
        QProcess soulc;
        soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                    {QStringLiteral("diff"),
                     QStringLiteral("--rev"),
                     QString::fromLatin1(log.at(2).id),
                     QStringLiteral("--rev"),
                     QString::fromLatin1(log.at(0).id),
                     QStringLiteral("--encoding"),
                     QStringLiteral("o200k_base"),
                     dir});
        QVERIFY(soulc.waitForFinished(30000));
        QCOMPARE(soulc.exitCode(), 1); // they differ
        QCOMPARE(diff, QString::fromUtf8(soulc.readAllStandardOutput()));
    } else {
        // The oldest had SOUL.md alone, the newest the longer SOUL.md and a memory.
        QVERIFY2(diff.contains(QLatin1String("+You answer in plain words.")), qPrintable(diff));
        QVERIFY2(diff.contains(QLatin1String("+- prefers metric units")), qPrintable(diff));
    }
}

void tst_HistoryPanel::panelIsRemembered()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    QVERIFY(!history()->dock()->isVisible()); // hidden the first time
    showHistory();
    m_fixture.reopen();
    QVERIFY(history()->dock()->isVisible());
    QVERIFY(action("showHistory")->isChecked());
    action("showHistory")->trigger();
    QVERIFY(!history()->dock()->isVisible());
    m_fixture.reopen();
    QVERIFY(!history()->dock()->isVisible());
    // A window destroyed without closing (the benchmark's, a crash handler's)
    // hides the dock after its settings are gone: nothing is written then.
    {
        MainWindow window(m_fixture.options());
        window.show();
        window.findChild<QAction *>(QStringLiteral("showHistory"))->trigger();
        QVERIFY(window.history()->dock()->isVisible());
    }
    m_fixture.reopen();
    QVERIFY(history()->dock()->isVisible());
}

// The author or the agent commits from a shell while the window is open:
// the list and the panes' notes follow by themselves, for a commit, a new
// branch, a reset, with the panel shown or hidden.
void tst_HistoryPanel::followsCommitsMadeOutside()
{
    const QString dir = makeHistory(QString());
    QVERIFY(!dir.isEmpty());
    openWindow(dir);
    showHistory();
    const HistoryListModel *rows = history()->rows();
    QCOMPARE(rows->count(), 3);
    // HEAD as the window opened it is read on a worker; from then on the
    // repository is watched (its HEAD and the branch's folder among others).
    const RepositoryWatcher *watcher = history()->repositoryWatcher();
    QTRY_VERIFY(!watcher->watchedPaths().isEmpty());
    const QString git = QDir(dir).filePath(QStringLiteral(".git"));
    QVERIFY2(watcher->watchedPaths().contains(QDir(git).filePath(QStringLiteral("HEAD")))
                 && watcher->watchedPaths().contains(
                     QDir(git).filePath(QStringLiteral("refs/heads"))),
             qPrintable(watcher->watchedPaths().join(QLatin1Char(' '))));
    const QSignalSpy moved(watcher, &RepositoryWatcher::headChanged);

    // The agent writes its memory, and the pane says so...
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("MEMORY.md")), MemoryTwo));
    const QLabel *note = window()->panes()->pane(slotIndex(u"MEMORY.md"))->checkpointNote();
    QTRY_VERIFY(note->isVisible());
    // ...then commits it with git: a new first row, and nothing changed since
    // it. The commit the author was looking at stays selected.
    panel()->selectRow(1);
    const QByteArray looking = rows->commit(1).id;
    QTRY_VERIFY(!panel()->soulView()->toPlainText().isEmpty());
    const QString soulThen = panel()->soulView()->toPlainText();
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("agent: late nights")).isEmpty());
    QTRY_COMPARE(rows->count(), 4);
    QTRY_COMPARE(panel()->selectedRow(), 2);
    QCOMPARE(rows->commit(2).id, looking);
    QTRY_COMPARE(panel()->soulView()->toPlainText(), soulThen);
    QCOMPARE(rows->commit(0).summary, QStringLiteral("agent: late nights"));
    QCOMPARE(rows->commit(0).id, m_git->revParse(dir, QStringLiteral("HEAD")));
    QTRY_VERIFY(!note->isVisible());
    QTRY_VERIFY(history()->changedSinceCheckpoint().isEmpty());
    QTRY_COMPARE(rows->measured(), 4);
    QCOMPARE(moved.count(), 1);

    // A branch of its own, committed on: the watch follows HEAD to it.
    QVERIFY(!m_git
                 ->git(dir,
                       {QStringLiteral("checkout"),
                        QStringLiteral("-q"),
                        QStringLiteral("-b"),
                        QStringLiteral("agent/work")})
                 .isNull());
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("SOUL.md")), SoulOne));
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("agent: shorter soul")).isEmpty());
    QTRY_COMPARE(rows->count(), 5);
    QCOMPARE(rows->commit(0).summary, QStringLiteral("agent: shorter soul"));
    QTRY_VERIFY(watcher->watchedPaths().contains(
        QDir(git).filePath(QStringLiteral("refs/heads/agent/work"))));

    // A reset takes commits off the list.
    QVERIFY(!m_git
                 ->git(dir,
                       {QStringLiteral("reset"),
                        QStringLiteral("-q"),
                        QStringLiteral("--hard"),
                        QStringLiteral("HEAD~2")})
                 .isNull());
    QTRY_COMPARE(rows->count(), 3);
    QCOMPARE(rows->commit(0).summary, QStringLiteral("longer soul"));

    // With the panel hidden, the notes still follow; the list is read when
    // the panel is shown again.
    action("showHistory")->trigger();
    QVERIFY(!history()->dock()->isVisible());
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("MEMORY.md")), MemoryTwo));
    QTRY_VERIFY(note->isVisible());
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("agent: late nights again")).isEmpty());
    QTRY_VERIFY(!note->isVisible());
    QCOMPARE(rows->count(), 3);
    showHistory();
    QTRY_COMPARE(rows->count(), 4);
    QCOMPARE(rows->commit(0).summary, QStringLiteral("agent: late nights again"));

    // A checkpoint made here is not news to the watcher: one reload, not two.
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("SOUL.md")), SoulOne));
    QTRY_VERIFY(!history()->changedSinceCheckpoint().isEmpty());
    const int before = moved.count();
    prompter()->message = QStringLiteral("a shorter soul");
    QVERIFY(history()->checkpoint());
    QTRY_COMPARE(rows->count(), 5);
    QTRY_VERIFY(history()->changedSinceCheckpoint().isEmpty());
    // The watcher read HEAD after the checkpoint's own writes, and found it
    // where the window had put it.
    QTRY_VERIFY(!watcher->isReading());
    QCOMPARE(moved.count(), before);
    QVERIFY(prompter()->errors.isEmpty());
}

// OpenClaw's repository: made with git init, never committed to. The
// first commit from a shell creates the branch the window was waiting for.
void tst_HistoryPanel::followsFirstCommitMadeOutside()
{
    const QString dir = m_fixture.filePath(QStringLiteral("repo"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(!m_git->git(dir, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("SOUL.md")), SoulOne));
    openWindow(dir);
    showHistory();
    QCOMPARE(history()->loader()->status(), HistoryStatus::Empty);
    QTRY_VERIFY(!history()->repositoryWatcher()->watchedPaths().isEmpty());
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("agent: first soul")).isEmpty());
    QTRY_COMPARE(history()->loader()->status(), HistoryStatus::Ready);
    QTRY_COMPARE(history()->rows()->count(), 1);
    QCOMPARE(history()->rows()->commit(0).summary, QStringLiteral("agent: first soul"));
    // The branch's file exists now, and is watched for the next commit.
    QTRY_VERIFY(history()->repositoryWatcher()->watchedPaths().contains(
        QDir(dir).filePath(QStringLiteral(".git/refs/heads/main"))));
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("SOUL.md")), SoulTwo));
    QVERIFY(!m_git->commitAll(dir, QStringLiteral("agent: longer soul")).isEmpty());
    QTRY_COMPARE(history()->rows()->count(), 2);
}

QTEST_MAIN(tst_HistoryPanel)
#include "tst_historypanel.moc"
