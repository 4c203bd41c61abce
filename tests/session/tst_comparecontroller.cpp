#include "../core/testfiles.h"
#include "comparechecks.h"
#include "comparecontroller.h"
#include "documentcontroller.h"
#include "freezecontroller.h"
#include "persona/personamodel.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"
#include "personasession.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimeregistry.h"
#include "registry/runtimesoul.h"
#include "scriptedprompter.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <initializer_list>
#include <utility>

using namespace soul;
using soul::test::checkPrefixAgainstCore;
using soul::test::readFile;
using soul::test::ScriptedPrompter;
using soul::test::writeFile;

namespace {

const int Soul = slotIndex(u"SOUL.md");
const int Identity = slotIndex(u"IDENTITY.md");
const int User = slotIndex(u"USER.md");
const int Memory = slotIndex(u"MEMORY.md");

using Statuses = std::array<SectionStatus, SlotCount>;

// The statuses of the slots named in `named`; every other slot absent.
Statuses statuses(std::initializer_list<std::pair<int, SectionStatus>> named)
{
    Statuses out{};
    out.fill(SectionStatus::Absent);
    for (const auto &[slot, status] : named)
        out[size_t(slot)] = status;
    return out;
}

QString statusText(const Statuses &s)
{
    QStringList out;
    for (int k = 0; k < SlotCount; ++k)
        out.append(slotName(k) + QLatin1Char('=') + sectionStatusName(s[size_t(k)]));
    return out.join(QLatin1Char(' '));
}

// "SOUL.md=unchanged USER.md=changed", in the controller's order.
QString fileStatusText(const QList<RuntimeFileStatus> &files)
{
    QStringList out;
    for (const RuntimeFileStatus &file : files) {
        out.append(file.name + QLatin1Char('=') + sectionStatusName(file.status)
                   + (file.placed ? QString() : QStringLiteral("(unplaced)")));
    }
    return out.join(QLatin1Char(' '));
}

// What `runtime` injects for `dir` by `settings`, as soulc compose writes it.
QByteArray composedFor(const QString &dir, const Runtime *runtime, const RuntimeSettings &settings)
{
    QByteArray out;
    const bool ok = composeDirectoryTo(
        dir,
        [&out](QByteArrayView piece) {
            out += piece;
            return true;
        },
        RuntimeProfile::of(runtime, settings));
    return ok ? out : QByteArray();
}

qsizetype countOf(const QString &html, const QString &what)
{
    return html.count(what);
}

} // namespace

// The compare controller without a window: two agents' live souls, a
// snapshot file, and the sentences a broken snapshot gives. Comparisons run
// on the controller's worker; the tests wait for its signals.
class tst_CompareController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void agentsCompareAsTheViewSays();
    void agentComparisonFollowsOnlyThisAgent();
    void snapshotSectionStatuses();
    void brokenSnapshotNamesTheFile_data();
    void brokenSnapshotNamesTheFile();
    void closedComparisonSendsNothing();
    void runtimeSnapshotComparesLikeWithLike();
    void unknownRuntimeIsNamed();
    void runtimeAndSoulSnapshotsInTurn();
    void runtimeSnapshotOpenedLastIsShown();
    void runtimeFileBufferIsCompared();
    void closedThenOpenedAtOnce();

private:
    // A session on `dir`, opened.
    std::unique_ptr<PersonaSession> openSession(const QString &dir);
    // Waits for a result of the text as it is now, and its diff (after open()).
    static bool waitForCurrent(CompareController *compare);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    ScriptedPrompter m_prompter;
    QString m_work;
    QString m_ops;
};

void tst_CompareController::initTestCase()
{
    // Recovery copies and the user's cache rules stay out of the user's folders.
    QStandardPaths::setTestModeEnabled(true);
}

void tst_CompareController::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    m_prompter = ScriptedPrompter();
    m_work = m_dir->filePath(QStringLiteral("work"));
    m_ops = m_dir->filePath(QStringLiteral("ops"));
    for (const QString &dir : {m_work, m_ops}) {
        const QByteArray id = QFileInfo(dir).fileName().toUtf8();
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(test::writeSlot(dir, Soul, "You are " + id + ".\nYou answer briefly.\n"));
        QVERIFY(test::writeSlot(dir, User, "The user is Sam.\n"));
        QVERIFY(test::writeSlot(dir, Identity, "- **Name:** " + id.toUpper() + "\n"));
    }
}

void tst_CompareController::cleanup()
{
    m_settings.reset();
    m_dir.reset();
}

