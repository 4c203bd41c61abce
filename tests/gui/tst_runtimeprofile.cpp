#include "compose/displaytext.h"
#include "counttext.h"
#include "guitestfiles.h"
#include "heap.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "personasession.h"
#include "preview/previewpanel.h"
#include "preview/runtimetextview.h"
#include "preview/soulpreview.h"
#include "prompter.h"
#include "quietprompter.h"
#include "runtime/hermes/hermesreader.h"
#include "runtime/openclaw/openclawreader.h"
#include "runtime/openclaw/openclawrule.h"
#include "runtimepreview.h"
#include "slots/panestack.h"
#include "slots/runtimemeter.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "tokens/tokenizer.h"
#include "window/mainwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>

#include <algorithm>
#include <memory>
#include <utility>

using namespace soul;
using namespace soul::guitest;

namespace {

// A SOUL.md well over OpenClaw's 20,000 characters: it keeps a head and a tail.
QByteArray longSoul()
{
    QByteArray text;
    for (int i = 0; text.size() < 30000; ++i)
        text += "Line " + QByteArray::number(i) + " of the soul, plain prose to fill it.\n";
    return text;
}

// An AGENTS.md over the limit with policy lines in the middle it drops, which
// the digest restates.
QByteArray agentsWithPolicy()
{
    QByteArray text = "# Agents\n\n";
    for (int i = 0; text.size() < 26000; ++i) {
        if (i % 40 == 20)
            text += "- You must never paste a secret into chat (rule " + QByteArray::number(i)
                    + ").\n";
        else
            text += "Filler line " + QByteArray::number(i) + " about the weather and tea.\n";
    }
    return text;
}

// A file with one line of 1,000,000 characters among short ones: its pane
// shows that line cut into pieces.
QByteArray withLongLine(const QByteArray &before, const QByteArray &after)
{
    QByteArray line(1000000, 'x');
    for (qsizetype i = 0; i < line.size(); i += 97)
        line[i] = ' ';
    return before + line + '\n' + after;
}

// Where each block of a pane's editor starts in the file's text, found from
// the text alone: a block the text follows with a line break ends a line, any
// other one was cut for display (a cut is always inside a line).
QList<qsizetype> blockTextStarts(const QTextDocument *document, const QString &text)
{
    QList<qsizetype> starts;
    qsizetype at = 0;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        starts.append(at);
        at += block.text().size();
        if (at < text.size() && text.at(at) == QLatin1Char('\n'))
            ++at;
    }
    return starts;
}

// The text position of an editor position: a cut's break maps to where the
// next piece starts.
qsizetype textPosition(const QTextDocument *document, const QList<qsizetype> &starts, int position)
{
    const QTextBlock block = document->findBlock(position);
    if (!block.isValid())
        return starts.isEmpty() ? 0 : starts.last() + document->lastBlock().text().size();
    return starts.at(block.blockNumber())
           + qMin<qsizetype>(position - block.position(), block.text().size());
}

// Compares the runtime's marks on screen with the rule's ranges (clipped to
// the lines on screen, as the pane draws them); empty when they agree.
QString marksAgainstRule(const SlotPane *pane, const QString &text, const OpenClawKept &kept)
{
    const QPlainTextEdit *editor = pane->editor();
    const QTextDocument *document = editor->document();
    const QList<qsizetype> starts = blockTextStarts(document, text);
    const QRect view = editor->viewport()->rect();
    const QTextBlock firstBlock = editor->cursorForPosition(view.topLeft()).block();
    const QTextBlock lastBlock = editor->cursorForPosition(view.bottomRight()).block();
    const qsizetype top = starts.at(firstBlock.blockNumber());
    const qsizetype bottom = textPosition(document,
                                          starts,
                                          qMin(lastBlock.position() + lastBlock.length(),
                                               document->characterCount() - 1));
    const auto clipped = [&](const KeptRange &range) {
        const qsizetype from = qBound(top, range.start, bottom);
        const qsizetype to = qBound(top, range.start + range.length, bottom);
        return std::make_pair(from, to);
    };
    QList<std::pair<qsizetype, qsizetype>> dropped;
    QList<std::pair<qsizetype, qsizetype>> digest;
    for (const QTextEdit::ExtraSelection &s : editor->extraSelections()) {
        const auto range = std::make_pair(textPosition(document, starts, s.cursor.selectionStart()),
                                          textPosition(document, starts, s.cursor.selectionEnd()));
        const int mark = s.format.intProperty(SlotPane::RuntimeMarkProperty);
        if (mark == SlotPane::DroppedMark)
            dropped.append(range);
        else if (mark == SlotPane::DigestMark)
            digest.append(range);
    }
    QList<std::pair<qsizetype, qsizetype>> droppedExpected;
    const auto droppedShown = clipped(kept.dropped);
    if (droppedShown.first < droppedShown.second)
        droppedExpected.append(droppedShown);
    QList<std::pair<qsizetype, qsizetype>> digestExpected;
    for (const KeptRange &line : kept.digestLines) {
        const auto shown = clipped(line);
        if (shown.first < shown.second)
            digestExpected.append(shown);
    }
    const auto describe = [](const QList<std::pair<qsizetype, qsizetype>> &ranges) {
        QStringList out;
        for (const auto &range : ranges)
            out.append(QStringLiteral("[%1,%2)").arg(range.first).arg(range.second));
        return out.join(QLatin1Char(' '));
    };
    if (dropped != droppedExpected || digest != digestExpected) {
        return QStringLiteral("on screen %1..%2: dropped %3, expected %4; digest %5, expected %6")
            .arg(top)
            .arg(bottom)
            .arg(describe(dropped),
                 describe(droppedExpected),
                 describe(digest),
                 describe(digestExpected));
    }
    return {};
}

