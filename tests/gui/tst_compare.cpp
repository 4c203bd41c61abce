#include "../session/comparechecks.h"
#include "compare/comparedialog.h"
#include "comparecontroller.h"
#include "compose/composer.h"
#include "diff/souldiff.h"
#include "diff/tokenencoder.h"
#include "disk/composedirectory.h"
#include "freezecontroller.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "persona/snapshotfile.h"
#include "preview/previewpanel.h"
#include "quietprompter.h"
#include "runtime/runtime.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>

using namespace soul;
using namespace soul::guitest;

namespace {

// Answers the window's questions as a test tells it to, and records them.
class TestPrompter final : public QuietPrompter
{
public:
    ExportAnswer exportAnswer = ExportAnswer::Cancel;
    QString snapshotsFolder;
    QString snapshotFile;
    QStringList asked;
    QStringList errors;

    ExportAnswer askExportWithUnsaved(const QStringList &files) override
    {
        asked.append(QStringLiteral("export:") + files.join(QLatin1Char(',')));
        return exportAnswer;
    }
    void showError(const QString &, const QString &text) override { errors.append(text); }
    QString askSnapshotsFolder(const QString &) override
    {
        asked.append(QStringLiteral("snapshotsFolder"));
        return snapshotsFolder;
    }
    QString askSnapshotFile(const QString &) override
    {
        asked.append(QStringLiteral("snapshotFile"));
        return snapshotFile;
    }
};

const QByteArray Agents = "# Rules\n\nBe brief.\nCite the file you read.\n";
const QByteArray Soul = "You are Kip, a terse assistant.\nYou answer in plain words.\n";
const QByteArray Memory = "- prefers metric units\n- works late\n- the build is green\n"
                          "- drinks tea\n";

// The line's numbers as the window writes them.
QString number(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

} // namespace

class tst_Compare : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void freezeAsksLikeExport();
    void freezeIsWrittenOffTheWindow();
    void freezeThenEditThenCompare();
    void prefixMovesAsAuthorTypes();
    void jumpLandsOnFirstChange();
    void jumpLandsInCutLines_data();
    void jumpLandsInCutLines();
    void jumpCountsAsThePaneDoes_data();
    void jumpCountsAsThePaneDoes();
    void diffShowsInvisibles();
    void tamperedSnapshotIsReported();
    void runtimeSnapshotShowsItsFiles();

private:
    QString persona() const { return m_fixture.filePath(QStringLiteral("kip")); }
    QString snapshots() const { return m_fixture.filePath(QStringLiteral("snapshots")); }
    SlotPane *pane(int slot) const { return window()->panes()->pane(slot); }
    void openWindow();
    // Types `text` at the end of line `line` (1-based) of slot `slot`'s pane.
    void typeAt(int slot, int line, const QString &text);
    QString freeze();
    // A window on a persona whose MEMORY.md holds `before`, frozen; then the
    // file holds `after` and its pane, shown, takes it as the model reads it.
    // The snapshot's path, empty when freezing failed.
    QString freezeThenChangeMemory(const QByteArray &before, const QByteArray &after);
    CompareDialog *compare(const QString &soulPath);
    // Waits for the comparison of the text as it is now and checks it
    // against core's functions on the whole souls.
    void checkAgainstCore(CompareDialog *dialog, SoulView view);

    MainWindow *window() const { return m_fixture.window(); }
    QAction *action(const char *name) { return m_fixture.action(name); }
    TestPrompter *prompter() const { return m_fixture.prompter(); }

    TestWindow<TestPrompter> m_fixture;
};

void tst_Compare::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_Compare::init()
{
    m_fixture.init();
    QVERIFY(QDir().mkpath(persona()));
    QVERIFY(writeInPlace(QDir(persona()).filePath(slotName(0)), Agents));
    QVERIFY(writeInPlace(QDir(persona()).filePath(slotName(1)), Soul));
    QVERIFY(writeInPlace(QDir(persona()).filePath(slotName(6)), Memory));
    openWindow();
}