std::unique_ptr<PersonaSession> tst_CompareController::openSession(const QString &dir)
{
    auto session = std::make_unique<PersonaSession>(&m_prompter, m_settings.get());
    PersonaSession::Agent agent;
    agent.id = QFileInfo(dir).fileName();
    agent.folder = dir;
    session->setAgent(agent);
    if (!session->documents()->open(dir))
        return nullptr;
    return session;
}

bool tst_CompareController::waitForCurrent(CompareController *compare)
{
    // open() clears the diff; the next one is of this comparison.
    return QTest::qWaitFor([compare] { return compare->current() && !compare->diffHtml().isEmpty(); },
                           30000);
}

// Work's live soul against ops': with unsaved edits on both sides, or only
// what is on disk, as the preview's switch says.
void tst_CompareController::agentsCompareAsTheViewSays()
{
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    const std::unique_ptr<PersonaSession> ops = openSession(m_ops);
    QVERIFY(work && ops);
    // Unsaved on both sides: ops' user is Kim, work's name is Wren.
    ops->model()->setBufferText(User, u"The user is Kim.\n");
    work->model()->setBufferText(Identity, u"- **Name:** Wren\n");
    const QMap<QString, QByteArray> workFiles = test::treeContents(m_work);
    const QMap<QString, QByteArray> opsFiles = test::treeContents(m_ops);

    CompareController *compare = work->compare();
    QCOMPARE(compare->view(), SoulView::Unsaved);
    QSignalSpy updated(compare, &CompareController::updated);
    QVERIFY2(compare->openAgent(*ops), qPrintable(compare->error()));
    // The comparison runs on the worker: nothing is known yet.
    QVERIFY(!compare->hasResult());
    QVERIFY(compare->busy());
    QVERIFY(updated.wait(30000));
    QVERIFY(waitForCurrent(compare));
    // The snapshot stands for ops' soul with its unsaved edit.
    const Result<LoadedSnapshot> theirs = loadSnapshot(compare->snapshotPath());
    QVERIFY2(theirs, qPrintable(theirs.error()));
    QCOMPARE(theirs.value().soul.soul, ops->model()->soul(SoulView::Unsaved));
    QVERIFY(theirs.value().soul.soul.contains("The user is Kim."));
    QCOMPARE(QFileInfo(compare->snapshotPath()).fileName(), QStringLiteral("ops.soul.md"));
    checkPrefixAgainstCore(compare, work->model()->soul(SoulView::Unsaved));

    Statuses want = statuses({{Soul, SectionStatus::Changed},
                              {Identity, SectionStatus::Changed},
                              {User, SectionStatus::Changed}});
    QCOMPARE(statusText(compare->result().status), statusText(want));
    QVERIFY(compare->result().firstChange);
    QCOMPARE(compare->result().firstChange->file, QStringLiteral("SOUL.md"));
    QCOMPARE(compare->result().firstChange->line, qint64(1));
    QCOMPARE(compare->firstChangePlace(), qMakePair(qint64(1), qint64(8)));
    QVERIFY2(compare->prefixSentence().endsWith(
                 QStringLiteral("; the first change is in SOUL.md, line 1")),
             qPrintable(compare->prefixSentence()));
    const QString html = compare->diffHtml();
    QVERIFY2(html.contains(QStringLiteral("<h3>SOUL.md — changed</h3>")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("<span class=\"delw\">ops</span>")));
    QVERIFY(html.contains(QStringLiteral("<span class=\"addw\">work</span>")));
    QVERIFY(html.contains(QStringLiteral("<h3>USER.md — changed</h3>")));
    QVERIFY(html.contains(QStringLiteral("<span class=\"delw\">Kim</span>")));
    QVERIFY(html.contains(QStringLiteral("<span class=\"addw\">Sam</span>")));
    QVERIFY(html.contains(QStringLiteral("<span class=\"delw\">OPS</span>")));
    QVERIFY(html.contains(QStringLiteral("<span class=\"addw\">Wren</span>")));
    // The line both share is context, not a change.
    QVERIFY(html.contains(QStringLiteral("<span class=\"ctx\"> You answer briefly.</span>")));

    // On disk: ops' user is Sam again, work's name is WORK.
    compare->setView(SoulView::OnDisk);
    QVERIFY(compare->openAgent(*ops));
    QVERIFY(waitForCurrent(compare));
    QCOMPARE(loadSnapshot(compare->snapshotPath()).value().soul.soul,
             ops->model()->soul(SoulView::OnDisk));
    checkPrefixAgainstCore(compare, work->model()->soul(SoulView::OnDisk));
    want[size_t(User)] = SectionStatus::Unchanged;
    QCOMPARE(statusText(compare->result().status), statusText(want));
    const QString onDisk = compare->diffHtml();
    QVERIFY2(!onDisk.contains(QStringLiteral("USER.md")), qPrintable(onDisk));
    QVERIFY(onDisk.contains(QStringLiteral("<span class=\"addw\">WORK</span>")));
    QVERIFY(!onDisk.contains(QStringLiteral("Wren")));
    QVERIFY(!onDisk.contains(QStringLiteral("Kim")));

    // Comparing wrote nothing in either folder; both edits stay unsaved.
    QCOMPARE(test::treeContents(m_work), workFiles);
    QCOMPARE(test::treeContents(m_ops), opsFiles);
    QVERIFY(work->hasUnsaved() && ops->hasUnsaved());
    QVERIFY(m_prompter.errors.isEmpty());
}

