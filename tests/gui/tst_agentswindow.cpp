#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "compare/comparedialog.h"
#include "comparecontroller.h"
#include "compose/contract.h"
#include "disk/recoverystore.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "preview/previewpanel.h"
#include "runtimepreview.h"
#include "slots/panestack.h"
#include "slots/recoverybar.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/agentssidebar.h"
#include "window/personaeditor.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <utility>

using namespace soul;
using namespace soul::guitest;

namespace {

// Records the questions the tests look at.
class AgentsPrompter : public QuietPrompter
{
public:
    QList<QStringList> askedUnsaved;
    UnsavedAnswer unsavedAnswer = UnsavedAnswer::Discard;
    QStringList errors;
    QString openDirectory;

    UnsavedAnswer askUnsaved(const QStringList &files) override
    {
        askedUnsaved.append(files);
        return unsavedAnswer;
    }
    void showError(const QString &title, const QString &text) override
    {
        errors.append(title + QStringLiteral(": ") + text);
    }
    QString askOpenDirectory(const QString &) override { return openDirectory; }
};

// Writes `path`, making its folder first.
void writeFile(const QString &path, const QByteArray &bytes)
{
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY2(test::writeFile(path, bytes), qPrintable(path));
}

const int Soul = slotIndex(u"SOUL.md");
const int User = slotIndex(u"USER.md");

} // namespace

// The window on OpenClaw's agents and on a folder of personas: one session
// per agent, the sidebar, switching, closing, recovery, copy and compare.
class tst_AgentsWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void opensEveryAgent();
    void missingWorkspaceSaysSo();
    void switchingKeepsTextAndUndo();
    void closeAsksOnceForAllByName();
    void closeWithSaveAllSavesEveryAgent();
    void crashRestoresEveryAgent();
    void copySlotToAgentsIsUnsavedAndUndoable();
    void compareWithAnotherAgent();
    void identicalSlotSaysInWhichAgents();
    void identicalSlotNamesFourThenCounts();
    void folderOfPersonas();
    void badConfigNamesTheFile();

private:
    // The state dir's five agents, opened in the window.
    void openAgents();
    int indexOf(const QString &id) const;
    QPlainTextEdit *editorOf(const QString &id, int slot) const;
    QString workspace(const QString &id) const { return m_workspaces.value(id); }

    TestWindow<AgentsPrompter> m_fixture;
    QString m_state;
    QMap<QString, QString> m_workspaces;
};

void tst_AgentsWindow::init()
{
    m_fixture.init();
    m_state = m_fixture.filePath(QStringLiteral("state"));
    // Five agents: work is the default, coach has budgets of its own, ghost
    // has no workspace folder.
    writeFile(m_state + QStringLiteral("/openclaw.json"),
              "// the roster\n"
              "{ agents: { ownership: 'explicit',\n"
              "  defaults: { systemAgent: { agentId: 'work' } },\n"
              "  entries: { work: {}, coach: { bootstrapMaxChars: 8000, "
              "bootstrapTotalMaxChars: 30000 },\n"
              "             ops: {}, ghost: {}, writer: {}, }, }, }\n");
    for (const char *name :
         {"OPENCLAW_CONFIG_PATH", "OPENCLAW_PROFILE", "OPENCLAW_WORKSPACE_DIR", "OPENCLAW_HOME"})
        qunsetenv(name);
    qputenv("OPENCLAW_STATE_DIR", m_state.toUtf8());
    const Result<OpenClawRoster> roster = readOpenClawRoster(OpenClawPaths::system());
    QVERIFY2(roster.ok(), qPrintable(roster.error()));
    m_workspaces.clear();
    for (const OpenClawAgent &agent : roster.value().agents)
        m_workspaces.insert(agent.id, agent.workspace);
    QCOMPARE(m_workspaces.size(), 5);
    for (const QString &id : m_workspaces.keys()) {
        if (id == QLatin1String("ghost"))
            continue;
        writeFile(workspace(id) + QStringLiteral("/SOUL.md"), "You are " + id.toUtf8() + ".\n");
        writeFile(workspace(id) + QStringLiteral("/USER.md"), "The user is Sam.\n");
        writeFile(workspace(id) + QStringLiteral("/IDENTITY.md"),
                  "- **Name:** " + id.toUpper().toUtf8() + "\n");
    }
}

