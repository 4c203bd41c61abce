#include "../core/testfiles.h"
#include "disk/recoverystore.h"
#include "documentcontroller.h"
#include "exportcontroller.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "registry/runtimeregistry.h"
#include "registry/runtimesoul.h"
#include "scriptedprompter.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace soul;
using soul::test::readFile;
using soul::test::writeFile;

// A document of the model beside the seven slots goes through the slots'
// paths of the session: recovery, Revert, the question when it changed on
// disk, Save all and the close and export questions. Every test runs for
// the runtime's setup file (BOOTSTRAP.md, under the runtime that names one)
// and for a skill's SKILL.md, added with one line. No window: the answers
// come from a double.
namespace {

const QString Bootstrap = QStringLiteral("BOOTSTRAP.md");
const QString Skill = QStringLiteral("skills/demo/SKILL.md");
// A BOM and CR LF line breaks, which no edit of the pane may lose.
const QByteArray Disk = "\xEF\xBB\xBF# First run\r\n\r\nAsk who they are.\r\n";

class Answering : public soul::test::ScriptedPrompter
{
public:
    QList<StaleAnswer> staleAnswers;
    QStringList askedStale;
    QList<StaleReason> staleReasons;
    QStringList compares;
    QStringList askedExport;
    ExportAnswer exportAnswer = ExportAnswer::Cancel;
    bool dropAnswer = false;
    QStringList askedDrop;
    QString saveAllDirectory;

    StaleAnswer askStaleSave(const QString &file, const QString &, StaleReason reason) override
    {
        askedStale.append(file);
        staleReasons.append(reason);
        return staleAnswers.isEmpty() ? StaleAnswer::Cancel : staleAnswers.takeFirst();
    }
    void showCompare(const QString &, const QString &diff) override { compares.append(diff); }
    QString askSaveAllDirectory(const QString &) override { return saveAllDirectory; }
    ExportAnswer askExportWithUnsaved(const QStringList &files) override
    {
        askedExport = files;
        return exportAnswer;
    }
    bool askDropUnsaved(const QString &file) override
    {
        askedDrop.append(file);
        return dropAnswer;
    }
};

} // namespace

class tst_SetupFileSlot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void initTestCase_data();
    void init();
    void cleanup();
    void recoveryIsOfferedAndRestored();
    void revertTakesTheDiskBytes();
    void revertWithoutAFileAsksFirst();
    void changedOnDiskUnderUnsavedText_data();
    void changedOnDiskUnderUnsavedText();
    void staleSaveAsks_data();
    void diskChangeMeetsTheSlotsRule_data();
    void diskChangeMeetsTheSlotsRule();
    void staleSaveAsks();
    void closeAndExportNameIt();
    void nothingToSaveIsExplained();
    void bytesAPaneCannotKeepAreNotEdited();
    void saveAllElsewhereTakesItsText();
    void saveAllElsewhereNeverOverwritesIt();

private:
    // A session on the folder under the runtime that has a setup file.
    std::unique_ptr<PersonaSession> openSession();
    // The document under test, and its state.
    int doc() const { return m_session->model()->documentIndex(m_name); }
    const SlotState &state() const { return m_session->model()->slot(doc()); }
    QByteArray buffer() const { return state().bufferPresent ? state().bufferBytes : QByteArray(); }
    QString path() const { return QDir(m_persona).absoluteFilePath(m_name); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    Answering m_prompter;
    QString m_persona;
    QString m_name; // the document's path in the folder
    std::unique_ptr<PersonaSession> m_session;
};

void tst_SetupFileSlot::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_SetupFileSlot::initTestCase_data()
{
    QTest::addColumn<QString>("document");
    QTest::newRow("setup file") << Bootstrap;
    QTest::newRow("skill") << Skill;
}

