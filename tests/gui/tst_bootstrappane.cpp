#include "disk/recoverystore.h"
#include "documentcontroller.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "preview/previewpanel.h"
#include "quietprompter.h"
#include "runtimepreview.h"
#include "slots/diskchangedbar.h"
#include "slots/panestack.h"
#include "slots/recoverybar.h"
#include "slots/runtimemeter.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/mainwindow.h"
#include "window/personaeditor.h"

#include <QAction>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QLabel>
#include <QMap>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <sys/stat.h>

using namespace soul;
using namespace soul::guitest;

namespace {

// Answers "Finish setup?" as told, and keeps what it was asked.
class SetupPrompter : public QuietPrompter
{
public:
    bool askFinishSetup(const QString &file) override
    {
        asked.append(file);
        return finish;
    }
    void showError(const QString &title, const QString &text) override
    {
        errors.append(title + QStringLiteral(": ") + text);
    }

    StaleAnswer askStaleSave(const QString &file, const QString &why, StaleReason) override
    {
        staleAsked.append(file + QStringLiteral(": ") + why);
        return staleAnswers.isEmpty() ? StaleAnswer::Cancel : staleAnswers.takeFirst();
    }
    void showCompare(const QString &, const QString &diff) override { lastDiff = diff; }

    bool finish = true;
    QStringList asked;
    QStringList errors;
    QList<StaleAnswer> staleAnswers;
    QStringList staleAsked;
    QString lastDiff;
};

// With CR LF line breaks, which typing and restoring keep.
const QByteArray Bootstrap = "# BOOTSTRAP.md - Hello, World\r\n\r\n"
                             "You just woke up. Ask the human who they are, pick a name\r\n"
                             "together, then write IDENTITY.md and USER.md.\r\n"
                             "When you are done, delete this file.\r\n";

// Every file of `dir` with its bytes (the settings file aside: the window
// writes it).
QMap<QString, QByteArray> folderFiles(const QString &dir)
{
    QMap<QString, QByteArray> files;
    const QStringList names = QDir(dir).entryList(QDir::Files | QDir::Hidden);
    for (const QString &name : names) {
        if (name != QLatin1String("settings.ini"))
            files.insert(name, readAll(QDir(dir).filePath(name)));
    }
    return files;
}

} // namespace

class tst_BootstrapPane : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void paneFollowsOpenClawsOrder();
    void typingShowsInThePreviewAndSaveEqualsSoulc();
    void finishSetupDeletesOnlyThatFile();
    void finishSetupAsksFirst();
    void unsavedTextIsAskedAboutOnClose();
    void cleanPaneFollowsTheDisk();
    void aFifoIsNeverWaitedFor();
    void revertTakesTheDiskTextUndoably();
    void changedOnDiskWhileUnsavedOffersTheSlotsChoice();
    void aLargeFileSaysWhatToDo();
    void ctrl8ReachesThePane();
    void saveWhileRecoveredTextWaitsSaysWhy();

private:
    QString path(const QString &name) const { return m_fixture.filePath(name); }
    MainWindow *window() const { return m_fixture.window(); }
    // The runtime preview of the session shown.
    RuntimePreview *runtimePreview() const { return window()->currentSession()->runtimePreview(); }
    PersonaEditor *editor() const { return window()->currentEditor(); }
    SlotPane *setupPane() const { return editor()->setupPane(); }
    // BOOTSTRAP.md, a document of the session's model as the slots are.
    PersonaModel *model() const { return editor()->session()->model(); }
    int setupDocument() const { return editor()->session()->documents()->setupDocument(); }
    const SlotState &setupState() const { return model()->slot(setupDocument()); }
    void chooseRuntime(const QString &id);
    // What the window composes from the buffers, once it is done.
    QByteArray shownText() const;
    QByteArray soulcCompose() const;

    TestWindow<SetupPrompter> m_fixture;
};

