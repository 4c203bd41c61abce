#include "compose/displaytext.h"
#include "compose/utf8.h"
#include "counttext.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "prompter.h"
#include "quietprompter.h"
#include "slots/panestack.h"
#include "slots/sizemeter.h"
#include "slots/slotpane.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include <memory>

using namespace soul;
using namespace soul::guitest;

// Odd files open in about the time of ordinary ones: a line of a million
// characters, a file of NUL bytes, a sparse 1 GiB file. Times are compared
// with an ordinary persona opened in the same run, never with a fixed figure.
namespace {

constexpr int Memory = 6; // MEMORY.md
constexpr qint64 OneMB = 1000000;
constexpr qint64 GiB = qint64(1) << 30;

// Prose in lines of about 60 bytes, `bytes` long.
QByteArray lines(qint64 bytes)
{
    static const char *const words[] = {"agent", "memory", "prefers", "metric", "units", "brief"};
    QByteArray out;
    out.reserve(bytes);
    int i = 0;
    while (out.size() < bytes) {
        out += words[i % 6];
        out += (++i % 10 == 0) ? '\n' : ' ';
    }
    out.truncate(bytes - 1);
    out += '\n';
    return out;
}

// The same prose on one line.
QByteArray oneLine(qint64 bytes)
{
    QByteArray out = lines(bytes);
    out.replace('\n', ' ');
    out.back() = '\n';
    return out;
}

} // namespace

class tst_LargeFiles : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void oddFileOpensInTime_data();
    void oddFileOpensInTime();
    void longLineKeepsItsBytesWhileEdited();
    void cutsAreOnlyOnScreen();
    void gigabyteFileIsNotReadWhole();
    void largePreviewIsBuiltAgainAfterResize();

private:
    // A persona of small files with `memory` as MEMORY.md (none when empty).
    QString makePersona(const QByteArray &memory);
    // Opens `dir` in a new window with MEMORY.md's pane shown and loaded;
    // returns the milliseconds from start() until everything settled.
    double open(const QString &dir);
    // The better of two openings, so one scheduling hiccup does not decide.
    double bestOpen(const QString &dir);
    SlotPane *pane(int slot) const { return m_window->panes()->pane(slot); }
    void type(QWidget *target, int key, const QString &text = {});

    std::vector<std::unique_ptr<QTemporaryDir>> m_dirs;
    std::unique_ptr<MainWindow> m_window;
};

void tst_LargeFiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_LargeFiles::cleanup()
{
    if (m_window)
        m_window->close();
    m_window.reset();
    m_dirs.clear();
}

QString tst_LargeFiles::makePersona(const QByteArray &memory)
{
    m_dirs.push_back(std::make_unique<QTemporaryDir>());
    const QString dir = m_dirs.back()->path();
    for (int k = 0; k < SlotCount - 1; ++k) {
        if (!writeInPlace(slotPath(dir, k), lines(4096)))
            return {};
    }
    if (!memory.isEmpty() && !writeInPlace(slotPath(dir, Memory), memory))
        return {};
    return dir;
}

double tst_LargeFiles::open(const QString &dir)
{
    if (m_window)
        m_window->close();
    m_window.reset();
    MainWindow::Options options;
    options.settingsFile = QDir(dir).filePath(QStringLiteral("settings.ini"));
    m_window = std::make_unique<MainWindow>(options);
    m_window->setPrompter(std::make_unique<QuietPrompter>());
    m_window->resize(1000, 700);
    m_window->show();
    if (!QTest::qWaitForWindowExposed(m_window.get()))
        return -1;
    QCoreApplication::processEvents();

    QElapsedTimer timer;
    timer.start();
    m_window->start(dir);
    m_window->panes()->showPane(Memory);
    pane(Memory)->editor()->setFocus();
    QCoreApplication::processEvents();
    // Painted once more, so what is on screen has been laid out.
    m_window->repaint();
    QCoreApplication::processEvents();
    if (pane(Memory)->reloadPending())
        return -1;
    return double(timer.nsecsElapsed()) / 1e6;
}

double tst_LargeFiles::bestOpen(const QString &dir)
{
    const double first = open(dir);
    const double second = open(dir);
    return qMin(first, second);
}

void tst_LargeFiles::type(QWidget *target, int key, const QString &text)
{
    QKeyEvent press(QEvent::KeyPress, key, Qt::NoModifier, text);
    QKeyEvent release(QEvent::KeyRelease, key, Qt::NoModifier, text);
    QApplication::sendEvent(target, &press);
    QApplication::sendEvent(target, &release);
}

void tst_LargeFiles::oddFileOpensInTime_data()
{
    QTest::addColumn<QByteArray>("odd");
    QTest::addColumn<bool>("editable");
    QTest::newRow("one line of 1,000,000 characters") << oneLine(OneMB) << true;
    QTest::newRow("1,000,000 NUL bytes") << QByteArray(OneMB, '\0') << false;
    QTest::newRow("200,000 characters without a space")
        << QByteArray(200000, 'x').append('\n') << true;
}

