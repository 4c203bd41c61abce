#include "../live/writefaults.h"
#include "compose/composer.h"
#include "compose/displaytext.h"
#include "compose/utf8.h"
#include "disk/composedirectory.h"
#include "disk/recoverystore.h"
#include "documentcontroller.h"
#include "exportcontroller.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "persona/snapshot.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "prompter.h"
#include "slots/diskchangedbar.h"
#include "slots/elidedlabel.h"
#include "slots/markdownhighlighter.h"
#include "slots/panestack.h"
#include "slots/recoverybar.h"
#include "slots/sizemeter.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

#include <cerrno>
#include <sys/stat.h>

using namespace soul;
using namespace soul::guitest;

namespace {

// Answers the window's questions as a test tells it to, and records them.
class TestPrompter final : public QuietPrompter
{
public:
    UnsavedAnswer unsavedAnswer = UnsavedAnswer::Cancel;
    ExportAnswer exportAnswer = ExportAnswer::Cancel;
    QString exportPath;
    QString saveAllDirectory;
    QStringList errors;
    QStringList asked;
    QString lastDiff;
    // Answers to the stale-save question, taken in order; Cancel once empty.
    QList<StaleAnswer> staleAnswers;

    StaleAnswer askStaleSave(const QString &file, const QString &why, StaleReason) override
    {
        asked.append(QStringLiteral("stale:") + file);
        staleWhy = why;
        return staleAnswers.isEmpty() ? StaleAnswer::Cancel : staleAnswers.takeFirst();
    }
    QString staleWhy;

    UnsavedAnswer askUnsaved(const QStringList &files) override
    {
        asked.append(QStringLiteral("unsaved:") + files.join(QLatin1Char(',')));
        return unsavedAnswer;
    }
    ExportAnswer askExportWithUnsaved(const QStringList &files) override
    {
        asked.append(QStringLiteral("export:") + files.join(QLatin1Char(',')));
        return exportAnswer;
    }
    QString askExportPath(const QString &) override
    {
        sequence.append(QStringLiteral("exportPath"));
        return exportPath;
    }
    QString askSaveAllDirectory(const QString &) override
    {
        asked.append(QStringLiteral("saveAllDirectory"));
        return saveAllDirectory;
    }
    void showError(const QString &, const QString &text) override { errors.append(text); }
    void showCompare(const QString &, const QString &diff) override { lastDiff = diff; }
    bool askSaveChangedBytes(const QString &file, const QStringList &changes) override
    {
        sequence.append(QStringLiteral("changedBytes:") + file);
        lastChanges = changes;
        return changedBytesAnswer;
    }
    bool askReplaceExport(const QStringList &paths) override
    {
        QStringList names;
        for (const QString &path : paths)
            names.append(QFileInfo(path).fileName());
        sequence.append(QStringLiteral("replace:") + names.join(QLatin1Char(',')));
        return replaceAnswer;
    }
    bool askDropUnsaved(const QString &file) override
    {
        sequence.append(QStringLiteral("drop:") + file);
        return dropAnswer;
    }

    // Every question of the three above and askExportPath, in order.
    QStringList sequence;
    QStringList lastChanges;
    bool changedBytesAnswer = false;
    bool replaceAnswer = false;
    bool dropAnswer = false;
};

QString editorText(const SlotPane *pane)
{
    return pane->editor()->document()->toRawText().replace(QChar::ParagraphSeparator,
                                                           QLatin1Char('\n'));
}

// QTest::keyClicks only knows ASCII; this types any text as key events.
void typeText(QWidget *widget, const QString &text)
{
    for (const QChar c : text) {
        QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, QString(c));
        QKeyEvent release(QEvent::KeyRelease, 0, Qt::NoModifier, QString(c));
        QApplication::sendEvent(widget, &press);
        QApplication::sendEvent(widget, &release);
    }
}

// The characters under each one-character extra selection of `edit`.
QString markedCharacters(const QPlainTextEdit *edit)
{
    QString marked;
    for (const QTextEdit::ExtraSelection &selection : edit->extraSelections()) {
        if (selection.cursor.selectionEnd() - selection.cursor.selectionStart() == 1)
            marked.append(selection.cursor.selectedText());
    }
    return marked;
}

// Survives edits around its block, not a reload of the whole text.
class BlockMarker final : public QTextBlockUserData
{};

// What the start view says while no folder was opened yet.
const QString noRecentFolders = QStringLiteral(
    "No recent folders yet. A folder you open is listed here.");

QString previewText(const SoulPreview *preview)
{
    return preview->document()->toRawText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
}

// Qt moves the focus between the widgets that share an Alt+letter and
// presses none of them, so each key a window answers to must have one owner.
// Adds to `clashes` each mnemonic that two entries of `menu` share, and does
// the same for its submenus.
void addMenuClashes(const QMenu *menu, QStringList &clashes)
{
    QMap<QKeySequence, QString> taken;
    for (QAction *action : menu->actions()) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        const QKeySequence key = QKeySequence::mnemonic(action->text());
        if (!key.isEmpty()) {
            if (taken.contains(key)) {
                clashes.append(
                    QStringLiteral("%1 menu: %2 and %3 share %4")
                        .arg(menu->title(), taken.value(key), action->text(), key.toString()));
            }
            taken.insert(key, action->text());
        }
        if (action->menu())
            addMenuClashes(action->menu(), clashes);
    }
}

// What a window answers to with Alt+letter as it is now: the menu bar's
// titles and the visible buttons, check boxes and labels that pass the focus
// to a buddy, wherever they are (the bars of the panes included), each named
// with the nearest of the project's widgets it is in ("\"&Reload\"
// (QPushButton in soul::DiskChangedBar)"); and a sentence for each mnemonic
// that two of them, or two entries of one menu, share.
struct Mnemonics
{
    QStringList owners;
    QStringList clashes;

    qsizetype ownedIn(const char *place) const
    {
        return owners.filter(QStringLiteral(" in %1)").arg(QLatin1String(place))).size();
    }
};

Mnemonics mnemonics(const QMainWindow *window)
{
    Mnemonics found;
    QMap<QKeySequence, QString> taken;
    const auto take = [&](const QString &text, const QWidget *owner) {
        const QKeySequence key = QKeySequence::mnemonic(text);
        if (key.isEmpty())
            return;
        const QWidget *place = owner;
        while (!QLatin1String(place->metaObject()->className()).startsWith(QLatin1String("soul::"))
               && place->parentWidget())
            place = place->parentWidget();
        const QString what = QStringLiteral("\"%1\" (%2 in %3)")
                                 .arg(text,
                                      QLatin1String(owner->metaObject()->className()),
                                      QLatin1String(place->metaObject()->className()));
        if (taken.contains(key))
            found.clashes.append(
                QStringLiteral("%1 and %2 share %3").arg(taken.value(key), what, key.toString()));
        taken.insert(key, what);
        found.owners.append(what);
    };
    for (const QWidget *widget : window->findChildren<QWidget *>()) {
        if (!widget->isVisible() || widget->window() != window)
            continue;
        if (const auto *bar = qobject_cast<const QMenuBar *>(widget)) {
            for (const QAction *title : bar->actions()) {
                if (title->isVisible())
                    take(title->text(), bar);
            }
        } else if (const auto *button = qobject_cast<const QAbstractButton *>(widget)) {
            take(button->text(), button);
        } else if (const auto *label = qobject_cast<const QLabel *>(widget);
                   label && label->buddy()) {
            take(label->text(), label);
        }
    }
    for (const QAction *title : window->menuBar()->actions()) {
        if (title->menu())
            addMenuClashes(title->menu(), found.clashes);
    }
    return found;
}
} // namespace

class tst_MainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void opensIntoPanesAndPreview();
    void soulDigestFollowsTheLatestText();
    void remembersWindowSize();
    void typingUpdatesPreviewByRangeEdit();
    void diskEventsReachPanesAndPreview();
    void dirtyPaneSurvivesExternalChange();
    void deletedWhileDirtyOffersSaveOrDiscard();
    void saveKeepsBytesWhenOneWordChanges();
    void ctrlSOnAChangedFileAsks();
    void ctrlSBeforeTheBarShowsAsks();
    void saveAllAsksForEachChangedFile();
    void closeWithSaveAllAsksAboutChangedFiles();
    void saveAllAndExportAsksAboutChangedFiles();
    void exportEqualsComposeDirectory();
    void exportWithUnsavedAsks();
    void copySoulIsExact();
    void failedSaveKeepsBuffer();
    void lostFolderOffersAWayOut();
    void fifoSlotDoesNotHang();
    void closingWithUnsavedAsks();
    void invisiblesKeepPositions();
    void rangeEditsStayExactWithMultibyteText();
    void typingInACappedFileKeepsThePreviewExact();
    void sizeMeterLevels();
    void sizeMeterSaysItsRulesCap();
    void previewLaysOutItsModelsRule();
    void createFromTemplate();
    void newPersonaWritesTemplates();
    void newPersonaSurvivesEveryWriteFault_data();
    void newPersonaSurvivesEveryWriteFault();
    void jumpShortcutsFocusPanes();
    void markdownFormatsWhatIsShown();
    void largePaneLoadsWhenShown();
    void recoveryBarRestoresAndCompares();
    void recoveryBarDiscards();
    void cancelledCloseKeepsRecovery();
    void titleMarksUnsavedPanes();
    void menusListCommandsWithShortcuts();
    void eachMnemonicHasOneOwner();
    void altRReloadsAChangedFile();
    void openRecentMenuReopensFolders();
    void editActionsFollowTheFocusedPane();
    void absentSlotFoldsToItsHeader();
    void skippedSlotSaysWhyInItsPane();
    void headerNamesReadOnlyAndDeletedStates();
    void startViewSaysWhenNoFolderIsRecent();
    void narrowHeaderElidesTheRole();
    void revertAndReloadAreOneUndoableStep();
    void discardWithoutAFileAsksFirst();
    void cleanPaneFollowsDiskByARangeEdit();
    void editAnywayExplainsUntilSavedAndConfirms();
    void exportAsksForTheDestinationFirst();
    void wrongCaseFileIsNamedAndRenamed();
    void invisiblesMarkNonAsciiSpacesAndLoneCr();
    void missingFolderPreviewDoesNotClaimDisk();
    void fifoOrLinkLoopIsNotADeletion();
    void saveOnAReadOnlyPaneSaysWhy();
    void secondWindowOnTheFolderIsTold();
    void longStatusMessageIsWhole();

private:
    void openWindow(const QString &dir = {});
    SlotPane *pane(int slot) const { return window()->panes()->pane(slot); }
    SoulPreview *preview() const { return window()->previewPanel()->preview(); }
    QString path(int slot) const { return m_fixture.path(slot); }
    // Export as the menu does, then waits until the worker wrote it.
    bool exportAndWait();
    QString expectedPreview(SoulView view = SoulView::Unsaved) const
    {
        return displayText(utf8::decode(window()->model()->soul(view)), preview()->showInvisibles());
    }

    MainWindow *window() const { return m_fixture.window(); }
    QAction *action(const char *name) { return m_fixture.action(name); }
    // The visible widget of the window announced as `name` (a bar's
    // accessible name), as assistive technology finds it; null when none is.
    QWidget *announced(const QString &name) const
    {
        for (QWidget *widget : window()->findChildren<QWidget *>()) {
            if (widget->isVisible() && widget->accessibleName() == name)
                return widget;
        }
        return nullptr;
    }
    // The texts of the labels on screen.
    QStringList labelsShown() const
    {
        QStringList texts;
        for (const QLabel *label : window()->findChildren<QLabel *>()) {
            if (label->isVisible())
                texts.append(label->text());
        }
        return texts;
    }
    // Presses Alt+`key`, the mnemonic of a button on screen.
    void pressMnemonic(Qt::Key key) { QTest::keyClick(window(), key, Qt::AltModifier); }
    TestPrompter *prompter() const { return m_fixture.prompter(); }

    TestWindow<TestPrompter> m_fixture;
};