void tst_SetupFileSlot::init()
{
    QFETCH_GLOBAL(QString, document);
    m_name = document;
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    m_prompter = Answering();
    m_persona = QFileInfo(m_dir->filePath(QStringLiteral("work"))).absoluteFilePath();
    QVERIFY(QDir().mkpath(m_persona));
    QVERIFY(writeFile(m_persona + QStringLiteral("/SOUL.md"), "You are calm.\n"));
    QVERIFY(QDir().mkpath(QFileInfo(path()).absolutePath()));
    QVERIFY(writeFile(path(), Disk));
}

void tst_SetupFileSlot::cleanup()
{
    if (m_session) {
        // Nothing left to ask about: the copies this run kept go.
        m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Discard;
        m_session->documents()->close();
    }
    m_session.reset();
    m_settings.reset();
    m_dir.reset();
}

std::unique_ptr<PersonaSession> tst_SetupFileSlot::openSession()
{
    auto session = std::make_unique<PersonaSession>(&m_prompter, m_settings.get());
    const Runtime *withSetupFile = nullptr;
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes()) {
        if (runtime->setupFile() == Bootstrap)
            withSetupFile = runtime;
    }
    if (!withSetupFile)
        return nullptr;
    session->setRuntimeProfile(RuntimeProfile::of(withSetupFile));
    if (!session->documents()->open(m_persona))
        return nullptr;
    // A skill is a folder plus this one line; added while the folder is
    // open, it is read, watched and offered its recovered text at once.
    if (m_name == Skill && session->model()->addDocument(Skill) < SlotCount)
        return nullptr;
    if (session->model()->documentIndex(m_name) < SlotCount)
        return nullptr;
    return session;
}

void tst_SetupFileSlot::recoveryIsOfferedAndRestored()
{
    const QByteArray unsaved = "\xEF\xBB\xBF# First run\r\n\r\nAsk who they are, then wait.\r\n";
    const QByteArray digest = QCryptographicHash::hash(Disk, QCryptographicHash::Sha256).toHex();
    QVERIFY(RecoveryStore(m_persona).storeFile(m_name, unsaved, digest).ok());

    m_session = openSession();
    QVERIFY(m_session);
    QCOMPARE(m_session->documents()->recoveredFiles(), QStringList{m_name});
    QVERIFY(m_session->model()->hasRecovery(doc()));
    QVERIFY(!m_session->model()->recoveryPredatesDisk(doc()));
    // Offered, not applied: the pane shows the file, and nothing is unsaved.
    QCOMPARE(buffer(), Disk);
    QVERIFY(m_session->documents()->unsavedFiles().isEmpty());

    m_session->model()->restoreRecovery(doc());
    QVERIFY(!m_session->model()->hasRecovery(doc()));
    QCOMPARE(buffer(), unsaved);
    QCOMPARE(m_session->documents()->unsavedFiles(), QStringList{m_name});
    QCOMPARE(readFile(path()), Disk); // restored is not saved
    QVERIFY(m_session->documents()->saveAll());
    QCOMPARE(readFile(path()), unsaved);
    // Saved: the copy goes with the next keeping, as a slot's.
    m_session->model()->flushRecovery();
    QVERIFY(!RecoveryStore(m_persona).pendingFile(m_name));
}

void tst_SetupFileSlot::revertTakesTheDiskBytes()
{
    m_session = openSession();
    QVERIFY(m_session);
    QSignalSpy replaced(m_session->model(), &PersonaModel::bufferReplaced);
    m_session->model()->setBufferText(doc(), u"# First run\n\nSomething else.\n");
    QVERIFY(state().dirty);
    QVERIFY(m_session->documents()->revert(doc()));
    QVERIFY(m_prompter.askedDrop.isEmpty()); // the file is there: undoable, not asked
    QCOMPARE(replaced.count(), 1);
    QVERIFY(!state().dirty);
    QCOMPARE(buffer(), Disk);
    QCOMPARE(readFile(path()), Disk);
    // A save after more typing keeps the BOM and the line breaks.
    m_session->model()->setBufferText(doc(), u"# First run\n\nAsk who they are.\nThen listen.\n");
    QVERIFY(m_session->documents()->save(doc()));
    QCOMPARE(readFile(path()), Disk + "Then listen.\r\n");
}