void tst_AgentsWindow::cleanup()
{
    m_fixture.cleanup();
    qunsetenv("OPENCLAW_STATE_DIR");
}

void tst_AgentsWindow::openAgents()
{
    m_fixture.create();
    QVERIFY(m_fixture.window()->openOpenClawAgents());
    QCOMPARE(m_fixture.window()->sessionCount(), 5);
}

int tst_AgentsWindow::indexOf(const QString &id) const
{
    MainWindow *window = m_fixture.window();
    for (int i = 0; i < window->sessionCount(); ++i) {
        if (window->session(i)->agent().id == id)
            return i;
    }
    return -1;
}

QPlainTextEdit *tst_AgentsWindow::editorOf(const QString &id, int slot) const
{
    return m_fixture.window()->editor(indexOf(id))->panes()->pane(slot)->editor();
}

void tst_AgentsWindow::opensEveryAgent()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    QVERIFY(window->sidebar()->isVisible());
    QCOMPARE(window->sidebar()->list()->count(), 5);
    // The default agent is shown first.
    QCOMPARE(window->currentSession()->agent().id, QStringLiteral("work"));
    QVERIFY(window->currentSession()->agent().isDefault);
    for (const QString &id : {QStringLiteral("work"),
                              QStringLiteral("coach"),
                              QStringLiteral("ops"),
                              QStringLiteral("writer")}) {
        PersonaSession *s = window->session(indexOf(id));
        QVERIFY2(s->model()->isOpen(), qPrintable(id));
        QCOMPARE(s->directory(), QFileInfo(workspace(id)).absoluteFilePath());
        QCOMPARE(s->model()->slot(Soul).bufferBytes, "You are " + id.toUtf8() + ".\n");
    }
    // Each row names the agent, IDENTITY.md's name and the soul's size.
    const int coach = indexOf(QStringLiteral("coach"));
    QTRY_VERIFY(
        window->sidebar()->list()->item(coach)->text().startsWith(QStringLiteral("coach — COACH")));
    QTRY_VERIFY2(window->sidebar()->list()->item(coach)->text().contains(QStringLiteral(" tokens")),
                 qPrintable(window->sidebar()->list()->item(coach)->text()));
    // coach's own budgets, and where they came from.
    QVERIFY2(window->sidebar()->list()->item(coach)->text().contains(QStringLiteral("/30,000")),
             qPrintable(window->sidebar()->list()->item(coach)->text()));
    QVERIFY(window->sidebar()->list()->item(coach)->toolTip().contains(
        QStringLiteral("agents.entries.coach")));
    const int work = indexOf(QStringLiteral("work"));
    QVERIFY2(window->sidebar()->list()->item(work)->text().contains(QStringLiteral("/60,000")),
             qPrintable(window->sidebar()->list()->item(work)->text()));
    window->setCurrentIndex(coach);
    const OpenClawSettings settings = OpenClawSettings::from(
        window->currentSession()->runtimePreview()->settingsFor(QStringLiteral("openclaw")));
    QCOMPARE(settings.maxChars(), 8000);
    QCOMPARE(settings.totalMaxChars(), 30000);
}