// The live side follows this agent's typing; the other agent's soul is the
// one frozen when the comparison was asked for.
void tst_CompareController::agentComparisonFollowsOnlyThisAgent()
{
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    const std::unique_ptr<PersonaSession> ops = openSession(m_ops);
    QVERIFY(work && ops);
    CompareController *compare = work->compare();
    QVERIFY(compare->openAgent(*ops));
    QVERIFY(waitForCurrent(compare));
    QCOMPARE(compare->result().status[size_t(Soul)], SectionStatus::Changed);

    // Keystrokes in a row: each supersedes the last; the result is of the
    // text as it ends.
    for (const char16_t *text :
         {u"You are o", u"You are op", u"You are ops.\nYou answer briefly.\n"})
        work->model()->setBufferText(Soul, text);
    QVERIFY(!compare->current());
    QTRY_VERIFY_WITH_TIMEOUT(compare->current(), 30000);
    QCOMPARE(compare->result().status[size_t(Soul)], SectionStatus::Unchanged);
    QCOMPARE(compare->result().firstChange->file, QStringLiteral("IDENTITY.md"));
    checkPrefixAgainstCore(compare, work->model()->soul(SoulView::Unsaved));
    QTRY_VERIFY_WITH_TIMEOUT(!compare->diffHtml().contains(QStringLiteral("SOUL.md")), 30000);
    QVERIFY(compare->diffHtml().contains(QStringLiteral("<h3>IDENTITY.md — changed</h3>")));

    // Ops' edit after the comparison opened is not in it.
    QSignalSpy updated(compare, &CompareController::updated);
    ops->model()->setBufferText(Identity, u"- **Name:** WORK\n");
    compare->waitForWorker();
    QCoreApplication::processEvents();
    QCOMPARE(updated.count(), 0);
    QCOMPARE(compare->result().status[size_t(Identity)], SectionStatus::Changed);

    // An agent without a folder: the sentence names it, nothing is compared.
    PersonaSession ghost(&m_prompter, m_settings.get());
    PersonaSession::Agent agent;
    agent.id = QStringLiteral("ghost");
    ghost.setAgent(agent);
    QVERIFY(!compare->openAgent(ghost));
    QCOMPARE(compare->error(), QStringLiteral("ghost has no workspace folder to compare with."));
    QVERIFY(!compare->hasResult());
}