void tst_SetupFileSlot::revertWithoutAFileAsksFirst()
{
    m_session = openSession();
    QVERIFY(m_session);
    m_session->model()->setBufferText(doc(), u"Mine.\n");
    QVERIFY(QFile::remove(path()));
    QTRY_COMPARE(state().conflict, ConflictState::DeletedOnDisk);
    // Kept: the text has no file to go back to.
    QVERIFY(!m_session->documents()->revert(doc()));
    QCOMPARE(m_prompter.askedDrop, QStringList{m_name});
    QVERIFY(state().dirty);
    QCOMPARE(buffer(), QByteArray("\xEF\xBB\xBFMine.\r\n"));
    m_prompter.dropAnswer = true;
    QVERIFY(m_session->documents()->revert(doc()));
    QVERIFY(!state().dirty);
    QVERIFY(!state().bufferPresent);
    QVERIFY(!QFile::exists(path()));
}

namespace {
enum class Settle { Reload, KeepMineAndSave, SaveCancelled, SaveOverwrite };
} // namespace

void tst_SetupFileSlot::changedOnDiskUnderUnsavedText_data()
{
    QTest::addColumn<int>("settle");
    QTest::newRow("reload") << int(Settle::Reload);
    QTest::newRow("keep mine, then save") << int(Settle::KeepMineAndSave);
    QTest::newRow("save, cancelled") << int(Settle::SaveCancelled);
    QTest::newRow("save, overwrite") << int(Settle::SaveOverwrite);
}

// The watcher reports the change; the unsaved text stays until the user
// settles it, and no byte is written that the user did not save.
void tst_SetupFileSlot::changedOnDiskUnderUnsavedText()
{
    QFETCH(int, settle);
    m_session = openSession();
    QVERIFY(m_session);
    m_session->model()->setBufferText(doc(), u"# First run\n\nMine.\n");
    const QByteArray mine = "\xEF\xBB\xBF# First run\r\n\r\nMine.\r\n";
    const QByteArray theirs = "# First run\n\nTheirs.\n";
    QVERIFY(writeFile(path(), theirs));
    QTRY_COMPARE(state().conflict, ConflictState::ChangedOnDisk);
    QCOMPARE(buffer(), mine);
    QCOMPARE(readFile(path()), theirs);

    switch (Settle(settle)) {
    case Settle::Reload:
        // The bar's Reload is the slots' Revert.
        QVERIFY(m_session->documents()->revert(doc()));
        QCOMPARE(buffer(), theirs);
        QVERIFY(!state().dirty);
        QCOMPARE(readFile(path()), theirs);
        break;
    case Settle::KeepMineAndSave:
        m_session->model()->keepMine(doc());
        QCOMPARE(state().conflict, ConflictState::None);
        QCOMPARE(readFile(path()), theirs); // keeping writes nothing
        QVERIFY(m_session->documents()->save(doc()));
        QVERIFY(m_prompter.askedStale.isEmpty());
        QCOMPARE(readFile(path()), mine);
        break;
    case Settle::SaveCancelled:
        m_prompter.staleAnswers = {Prompter::StaleAnswer::Cancel};
        QVERIFY(!m_session->documents()->save(doc()));
        QCOMPARE(m_prompter.askedStale, QStringList{m_name});
        QCOMPARE(readFile(path()), theirs);
        QCOMPARE(buffer(), mine);
        QCOMPARE(state().conflict, ConflictState::ChangedOnDisk);
        break;
    case Settle::SaveOverwrite:
        m_prompter.staleAnswers = {Prompter::StaleAnswer::Overwrite};
        QVERIFY(m_session->documents()->save(doc()));
        QCOMPARE(m_prompter.askedStale, QStringList{m_name});
        QCOMPARE(readFile(path()), mine);
        QVERIFY(!state().dirty);
        break;
    }
}