void tst_AgentsWindow::missingWorkspaceSaysSo()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    const int ghost = indexOf(QStringLiteral("ghost"));
    QVERIFY(!window->session(ghost)->model()->isOpen());
    QTRY_VERIFY(window->sidebar()->list()->item(ghost)->text().contains(
        QStringLiteral("no workspace folder")));
    window->sidebar()->list()->setCurrentRow(ghost);
    QCOMPARE(window->currentIndex(), ghost);
    auto *missing = window->findChild<QLabel *>(QStringLiteral("missingWorkspace"));
    QVERIFY(missing);
    QTRY_VERIFY(missing->isVisible());
    QVERIFY(missing->text().contains(QDir::toNativeSeparators(workspace(QStringLiteral("ghost")))));
    QVERIFY(!m_fixture.action("save")->isEnabled());
    // It can be closed like any agent.
    QVERIFY(m_fixture.action("closeFolder")->isEnabled());
    // The others are still there.
    window->sidebar()->list()->setCurrentRow(indexOf(QStringLiteral("ops")));
    QTRY_VERIFY(window->currentEditor()->isVisible());
    QVERIFY(!missing->isVisible());

    // Once the folder is made, choosing the agent again opens it.
    writeFile(workspace(QStringLiteral("ghost")) + QStringLiteral("/SOUL.md"), "Boo.\n");
    window->sidebar()->list()->setCurrentRow(ghost);
    QVERIFY(window->session(ghost)->model()->isOpen());
    QTRY_VERIFY(window->currentEditor()->isVisible());
    QVERIFY(!missing->isVisible());
    QCOMPARE(window->model()->slot(Soul).bufferBytes, QByteArray("Boo.\n"));
    QTRY_VERIFY(window->sidebar()->list()->item(ghost)->text().contains(QStringLiteral(" tokens")));
    QVERIFY(!window->sidebar()->list()->item(ghost)->text().contains(
        QStringLiteral("no workspace folder")));
    // Open Folder on an agent's workspace shows that agent, not a second one.
    const int count = window->sessionCount();
    window->setCurrentIndex(indexOf(QStringLiteral("ops")));
    window->start(workspace(QStringLiteral("ghost")));
    QCOMPARE(window->sessionCount(), count);
    QCOMPARE(window->currentIndex(), ghost);
}

void tst_AgentsWindow::switchingKeepsTextAndUndo()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    window->setCurrentIndex(indexOf(QStringLiteral("work")));
    QPlainTextEdit *workSoul = editorOf(QStringLiteral("work"), Soul);
    window->panes()->showPane(Soul);
    workSoul->setFocus();
    workSoul->moveCursor(QTextCursor::End);
    QTest::keyClicks(workSoul, QStringLiteral("Be brief."));
    QVERIFY(window->model()->slot(Soul).dirty);
    workSoul->moveCursor(QTextCursor::Start);
    const int workCursor = workSoul->textCursor().position();

    // Ctrl+PgDown goes to the next agent: coach.
    m_fixture.action("nextAgent")->trigger();
    QCOMPARE(window->currentSession()->agent().id, QStringLiteral("coach"));
    QPlainTextEdit *coachUser = editorOf(QStringLiteral("coach"), User);
    window->panes()->showPane(User);
    coachUser->setFocus();
    coachUser->moveCursor(QTextCursor::End);
    QTest::keyClicks(coachUser, QStringLiteral("Sam likes tea."));

    m_fixture.action("previousAgent")->trigger();
    QCOMPARE(window->currentSession()->agent().id, QStringLiteral("work"));
    QCOMPARE(window->currentEditor()->panes()->pane(Soul)->editor(), workSoul);
    QVERIFY(workSoul->toPlainText().endsWith(QStringLiteral("Be brief.")));
    QCOMPARE(workSoul->textCursor().position(), workCursor);
    QVERIFY(workSoul->document()->isUndoAvailable());
    // Each agent's row says it holds unsaved text.
    for (const QString &id : {QStringLiteral("work"), QStringLiteral("coach")}) {
        QTRY_VERIFY2(
            window->sidebar()->list()->item(indexOf(id))->text().contains(QStringLiteral("●")),
            qPrintable(id));
    }
    QVERIFY(!window->sidebar()
                 ->list()
                 ->item(indexOf(QStringLiteral("ops")))
                 ->text()
                 .contains(QStringLiteral("●")));
    QVERIFY(window->isWindowModified());

    // Edit > Undo, after the switch back, takes back work's typing only.
    QApplication::setActiveWindow(window);
    workSoul->setFocus();
    QTRY_COMPARE(window->currentEditor()->currentSlot(), Soul);
    QAction *undo = m_fixture.action("undo");
    for (int i = 0; i < 100 && workSoul->document()->isUndoAvailable(); ++i) {
        QVERIFY(undo->isEnabled());
        undo->trigger();
    }
    QCOMPARE(workSoul->toPlainText(), QStringLiteral("You are work.\n"));
    QTRY_VERIFY(!window->session(indexOf(QStringLiteral("work")))->hasUnsaved());
    QVERIFY(window->session(indexOf(QStringLiteral("coach")))->hasUnsaved());
    QVERIFY(coachUser->toPlainText().endsWith(QStringLiteral("Sam likes tea.")));
    // Nothing was written.
    QCOMPARE(readAll(workspace(QStringLiteral("coach")) + QStringLiteral("/USER.md")),
             QByteArray("The user is Sam.\n"));
}

