#include "../live/gitfixture.h"
#include "documentcontroller.h"
#include "history/commitreader.h"
#include "history/historylistmodel.h"
#include "history/historyloader.h"
#include "history/historysession.h"
#include "history/repositorywatcher.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"
#include "scriptedprompter.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

// A persona's history without a window: the session's log, a commit's files
// and soul, a damaged repository, a commit made outside, and checkpoints.
// Repositories are made with the git command line, the independent side.
using namespace soul;
using soul::test::GitFixture;

namespace {

// The scripted answers, plus the two questions a checkpoint asks.
class CheckpointPrompter final : public test::ScriptedPrompter
{
public:
    QString message; // the checkpoint message given; null cancels
    bool askCreateRepository(const QString &, const QString &) override { return false; }
    QString askCheckpointMessage(const QString &, const QString &) override { return message; }
};

const QByteArray SoulOne = "You are Kip.\n";
const QByteArray SoulTwo = "You are Kip, a terse assistant.\nYou answer in plain words.\n";
const QByteArray Memory = "- prefers metric units\n";

} // namespace

class tst_HistorySession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void logIsListed();
    void revisionHasItsSlotBytes();
    void soulIsComposedForTheRuntimeChosen_data();
    void soulIsComposedForTheRuntimeChosen();
    void damagedRepositoryIsAnErrorAndTheSessionWorks();
    void watcherNoticesACommitMadeOutside();
    void checkpointIsRefusedUnderIndexLock();

private:
    // A repository whose folder has three commits touching slot files
    // (SOUL.md, MEMORY.md, SOUL.md again) and one that does not.
    QString makeHistory();
    // A session on `dir`, followed and shown, once its log is read.
    void openSession(const QString &dir);
    HistorySession *history() const { return m_session->history(); }
    QString path(const QString &name) const { return m_dir->filePath(name); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<GitFixture> m_git;
    std::unique_ptr<QSettings> m_settings;
    CheckpointPrompter m_prompter;
    std::unique_ptr<PersonaSession> m_session;
};

void tst_HistorySession::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (!GitFixture::available())
        QFAIL("these tests make repositories with the git command line: install git");
}