int openClawIndex(const QComboBox *chooser)
{
    return chooser->findData(QStringLiteral("openclaw"));
}

} // namespace

class tst_RuntimeProfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void switchingShowsWhatSoulcComposes();
    void chosenRuntimeIsRemembered();
    void paneShadesTheDroppedMiddle();
    void agentsPaneMarksDigestLines();
    void toolsPaneSaysItIsNotLoaded();
    void refusedFileSaysNothingIsInjected();
    void typingUpdatesTheOpenClawPreview();
    void cutPaneMarksFollowTheRule_data();
    void paneHintFollowsTheSettings();
    void tokensOfWhatOpenClawInjects();
    void cutPaneMarksFollowTheRule();
    void hermesPreviewEqualsSoulc();
    void hermesMarksWhatItsScanBlocks();
    void hermesPreviewCountsEachBlock();
    void hermesCountsStayExactWhileTyping();
    void chosenRuntimeIsRememberedPerFolder();
    void panesFollowTheRuntimesOrder();
    void soulPreviewRestsWhileAnotherRuntimeShows();
    void largeBlocksAreMappedWhileAnotherRuntimeShows();

private:
    QString path(const QString &name) const { return m_fixture.filePath(name); }
    void openWindow();
    void chooseOpenClaw();
    QByteArray soulcCompose(const QString &runtime = QStringLiteral("openclaw")) const;
    void chooseRuntime(const QString &id);
    SlotPane *pane(const QString &name) const { return window()->panes()->pane(slotIndex(name)); }

    MainWindow *window() const { return m_fixture.window(); }
    // The runtime preview of the session shown.
    RuntimePreview *runtimePreview() const { return window()->currentSession()->runtimePreview(); }

    TestWindow<> m_fixture;
};

void tst_RuntimeProfile::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_RuntimeProfile::init()
{
    m_fixture.init();
    QVERIFY(writeInPlace(path(QStringLiteral("AGENTS.md")), agentsWithPolicy()));
    QVERIFY(writeInPlace(path(QStringLiteral("SOUL.md")), longSoul()));
    QVERIFY(writeInPlace(path(QStringLiteral("IDENTITY.md")), "Name: Kip\n"));
    QVERIFY(writeInPlace(path(QStringLiteral("TOOLS.md")), "Use the calculator for sums.\n"));
}

void tst_RuntimeProfile::cleanup()
{
    m_fixture.cleanup();
}

void tst_RuntimeProfile::openWindow()
{
    m_fixture.open(m_fixture.dir());
}

void tst_RuntimeProfile::chooseRuntime(const QString &id)
{
    PreviewPanel *panel = window()->previewPanel();
    const quint64 before = runtimePreview()->shownGeneration();
    panel->runtimeChooser()->setCurrentIndex(panel->runtimeChooser()->findData(id));
    QCOMPARE(panel->runtimeProfile().id(), id);
    QTRY_VERIFY(runtimePreview()->shownGeneration() > before && !runtimePreview()->busy());
}

void tst_RuntimeProfile::chooseOpenClaw()
{
    PreviewPanel *panel = window()->previewPanel();
    const quint64 before = runtimePreview()->shownGeneration();
    panel->runtimeChooser()->setCurrentIndex(openClawIndex(panel->runtimeChooser()));
    QCOMPARE(panel->runtimeProfile().id(), QStringLiteral("openclaw"));
    QTRY_VERIFY(runtimePreview()->shownGeneration() > before && !runtimePreview()->busy());
}

QByteArray tst_RuntimeProfile::soulcCompose(const QString &runtime) const
{
    return soulcOutput(
        {QStringLiteral("compose"), QStringLiteral("--runtime"), runtime, m_fixture.dir()});
}

void tst_RuntimeProfile::switchingShowsWhatSoulcComposes()
{
    openWindow();
    PreviewPanel *panel = window()->previewPanel();
    QCOMPARE(panel->runtimeChooser()->currentData().toString(), QStringLiteral("toolnexus"));
    QVERIFY(panel->preview()->isVisible());
    QVERIFY(!panel->runtimeText()->isVisible());

    chooseOpenClaw();
    QTRY_VERIFY(panel->settingBox(QStringLiteral("bootstrapMaxChars"))->isVisible());
    const QByteArray expected = soulcCompose();
    QVERIFY(!expected.isEmpty());
    const QString section = runtimePreview()->composition().text;
    QCOMPARE(section.toUtf8(), expected);
    QVERIFY(section.contains(QStringLiteral("[Policy digest from AGENTS.md]")));
    QVERIFY(!section.contains(QStringLiteral("calculator")));
    QVERIFY(panel->runtimeText()->isVisible());
    QVERIFY(!panel->preview()->isVisible());
    QCOMPARE(panel->runtimeText()->toPlainText(), displayText(QString::fromUtf8(expected), false));
    QCOMPARE(panel->settingBox(QStringLiteral("bootstrapMaxChars"))->value(),
             OpenClawSettings::DefaultMaxChars);
    QCOMPARE(panel->settingBox(QStringLiteral("bootstrapTotalMaxChars"))->value(),
             OpenClawSettings::DefaultTotalMaxChars);

    // Back to toolnexus: the soul preview again, and the panes unmarked.
    panel->runtimeChooser()->setCurrentIndex(0);
    QTRY_VERIFY(panel->preview()->isVisible());
    QTRY_VERIFY(!pane(QStringLiteral("SOUL.md"))->runtimeView().active);
}