void tst_BootstrapPane::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_BootstrapPane::init()
{
    m_fixture.init();
    QVERIFY(writeInPlace(path(QStringLiteral("AGENTS.md")), "# Agents\n\nBe brief.\n"));
    QVERIFY(writeInPlace(path(QStringLiteral("SOUL.md")), "# Soul\n\nCurious and kind.\n"));
    QVERIFY(writeInPlace(path(QStringLiteral("IDENTITY.md")), "Name: Kip\n"));
    QVERIFY(writeInPlace(path(QStringLiteral("TOOLS.md")), "Use the calculator for sums.\n"));
    QVERIFY(writeInPlace(path(QStringLiteral("BOOTSTRAP.md")), Bootstrap));
    m_fixture.open(m_fixture.dir());
}

void tst_BootstrapPane::cleanup()
{
    m_fixture.cleanup();
}

void tst_BootstrapPane::chooseRuntime(const QString &id)
{
    PreviewPanel *panel = window()->previewPanel();
    const quint64 before = runtimePreview()->shownGeneration();
    panel->runtimeChooser()->setCurrentIndex(panel->runtimeChooser()->findData(id));
    QCOMPARE(panel->runtimeProfile().id(), id);
    QTRY_VERIFY(runtimePreview()->shownGeneration() > before && !runtimePreview()->busy());
}

QByteArray tst_BootstrapPane::shownText() const
{
    if (!QTest::qWaitFor([this] { return !runtimePreview()->busy(); }))
        return {};
    return runtimePreview()->composition().text.toUtf8();
}

QByteArray tst_BootstrapPane::soulcCompose() const
{
    return soulcOutput({QStringLiteral("compose"),
                        QStringLiteral("--runtime"),
                        QStringLiteral("openclaw"),
                        m_fixture.dir()});
}

void tst_BootstrapPane::paneFollowsOpenClawsOrder()
{
    PaneStack *panes = window()->panes();
    QStringList contract;
    for (int k = 0; k < SlotCount; ++k)
        contract << slotName(k);
    // toolnexus never reads BOOTSTRAP.md: no pane for it.
    QCOMPARE(panes->shownNames(), contract);

    chooseRuntime(QStringLiteral("openclaw"));
    QVERIFY(setupPane());
    QCOMPARE(panes->shownNames(),
             QStringList({QStringLiteral("AGENTS.md"),
                          QStringLiteral("SOUL.md"),
                          QStringLiteral("IDENTITY.md"),
                          QStringLiteral("USER.md"),
                          QStringLiteral("BOOTSTRAP.md"),
                          QStringLiteral("MEMORY.md"),
                          QStringLiteral("TOOLS.md"),
                          QStringLiteral("HEARTBEAT.md")}));
    // Laid out as listed: below USER.md, above MEMORY.md.
    QTRY_VERIFY(setupPane()->y() > panes->pane(slotIndex(QStringLiteral("USER.md")))->y());
    QTRY_VERIFY(setupPane()->y() < panes->pane(slotIndex(QStringLiteral("MEMORY.md")))->y());
    QVERIFY(setupPane()->isVisible());
    QCOMPARE(setupPane()->editor()->toPlainText(),
             QString::fromUtf8(QByteArray(Bootstrap).replace("\r\n", "\n")));

    // Its own meter: the characters OpenClaw injects of it, against its budget.
    const RuntimeFileView *file = runtimePreview()->composition().file(
        QStringLiteral("BOOTSTRAP.md"));
    QVERIFY(file && file->present);
    QTRY_VERIFY(setupPane()->runtimeMeter()->isVisible());
    QCOMPARE(setupPane()->runtimeMeter()->used(), file->used);
    // OpenClaw trims the file's trailing white space.
    QCOMPARE(setupPane()->runtimeMeter()->used(),
             qint64(QString::fromUtf8(Bootstrap).trimmed().size()));
    QCOMPARE(setupPane()->runtimeMeter()->budget(), qint64(20000));
    QVERIFY(setupPane()->finishButton()->isVisible());
    QVERIFY(!setupPane()->restoreDeletedButton()->isVisible());

    chooseRuntime(QStringLiteral("toolnexus"));
    QCOMPARE(panes->shownNames(), contract);
    QVERIFY(!setupPane()->isVisible());
    QVERIFY(!m_fixture.action("finishSetup")->isEnabled());
}