void tst_MainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_MainWindow::init()
{
    m_fixture.init();
    QVERIFY(writeInPlace(path(0), "# Rules\n\nBe brief.\n"));
    QVERIFY(writeInPlace(path(1), "You are Kip, a terse assistant.\n"));
    QVERIFY(writeInPlace(path(6), "- prefers metric units"));
}

void tst_MainWindow::cleanup()
{
    if (window())
        prompter()->unsavedAnswer = Prompter::UnsavedAnswer::Discard;
    m_fixture.cleanup();
}

bool tst_MainWindow::exportAndWait()
{
    ExportController *exporter = window()->exporter();
    QSignalSpy exported(exporter, &ExportController::exported);
    QSignalSpy failed(exporter, &ExportController::failed);
    if (!exporter->exportSnapshot())
        return false;
    // The export runs on a worker: the window answers meanwhile.
    if (!exporter->busy())
        return false;
    return exported.wait(30000) && failed.isEmpty() && !exporter->busy();
}

void tst_MainWindow::openWindow(const QString &dir)
{
    m_fixture.open(dir.isEmpty() ? m_fixture.dir() : dir);
}

void tst_MainWindow::remembersWindowSize()
{
    openWindow();
    const QSize chosen(900, 640);
    window()->resize(chosen);
    QTRY_COMPARE(window()->size(), chosen);
    QVERIFY(m_fixture.close());

    MainWindow again(m_fixture.options());
    QCOMPARE(again.size(), chosen);
}

void tst_MainWindow::opensIntoPanesAndPreview()
{
    openWindow();
    QCOMPARE(editorText(pane(1)), QStringLiteral("You are Kip, a terse assistant.\n"));
    QVERIFY(pane(3)->createButton()->isVisible());
    QCOMPARE(previewText(preview()), expectedPreview());
    QCOMPARE(window()->model()->soul(SoulView::OnDisk), composeDirectory(m_fixture.dir()).soul);
    QTRY_VERIFY(window()->previewPanel()->totalsLabel()->text().contains(
        QStringLiteral("AGENTS.md, SOUL.md, MEMORY.md")));
}

void tst_MainWindow::soulDigestFollowsTheLatestText()
{
    openWindow();
    PreviewPanel *panel = window()->previewPanel();
    PersonaModel *model = window()->model();
    auto digestOf = [&] {
        return QString::fromLatin1(
            QCryptographicHash::hash(model->soul(SoulView::Unsaved), QCryptographicHash::Sha256)
                .toHex());
    };
    QTRY_COMPARE(panel->soulSha256(), digestOf());
    QVERIFY(panel->totalsLabel()->text().contains(panel->soulSha256().left(12)));
    QVERIFY(!panel->settling());

    // An edit makes the digest shown outdated at once: it is not offered
    // until the one of the new text arrives.
    QPlainTextEdit *editor = pane(1)->editor();
    editor->setFocus();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClick(editor, Qt::Key_X);
    QVERIFY(panel->soulSha256().isEmpty());
    QVERIFY(panel->settling());
    QVERIFY(panel->totalsLabel()->text().contains(QStringLiteral("computing")));
    // Another edit before the first digest arrives supersedes it.
    QTest::keyClick(editor, Qt::Key_Y);
    QVERIFY(panel->soulSha256().isEmpty());
    QTRY_VERIFY(!panel->settling());
    QVERIFY(model->soul(SoulView::Unsaved).contains("xy"));
    QCOMPARE(panel->soulSha256(), digestOf());
    QVERIFY(panel->totalsLabel()->text().contains(panel->soulSha256().left(12)));
    QVERIFY(!panel->totalsLabel()->text().contains(QStringLiteral("computing")));
}

void tst_MainWindow::typingUpdatesPreviewByRangeEdit()
{
    openWindow();
    const int rebuilds = preview()->rebuildCount();
    QPlainTextEdit *editor = pane(1)->editor();
    editor->setFocus();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral("Always polite."));
    QVERIFY(previewText(preview()).contains(
        QStringLiteral("assistant.\nAlways polite.\n\n## MEMORY.md")));
    QCOMPARE(previewText(preview()), expectedPreview());
    QCOMPARE(preview()->rebuildCount(), rebuilds);
    // One range edit a keystroke, except where the trim hides it (a trailing space).
    QVERIFY(preview()->rangeEditCount() >= 13);
    QVERIFY(window()->model()->slot(1).dirty);
    QVERIFY(window()->previewPanel()->unsavedNote()->text().contains(QStringLiteral("SOUL.md")));

    // The on-disk view does not have the edit.
    window()->previewPanel()->unsavedToggle()->setChecked(false);
    QCOMPARE(previewText(preview()), expectedPreview(SoulView::OnDisk));
    QVERIFY(!previewText(preview()).contains(QStringLiteral("Always polite.")));
}

void tst_MainWindow::diskEventsReachPanesAndPreview()
{
    openWindow();
    QVERIFY(writeInPlace(path(1), "Edited in place.\n"));
    QTRY_COMPARE(editorText(pane(1)), QStringLiteral("Edited in place.\n"));
    QTRY_COMPARE(previewText(preview()), expectedPreview());
    QVERIFY(previewText(preview()).contains(QStringLiteral("Edited in place.")));

    QVERIFY(writeAtomically(path(1), "Saved atomically.\n"));
    QTRY_COMPARE(editorText(pane(1)), QStringLiteral("Saved atomically.\n"));
    QTRY_VERIFY(previewText(preview()).contains(QStringLiteral("Saved atomically.")));

    QVERIFY(QFile::remove(path(1)));
    QTRY_VERIFY(!previewText(preview()).contains(QStringLiteral("## SOUL.md")));
    QTRY_VERIFY(pane(1)->createButton()->isVisible());

    QVERIFY(writeInPlace(path(3), "The user likes tea.\n"));
    QTRY_VERIFY(
        previewText(preview()).contains(QStringLiteral("## USER.md\n\nThe user likes tea.")));
    QCOMPARE(editorText(pane(3)), QStringLiteral("The user likes tea.\n"));
    QCOMPARE(previewText(preview()), expectedPreview());

    // A burst of writes settles on the last one.
    for (int i = 0; i < 20; ++i)
        QVERIFY(writeInPlace(path(6), QByteArray("burst ") + QByteArray::number(i) + '\n'));
    QTRY_COMPARE(editorText(pane(6)), QStringLiteral("burst 19\n"));
    QTRY_COMPARE(previewText(preview()), expectedPreview());
    QCOMPARE(window()->model()->soul(SoulView::OnDisk), composeDirectory(m_fixture.dir()).soul);
}

void tst_MainWindow::dirtyPaneSurvivesExternalChange()
{
    openWindow();
    QPlainTextEdit *editor = pane(1)->editor();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral("My edit."));
    const QString mine = editorText(pane(1));
    QVERIFY(writeInPlace(path(1), "Theirs.\n"));
    QTRY_VERIFY(pane(1)->diskBar()->isVisible());
    QCOMPARE(pane(1)->diskBar()->kind(), DiskChangedBar::Kind::Changed);
    QCOMPARE(editorText(pane(1)), mine);
    QVERIFY(previewText(preview()).contains(QStringLiteral("My edit.")));

    pressMnemonic(Qt::Key_M); // Compare
    QTRY_VERIFY(prompter()->lastDiff.contains(QStringLiteral("-Theirs.")));
    QVERIFY(prompter()->lastDiff.contains(QStringLiteral("+My edit.")));

    pressMnemonic(Qt::Key_K); // Keep mine
    QTRY_VERIFY(!pane(1)->diskBar()->isVisible());
    QCOMPARE(editorText(pane(1)), mine);

    QVERIFY(writeInPlace(path(1), "Theirs again.\n"));
    QTRY_VERIFY(pane(1)->diskBar()->isVisible());
    pressMnemonic(Qt::Key_R); // Reload
    QTRY_COMPARE(editorText(pane(1)), QStringLiteral("Theirs again.\n"));
    QVERIFY(!window()->model()->slot(1).dirty);
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::deletedWhileDirtyOffersSaveOrDiscard()
{
    openWindow();
    pane(0)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane(0)->editor(), QStringLiteral("More."));
    QVERIFY(QFile::remove(path(0)));
    QTRY_VERIFY(pane(0)->diskBar()->isVisible());
    QCOMPARE(pane(0)->diskBar()->kind(), DiskChangedBar::Kind::Deleted);
    QVERIFY(previewText(preview()).contains(QStringLiteral("More.")));
    // Re-creating a deleted file is asked first.
    pressMnemonic(Qt::Key_S); // Save to re-create
    QTRY_COMPARE(prompter()->asked, QStringList{QStringLiteral("stale:AGENTS.md")});
    QVERIFY(!QFileInfo::exists(path(0)));
    prompter()->staleAnswers = {Prompter::StaleAnswer::Overwrite};
    pressMnemonic(Qt::Key_S);
    QTRY_COMPARE(readAll(path(0)), QByteArray("# Rules\n\nBe brief.\nMore."));
    QVERIFY(!pane(0)->diskBar()->isVisible());
}

void tst_MainWindow::ctrlSOnAChangedFileAsks()
{
    openWindow();
    QPlainTextEdit *editor = pane(6)->editor();
    editor->setFocus();
    QTest::keyClicks(editor, QStringLiteral("Mine. "));
    QVERIFY(writeInPlace(path(6), "Theirs.\n"));
    QTRY_VERIFY(pane(6)->diskBar()->isVisible());

    // Cancel: nothing written, the edits stay unsaved.
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QCOMPARE(prompter()->asked, QStringList{QStringLiteral("stale:MEMORY.md")});
    QVERIFY(prompter()->staleWhy.contains(QDir::toNativeSeparators(path(6))));
    QCOMPARE(readAll(path(6)), QByteArray("Theirs.\n"));
    QVERIFY(window()->model()->slot(6).dirty);
    QVERIFY(prompter()->errors.isEmpty());

    // Compare shows the disk against the buffer, then asks again.
    prompter()->asked.clear();
    prompter()->staleAnswers = {Prompter::StaleAnswer::Compare, Prompter::StaleAnswer::Cancel};
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QCOMPARE(prompter()->asked,
             QStringList({QStringLiteral("stale:MEMORY.md"), QStringLiteral("stale:MEMORY.md")}));
    QVERIFY(prompter()->lastDiff.contains(QStringLiteral("-Theirs.")));
    QVERIFY(prompter()->lastDiff.contains(QStringLiteral("+Mine. - prefers metric units")));
    QCOMPARE(readAll(path(6)), QByteArray("Theirs.\n"));

    prompter()->staleAnswers = {Prompter::StaleAnswer::Overwrite};
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QCOMPARE(readAll(path(6)), QByteArray("Mine. - prefers metric units"));
    QVERIFY(!window()->model()->slot(6).dirty);
    QVERIFY(!pane(6)->diskBar()->isVisible());
}

// The file changes and Ctrl+S comes before the watcher could report it.
void tst_MainWindow::ctrlSBeforeTheBarShowsAsks()
{
    openWindow();
    QPlainTextEdit *editor = pane(1)->editor();
    editor->setFocus();
    QTest::keyClicks(editor, QStringLiteral("Mine. "));
    QVERIFY(writeInPlace(path(1), "Theirs.\n"));
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QCOMPARE(prompter()->asked, QStringList{QStringLiteral("stale:SOUL.md")});
    QCOMPARE(readAll(path(1)), QByteArray("Theirs.\n"));
    QVERIFY(window()->model()->slot(1).dirty);
    // The pane now shows what happened.
    QTRY_VERIFY(pane(1)->diskBar()->isVisible());
    QCOMPARE(editorText(pane(1)), QStringLiteral("Mine. You are Kip, a terse assistant.\n"));
}