void tst_HistorySession::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    // libgit2 in this process reads the test's home, never the user's.
    m_git = GitFixture::inHome(path(QStringLiteral("home")));
    QVERIFY(m_git);
    m_settings = std::make_unique<QSettings>(path(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    m_prompter = CheckpointPrompter();
}

void tst_HistorySession::cleanup()
{
    m_session.reset();
    m_settings.reset();
    m_git.reset();
    m_dir.reset();
}

QString tst_HistorySession::makeHistory()
{
    const QString repo = path(QStringLiteral("repo"));
    const bool made
        = m_git->makeRepository(repo,
                                repo,
                                {{"SOUL.md", SoulOne, QStringLiteral("first soul")},
                                 {"MEMORY.md", Memory, QStringLiteral("a memory")},
                                 {"notes.txt", "not a slot\n", QStringLiteral("notes only")},
                                 {"SOUL.md", SoulTwo, QStringLiteral("longer soul")}});
    return made ? repo : QString();
}

void tst_HistorySession::openSession(const QString &dir)
{
    m_session = std::make_unique<PersonaSession>(&m_prompter, m_settings.get());
    const Status opened = m_session->model()->open(dir);
    QVERIFY2(opened, qPrintable(opened.error()));
    QSignalSpy finished(history()->loader(), &HistoryLoader::finished);
    history()->setFollowed(true);
    history()->setListShown(true);
    QVERIFY(finished.wait(20000));
    QTRY_VERIFY(!history()->loader()->isRunning());
}

void tst_HistorySession::logIsListed()
{
    const QString dir = makeHistory();
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    openSession(dir);
    if (QTest::currentTestFailed())
        return;

    QCOMPARE(history()->status(), HistoryStatus::Ready);
    const HistoryListModel *rows = history()->rows();
    // The commit that touched no slot file is not listed; newest first.
    QCOMPARE(rows->count(), 3);
    QCOMPARE(rows->commit(0).summary, QStringLiteral("longer soul"));
    QCOMPARE(rows->commit(1).summary, QStringLiteral("a memory"));
    QCOMPARE(rows->commit(2).summary, QStringLiteral("first soul"));
    QCOMPARE(rows->commit(0).id, m_git->revParse(dir, QStringLiteral("HEAD")));
    QCOMPARE(rows->measured(), 3);
    QVERIFY(rows->figures(0)->soulTokens > rows->figures(2)->soulTokens);
    // What each commit changed, as the list and soulc log say it.
    const QList<ChangedSlot> memory = changedSlots(rows->commit(1), &*rows->figures(1));
    QCOMPARE(memory.size(), 1);
    QCOMPARE(memory.first().slot, slotIndex(u"MEMORY.md"));
    QCOMPARE(memory.first().change, SlotChange::Added);
    QVERIFY(memory.first().tokenChange > 0);
    QCOMPARE(changedSlots(rows->commit(0), nullptr).first().change, SlotChange::Modified);
    QCOMPARE(changedSlots(rows->commit(0), nullptr).first().tokenChange, 0);
    QVERIFY(HistoryListModel::changesText(rows->commit(1), rows->figures(1))
                .startsWith(QLatin1String("MEMORY.md +")));
    // HEAD is the disk: nothing changed since the last checkpoint.
    QTRY_COMPARE(history()->checkpointShortId(), rows->commit(0).shortId);
    QVERIFY(history()->changedSinceCheckpoint().isEmpty());

    // Not followed, nothing is read: a window's other agents cost nothing.
    PersonaSession idle(&m_prompter, m_settings.get());
    QVERIFY(idle.model()->open(dir));
    idle.history()->setListShown(true);
    QCOMPARE(idle.history()->loader()->status(), HistoryStatus::Closed);
    QVERIFY(idle.history()->repositoryWatcher()->watchedPaths().isEmpty());
}

void tst_HistorySession::revisionHasItsSlotBytes()
{
    const QString dir = makeHistory();
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    openSession(dir);
    if (QTest::currentTestFailed())
        return;
    const int soul = slotIndex(u"SOUL.md");
    const int memory = slotIndex(u"MEMORY.md");

    // The files of a revision, as soulc --rev reads them.
    const Result<PersonaRevision> first = readCommit(dir, QStringLiteral("HEAD~3"), ReadOptions(-1));
    QVERIFY2(first, qPrintable(first.error()));
    QCOMPARE(first->reads[size_t(soul)].bytes, SoulOne);
    QCOMPARE(first->reads[size_t(memory)].presence, SlotPresence::Missing);

    // The soul at a selected commit, read on a worker.
    QSignalSpy read(history(), &HistorySession::soulRead);
    history()->selectRow(2);
    QVERIFY(read.wait(10000));
    const auto shown = read.takeFirst().at(0).value<CommitSoul>();
    QCOMPARE(shown.commitId, history()->rows()->commit(2).id);
    QVERIFY(shown.soul.contains("You are Kip."));
    QVERIFY(!shown.soul.contains("terse"));
    QVERIFY(shown.present[size_t(soul)]);
    QVERIFY(!shown.present[size_t(memory)]);

    // Restored into the buffer, unsaved; the disk keeps the newest.
    QVERIFY(history()->restoreFile(2, soul));
    QCOMPARE(m_session->model()->slot(soul).bufferBytes, SoulOne);
    QVERIFY(m_session->model()->slot(soul).dirty);
    QCOMPARE(test::readBytes(QDir(dir).filePath(QStringLiteral("SOUL.md"))), SoulTwo);
    // A file the commit did not have is refused, in a sentence.
    const Status absent = history()->restoreFile(2, memory);
    QVERIFY(!absent);
    QVERIFY2(absent.error().contains(QLatin1String("did not exist")), qPrintable(absent.error()));
    QCOMPARE(m_session->model()->slot(memory).bufferBytes, Memory);
}

void tst_HistorySession::soulIsComposedForTheRuntimeChosen_data()
{
    QTest::addColumn<QString>("runtime");
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes())
        QTest::newRow(qPrintable(runtime->id())) << runtime->id();
}

