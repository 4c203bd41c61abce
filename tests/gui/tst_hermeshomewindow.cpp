#include "compose/displaytext.h"
#include "disk/directorywatcher.h"
#include "documentcontroller.h"
#include "guitestfiles.h"
#include "history/historycontroller.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "preview/previewpanel.h"
#include "quietprompter.h"
#include "runtimepreview.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>

using namespace soul;
using namespace soul::guitest;

namespace {

// Answers Open Hermes Home's question with a folder, and records where the
// dialog started.
class ProjectPrompter : public QuietPrompter
{
public:
    QString project;
    QString askedHome;
    QString askedStart;
    QStringList errors;

    QString askHermesProject(const QString &home, const QString &start) override
    {
        askedHome = home;
        askedStart = start;
        return project;
    }
    void showError(const QString &title, const QString &text) override
    {
        errors.append(title + QStringLiteral(": ") + text);
    }
};

} // namespace

// The window on a Hermes home run in a project folder: the panes at the
// files Hermes reads, the preview byte for byte what soulc composes from the
// same home and project, saves to the real files and nothing else, and a
// change on disk under memories/ in the preview.
class tst_HermesHomeWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void previewEqualsSoulc();
    void savingWritesOnlyTheMemoryFile();
    void memoryChangedOnDiskRefreshesThePreview();
    void actionAsksForTheProject();
    void checkpointIsRefused();
    void recentMenuReopensTheHome();
    void startReopensTheLastHome();
    void projectPaneSaysAnotherFileWins();
    void projectFileMadeOnDiskIsFollowed();
    void historySaysItReadsFoldersOnly();
    void projectPaneOffersTheFilesOfTheBlock();
    void choosingAnotherFileKeepsUnsavedText();
    void chosenProjectFileIsOpenedAgain();

private:
    QString home(const QString &name = {}) const { return under(QStringLiteral("hermes"), name); }
    QString project(const QString &name = {}) const
    {
        return under(QStringLiteral("project"), name);
    }
    QString under(const QString &folder, const QString &name) const
    {
        const QString dir = m_fixture.filePath(folder);
        return name.isEmpty() ? dir : QDir(dir).filePath(name);
    }
    void openHome();
    // The home and its project are open, as Hermes reads them, previewed with Hermes.
    void expectHomeOpen();
    // Every file of the home and the project, without the window's settings.
    QMap<QString, QByteArray> files() const
    {
        QMap<QString, QByteArray> all = treeContents(m_fixture.dir());
        all.remove(m_fixture.filePath(QStringLiteral("settings.ini")));
        return all;
    }
    QByteArray soulcCompose() const;
    // Waits for the preview to show what soulc composes now, and says why not.
    void waitForSoulc();
    SlotPane *pane(const char *name) const
    {
        return window()->panes()->pane(slotIndex(QString::fromLatin1(name)));
    }
    MainWindow *window() const { return m_fixture.window(); }
    // The runtime preview of the session shown.
    RuntimePreview *runtimePreview() const { return window()->currentSession()->runtimePreview(); }
    // The project's HERMES.md, AGENTS.md and CLAUDE.md gone, .cursorrules
    // and two rules in .cursor/rules with text.
    void makeCursorRules();
    // The project pane's menu entry for `label`, null when there is none.
    QAction *projectFileAction(const QString &label) const;
    // The labels the project pane's menu offers, and the one checked.
    QStringList offeredFiles() const;
    QString checkedFile() const;

    TestWindow<ProjectPrompter> m_fixture;
};