void tst_AgentsWindow::closeAsksOnceForAllByName()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    window->session(indexOf(QStringLiteral("work")))->model()->setBufferText(Soul, u"changed");
    window->session(indexOf(QStringLiteral("writer")))->model()->setBufferText(User, u"changed");
    AgentsPrompter *prompter = m_fixture.prompter();
    QVERIFY(window->close());
    QCOMPARE(prompter->askedUnsaved.size(), 1);
    QCOMPARE(prompter->askedUnsaved.first(),
             QStringList({QStringLiteral("work: SOUL.md"), QStringLiteral("writer: USER.md")}));
    // Discarded: the files are as they were.
    QCOMPARE(readAll(workspace(QStringLiteral("work")) + QStringLiteral("/SOUL.md")),
             QByteArray("You are work.\n"));
    QCOMPARE(readAll(workspace(QStringLiteral("writer")) + QStringLiteral("/USER.md")),
             QByteArray("The user is Sam.\n"));
}

void tst_AgentsWindow::closeWithSaveAllSavesEveryAgent()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    window->session(indexOf(QStringLiteral("work")))->model()->setBufferText(Soul, u"Saved work.");
    window->session(indexOf(QStringLiteral("ops")))->model()->setBufferText(User, u"Saved ops.");
    m_fixture.prompter()->unsavedAnswer = Prompter::UnsavedAnswer::SaveAll;
    QVERIFY(window->close());
    QCOMPARE(readAll(workspace(QStringLiteral("work")) + QStringLiteral("/SOUL.md")),
             QByteArray("Saved work."));
    QCOMPARE(readAll(workspace(QStringLiteral("ops")) + QStringLiteral("/USER.md")),
             QByteArray("Saved ops."));
    // Only what was edited was written.
    QCOMPARE(readAll(workspace(QStringLiteral("coach")) + QStringLiteral("/SOUL.md")),
             QByteArray("You are coach.\n"));
}