// A snapshot file: each section unchanged, changed, added or removed, in the
// view the preview shows.
void tst_CompareController::snapshotSectionStatuses()
{
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);
    const Result<Snapshot> taken = takeSnapshot(m_work);
    QVERIFY2(taken, qPrintable(taken.error()));
    const QString soulPath = m_dir->filePath(QStringLiteral("work-frozen.soul.md"));
    const Status written = writeSnapshot(taken.value(), soulPath, false);
    QVERIFY2(written, qPrintable(written.error()));

    // After the freeze: SOUL.md edited (unsaved), USER.md deleted and
    // MEMORY.md made by another program; IDENTITY.md as it was.
    work->model()->setBufferText(Soul, u"You are work.\nYou answer at length.\n");
    QVERIFY(QFile::remove(QDir(m_work).filePath(QStringLiteral("USER.md"))));
    QVERIFY(test::writeSlot(m_work, Memory, "- drinks tea\n"));
    QTRY_VERIFY_WITH_TIMEOUT(work->model()->section(Memory, SoulView::OnDisk).has_value()
                                 && !work->model()->section(User, SoulView::OnDisk).has_value(),
                             30000);

    CompareController *compare = work->compare();
    QSignalSpy updated(compare, &CompareController::updated);
    QVERIFY2(compare->open(soulPath), qPrintable(compare->error()));
    QCOMPARE(compare->snapshotPath(), soulPath);
    QVERIFY(compare->error().isEmpty());
    QVERIFY(!compare->hasResult());
    QVERIFY(updated.wait(30000));
    QVERIFY(waitForCurrent(compare));
    checkPrefixAgainstCore(compare, work->model()->soul(SoulView::Unsaved));
    QCOMPARE(statusText(compare->result().status),
             statusText(statuses({{Soul, SectionStatus::Changed},
                                  {Identity, SectionStatus::Unchanged},
                                  {User, SectionStatus::Removed},
                                  {Memory, SectionStatus::Added}})));
    QCOMPARE(compare->result().firstChange->file, QStringLiteral("SOUL.md"));
    QCOMPARE(compare->result().firstChange->line, qint64(2));
    QCOMPARE(compare->firstChangePlace(), qMakePair(qint64(2), qint64(11)));
    const QString html = compare->diffHtml();
    QVERIFY2(html.contains(QStringLiteral("<h3>SOUL.md — changed</h3>")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("<span class=\"delw\">briefly</span>")));
    QVERIFY(html.contains(QStringLiteral("<span class=\"addw\">at length</span>")));
    QVERIFY(html.contains(QStringLiteral("<h3>USER.md — removed</h3>")));
    QVERIFY(html.contains(QStringLiteral("<h3>MEMORY.md — added</h3>")));
    QVERIFY(!html.contains(QStringLiteral("IDENTITY.md")));
    QVERIFY(!compare->reuseSentences().isEmpty());

    // What is on disk: the unsaved edit is not compared.
    QSignalSpy diffs(compare, &CompareController::diffUpdated);
    compare->setView(SoulView::OnDisk);
    QVERIFY(!compare->current());
    QTRY_VERIFY_WITH_TIMEOUT(compare->current(), 30000);
    checkPrefixAgainstCore(compare, work->model()->soul(SoulView::OnDisk));
    QCOMPARE(compare->result().status[size_t(Soul)], SectionStatus::Unchanged);
    QCOMPARE(compare->result().firstChange->file, QStringLiteral("USER.md"));
    QTRY_VERIFY_WITH_TIMEOUT(!compare->diffHtml().contains(QStringLiteral("SOUL.md")), 30000);
    QCOMPARE(diffs.count(), 1);
    QVERIFY(compare->diffHtml().contains(QStringLiteral("<h3>USER.md — removed</h3>")));

    // Invisibles as the preview marks them: the tab of a changed line.
    compare->setView(SoulView::Unsaved);
    compare->setShowInvisibles(true);
    work->model()->setBufferText(Soul, u"You are work.\nYou answer\tat length.\n");
    QTRY_VERIFY_WITH_TIMEOUT(compare->current()
                                 && compare->diffHtml().contains(
                                     QStringLiteral("<span class=\"inv\">\t</span>")),
                             30000);
}

void tst_CompareController::brokenSnapshotNamesTheFile_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QString>("says");
    QTest::newRow("missing") << QStringLiteral("gone.soul.md") << QStringLiteral("missing")
                             << QStringLiteral(": no such snapshot. It was moved or deleted");
    QTest::newRow("no manifest") << QStringLiteral("bare.soul.md") << QStringLiteral("no manifest")
                                 << QStringLiteral(": no manifest beside it");
    QTest::newRow("edited after export")
        << QStringLiteral("edited.soul.md") << QStringLiteral("tampered")
        << QStringLiteral(" does not match its manifest");
    QTest::newRow("a folder") << QStringLiteral("folder.soul.md") << QStringLiteral("folder")
                              << QStringLiteral(": a folder, not a snapshot");
}