// The soul at a commit is what the session's runtime composes from a
// checkout of it (soulc compose of `git worktree add`), whatever the folder
// holds now; choosing another runtime reads the selected commit again.
void tst_HistorySession::soulIsComposedForTheRuntimeChosen()
{
    QFETCH(QString, runtime);
    const QString dir = makeHistory();
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("AGENTS.md")), "On disk.\n"));
    openSession(dir);
    if (QTest::currentTestFailed())
        return;
    const QByteArray id = history()->rows()->commit(1).id;
    const QString checkout = path(QStringLiteral("checkout"));
    QVERIFY2(!m_git
                  ->git(dir,
                        {QStringLiteral("worktree"),
                         QStringLiteral("add"),
                         QStringLiteral("-q"),
                         QStringLiteral("--detach"),
                         checkout,
                         QString::fromLatin1(id)})
                  .isNull(),
             qPrintable(m_git->lastError()));
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                {QStringLiteral("compose"), QStringLiteral("--runtime"), runtime, checkout});
    QVERIFY(soulc.waitForFinished(30000));
    QCOMPARE(soulc.exitCode(), 0);
    // The text names the folder it was composed from: the checkout's stands
    // for the persona's.
    const QString expected = QString::fromUtf8(soulc.readAllStandardOutput()).replace(checkout, dir);
    QVERIFY(!expected.isEmpty());

    QSignalSpy read(history(), &HistorySession::soulRead);
    history()->selectRow(1);
    QVERIFY(read.wait(10000));
    // Chosen after the selection: the same commit is read again.
    const RuntimeProfile profile = RuntimeProfile::of(RuntimeRegistry::instance().find(runtime));
    m_session->setRuntimeProfile(profile);
    const auto last = [&read] { return read.last().at(0).value<CommitSoul>(); };
    QTRY_COMPARE(QString::fromUtf8(last().soul), expected);
    const CommitSoul soul = last();
    QCOMPARE(soul.commitId, id);
    QVERIFY(!soul.soul.contains("On disk."));
    if (!profile.sectioned()) {
        QCOMPARE(soul.runtimeName, profile.displayName());
        QVERIFY2(soul.notes.join(QLatin1Char(' ')).contains(profile.displayName()),
                 qPrintable(soul.notes.join(QLatin1Char(' '))));
    }
}

void tst_HistorySession::damagedRepositoryIsAnErrorAndTheSessionWorks()
{
    const QString dir = makeHistory();
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    // HEAD's SOUL.md blob claims fewer bytes than it holds.
    const QByteArray blob = m_git->revParse(dir, QStringLiteral("HEAD:SOUL.md"));
    QCOMPARE(blob.size(), 40);
    const QString object = QDir(dir).filePath(
        QStringLiteral(".git/objects/%1/%2")
            .arg(QString::fromLatin1(blob.left(2)), QString::fromLatin1(blob.mid(2))));
    QVERIFY(QFile::setPermissions(object, QFile::ReadOwner | QFile::WriteOwner));
    const QByteArray shortHeader = "blob " + QByteArray::number(SoulTwo.size() - 9) + '\0'
                                   + SoulTwo;
    QVERIFY(test::writeBytes(object, qCompress(shortHeader).mid(4)));

    openSession(dir);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(history()->status(), HistoryStatus::Failed);
    QVERIFY2(history()->errorText().contains(QLatin1String("is damaged"))
                 && history()->errorText().contains(QLatin1String(blob)),
             qPrintable(history()->errorText()));

    // The same commit read directly, as soulc reads it: an error, no crash.
    const Result<PersonaRevision> head = readCommit(dir, QStringLiteral("HEAD"), ReadOptions(-1));
    QVERIFY(!head);
    QVERIFY2(head.error().contains(QLatin1String(blob)), qPrintable(head.error()));
    QVERIFY(!revisionSoul(dir, QStringLiteral("HEAD"), m_session->model()->rule()));
    // Restoring from it says why, through the prompter.
    const int soul = slotIndex(u"SOUL.md");
    if (history()->rows()->count() > 0) {
        QVERIFY(!history()->restoreFile(0, soul));
        QVERIFY(!m_prompter.errors.isEmpty());
    }
    QVERIFY(history()->changedSinceCheckpoint().isEmpty());

    // The session goes on: the buffer takes edits and saves them.
    QVERIFY(m_session->model()->replaceBuffer(soul, SoulTwo + "Unsaved words.\n"));
    QVERIFY(m_session->documents()->save(soul));
    QCOMPARE(test::readBytes(QDir(dir).filePath(QStringLiteral("SOUL.md"))),
             SoulTwo + "Unsaved words.\n");
    // And reads again when asked, with the same answer.
    QSignalSpy finished(history()->loader(), &HistoryLoader::finished);
    history()->refresh();
    QVERIFY(finished.wait(20000));
    QCOMPARE(history()->status(), HistoryStatus::Failed);
}