// Ctrl+8 puts the focus in the file the runtime reads beside the seven;
// under a runtime that reads none, the status line says so.
void tst_BootstrapPane::ctrl8ReachesThePane()
{
    PaneStack *panes = window()->panes();
    panes->showPane(slotIndex(QStringLiteral("SOUL.md")));
    QWidget *soul = panes->pane(slotIndex(QStringLiteral("SOUL.md")))->editor();
    QTRY_VERIFY(soul->hasFocus());
    QTest::keyClick(soul, Qt::Key_8, Qt::ControlModifier);
    QVERIFY(soul->hasFocus());
    QVERIFY2(window()->statusMessage()->text().contains(QLatin1String("reads no file")),
             qPrintable(window()->statusMessage()->text()));

    chooseRuntime(QStringLiteral("openclaw"));
    QTest::keyClick(soul, Qt::Key_8, Qt::ControlModifier);
    QTRY_VERIFY(setupPane()->editor()->hasFocus());
    QTest::keyClicks(setupPane()->editor(), QStringLiteral("typed"));
    QTRY_VERIFY(setupState().dirty);
}

void tst_BootstrapPane::typingShowsInThePreviewAndSaveEqualsSoulc()
{
    chooseRuntime(QStringLiteral("openclaw"));
    QVERIFY(shownText().contains("You just woke up"));
    QPlainTextEdit *text = setupPane()->editor();
    text->setFocus();
    text->moveCursor(QTextCursor::End);
    QSignalSpy summaries(editor()->session(), &PersonaSession::summaryChanged);
    QTest::keyClicks(text, QStringLiteral("Motto: zephyrine"));
    QTest::keyClick(text, Qt::Key_Return);
    QTRY_VERIFY(runtimePreview()->composition().text.contains(QStringLiteral("zephyrine")));
    QVERIFY(setupPane()->dirtyLabel()->text().contains(QStringLiteral("unsaved")));
    // Nothing is written until it is saved.
    QCOMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), Bootstrap);
    const QByteArray onDisk = soulcCompose();
    QVERIFY2(onDisk.contains("BOOTSTRAP.md"), onDisk.left(200).constData());
    QVERIFY(!onDisk.contains("zephyrine"));
    QVERIFY(editor()->session()->hasUnsaved());
    // The agent's row says so too, though no slot is unsaved.
    QVERIFY(editor()->session()->model()->unsavedSlots().isEmpty());
    QVERIFY(editor()->session()->summary().unsaved);
    QCOMPARE(summaries.count(), 1);

    // File > Save (Ctrl+S) saves the pane last focused: this one.
    QAction *save = m_fixture.action("save");
    QTRY_VERIFY(save->isEnabled());
    save->trigger();
    QVERIFY(readAll(path(QStringLiteral("BOOTSTRAP.md")))
                .endsWith("this file.\r\nMotto: zephyrine\r\n"));
    QVERIFY(!editor()->session()->hasUnsaved());
    QTest::keyClicks(text, QStringLiteral("Tea: green"));
    QTRY_VERIFY(editor()->session()->hasUnsaved());
    QTest::mouseClick(setupPane()->saveButton(), Qt::LeftButton);
    QVERIFY(readAll(path(QStringLiteral("BOOTSTRAP.md"))).endsWith("zephyrine\r\nTea: green"));
    QVERIFY(!editor()->session()->hasUnsaved());
    const QByteArray expected = soulcCompose();
    QVERIFY(expected.contains("Tea: green"));
    QTRY_COMPARE(shownText(), expected);
    QVERIFY(m_fixture.prompter()->errors.isEmpty());
}