// The real program on the roster, killed with SIGKILL while work and coach
// hold unsaved text; the window opened on the roster again offers each its
// own text, byte for byte, and no file was written.
void tst_AgentsWindow::crashRestoresEveryAgent()
{
    // soulstudio's names and a data folder of this test's own, in this
    // process and the child alike, so both find the same recovery copies.
    const QString organization = QCoreApplication::organizationName();
    const QString application = QCoreApplication::applicationName();
    const QByteArray dataHome = qgetenv("XDG_DATA_HOME");
    const QByteArray configHome = qgetenv("XDG_CONFIG_HOME");
    const auto restore = qScopeGuard([&] {
        QCoreApplication::setOrganizationName(organization);
        QCoreApplication::setApplicationName(application);
        for (const auto &[name, value] :
             {std::pair{"XDG_DATA_HOME", dataHome}, std::pair{"XDG_CONFIG_HOME", configHome}}) {
            if (value.isEmpty())
                qunsetenv(name);
            else
                qputenv(name, value);
        }
    });
    QCoreApplication::setOrganizationName(QStringLiteral("SoulStudio"));
    QCoreApplication::setApplicationName(QStringLiteral("soulstudio"));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_fixture.filePath(QStringLiteral("data"))));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_fixture.filePath(QStringLiteral("config"))));
    QVERIFY(RecoveryStore::rootPath().startsWith(m_fixture.dir()));

    const QByteArray workText = "You are work.\nUnsaved in work: \xc3\xbcn\xc3\xaf"
                                "code \xe2\x9c\x93\n";
    const QByteArray coachText = "The user is Sam.\nUnsaved in coach.\n";
    QMap<QString, QByteArray> before;
    for (const QString &id : m_workspaces.keys())
        before.insert(treeContents(workspace(id)));

    QByteArray output;
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(&child, &QProcess::readyReadStandardOutput, &child, [&] {
        output += child.readAllStandardOutput();
    });
    child.start(QStringLiteral(SOUL_BIN_DIR "/soulstudio"),
                {QStringLiteral("--agents"), QStringLiteral("--test-stdin")});
    QVERIFY2(child.waitForStarted(60000), qPrintable(child.errorString()));
    const auto command = [&](const QByteArray &line) {
        child.write(line + '\n');
        return QTest::qWaitFor([&] { return output.contains("soulstudio: done " + line); }, 60000);
    };
    // The pane's text, as the test command types it ("\n" for a line break).
    const auto typed = [](QByteArray bytes) { return bytes.replace('\n', "\\n"); };
    QVERIFY2(command("agent work"), output.constData());
    QVERIFY2(command("edit SOUL.md " + typed(workText)), output.constData());
    QVERIFY2(command("agent coach"), output.constData());
    QVERIFY2(command("edit USER.md " + typed(coachText)), output.constData());
    // Each agent's own recovery timer writes its copy.
    const auto kept = [](const QString &dir) {
        const QList<RecoveredSlot> pending = RecoveryStore(dir).pending();
        return pending.size() == 1 ? pending.first() : RecoveredSlot();
    };
    QTRY_COMPARE_WITH_TIMEOUT(kept(workspace(QStringLiteral("work"))).bytes, workText, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(kept(workspace(QStringLiteral("coach"))).bytes, coachText, 60000);
    child.kill(); // SIGKILL: no handler, no destructor, no flush, as a crash
    QVERIFY(child.waitForFinished(60000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    m_fixture.create();
    MainWindow *window = m_fixture.window();
    QVERIFY(window->openOpenClawAgents());
    const QList<std::pair<QString, std::pair<int, QByteArray>>> offers
        = {{QStringLiteral("work"), {Soul, workText}}, {QStringLiteral("coach"), {User, coachText}}};
    for (const auto &[id, offer] : offers) {
        const auto &[slot, bytes] = offer;
        window->setCurrentIndex(indexOf(id));
        PersonaModel *model = window->session(indexOf(id))->model();
        QVERIFY2(model->recoveryUnavailable().isEmpty(), qPrintable(model->recoveryUnavailable()));
        QVERIFY(model->hasRecovery(slot));
        QCOMPARE(model->recovery(slot)->bytes, bytes);
        QVERIFY(!model->hasUnsaved());
        SlotPane *pane = window->panes()->pane(slot);
        QVERIFY(pane->recoveryBar()->isVisible());
        QVERIFY2(pane->recoveryBar()->message().startsWith(
                     QStringLiteral("Unsaved text of %1 from ").arg(slotName(slot))),
                 qPrintable(pane->recoveryBar()->message()));
        QTest::mouseClick(pane->recoveryBar()->restoreButton(), Qt::LeftButton);
        QVERIFY(!pane->recoveryBar()->isVisible());
        QCOMPARE(model->slot(slot).bufferBytes, bytes);
        QCOMPARE(pane->editor()->toPlainText().toUtf8(), bytes);
        QVERIFY(model->slot(slot).dirty);
    }
    // Only work and coach had text to restore.
    for (const QString &id : {QStringLiteral("ops"), QStringLiteral("writer")}) {
        for (int k = 0; k < SlotCount; ++k)
            QVERIFY(!window->session(indexOf(id))->model()->hasRecovery(k));
    }
    // Nothing was written: not by the crash, not by restoring.
    QMap<QString, QByteArray> after;
    for (const QString &id : m_workspaces.keys())
        after.insert(treeContents(workspace(id)));
    QCOMPARE(after, before);
}

void tst_AgentsWindow::copySlotToAgentsIsUnsavedAndUndoable()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    const int work = indexOf(QStringLiteral("work"));
    const int coach = indexOf(QStringLiteral("coach"));
    const int ops = indexOf(QStringLiteral("ops"));
    window->setCurrentIndex(work);
    window->model()->setBufferText(Soul, u"Shared soul.\n");
    window->copySlotToAgents(Soul, {coach, ops});
    for (int target : {coach, ops}) {
        PersonaModel *model = window->session(target)->model();
        QCOMPARE(model->slot(Soul).bufferBytes, QByteArray("Shared soul.\n"));
        QVERIFY(model->slot(Soul).dirty);
    }
    QVERIFY(!window->session(indexOf(QStringLiteral("writer")))->hasUnsaved());
    QCOMPARE(readAll(workspace(QStringLiteral("coach")) + QStringLiteral("/SOUL.md")),
             QByteArray("You are coach.\n"));
    // Coach's pane, not shown, lays out nothing; shown, it holds the copied
    // text, and Undo there brings its own text back.
    QPlainTextEdit *coachSoul = editorOf(QStringLiteral("coach"), Soul);
    QCOMPARE(coachSoul->toPlainText(), QStringLiteral("You are coach.\n"));
    window->setCurrentIndex(coach);
    QTRY_COMPARE(coachSoul->toPlainText(), QStringLiteral("Shared soul.\n"));
    QVERIFY(coachSoul->document()->isUndoAvailable());
    coachSoul->undo();
    QTRY_COMPARE(window->session(coach)->model()->slot(Soul).bufferBytes,
                 QByteArray("You are coach.\n"));
}

void tst_AgentsWindow::compareWithAnotherAgent()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    window->setCurrentIndex(indexOf(QStringLiteral("work")));
    window->compareWithAgent(indexOf(QStringLiteral("ops")));
    QVERIFY(window->compareDialog());
    CompareController *controller = window->compareDialog()->controller();
    QVERIFY2(controller->error().isEmpty(), qPrintable(controller->error()));
    QTRY_VERIFY(controller->current());
    // Only SOUL.md and IDENTITY.md differ: USER.md is the same in both.
    // The other agent stands where a snapshot would; this one is live.
    QTRY_VERIFY2(controller->diffHtml().contains(QStringLiteral("<h3>SOUL.md — changed</h3>")),
                 qPrintable(controller->diffHtml()));
    QVERIFY(controller->diffHtml().contains(QStringLiteral("class=\"delw\">ops<")));
    QVERIFY(controller->diffHtml().contains(QStringLiteral("class=\"addw\">work<")));
    QVERIFY(controller->diffHtml().contains(QStringLiteral("<h3>IDENTITY.md — changed</h3>")));
    QVERIFY(!controller->diffHtml().contains(QStringLiteral("USER.md")));
}