// A snapshot that cannot be compared: open() says why in a sentence naming
// the file, at once, and no comparison runs.
void tst_CompareController::brokenSnapshotNamesTheFile()
{
    QFETCH(QString, name);
    QFETCH(QString, problem);
    QFETCH(QString, says);
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);
    const QString soulPath = m_dir->filePath(name);
    if (problem == QLatin1String("no manifest")) {
        QVERIFY(writeFile(soulPath, "## SOUL.md\n\nYou are work.\n"));
    } else if (problem == QLatin1String("tampered")) {
        const Result<Snapshot> taken = takeSnapshot(m_work);
        QVERIFY(taken);
        QVERIFY(writeSnapshot(taken.value(), soulPath, false));
        QByteArray soul = readFile(soulPath);
        soul.replace("Sam", "Kim");
        QVERIFY(writeFile(soulPath, soul));
    } else if (problem == QLatin1String("folder")) {
        QVERIFY(QDir().mkpath(soulPath));
    }

    CompareController *compare = work->compare();
    QSignalSpy updated(compare, &CompareController::updated);
    QVERIFY(!compare->open(soulPath));
    QCOMPARE(updated.count(), 1);
    QVERIFY2(compare->error().startsWith(soulPath + says), qPrintable(compare->error()));
    QCOMPARE(compare->snapshotPath(), soulPath);
    QVERIFY(!compare->hasResult());
    QVERIFY(!compare->busy());
    QVERIFY(compare->prefixSentence().isEmpty());

    // Typing compares nothing against it.
    work->model()->setBufferText(Soul, u"You are work.\n");
    compare->waitForWorker();
    QCoreApplication::processEvents();
    QCOMPARE(updated.count(), 1);
    QVERIFY(!compare->hasResult());

    // A good snapshot afterwards compares as ever.
    const Result<Snapshot> taken = takeSnapshot(m_work);
    QVERIFY(taken);
    const QString good = m_dir->filePath(QStringLiteral("good.soul.md"));
    QVERIFY(writeSnapshot(taken.value(), good, false));
    QVERIFY2(compare->open(good), qPrintable(compare->error()));
    QVERIFY(compare->error().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(compare->current(), 30000);
    QCOMPARE(compare->result().status[size_t(Soul)], SectionStatus::Changed);
}

// Frozen with OpenClaw chosen (and budgets of its own): the comparison
// composes the persona for OpenClaw now, by the snapshot's settings, and
// compares its text with the snapshot's.
void tst_CompareController::runtimeSnapshotComparesLikeWithLike()
{
    const Runtime *openClaw = RuntimeRegistry::instance().find(u"openclaw");
    QVERIFY(openClaw);
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);
    // Per file 20 characters: SOUL.md is cut, as OpenClaw's defaults would not.
    const RuntimeSettings frozenSettings = openClaw->withDefaults(
        {{QStringLiteral("bootstrapMaxChars"), 20}});
    work->setRuntimeProfile(RuntimeProfile::of(openClaw, frozenSettings));
    m_settings->setValue(QStringLiteral("snapshots/folder"),
                         m_dir->filePath(QStringLiteral("snaps")));
    QSignalSpy frozen(work->freezer(), &FreezeController::frozen);
    QVERIFY(work->freezer()->freeze());
    QVERIFY(frozen.wait(30000));
    const QString soulPath = frozen.first().first().toString();
    // The preview moves on to OpenClaw's defaults; the comparison keeps the
    // snapshot's.
    work->setRuntimeProfile(RuntimeProfile::of(openClaw));

    CompareController *compare = work->compare();
    QVERIFY2(compare->open(soulPath), qPrintable(compare->error()));
    QVERIFY(waitForCurrent(compare));
    QCOMPARE(compare->runtime(), openClaw);
    QCOMPARE(compare->runtimeSettings(), frozenSettings);
    QCOMPARE(compare->comparedText().toUtf8(), composedFor(m_work, openClaw, frozenSettings));
    QCOMPARE(compare->comparedText().toUtf8(), readFile(soulPath));
    QVERIFY2(compare->comparedText().contains(QStringLiteral("[…truncated")),
             qPrintable(compare->comparedText()));
    QVERIFY(composedFor(m_work, openClaw, openClaw->withDefaults({})) != readFile(soulPath));
    QCOMPARE(fileStatusText(compare->fileStatuses()),
             QStringLiteral("SOUL.md=unchanged IDENTITY.md=unchanged USER.md=unchanged"));
    QVERIFY(compare->result().prefix.identical);
    QVERIFY2(compare->prefixSentence().endsWith(
                 QStringLiteral("(100%); what OpenClaw 2026.9 injects is the snapshot's")),
             qPrintable(compare->prefixSentence()));
    QVERIFY(!compare->diffHtml().contains(QStringLiteral("<h3>")));

    // One edit, unsaved: USER.md alone changed, and the diff holds that line.
    work->model()->setBufferText(User, u"The user is Kim.\n");
    QTRY_VERIFY_WITH_TIMEOUT(compare->current()
                                 && compare->diffHtml().contains(QStringLiteral("Kim")),
                             30000);
    QCOMPARE(fileStatusText(compare->fileStatuses()),
             QStringLiteral("SOUL.md=unchanged IDENTITY.md=unchanged USER.md=changed"));
    QVERIFY(!compare->result().prefix.identical);
    QVERIFY2(compare->prefixSentence().endsWith(QStringLiteral("; the first change is in USER.md")),
             qPrintable(compare->prefixSentence()));
    const QString html = compare->diffHtml();
    QVERIFY2(html.contains(QStringLiteral("<h3>What OpenClaw 2026.9 injects</h3>")),
             qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("<span class=\"delw\">Sam</span>")), qPrintable(html));
    QVERIFY(html.contains(QStringLiteral("<span class=\"addw\">Kim</span>")));
    QCOMPARE(countOf(html, QStringLiteral("class=\"del\"")), 1);
    QCOMPARE(countOf(html, QStringLiteral("class=\"add\"")), 1);
    const QByteArray unsavedText = compare->comparedText().toUtf8();
    QVERIFY(unsavedText.contains("The user is Kim."));
    // The prefix is core's on the two texts (the snapshot's ids were
    // counted by the first comparison and kept).
    const StablePrefix core = stablePrefix(readFile(soulPath),
                                           unsavedText,
                                           tokenEncoding(QStringLiteral("o200k_base")).value());
    QCOMPARE(compare->result().prefix.tokens, core.tokens);
    QCOMPARE(compare->result().prefix.totalTokens, core.totalTokens);
    QCOMPARE(compare->result().prefix.bytes, core.bytes);
    QVERIFY(core.tokens > 0 && core.tokens < core.totalTokens);

    // On disk the persona is still the snapshot's.
    compare->setView(SoulView::OnDisk);
    QTRY_VERIFY_WITH_TIMEOUT(compare->current(), 30000);
    QVERIFY(compare->result().prefix.identical);
    QCOMPARE(compare->comparedText().toUtf8(), readFile(soulPath));

    // A file made by another program is added; one deleted is removed.
    compare->setView(SoulView::Unsaved);
    work->model()->setBufferText(User, u"The user is Sam.\n");
    QVERIFY(test::writeSlot(m_work, Memory, "- drinks tea\n"));
    QVERIFY(QFile::remove(QDir(m_work).filePath(QStringLiteral("IDENTITY.md"))));
    QTRY_VERIFY_WITH_TIMEOUT(compare->current() && compare->fileStatuses().size() == 4
                                 && !work->model()->section(Identity, SoulView::OnDisk),
                             30000);
    QTRY_COMPARE_WITH_TIMEOUT(fileStatusText(compare->fileStatuses()),
                              QStringLiteral("SOUL.md=unchanged IDENTITY.md=removed "
                                             "USER.md=unchanged MEMORY.md=added"),
                              30000);
    QVERIFY(m_prompter.errors.isEmpty());
}