void tst_HistorySession::watcherNoticesACommitMadeOutside()
{
    const QString dir = makeHistory();
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    openSession(dir);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(history()->rows()->count(), 3);
    QTRY_VERIFY(!history()->repositoryWatcher()->watchedPaths().isEmpty());
    QTRY_VERIFY(!history()->repositoryWatcher()->isReading());

    QSignalSpy moved(history()->repositoryWatcher(), &RepositoryWatcher::headChanged);
    QVERIFY(test::writeBytes(QDir(dir).filePath(QStringLiteral("MEMORY.md")),
                             Memory + "- works late\n"));
    const QByteArray made = m_git->commitAll(dir, QStringLiteral("agent: a memory"));
    QVERIFY2(!made.isEmpty(), qPrintable(m_git->lastError()));
    QVERIFY(moved.wait(10000));
    QTRY_COMPARE(history()->rows()->count(), 4);
    QCOMPARE(history()->rows()->commit(0).id, made);
    QCOMPARE(history()->rows()->commit(0).summary, QStringLiteral("agent: a memory"));
}

void tst_HistorySession::checkpointIsRefusedUnderIndexLock()
{
    const QString dir = makeHistory();
    QVERIFY2(!dir.isEmpty(), qPrintable(m_git->lastError()));
    openSession(dir);
    if (QTest::currentTestFailed())
        return;
    const QByteArray before = m_git->revParse(dir, QStringLiteral("HEAD"));
    const int soul = slotIndex(u"SOUL.md");
    QVERIFY(m_session->model()->replaceBuffer(soul, SoulTwo + "You never guess.\n"));
    QVERIFY(m_session->documents()->save(soul));

    // Another git holds the index.
    const QString lock = QDir(dir).filePath(QStringLiteral(".git/index.lock"));
    QVERIFY(test::writeBytes(lock, ""));
    QSignalSpy made(history(), &HistorySession::checkpointMade);
    m_prompter.message = QStringLiteral("a checkpoint");
    QVERIFY(!history()->checkpoint());
    QCOMPARE(m_prompter.errors.size(), 1);
    QVERIFY2(m_prompter.errors.first().contains(QLatin1String("index.lock")),
             qPrintable(m_prompter.errors.first()));
    const Result<Checkpoint> refused = history()->commitCheckpoint(QStringLiteral("a checkpoint"));
    QVERIFY(!refused);
    QVERIFY2(refused.error().contains(QLatin1String("index.lock")), qPrintable(refused.error()));
    QCOMPARE(made.count(), 0);
    QCOMPARE(m_git->revParse(dir, QStringLiteral("HEAD")), before);
    QVERIFY(QFileInfo::exists(lock)); // not ours to remove

    // Once the other git is done, the same checkpoint is made, says the
    // file was saved here, and the list shows it.
    QVERIFY(QFile::remove(lock));
    const Result<CheckpointPlan> plan = history()->planCheckpoint();
    QVERIFY2(plan, qPrintable(plan.error()));
    QVERIFY(!plan->isEmpty());
    QVERIFY(history()->savedHere(soul));
    QVERIFY(!history()->checkpointMessage(*plan).contains(QLatin1String("outside")));
    QVERIFY(history()->checkpoint());
    QCOMPARE(made.count(), 1);
    QCOMPARE(made.first().at(1).toString(), QStringLiteral("a checkpoint"));
    QVERIFY(m_git->revParse(dir, QStringLiteral("HEAD")) != before);
    QTRY_COMPARE(history()->rows()->count(), 4);
    QTRY_COMPARE(history()->checkpointShortId(), history()->rows()->commit(0).shortId);
}

QTEST_GUILESS_MAIN(tst_HistorySession)
#include "tst_historysession.moc"