void tst_BootstrapPane::finishSetupDeletesOnlyThatFile()
{
    chooseRuntime(QStringLiteral("openclaw"));
    QCOMPARE(shownText(), soulcCompose());
    QVERIFY(shownText().contains("You just woke up"));
    QMap<QString, QByteArray> before = folderFiles(m_fixture.dir());
    QVERIFY(before.contains(QStringLiteral("BOOTSTRAP.md")));
    QAction *finish = m_fixture.action("finishSetup");
    QTRY_VERIFY(finish->isEnabled());

    finish->trigger();
    QCOMPARE(m_fixture.prompter()->asked, QStringList({path(QStringLiteral("BOOTSTRAP.md"))}));
    QVERIFY2(m_fixture.prompter()->errors.isEmpty(),
             qPrintable(m_fixture.prompter()->errors.join(u'\n')));
    QMap<QString, QByteArray> after = before;
    after.remove(QStringLiteral("BOOTSTRAP.md"));
    QCOMPARE(folderFiles(m_fixture.dir()), after);
    // OpenClaw no longer treats the workspace as pending.
    QTRY_VERIFY(!runtimePreview()->composition().text.contains(QStringLiteral("You just woke up")));
    const QByteArray finished = soulcCompose();
    QVERIFY(!finished.isEmpty());
    QCOMPARE(shownText(), finished);
    QVERIFY(setupPane()->restoreDeletedButton()->isVisible());
    QVERIFY(!setupPane()->finishButton()->isVisible());
    QVERIFY(!finish->isEnabled());

    // Undo writes it back, byte for byte (its CR LF too).
    QAction *undo = m_fixture.action("undo");
    QTRY_VERIFY(undo->isEnabled());
    undo->trigger();
    QCOMPARE(folderFiles(m_fixture.dir()), before);
    QTRY_COMPARE(shownText(), soulcCompose());
    QVERIFY(shownText().contains("You just woke up"));
    QVERIFY(setupPane()->finishButton()->isVisible());

    // And the pane's own buttons do the same.
    QTest::mouseClick(setupPane()->finishButton(), Qt::LeftButton);
    QVERIFY(!QFile::exists(path(QStringLiteral("BOOTSTRAP.md"))));
    QTRY_VERIFY(setupPane()->restoreDeletedButton()->isVisible());
    QTest::mouseClick(setupPane()->restoreDeletedButton(), Qt::LeftButton);
    QCOMPARE(folderFiles(m_fixture.dir()), before);
    QVERIFY(m_fixture.prompter()->errors.isEmpty());
}

void tst_BootstrapPane::finishSetupAsksFirst()
{
    chooseRuntime(QStringLiteral("openclaw"));
    m_fixture.prompter()->finish = false;
    QTest::mouseClick(setupPane()->finishButton(), Qt::LeftButton);
    QCOMPARE(m_fixture.prompter()->asked.size(), 1);
    QCOMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), Bootstrap);

    // Unsaved text is never deleted with the file.
    m_fixture.prompter()->finish = true;
    setupPane()->editor()->setFocus();
    QTest::keyClicks(setupPane()->editor(), QStringLiteral("draft"));
    QTRY_VERIFY(!setupPane()->finishButton()->isEnabled());
    QVERIFY(!editor()->canFinishSetup());
    m_fixture.action("finishSetup")->trigger();
    QCOMPARE(m_fixture.prompter()->asked.size(), 1);
    QCOMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), Bootstrap);
}

void tst_BootstrapPane::unsavedTextIsAskedAboutOnClose()
{
    class Recording : public SetupPrompter
    {
    public:
        UnsavedAnswer askUnsaved(const QStringList &files) override
        {
            unsaved = files;
            return UnsavedAnswer::Cancel;
        }
        QStringList unsaved;
    };
    m_fixture.open(m_fixture.dir(), std::make_unique<Recording>());
    chooseRuntime(QStringLiteral("openclaw"));
    setupPane()->editor()->setFocus();
    QTest::keyClicks(setupPane()->editor(), QStringLiteral("draft"));
    QTRY_VERIFY(editor()->session()->hasUnsaved());
    // The preview says whose unsaved text it shows, as for a slot.
    QTRY_VERIFY(window()->previewPanel()->unsavedNote()->text().contains(
        QStringLiteral("Includes unsaved edits in BOOTSTRAP.md")));
    QVERIFY(!window()->close());
    auto *recording = static_cast<Recording *>(m_fixture.prompter());
    QCOMPARE(recording->unsaved, QStringList({QStringLiteral("BOOTSTRAP.md")}));
    QCOMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), Bootstrap);
}