void tst_MainWindow::saveAllAsksForEachChangedFile()
{
    openWindow();
    QTest::keyClicks(pane(1)->editor(), QStringLiteral("A "));
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("B "));
    QVERIFY(writeInPlace(path(1), "Theirs 1.\n"));
    QVERIFY(writeInPlace(path(6), "Theirs 6.\n"));
    QTRY_VERIFY(pane(1)->diskBar()->isVisible() && pane(6)->diskBar()->isVisible());

    // Cancel on the first stops Save all; nothing is written.
    action("saveAll")->trigger();
    QCOMPARE(prompter()->asked, QStringList{QStringLiteral("stale:SOUL.md")});
    QCOMPARE(readAll(path(1)), QByteArray("Theirs 1.\n"));
    QCOMPARE(readAll(path(6)), QByteArray("Theirs 6.\n"));

    prompter()->asked.clear();
    prompter()->staleAnswers = {Prompter::StaleAnswer::Overwrite, Prompter::StaleAnswer::Cancel};
    action("saveAll")->trigger();
    QCOMPARE(prompter()->asked,
             QStringList({QStringLiteral("stale:SOUL.md"), QStringLiteral("stale:MEMORY.md")}));
    QCOMPARE(readAll(path(1)), QByteArray("A You are Kip, a terse assistant.\n"));
    QCOMPARE(readAll(path(6)), QByteArray("Theirs 6.\n"));
    QVERIFY(window()->model()->slot(6).dirty);
}

void tst_MainWindow::closeWithSaveAllAsksAboutChangedFiles()
{
    openWindow();
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("B "));
    QVERIFY(writeInPlace(path(6), "Theirs 6.\n"));
    prompter()->unsavedAnswer = Prompter::UnsavedAnswer::SaveAll;
    QVERIFY(!window()->documents()->close());
    QVERIFY(window()->model()->isOpen());
    QCOMPARE(prompter()->asked,
             QStringList({QStringLiteral("unsaved:MEMORY.md"), QStringLiteral("stale:MEMORY.md")}));
    QCOMPARE(readAll(path(6)), QByteArray("Theirs 6.\n"));
    QVERIFY(window()->model()->slot(6).dirty);
}

// "Save all and export" with a file changed outside: the same question, and
// Cancel exports nothing; Overwrite saves and exports the edits.
void tst_MainWindow::saveAllAndExportAsksAboutChangedFiles()
{
    openWindow();
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("B "));
    QVERIFY(writeInPlace(path(6), "Theirs 6.\n"));
    const QString out = m_fixture.filePath(QStringLiteral("out.md"));
    prompter()->exportPath = out;
    prompter()->exportAnswer = Prompter::ExportAnswer::SaveAllAndExport;
    QVERIFY(!window()->exporter()->exportSnapshot());
    QVERIFY(prompter()->asked.contains(QStringLiteral("stale:MEMORY.md")));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(readAll(path(6)), QByteArray("Theirs 6.\n"));

    prompter()->staleAnswers = {Prompter::StaleAnswer::Overwrite};
    QVERIFY(exportAndWait());
    QCOMPARE(readAll(path(6)), QByteArray("B - prefers metric units"));
    QCOMPARE(readAll(out), composeDirectory(m_fixture.dir()).soul);
}

void tst_MainWindow::saveKeepsBytesWhenOneWordChanges()
{
    const QByteArray original("\xef\xbb\xbfYou are\xc2\xa0Kip.\r\nA terse word.\r\nLast line");
    QVERIFY(writeInPlace(path(1), original));
    openWindow();
    QVERIFY(!window()->model()->slot(1).readOnly);
    QPlainTextEdit *editor = pane(1)->editor();
    editor->setFocus();
    const QTextCursor found = editor->document()->find(QStringLiteral("terse"));
    QVERIFY(!found.isNull());
    editor->setTextCursor(found);
    QTest::keyClicks(editor, QStringLiteral("short"));
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QTRY_VERIFY(!window()->model()->slot(1).dirty);
    QCOMPARE(readAll(path(1)),
             QByteArray("\xef\xbb\xbfYou are\xc2\xa0Kip.\r\nA short word.\r\nLast line"));
    QVERIFY(prompter()->errors.isEmpty());
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::exportEqualsComposeDirectory()
{
    QVERIFY(writeInPlace(path(2), "\xef\xbb\xbfName: Kip\r\n\xff\n"));
    openWindow();
    const QString out = m_fixture.filePath(QStringLiteral("out/soul.md"));
    QVERIFY(QDir().mkpath(m_fixture.filePath(QStringLiteral("out"))));
    prompter()->exportPath = out;
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_E));
    QTRY_VERIFY(QFile::exists(manifestPathFor(out)));
    QCOMPARE(readAll(out), composeDirectory(m_fixture.dir()).soul);
    QVERIFY(readAll(manifestPathFor(out)).contains("\"soul-snapshot\""));
    QVERIFY(prompter()->errors.isEmpty());
}

void tst_MainWindow::exportWithUnsavedAsks()
{
    openWindow();
    pane(1)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane(1)->editor(), QStringLiteral("Unsaved."));
    const QString out = m_fixture.filePath(QStringLiteral("disk.md"));
    prompter()->exportPath = out;
    prompter()->exportAnswer = Prompter::ExportAnswer::ExportOnDisk;
    QVERIFY(exportAndWait());
    QCOMPARE(prompter()->asked, QStringList{QStringLiteral("export:SOUL.md")});
    QVERIFY(!readAll(out).contains("Unsaved."));
    QVERIFY(window()->model()->slot(1).dirty);

    prompter()->exportAnswer = Prompter::ExportAnswer::SaveAllAndExport;
    prompter()->replaceAnswer = true; // disk.md is there now
    QVERIFY(exportAndWait());
    QVERIFY(readAll(out).contains("Unsaved."));
    QCOMPARE(readAll(out), composeDirectory(m_fixture.dir()).soul);
    QVERIFY(!window()->model()->slot(1).dirty);

    prompter()->exportAnswer = Prompter::ExportAnswer::Cancel;
    QTest::keyClicks(pane(1)->editor(), QStringLiteral("x"));
    QVERIFY(!window()->exporter()->exportSnapshot());
}

void tst_MainWindow::copySoulIsExact()
{
    QVERIFY(writeInPlace(path(1), "Tab\there\r\nNUL\0end\n"_qba));
    openWindow();
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QCOMPARE(QGuiApplication::clipboard()->text(),
             utf8::decode(composeDirectory(m_fixture.dir()).soul));
}

void tst_MainWindow::failedSaveKeepsBuffer()
{
    QTemporaryDir outer;
    const QString dir = outer.filePath(QStringLiteral("persona"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeInPlace(slotPath(dir, 1), "disk\n"));
    openWindow(dir);
    pane(1)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane(1)->editor(), QStringLiteral("precious"));
    QVERIFY(QDir().rename(dir, outer.filePath(QStringLiteral("renamed"))));
    QTRY_VERIFY(window()->model()->directoryLost());
    QTest::mouseClick(pane(1)->findChild<QPushButton *>(), Qt::LeftButton); // any header button
    QVERIFY(!window()->documents()->save(1));
    QVERIFY(!prompter()->errors.isEmpty());
    QVERIFY(prompter()->errors.last().contains(QStringLiteral("SOUL.md")));
    QVERIFY(window()->model()->slot(1).dirty);
    QCOMPARE(editorText(pane(1)), QStringLiteral("disk\nprecious"));
    QVERIFY(window()->model()->slot(1).bufferPresent);

    // The folder comes back: the buffer is still there, and saving works.
    QVERIFY(QDir().rename(outer.filePath(QStringLiteral("renamed")), dir));
    QTRY_VERIFY(!window()->model()->directoryLost());
    QVERIFY(window()->documents()->save(1));
    QCOMPARE(readAll(slotPath(dir, 1)), QByteArray("disk\nprecious"));
}

void tst_MainWindow::lostFolderOffersAWayOut()
{
    QTemporaryDir outer;
    const QString dir = outer.filePath(QStringLiteral("persona"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeInPlace(slotPath(dir, 0), "# Rules\r\n\r\nBe brief.\r\n"));
    QVERIFY(writeInPlace(slotPath(dir, 1), "disk\n"));
    QVERIFY(writeInPlace(slotPath(dir, 6), "- prefers metric units"));
    openWindow(dir);
    pane(1)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane(1)->editor(), QStringLiteral("precious"));
    QCOMPARE(pane(0)->stateLabel()->text(), QStringLiteral("present"));

    QVERIFY(QDir().rename(dir, outer.filePath(QStringLiteral("renamed"))));
    const QString missing = QStringLiteral("Folder missing");
    QTRY_VERIFY(announced(missing));
    QVERIFY(announced(missing)->accessibleDescription().contains(QDir::toNativeSeparators(dir)));
    for (int k : {0, 1, 6})
        QCOMPARE(pane(k)->stateLabel()->text(), QStringLiteral("folder missing"));

    // Close folder (Alt+C), cancelled: everything stays.
    prompter()->unsavedAnswer = Prompter::UnsavedAnswer::Cancel;
    const qsizetype asked = prompter()->asked.size();
    pressMnemonic(Qt::Key_C);
    QTRY_COMPARE(prompter()->asked.size(), asked + 1);
    QCOMPARE(prompter()->asked.last(), QStringLiteral("unsaved:SOUL.md"));
    QVERIFY(window()->model()->isOpen());
    QVERIFY(announced(missing));
    QCOMPARE(editorText(pane(1)), QStringLiteral("disk\nprecious"));

    // Close folder, Save all: the save cannot land, says so, and keeps the buffer.
    prompter()->unsavedAnswer = Prompter::UnsavedAnswer::SaveAll;
    const qsizetype failures = prompter()->errors.size();
    pressMnemonic(Qt::Key_C);
    QTRY_COMPARE(prompter()->errors.size(), failures + 1);
    QVERIFY(window()->model()->isOpen());
    QVERIFY(prompter()->errors.last().contains(QStringLiteral("SOUL.md")));
    QVERIFY(prompter()->errors.last().contains(QStringLiteral("Save all elsewhere")));
    QVERIFY(window()->model()->slot(1).dirty);
    QCOMPARE(editorText(pane(1)), QStringLiteral("disk\nprecious"));

    // Save all elsewhere into a folder that holds a slot file: refused, nothing written.
    QTemporaryDir taken;
    QVERIFY(writeInPlace(slotPath(taken.path(), 6), "theirs"));
    prompter()->saveAllDirectory = taken.path();
    pressMnemonic(Qt::Key_W); // Save all elsewhere
    QTRY_COMPARE(prompter()->errors.size(), failures + 2);
    QCOMPARE(prompter()->asked.last(), QStringLiteral("saveAllDirectory"));
    QVERIFY(prompter()->errors.last().contains(QDir::toNativeSeparators(slotPath(taken.path(), 6))));
    QVERIFY(!QFileInfo::exists(slotPath(taken.path(), 0)));
    QCOMPARE(readAll(slotPath(taken.path(), 6)), QByteArray("theirs"));
    QCOMPARE(window()->model()->directory(), QFileInfo(dir).absoluteFilePath());
    QVERIFY(announced(missing));
    QVERIFY(window()->model()->slot(1).dirty);

    // Save all elsewhere into a fresh folder: exact bytes, then it is the open folder.
    QTemporaryDir fresh;
    const int errors = prompter()->errors.size();
    prompter()->saveAllDirectory = fresh.path();
    pressMnemonic(Qt::Key_W);
    QTRY_COMPARE(window()->model()->directory(), QFileInfo(fresh.path()).absoluteFilePath());
    QCOMPARE(prompter()->errors.size(), errors);
    QCOMPARE(readAll(slotPath(fresh.path(), 0)), QByteArray("# Rules\r\n\r\nBe brief.\r\n"));
    QCOMPARE(readAll(slotPath(fresh.path(), 1)), QByteArray("disk\nprecious"));
    QCOMPARE(readAll(slotPath(fresh.path(), 6)), QByteArray("- prefers metric units"));
    QVERIFY(!QFileInfo::exists(slotPath(fresh.path(), 2)));
    QCOMPARE(window()->model()->directory(), QFileInfo(fresh.path()).absoluteFilePath());
    QVERIFY(!window()->model()->hasUnsaved());
    QVERIFY(!announced(missing));
    for (int k : {0, 1, 6})
        QCOMPARE(pane(k)->stateLabel()->text(), QStringLiteral("present"));
    QCOMPARE(editorText(pane(1)), QStringLiteral("disk\nprecious"));
    QVERIFY(!window()->isWindowModified());
}

