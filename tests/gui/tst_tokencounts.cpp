#include "counttext.h"
#include "documentcontroller.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "preview/previewpanel.h"
#include "preview/tokenbar.h"
#include "quietprompter.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "tokens/tokenizer.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QStandardPaths>
#include <QTest>

using namespace soul;
using namespace soul::guitest;

namespace {

class TestPrompter final : public QuietPrompter
{
public:
    QString tokenizerFile;
    QStringList errors;

    void showError(const QString &, const QString &text) override { errors.append(text); }
    QString askTokenizerFile(const QString &) override { return tokenizerFile; }
};

QString tokensText(qint64 n)
{
    return formatCount(n) + QStringLiteral(" tokens");
}

} // namespace

// The counts in the window: each pane header, the preview's token bar with
// its encoding chooser and the context-window budget, for examples/ava.
class tst_TokenCounts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void headersAndTotalsAreExact();
    void typingUpdatesTheCounts();
    void encodingSwitchChangesTheCountsAndIsRemembered();
    void budgetShareAndMeter_data();
    void budgetShareAndMeter();
    void sentencePieceFileIsRefusedByName();

private:
    void openWindow();
    // Every header and the token bar show the exact counts of `encoding`
    // for the soul the model holds now.
    void verifyShown(const QString &encoding);
    qint64 expectedShare(const QString &encoding, int slot) const;
    qint64 expectedSoul(const QString &encoding) const;
    TokenBar *bar() const { return window()->previewPanel()->tokenBar(); }
    SlotPane *pane(int slot) const { return window()->panes()->pane(slot); }

    MainWindow *window() const { return m_fixture.window(); }
    TestPrompter *prompter() const { return m_fixture.prompter(); }

    TestWindow<TestPrompter> m_fixture;
    QString m_persona;
};

void tst_TokenCounts::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_TokenCounts::init()
{
    m_fixture.init();
    // A copy of examples/ava, so typing never reaches the example.
    const QString example = DocumentController::exampleDirectory();
    QVERIFY(!example.isEmpty());
    m_persona = m_fixture.filePath(QStringLiteral("ava"));
    QVERIFY(QDir().mkpath(m_persona));
    int copied = 0;
    for (int k = 0; k < SlotCount; ++k) {
        const QString from = slotPath(example, k);
        if (QFile::exists(from)) {
            QVERIFY(QFile::copy(from, slotPath(m_persona, k)));
            ++copied;
        }
    }
    QVERIFY(copied >= 5);
}

void tst_TokenCounts::cleanup()
{
    m_fixture.cleanup();
}

void tst_TokenCounts::openWindow()
{
    m_fixture.open(m_persona);
}

qint64 tst_TokenCounts::expectedShare(const QString &encoding, int slot) const
{
    const PersonaModel *model = window()->model();
    QByteArray text = model->section(slot, SoulView::Unsaved).value_or(QByteArray());
    for (int k = slot + 1; k < SlotCount; ++k) {
        if (model->section(k, SoulView::Unsaved)) {
            text += SectionJoin;
            break;
        }
    }
    return Tokenizer::builtin(encoding)->count(text);
}

qint64 tst_TokenCounts::expectedSoul(const QString &encoding) const
{
    return Tokenizer::builtin(encoding)->count(window()->model()->soul(SoulView::Unsaved));
}

void tst_TokenCounts::verifyShown(const QString &encoding)
{
    const qint64 soul = expectedSoul(encoding);
    QVERIFY(soul > 0);
    QTRY_COMPARE(bar()->tokensLabel()->text(), tokensText(soul));
    QTRY_COMPARE(bar()->tokensLabel()->foregroundRole(), QPalette::WindowText);
    QCOMPARE(bar()->encodingChooser()->currentText(), encoding);
    qint64 sum = 0;
    for (int k = 0; k < SlotCount; ++k) {
        if (!window()->model()->section(k, SoulView::Unsaved)) {
            QVERIFY(!pane(k)->tokensLabel()->isVisible());
            continue;
        }
        const qint64 share = expectedShare(encoding, k);
        QTRY_COMPARE(pane(k)->tokensLabel()->text(), tokensText(share));
        QCOMPARE(pane(k)->tokensLabel()->foregroundRole(), QPalette::WindowText);
        QVERIFY(pane(k)->tokensLabel()->isVisible());
        sum += share;
    }
    // The headers add up to the soul.
    QCOMPARE(sum, soul);
    QVERIFY(!bar()->tokensLabel()->text().contains(QLatin1String("approximate")));
    QVERIFY(
        !window()->previewPanel()->totalsLabel()->text().contains(QLatin1String("approximate")));
}

void tst_TokenCounts::headersAndTotalsAreExact()
{
    openWindow();
    verifyShown(QStringLiteral("o200k_base"));
    // The on-disk view of a clean persona is the same soul.
    window()->previewPanel()->unsavedToggle()->setChecked(false);
    QCOMPARE(bar()->tokensLabel()->text(), tokensText(expectedSoul(QStringLiteral("o200k_base"))));
}