void tst_RuntimeProfile::chosenRuntimeIsRemembered()
{
    openWindow();
    chooseOpenClaw();
    window()->previewPanel()->settingBox(QStringLiteral("bootstrapMaxChars"))->setValue(12000);
    m_fixture.close();

    openWindow();
    PreviewPanel *panel = window()->previewPanel();
    QCOMPARE(panel->runtimeChooser()->currentData().toString(), QStringLiteral("openclaw"));
    QCOMPARE(OpenClawSettings::from(panel->runtimeProfile().settings).maxChars(), 12000);
    QTRY_VERIFY(!runtimePreview()->busy() && !runtimePreview()->composition().text.isEmpty());
    const OpenClawSettings settings{12000, OpenClawSettings::DefaultTotalMaxChars};
    QCOMPARE(runtimePreview()->composition().text,
             composeOpenClaw(readOpenClawDirectory(m_fixture.dir()), settings).section);
}

void tst_RuntimeProfile::paneShadesTheDroppedMiddle()
{
    openWindow();
    chooseOpenClaw();
    const OpenClawComposition composition = composeOpenClaw(readOpenClawDirectory(m_fixture.dir()));
    const OpenClawKept kept = openClawKept(composition, QStringLiteral("SOUL.md"));
    QVERIFY(kept.dropped.length > 0);

    SlotPane *soul = pane(QStringLiteral("SOUL.md"));
    QCOMPARE(soul->runtimeView().dropped.start, kept.dropped.start);
    QCOMPARE(soul->runtimeView().dropped.length, kept.dropped.length);

    // The shading is drawn for the lines on screen: bring the cut into view.
    window()->panes()->showPane(slotIndex(QStringLiteral("SOUL.md")));
    QPlainTextEdit *editor = soul->editor();
    QTextCursor cursor(editor->document());
    cursor.setPosition(int(kept.dropped.start));
    editor->setTextCursor(cursor);
    editor->centerCursor();
    const auto shadedStart = [editor] {
        for (const QTextEdit::ExtraSelection &s : editor->extraSelections()) {
            if (s.format.intProperty(SlotPane::RuntimeMarkProperty) == SlotPane::DroppedMark)
                return s.cursor.selectionStart();
        }
        return -1;
    };
    QTRY_COMPARE(shadedStart(), int(kept.dropped.start));
    // Nothing before the cut is shaded: the lines above it are kept.
    for (const QTextEdit::ExtraSelection &s : editor->extraSelections()) {
        if (s.format.intProperty(SlotPane::RuntimeMarkProperty) == SlotPane::DroppedMark)
            QVERIFY(s.cursor.selectionEnd() <= int(kept.dropped.start + kept.dropped.length));
    }

    // The meter counts SOUL.md against its 20,000 and the 60,000 in all.
    const RuntimeMeter *meter = soul->runtimeMeter();
    QVERIFY(meter->isVisible());
    QCOMPARE(meter->budget(), qint64(OpenClawSettings::DefaultMaxChars));
    QCOMPARE(meter->level(), RuntimeMeter::Level::Over);
    QVERIFY(meter->text().contains(QStringLiteral("of 60,000")));
}

void tst_RuntimeProfile::agentsPaneMarksDigestLines()
{
    openWindow();
    chooseOpenClaw();
    const OpenClawKept kept = openClawKept(composeOpenClaw(readOpenClawDirectory(m_fixture.dir())),
                                           QStringLiteral("AGENTS.md"));
    QVERIFY(!kept.digestLines.isEmpty());
    const RuntimePaneView &view = pane(QStringLiteral("AGENTS.md"))->runtimeView();
    QCOMPARE(view.digestLines.size(), kept.digestLines.size());
    for (int i = 0; i < kept.digestLines.size(); ++i) {
        QCOMPARE(view.digestLines.at(i).start, kept.digestLines.at(i).start);
        QCOMPARE(view.digestLines.at(i).length, kept.digestLines.at(i).length);
    }
    // Each marked line is the heading, a policy line, or the prose line just
    // before one (the digest restates the two together).
    QPlainTextEdit *editor = pane(QStringLiteral("AGENTS.md"))->editor();
    const QString rule = QStringLiteral("must never");
    int policy = 0;
    for (const KeptRange &range : view.digestLines) {
        const QTextBlock block = editor->document()->findBlock(int(range.start));
        QCOMPARE(block.position(), int(range.start));
        QCOMPARE(block.text().size(), int(range.length));
        QVERIFY2(block.text() == QStringLiteral("# Agents") || block.text().contains(rule)
                     || block.next().text().contains(rule),
                 qPrintable(block.text()));
        policy += block.text().contains(rule) ? 1 : 0;
    }
    QVERIFY(policy > 0);
}

void tst_RuntimeProfile::toolsPaneSaysItIsNotLoaded()
{
    openWindow();
    SlotPane *tools = pane(QStringLiteral("TOOLS.md"));
    QVERIFY(!tools->runtimeNote()->isVisible());
    chooseOpenClaw();
    window()->panes()->showPane(slotIndex(QStringLiteral("TOOLS.md")));
    QTRY_VERIFY(tools->runtimeNote()->isVisible());
    QVERIFY2(tools->runtimeNote()->text().contains(
                 QStringLiteral("TOOLS.md is not loaded by OpenClaw 2026.9")),
             qPrintable(tools->runtimeNote()->text()));
    QVERIFY(!tools->runtimeMeter()->isVisible());
    QVERIFY(!tools->runtimeView().loaded);
}

void tst_RuntimeProfile::refusedFileSaysNothingIsInjected()
{
    // OpenClaw refuses a file over 2 MiB: the file is there, its pane says
    // that nothing of it is injected, and why.
    QByteArray big;
    while (big.size() <= 2 * 1024 * 1024)
        big += "a line of memory\n";
    QVERIFY(writeInPlace(path(QStringLiteral("MEMORY.md")), big));
    openWindow();
    chooseOpenClaw();
    const int memory = slotIndex(QStringLiteral("MEMORY.md"));
    window()->panes()->showPane(memory);
    SlotPane *memoryPane = pane(QStringLiteral("MEMORY.md"));
    QTRY_VERIFY(memoryPane->runtimeMeter()->isVisible() && memoryPane->runtimeNote()->isVisible());
    QCOMPARE(memoryPane->runtimeMeter()->text(), QStringLiteral("nothing of it is injected"));
    QVERIFY2(memoryPane->runtimeNote()->text().contains(QStringLiteral("UNREADABLE")),
             qPrintable(memoryPane->runtimeNote()->text()));
}