void tst_MainWindow::fifoSlotDoesNotHang()
{
    QVERIFY(::mkfifo(QFile::encodeName(path(4)).constData(), 0600) == 0);
    openWindow();
    QCOMPARE(pane(4)->stateLabel()->text(), QStringLiteral("skipped"));
    QTRY_VERIFY(pane(4)->lintLabel()->text().contains(QStringLiteral("FIFO")));
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::closingWithUnsavedAsks()
{
    openWindow();
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("x"));
    prompter()->unsavedAnswer = Prompter::UnsavedAnswer::Cancel;
    QVERIFY(!window()->documents()->close());
    QVERIFY(window()->model()->isOpen());
    QCOMPARE(prompter()->asked, QStringList{QStringLiteral("unsaved:MEMORY.md")});
    prompter()->unsavedAnswer = Prompter::UnsavedAnswer::SaveAll;
    QVERIFY(window()->documents()->close());
    QVERIFY(!window()->model()->isOpen());
    QCOMPARE(readAll(path(6)), QByteArray("x- prefers metric units"));
}

void tst_MainWindow::invisiblesKeepPositions()
{
    QVERIFY(writeInPlace(path(1),
                         "\xef\xbb\xbf"
                         "a\tb \r\nc\0d \xff\n"_qba));
    openWindow();
    window()->previewPanel()->invisiblesToggle()->setChecked(true);
    QVERIFY(preview()->showInvisibles());
    const QString shown = previewText(preview());
    QCOMPARE(shown, expectedPreview());
    QCOMPARE(shown.size(), utf8::decode(window()->model()->soul(SoulView::Unsaved)).size());
    QVERIFY(shown.contains(QChar(0x21B5))); // CR
    QVERIFY(shown.contains(QChar(0x2205))); // NUL
    // The space before the CR of "b \r\n" is marked as trailing.
    bool trailingMarked = false;
    for (const QTextEdit::ExtraSelection &selection : preview()->extraSelections()) {
        if (selection.cursor.selectedText() == QStringLiteral(" ")
            && shown.at(selection.cursor.selectionEnd()) == QChar(0x21B5))
            trailingMarked = true;
    }
    QVERIFY(trailingMarked);
    // A range edit after the marks still lands in the right place.
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("y"));
    QCOMPARE(previewText(preview()), expectedPreview());
    QCOMPARE(preview()->sectionAt(preview()->sectionOffset(6)), 6);
}

void tst_MainWindow::rangeEditsStayExactWithMultibyteText()
{
    QVERIFY(writeInPlace(path(1),
                         "h\xc3\xa9llo w\xc3\xb6rld \xf0\x9f\x98\x80 \xc3\xbcn\xc3\xaf"
                         "code\n"));
    openWindow();
    QPlainTextEdit *editor = pane(1)->editor();
    editor->setFocus();
    const int rebuilds = preview()->rebuildCount();
    // Insert and delete next to multibyte characters and inside a surrogate pair's neighbourhood.
    const QList<int> positions = {1, 2, 8, 10, 12, 3, 0};
    for (int position : positions) {
        QTextCursor cursor = editor->textCursor();
        cursor.setPosition(position);
        editor->setTextCursor(cursor);
        typeText(editor, QStringLiteral("\u00e9\u00fc"));
        QCOMPARE(previewText(preview()), expectedPreview());
        QTest::keyClick(editor, Qt::Key_Backspace);
        QCOMPARE(previewText(preview()), expectedPreview());
        QTest::keyClick(editor, Qt::Key_Delete);
        QCOMPARE(previewText(preview()), expectedPreview());
    }
    // Replace one multibyte character by another of a different length.
    QTextCursor cursor = editor->document()->find(QStringLiteral("\u00f6"));
    QVERIFY(!cursor.isNull());
    editor->setTextCursor(cursor);
    typeText(editor, QStringLiteral("\u00e4"));
    QCOMPARE(previewText(preview()), expectedPreview());
    QCOMPARE(preview()->rebuildCount(), rebuilds);
}

void tst_MainWindow::typingInACappedFileKeepsThePreviewExact()
{
    // Over the cap, each key moves the cut: the preview replaces the edit and
    // the cut, not the stretch between them, and stays exact.
    QByteArray text;
    for (int i = 0; text.size() <= CapBytes + 20000; ++i)
        text += "line " + QByteArray::number(i) + " caf\xc3\xa9 \xf0\x9f\x98\x80\n";
    QVERIFY(writeInPlace(path(6), text));
    openWindow();
    window()->panes()->showPane(6);
    QPlainTextEdit *editor = pane(6)->editor();
    QTRY_VERIFY(!pane(6)->reloadPending() && !editor->document()->isEmpty());
    editor->setFocus();
    const int rebuilds = preview()->rebuildCount();
    const int length = editor->document()->characterCount();
    for (const int position : {3, length / 2, 17, length / 3}) {
        QTextCursor cursor = editor->textCursor();
        cursor.setPosition(position);
        editor->setTextCursor(cursor);
        typeText(editor, QStringLiteral("x\u00e9"));
        QCOMPARE(previewText(preview()), expectedPreview());
        QTest::keyClick(editor, Qt::Key_Backspace);
        QCOMPARE(previewText(preview()), expectedPreview());
        QTest::keyClick(editor, Qt::Key_Delete);
        QCOMPARE(previewText(preview()), expectedPreview());
    }
    QVERIFY(window()->model()->truncated(6, SoulView::Unsaved));
    QCOMPARE(preview()->rebuildCount(), rebuilds);
}

void tst_MainWindow::sizeMeterLevels()
{
    SizeMeter meter(ComposeRule::toolnexus());
    meter.setBytes(10);
    QCOMPARE(meter.level(), SizeMeter::Level::Normal);
    meter.setBytes(NearCapBytes);
    QCOMPARE(meter.level(), SizeMeter::Level::Warning);
    meter.setBytes(CapBytes);
    QCOMPARE(meter.level(), SizeMeter::Level::Warning);
    meter.setBytes(CapBytes + 100);
    QCOMPARE(meter.level(), SizeMeter::Level::Over);
    QVERIFY(meter.text().contains(QStringLiteral("truncated: the agent gets the first 2 MiB")));
    QVERIFY(meter.text().contains(QStringLiteral("100")));
}

// The preview follows its model's rule: the rule's order and join, in a
// rebuild and in its range edits.
void tst_MainWindow::previewLaysOutItsModelsRule()
{
    ComposeRule rule = ComposeRule::toolnexus();
    rule.order = {6, 1, 0};
    rule.sectionJoin = QByteArrayLiteral("\n~~~\n");
    rule.sectionPrefix = QByteArrayLiteral("# ");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const auto &[name, text] : {std::pair{"AGENTS.md", "agents"},
                                     std::pair{"SOUL.md", "soul"},
                                     std::pair{"MEMORY.md", "memory"},
                                     std::pair{"TOOLS.md", "tools"}}) {
        QVERIFY(test::writeFile(QDir(dir.path()).filePath(QLatin1String(name)), text));
    }
    PersonaModel model(rule);
    QVERIFY(model.open(dir.path()));
    SoulPreview preview(&model);
    preview.setView(SoulView::Unsaved);
    preview.rebuild();
    const auto expected = [&model] { return utf8::decode(model.soul(SoulView::Unsaved)); };
    QCOMPARE(previewText(&preview),
             QStringLiteral(
                 "# MEMORY.md\n\nmemory\n~~~\n# SOUL.md\n\nsoul\n~~~\n# AGENTS.md\n\nagents"));
    QCOMPARE(preview.sectionAt(0), 6);
    QCOMPARE(preview.sectionAt(int(previewText(&preview).size())), 0);

    // A change inside the middle section; a change to a slot the rule leaves out.
    model.setBufferText(1, u"soul, longer");
    preview.updateSection(1);
    QCOMPARE(previewText(&preview), expected());
    model.setBufferText(4, u"tools, not composed");
    preview.updateSection(4);
    QCOMPARE(previewText(&preview), expected());
    QVERIFY(!previewText(&preview).contains(QStringLiteral("tools")));
    model.close();
}

// The meter speaks of the rule it was given: its cap, its near share.
void tst_MainWindow::sizeMeterSaysItsRulesCap()
{
    ComposeRule rule = ComposeRule::toolnexus();
    rule.capBytes = 16;
    rule.nearPercent = 50;
    SizeMeter meter(rule);
    QCOMPARE(meter.accessibleName(), QStringLiteral("Size against the 16 bytes cap"));
    meter.setBytes(7);
    QCOMPARE(meter.level(), SizeMeter::Level::Normal);
    QCOMPARE(meter.text(), QStringLiteral("7 of 16 bytes (43.8 %)"));
    meter.setBytes(8);
    QCOMPARE(meter.level(), SizeMeter::Level::Warning);
    QCOMPARE(meter.text(), QStringLiteral("8 of 16 bytes (50.0 %), near the cap"));
    meter.setBytes(20);
    QCOMPARE(meter.level(), SizeMeter::Level::Over);
    QCOMPARE(meter.text(),
             QStringLiteral("truncated: the agent gets the first 16 bytes and loses 4 bytes"));

    rule.capBytes = 4096;
    SizeMeter kib(rule);
    kib.setBytes(5000);
    QCOMPARE(kib.text(),
             QStringLiteral("truncated: the agent gets the first 4 KiB and loses 904 bytes"));

    // A pane shows its model's rule.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(test::writeFile(QDir(dir.path()).filePath(QStringLiteral("SOUL.md")),
                            "0123456789abcdefXYZ!"));
    PersonaModel model(rule);
    QVERIFY(model.open(dir.path()));
    SlotPane pane(1, &model);
    QCOMPARE(pane.sizeMeter()->accessibleName(),
             QStringLiteral("SOUL.md size against the 4 KiB cap"));
    // Not shown, it waits; shown, it says the model's state.
    pane.refreshState();
    QCOMPARE(pane.sizeMeter()->level(), SizeMeter::Level::Absent);
    pane.show();
    QCOMPARE(pane.sizeMeter()->level(), SizeMeter::Level::Normal);
    QCOMPARE(pane.sizeMeter()->text(), QStringLiteral("20 of 4,096 bytes (0.5 %)"));
    model.close();
}