void tst_LargeFiles::oddFileOpensInTime()
{
    QFETCH(QByteArray, odd);
    QFETCH(bool, editable);
    const QString ordinaryDir = makePersona(lines(odd.size()));
    const QString oddDir = makePersona(odd);
    QVERIFY(!ordinaryDir.isEmpty() && !oddDir.isEmpty());

    const double ordinary = bestOpen(ordinaryDir);
    QVERIFY(ordinary >= 0);
    QVERIFY(!pane(Memory)->cutsLongLines());
    QVERIFY(!pane(Memory)->longLineNote()->isVisibleTo(m_window.get()));
    const double oddMs = bestOpen(oddDir);
    QVERIFY(oddMs >= 0);
    QVERIFY2(oddMs <= 3 * ordinary,
             qPrintable(QStringLiteral("odd file %1 ms, ordinary %2 ms").arg(oddMs).arg(ordinary)));

    // The pane says what it did, and holds the file's text unchanged.
    SlotPane *memory = pane(Memory);
    QVERIFY(memory->cutsLongLines());
    QVERIFY(memory->longLineNote()->isVisibleTo(m_window.get()));
    QVERIFY(memory->longLineNote()->text().contains(QStringLiteral("cut")));
    QCOMPARE(memory->text().replace(QChar::ParagraphSeparator, QLatin1Char('\n')),
             m_window->model()->paneText(Memory));
    QCOMPARE(memory->editor()->isReadOnly(), !editable);
    // No block is longer than a line the pane does not cut.
    for (QTextBlock b = memory->editor()->document()->begin(); b.isValid(); b = b.next())
        QVERIFY(b.length() <= SlotPane::LongLineLength + 1);
    // The preview shows the start of the line and says what it leaves out.
    const QString preview = m_window->previewPanel()->preview()->document()->toPlainText();
    QVERIFY(preview.contains(QStringLiteral("not shown here")));
    QVERIFY(preview.size() < 64 * 1024);
}

void tst_LargeFiles::longLineKeepsItsBytesWhileEdited()
{
    const QByteArray line = oneLine(OneMB);
    const QString dir = makePersona(line);
    QVERIFY(open(dir) >= 0);
    PersonaModel *model = m_window->model();
    SlotPane *memory = pane(Memory);
    QPlainTextEdit *editor = memory->editor();
    QVERIFY(memory->cutsLongLines());
    QCOMPARE(model->slot(Memory).bufferBytes, line);

    // A character typed in the middle lands in the middle of the line.
    const QTextBlock middle = editor->document()->findBlockByNumber(500);
    QTextCursor cursor(middle);
    cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::MoveAnchor, 10);
    const int at = 500 * SlotPane::CutLength + 10;
    editor->setTextCursor(cursor);
    type(editor, Qt::Key_Z, QStringLiteral("Z"));
    QByteArray expected = line;
    expected.insert(at, 'Z');
    QCOMPARE(model->slot(Memory).bufferBytes, expected);
    QVERIFY(model->slot(Memory).dirty);

    // Backspace at the start of a piece deletes the character before the cut.
    cursor = QTextCursor(editor->document()->findBlockByNumber(700));
    editor->setTextCursor(cursor);
    type(editor, Qt::Key_Backspace);
    expected.remove(700 * SlotPane::CutLength + 1 - 1, 1); // +1: the Z before it
    QCOMPARE(model->slot(Memory).bufferBytes, expected);
    // Delete at the end of a piece deletes the character after the cut.
    cursor = QTextCursor(editor->document()->findBlockByNumber(800));
    cursor.movePosition(QTextCursor::EndOfBlock);
    editor->setTextCursor(cursor);
    type(editor, Qt::Key_Delete);
    expected.remove(801 * SlotPane::CutLength + 1 - 1, 1); // Z in, one out before
    QCOMPARE(model->slot(Memory).bufferBytes, expected);

    // Enter is a real line break, and undo takes it back.
    cursor = QTextCursor(editor->document()->findBlockByNumber(100));
    cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::MoveAnchor, 3);
    editor->setTextCursor(cursor);
    type(editor, Qt::Key_Return, QStringLiteral("\r"));
    QByteArray withBreak = expected;
    withBreak.insert(100 * SlotPane::CutLength + 3, '\n');
    QCOMPARE(model->slot(Memory).bufferBytes, withBreak);
    editor->undo();
    QCOMPARE(model->slot(Memory).bufferBytes, expected);

    // A selection deleted across a cut: the bytes lose just the selection,
    // and undo cannot bring the cut back as a line break.
    cursor = QTextCursor(editor->document()->findBlockByNumber(200));
    cursor.movePosition(QTextCursor::PreviousCharacter, QTextCursor::MoveAnchor, 2);
    const int from = cursor.block().blockNumber();
    QCOMPARE(from, 199);
    cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor, 5);
    editor->setTextCursor(cursor);
    type(editor, Qt::Key_Delete);
    QByteArray cut = expected;
    cut.remove(200 * SlotPane::CutLength - 1, 4); // five positions, one is the cut
    QCOMPARE(model->slot(Memory).bufferBytes, cut);
    QVERIFY(!editor->document()->isUndoAvailable());
    QVERIFY(model->slot(Memory).bufferBytes.count('\n') == 1);
}