void tst_RuntimeProfile::typingUpdatesTheOpenClawPreview()
{
    openWindow();
    chooseOpenClaw();
    PreviewPanel *panel = window()->previewPanel();
    QPlainTextEdit *identity = pane(QStringLiteral("IDENTITY.md"))->editor();
    window()->panes()->showPane(slotIndex(QStringLiteral("IDENTITY.md")));
    identity->setFocus();
    identity->moveCursor(QTextCursor::End);
    QTest::keyClicks(identity, QStringLiteral("Motto: zephyrine"));
    QTRY_VERIFY(panel->runtimeText()->toPlainText().contains(QStringLiteral("zephyrine")));
    QTRY_VERIFY(!runtimePreview()->busy());
    QCOMPARE(panel->runtimeText()->toPlainText(),
             displayText(runtimePreview()->composition().text, false));

    // What is on disk does not have it yet.
    panel->unsavedToggle()->setChecked(false);
    QTRY_VERIFY(!panel->runtimeText()->toPlainText().contains(QStringLiteral("zephyrine")));
    QCOMPARE(runtimePreview()->composition().text.toUtf8(), soulcCompose());
}

void tst_RuntimeProfile::cutPaneMarksFollowTheRule_data()
{
    QTest::addColumn<QString>("name");
    // SOUL.md's head ends and its tail starts inside the long line.
    QTest::newRow("SOUL.md") << QStringLiteral("SOUL.md");
    // AGENTS.md's head ends in the long line; the policy lines after it go
    // into the digest, each some thousand cuts further on screen.
    QTest::newRow("AGENTS.md") << QStringLiteral("AGENTS.md");
}

void tst_RuntimeProfile::cutPaneMarksFollowTheRule()
{
    QFETCH(QString, name);
    const QByteArray bytes = name == QStringLiteral("SOUL.md")
                                 ? withLongLine("# Soul\n\nShort line.\n", "The end.\n")
                                 : withLongLine("# Agents\n\n", agentsWithPolicy());
    QVERIFY(writeInPlace(path(name), bytes));
    const QString text = QString::fromUtf8(bytes);
    openWindow();
    chooseOpenClaw();
    const OpenClawKept kept = openClawKept(composeOpenClaw(readOpenClawDirectory(m_fixture.dir())),
                                           name);
    QVERIFY(kept.dropped.length > 0);
    QVERIFY(name == QStringLiteral("SOUL.md") || !kept.digestLines.isEmpty());

    SlotPane *filePane = pane(name);
    window()->panes()->showPane(slotIndex(name));
    QTRY_VERIFY(!filePane->reloadPending());
    QVERIFY(filePane->cutsLongLines());
    QCOMPARE(filePane->text().replace(QChar::ParagraphSeparator, QLatin1Char('\n')), text);
    QCOMPARE(filePane->runtimeView().dropped.start, kept.dropped.start);
    QCOMPARE(filePane->runtimeView().dropped.length, kept.dropped.length);

    // Places to look at: the cut's two ends, its middle, and each digest line.
    QList<qsizetype> places{kept.dropped.start,
                            kept.dropped.start + kept.dropped.length / 2,
                            kept.dropped.start + kept.dropped.length};
    for (const KeptRange &line : kept.digestLines)
        places.append(line.start);
    QPlainTextEdit *editor = filePane->editor();
    const QList<qsizetype> starts = blockTextStarts(editor->document(), text);
    for (const qsizetype place : std::as_const(places)) {
        // The editor position of `place`, found from the blocks' text starts.
        const auto next = std::upper_bound(starts.begin(), starts.end(), place);
        const int block = int(next - starts.begin()) - 1;
        const int position = editor->document()->findBlockByNumber(block).position()
                             + int(place - starts.at(block));
        QTextCursor cursor(editor->document());
        cursor.setPosition(position);
        editor->setTextCursor(cursor);
        editor->centerCursor();
        QTRY_VERIFY2(marksAgainstRule(filePane, text, kept).isEmpty(),
                     qPrintable(marksAgainstRule(filePane, text, kept)));
        // Something is marked wherever the rule drops or digests text.
        bool marked = false;
        for (const QTextEdit::ExtraSelection &s : editor->extraSelections())
            marked = marked || s.format.intProperty(SlotPane::RuntimeMarkProperty) != 0;
        QVERIFY(marked);
    }
}

void tst_RuntimeProfile::paneHintFollowsTheSettings()
{
    // SOUL.md has some 30,000 characters; the hint follows bootstrapMaxChars.
    openWindow();
    QLabel *lints = pane(QStringLiteral("SOUL.md"))->lintLabel();
    const auto hint = [](int limit) {
        return QStringLiteral("OpenClaw keeps only about %1 of it").arg(formatCount(limit));
    };
    QTRY_VERIFY2(lints->text().contains(hint(OpenClawSettings::DefaultMaxChars)),
                 qPrintable(lints->text()));

    chooseOpenClaw();
    PreviewPanel *panel = window()->previewPanel();
    panel->settingBox(QStringLiteral("bootstrapMaxChars"))->setValue(40000);
    QTRY_VERIFY2(!lints->text().contains(QStringLiteral("OpenClaw keeps only about")),
                 qPrintable(lints->text()));
    panel->settingBox(QStringLiteral("bootstrapMaxChars"))->setValue(12000);
    QTRY_VERIFY2(lints->text().contains(hint(12000)), qPrintable(lints->text()));

    // Back to toolnexus, the hint keeps the settings chosen, here and after a
    // restart.
    panel->runtimeChooser()->setCurrentIndex(0);
    QTRY_VERIFY(!pane(QStringLiteral("SOUL.md"))->runtimeView().active);
    QVERIFY2(lints->text().contains(hint(12000)), qPrintable(lints->text()));
    m_fixture.reopen();
    lints = pane(QStringLiteral("SOUL.md"))->lintLabel();
    QTRY_VERIFY2(lints->text().contains(hint(12000)), qPrintable(lints->text()));
}