void tst_HermesHomeWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_HermesHomeWindow::init()
{
    m_fixture.init();
    QVERIFY(QDir().mkpath(home(QStringLiteral("memories"))));
    QVERIFY(QDir().mkpath(project()));
    QVERIFY(writeInPlace(home(QStringLiteral("SOUL.md")),
                         "\xEF\xBB\xBFYou are Kip, a terse assistant.\r\n\r\nYou like maps.\r\n"));
    QVERIFY(
        writeInPlace(home(QStringLiteral("memories/MEMORY.md")),
                     "- prefers metric units\n§\n- lives in Lyon\n§\n- prefers metric units\n"));
    QVERIFY(writeInPlace(home(QStringLiteral("memories/USER.md")), "Name: Ana\n"));
    QVERIFY(writeInPlace(project(QStringLiteral("HERMES.md")), "---\ntitle: x\n---\n\nUse tabs.\n"));
    QVERIFY(writeInPlace(project(QStringLiteral("AGENTS.md")), "Use spaces.\n"));
    QVERIFY(writeInPlace(project(QStringLiteral("CLAUDE.md")), "From CLAUDE.md\n"));
    QVERIFY(writeInPlace(project(QStringLiteral("TOOLS.md")), "Use the calculator.\n"));
    // Hermes reads SOUL.md from its home only; this one is not the SOUL.md pane's.
    QVERIFY(writeInPlace(project(QStringLiteral("SOUL.md")), "A project's own notes.\n"));
}

void tst_HermesHomeWindow::cleanup()
{
    m_fixture.cleanup();
}

void tst_HermesHomeWindow::openHome()
{
    m_fixture.create();
    QVERIFY(window()->openHermesHome(home(), project()));
    QVERIFY(window()->model()->isOpen());
    QCOMPARE(window()->previewPanel()->runtimeProfile().id(), QStringLiteral("hermes"));
    QTRY_VERIFY(!runtimePreview()->busy());
}

QByteArray tst_HermesHomeWindow::soulcCompose() const
{
    return soulcOutput({QStringLiteral("compose"),
                        QStringLiteral("--runtime"),
                        QStringLiteral("hermes"),
                        QStringLiteral("--hermes-home"),
                        home(),
                        QStringLiteral("--project"),
                        project()});
}

void tst_HermesHomeWindow::waitForSoulc()
{
    const QByteArray expected = soulcCompose();
    QVERIFY2(!expected.startsWith("soulc failed"), expected.constData());
    const RuntimePreview *composer = runtimePreview();
    QTRY_COMPARE(composer->composition().text.toUtf8(), expected);
    QTRY_VERIFY(!composer->busy());
    QCOMPARE(composer->composition().text.toUtf8(), expected);
    QCOMPARE(window()->previewPanel()->runtimeText()->toPlainText(),
             displayText(QString::fromUtf8(expected), false));
}