void tst_MainWindow::createFromTemplate()
{
    openWindow();
    QVERIFY(pane(3)->createButton()->isVisible());
    QTest::mouseClick(pane(3)->createButton(), Qt::LeftButton);
    QVERIFY(editorText(pane(3)).contains(QStringLiteral("Model of the user")));
    QVERIFY(window()->model()->slot(3).dirty);
    QVERIFY(!QFile::exists(path(3)));
    QVERIFY(previewText(preview()).contains(QStringLiteral("## USER.md")));
    QVERIFY(window()->documents()->save(3));
    QCOMPARE(readAll(path(3)), DocumentController::slotTemplate(3));
}

void tst_MainWindow::newPersonaWritesTemplates()
{
    openWindow();
    const QString dir = m_fixture.filePath(QStringLiteral("fresh"));
    QVERIFY(window()->documents()->createPersona(dir, {1, 6}));
    QCOMPARE(window()->model()->directory(), dir);
    QCOMPARE(readAll(slotPath(dir, 1)), DocumentController::slotTemplate(1));
    QVERIFY(!QFile::exists(slotPath(dir, 0)));
    QVERIFY(window()->documents()->recentPlaces().startsWith(RecentPlace::folder(dir)));
}

void tst_MainWindow::newPersonaSurvivesEveryWriteFault_data()
{
    test::addFaultRows(test::RenameCalls);
}

// Create from template, with each call of a kind failing in turn: every
// file is whole or absent, nothing temporary is left, the user is told
// which file, and the open folder stays open. A failed folder sync creates
// the persona and says which file the disk did not confirm.
void tst_MainWindow::newPersonaSurvivesEveryWriteFault()
{
    openWindow();
    int fired = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k < 64);
        const QString opened = window()->model()->directory();
        const QString dir = m_fixture.filePath(QStringLiteral("fresh%1").arg(k));
        const qsizetype errorsBefore = prompter()->errors.size();
        test::armRowFault(k);
        const bool created = window()->documents()->createPersona(dir, {1, 6});
        const bool hit = fileio::clearFault();
        const QStringList names = QDir(dir).entryList(QDir::Files | QDir::Hidden);
        for (const QString &name : names)
            QVERIFY2(name == slotName(1) || name == slotName(6), qPrintable(name));
        for (int slot : {1, 6}) {
            if (QFileInfo::exists(slotPath(dir, slot)))
                QCOMPARE(readAll(slotPath(dir, slot)), DocumentController::slotTemplate(slot));
        }
        if (!hit || test::rowOnlyWarns()) {
            QVERIFY(created);
            QCOMPARE(window()->model()->directory(), dir);
            if (!hit) {
                QCOMPARE(prompter()->errors.size(), errorsBefore);
                QVERIFY(test::madeOnly(test::RenameCalls));
                break;
            }
            ++fired;
            // The k-th folder sync is the k-th file's.
            QCOMPARE(prompter()->errors.size(), errorsBefore + 1);
            QVERIFY2(prompter()->errors.last().contains(slotPath(dir, k == 1 ? 1 : 6)),
                     qPrintable(prompter()->errors.last()));
            continue;
        }
        ++fired;
        QVERIFY(!created);
        QCOMPARE(window()->model()->directory(), opened);
        QVERIFY(prompter()->errors.last().contains(dir));
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

void tst_MainWindow::jumpShortcutsFocusPanes()
{
    openWindow();
    QApplication::setActiveWindow(window());
    for (int k = 0; k < SlotCount; ++k) {
        action(QByteArray("jumpToSlot" + QByteArray::number(k)).constData())->trigger();
        QTRY_VERIFY(pane(k)->isAncestorOf(QApplication::focusWidget()));
    }
}

void tst_MainWindow::markdownFormatsWhatIsShown()
{
    QByteArray text = "# Title\n\n```\ncode\n```\n\n- item with **strong** words\n";
    for (int i = 0; i < 1500; ++i)
        text += "Line " + QByteArray::number(i) + " of plain prose.\n";
    text += "```\n## Inside a fence\n";
    for (int i = 0; i < 1500; ++i)
        text += "Fenced line " + QByteArray::number(i) + ".\n";
    QVERIFY(writeInPlace(path(1), text));
    openWindow();
    window()->panes()->showPane(1);
    QPlainTextEdit *editor = pane(1)->editor();
    QTextDocument *document = editor->document();
    auto isBold = [](const QTextBlock &block) {
        const QList<QTextLayout::FormatRange> formats = block.layout()->formats();
        return !formats.isEmpty() && formats.first().format.fontWeight() == QFont::Bold;
    };
    auto isCode = [](const QTextBlock &block) {
        const QList<QTextLayout::FormatRange> formats = block.layout()->formats();
        return formats.size() == 1 && formats.first().length == block.length() - 1
               && formats.first().format.hasProperty(QTextFormat::FontFamilies);
    };

    // What is on screen is formatted once painted.
    const QTextBlock title = document->firstBlock();
    QTRY_VERIFY(MarkdownHighlighter::isFormatted(title));
    QVERIFY(isBold(title));
    QVERIFY(isCode(document->findBlockByNumber(3)));
    const QTextBlock item = document->findBlockByNumber(6);
    QVERIFY(MarkdownHighlighter::isFormatted(item));
    QCOMPARE(item.layout()->formats().size(), 2); // the marker and **strong**

    // Lines far below are not, until they are scrolled into view; the fence
    // opened 1,500 lines above holds there.
    const QTextBlock fenced = document->findBlockByNumber(7 + 1500 + 1);
    QCOMPARE(fenced.text(), QStringLiteral("## Inside a fence"));
    QVERIFY(!MarkdownHighlighter::isFormatted(fenced));
    editor->setTextCursor(QTextCursor(fenced));
    QTRY_VERIFY(MarkdownHighlighter::isFormatted(fenced));
    QVERIFY(isCode(fenced));
    QVERIFY(!isBold(fenced));

    // Opening a fence at the top turns every fence state below around: the
    // title becomes code as it is typed, the far heading is redone when shown.
    editor->moveCursor(QTextCursor::Start);
    QTest::keyClicks(editor, QStringLiteral("```"));
    QTest::keyClick(editor, Qt::Key_Return);
    const QTextBlock titleNow = document->findBlockByNumber(1);
    QCOMPARE(titleNow.text(), QStringLiteral("# Title"));
    QTRY_VERIFY(MarkdownHighlighter::isFormatted(titleNow));
    QVERIFY(isCode(titleNow));
    QVERIFY(!MarkdownHighlighter::isFormatted(fenced));
    editor->verticalScrollBar()->setValue(editor->verticalScrollBar()->maximum() / 2);
    editor->setTextCursor(QTextCursor(fenced));
    QTRY_VERIFY(MarkdownHighlighter::isFormatted(fenced));
    QVERIFY(isBold(fenced));
    QCOMPARE(editorText(pane(1)), QStringLiteral("```\n") + QString::fromUtf8(text));
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::largePaneLoadsWhenShown()
{
    QByteArray tools;
    QByteArray memory;
    for (int i = 0; i < 20000; ++i) {
        tools += "- tool " + QByteArray::number(i) + " is **allowed**\n";
        memory += "- memory " + QByteArray::number(i) + " kept\n";
    }
    QVERIFY(memory.size() > 256 * 1024 && tools.size() > 256 * 1024);
    QVERIFY(writeInPlace(path(5), tools));
    QVERIFY(writeInPlace(path(6), memory));
    // Panes of absent slots fold to their headers; these keep 5 and 6 below.
    for (int k : {2, 3, 4})
        QVERIFY(writeInPlace(path(k), "# Present\n"));
    openWindow();
    if (!pane(5)->editor()->visibleRegion().isEmpty()
        || !pane(6)->editor()->visibleRegion().isEmpty())
        QSKIP("The window shows every pane at once.");

    // Off screen: the model has the text (and so the preview); the editor
    // waits, empty and read-only.
    for (int k : {5, 6}) {
        QVERIFY(pane(k)->reloadPending());
        QVERIFY(pane(k)->editor()->document()->isEmpty());
        QVERIFY(pane(k)->editor()->isReadOnly());
    }
    QCOMPARE(window()->model()->slot(6).bufferBytes, memory);
    QCOMPARE(previewText(preview()), expectedPreview());

    // Scrolled into view: loaded after it is painted.
    window()->panes()->ensureWidgetVisible(pane(5));
    QTRY_VERIFY(!pane(5)->reloadPending());
    QCOMPARE(editorText(pane(5)), QString::fromUtf8(tools));
    QVERIFY(!pane(5)->editor()->isReadOnly());

    // Given the focus: loaded before a key can reach it.
    window()->panes()->showPane(6);
    QVERIFY(!pane(6)->reloadPending());
    QCOMPARE(editorText(pane(6)), QString::fromUtf8(memory));
    QVERIFY(!pane(6)->editor()->isReadOnly());
    pane(6)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("z"));
    QCOMPARE(window()->model()->slot(6).bufferBytes, memory + "z");
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::recoveryBarRestoresAndCompares()
{
    QVERIFY(RecoveryStore(m_fixture.dir())
                .store(1, "You are Kip, a terse assistant.\nRecovered line.\n", QByteArray())
                .ok());
    openWindow();
    RecoveryBar *bar = pane(1)->recoveryBar();
    QVERIFY(bar->isVisible());
    QVERIFY(!pane(0)->recoveryBar()->isVisible());
    QVERIFY(bar->message().startsWith(QStringLiteral("Unsaved text of SOUL.md from ")));
    // Stored without the file's digest: the file counts as changed since.
    QVERIFY(bar->message().contains(QStringLiteral("changed on disk since")));
    QCOMPARE(bar->accessibleName(), QStringLiteral("Recovered unsaved text"));
    QVERIFY(pane(1)->editor()->isReadOnly());
    QCOMPARE(editorText(pane(1)), QStringLiteral("You are Kip, a terse assistant.\n"));
    // The offer has the keyboard, and Tab walks its buttons.
    const auto focusedButton = [] {
        const auto *button = qobject_cast<const QPushButton *>(QApplication::focusWidget());
        return button ? button->text() : QString();
    };
    QTRY_COMPARE(QApplication::focusWidget(), bar->restoreButton());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QCOMPARE(focusedButton(), QStringLiteral("Com&pare"));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    QCOMPARE(focusedButton(), QStringLiteral("Disc&ard"));

    pressMnemonic(Qt::Key_P); // Compare
    QTRY_VERIFY(prompter()->lastDiff.contains(QStringLiteral("+Recovered line.")));
    QVERIFY(prompter()->lastDiff.contains(QStringLiteral("SOUL.md (recovered)")));
    QVERIFY(bar->isVisible());

    bar->restoreButton()->setFocus();
    QTest::keyClick(bar->restoreButton(), Qt::Key_Space);
    QVERIFY(!bar->isVisible());
    QVERIFY(!pane(1)->editor()->isReadOnly());
    QCOMPARE(editorText(pane(1)),
             QStringLiteral("You are Kip, a terse assistant.\nRecovered line.\n"));
    QVERIFY(window()->model()->slot(1).dirty);
    QVERIFY(previewText(preview()).contains(QStringLiteral("Recovered line.")));
    QCOMPARE(previewText(preview()), expectedPreview());
    QCOMPARE(readAll(path(1)), QByteArray("You are Kip, a terse assistant.\n"));
}

void tst_MainWindow::recoveryBarDiscards()
{
    QVERIFY(RecoveryStore(m_fixture.dir()).store(6, "forget me", QByteArray()).ok());
    openWindow();
    QVERIFY(pane(6)->recoveryBar()->isVisible());
    pressMnemonic(Qt::Key_A); // Discard
    QTRY_VERIFY(!pane(6)->recoveryBar()->isVisible());
    QVERIFY(RecoveryStore(m_fixture.dir()).pending().isEmpty());
    QCOMPARE(editorText(pane(6)), QStringLiteral("- prefers metric units"));
    QVERIFY(!pane(6)->editor()->isReadOnly());
    QVERIFY(!window()->model()->hasUnsaved());
}

void tst_MainWindow::cancelledCloseKeepsRecovery()
{
    openWindow();
    window()->model()->setRecoveryInterval(50);
    const RecoveryStore store(m_fixture.dir());
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("x"));
    QTRY_COMPARE(store.pending().size(), 1);
    QCOMPARE(store.pending().first().bytes, QByteArray("x- prefers metric units"));

    prompter()->unsavedAnswer = Prompter::UnsavedAnswer::Cancel;
    QVERIFY(!window()->close());
    QCOMPARE(store.pending().size(), 1);

    prompter()->unsavedAnswer = Prompter::UnsavedAnswer::Discard;
    QVERIFY(window()->close());
    QVERIFY(!QFileInfo::exists(store.storePath()));
    QCOMPARE(readAll(path(6)), QByteArray("- prefers metric units"));
}