void tst_RuntimeProfile::tokensOfWhatOpenClawInjects()
{
    QVERIFY(writeInPlace(path(QStringLiteral("USER.md")), "Call me Sam. Ünïcode ✓ and 𝄞.\n"));
    openWindow();
    chooseOpenClaw();
    PreviewPanel *panel = window()->previewPanel();
    RuntimePreview *composer = runtimePreview();
    SoulTokenCounter *counter = window()->tokenCounter();

    for (const QString &encoding : {QStringLiteral("o200k_base"), QStringLiteral("cl100k_base")}) {
        counter->setEncoding(encoding);
        QTRY_VERIFY(!composer->busy() && composer->sectionTokens() >= 0
                    && composer->encodingName() == encoding);
        const std::shared_ptr<const Tokenizer> tokenizer = Tokenizer::builtin(encoding);
        QVERIFY(tokenizer);
        const QString section = composer->composition().text;
        QCOMPARE(composer->sectionTokens(), tokenizer->count(section.toUtf8()));
        QVERIFY2(panel->runtimeTotalsLabel()->text().contains(
                     QStringLiteral("%1 tokens (%2)")
                         .arg(formatCount(composer->sectionTokens()), encoding)),
                 qPrintable(panel->runtimeTotalsLabel()->text()));

        // Each file's text is what stands under its "## path" header, up to the
        // next file's header.
        const OpenClawComposition reference = composeOpenClaw(
            readOpenClawDirectory(m_fixture.dir()));
        QCOMPARE(section, reference.section);
        const QList<OpenClawFileFigures> &files = reference.files;
        int counted = 0;
        for (qsizetype i = 0; i < files.size(); ++i) {
            if (!files.at(i).injectedAny || files.at(i).kind != OpenClawEntry::Kind::Content)
                continue;
            const QString header = QStringLiteral("\n## ") + files.at(i).path + QLatin1Char('\n');
            const qsizetype from = section.indexOf(header);
            QVERIFY(from >= 0);
            qsizetype to = section.size();
            for (qsizetype j = i + 1; j < files.size(); ++j) {
                if (!files.at(j).injectedAny)
                    continue;
                to = section.indexOf(QStringLiteral("\n## ") + files.at(j).path + QLatin1Char('\n'),
                                     from + header.size());
                break;
            }
            QVERIFY(to > from);
            const QString injected = section.mid(from + header.size(), to - from - header.size());
            const qint64 expected = tokenizer->count(injected.toUtf8());
            SlotPane *filePane = pane(files.at(i).name);
            QVERIFY2(filePane->runtimeView().tokens == expected,
                     qPrintable(QStringLiteral("%1: %2, expected %3")
                                    .arg(files.at(i).name)
                                    .arg(filePane->runtimeView().tokens)
                                    .arg(expected)));
            const RuntimeMeter *meter = filePane->runtimeMeter();
            QCOMPARE(meter->tokens(), expected);
            QCOMPARE(meter->totalTokens(), composer->sectionTokens());
            QVERIFY2(meter->text().contains(QStringLiteral("%1 tokens injected, %2 in all (%3)")
                                                .arg(formatCount(expected),
                                                     formatCount(composer->sectionTokens()),
                                                     encoding)),
                     qPrintable(meter->text()));
            ++counted;
        }
        QCOMPARE(counted, 4); // AGENTS.md, SOUL.md, IDENTITY.md, USER.md
        // TOOLS.md is not injected: no count.
        QCOMPARE(pane(QStringLiteral("TOOLS.md"))->runtimeView().tokens, qint64(-1));
    }
}