void tst_TokenCounts::typingUpdatesTheCounts()
{
    openWindow();
    verifyShown(QStringLiteral("o200k_base"));
    const QString before = pane(1)->tokensLabel()->text();
    QPlainTextEdit *editor = pane(1)->editor();
    window()->panes()->showPane(1);
    editor->setFocus();
    editor->moveCursor(QTextCursor::End);
    QTest::keyClicks(editor, QStringLiteral(" Always cite the dataset's DOI."));
    // Until the count of the new text arrives, the old one is greyed.
    QCOMPARE(pane(1)->tokensLabel()->foregroundRole(), QPalette::PlaceholderText);
    QCOMPARE(bar()->tokensLabel()->foregroundRole(), QPalette::PlaceholderText);
    verifyShown(QStringLiteral("o200k_base"));
    QVERIFY(pane(1)->tokensLabel()->text() != before);

    // The on-disk view still counts the file.
    window()->previewPanel()->unsavedToggle()->setChecked(false);
    const qint64 onDisk
        = Tokenizer::builtin(u"o200k_base")->count(window()->model()->soul(SoulView::OnDisk));
    QTRY_COMPARE(bar()->tokensLabel()->text(), tokensText(onDisk));
}

void tst_TokenCounts::encodingSwitchChangesTheCountsAndIsRemembered()
{
    openWindow();
    verifyShown(QStringLiteral("o200k_base"));
    const qint64 o200k = expectedSoul(QStringLiteral("o200k_base"));
    const qint64 cl100k = expectedSoul(QStringLiteral("cl100k_base"));
    QVERIFY(o200k != cl100k);

    QComboBox *chooser = bar()->encodingChooser();
    const int index = chooser->findText(QStringLiteral("cl100k_base"));
    QVERIFY(index >= 0);
    chooser->setCurrentIndex(index);
    Q_EMIT chooser->activated(index);
    verifyShown(QStringLiteral("cl100k_base"));
    QCOMPARE(window()->tokenCounter()->encodingName(), QStringLiteral("cl100k_base"));

    // A new window takes the remembered encoding.
    m_fixture.reopen();
    verifyShown(QStringLiteral("cl100k_base"));
}

void tst_TokenCounts::budgetShareAndMeter_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<qint64>("budget");
    QTest::newRow("preset 8k") << QStringLiteral("8k") << qint64(8192);
    QTest::newRow("preset 1M") << QStringLiteral("1M") << qint64(1000000);
    QTest::newRow("a number") << QStringLiteral("50000") << qint64(50000);
    QTest::newRow("with a suffix") << QStringLiteral("64k") << qint64(64000);
    QTest::newRow("smaller than the soul") << QStringLiteral("1,000") << qint64(1000);
}

void tst_TokenCounts::budgetShareAndMeter()
{
    QFETCH(QString, typed);
    QFETCH(qint64, budget);
    openWindow();
    verifyShown(QStringLiteral("o200k_base"));
    const qint64 soul = expectedSoul(QStringLiteral("o200k_base"));

    QComboBox *box = bar()->budgetChooser();
    box->setFocus();
    box->lineEdit()->selectAll();
    QTest::keyClicks(box->lineEdit(), typed);
    QTest::keyClick(box->lineEdit(), Qt::Key_Return);
    QCOMPARE(bar()->budget(), budget);

    const double share = double(soul) / double(budget);
    const QString percent = QString::number(share * 100.0, 'f', share < 0.1 ? 2 : 1);
    QVERIFY2(bar()->shareLabel()->text().startsWith(percent + QStringLiteral("% of ")
                                                    + formatCount(budget)),
             qPrintable(bar()->shareLabel()->text()));
    QCOMPARE(bar()->meter()->value(), int(std::min(1.0, share) * bar()->meter()->maximum() + 0.5));
    if (soul > budget) {
        QVERIFY(bar()->shareLabel()->text().contains(
            QStringLiteral(", %1 over").arg(formatCount(soul - budget))));
    }

    // Remembered for the next window.
    m_fixture.reopen();
    QCOMPARE(bar()->budget(), budget);
}

void tst_TokenCounts::sentencePieceFileIsRefusedByName()
{
    openWindow();
    verifyShown(QStringLiteral("o200k_base"));
    const QString file = m_fixture.filePath(QStringLiteral("gemma-tokenizer.json"));
    QVERIFY(test::writeFile(file,
                            R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},)"
                            R"("pre_tokenizer":{"type":"Metaspace","replacement":"\u2581"}})"));
    prompter()->tokenizerFile = file;
    QComboBox *chooser = bar()->encodingChooser();
    const int load = chooser->count() - 1;
    QVERIFY(chooser->itemText(load).startsWith(QLatin1String("Load tokenizer.json")));
    Q_EMIT chooser->activated(load);
    QTRY_COMPARE(prompter()->errors.size(), 1);
    QVERIFY2(prompter()->errors.first().contains(file), qPrintable(prompter()->errors.first()));
    QVERIFY2(prompter()->errors.first().contains(QLatin1String("SentencePiece")),
             qPrintable(prompter()->errors.first()));
    // The counts stay those of the encoding in use.
    verifyShown(QStringLiteral("o200k_base"));
}

QTEST_MAIN(tst_TokenCounts)
#include "tst_tokencounts.moc"