void tst_SetupFileSlot::staleSaveAsks_data()
{
    QTest::addColumn<bool>("deleted");
    QTest::addColumn<QList<Prompter::StaleAnswer>>("answers");
    QTest::addColumn<bool>("written");
    using A = Prompter::StaleAnswer;
    QTest::newRow("changed, cancel") << false << QList<A>{A::Cancel} << false;
    QTest::newRow("changed, compare, cancel") << false << QList<A>{A::Compare, A::Cancel} << false;
    QTest::newRow("changed, compare, overwrite")
        << false << QList<A>{A::Compare, A::Overwrite} << true;
    QTest::newRow("deleted, cancel") << true << QList<A>{A::Cancel} << false;
    QTest::newRow("deleted, overwrite") << true << QList<A>{A::Overwrite} << true;
}

// Saving over a change the watcher has not reported yet: the slots'
// question, Compare shows the file as it is now, and the pane shows the
// conflict when the save is cancelled.
void tst_SetupFileSlot::staleSaveAsks()
{
    QFETCH(bool, deleted);
    QFETCH(QList<Prompter::StaleAnswer>, answers);
    QFETCH(bool, written);
    m_session = openSession();
    QVERIFY(m_session);
    m_session->model()->setBufferText(doc(), u"# First run\n\nMine.\n");
    const QByteArray mine = "\xEF\xBB\xBF# First run\r\n\r\nMine.\r\n";
    const QByteArray theirs = "# First run\n\nTheirs, written a moment ago.\n";
    // No event is handled between the change and the save.
    if (deleted)
        QVERIFY(QFile::remove(path()));
    else
        QVERIFY(writeFile(path(), theirs));
    const int compares = int(answers.count(Prompter::StaleAnswer::Compare));
    m_prompter.staleAnswers = answers;

    QCOMPARE(m_session->documents()->save(doc()), written);
    QCOMPARE(m_prompter.askedStale, QStringList(answers.size(), m_name));
    QCOMPARE(m_prompter.staleReasons.first(),
             deleted ? StaleReason::DeletedOnDisk : StaleReason::ChangedOnDisk);
    QCOMPARE(m_prompter.compares.size(), compares);
    if (compares > 0)
        QVERIFY2(m_prompter.compares.first().contains(QStringLiteral("written a moment ago")),
                 qPrintable(m_prompter.compares.first()));
    if (written) {
        QCOMPARE(readFile(path()), mine);
        QVERIFY(!state().dirty);
        QCOMPARE(state().conflict, ConflictState::None);
        return;
    }
    QCOMPARE(QFile::exists(path()), !deleted);
    if (!deleted)
        QCOMPARE(readFile(path()), theirs);
    QCOMPARE(buffer(), mine);
    QCOMPARE(state().conflict,
             deleted ? ConflictState::DeletedOnDisk : ConflictState::ChangedOnDisk);
}

namespace {
enum class Change { Rewritten, Removed, DanglingLink, Directory, Fifo };

bool makeChange(const QString &path, Change change)
{
    if (change == Change::Rewritten)
        return writeFile(path, "Another program's text.\n");
    if (!QFile::remove(path))
        return false;
    switch (change) {
    case Change::Rewritten:
    case Change::Removed:
        return true;
    case Change::DanglingLink:
        return QFile::link(path + QStringLiteral(".gone"), path);
    case Change::Directory:
        return QDir().mkdir(path);
    case Change::Fifo:
        return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
    }
    return false;
}
} // namespace

void tst_SetupFileSlot::diskChangeMeetsTheSlotsRule_data()
{
    QTest::addColumn<int>("change");
    QTest::addColumn<StaleReason>("stale");
    QTest::addColumn<ConflictState>("conflict");
    QTest::newRow("rewritten") << int(Change::Rewritten) << StaleReason::ChangedOnDisk
                               << ConflictState::ChangedOnDisk;
    QTest::newRow("removed") << int(Change::Removed) << StaleReason::DeletedOnDisk
                             << ConflictState::DeletedOnDisk;
    QTest::newRow("dangling link")
        << int(Change::DanglingLink) << StaleReason::DeletedOnDisk << ConflictState::DeletedOnDisk;
    QTest::newRow("directory") << int(Change::Directory) << StaleReason::ChangedOnDisk
                               << ConflictState::NotReadableOnDisk;
    QTest::newRow("fifo") << int(Change::Fifo) << StaleReason::ChangedOnDisk
                          << ConflictState::NotReadableOnDisk;
}