void tst_HermesHomeWindow::previewEqualsSoulc()
{
    openHome();
    const PersonaModel *model = window()->model();
    QCOMPARE(model->slotFilePath(slotIndex(u"SOUL.md")), home(QStringLiteral("SOUL.md")));
    QCOMPARE(model->slotFilePath(slotIndex(u"MEMORY.md")),
             home(QStringLiteral("memories/MEMORY.md")));
    QCOMPARE(model->slotFilePath(slotIndex(u"USER.md")), home(QStringLiteral("memories/USER.md")));
    QCOMPARE(model->slotFilePath(slotIndex(u"AGENTS.md")), project(QStringLiteral("HERMES.md")));
    // The headers name the files as Hermes finds them, their paths in the tool tip.
    const auto title = [this](const char *slot) {
        return pane(slot)->findChild<QLabel *>(QStringLiteral("slotTitle"));
    };
    QCOMPARE(title("MEMORY.md")->text(), QStringLiteral("<b>memories/MEMORY.md</b>"));
    QCOMPARE(title("MEMORY.md")->toolTip(),
             QDir::toNativeSeparators(home(QStringLiteral("memories/MEMORY.md"))));
    QCOMPARE(title("AGENTS.md")->text(), QStringLiteral("<b>HERMES.md</b>"));
    QCOMPARE(pane("SOUL.md")->editor()->toPlainText(),
             QStringLiteral("You are Kip, a terse assistant.\n\nYou like maps.\n"));

    waitForSoulc();
    // The project file's pane says which rivals it won over.
    const RuntimePaneView &winner = pane("AGENTS.md")->runtimeView();
    QVERIFY2(winner.note.contains(QStringLiteral("before AGENTS.md, CLAUDE.md")),
             qPrintable(winner.note));
    // The project's SOUL.md is never read, and its note is not on the home's pane.
    QVERIFY2(!pane("SOUL.md")->runtimeView().note.contains(QStringLiteral("never read")),
             qPrintable(pane("SOUL.md")->runtimeView().note));
    // The memory pane counts as Hermes does, the duplicate dropped.
    const RuntimePaneView &memory = pane("MEMORY.md")->runtimeView();
    QVERIFY2(memory.note.contains(QStringLiteral("2 entries, 1 duplicate dropped")),
             qPrintable(memory.note));
    // Files Hermes never reads say so, present (TOOLS.md) or not.
    for (const char *never : {"IDENTITY.md", "TOOLS.md", "HEARTBEAT.md"}) {
        const RuntimePaneView &view = pane(never)->runtimeView();
        QVERIFY(!view.loaded);
        QVERIFY2(view.note.contains(QStringLiteral("never read by Hermes"))
                     || view.note.contains(QStringLiteral("not loaded by Hermes")),
                 qPrintable(view.note));
    }
    QCOMPARE(pane("TOOLS.md")->editor()->toPlainText(), QStringLiteral("Use the calculator.\n"));
    QVERIFY2(pane("TOOLS.md")->runtimeView().note.contains(QStringLiteral("never read by Hermes")),
             qPrintable(pane("TOOLS.md")->runtimeView().note));
    QVERIFY(window()->windowTitle().contains(QStringLiteral("hermes in project")));
}