void tst_Compare::cleanup()
{
    m_fixture.cleanup();
}

void tst_Compare::openWindow()
{
    auto prompter = std::make_unique<TestPrompter>();
    prompter->snapshotsFolder = snapshots();
    m_fixture.open(persona(), std::move(prompter));
}

void tst_Compare::typeAt(int slot, int line, const QString &text)
{
    window()->panes()->showPane(slot);
    QPlainTextEdit *editor = pane(slot)->editor();
    QTextCursor cursor(editor->document()->findBlockByNumber(line - 1));
    cursor.movePosition(QTextCursor::EndOfBlock);
    editor->setTextCursor(cursor);
    QTest::keyClicks(editor, text);
}

QString tst_Compare::freeze()
{
    FreezeController *freezer = window()->freezer();
    const QStringList before = freezer->recent();
    QSignalSpy frozen(freezer, &FreezeController::frozen);
    action("freeze")->trigger();
    // Written on a worker: the window answers meanwhile.
    if (!freezer->busy() || !frozen.wait(30000) || freezer->busy())
        return {};
    const QStringList after = freezer->recent();
    if (after.size() != before.size() + 1 || after.first() != frozen.first().first().toString())
        return {};
    return after.first();
}

QString tst_Compare::freezeThenChangeMemory(const QByteArray &before, const QByteArray &after)
{
    const QString memory = QDir(persona()).filePath(slotName(6));
    m_fixture.close();
    if (!writeInPlace(memory, before))
        return {};
    openWindow();
    const QString frozen = freeze();
    if (frozen.isEmpty() || !writeInPlace(memory, after))
        return {};
    // The watcher's report, as the window takes it.
    if (!QTest::qWaitFor([this, &after] { return window()->model()->slot(6).bufferBytes == after; }))
        return {};
    window()->panes()->showPane(6);
    return frozen;
}

CompareDialog *tst_Compare::compare(const QString &soulPath)
{
    // Through the File menu's entry for the snapshot.
    const QList<QAction *> entries = m_fixture.menu("compareMenu")->actions();
    for (QAction *entry : entries) {
        if (entry->text() == QFileInfo(soulPath).fileName()) {
            entry->trigger();
            return window()->compareDialog();
        }
    }
    return nullptr;
}

void tst_Compare::checkAgainstCore(CompareDialog *dialog, SoulView view)
{
    CompareController *controller = dialog->controller();
    QTRY_VERIFY(controller->current());
    StablePrefix want;
    test::checkPrefixAgainstCore(controller, window()->model()->soul(view), &want);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(dialog->prefixLabel()->text().contains(
                 QStringLiteral("the first %1 of %2 tokens are unchanged")
                     .arg(number(want.tokens), number(want.totalTokens)))
                 || want.identical,
             qPrintable(dialog->prefixLabel()->text()));
}