void tst_MainWindow::titleMarksUnsavedPanes()
{
    openWindow();
    const QString name = QFileInfo(m_fixture.dir()).fileName();
    QVERIFY(window()->windowTitle().startsWith(name + QStringLiteral("[*]")));
    QVERIFY(!window()->isWindowModified());
    QTest::keyClicks(pane(1)->editor(), QStringLiteral("x"));
    QVERIFY(window()->isWindowModified());
    QVERIFY(window()->documents()->save(1));
    QVERIFY(!window()->isWindowModified());
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("y"));
    QVERIFY(window()->isWindowModified());
    window()->documents()->revert(6);
    QVERIFY(!window()->isWindowModified());
}

void tst_MainWindow::menusListCommandsWithShortcuts()
{
    openWindow();
    // Menu text without mnemonics -> shortcut, for every entry of a menu.
    auto entries = [this](const QString &title) {
        QMap<QString, QKeySequence> found;
        for (QAction *menuAction : window()->menuBar()->actions()) {
            if (menuAction->text().remove(QLatin1Char('&')) != title)
                continue;
            for (QAction *action : menuAction->menu()->actions()) {
                if (!action->isSeparator())
                    found.insert(action->text().remove(QLatin1Char('&')), action->shortcut());
            }
        }
        return found;
    };
    const QMap<QString, QKeySequence> file = entries(QStringLiteral("File"));
    QCOMPARE(file.value(QStringLiteral("Open Folder…")), QKeySequence(QKeySequence::Open));
    QVERIFY(file.contains(QStringLiteral("Open Recent")));
    QCOMPARE(file.value(QStringLiteral("New Persona…")), QKeySequence(QKeySequence::New));
    QCOMPARE(file.value(QStringLiteral("Save")), QKeySequence(QStringLiteral("Ctrl+S")));
    QCOMPARE(file.value(QStringLiteral("Save All")), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    QVERIFY(file.contains(QStringLiteral("Revert")));
    QCOMPARE(file.value(QStringLiteral("Export Snapshot…")), QKeySequence(QStringLiteral("Ctrl+E")));
    QCOMPARE(file.value(QStringLiteral("Close Folder")), QKeySequence(QStringLiteral("Ctrl+W")));
    QCOMPARE(file.value(QStringLiteral("Quit")), QKeySequence(QKeySequence::Quit));

    const QMap<QString, QKeySequence> edit = entries(QStringLiteral("Edit"));
    QCOMPARE(edit.value(QStringLiteral("Undo")), QKeySequence(QKeySequence::Undo));
    QCOMPARE(edit.value(QStringLiteral("Redo")), QKeySequence(QKeySequence::Redo));
    QCOMPARE(edit.value(QStringLiteral("Find…")), QKeySequence(QKeySequence::Find));
    QCOMPARE(edit.value(QStringLiteral("Copy Soul")), QKeySequence(QStringLiteral("Ctrl+Shift+C")));

    const QMap<QString, QKeySequence> view = entries(QStringLiteral("View"));
    QVERIFY(view.contains(QStringLiteral("Show Invisibles")));
    QVERIFY(view.contains(QStringLiteral("Preview What Is on Disk")));
    for (int k = 0; k < SlotCount; ++k) {
        QCOMPARE(view.value(QStringLiteral("Go to %1").arg(slotName(k))),
                 QKeySequence(QStringLiteral("Ctrl+%1").arg(k + 1)));
    }
}

void tst_MainWindow::eachMnemonicHasOneOwner()
{
    // Within a menu, each entry has its own mnemonic (Alt+F, V reverts), and
    // in the window each Alt+letter belongs to one widget on screen: a shared
    // one only moves the focus, so the bars' buttons would not be pressed.
    // The start view, before a folder is open.
    m_fixture.create();
    Mnemonics keys = mnemonics(window());
    QVERIFY2(keys.clashes.isEmpty(), qPrintable(keys.clashes.join(QLatin1Char('\n'))));
    // Open, New persona, the example, OpenClaw's agents, Hermes's home, the
    // recent list.
    QCOMPARE(keys.ownedIn("soul::StartView"), 6);

    // A folder with every bar a pane has, each in a pane of its own: recovered
    // text for MEMORY.md, SOUL.md changed on disk and AGENTS.md deleted on
    // disk under unsaved edits; the find bar; OpenClaw's settings. (One bar in
    // two panes shares its keys by nature: Alt+R then moves between the two
    // Reload buttons, and Space presses the one with the focus.)
    QVERIFY(RecoveryStore(m_fixture.dir()).store(6, "recovered", QByteArray()).ok());
    openWindow();
    PersonaModel *model = window()->model();
    QVERIFY(model->hasRecovery(6));
    for (const int slot : {0, 1}) {
        pane(slot)->editor()->moveCursor(QTextCursor::End);
        QTest::keyClicks(pane(slot)->editor(), QStringLiteral("Mine."));
    }
    QVERIFY(writeInPlace(path(1), "Theirs.\n"));
    QVERIFY(QFile::remove(path(0)));
    QTRY_COMPARE(model->slot(1).conflict, ConflictState::ChangedOnDisk);
    QTRY_COMPARE(model->slot(0).conflict, ConflictState::DeletedOnDisk);
    action("find")->trigger();
    keys = mnemonics(window());
    QVERIFY2(keys.clashes.isEmpty(), qPrintable(keys.clashes.join(QLatin1Char('\n'))));
    // Both kinds of the changed-on-disk bar with their buttons, and the
    // recovery bar's three: the check saw every bar.
    QCOMPARE(keys.ownedIn("soul::DiskChangedBar"), 5);
    QCOMPARE(keys.ownedIn("soul::RecoveryBar"), 3);

    // OpenClaw chosen from the keyboard, as its label says: its settings show.
    QTest::keyClick(window(), Qt::Key_N, Qt::AltModifier);
    QVERIFY(qobject_cast<QComboBox *>(QApplication::focusWidget()));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Down);
    const auto settingShown = [this] {
        for (const QSpinBox *box : window()->findChildren<QSpinBox *>()) {
            if (box->isVisible() && box->accessibleName() == QLatin1String("bootstrapMaxChars"))
                return true;
        }
        return false;
    };
    QTRY_VERIFY(settingShown());
    keys = mnemonics(window());
    QVERIFY2(keys.clashes.isEmpty(), qPrintable(keys.clashes.join(QLatin1Char('\n'))));

    // A folder that went away: the lost-folder bar over the panes.
    QTemporaryDir outer;
    const QString dir = outer.filePath(QStringLiteral("persona"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeInPlace(slotPath(dir, 1), "disk\n"));
    openWindow(dir);
    QVERIFY(QDir().rename(dir, outer.filePath(QStringLiteral("renamed"))));
    QTRY_VERIFY(window()->model()->directoryLost());
    keys = mnemonics(window());
    QVERIFY2(keys.clashes.isEmpty(), qPrintable(keys.clashes.join(QLatin1Char('\n'))));
    QCOMPARE(keys.ownedIn("soul::DirectoryLostBar"), 2);
}

void tst_MainWindow::altRReloadsAChangedFile()
{
    openWindow();
    QPlainTextEdit *editor = pane(1)->editor();
    editor->setFocus();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral("Mine."));
    QVERIFY(writeInPlace(path(1), "Theirs.\n"));
    QTRY_COMPARE(window()->model()->slot(1).conflict, ConflictState::ChangedOnDisk);

    // As the bar's button says: Alt+R reloads, from wherever the focus is
    // (a button's mnemonic clicks it a moment later, as it shows the press).
    QTest::keyClick(editor, Qt::Key_R, Qt::AltModifier);
    QTRY_COMPARE(editorText(pane(1)), QStringLiteral("Theirs.\n"));
    QCOMPARE(window()->model()->slot(1).conflict, ConflictState::None);
    QVERIFY(!window()->model()->slot(1).dirty);
}

void tst_MainWindow::openRecentMenuReopensFolders()
{
    openWindow();
    QMenu *recent = m_fixture.menu("recentMenu");
    QVERIFY(recent->isEnabled());
    QAction *entry = recent->actions().first();
    QVERIFY(entry->text().contains(QDir::toNativeSeparators(m_fixture.dir())));
    QVERIFY(window()->documents()->close());
    entry->trigger();
    QVERIFY(window()->model()->isOpen());
    QCOMPARE(window()->model()->directory(), QFileInfo(m_fixture.dir()).absoluteFilePath());

    action("clearRecent")->trigger();
    QVERIFY(window()->documents()->recentPlaces().isEmpty());
    QVERIFY(!recent->isEnabled());
    // The start view says so too.
    QVERIFY(window()->documents()->close());
    QVERIFY(labelsShown().contains(noRecentFolders));
    QVERIFY(!announced(QStringLiteral("Recent folders")));
}

void tst_MainWindow::editActionsFollowTheFocusedPane()
{
    openWindow();
    QAction *undo = action("undo");
    QAction *redo = action("redo");
    QAction *save = action("save");
    QAction *revert = action("revert");
    QAction *saveAll = action("saveAll");
    QVERIFY(!undo->isEnabled());
    QVERIFY(!save->isEnabled());
    QVERIFY(!saveAll->isEnabled());
    QPlainTextEdit *editor = pane(1)->editor();
    window()->panes()->showPane(1);
    QTRY_VERIFY(editor->hasFocus());
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral("Typo"));
    QVERIFY(undo->isEnabled());
    QVERIFY(!redo->isEnabled());
    QVERIFY(save->isEnabled());
    QVERIFY(revert->isEnabled());
    QVERIFY(saveAll->isEnabled());
    undo->trigger();
    QCOMPARE(editorText(pane(1)), QStringLiteral("You are Kip, a terse assistant.\n"));
    QVERIFY(!window()->model()->slot(1).dirty);
    QVERIFY(!save->isEnabled());
    QVERIFY(redo->isEnabled());
    redo->trigger();
    QCOMPARE(editorText(pane(1)), QStringLiteral("You are Kip, a terse assistant.\nTypo"));

    // Another pane has its own history; Save writes that pane.
    window()->panes()->showPane(6);
    QTRY_VERIFY(pane(6)->editor()->hasFocus());
    QVERIFY(!undo->isEnabled());
    QVERIFY(!redo->isEnabled());
    QVERIFY(!save->isEnabled());
    QVERIFY(saveAll->isEnabled());
    saveAll->trigger();
    QVERIFY(!window()->model()->hasUnsaved());
    QVERIFY(!saveAll->isEnabled());
}