void tst_HermesHomeWindow::savingWritesOnlyTheMemoryFile()
{
    openHome();
    const QMap<QString, QByteArray> before = files();
    QPlainTextEdit *editor = pane("MEMORY.md")->editor();
    QTextCursor cursor(editor->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(QStringLiteral("§\n- reads at night\n"));
    const int memory = slotIndex(u"MEMORY.md");
    QTRY_VERIFY(window()->model()->slot(memory).dirty);
    QCOMPARE(window()->model()->unsavedSlots(), QList<int>{memory});
    QVERIFY(window()->documents()->save(memory));

    const QByteArray saved
        = "- prefers metric units\n§\n- lives in Lyon\n§\n- prefers metric units\n§\n- reads at "
          "night\n";
    QCOMPARE(readAll(home(QStringLiteral("memories/MEMORY.md"))), saved);
    QMap<QString, QByteArray> expected = before;
    expected[home(QStringLiteral("memories/MEMORY.md"))] = saved;
    QCOMPARE(files(), expected);
    waitForSoulc();
}

void tst_HermesHomeWindow::memoryChangedOnDiskRefreshesThePreview()
{
    openHome();
    window()->model()->watcher()->setSettleInterval(5);
    QVERIFY(writeAtomically(home(QStringLiteral("memories/MEMORY.md")),
                            "- moved to Porto\n§\n- learns Portuguese\n"));
    QTRY_VERIFY(
        runtimePreview()->composition().text.contains(QStringLiteral("- learns Portuguese")));
    waitForSoulc();
    QCOMPARE(pane("MEMORY.md")->editor()->toPlainText(),
             QStringLiteral("- moved to Porto\n§\n- learns Portuguese\n"));
}

void tst_HermesHomeWindow::actionAsksForTheProject()
{
    const QByteArray before = qgetenv("HERMES_HOME");
    qputenv("HERMES_HOME", QFile::encodeName(home()));
    m_fixture.create();
    ProjectPrompter *prompter = m_fixture.prompter();
    // The start view offers it too; cancelled, nothing opens, and the dialog
    // started in the current directory.
    const QList<QPushButton *> buttons = window()->findChildren<QPushButton *>();
    const auto start = std::find_if(buttons.begin(), buttons.end(), [](const QPushButton *b) {
        return b->text() == QStringLiteral("Open &Hermes's home…");
    });
    QVERIFY(start != buttons.end());
    QVERIFY((*start)->isVisible());
    QTest::mouseClick(*start, Qt::LeftButton);
    QCOMPARE(prompter->askedHome, home());
    QCOMPARE(prompter->askedStart, QDir::currentPath());
    QVERIFY(!window()->model()->isOpen());
    prompter->askedHome.clear();
    m_fixture.action("openHermesHome")->trigger();
    QCOMPARE(prompter->askedHome, home());
    QCOMPARE(prompter->askedStart, QDir::currentPath());
    QVERIFY(!window()->model()->isOpen());

    prompter->project = project();
    m_fixture.action("openHermesHome")->trigger();
    QVERIFY2(prompter->errors.isEmpty(), qPrintable(prompter->errors.join(QLatin1Char('\n'))));
    QVERIFY(window()->model()->isOpen());
    QCOMPARE(window()->model()->layout().project, project());
    QCOMPARE(window()->previewPanel()->runtimeProfile().id(), QStringLiteral("hermes"));
    waitForSoulc();
    // The project is offered first next time.
    prompter->project.clear();
    m_fixture.action("openHermesHome")->trigger();
    QCOMPARE(prompter->askedStart, project());

    // A home that is not there is a sentence naming it.
    qputenv("HERMES_HOME", QFile::encodeName(m_fixture.filePath(QStringLiteral("nowhere"))));
    m_fixture.action("openHermesHome")->trigger();
    QCOMPARE(prompter->errors.size(), 1);
    QVERIFY2(prompter->errors.first().contains(m_fixture.filePath(QStringLiteral("nowhere"))),
             qPrintable(prompter->errors.first()));
    if (before.isNull())
        qunsetenv("HERMES_HOME");
    else
        qputenv("HERMES_HOME", before);
}

void tst_HermesHomeWindow::checkpointIsRefused()
{
    openHome();
    const QMap<QString, QByteArray> before = files();
    QAction *checkpoint = m_fixture.action("checkpoint");
    QVERIFY(checkpoint->isEnabled());
    checkpoint->trigger();
    // A commit of the home's flat slot names would record memories/ wrongly.
    QCOMPARE(m_fixture.prompter()->errors.size(), 1);
    QVERIFY2(m_fixture.prompter()->errors.first().contains(QStringLiteral("persona folders")),
             qPrintable(m_fixture.prompter()->errors.first()));
    QCOMPARE(files(), before);
}

void tst_HermesHomeWindow::expectHomeOpen()
{
    QVERIFY(window()->model()->isOpen());
    QCOMPARE(window()->model()->layout().home, home());
    QCOMPARE(window()->model()->layout().project, project());
    QCOMPARE(window()->model()->slotFilePath(slotIndex(u"MEMORY.md")),
             home(QStringLiteral("memories/MEMORY.md")));
    QCOMPARE(window()->model()->slotFilePath(slotIndex(u"AGENTS.md")),
             project(QStringLiteral("HERMES.md")));
    QCOMPARE(window()->previewPanel()->runtimeProfile().id(), QStringLiteral("hermes"));
    waitForSoulc();
}

void tst_HermesHomeWindow::recentMenuReopensTheHome()
{
    openHome();
    const QString folder = m_fixture.filePath(QStringLiteral("ava"));
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(writeInPlace(QDir(folder).filePath(QStringLiteral("SOUL.md")), "Ava.\n"));
    QVERIFY(window()->documents()->open(folder));
    QVERIFY(window()->model()->layout().isFolder());

    // The home is listed as such, below the folder opened since.
    const QList<QAction *> entries = m_fixture.menu("recentMenu")->actions();
    QVERIFY(entries.size() >= 2);
    QVERIFY2(entries.at(0)->text().startsWith(QStringLiteral("ava")),
             qPrintable(entries.at(0)->text()));
    const QString label = entries.at(1)->text();
    QVERIFY2(label.startsWith(QStringLiteral("Hermes home %1 with project project")
                                  .arg(QDir::toNativeSeparators(home()))),
             qPrintable(label));
    entries.at(1)->trigger();
    expectHomeOpen();
}

void tst_HermesHomeWindow::startReopensTheLastHome()
{
    openHome();
    QVERIFY(m_fixture.close());
    // A window started without a folder opens the home again, with its project.
    m_fixture.create();
    window()->start(QString());
    expectHomeOpen();

    // Once a folder was open last, the next start opens that folder instead.
    const QString folder = m_fixture.filePath(QStringLiteral("ava"));
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(window()->documents()->open(folder));
    QVERIFY(m_fixture.close());
    m_fixture.create();
    window()->start(QString());
    QCOMPARE(window()->model()->directory(), folder);
    QVERIFY(window()->model()->layout().isFolder());
}

void tst_HermesHomeWindow::projectPaneSaysAnotherFileWins()
{
    openHome();
    SlotPane *agents = pane("AGENTS.md");
    QCOMPARE(window()->model()->slotFilePath(slotIndex(u"AGENTS.md")),
             project(QStringLiteral("HERMES.md")));
    QVERIFY(!agents->runtimeView().note.contains(QStringLiteral("now reads")));
    // Emptied and not saved: AGENTS.md wins in the preview, and the pane,
    // still HERMES.md's, says so.
    agents->editor()->selectAll();
    agents->editor()->textCursor().removeSelectedText();
    QTRY_VERIFY2(agents->runtimeView().note.startsWith(
                     QStringLiteral("Hermes now reads AGENTS.md instead of HERMES.md for the "
                                    "project context.")),
                 qPrintable(agents->runtimeView().note));
    QVERIFY(runtimePreview()->composition().text.contains(QStringLiteral("Use spaces.")));
    const QList<QLabel *> labels = agents->findChildren<QLabel *>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QLabel *label) {
        return label->isVisible() && label->text().startsWith(QStringLiteral("Hermes now reads"));
    }));
    // Undone, the note goes.
    agents->editor()->undo();
    QTRY_VERIFY(!agents->runtimeView().note.contains(QStringLiteral("now reads")));
    QCOMPARE(window()->model()->slotFilePath(slotIndex(u"AGENTS.md")),
             project(QStringLiteral("HERMES.md")));
}