void tst_AgentsWindow::identicalSlotSaysInWhichAgents()
{
    openAgents();
    MainWindow *window = m_fixture.window();
    const auto noteOf = [&](const QString &id, int slot) {
        return window->editor(indexOf(id))->panes()->pane(slot)->sameNote();
    };
    // The agents with a workspace, in the window's order.
    QStringList ids;
    for (int i = 0; i < window->sessionCount(); ++i) {
        if (window->session(i)->model()->isOpen())
            ids.append(window->session(i)->agent().id);
    }
    QCOMPARE(ids.size(), 4);
    const auto othersThan = [&](const QString &id, const QString &also = {}) {
        QStringList others = ids;
        others.removeAll(id);
        others.removeAll(also);
        return QStringLiteral("Same as in ") + others.join(QStringLiteral(", "));
    };
    // USER.md is the same in all four: each pane names the three others.
    // SOUL.md differs in each, so its panes say nothing.
    for (const QString &id : ids) {
        QTRY_COMPARE(noteOf(id, User)->text(), othersThan(id));
        QVERIFY(!noteOf(id, User)->isHidden());
        QVERIFY(noteOf(id, User)->toolTip().contains(QStringLiteral("USER.md")));
        QVERIFY(noteOf(id, Soul)->text().isEmpty());
        QVERIFY(noteOf(id, Soul)->isHidden());
    }

    // Typing in coach's USER.md: its note goes, and the others stop naming
    // it; nothing is saved for that.
    const QString coach = QStringLiteral("coach");
    window->setCurrentIndex(indexOf(coach));
    QPlainTextEdit *coachUser = editorOf(coach, User);
    window->panes()->showPane(User);
    coachUser->setFocus();
    coachUser->moveCursor(QTextCursor::End);
    QTest::keyClicks(coachUser, QStringLiteral("Sam likes tea."));
    QTRY_VERIFY(noteOf(coach, User)->isHidden());
    QVERIFY(noteOf(coach, User)->text().isEmpty());
    for (const QString &id : ids) {
        if (id != coach)
            QTRY_COMPARE(noteOf(id, User)->text(), othersThan(id, coach));
    }

    // Undone: the same bytes again, and every pane says so again.
    while (coachUser->document()->isUndoAvailable())
        coachUser->undo();
    for (const QString &id : ids)
        QTRY_COMPARE(noteOf(id, User)->text(), othersThan(id));

    // work's soul copied to ops: the two SOUL.md panes name each other.
    window->setCurrentIndex(indexOf(QStringLiteral("work")));
    window->copySlotToAgents(Soul, {indexOf(QStringLiteral("ops"))});
    QTRY_COMPARE(noteOf(QStringLiteral("work"), Soul)->text(), QStringLiteral("Same as in ops"));
    QTRY_COMPARE(noteOf(QStringLiteral("ops"), Soul)->text(), QStringLiteral("Same as in work"));
    QVERIFY(noteOf(coach, Soul)->text().isEmpty());
}