void tst_RuntimeProfile::hermesPreviewEqualsSoulc()
{
    QVERIFY(writeInPlace(path(QStringLiteral("MEMORY.md")),
                         "likes tea\n§\nlikes tea\n§\nreads at night\n"));
    QVERIFY(writeInPlace(path(QStringLiteral("USER.md")), "Call me Sam.\n"));
    openWindow();
    chooseRuntime(QStringLiteral("hermes"));
    PreviewPanel *panel = window()->previewPanel();
    const QByteArray expected = soulcCompose(QStringLiteral("hermes"));
    QVERIFY(!expected.isEmpty());
    QCOMPARE(runtimePreview()->composition().text.toUtf8(), expected);
    QCOMPARE(panel->runtimeText()->toPlainText(), displayText(QString::fromUtf8(expected), false));
    // Its settings are Hermes's own, with its defaults.
    QVERIFY(panel->settingBox(QStringLiteral("memoryCharLimit")));
    QCOMPARE(panel->settingBox(QStringLiteral("memoryCharLimit"))->value(), 2200);
    QVERIFY(panel->settingCheck(QStringLiteral("memoryEnabled"))->isChecked());
    // The memory pane says what Hermes prints over it, and drops the duplicate.
    const RuntimePaneView &memory = pane(QStringLiteral("MEMORY.md"))->runtimeView();
    QVERIFY(memory.loaded);
    QVERIFY2(memory.note.contains(QStringLiteral("MEMORY [")), qPrintable(memory.note));
    QVERIFY2(memory.note.contains(QStringLiteral("2 entries, 1 duplicate dropped")),
             qPrintable(memory.note));
    QCOMPARE(memory.budget, qint64(2200));
    // Files Hermes never reads say so.
    const RuntimePaneView &tools = pane(QStringLiteral("TOOLS.md"))->runtimeView();
    QVERIFY(!tools.loaded);
    QVERIFY2(tools.note.contains(QStringLiteral("TOOLS.md is never read by Hermes")),
             qPrintable(tools.note));

    // Memory off: the preview loses the block, as soulc's --no-memory.
    panel->settingCheck(QStringLiteral("memoryEnabled"))->setChecked(false);
    QTRY_VERIFY(!runtimePreview()->busy()
                && !runtimePreview()->composition().text.contains(QStringLiteral("likes tea")));
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                {QStringLiteral("compose"),
                 QStringLiteral("--runtime"),
                 QStringLiteral("hermes"),
                 QStringLiteral("--no-memory"),
                 m_fixture.dir()});
    QVERIFY(soulc.waitForFinished(30000));
    QCOMPARE(runtimePreview()->composition().text.toUtf8(), soulc.readAllStandardOutput());
    // The preview took only what changed, and shows the text exactly.
    QCOMPARE(panel->runtimeText()->toPlainText(),
             displayText(runtimePreview()->composition().text, false));

    // An edit in the middle of a memory entry: the preview follows it.
    QPlainTextEdit *editor = pane(QStringLiteral("MEMORY.md"))->editor();
    panel->settingCheck(QStringLiteral("memoryEnabled"))->setChecked(true);
    QTextCursor cursor(editor->document());
    cursor.setPosition(6); // after "likes "
    cursor.insertText(QStringLiteral("rooibos and "));
    QTRY_VERIFY(
        !runtimePreview()->busy()
        && runtimePreview()->composition().text.contains(QStringLiteral("likes rooibos and tea")));
    QCOMPARE(panel->runtimeText()->toPlainText(),
             displayText(runtimePreview()->composition().text, false));
}

void tst_RuntimeProfile::hermesMarksWhatItsScanBlocks()
{
    // A joined emoji (U+200D between its parts) blocks the whole SOUL.md.
    const QByteArray soul = "I am a coder \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb.\n";
    QVERIFY(writeInPlace(path(QStringLiteral("SOUL.md")), soul));
    openWindow();
    chooseRuntime(QStringLiteral("hermes"));
    const QString text = runtimePreview()->composition().text;
    QVERIFY2(text.startsWith(
                 QStringLiteral("[BLOCKED: SOUL.md contained potential prompt injection "
                                "(invisible_unicode_U+200D)")),
             qPrintable(text));
    const RuntimePaneView &view = pane(QStringLiteral("SOUL.md"))->runtimeView();
    QVERIFY(view.markWarns);
    QVERIFY2(view.markNote.contains(QStringLiteral("invisible_unicode_U+200D")),
             qPrintable(view.markNote));
    QCOMPARE(view.digestLines.size(), 1);
    // The mark is on the joiner itself, in the pane's text.
    const QString paneText = pane(QStringLiteral("SOUL.md"))->editor()->toPlainText();
    QCOMPARE(paneText.mid(view.digestLines.first().start, view.digestLines.first().length),
             QString(QChar(0x200D)));
    QVERIFY2(view.note.contains(QStringLiteral("BLOCKED")), qPrintable(view.note));
}