// A snapshot of a runtime this build does not know: a sentence naming the
// file, the runtime and what to do; nothing is compared.
void tst_CompareController::unknownRuntimeIsNamed()
{
    const Runtime *openClaw = RuntimeRegistry::instance().find(u"openclaw");
    QVERIFY(openClaw);
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);
    RuntimeInput input;
    input.dir = m_work;
    const Result<Snapshot> taken = takeRuntimeSnapshot(input, *openClaw, {});
    QVERIFY2(taken, qPrintable(taken.error()));
    const QString soulPath = m_dir->filePath(QStringLiteral("zeta.soul.md"));
    QVERIFY(writeSnapshot(taken.value(), soulPath, false));
    QJsonObject manifest = QJsonDocument::fromJson(readFile(manifestPathFor(soulPath))).object();
    QJsonObject runtime = manifest.value(QStringLiteral("runtime")).toObject();
    runtime.insert(QStringLiteral("runtime"), QStringLiteral("zeta"));
    runtime.insert(QStringLiteral("runtimeName"), QStringLiteral("Zeta 3"));
    manifest.insert(QStringLiteral("runtime"), runtime);
    QVERIFY(writeFile(manifestPathFor(soulPath), QJsonDocument(manifest).toJson()));

    CompareController *compare = work->compare();
    QSignalSpy updated(compare, &CompareController::updated);
    QVERIFY(!compare->open(soulPath));
    QCOMPARE(updated.count(), 1);
    const QString error = compare->error();
    QVERIFY2(error.startsWith(soulPath
                              + QStringLiteral(": a snapshot of what runtime 'zeta "
                                               "(Zeta 3)' injects, which this Soul "
                                               "Studio does not know")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("freeze the persona again")), qPrintable(error));
    QVERIFY(!compare->hasResult());
    QVERIFY(!compare->busy());
    QVERIFY(compare->runtime() == nullptr);
    QVERIFY(compare->fileStatuses().isEmpty());
    work->model()->setBufferText(Soul, u"You are work.\n");
    compare->waitForWorker();
    QCoreApplication::processEvents();
    QCOMPARE(updated.count(), 1);
    QVERIFY(compare->diffHtml().isEmpty());
}