// The same change on disk under unsaved text in SOUL.md and in the setup
// file: the same staleness before the watcher says so, the same conflict
// after, and nothing written.
void tst_SetupFileSlot::diskChangeMeetsTheSlotsRule()
{
    QFETCH(int, change);
    QFETCH(StaleReason, stale);
    QFETCH(ConflictState, conflict);
    m_session = openSession();
    QVERIFY(m_session);
    PersonaModel *model = m_session->model();
    const int soul = slotIndex(u"SOUL.md");
    model->setBufferText(soul, u"Mine.\n");
    m_session->model()->setBufferText(doc(), u"Mine.\n");
    const QString soulPath = m_persona + QStringLiteral("/SOUL.md");
    QVERIFY(makeChange(soulPath, Change(change)));
    QVERIFY(makeChange(path(), Change(change)));

    QCOMPARE(model->staleness(soul), stale);
    QCOMPARE(m_session->model()->staleness(doc()), stale);
    QTRY_COMPARE(model->slot(soul).conflict, conflict);
    QTRY_COMPARE(state().conflict, conflict);
    QCOMPARE(buffer(), QByteArray("\xEF\xBB\xBFMine.\r\n"));
    if (Change(change) == Change::Rewritten)
        QCOMPARE(readFile(path()), QByteArray("Another program's text.\n"));
    else
        QVERIFY(!QFileInfo(path()).isFile());
}

void tst_SetupFileSlot::closeAndExportNameIt()
{
    m_session = openSession();
    QVERIFY(m_session);
    DocumentController *documents = m_session->documents();
    m_session->model()->setBufferText(slotIndex(u"SOUL.md"), u"You are calm and brief.\n");
    m_session->model()->setBufferText(doc(), u"# First run\n\nMine.\n");
    const QByteArray mine = "\xEF\xBB\xBF# First run\r\n\r\nMine.\r\n";
    const QStringList both = {QStringLiteral("SOUL.md"), m_name};
    QCOMPARE(documents->unsavedFiles(), both);

    // Export asks about it too, and Cancel writes nothing.
    QVERIFY(!ExportController::settleUnsaved(documents, &m_prompter));
    QCOMPARE(m_prompter.askedExport, both);
    // Alone, it is still asked about.
    m_session->model()->revert(slotIndex(u"SOUL.md"));
    m_prompter.askedExport.clear();
    QVERIFY(!ExportController::settleUnsaved(documents, &m_prompter));
    QCOMPARE(m_prompter.askedExport, QStringList{m_name});
    m_session->model()->setBufferText(slotIndex(u"SOUL.md"), u"You are calm and brief.\n");

    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Cancel;
    QVERIFY(!documents->close());
    QCOMPARE(m_prompter.askedUnsaved, both);
    QVERIFY(m_session->model()->isOpen());
    QCOMPARE(buffer(), mine);
    QCOMPARE(readFile(path()), Disk);

    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::SaveAll;
    QVERIFY(documents->close());
    QVERIFY(!m_session->model()->isOpen());
    QCOMPARE(readFile(path()), mine);
    QCOMPARE(readFile(m_persona + QStringLiteral("/SOUL.md")),
             QByteArray("You are calm and brief.\n"));
}

void tst_SetupFileSlot::nothingToSaveIsExplained()
{
    m_session = openSession();
    QVERIFY(m_session);
    QSignalSpy status(m_session->documents(), &DocumentController::statusMessage);
    m_session->documents()->explainNothingToSave(doc());
    QCOMPARE(status.count(), 1);
    QCOMPARE(status.last().at(0).toString(),
             QStringLiteral("%1 has no unsaved changes.").arg(m_name));
}