void tst_RuntimeProfile::hermesPreviewCountsEachBlock()
{
    QVERIFY(writeInPlace(path(QStringLiteral("MEMORY.md")),
                         "likes tea\n\u00A7\nreads at night \u2713\n"));
    QVERIFY(writeInPlace(path(QStringLiteral("USER.md")), "Call me Sam. \xf0\x9d\x84\x9e\n"));
    openWindow();
    chooseRuntime(QStringLiteral("hermes"));
    PreviewPanel *panel = window()->previewPanel();
    RuntimePreview *composer = runtimePreview();
    RuntimeTextView *view = panel->runtimeTextView();
    QTRY_VERIFY(!composer->busy() && composer->blockTokens(0) >= 0);
    const std::shared_ptr<const Tokenizer> tokenizer = Tokenizer::builtin(composer->encodingName());
    QVERIFY(tokenizer);

    // The blocks are the core rule's, in prompt order, each counted as the
    // core tokenizer counts its text.
    const Result<HermesInput> input = readHermesFlat(m_fixture.dir());
    QVERIFY(input);
    const HermesComposition reference = composeHermes(*input);
    const QStringList texts
        = {reference.identity, reference.projectContext, reference.memory, reference.userProfile};
    const QStringList names = {QStringLiteral("identity"),
                               QStringLiteral("project context"),
                               QStringLiteral("memory"),
                               QStringLiteral("user profile")};
    const RuntimeComposition &composition = composer->composition();
    QCOMPARE(composition.blocks.size(), qsizetype(4));
    QCOMPARE(view->blocks().size(), qsizetype(4));
    for (qsizetype i = 0; i < 4; ++i) {
        const RuntimeBlock &block = composition.blocks.at(i);
        QCOMPARE(block.name, names.at(i));
        QCOMPARE(composition.text.mid(block.range.start, block.range.length), texts.at(i));
        const qint64 expected = tokenizer->count(texts.at(i).toUtf8());
        QVERIFY(expected > 0);
        QCOMPARE(composer->blockTokens(i), expected);
        const QString label = view->blocks().at(i).label;
        QVERIFY2(label.startsWith(names.at(i)), qPrintable(label));
        QVERIFY2(label.contains(QStringLiteral("%1 tokens (%2)")
                                    .arg(formatCount(expected), composer->encodingName())),
                 qPrintable(label));
    }
    // The panes' meters count the same blocks.
    QCOMPARE(pane(QStringLiteral("SOUL.md"))->runtimeView().tokens, composer->blockTokens(0));
    QCOMPARE(pane(QStringLiteral("AGENTS.md"))->runtimeView().tokens, composer->blockTokens(1));
    QCOMPARE(pane(QStringLiteral("MEMORY.md"))->runtimeView().tokens, composer->blockTokens(2));
    QCOMPARE(pane(QStringLiteral("USER.md"))->runtimeView().tokens, composer->blockTokens(3));

    // Hermes puts other blocks after the identity and after the project
    // context, none between memory and user profile, and more at the end.
    QVERIFY(composition.blocks.at(0).gapAfter.contains(QStringLiteral("help")));
    QVERIFY(composition.blocks.at(1).gapAfter.contains(QStringLiteral("skills index")));
    QVERIFY(composition.blocks.at(2).gapAfter.isEmpty());
    QVERIFY(composition.blocks.at(3).gapAfter.contains(QStringLiteral("Conversation started:")));
    QVERIFY2(view->joinText(1).contains(composition.blocks.at(0).gapAfter),
             qPrintable(view->joinText(1)));
    QVERIFY2(view->joinText(1).contains(view->blocks().at(1).label), qPrintable(view->joinText(1)));
    QVERIFY2(!view->joinText(3).contains(QStringLiteral("here the prompt has")),
             qPrintable(view->joinText(3)));
    // The header names the block at the top of the preview.
    QVERIFY(!view->header()->isHidden());
    QVERIFY2(view->header()->text().startsWith(view->blocks().at(0).label),
             qPrintable(view->header()->text()));
    // The marks are painted over the text, which stays what soulc composes.
    QCOMPARE(panel->runtimeText()->toPlainText(),
             displayText(QString::fromUtf8(soulcCompose(QStringLiteral("hermes"))), false));

    // An edit in USER.md: its block's count follows.
    QPlainTextEdit *editor = pane(QStringLiteral("USER.md"))->editor();
    QTextCursor cursor(editor->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(QStringLiteral("I like long walks by the river.\n"));
    QTRY_VERIFY(!composer->busy()
                && composer->composition().text.contains(QStringLiteral("long walks")));
    const RuntimeBlock user = composer->composition().blocks.at(3);
    const QString userText = composer->composition().text.mid(user.range.start, user.range.length);
    QVERIFY(userText.contains(QStringLiteral("long walks")));
    QCOMPARE(composer->blockTokens(3), tokenizer->count(userText.toUtf8()));
    QVERIFY2(view->blocks().at(3).label.contains(formatCount(tokenizer->count(userText.toUtf8()))),
             qPrintable(view->blocks().at(3).label));

    // OpenClaw's text is not blocks of a prompt: no header, no marks.
    chooseOpenClaw();
    QVERIFY(view->blocks().isEmpty());
    QVERIFY(view->header()->isHidden());
}

// Each run counts only the chunks that changed since the run before; the
// counts stay the text's own after an edit in the middle of a long memory.
void tst_RuntimeProfile::hermesCountsStayExactWhileTyping()
{
    QByteArray memory;
    for (int i = 0; memory.size() < 300 * 1024; ++i)
        memory += "Entry " + QByteArray::number(i) + " keeps notes about tea and trains.\n";
    QVERIFY(writeInPlace(path(QStringLiteral("MEMORY.md")), memory));
    openWindow();
    chooseRuntime(QStringLiteral("hermes"));
    RuntimePreview *composer = runtimePreview();
    QTRY_VERIFY(!composer->busy() && composer->blockTokens(0) >= 0);
    const std::shared_ptr<const Tokenizer> tokenizer = Tokenizer::builtin(composer->encodingName());
    QVERIFY(tokenizer);
    const auto checkCounts = [&] {
        const RuntimeComposition &composition = composer->composition();
        QCOMPARE(composer->sectionTokens(), tokenizer->count(composition.text.toUtf8()));
        QVERIFY(
            std::any_of(composition.blocks.cbegin(),
                        composition.blocks.cend(),
                        [](const RuntimeBlock &b) { return b.name == QLatin1String("memory"); }));
        for (qsizetype i = 0; i < composition.blocks.size(); ++i) {
            const RuntimeBlock &block = composition.blocks.at(i);
            QCOMPARE(composer->blockTokens(i),
                     tokenizer->count(
                         composition.text.mid(block.range.start, block.range.length).toUtf8()));
        }
    };
    checkCounts();
    if (QTest::currentTestFailed())
        return;
    QPlainTextEdit *editor = pane(QStringLiteral("MEMORY.md"))->editor();
    // A word typed, a line added, and letters replaced by as many others
    // (the chunk keeps its length).
    const QStringList edits = {QStringLiteral(" zephyrine"),
                               QStringLiteral("\nEntry typed."),
                               QStringLiteral("QQQQ")};
    for (const QString &typed : edits) {
        QTextCursor cursor(editor->document());
        cursor.setPosition(editor->document()->characterCount() / 3);
        if (typed == edits.last())
            cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor, typed.size());
        cursor.insertText(typed);
        QTRY_VERIFY(!composer->busy() && composer->composition().text.contains(typed));
        checkCounts();
        if (QTest::currentTestFailed())
            return;
    }
}