void tst_BootstrapPane::cleanPaneFollowsTheDisk()
{
    chooseRuntime(QStringLiteral("openclaw"));
    // Another program rewrites it: the clean pane and the preview follow.
    QVERIFY(writeAtomically(path(QStringLiteral("BOOTSTRAP.md")), "Say hello first.\n"));
    QTRY_COMPARE(setupPane()->editor()->toPlainText(), QStringLiteral("Say hello first.\n"));
    QTRY_VERIFY(runtimePreview()->composition().text.contains(QStringLiteral("Say hello first.")));
    QCOMPARE(shownText(), soulcCompose());
    // And removes it: the pane says so, and OpenClaw no longer waits on it.
    QVERIFY(QFile::remove(path(QStringLiteral("BOOTSTRAP.md"))));
    QTRY_VERIFY(setupPane()->stateLabel()->text().contains(QStringLiteral("not in the folder")));
    QTRY_VERIFY(!runtimePreview()->composition().text.contains(QStringLiteral("Say hello first.")));
    QCOMPARE(shownText(), soulcCompose());
    QVERIFY(!setupPane()->finishButton()->isVisible());
    QVERIFY(!setupPane()->restoreDeletedButton()->isVisible());
}

void tst_BootstrapPane::aFifoIsNeverWaitedFor()
{
    chooseRuntime(QStringLiteral("openclaw"));
    QVERIFY(setupPane()->isVisibleTo(window()));
    // Another program puts a FIFO where the file was: reading it would wait
    // for a writer, and the window with it.
    const QString bootstrap = path(QStringLiteral("BOOTSTRAP.md"));
    QVERIFY(QFile::remove(bootstrap));
    QCOMPARE(::mkfifo(QFile::encodeName(bootstrap).constData(), 0600), 0);
    // Said as the slots say it: what is there, and what to do.
    QTRY_COMPARE(setupPane()->stateLabel()->text(), QStringLiteral("skipped"));
    QTRY_VERIFY(setupPane()->lintLabel()->isVisibleTo(window()));
    QCOMPARE(setupPane()->lintLabel()->text(),
             QStringLiteral("⚠ BOOTSTRAP.md is a FIFO, not a regular file, so it is skipped. "
                            "Replace it with a regular file."));
    QVERIFY(!setupPane()->editor()->isVisibleTo(window()));
    QVERIFY(!editor()->session()->hasUnsaved());
    QVERIFY(!m_fixture.action("finishSetup")->isEnabled());
}

void tst_BootstrapPane::revertTakesTheDiskTextUndoably()
{
    chooseRuntime(QStringLiteral("openclaw"));
    const QString onDisk = QString::fromUtf8(QByteArray(Bootstrap).replace("\r\n", "\n"));
    QPlainTextEdit *text = setupPane()->editor();
    QVERIFY(setupPane()->revertButton()->isVisible());
    QVERIFY(!setupPane()->revertButton()->isEnabled());
    text->setFocus();
    text->moveCursor(QTextCursor::End);
    QTest::keyClicks(text, QStringLiteral("draft line"));
    QTRY_VERIFY(setupState().dirty);
    QVERIFY(setupPane()->revertButton()->isEnabled());

    QTest::mouseClick(setupPane()->revertButton(), Qt::LeftButton);
    QCOMPARE(text->toPlainText(), onDisk);
    QVERIFY(!setupState().dirty);
    QVERIFY(!setupPane()->revertButton()->isEnabled());
    QVERIFY(!editor()->session()->hasUnsaved());
    QCOMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), Bootstrap);

    // One undoable edit: Ctrl+Z gives the edits back, unsaved, in the file's CR LF.
    QTest::keyClick(text, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(text->toPlainText(), onDisk + QStringLiteral("draft line"));
    QTRY_VERIFY(setupState().dirty);
    QCOMPARE(setupState().bufferBytes, Bootstrap + "draft line");

    // File > Revert does the same for this pane.
    QAction *revert = m_fixture.action("revert");
    QTRY_VERIFY(revert->isEnabled());
    revert->trigger();
    QCOMPARE(text->toPlainText(), onDisk);
    QVERIFY(!setupState().dirty);
    QCOMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), Bootstrap);
    QVERIFY(m_fixture.prompter()->errors.isEmpty());
}