void tst_AgentsWindow::identicalSlotNamesFourThenCounts()
{
    const QString parent = m_fixture.filePath(QStringLiteral("six"));
    const QStringList names = {QStringLiteral("a"),
                               QStringLiteral("b"),
                               QStringLiteral("c"),
                               QStringLiteral("d"),
                               QStringLiteral("e"),
                               QStringLiteral("f")};
    for (const QString &name : names) {
        writeFile(parent + QLatin1Char('/') + name + QStringLiteral("/USER.md"), "Sam.\n");
        // An empty file is the same everywhere and says nothing.
        writeFile(parent + QLatin1Char('/') + name + QStringLiteral("/TOOLS.md"), QByteArray());
    }
    m_fixture.create();
    MainWindow *window = m_fixture.window();
    QVERIFY(window->openPersonaFolder(parent));
    QCOMPARE(window->sessionCount(), 6);
    SlotPane *user = window->editor(0)->panes()->pane(User);
    QTRY_COMPARE(user->sameNote()->text(),
                 QStringLiteral("Same as in b, c, d, e and one other agent"));
    QCOMPARE(user->sameNote()->toolTip(),
             QStringLiteral("USER.md is byte for byte the same in b, c, d, e, f."));
    const int tools = slotIndex(u"TOOLS.md");
    QVERIFY(window->session(0)->model()->slot(tools).bufferPresent);
    QVERIFY(window->editor(0)->panes()->pane(tools)->sameNote()->isHidden());
    // An agent closed is no longer named.
    window->setCurrentIndex(5);
    m_fixture.action("closeFolder")->trigger();
    QCOMPARE(window->sessionCount(), 5);
    QTRY_COMPARE(user->sameNote()->text(), QStringLiteral("Same as in b, c, d, e"));
}