// A runtime's snapshot opened while a soul's comparison runs, and the other
// way round: the result shown is of the snapshot opened last.
void tst_CompareController::runtimeAndSoulSnapshotsInTurn()
{
    const Runtime *openClaw = RuntimeRegistry::instance().find(u"openclaw");
    QVERIFY(openClaw);
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);
    RuntimeInput input;
    input.dir = m_work;
    const Result<Snapshot> ofRuntime = takeRuntimeSnapshot(input, *openClaw, {});
    const Result<Snapshot> ofSoul = takeSnapshot(m_work);
    QVERIFY(ofRuntime && ofSoul);
    const QString runtimePath = m_dir->filePath(QStringLiteral("openclaw.soul.md"));
    const QString soulPath = m_dir->filePath(QStringLiteral("soul.soul.md"));
    QVERIFY(writeSnapshot(ofRuntime.value(), runtimePath, false));
    QVERIFY(writeSnapshot(ofSoul.value(), soulPath, false));
    work->model()->setBufferText(Soul, u"You are work, in turn.\n");

    CompareController *compare = work->compare();
    for (int round = 0; round < 3; ++round) {
        QVERIFY(compare->open(runtimePath));
        QVERIFY(compare->open(soulPath));
        QVERIFY(waitForCurrent(compare));
        QVERIFY(compare->runtime() == nullptr);
        QVERIFY(compare->comparedText().isEmpty());
        QCOMPARE(compare->result().status[size_t(Soul)], SectionStatus::Changed);
        checkPrefixAgainstCore(compare, work->model()->soul(SoulView::Unsaved));

        QVERIFY(compare->open(soulPath));
        QVERIFY(compare->open(runtimePath));
        QVERIFY(waitForCurrent(compare));
        QCOMPARE(compare->runtime(), openClaw);
        QVERIFY(compare->comparedText().contains(QStringLiteral("You are work, in turn.")));
        QCOMPARE(fileStatusText(compare->fileStatuses()),
                 QStringLiteral("SOUL.md=changed IDENTITY.md=unchanged USER.md=unchanged"));
    }
}

// Two snapshots of OpenClaw's text opened one right after the other: no
// result of the first is shown for the second.
void tst_CompareController::runtimeSnapshotOpenedLastIsShown()
{
    const Runtime *openClaw = RuntimeRegistry::instance().find(u"openclaw");
    QVERIFY(openClaw);
    RuntimeInput input;
    input.dir = m_work;
    const Result<Snapshot> before = takeRuntimeSnapshot(input, *openClaw, {});
    QVERIFY(test::writeSlot(m_work, User, "The user is Kim.\n"));
    const Result<Snapshot> after = takeRuntimeSnapshot(input, *openClaw, {});
    QVERIFY(before && after);
    const QString beforePath = m_dir->filePath(QStringLiteral("before.soul.md"));
    const QString afterPath = m_dir->filePath(QStringLiteral("after.soul.md"));
    QVERIFY(writeSnapshot(before.value(), beforePath, false));
    QVERIFY(writeSnapshot(after.value(), afterPath, false));
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);

    CompareController *compare = work->compare();
    QStringList shown;
    connect(compare, &CompareController::updated, this, [compare, &shown] {
        if (compare->hasResult())
            shown.append(compare->snapshotPath() + QLatin1Char(' ')
                         + fileStatusText(compare->fileStatuses()));
    });
    for (int round = 0; round < 3; ++round) {
        QVERIFY(compare->open(beforePath));
        QVERIFY(compare->open(afterPath));
        QVERIFY(waitForCurrent(compare));
    }
    compare->disconnect(this);
    QVERIFY(!shown.isEmpty());
    for (const QString &line : std::as_const(shown)) {
        QCOMPARE(line,
                 afterPath
                     + QStringLiteral(
                         " SOUL.md=unchanged IDENTITY.md=unchanged USER.md=unchanged"));
    }
}