void tst_HermesHomeWindow::projectFileMadeOnDiskIsFollowed()
{
    openHome();
    const auto agents = slotIndex(u"AGENTS.md");
    const RuntimePreview *composer = runtimePreview();
    // Nothing unsaved, nothing else changing: a file that comes first, made
    // in the project, takes the pane.
    QVERIFY(writeInPlace(project(QStringLiteral(".hermes.md")), "Use two spaces.\n"));
    QTRY_COMPARE(window()->model()->slotFilePath(agents), project(QStringLiteral(".hermes.md")));
    QCOMPARE(pane("AGENTS.md")->editor()->toPlainText(), QStringLiteral("Use two spaces.\n"));
    waitForSoulc();
    QVERIFY(QFile::remove(project(QStringLiteral(".hermes.md"))));
    QTRY_COMPARE(window()->model()->slotFilePath(agents), project(QStringLiteral("HERMES.md")));
    waitForSoulc();

    // Unsaved text elsewhere: the pane stays where it is, but the preview
    // takes the file that comes first now, and the pane says so.
    pane("SOUL.md")->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane("SOUL.md")->editor(), QStringLiteral("Be brief."));
    QTRY_VERIFY(composer->composition().text.contains(QStringLiteral("Be brief.")));
    QTRY_VERIFY(!composer->busy());
    QVERIFY(writeInPlace(project(QStringLiteral(".hermes.md")), "Use two spaces.\n"));
    QTRY_VERIFY2(composer->composition().text.contains(QStringLiteral("Use two spaces.")),
                 qPrintable(composer->composition().text));
    QTRY_VERIFY2(pane("AGENTS.md")
                     ->runtimeView()
                     .note.startsWith(
                         QStringLiteral("Hermes now reads .hermes.md instead of HERMES.md")),
                 qPrintable(pane("AGENTS.md")->runtimeView().note));
    QCOMPARE(window()->model()->slotFilePath(agents), project(QStringLiteral("HERMES.md")));
    // Saved: nothing is unsaved, and the pane moves to the file Hermes reads.
    QVERIFY(window()->documents()->saveAll());
    QTRY_COMPARE(window()->model()->slotFilePath(agents), project(QStringLiteral(".hermes.md")));
    waitForSoulc();
    QCOMPARE(readAll(project(QStringLiteral("HERMES.md"))),
             QByteArray("---\ntitle: x\n---\n\nUse tabs.\n"));
}