void tst_BootstrapPane::changedOnDiskWhileUnsavedOffersTheSlotsChoice()
{
    chooseRuntime(QStringLiteral("openclaw"));
    const QString bootstrap = path(QStringLiteral("BOOTSTRAP.md"));
    QPlainTextEdit *text = setupPane()->editor();
    DiskChangedBar *bar = setupPane()->diskBar();
    SetupPrompter *prompter = m_fixture.prompter();
    text->setFocus();
    text->moveCursor(QTextCursor::End);
    QTest::keyClicks(text, QStringLiteral("draft"));
    QTRY_VERIFY(setupState().dirty);
    QVERIFY(!bar->isVisible());

    // Another program writes the file under the unsaved text: the text stays,
    // and the bar offers the slots' choice.
    QVERIFY(writeAtomically(bootstrap, "Other program.\n"));
    QTRY_VERIFY(bar->isVisible());
    QCOMPARE(bar->kind(), DiskChangedBar::Kind::Changed);
    QCOMPARE(bar->text(),
             QStringLiteral("BOOTSTRAP.md changed on disk. Your edits are kept until you choose."));
    QCOMPARE(setupState().bufferBytes, Bootstrap + "draft");
    QVERIFY(text->toPlainText().endsWith(QStringLiteral("this file.\ndraft")));

    // Save asks Overwrite / Compare / Cancel; Compare shows the diff, then
    // Cancel writes nothing.
    prompter->staleAnswers = {Prompter::StaleAnswer::Compare, Prompter::StaleAnswer::Cancel};
    QTest::mouseClick(setupPane()->saveButton(), Qt::LeftButton);
    QCOMPARE(prompter->staleAsked.size(), 2);
    QVERIFY2(prompter->staleAsked.first().contains(QStringLiteral("was changed on disk")),
             qPrintable(prompter->staleAsked.first()));
    QVERIFY2(prompter->lastDiff.contains(QStringLiteral("+draft"))
                 && prompter->lastDiff.contains(QStringLiteral("-Other program.")),
             qPrintable(prompter->lastDiff));
    QCOMPARE(readAll(bootstrap), QByteArray("Other program.\n"));
    QVERIFY(setupState().dirty);

    // Reload takes the disk's text as one undoable edit: Undo gives the draft back.
    Q_EMIT bar->reloadRequested();
    QCOMPARE(text->toPlainText(), QStringLiteral("Other program.\n"));
    QVERIFY(!bar->isVisible());
    QVERIFY(!setupState().dirty);
    text->undo();
    QVERIFY(text->toPlainText().endsWith(QStringLiteral("this file.\ndraft")));
    QTRY_VERIFY(setupState().dirty);

    // Changed again; Keep mine: a save then writes over the disk, without asking.
    QVERIFY(writeAtomically(bootstrap, "Third text.\n"));
    QTRY_VERIFY(bar->isVisible());
    Q_EMIT bar->keepMineRequested();
    QVERIFY(!bar->isVisible());
    prompter->staleAsked.clear();
    QTest::mouseClick(setupPane()->saveButton(), Qt::LeftButton);
    QVERIFY(prompter->staleAsked.isEmpty());
    QCOMPARE(readAll(bootstrap), setupState().bufferBytes);
    QVERIFY(readAll(bootstrap).endsWith("this file.\ndraft"));
    QVERIFY(!setupState().dirty);

    // Deleted under unsaved text: the text stays, and Save asks before creating it again.
    QTest::keyClicks(text, QStringLiteral(" more"));
    QTRY_VERIFY(setupState().dirty);
    QVERIFY(QFile::remove(bootstrap));
    QTRY_VERIFY(bar->isVisible());
    QCOMPARE(bar->kind(), DiskChangedBar::Kind::Deleted);
    QCOMPARE(setupPane()->stateLabel()->text(), QStringLiteral("deleted on disk"));
    prompter->staleAnswers = {Prompter::StaleAnswer::Overwrite};
    Q_EMIT bar->saveRequested();
    QCOMPARE(prompter->staleAsked.size(), 1);
    QVERIFY(readAll(bootstrap).endsWith("draft more"));
    QVERIFY(!setupState().dirty);
    QVERIFY(!bar->isVisible());
    QVERIFY2(prompter->errors.isEmpty(), qPrintable(prompter->errors.join(u'\n')));
}