void tst_AgentsWindow::folderOfPersonas()
{
    const QString parent = m_fixture.filePath(QStringLiteral("personas"));
    writeFile(parent + QStringLiteral("/ava/SOUL.md"), "Ava.\n");
    writeFile(parent + QStringLiteral("/kip/AGENTS.md"), "Kip.\n");
    writeFile(parent + QStringLiteral("/notes/readme.txt"), "not a persona\n");
    m_fixture.create();
    MainWindow *window = m_fixture.window();
    QVERIFY(window->openPersonaFolder(parent));
    QCOMPARE(window->sessionCount(), 2);
    QCOMPARE(window->session(0)->agent().id, QStringLiteral("ava"));
    QCOMPARE(window->session(1)->agent().id, QStringLiteral("kip"));
    QVERIFY(window->session(1)->model()->isOpen());
    QVERIFY(window->sidebar()->isVisible());
    // Without a config, OpenClaw's default budgets.
    QTRY_VERIFY2(window->sidebar()->list()->item(0)->text().contains(QStringLiteral("/60,000")),
                 qPrintable(window->sidebar()->list()->item(0)->text()));
    // Ctrl+W closes one; the list stays until its last agent is closed.
    window->setCurrentIndex(1);
    m_fixture.action("closeFolder")->trigger();
    QCOMPARE(window->sessionCount(), 1);
    QCOMPARE(window->currentSession()->agent().id, QStringLiteral("ava"));
    QVERIFY(window->model()->isOpen());
    QVERIFY(window->sidebar()->isVisible());
    // A folder without personas says so and changes nothing.
    QVERIFY(!window->openPersonaFolder(parent + QStringLiteral("/notes")));
    QVERIFY(m_fixture.prompter()->errors.last().contains(QStringLiteral("No subfolder")));
    QCOMPARE(window->sessionCount(), 1);
    // Closing the last one leaves an empty window; the next folder is no agent.
    m_fixture.action("closeFolder")->trigger();
    QVERIFY(!window->model()->isOpen());
    QVERIFY(!window->sidebar()->isVisible());
    window->start(parent + QStringLiteral("/kip"));
    QVERIFY(window->model()->isOpen());
    QVERIFY(window->currentSession()->agent().id.isEmpty());
    QVERIFY(!window->sidebar()->isVisible());
}

void tst_AgentsWindow::badConfigNamesTheFile()
{
    const QString config = m_fixture.filePath(QStringLiteral("broken.json"));
    writeFile(config, "{ agents: { entries: { a: {} b: {} } } }\n");
    m_fixture.create();
    MainWindow *window = m_fixture.window();
    QVERIFY(!window->openOpenClawAgents(config));
    QCOMPARE(m_fixture.prompter()->errors.size(), 1);
    QVERIFY2(m_fixture.prompter()->errors.first().contains(QStringLiteral("broken.json")),
             qPrintable(m_fixture.prompter()->errors.first()));
    QCOMPARE(window->sessionCount(), 1);
    QVERIFY(!window->model()->isOpen());
}

QTEST_MAIN(tst_AgentsWindow)
#include "tst_agentswindow.moc"