void tst_HermesHomeWindow::historySaysItReadsFoldersOnly()
{
    openHome();
    QAction *show = m_fixture.action("showHistory");
    if (!show->isChecked())
        show->trigger();
    QVERIFY(window()->history()->dock()->isVisible());
    // Not "no git repository, create one": the home is no persona folder.
    auto *message = window()->findChild<QLabel *>(QStringLiteral("historyMessage"));
    QVERIFY(message);
    QTRY_VERIFY2(message->text().startsWith(
                     QStringLiteral("The history is of persona folders, and %1 is Hermes's home")
                         .arg(QDir::toNativeSeparators(home()))),
                 qPrintable(message->text()));
    QVERIFY(message->text().contains(QDir::toNativeSeparators(project())));
    auto *create = window()->findChild<QPushButton *>(QStringLiteral("historyCreateRepository"));
    QVERIFY(create);
    QVERIFY(!create->isVisible());
    QVERIFY(!QFileInfo::exists(home(QStringLiteral(".git"))));
}

void tst_HermesHomeWindow::makeCursorRules()
{
    for (const char *name : {"HERMES.md", "AGENTS.md", "CLAUDE.md"})
        QVERIFY(QFile::remove(project(QString::fromLatin1(name))));
    QVERIFY(QDir().mkpath(project(QStringLiteral(".cursor/rules"))));
    QVERIFY(writeInPlace(project(QStringLiteral(".cursorrules")), "Prefer small commits.\n"));
    QVERIFY(writeInPlace(project(QStringLiteral(".cursor/rules/style.mdc")),
                         "---\nglobs: *.cpp\n---\nFour spaces.\n"));
    QVERIFY(writeInPlace(project(QStringLiteral(".cursor/rules/tests.mdc")),
                         "Every test fails without its change.\n"));
}

QAction *tst_HermesHomeWindow::projectFileAction(const QString &label) const
{
    const QList<QAction *> actions = pane("AGENTS.md")->fileChoiceButton()->menu()->actions();
    const auto found = std::find_if(actions.begin(), actions.end(), [&label](const QAction *a) {
        return a->text() == label;
    });
    return found == actions.end() ? nullptr : *found;
}

QStringList tst_HermesHomeWindow::offeredFiles() const
{
    QStringList labels;
    for (const QAction *action : pane("AGENTS.md")->fileChoiceButton()->menu()->actions())
        labels.append(action->text());
    return labels;
}

QString tst_HermesHomeWindow::checkedFile() const
{
    QStringList checked;
    for (const QAction *action : pane("AGENTS.md")->fileChoiceButton()->menu()->actions()) {
        if (action->isChecked())
            checked.append(action->text());
    }
    return checked.join(QLatin1Char('|'));
}