void tst_BootstrapPane::aLargeFileSaysWhatToDo()
{
    chooseRuntime(QStringLiteral("openclaw"));
    const QString bootstrap = path(QStringLiteral("BOOTSTRAP.md"));
    // Sparse: over 64 MiB on paper, nothing on the disk.
    {
        QFile file(bootstrap);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.resize(WholeReadLimitBytes + 1));
    }
    // As a slot's: read-only, only its first bytes read, and the note says
    // what to do.
    QTRY_COMPARE(setupPane()->stateLabel()->text(), QStringLiteral("read-only"));
    QVERIFY(setupPane()->readOnlyNote()->isVisibleTo(window()));
    QCOMPARE(setupPane()->readOnlyNote()->text(),
             QStringLiteral("Read-only: This file is larger than 64 MiB, so it opens read-only "
                            "and is not read whole. Edit it with another tool."));
    QVERIFY(!setupPane()->editAnywayButton()->isVisibleTo(window()));
    QVERIFY(setupPane()->editor()->isReadOnly());
    QVERIFY(!editor()->session()->hasUnsaved());
    QVERIFY(!m_fixture.action("finishSetup")->isEnabled()); // it could not be restored
    QCOMPARE(QFileInfo(bootstrap).size(), WholeReadLimitBytes + 1);
    // A regular file again: the note goes.
    QVERIFY(QFile::remove(bootstrap));
    QVERIFY(writeAtomically(bootstrap, "Small.\n"));
    QTRY_COMPARE(setupPane()->stateLabel()->text(), QStringLiteral("present"));
    QVERIFY(!setupPane()->readOnlyNote()->isVisibleTo(window()));
}

// As on a slot's pane, Save says why nothing is written while recovered
// text waits for an answer; restored, Save writes it.
void tst_BootstrapPane::saveWhileRecoveredTextWaitsSaysWhy()
{
    const QByteArray recovered = QByteArray(Bootstrap) + "Then ask about tea.\r\n";
    const QByteArray digest
        = QCryptographicHash::hash(Bootstrap, QCryptographicHash::Sha256).toHex();
    // A copy a previous run left, offered when the window opens the folder again.
    QVERIFY(m_fixture.close());
    QVERIFY(RecoveryStore(QFileInfo(m_fixture.dir()).absoluteFilePath())
                .storeFile(QStringLiteral("BOOTSTRAP.md"), recovered, digest)
                .ok());
    m_fixture.reopen();
    chooseRuntime(QStringLiteral("openclaw"));
    QTRY_VERIFY(model()->hasRecovery(setupDocument()));
    QTRY_VERIFY(setupPane()->recoveryBar()->isVisible());
    QVERIFY(setupPane()->editor()->isReadOnly());
    setupPane()->editor()->setFocus(Qt::OtherFocusReason);
    QTRY_VERIFY(m_fixture.action("save")->isEnabled());
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QLabel *message = window()->statusMessage();
    QTRY_VERIFY(message->isVisible());
    QVERIFY2(message->text().startsWith(QStringLiteral("BOOTSTRAP.md is read-only until you "
                                                       "restore or discard its recovered text")),
             qPrintable(message->text()));
    QCOMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), Bootstrap);

    model()->restoreRecovery(setupDocument());
    QTRY_COMPARE(setupPane()->editor()->toPlainText(),
                 QString::fromUtf8(QByteArray(recovered).replace("\r\n", "\n")));
    QVERIFY(!setupPane()->editor()->isReadOnly());
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QTRY_COMPARE(readAll(path(QStringLiteral("BOOTSTRAP.md"))), recovered);
}

QTEST_MAIN(tst_BootstrapPane)
#include "tst_bootstrappane.moc"