// Invalid UTF-8 would not pass through the pane unchanged: as for a slot,
// typing is ignored and Save says why, so no byte the user did not edit is
// ever written.
void tst_SetupFileSlot::bytesAPaneCannotKeepAreNotEdited()
{
    const QByteArray odd = "# First run\n\nAsk \xff who they are.\n";
    QVERIFY(writeFile(path(), odd));
    m_session = openSession();
    QVERIFY(m_session);
    QVERIFY(!state().obstacles.isEmpty());
    m_session->model()->setBufferText(doc(), u"# First run\n\nAsk who they are.\n");
    QVERIFY(!state().dirty);
    QVERIFY(m_session->documents()->unsavedFiles().isEmpty());
    QSignalSpy status(m_session->documents(), &DocumentController::statusMessage);
    m_session->documents()->explainNothingToSave(doc());
    QCOMPARE(status.count(), 1);
    QVERIFY2(status.last().at(0).toString().startsWith(
                 QStringLiteral("%1 is read-only, so there is nothing to save: ").arg(m_name)),
             qPrintable(status.last().at(0).toString()));
    QVERIFY(m_session->documents()->saveAll());
    QCOMPARE(readFile(path()), odd);

    // Another program makes it plain text: the pane takes it and edits again.
    QVERIFY(writeFile(path(), Disk));
    QTRY_COMPARE(buffer(), Disk);
    QVERIFY(state().obstacles.isEmpty());
    m_session->model()->setBufferText(doc(), u"# First run\n\nAsk who they are.\nThen listen.\n");
    QVERIFY(state().dirty);
}

QTEST_GUILESS_MAIN(tst_SetupFileSlot)
void tst_SetupFileSlot::saveAllElsewhereTakesItsText()
{
    m_session = openSession();
    QVERIFY(m_session);
    m_session->model()->setBufferText(doc(), u"# First run\n\nAsk who they are, then wait.\n");
    const QByteArray unsaved = buffer();
    QCOMPARE(unsaved, "\xEF\xBB\xBF# First run\r\n\r\nAsk who they are, then wait.\r\n");
    // The folder goes away under the open persona.
    const QString moved = m_dir->filePath(QStringLiteral("moved"));
    QVERIFY(QDir().rename(m_persona, moved));
    const QString elsewhere = m_dir->filePath(QStringLiteral("elsewhere"));
    m_prompter.saveAllDirectory = elsewhere;
    QVERIFY(m_session->documents()->saveAllElsewhere());
    QCOMPARE(readFile(elsewhere + QStringLiteral("/SOUL.md")), QByteArray("You are calm.\n"));
    QCOMPARE(readFile(elsewhere + QLatin1Char('/') + m_name), unsaved);
    QVERIFY(!state().dirty);
    QCOMPARE(buffer(), unsaved);
    QCOMPARE(readFile(moved + QLatin1Char('/') + m_name), Disk); // the old one as it was
}

void tst_SetupFileSlot::saveAllElsewhereNeverOverwritesIt()
{
    m_session = openSession();
    QVERIFY(m_session);
    m_session->model()->setBufferText(doc(), u"Mine.\n");
    const QString elsewhere = m_dir->filePath(QStringLiteral("elsewhere"));
    QVERIFY(QDir().mkpath(QFileInfo(elsewhere + QLatin1Char('/') + m_name).absolutePath()));
    QVERIFY(writeFile(elsewhere + QLatin1Char('/') + m_name, "Theirs.\n"));
    m_prompter.saveAllDirectory = elsewhere;
    QVERIFY(!m_session->documents()->saveAllElsewhere());
    QCOMPARE(m_prompter.errors.size(), 1);
    QVERIFY(m_prompter.errors.first().contains(m_name));
    QCOMPARE(readFile(elsewhere + QLatin1Char('/') + m_name), QByteArray("Theirs.\n"));
    QVERIFY(!QFile::exists(elsewhere + QStringLiteral("/SOUL.md"))); // nothing written
    QVERIFY(state().dirty);                                          // and nothing lost
    QCOMPARE(m_session->model()->paneText(doc()), QStringLiteral("Mine.\n"));
}

#include "tst_setupfileslot.moc"