void tst_HermesHomeWindow::projectPaneOffersTheFilesOfTheBlock()
{
    // HERMES.md alone in the block: nothing to choose.
    openHome();
    QPushButton *choice = pane("AGENTS.md")->fileChoiceButton();
    QVERIFY(choice->isHidden());
    QVERIFY(m_fixture.close());
    makeCursorRules();
    openHome();
    SlotPane *agents = pane("AGENTS.md");
    choice = agents->fileChoiceButton();
    QVERIFY(!choice->isHidden());
    QCOMPARE(choice->focusPolicy(), Qt::StrongFocus);
    QVERIFY2(choice->toolTip().contains(QStringLiteral(".cursor/rules/tests.mdc")),
             qPrintable(choice->toolTip()));
    QCOMPARE(offeredFiles(),
             QStringList({QStringLiteral(".cursorrules"),
                          QStringLiteral(".cursor/rules/style.mdc"),
                          QStringLiteral(".cursor/rules/tests.mdc")}));
    QCOMPARE(checkedFile(), QStringLiteral(".cursorrules"));
    QCOMPARE(agents->editor()->toPlainText(), QStringLiteral("Prefer small commits.\n"));
    waitForSoulc();
    QCOMPARE(agents->runtimeView().note,
             QStringLiteral("Hermes joins .cursor/rules/style.mdc and .cursor/rules/tests.mdc to "
                            "this file in the project context; choose one above to edit it."));

    // The second rule chosen: its bytes in the pane, the other panes as they were.
    const QString soulText = pane("SOUL.md")->editor()->toPlainText();
    projectFileAction(QStringLiteral(".cursor/rules/tests.mdc"))->trigger();
    const int slot = slotIndex(u"AGENTS.md");
    QCOMPARE(window()->model()->slotFilePath(slot),
             project(QStringLiteral(".cursor/rules/tests.mdc")));
    QCOMPARE(agents->editor()->toPlainText(),
             QStringLiteral("Every test fails without its change.\n"));
    QCOMPARE(agents->findChild<QLabel *>(QStringLiteral("slotTitle"))->text(),
             QStringLiteral("<b>.cursor/rules/tests.mdc</b>"));
    QCOMPARE(checkedFile(), QStringLiteral(".cursor/rules/tests.mdc"));
    QCOMPARE(pane("SOUL.md")->editor()->toPlainText(), soulText);
    waitForSoulc();
    QTRY_COMPARE(agents->runtimeView().note,
                 QStringLiteral("Hermes joins .cursorrules and .cursor/rules/style.mdc to this "
                                "file in the project context; choose one above to edit it."));

    // Edited and saved: that file is written, no other.
    const QMap<QString, QByteArray> before = files();
    agents->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(agents->editor(), QStringLiteral("Run them twice."));
    QTRY_VERIFY(window()->model()->slot(slot).dirty);
    QCOMPARE(window()->model()->unsavedSlots(), QList<int>{slot});
    QVERIFY(window()->documents()->save(slot));
    QMap<QString, QByteArray> expected = before;
    expected[project(QStringLiteral(".cursor/rules/tests.mdc"))]
        = "Every test fails without its change.\nRun them twice.";
    QCOMPARE(files(), expected);
    waitForSoulc();
    QVERIFY(runtimePreview()->composition().text.contains(
        QStringLiteral("## .cursor/rules/tests.mdc\n\nEvery test fails without its change.\nRun "
                       "them twice.")));
    QCOMPARE(window()->model()->slotFilePath(slot),
             project(QStringLiteral(".cursor/rules/tests.mdc")));
    QVERIFY2(m_fixture.prompter()->errors.isEmpty(),
             qPrintable(m_fixture.prompter()->errors.join(QLatin1Char('\n'))));
}