void tst_MainWindow::absentSlotFoldsToItsHeader()
{
    openWindow();
    SlotPane *absent = pane(3);
    QVERIFY(!absent->editor()->isVisible());
    QVERIFY(absent->absentNote()->isVisible());
    QVERIFY(absent->absentNote()->text().contains(QStringLiteral("USER.md")));
    QVERIFY(absent->createButton()->isVisible());
    QTRY_VERIFY(absent->height() < SlotPane::EditingHeight);
    QVERIFY(pane(1)->height() >= SlotPane::EditingHeight);

    QTest::mouseClick(absent->createButton(), Qt::LeftButton);
    QVERIFY(absent->editor()->isVisible());
    QVERIFY(!absent->absentNote()->isVisible());
    QTRY_VERIFY(absent->height() >= SlotPane::EditingHeight);

    // A file that appears on disk unfolds its pane too.
    QVERIFY(writeInPlace(path(4), "# Tools\n"));
    QTRY_VERIFY(pane(4)->editor()->isVisible());
    QCOMPARE(editorText(pane(4)), QStringLiteral("# Tools\n"));
}

void tst_MainWindow::skippedSlotSaysWhyInItsPane()
{
    QVERIFY(QDir().mkdir(path(3)));
    QVERIFY(::mkfifo(QFile::encodeName(path(4)).constData(), 0600) == 0);
    openWindow();
    for (int k : {3, 4}) {
        QCOMPARE(pane(k)->stateLabel()->text(), QStringLiteral("skipped"));
        QVERIFY(!pane(k)->editor()->isVisible());
        QVERIFY(!pane(k)->createButton()->isVisible());
        QVERIFY(!pane(k)->absentNote()->isVisible());
    }
    QTRY_VERIFY(pane(3)->lintLabel()->text().contains(QStringLiteral("USER.md is a directory")));
    QVERIFY(pane(3)->lintLabel()->isVisible());
    QTRY_VERIFY(pane(4)->lintLabel()->text().contains(QStringLiteral("FIFO")));
}

void tst_MainWindow::headerNamesReadOnlyAndDeletedStates()
{
    QVERIFY(writeInPlace(path(1), "You are \xff Kip.\n"));
    openWindow();
    QVERIFY(window()->model()->slot(1).readOnly);
    QCOMPARE(pane(1)->stateLabel()->text(), QStringLiteral("read-only"));
    QVERIFY(pane(1)->readOnlyNote()->isVisible());
    QVERIFY(pane(1)->editAnywayButton()->isVisible());
    QTest::mouseClick(pane(1)->editAnywayButton(), Qt::LeftButton);
    QCOMPARE(pane(1)->stateLabel()->text(), QStringLiteral("present"));

    QTest::keyClicks(pane(0)->editor(), QStringLiteral("x"));
    QVERIFY(QFile::remove(path(0)));
    QTRY_VERIFY(pane(0)->diskBar()->isVisible());
    QCOMPARE(pane(0)->stateLabel()->text(), QStringLiteral("deleted on disk"));
}

void tst_MainWindow::startViewSaysWhenNoFolderIsRecent()
{
    m_fixture.create();
    QVERIFY(labelsShown().contains(noRecentFolders));
    QVERIFY(!announced(QStringLiteral("Recent folders")));
    QVERIFY(!m_fixture.menu("recentMenu")->isEnabled());

    window()->start(m_fixture.dir());
    QVERIFY(window()->documents()->close());
    QVERIFY(!labelsShown().contains(noRecentFolders));
    const auto *recent = qobject_cast<const QListWidget *>(
        announced(QStringLiteral("Recent folders")));
    QVERIFY(recent);
    QCOMPARE(recent->count(), 1);
    QVERIFY(recent->item(0)->text().contains(QFileInfo(m_fixture.dir()).fileName()));
}

void tst_MainWindow::narrowHeaderElidesTheRole()
{
    QVERIFY(writeInPlace(path(1), "You are \xff Kip.\n"));
    openWindow();
    ElidedLabel *role = pane(1)->roleLabel();
    window()->resize(1400, 900);
    for (int k = 0; k < SlotCount; ++k)
        QTRY_COMPARE(pane(k)->roleLabel()->shownText(), pane(k)->roleLabel()->text());
    // Narrow: the read-only pane's buttons and state keep their room, the
    // role ends in an ellipsis instead of being cut mid-letter.
    window()->resize(1000, 700);
    QTRY_VERIFY(role->shownText() != role->text());
    QVERIFY(role->shownText().endsWith(QChar(0x2026)));
    QVERIFY(pane(1)->stateLabel()->width() >= pane(1)->stateLabel()->sizeHint().width());
    QVERIFY(pane(1)->editAnywayButton()->width()
            >= pane(1)->editAnywayButton()->minimumSizeHint().width());
}

void tst_MainWindow::revertAndReloadAreOneUndoableStep()
{
    openWindow();
    PersonaModel *model = window()->model();
    QPlainTextEdit *editor = pane(1)->editor();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral("One more line."));
    const QString edited = editorText(pane(1));
    const QByteArray editedBytes = model->slot(1).bufferBytes;
    QVERIFY(model->slot(1).dirty);

    QVERIFY(window()->documents()->revert(1));
    QCOMPARE(editorText(pane(1)), QStringLiteral("You are Kip, a terse assistant.\n"));
    QVERIFY(!model->slot(1).dirty);
    QCOMPARE(previewText(preview()), expectedPreview());
    QVERIFY(editor->document()->isUndoAvailable());
    editor->undo();
    QCOMPARE(editorText(pane(1)), edited);
    QVERIFY(model->slot(1).dirty);
    QCOMPARE(model->slot(1).bufferBytes, editedBytes);
    QCOMPARE(previewText(preview()), expectedPreview());

    // Reload on the changed-on-disk bar: the same, against the new file.
    QVERIFY(writeInPlace(path(1), "Theirs.\n"));
    QTRY_VERIFY(pane(1)->diskBar()->isVisible());
    pressMnemonic(Qt::Key_R); // Reload
    QTRY_COMPARE(editorText(pane(1)), QStringLiteral("Theirs.\n"));
    QVERIFY(!model->slot(1).dirty);
    editor->undo();
    QCOMPARE(editorText(pane(1)), edited);
    QVERIFY(model->slot(1).dirty);
    QCOMPARE(model->slot(1).bufferBytes, editedBytes);
    QCOMPARE(model->slot(1).conflict, ConflictState::None);
    QVERIFY(!pane(1)->diskBar()->isVisible());
    // The undone reload is an edit like any other: redo takes the file again.
    editor->redo();
    QCOMPARE(editorText(pane(1)), QStringLiteral("Theirs.\n"));
    QVERIFY(!model->slot(1).dirty);
    QVERIFY(prompter()->sequence.isEmpty());
}

void tst_MainWindow::discardWithoutAFileAsksFirst()
{
    openWindow();
    PersonaModel *model = window()->model();
    pane(0)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane(0)->editor(), QStringLiteral("Mine."));
    QVERIFY(QFile::remove(path(0)));
    QTRY_VERIFY(pane(0)->diskBar()->isVisible());
    prompter()->dropAnswer = false;
    pressMnemonic(Qt::Key_D); // Discard
    QTRY_COMPARE(prompter()->sequence, QStringList{QStringLiteral("drop:AGENTS.md")});
    QVERIFY(model->slot(0).dirty);
    QVERIFY(editorText(pane(0)).endsWith(QStringLiteral("Mine.")));
    QVERIFY(pane(0)->diskBar()->isVisible());

    prompter()->dropAnswer = true;
    pressMnemonic(Qt::Key_D);
    QTRY_VERIFY(!model->slot(0).bufferPresent);
    QVERIFY(!model->slot(0).dirty);
    QTRY_VERIFY(pane(0)->createButton()->isVisible());
}

void tst_MainWindow::cleanPaneFollowsDiskByARangeEdit()
{
    QByteArray before;
    for (int i = 0; i < 2000; ++i)
        before += "line " + QByteArray::number(i) + "\n";
    QVERIFY(writeInPlace(path(6), before));
    openWindow();
    PersonaModel *model = window()->model();
    QPlainTextEdit *editor = pane(6)->editor();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral("tail"));
    QVERIFY(window()->documents()->save(6));
    const QString saved = editorText(pane(6));
    QVERIFY(!model->slot(6).dirty);
    QTextDocument *document = editor->document();
    const int steps = document->availableUndoSteps();
    QVERIFY(steps > 0);
    for (int number : {10, 1900})
        document->findBlockByNumber(number).setUserData(new BlockMarker);

    QByteArray after = model->slot(6).diskBytes;
    after.replace("line 1000\n", "line one thousand\n");
    QVERIFY(writeAtomically(path(6), after));
    QTRY_COMPARE(editorText(pane(6)), QString::fromUtf8(after));
    QVERIFY(!model->slot(6).dirty);
    // The history is kept and the change is one step of it; lines before
    // and after the change are the same blocks as before.
    QVERIFY(document->availableUndoSteps() > steps);
    QVERIFY(dynamic_cast<BlockMarker *>(document->findBlockByNumber(10).userData()));
    QVERIFY(dynamic_cast<BlockMarker *>(document->findBlockByNumber(1900).userData()));

    editor->undo();
    QCOMPARE(editorText(pane(6)), saved);
    QVERIFY(model->slot(6).dirty);
    QVERIFY(document->isUndoAvailable()); // the typing before the save
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::editAnywayExplainsUntilSavedAndConfirms()
{
    const QByteArray mixed("one\r\ntwo\nthree\n");
    QVERIFY(writeInPlace(path(1), mixed));
    openWindow();
    PersonaModel *model = window()->model();
    QVERIFY(model->slot(1).readOnly);
    QTest::mouseClick(pane(1)->editAnywayButton(), Qt::LeftButton);
    QVERIFY(!model->slot(1).readOnly);
    QVERIFY(pane(1)->readOnlyNote()->isVisible());
    QVERIFY(pane(1)->readOnlyNote()->text().contains(QStringLiteral("1 CR LF")));

    QPlainTextEdit *editor = pane(1)->editor();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral("four"));
    QVERIFY(pane(1)->readOnlyNote()->isVisible());

    prompter()->changedBytesAnswer = false;
    QVERIFY(!window()->documents()->save(1));
    QCOMPARE(prompter()->sequence, QStringList{QStringLiteral("changedBytes:SOUL.md")});
    QVERIFY(prompter()->lastChanges.join(QLatin1Char(' ')).contains(QStringLiteral("mixed")));
    QCOMPARE(readAll(path(1)), mixed);
    QVERIFY(model->slot(1).dirty);
    QVERIFY(pane(1)->readOnlyNote()->isVisible());

    prompter()->changedBytesAnswer = true;
    QVERIFY(window()->documents()->save(1));
    QCOMPARE(readAll(path(1)), QByteArray("one\ntwo\nthree\nfour"));
    QVERIFY(!pane(1)->readOnlyNote()->isVisible());
    // The file makes the round trip now: later saves do not ask.
    QTest::keyClicks(editor, QStringLiteral("!"));
    QVERIFY(window()->documents()->save(1));
    QCOMPARE(prompter()->sequence.size(), 2);

    // Revert also ends it: the file opens read-only again.
    QVERIFY(writeAtomically(path(1), mixed));
    QTRY_VERIFY(model->slot(1).readOnly);
    QTest::mouseClick(pane(1)->editAnywayButton(), Qt::LeftButton);
    QVERIFY(pane(1)->readOnlyNote()->text().startsWith(QStringLiteral("Editing anyway")));
    QVERIFY(window()->documents()->revert(1));
    QVERIFY(model->slot(1).readOnly);
    QVERIFY(pane(1)->readOnlyNote()->text().startsWith(QStringLiteral("Read-only")));
}