void tst_Compare::freezeAsksLikeExport()
{
    typeAt(6, 1, QStringLiteral(" always"));
    prompter()->exportAnswer = Prompter::ExportAnswer::Cancel;
    action("freeze")->trigger();
    // The folder first, then the unsaved panes; cancelled: nothing written.
    QCOMPARE(prompter()->asked,
             QStringList({QStringLiteral("snapshotsFolder"), QStringLiteral("export:MEMORY.md")}));
    QVERIFY(!QFileInfo::exists(snapshots()) || QDir(snapshots()).isEmpty());
    QVERIFY(window()->model()->slot(6).dirty);

    // The folder is remembered: the next freeze asks only about the panes.
    prompter()->asked.clear();
    prompter()->exportAnswer = Prompter::ExportAnswer::ExportOnDisk;
    const QString frozen = freeze();
    QVERIFY(!frozen.isEmpty());
    QCOMPARE(prompter()->asked, QStringList(QStringLiteral("export:MEMORY.md")));
    QCOMPARE(QFileInfo(frozen).absolutePath(), QFileInfo(snapshots()).absoluteFilePath());
    QVERIFY(QFileInfo(frozen).fileName().startsWith(QStringLiteral("kip-")));
    QVERIFY(QFileInfo::exists(frozen + QStringLiteral(".manifest.json")));
    // What is on disk, not the unsaved edit; the buffer stays unsaved.
    QCOMPARE(readAll(frozen), composeDirectory(persona()).soul);
    QVERIFY(window()->model()->slot(6).dirty);
    QVERIFY(QDir(persona()).entryList(QDir::Files).filter(QStringLiteral(".soul.md")).isEmpty());
    QSettings settings(m_fixture.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    QCOMPARE(QFileInfo(settings.value(QStringLiteral("snapshots/folder")).toString()),
             QFileInfo(snapshots()));
}

// The snapshot is written on a worker, so the window goes on taking keys;
// a failure is shown when it comes; closing the window waits for a freeze
// under way, which is then whole.
void tst_Compare::freezeIsWrittenOffTheWindow()
{
    FreezeController *freezer = window()->freezer();
    // A file where the folder should be: the failure names it.
    QVERIFY(writeInPlace(snapshots(), "not a folder"));
    QSignalSpy failed(freezer, &FreezeController::failed);
    action("freeze")->trigger();
    QVERIFY(freezer->busy());
    QVERIFY(failed.wait(30000));
    QVERIFY(!freezer->busy());
    QCOMPARE(prompter()->errors.size(), 1);
    QVERIFY(prompter()->errors.first().contains(snapshots()));
    QCOMPARE(failed.first().first().toString(), prompter()->errors.first());
    QVERIFY(QFile::remove(snapshots()));

    // Typing goes on while it is written.
    action("freeze")->trigger();
    QVERIFY(freezer->busy());
    typeAt(6, 1, QStringLiteral(" still typing"));
    QVERIFY(window()->model()->slot(6).dirty);
    // Closing now (the unsaved edit dropped) waits for the freeze.
    m_fixture.close();
    const QStringList written
        = QDir(snapshots()).entryList({QStringLiteral("kip-*.soul.md")}, QDir::Files);
    QCOMPARE(written.size(), 1);
    const QString soulPath = QDir(snapshots()).filePath(written.first());
    const Result<LoadedSnapshot> loaded = loadSnapshot(soulPath);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
    QCOMPARE(readAll(soulPath), composeDirectory(persona()).soul);
    QVERIFY(!readAll(soulPath).contains("still typing"));
}

void tst_Compare::freezeThenEditThenCompare()
{
    const QString frozen = freeze();
    QVERIFY(!frozen.isEmpty());
    typeAt(6, 2, QStringLiteral(" and early"));
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    checkAgainstCore(dialog, SoulView::Unsaved);
    const auto &status = dialog->controller()->result().status;
    QCOMPARE(status[0], SectionStatus::Unchanged);
    QCOMPARE(status[1], SectionStatus::Unchanged);
    QCOMPARE(status[2], SectionStatus::Absent);
    QCOMPARE(status[6], SectionStatus::Changed);
    QVERIFY(dialog->sectionsLabel()->text().contains(QStringLiteral("changed")));
    QVERIFY(dialog->prefixLabel()->text().endsWith(
        QStringLiteral("the first change is in MEMORY.md, line 2")));
    // The diff marks the words that changed within the line.
    QTRY_VERIFY(dialog->diffView()->toHtml().contains(QStringLiteral("and early")));
    QVERIFY(dialog->diffView()->toPlainText().contains(QStringLiteral("-- works late")));
    QVERIFY(dialog->diffView()->toPlainText().contains(QStringLiteral("+- works late and early")));

    // The preview's toggle: what is on disk is the snapshot.
    window()->previewPanel()->unsavedToggle()->setChecked(false);
    QTRY_VERIFY(dialog->controller()->current() && dialog->controller()->view() == SoulView::OnDisk);
    checkAgainstCore(dialog, SoulView::OnDisk);
    QVERIFY(dialog->controller()->result().prefix.identical);
    QVERIFY(dialog->prefixLabel()->text().contains(QStringLiteral("(100%)")));
    QVERIFY(!dialog->jumpButton()->isEnabled());
}

void tst_Compare::prefixMovesAsAuthorTypes()
{
    const QString frozen = freeze();
    QVERIFY(!frozen.isEmpty());
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    checkAgainstCore(dialog, SoulView::Unsaved);
    const qint64 total = dialog->controller()->result().prefix.totalTokens;
    QCOMPARE(dialog->controller()->result().prefix.tokens, total);

    typeAt(6, 3, QStringLiteral(" again"));
    checkAgainstCore(dialog, SoulView::Unsaved);
    const qint64 inMemory = dialog->controller()->result().prefix.tokens;
    QVERIFY(inMemory < total);
    QCOMPARE(dialog->controller()->result().firstChange->file, QStringLiteral("MEMORY.md"));

    // An edit earlier in the soul moves the first change up.
    typeAt(1, 1, QStringLiteral(" Mostly."));
    checkAgainstCore(dialog, SoulView::Unsaved);
    const qint64 inSoul = dialog->controller()->result().prefix.tokens;
    QVERIFY(inSoul < inMemory);
    QVERIFY(dialog->prefixLabel()->text().endsWith(
        QStringLiteral("the first change is in SOUL.md, line 1")));

    // Taking it back moves it down again.
    QPlainTextEdit *editor = pane(1)->editor();
    for (int i = 0; i < 8; ++i)
        QTest::keyClick(editor, Qt::Key_Backspace);
    checkAgainstCore(dialog, SoulView::Unsaved);
    QCOMPARE(dialog->controller()->result().prefix.tokens, inMemory);
}

void tst_Compare::jumpLandsOnFirstChange()
{
    const QString frozen = freeze();
    QVERIFY(!frozen.isEmpty());
    typeAt(6, 3, QStringLiteral(" now"));
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    checkAgainstCore(dialog, SoulView::Unsaved);
    const FirstChange change = *dialog->controller()->result().firstChange;
    QCOMPARE(change.slot, 6);
    QCOMPARE(change.line, qint64(3));
    // Somewhere else first, so the jump has to move the cursor.
    window()->panes()->showPane(0);
    QVERIFY(dialog->jumpButton()->isEnabled());
    QTest::mouseClick(dialog->jumpButton(), Qt::LeftButton);
    QPlainTextEdit *editor = pane(6)->editor();
    QTRY_COMPARE(QApplication::focusWidget(), editor);
    QCOMPARE(editor->textCursor().blockNumber(), int(change.line - 1));
}

// A line of `length` lower-case words, no line feed.
QByteArray longLine(int length, int seed)
{
    static const char *const words[] = {"agent", "tools", "memory", "brief", "check", "units"};
    QByteArray line;
    for (int i = seed; line.size() < length; ++i)
        line += QByteArray(words[i % 6]) + ' ';
    return line.left(length);
}

void tst_Compare::jumpLandsInCutLines_data()
{
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<qint64>("line");
    QTest::addColumn<QString>("changed"); // the text at the first change, after it

    // Two lines the pane shows cut into pieces, then short ones.
    const QByteArray cut = "Intro\n" + longLine(9000, 0) + '\n' + longLine(9000, 3) + '\n';
    const QByteArray tail = "Fifth line here, nothing else\n";
    QTest::newRow("after cut lines")
        << cut + "Fourth\n" + tail << cut + "Fourth\nFifth LINE here, nothing else\n"
        << qint64(5) << QStringLiteral("LINE here");
    QByteArray inside = cut + "Fourth\n" + tail;
    inside.replace(6 + 9001 + 6000, 6, "QQQQQQ");
    QTest::newRow("inside a cut line")
        << cut + "Fourth\n" + tail << inside << qint64(3) << QStringLiteral("QQQQQQ");
    QTest::newRow("body after blank lines and spaces")
        << QByteArray("\n\n   Intro words here\n" + longLine(5000, 1) + '\n')
        << QByteArray("\n\n   Intra words here\n" + longLine(5000, 1) + '\n') << qint64(3)
        << QStringLiteral("a words");
}

void tst_Compare::jumpLandsInCutLines()
{
    QFETCH(QByteArray, before);
    QFETCH(QByteArray, after);
    QFETCH(qint64, line);
    QFETCH(QString, changed);
    const QString frozen = freezeThenChangeMemory(before, after);
    QVERIFY(!frozen.isEmpty());
    QTRY_COMPARE(pane(6)->text().replace(QChar::ParagraphSeparator, QLatin1Char('\n')),
                 QString::fromLatin1(after));
    QVERIFY(pane(6)->cutsLongLines());
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    checkAgainstCore(dialog, SoulView::Unsaved);
    QCOMPARE(dialog->controller()->result().firstChange->line, line);
    window()->panes()->showPane(0);
    QTest::mouseClick(dialog->jumpButton(), Qt::LeftButton);
    QPlainTextEdit *editor = pane(6)->editor();
    QTRY_COMPARE(QApplication::focusWidget(), editor);
    // The cursor is at the first changed character: what follows it in its
    // piece of the line is the new text.
    const QTextCursor cursor = editor->textCursor();
    const QString rest = cursor.block().text().mid(cursor.positionInBlock());
    QVERIFY2(rest.startsWith(changed), qPrintable(rest.left(40)));
    // That text is found once in the pane's text, at the first changed
    // byte (the text is ASCII), on line `line`.
    const QString text = pane(6)->text();
    const qsizetype at = text.indexOf(rest.left(20));
    QCOMPARE(text.lastIndexOf(rest.left(20)), at);
    QCOMPARE(at, commonPrefixLength(before, after));
    QCOMPARE(qint64(text.left(at).count(QChar::ParagraphSeparator) + 1), line);
}

void tst_Compare::jumpCountsAsThePaneDoes_data()
{
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<QString>("unsaved"); // typed at the top of the pane, the on-disk view compared
    QTest::addColumn<int>("block");       // the pane's line, 0-based
    QTest::addColumn<QString>("changed"); // the pane's text at the first change

    // Each row's file before; after, its "old" is "new".
    auto row = [](const char *name, const QByteArray &before, const QString &unsaved, int block) {
        QByteArray after = before;
        after.replace("old words", "new words");
        QTest::newRow(name) << before << after << unsaved << block << QStringLiteral("new words");
    };
    row("CR LF", "One\r\nTwo\r\nThree old words\r\n", {}, 2);
    // The file's lines are its line feeds; the pane breaks at each CR.
    row("lone CR", "One\rTwo\rThree old words\r", {}, 2);
    row("invalid UTF-8 before it", "One\nT\xFF\xFEwo \xF0\x9F\x98\x80 old words\n", {}, 1);
    row("BOM", "\xEF\xBB\xBFOne old words\n", {}, 0);
    row("on disk, unsaved lines above",
        "One\nTwo\nThree old words\n",
        QStringLiteral("Unsaved\nlines\n"),
        4);
}

// The jump lands on the first changed character as the pane counts lines and
// columns, whatever the file's line breaks and bytes, and in the on-disk view
// also when the pane holds unsaved text.
void tst_Compare::jumpCountsAsThePaneDoes()
{
    QFETCH(QByteArray, before);
    QFETCH(QByteArray, after);
    QFETCH(QString, unsaved);
    QFETCH(int, block);
    QFETCH(QString, changed);
    const QString frozen = freezeThenChangeMemory(before, after);
    QVERIFY(!frozen.isEmpty());
    QPlainTextEdit *editor = pane(6)->editor();
    QTRY_VERIFY(editor->toPlainText().contains(QStringLiteral("new words")));
    if (!unsaved.isEmpty()) {
        editor->moveCursor(QTextCursor::Start);
        for (const QString &line : unsaved.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            QTest::keyClicks(editor, line);
            QTest::keyClick(editor, Qt::Key_Return);
        }
        QVERIFY(window()->model()->slot(6).dirty);
        window()->previewPanel()->unsavedToggle()->setChecked(false);
    }
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    checkAgainstCore(dialog, unsaved.isEmpty() ? SoulView::Unsaved : SoulView::OnDisk);
    window()->panes()->showPane(0);
    QTest::mouseClick(dialog->jumpButton(), Qt::LeftButton);
    QTRY_COMPARE(QApplication::focusWidget(), editor);
    const QTextCursor cursor = editor->textCursor();
    QCOMPARE(cursor.blockNumber(), block);
    const QString rest = cursor.block().text().mid(cursor.positionInBlock());
    QVERIFY2(rest.startsWith(changed), qPrintable(rest));
}

void tst_Compare::diffShowsInvisibles()
{
    const QString frozen = freeze();
    QVERIFY(!frozen.isEmpty());
    // A tab, trailing spaces before a CR LF, a lone CR, a NUL and a BOM.
    QByteArray edited = Memory;
    edited.replace("- works late\n",
                   QByteArray("- works\tlate  \r\n- tea\rcake\n- a") + '\0' + "b\xEF\xBB\xBF"
                       + "c\n");
    // Written on disk: the clean pane takes it, as text a pane could not
    // give (the NUL and the mixed line breaks).
    QVERIFY(writeInPlace(QDir(persona()).filePath(slotName(6)), edited));
    QTRY_COMPARE(window()->model()->slot(6).bufferBytes, edited);
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    CompareController *controller = dialog->controller();
    QCheckBox *previewToggle = window()->previewPanel()->invisiblesToggle();

    QSignalSpy diffs(controller, &CompareController::diffUpdated);
    previewToggle->setChecked(true);
    // The dialog follows the preview's toggle.
    QVERIFY(dialog->invisiblesToggle()->isChecked());
    QTRY_VERIFY(controller->showInvisibles() && controller->current() && !diffs.isEmpty());
    QTRY_VERIFY(dialog->diffView()->toPlainText().contains(QChar(0x2205)));
    const QString on = controller->diffHtml();
    const QString inv = QStringLiteral("<span class=\"inv\">%1</span>");
    QVERIFY2(on.contains(inv.arg(QLatin1Char('\t'))), qPrintable(on));
    // The trailing spaces and the CR of the CR LF, then the lone CR.
    QVERIFY(on.contains(inv.arg(QStringLiteral("  ") + QChar(0x21B5))));
    QVERIFY(on.contains(inv.arg(QChar(0x21B5)) + QStringLiteral("cake")));
    QVERIFY(on.contains(inv.arg(QChar(0x2205)))); // NUL
    QVERIFY(on.contains(inv.arg(QChar(0x25CA)))); // BOM
    const QString shown = dialog->diffView()->toPlainText();
    // A section's body never ends in a line break; the diff does not say so.
    QVERIFY(!shown.contains(QStringLiteral("No newline at end of file")));
    QVERIFY(shown.contains(QStringLiteral("+- works\tlate  ") + QChar(0x21B5)));
    QVERIFY(shown.contains(QStringLiteral("+- a") + QChar(0x2205) + QStringLiteral("b")
                           + QChar(0x25CA) + QStringLiteral("c")));

    // Off in the dialog: off in the preview too, and nothing marked; a lone
    // CR still shows, as in the preview.
    diffs.clear();
    dialog->invisiblesToggle()->setChecked(false);
    QVERIFY(!previewToggle->isChecked());
    QTRY_VERIFY(!controller->showInvisibles() && controller->current() && !diffs.isEmpty());
    QTRY_VERIFY(!controller->diffHtml().contains(QStringLiteral("class=\"inv\"")));
    QTRY_VERIFY(!dialog->diffView()->toPlainText().contains(QChar(0x2205)));
    QVERIFY(dialog->diffView()->toPlainText().contains(QStringLiteral("tea") + QChar(0x21B5)));
}

// Frozen with OpenClaw chosen: the window compares what OpenClaw injects,
// file by file, also after the preview goes back to toolnexus.
void tst_Compare::runtimeSnapshotShowsItsFiles()
{
    QComboBox *chooser = window()->previewPanel()->runtimeChooser();
    chooser->setCurrentIndex(chooser->findData(QStringLiteral("openclaw")));
    const QString frozen = freeze();
    QVERIFY(!frozen.isEmpty());
    chooser->setCurrentIndex(chooser->findData(QStringLiteral("toolnexus")));
    typeAt(1, 2, QStringLiteral(" and short ones"));
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    CompareController *controller = dialog->controller();
    QTRY_VERIFY(controller->current());
    QVERIFY(controller->error().isEmpty());
    QVERIFY(controller->runtime());
    QVERIFY2(dialog->titleLabel()->text().contains(QStringLiteral("what OpenClaw 2026.9 injects")),
             qPrintable(dialog->titleLabel()->text()));
    const QString sections = dialog->sectionsLabel()->text();
    QVERIFY2(sections.contains(QStringLiteral("SOUL.md&nbsp;&nbsp;</td><td style=\"color:#a05a00\">"
                                              "changed")),
             qPrintable(sections));
    QVERIFY(sections.contains(QStringLiteral("MEMORY.md&nbsp;&nbsp;</td><td style=\"color:#555\">"
                                             "unchanged")));
    QVERIFY(sections.contains(QStringLiteral("AGENTS.md")));
    QVERIFY(
        dialog->prefixLabel()->text().endsWith(QStringLiteral("the first change is in SOUL.md")));
    QVERIFY(!dialog->jumpButton()->isEnabled());
    QTRY_VERIFY(dialog->diffView()->toPlainText().contains(
        QStringLiteral("+You answer in plain words. and short ones")));
    QVERIFY(
        dialog->diffView()->toPlainText().contains(QStringLiteral("-You answer in plain words.")));
}

void tst_Compare::tamperedSnapshotIsReported()
{
    const QString frozen = freeze();
    QVERIFY(!frozen.isEmpty());
    QByteArray bytes = readAll(frozen);
    bytes.replace("terse", "TERSE");
    QVERIFY(writeInPlace(frozen, bytes));
    CompareDialog *dialog = compare(frozen);
    QVERIFY(dialog);
    QVERIFY(!dialog->controller()->error().isEmpty());
    QVERIFY(dialog->errorLabel()->isVisible());
    QVERIFY2(dialog->errorLabel()->text().contains(QStringLiteral("does not match its manifest")),
             qPrintable(dialog->errorLabel()->text()));
    QVERIFY(dialog->errorLabel()->text().contains(frozen));
    QVERIFY(dialog->prefixLabel()->text().isEmpty());
    QVERIFY(!dialog->jumpButton()->isEnabled());

    // "Compare with Snapshot File..." takes any soul: an intact one after it
    // clears the report.
    prompter()->snapshotFile = freeze();
    action("compareWithSnapshot")->trigger();
    QVERIFY(prompter()->asked.contains(QStringLiteral("snapshotFile")));
    QVERIFY(!dialog->errorLabel()->isVisible());
    checkAgainstCore(dialog, SoulView::Unsaved);
}

QTEST_MAIN(tst_Compare)
#include "tst_compare.moc"