void tst_RuntimeProfile::chosenRuntimeIsRememberedPerFolder()
{
    // This folder with Hermes, another with OpenClaw: each opens with its own.
    openWindow();
    chooseRuntime(QStringLiteral("hermes"));
    const QString other = m_fixture.filePath(QStringLiteral("other"));
    QVERIFY(QDir().mkpath(other));
    QVERIFY(writeInPlace(other + QStringLiteral("/SOUL.md"), "Other.\n"));
    m_fixture.open(other);
    QCOMPARE(window()->previewPanel()->runtimeProfile().id(), QStringLiteral("hermes"));
    chooseOpenClaw();
    m_fixture.close();

    m_fixture.open(m_fixture.dir());
    QCOMPARE(window()->previewPanel()->runtimeProfile().id(), QStringLiteral("hermes"));
    m_fixture.open(other);
    QCOMPARE(window()->previewPanel()->runtimeProfile().id(), QStringLiteral("openclaw"));
}

void tst_RuntimeProfile::panesFollowTheRuntimesOrder()
{
    openWindow();
    PaneStack *panes = window()->panes();
    // The slots top to bottom, by name, and as the window lays them out.
    auto shown = [&] {
        QStringList names;
        for (const int slot : panes->order())
            names << slotName(slot);
        return names;
    };
    auto laidOutAsListed = [&] {
        const QList<int> order = panes->order();
        for (int at = 1; at < order.size(); ++at) {
            if (panes->pane(order.at(at - 1))->y() >= panes->pane(order.at(at))->y())
                return false;
        }
        return true;
    };
    const QStringList contract = {QStringLiteral("AGENTS.md"),
                                  QStringLiteral("SOUL.md"),
                                  QStringLiteral("IDENTITY.md"),
                                  QStringLiteral("USER.md"),
                                  QStringLiteral("TOOLS.md"),
                                  QStringLiteral("HEARTBEAT.md"),
                                  QStringLiteral("MEMORY.md")};
    QCOMPARE(shown(), contract);

    // OpenClaw reads AGENTS, SOUL, IDENTITY, USER and MEMORY (BOOTSTRAP.md,
    // which this folder lacks, has a pane of its own: tst_bootstrappane);
    // TOOLS.md and HEARTBEAT.md, which it never reads, go last.
    chooseOpenClaw();
    QCOMPARE(shown(),
             QStringList({QStringLiteral("AGENTS.md"),
                          QStringLiteral("SOUL.md"),
                          QStringLiteral("IDENTITY.md"),
                          QStringLiteral("USER.md"),
                          QStringLiteral("MEMORY.md"),
                          QStringLiteral("TOOLS.md"),
                          QStringLiteral("HEARTBEAT.md")}));
    QTRY_VERIFY(laidOutAsListed());

    // Hermes: SOUL.md, its project file, then its memories.
    chooseRuntime(QStringLiteral("hermes"));
    QCOMPARE(shown(),
             QStringList({QStringLiteral("SOUL.md"),
                          QStringLiteral("AGENTS.md"),
                          QStringLiteral("MEMORY.md"),
                          QStringLiteral("USER.md"),
                          QStringLiteral("IDENTITY.md"),
                          QStringLiteral("TOOLS.md"),
                          QStringLiteral("HEARTBEAT.md")}));
    QTRY_VERIFY(laidOutAsListed());

    chooseRuntime(QStringLiteral("toolnexus"));
    QCOMPARE(shown(), contract);
    QTRY_VERIFY(laidOutAsListed());
}

void tst_RuntimeProfile::soulPreviewRestsWhileAnotherRuntimeShows()
{
    openWindow();
    PreviewPanel *panel = window()->previewPanel();
    SoulPreview *soul = panel->preview();
    const QString before = soul->toPlainText();
    QVERIFY(before.contains(QStringLiteral("Name: Kip")));

    // Under OpenClaw the soul's document holds nothing, whatever is typed.
    chooseOpenClaw();
    QVERIFY(soul->suspended());
    QCOMPARE(soul->document()->characterCount(), 1);
    QPlainTextEdit *identity = pane(QStringLiteral("IDENTITY.md"))->editor();
    identity->moveCursor(QTextCursor::End);
    QTest::keyClicks(identity, QStringLiteral("Motto: zephyrine"));
    QTRY_VERIFY(panel->runtimeText()->toPlainText().contains(QStringLiteral("zephyrine")));
    QCOMPARE(soul->document()->characterCount(), 1);

    // Shown again, it holds the soul with the edit made meanwhile, exactly;
    // OpenClaw's text is gone before the soul comes back, never both at once.
    qsizetype heldWithSoul = -1;
    const QMetaObject::Connection filled
        = connect(soul->document(), &QTextDocument::contentsChanged, this, [&heldWithSoul, panel] {
              if (heldWithSoul < 0)
                  heldWithSoul = panel->runtimeText()->document()->characterCount() - 1;
          });
    chooseRuntime(QStringLiteral("toolnexus"));
    QVERIFY(!soul->suspended());
    QTRY_VERIFY(soul->document()->characterCount() > 1);
    disconnect(filled);
    QCOMPARE(heldWithSoul, 0);
    const QByteArray composed = window()->model()->soul(SoulView::Unsaved);
    QVERIFY(composed.contains("Motto: zephyrine"));
    QCOMPARE(soul->toPlainText(), displayText(QString::fromUtf8(composed), false));
}

// Another runtime's text is made again whole at each keystroke: while it is
// shown, large blocks are given back when freed; toolnexus keeps them.
void tst_RuntimeProfile::largeBlocksAreMappedWhileAnotherRuntimeShows()
{
    openWindow();
    QVERIFY(!largeBlocksMapped());
    chooseRuntime(QStringLiteral("hermes"));
    QVERIFY(largeBlocksMapped());
    chooseOpenClaw();
    QVERIFY(largeBlocksMapped());
    chooseRuntime(QStringLiteral("toolnexus"));
    QVERIFY(!largeBlocksMapped());
}

QTEST_MAIN(tst_RuntimeProfile)
#include "tst_runtimeprofile.moc"