void tst_MainWindow::exportAsksForTheDestinationFirst()
{
    openWindow();
    PersonaModel *model = window()->model();
    pane(1)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(pane(1)->editor(), QStringLiteral("Unsaved."));
    const QByteArray onDisk = readAll(path(1));

    // Cancelled file dialog: nothing asked after it, nothing saved.
    prompter()->exportAnswer = Prompter::ExportAnswer::SaveAllAndExport;
    prompter()->exportPath.clear();
    QVERIFY(!window()->exporter()->exportSnapshot());
    QCOMPARE(prompter()->sequence, QStringList{QStringLiteral("exportPath")});
    QVERIFY(prompter()->asked.isEmpty());
    QCOMPARE(readAll(path(1)), onDisk);
    QVERIFY(model->slot(1).dirty);

    // Both files there: one question naming both; No keeps them and saves nothing.
    const QString out = m_fixture.filePath(QStringLiteral("out.md"));
    QVERIFY(writeInPlace(out, "old soul"));
    QVERIFY(writeInPlace(manifestPathFor(out), "old manifest"));
    prompter()->exportPath = out;
    prompter()->sequence.clear();
    QVERIFY(!window()->exporter()->exportSnapshot());
    QCOMPARE(prompter()->sequence,
             (QStringList{QStringLiteral("exportPath"),
                          QStringLiteral("replace:out.md,out.md.manifest.json")}));
    QVERIFY(prompter()->asked.isEmpty());
    QCOMPARE(readAll(out), QByteArray("old soul"));
    QCOMPARE(readAll(manifestPathFor(out)), QByteArray("old manifest"));
    QCOMPARE(readAll(path(1)), onDisk);

    // Only the manifest there: it alone is named.
    QVERIFY(QFile::remove(out));
    prompter()->sequence.clear();
    QVERIFY(!window()->exporter()->exportSnapshot());
    QCOMPARE(prompter()->sequence,
             (QStringList{QStringLiteral("exportPath"),
                          QStringLiteral("replace:out.md.manifest.json")}));
    QVERIFY(!QFile::exists(out));

    // Replace: then the unsaved panes, then both files.
    prompter()->replaceAnswer = true;
    QVERIFY(exportAndWait());
    QCOMPARE(prompter()->asked, QStringList{QStringLiteral("export:SOUL.md")});
    QVERIFY(!model->slot(1).dirty);
    QCOMPARE(readAll(out), composeDirectory(m_fixture.dir()).soul);
    QVERIFY(readAll(manifestPathFor(out)).contains("\"soul-snapshot\""));
}

void tst_MainWindow::wrongCaseFileIsNamedAndRenamed()
{
    QVERIFY(QFile::remove(path(1)));
    const QString lower = m_fixture.filePath(QStringLiteral("soul.md"));
    QVERIFY(writeInPlace(lower, "lower case soul\n"));
    openWindow();
    QVERIFY(pane(1)->absentNote()->isVisible());
    QVERIFY(
        pane(1)->absentNote()->text().contains(QStringLiteral("soul.md is there but is not read")));
    QVERIFY(pane(1)->renameButton()->isVisible());
    QVERIFY(!pane(1)->createButton()->isVisible());
    QVERIFY(pane(3)->createButton()->isVisible()); // no variant there
    QVERIFY(!pane(3)->renameButton()->isVisible());

    QTest::mouseClick(pane(1)->renameButton(), Qt::LeftButton);
    QVERIFY(prompter()->errors.isEmpty());
    QCOMPARE(readAll(path(1)), QByteArray("lower case soul\n"));
    QVERIFY(!QFileInfo::exists(lower));
    QTRY_COMPARE(editorText(pane(1)), QStringLiteral("lower case soul\n"));
    QVERIFY(!pane(1)->renameButton()->isVisible());
    QVERIFY(!pane(1)->absentNote()->isVisible());
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::invisiblesMarkNonAsciiSpacesAndLoneCr()
{
    QVERIFY(writeInPlace(path(1),
                         "a\xC2\xA0"
                         "b\xE2\x80\x89"
                         "c\xE3\x80\x80"
                         "d\n"));
    QVERIFY(writeInPlace(path(2), "x\ry"));
    openWindow();
    // A lone CR is drawn without invisibles too; the CR of a CR LF is not.
    const QString loneCr = QStringLiteral("x") + QChar(0x21B5) + QStringLiteral("y");
    QVERIFY(previewText(preview()).contains(loneCr));
    QCOMPARE(displayText(QStringLiteral("a\r\nb\rc"), false), QStringLiteral("a\u200B\nb\u21B5c"));
    QCOMPARE(displayText(QStringLiteral("a\r\nb"), true), QStringLiteral("a\u21B5\nb"));
    QVERIFY(markedCharacters(preview()).isEmpty());
    QVERIFY(markedCharacters(pane(1)->editor()).isEmpty());

    action("showInvisibles")->setChecked(true);
    QVERIFY(preview()->showInvisibles());
    const QString spaces = QStringLiteral("\u00A0\u2009\u3000");
    for (const QChar c : spaces) {
        QVERIFY2(markedCharacters(preview()).contains(c),
                 qPrintable(QString::number(c.unicode(), 16)));
        QVERIFY2(markedCharacters(pane(1)->editor()).contains(c),
                 qPrintable(QString::number(c.unicode(), 16)));
    }
    QVERIFY(markedCharacters(preview()).contains(QChar(0x21B5)));
    QVERIFY(!markedCharacters(pane(1)->editor()).contains(QLatin1Char('a')));

    // A CR LF that loses its LF becomes a lone CR in the preview's range edit.
    QVERIFY(writeInPlace(path(6), "p\r\nq"));
    QTRY_COMPARE(previewText(preview()), expectedPreview());
    action("showInvisibles")->setChecked(false);
    QVERIFY(writeInPlace(path(6), "p\rq"));
    QTRY_VERIFY(previewText(preview()).contains(QStringLiteral("p\u21B5q")));
    QCOMPARE(previewText(preview()), expectedPreview());
    QVERIFY(writeInPlace(path(6), "p\r\nq"));
    QTRY_VERIFY(previewText(preview()).contains(QStringLiteral("p\u200B\nq")));
    QCOMPARE(previewText(preview()), expectedPreview());
}

void tst_MainWindow::missingFolderPreviewDoesNotClaimDisk()
{
    QTemporaryDir outer;
    const QString dir = outer.filePath(QStringLiteral("persona"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeInPlace(slotPath(dir, 1), "disk\n"));
    openWindow(dir);
    const auto noteText = [this] {
        QStringList texts;
        for (const QLabel *label : window()->previewPanel()->findChildren<QLabel *>())
            texts.append(label->text());
        return texts.join(QLatin1Char('|'));
    };
    QVERIFY(noteText().contains(QStringLiteral("this is what is on disk")));
    QVERIFY(QDir().rename(dir, outer.filePath(QStringLiteral("renamed"))));
    QTRY_VERIFY(window()->model()->directoryLost());
    QVERIFY(!noteText().contains(QStringLiteral("on disk.")));
    QVERIFY(noteText().contains(QStringLiteral("The folder is missing")));
    window()->previewPanel()->unsavedToggle()->setChecked(false);
    QVERIFY(noteText().contains(QStringLiteral("an agent starting now gets none of it")));
    QVERIFY(QDir().rename(outer.filePath(QStringLiteral("renamed")), dir));
    QTRY_VERIFY(!window()->model()->directoryLost());
    QVERIFY(!noteText().contains(QStringLiteral("The folder is missing")));
}

void tst_MainWindow::fifoOrLinkLoopIsNotADeletion()
{
    openWindow();
    PersonaModel *model = window()->model();
    QTest::keyClicks(pane(6)->editor(), QStringLiteral("x"));
    QVERIFY(QFile::remove(path(6)));
    QVERIFY(::mkfifo(QFile::encodeName(path(6)).constData(), 0600) == 0);
    QTRY_COMPARE(model->slot(6).conflict, ConflictState::NotReadableOnDisk);
    DiskChangedBar *bar = pane(6)->diskBar();
    QVERIFY(bar->isVisible());
    QCOMPARE(bar->kind(), DiskChangedBar::Kind::NotReadable);
    QVERIFY(bar->text().contains(QStringLiteral("is a FIFO, not a regular file")));
    // Saving cannot put a file where the FIFO is: Discard is the one way out.
    QCOMPARE(mnemonics(window()).owners.filter(QStringLiteral("DiskChangedBar")),
             QStringList{QStringLiteral("\"&Discard\" (QPushButton in soul::DiskChangedBar)")});
    QCOMPARE(pane(6)->stateLabel()->text(), QStringLiteral("not a regular file on disk"));
    QVERIFY(model->slot(6).dirty);

    // A link to itself is a loop, not a link to nothing.
    QVERIFY(QFile::remove(path(6)));
    QVERIFY(QFile::link(path(6), path(6)));
    QTRY_VERIFY(bar->text().contains(QStringLiteral("loop")));
    QCOMPARE(model->slot(6).conflict, ConflictState::NotReadableOnDisk);
    QVERIFY(QFile::link(path(3), path(3)));
    QTRY_VERIFY(pane(3)->lintLabel()->text().contains(QStringLiteral("leads back to itself")));
    QVERIFY(!pane(3)->lintLabel()->text().contains(QStringLiteral("nothing")));

    // Discard drops the edits; there is no file to go back to, so it asks.
    prompter()->dropAnswer = true;
    pressMnemonic(Qt::Key_D); // Discard
    QTRY_COMPARE(prompter()->sequence, QStringList{QStringLiteral("drop:MEMORY.md")});
    QVERIFY(!model->slot(6).dirty);
    QVERIFY(!bar->isVisible());
}

void tst_MainWindow::saveOnAReadOnlyPaneSaysWhy()
{
    QVERIFY(writeInPlace(path(1), "You are \xff Kip.\n"));
    openWindow();
    pane(1)->editor()->setFocus(Qt::OtherFocusReason);
    // Save follows the focused pane: it says why nothing is saved.
    QTRY_VERIFY(action("save")->isEnabled());
    QTest::keySequence(window(), QKeySequence(Qt::CTRL | Qt::Key_S));
    QLabel *message = window()->statusMessage();
    QTRY_VERIFY(message->isVisible());
    QVERIFY(message->text().startsWith(QStringLiteral("SOUL.md is read-only")));
    QVERIFY(message->text().contains(QStringLiteral("invalid UTF-8")));
    QVERIFY(prompter()->errors.isEmpty());
    QCOMPARE(readAll(path(1)), QByteArray("You are \xff Kip.\n"));
}

void tst_MainWindow::secondWindowOnTheFolderIsTold()
{
    openWindow();
    MainWindow::Options options;
    options.settingsFile = m_fixture.filePath(QStringLiteral("second.ini"));
    MainWindow second(options);
    second.setPrompter(std::make_unique<TestPrompter>());
    second.show();
    QVERIFY(QTest::qWaitForWindowExposed(&second));
    second.start(m_fixture.dir());
    QVERIFY(second.model()->isOpen());
    QTRY_VERIFY(second.statusMessage()->isVisible());
    QTRY_VERIFY(
        second.statusMessage()->text().contains(QStringLiteral("Another Soul Studio window")));
    QVERIFY(!window()->statusMessage()->text().contains(QStringLiteral("Another")));
    QVERIFY(second.close());
}

void tst_MainWindow::longStatusMessageIsWhole()
{
    openWindow();
    window()->resize(700, 600);
    QString text;
    while (text.size() < 400)
        text += QStringLiteral("Cannot keep unsaved changes for recovery in this folder. ");
    Q_EMIT window()->documents()->statusMessage(text);
    QLabel *message = window()->statusMessage();
    QTRY_VERIFY(message->isVisible());
    QCOMPARE(message->text(), text);
    QVERIFY(message->wordWrap());
    QTRY_VERIFY(message->height() >= message->heightForWidth(message->width()));
    QVERIFY(message->width() <= window()->statusBar()->width());
    QVERIFY(message->heightForWidth(message->width()) > message->fontMetrics().height());
}

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