// The file a runtime reads beside the slots (OpenClaw's BOOTSTRAP.md) is
// compared as its pane holds it.
void tst_CompareController::runtimeFileBufferIsCompared()
{
    const Runtime *openClaw = RuntimeRegistry::instance().find(u"openclaw");
    QVERIFY(openClaw);
    QVERIFY(writeFile(QDir(m_work).filePath(QStringLiteral("BOOTSTRAP.md")), "Say hello.\n"));
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);
    work->setRuntimeProfile(RuntimeProfile::of(openClaw));
    RuntimeInput input;
    input.dir = m_work;
    const Result<Snapshot> taken = takeRuntimeSnapshot(input, *openClaw, {});
    QVERIFY(taken);
    const QString soulPath = m_dir->filePath(QStringLiteral("bootstrap.soul.md"));
    QVERIFY(writeSnapshot(taken.value(), soulPath, false));

    CompareController *compare = work->compare();
    QVERIFY(compare->open(soulPath));
    QVERIFY(waitForCurrent(compare));
    QVERIFY(compare->result().prefix.identical);
    const int bootstrap = work->documents()->setupDocument();
    QVERIFY(work->model()->isDocumentOpen(bootstrap));
    work->model()->setBufferText(bootstrap, u"Say hello, then ask.\n");
    QTRY_VERIFY_WITH_TIMEOUT(compare->current() && !compare->result().prefix.identical, 30000);
    QCOMPARE(fileStatusText(compare->fileStatuses()),
             QStringLiteral("SOUL.md=unchanged IDENTITY.md=unchanged USER.md=unchanged "
                            "BOOTSTRAP.md=changed"));
    QVERIFY(compare->comparedText().contains(QStringLiteral("Say hello, then ask.")));
    // On disk it is as frozen.
    compare->setView(SoulView::OnDisk);
    QTRY_VERIFY_WITH_TIMEOUT(compare->current() && compare->result().prefix.identical, 30000);
}

// Closed (the window showed another agent): edits compare nothing more.
void tst_CompareController::closedComparisonSendsNothing()
{
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    const std::unique_ptr<PersonaSession> ops = openSession(m_ops);
    QVERIFY(work && ops);
    CompareController *compare = work->compare();
    QVERIFY(compare->openAgent(*ops));
    // Closed while the first comparison may still run: its result is dropped.
    compare->close();
    QSignalSpy updated(compare, &CompareController::updated);
    QSignalSpy diffs(compare, &CompareController::diffUpdated);
    work->model()->setBufferText(Soul, u"You are work, closed.\n");
    compare->waitForWorker();
    QCoreApplication::processEvents();
    QCOMPARE(updated.count(), 0);
    QCOMPARE(diffs.count(), 0);
    QVERIFY(!compare->hasResult());
    QVERIFY(!compare->busy());
    QVERIFY(compare->snapshotPath().isEmpty());
    QVERIFY(compare->diffHtml().isEmpty());

    // And opens again.
    QVERIFY(compare->openAgent(*ops));
    QVERIFY(waitForCurrent(compare));
    QCOMPARE(compare->result().status[size_t(Soul)], SectionStatus::Changed);
}

// Closed while the worker still counts the snapshot, and opened again at
// once: the snapshot opened after the close is compared (the close lets go
// on the worker only of what was opened before it).
void tst_CompareController::closedThenOpenedAtOnce()
{
    // Large enough that counting it keeps the worker busy past the reopen.
    QByteArray memory;
    for (int i = 0; memory.size() < qsizetype(1024) * 1024; ++i)
        memory += "- note " + QByteArray::number(i) + ": the user prefers short answers.\n";
    QVERIFY(test::writeSlot(m_work, Memory, memory));
    const Result<Snapshot> taken = takeSnapshot(m_work);
    QVERIFY(taken);
    const QString soulPath = m_dir->filePath(QStringLiteral("large.soul.md"));
    QVERIFY(writeSnapshot(taken.value(), soulPath, false));
    const std::unique_ptr<PersonaSession> work = openSession(m_work);
    QVERIFY(work);
    work->model()->setBufferText(Soul, u"You are work, opened again.\n");

    CompareController *compare = work->compare();
    QVERIFY(compare->open(soulPath));
    compare->close();
    QVERIFY(compare->open(soulPath));
    QVERIFY(waitForCurrent(compare));
    QCOMPARE(statusText(compare->result().status),
             statusText(statuses({{Soul, SectionStatus::Changed},
                                  {Identity, SectionStatus::Unchanged},
                                  {User, SectionStatus::Unchanged},
                                  {Memory, SectionStatus::Unchanged}})));
    checkPrefixAgainstCore(compare, work->model()->soul(SoulView::Unsaved));
}

QTEST_GUILESS_MAIN(tst_CompareController)
#include "tst_comparecontroller.moc"