void tst_HermesHomeWindow::choosingAnotherFileKeepsUnsavedText()
{
    makeCursorRules();
    openHome();
    SlotPane *agents = pane("AGENTS.md");
    const int slot = slotIndex(u"AGENTS.md");
    const QMap<QString, QByteArray> before = files();
    agents->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(agents->editor(), QStringLiteral("Not saved."));
    QTRY_VERIFY(window()->model()->slot(slot).dirty);
    projectFileAction(QStringLiteral(".cursor/rules/style.mdc"))->trigger();
    // The pane, its text and the menu's check stay; the status bar says what to do.
    QCOMPARE(window()->model()->slotFilePath(slot), project(QStringLiteral(".cursorrules")));
    QCOMPARE(agents->editor()->toPlainText(), QStringLiteral("Prefer small commits.\nNot saved."));
    QCOMPARE(window()->model()->slot(slot).bufferBytes,
             QByteArray("Prefer small commits.\nNot saved."));
    QVERIFY(window()->model()->slot(slot).dirty);
    QCOMPARE(checkedFile(), QStringLiteral(".cursorrules"));
    QCOMPARE(window()->statusMessage()->text(),
             QStringLiteral("The project pane stays at .cursorrules: there are unsaved changes in "
                            ".cursorrules. Save or revert them first, then choose "
                            ".cursor/rules/style.mdc again."));
    QCOMPARE(files(), before);
    // Undone, the same choice is taken.
    QVERIFY(window()->documents()->revert(slot));
    QTRY_VERIFY(!window()->model()->hasUnsaved());
    projectFileAction(QStringLiteral(".cursor/rules/style.mdc"))->trigger();
    QCOMPARE(window()->model()->slotFilePath(slot),
             project(QStringLiteral(".cursor/rules/style.mdc")));
    QCOMPARE(files(), before);
    waitForSoulc();
}

// The file chosen for the project pane is the one a later start, and the
// Open Recent entry, show again while it is one of the block's.
void tst_HermesHomeWindow::chosenProjectFileIsOpenedAgain()
{
    makeCursorRules();
    openHome();
    const int slot = slotIndex(u"AGENTS.md");
    projectFileAction(QStringLiteral(".cursor/rules/tests.mdc"))->trigger();
    QCOMPARE(window()->model()->slotFilePath(slot),
             project(QStringLiteral(".cursor/rules/tests.mdc")));

    // A start without a folder.
    QVERIFY(m_fixture.close());
    m_fixture.create();
    window()->start(QString());
    QVERIFY(window()->model()->isOpen());
    QCOMPARE(window()->model()->slotFilePath(slot),
             project(QStringLiteral(".cursor/rules/tests.mdc")));
    QCOMPARE(checkedFile(), QStringLiteral(".cursor/rules/tests.mdc"));

    // Open Recent, after a persona folder was opened in between.
    const QString folder = m_fixture.filePath(QStringLiteral("ava"));
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(writeInPlace(QDir(folder).filePath(QStringLiteral("SOUL.md")), "Ava.\n"));
    QVERIFY(window()->documents()->open(folder));
    const QList<QAction *> entries = m_fixture.menu("recentMenu")->actions();
    QVERIFY(entries.size() >= 2);
    // One entry for the home, whichever file its pane showed.
    qsizetype homes = 0;
    for (const QAction *entry : entries)
        homes += entry->text().startsWith(QStringLiteral("Hermes home"));
    QCOMPARE(homes, qsizetype(1));
    entries.at(1)->trigger();
    QCOMPARE(window()->model()->slotFilePath(slot),
             project(QStringLiteral(".cursor/rules/tests.mdc")));

    // Once it has left the block, the first file of the block again.
    QVERIFY(m_fixture.close());
    QVERIFY(writeInPlace(project(QStringLiteral(".cursor/rules/tests.mdc")), ""));
    m_fixture.create();
    window()->start(QString());
    QCOMPARE(window()->model()->slotFilePath(slot), project(QStringLiteral(".cursorrules")));
}

QTEST_MAIN(tst_HermesHomeWindow)
#include "tst_hermeshomewindow.moc"