void tst_LargeFiles::cutsAreOnlyOnScreen()
{
    // Short lines around a long one, and a pair of UTF-16 halves at a cut.
    QByteArray text = "# Memory\n\n- short\n";
    QByteArray longLine(SlotPane::CutLength - 1, 'a');
    longLine += "\xF0\x9F\x99\x82"; // U+1F642, two UTF-16 units across the cut
    longLine += QByteArray(3 * SlotPane::LongLineLength, 'b');
    text += longLine + "\n- after\n";
    const QString dir = makePersona(text);
    QVERIFY(open(dir) >= 0);
    SlotPane *memory = pane(Memory);
    QVERIFY(memory->cutsLongLines());
    const QTextBlock first = memory->editor()->document()->findBlockByNumber(3);
    QCOMPARE(first.length() - 1, SlotPane::CutLength - 1); // the pair moves to the next piece
    QCOMPARE(memory->text().replace(QChar::ParagraphSeparator, QLatin1Char('\n')),
             QString::fromUtf8(text));

    // Typing on a short line keeps the long one whole.
    QTextCursor cursor(memory->editor()->document()->findBlockByNumber(2));
    cursor.movePosition(QTextCursor::EndOfBlock);
    memory->editor()->setTextCursor(cursor);
    type(memory->editor(), Qt::Key_Exclam, QStringLiteral("!"));
    QByteArray expected = text;
    expected.insert(int(text.indexOf("short") + 5), '!');
    QCOMPARE(m_window->model()->slot(Memory).bufferBytes, expected);
}

void tst_LargeFiles::gigabyteFileIsNotReadWhole()
{
    // Compared with an ordinary MEMORY.md of the size the pane of a capped
    // file keeps (CapBytes + 1): reading the rest would cost seconds.
    const QString ordinaryDir = makePersona(lines(CapBytes + 1));
    const QString hugeDir = makePersona(QByteArray());
    QVERIFY(!ordinaryDir.isEmpty() && !hugeDir.isEmpty());
    {
        QFile huge(slotPath(hugeDir, Memory));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        if (!huge.resize(GiB))
            QSKIP("this file system cannot make a sparse 1 GiB file");
    }
    const double ordinary = bestOpen(ordinaryDir);
    QVERIFY(ordinary >= 0);

    const qint64 before = test::bytesReadSoFar();
    const double huge = open(hugeDir);
    const qint64 after = test::bytesReadSoFar();
    QVERIFY(huge >= 0);
    QVERIFY2(huge <= 3 * ordinary,
             qPrintable(QStringLiteral("1 GiB file %1 ms, ordinary %2 ms").arg(huge).arg(ordinary)));
    if (before >= 0 && after >= 0) {
        // The model's read and the watcher's digest, each CapBytes + 1.
        QVERIFY2(after - before < 4 * (CapBytes + 2) + (1 << 20),
                 qPrintable(QStringLiteral("read %1 bytes").arg(after - before)));
    }

    // A change on disk is noticed without reading it whole either.
    {
        QFile file(slotPath(hugeDir, Memory));
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.write("# Memory\n") == 9);
    }
    const qint64 beforeChange = test::bytesReadSoFar();
    QTRY_VERIFY(m_window->model()->slot(Memory).diskBytes.startsWith("# Memory\n"));
    if (beforeChange >= 0)
        QVERIFY(test::bytesReadSoFar() - beforeChange < 4 * (CapBytes + 2) + (1 << 20));

    // The meter counts what the agent loses from the size on disk.
    const SizeMeter *meter = pane(Memory)->sizeMeter();
    QVERIFY2(meter->text().contains(formatCount(GiB - CapBytes)), qPrintable(meter->text()));
    QVERIFY(pane(Memory)->editor()->isReadOnly());
}

void tst_LargeFiles::largePreviewIsBuiltAgainAfterResize()
{
    const QString dir = makePersona(lines(3 * 1024 * 1024));
    QVERIFY(open(dir) >= 0);
    SoulPreview *preview = m_window->previewPanel()->preview();
    auto expected = [this, preview] {
        return displayText(utf8::decode(m_window->model()->soul(SoulView::Unsaved)),
                           preview->showInvisibles());
    };
    auto shown = [preview] {
        return preview->document()->toRawText().replace(QChar::ParagraphSeparator,
                                                        QLatin1Char('\n'));
    };
    QCOMPARE(shown(), expected());

    m_window->resize(m_window->width() + 120, m_window->height());
    QTRY_VERIFY(preview->rebuildPending());
    // Typing while the preview waits still reaches it.
    QPlainTextEdit *editor = pane(0)->editor();
    editor->setFocus();
    type(editor, Qt::Key_Q, QStringLiteral("Q"));
    QTRY_VERIFY(!preview->rebuildPending());
    QCOMPARE(shown(), expected());
    QVERIFY(shown().startsWith(QStringLiteral("## AGENTS.md\n\nQ")));
}

QTEST_MAIN(tst_LargeFiles)
#include "tst_largefiles.moc"
