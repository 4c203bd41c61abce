#include "../core/testfiles.h"
#include "disk/directorywatcher.h"
#include "disk/recoverystore.h"
#include "persona/personamodel.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <sys/stat.h>

using namespace soul;
using soul::test::readFile;
using soul::test::writeFile;

// Every file the editor opens is a document of one PersonaModel: a runtime's
// BOOTSTRAP.md and a skill's skills/NAME/SKILL.md, added by their path, go
// through the slots' code: recovery, the conflict when the disk changes
// under unsaved text, the stale save, a byte-exact Revert and bytes a pane
// cannot keep. Each test runs for both documents.
namespace {

// A BOM and CR LF line breaks, which no edit may lose.
const QByteArray Disk = "\xEF\xBB\xBF# First run\r\n\r\nAsk who they are.\r\n";
const QByteArray Mine = "\xEF\xBB\xBF# First run\r\n\r\nMine.\r\n";
const QByteArray Theirs = "# First run\n\nTheirs.\n";

QByteArray sha256Hex(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

} // namespace

class tst_DocumentModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void initTestCase_data();
    void init();
    void cleanup();

    void addedDocumentIsNumberedAfterTheSlots();
    void pathsOutsideTheFolderAreRefused();
    void recoveryIsKeptOfferedAndRestored();
    void aCopyKeptByNameIsStillOffered();
    void changedOnDiskUnderUnsavedTextIsAConflict();
    void staleSaveWritesNothingUntilOverwrite();
    void revertIsByteExact();
    void bytesAPaneCannotKeepAreReadOnly();
    void aFifoIsNeverOpened();
    void deletedFileIsRestoredByteForByte();
    void saveAllToTakesItAndNeverOverwrites();

private:
    // A model on the folder with the document under test added; `before`
    // adds it before the folder opens, else after.
    std::unique_ptr<PersonaModel> openModel(bool before = true);
    QString path() const { return QDir(m_persona).filePath(m_name); }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_persona;
    QString m_name;
    int m_doc = -1;
};

void tst_DocumentModel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_DocumentModel::initTestCase_data()
{
    QTest::addColumn<QString>("document");
    QTest::newRow("setup file") << QStringLiteral("BOOTSTRAP.md");
    QTest::newRow("skill") << QStringLiteral("skills/demo/SKILL.md");
}

void tst_DocumentModel::init()
{
    QFETCH_GLOBAL(QString, document);
    m_name = document;
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_persona = QFileInfo(m_dir->filePath(QStringLiteral("work"))).absoluteFilePath();
    QVERIFY(QDir().mkpath(QFileInfo(path()).absolutePath()));
    QVERIFY(writeFile(m_persona + QStringLiteral("/SOUL.md"), "You are calm.\n"));
    QVERIFY(writeFile(path(), Disk));
    QVERIFY(RecoveryStore(m_persona).clear().ok());
}

void tst_DocumentModel::cleanup()
{
    if (m_dir)
        RecoveryStore(m_persona).clear();
    m_dir.reset();
}

std::unique_ptr<PersonaModel> tst_DocumentModel::openModel(bool before)
{
    auto model = std::make_unique<PersonaModel>();
    model->setRecoveryInterval(0);
    model->watcher()->setSettleInterval(10);
    if (before)
        m_doc = model->addDocument(m_name);
    if (!model->open(m_persona).ok())
        return nullptr;
    if (!before)
        m_doc = model->addDocument(m_name);
    return model;
}

void tst_DocumentModel::addedDocumentIsNumberedAfterTheSlots()
{
    const std::unique_ptr<PersonaModel> model = openModel(false);
    QVERIFY(model);
    QCOMPARE(m_doc, SlotCount);
    QCOMPARE(model->documentCount(), SlotCount + 1);
    QCOMPARE(model->addDocument(m_name), m_doc); // the same path, the same document
    QCOMPARE(model->documentIndex(m_name), m_doc);
    QCOMPARE(model->slotLabel(m_doc), m_name);
    QCOMPARE(model->slotFilePath(m_doc), path());
    QVERIFY(model->isDocumentOpen(m_doc));
    QCOMPARE(model->slot(m_doc).bufferBytes, Disk);
    QCOMPARE(model->paneText(m_doc), QStringLiteral("# First run\n\nAsk who they are.\n"));

    // Typing makes it unsaved, as a slot; it never enters the soul.
    QSignalSpy sections(model.get(), &PersonaModel::sectionChanged);
    QSignalSpy states(model.get(), &PersonaModel::slotStateChanged);
    const QByteArray soul = model->soul(SoulView::Unsaved);
    model->setBufferText(m_doc, u"# First run\n\nMine.\n");
    QCOMPARE(model->slot(m_doc).bufferBytes, Mine);
    QVERIFY(model->hasUnsaved());
    QCOMPARE(model->unsavedDocuments(), QList<int>{m_doc});
    QVERIFY(model->unsavedSlots().isEmpty());
    QCOMPARE(states.count(), 1);
    QCOMPARE(states.first().at(0).toInt(), m_doc);
    QCOMPARE(sections.count(), 0);
    QCOMPARE(model->soul(SoulView::Unsaved), soul);
    QVERIFY(!model->found(SoulView::Unsaved).contains(m_name));
    QVERIFY(!model->section(m_doc, SoulView::Unsaved));

    // Saved, its own folder and nothing else.
    QVERIFY(model->save(m_doc).ok());
    QCOMPARE(readFile(path()), Mine);
    QVERIFY(!model->hasUnsaved());

    // Closed and opened again, it is read again under the same number.
    model->close();
    QVERIFY(!model->isDocumentOpen(m_doc));
    QVERIFY(model->open(m_persona).ok());
    QCOMPARE(model->documentIndex(m_name), m_doc);
    QCOMPARE(model->slot(m_doc).bufferBytes, Mine);
}

void tst_DocumentModel::pathsOutsideTheFolderAreRefused()
{
    PersonaModel model;
    QCOMPARE(model.addDocument(QString()), -1);
    QCOMPARE(model.addDocument(QStringLiteral("/etc/passwd")), -1);
    QCOMPARE(model.addDocument(QStringLiteral("../other/BOOTSTRAP.md")), -1);
    QCOMPARE(model.addDocument(QStringLiteral("skills/../../x.md")), -1);
    QCOMPARE(model.addDocument(QStringLiteral("SOUL.md")), -1); // a slot already
    QCOMPARE(model.documentCount(), SlotCount);
    // And the recovery store never names a file outside the folder.
    QVERIFY(!RecoveryStore(m_persona).storeFile(QStringLiteral("../x.md"), "x", {}).ok());
}

void tst_DocumentModel::recoveryIsKeptOfferedAndRestored()
{
    {
        const std::unique_ptr<PersonaModel> model = openModel();
        QVERIFY(model);
        model->setBufferText(m_doc, u"# First run\n\nMine.\n");
        model->flushRecovery();
        // Ending without close() is a crash: the copy stays, under the path.
        const std::optional<RecoveredSlot> kept = RecoveryStore(m_persona).pendingFile(m_name);
        QVERIFY(kept);
        QCOMPARE(kept->bytes, Mine);
    }
    QCOMPARE(readFile(path()), Disk);

    // Added after the folder opened, the document is offered its copy too.
    const std::unique_ptr<PersonaModel> model = openModel(false);
    QVERIFY(model);
    QVERIFY(model->hasRecovery(m_doc));
    QVERIFY(!model->recoveryPredatesDisk(m_doc));
    QCOMPARE(model->recovery(m_doc)->bytes, Mine);
    // Offered, not applied; typing waits for the answer.
    QCOMPARE(model->slot(m_doc).bufferBytes, Disk);
    model->setBufferText(m_doc, u"Typed meanwhile.\n");
    QVERIFY(!model->slot(m_doc).dirty);
    QVERIFY(!model->replaceBuffer(m_doc, "x").ok());

    QSignalSpy replaced(model.get(), &PersonaModel::bufferReplaced);
    model->restoreRecovery(m_doc);
    QCOMPARE(replaced.count(), 1);
    QVERIFY(!model->hasRecovery(m_doc));
    QCOMPARE(model->slot(m_doc).bufferBytes, Mine); // byte for byte: BOM and CR LF
    QVERIFY(model->slot(m_doc).dirty);
    QCOMPARE(readFile(path()), Disk); // restored is not saved
    QVERIFY(model->save(m_doc).ok());
    QCOMPARE(readFile(path()), Mine);
    // Saved: the copy goes without waiting for the pause.
    QTRY_VERIFY(!RecoveryStore(m_persona).pendingFile(m_name));
}

// A copy kept by name before documents were numbered (BOOTSTRAP.md's, by
// RecoveryStore::storeFile()) is the document's: still offered. The file
// changed since it was kept: the offer says so.
void tst_DocumentModel::aCopyKeptByNameIsStillOffered()
{
    QVERIFY(RecoveryStore(m_persona).storeFile(m_name, Mine, sha256Hex(Theirs)).ok());
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    QVERIFY(model->hasRecovery(m_doc));
    QCOMPARE(model->recovery(m_doc)->bytes, Mine);
    QVERIFY(model->recoveryPredatesDisk(m_doc));
    // Discarded, it goes from the store.
    model->discardRecovery(m_doc);
    QVERIFY(!model->hasRecovery(m_doc));
    QVERIFY(!RecoveryStore(m_persona).pendingFile(m_name));
    QCOMPARE(model->slot(m_doc).bufferBytes, Disk);
}

void tst_DocumentModel::changedOnDiskUnderUnsavedTextIsAConflict()
{
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    QSignalSpy states(model.get(), &PersonaModel::slotStateChanged);
    model->setBufferText(m_doc, u"# First run\n\nMine.\n");
    QVERIFY(writeFile(path(), Theirs));
    QTRY_COMPARE(model->slot(m_doc).conflict, ConflictState::ChangedOnDisk);
    // The text stays; the disk bytes are there for Compare.
    QCOMPARE(model->slot(m_doc).bufferBytes, Mine);
    QCOMPARE(model->slot(m_doc).diskBytes, Theirs);
    QVERIFY(model->slot(m_doc).dirty);
    QCOMPARE(model->staleness(m_doc), StaleReason::ChangedOnDisk);
    QCOMPARE(readFile(path()), Theirs);

    // Keep mine: the file as it is now may be replaced without asking.
    model->keepMine(m_doc);
    QCOMPARE(model->slot(m_doc).conflict, ConflictState::None);
    QCOMPARE(model->staleness(m_doc), StaleReason::None);
    QVERIFY(model->save(m_doc).ok());
    QCOMPARE(readFile(path()), Mine);

    // Deleted under unsaved text: kept, and said so.
    model->setBufferText(m_doc, u"# First run\n\nMine again.\n");
    QVERIFY(QFile::remove(path()));
    QTRY_COMPARE(model->slot(m_doc).conflict, ConflictState::DeletedOnDisk);
    QVERIFY(model->slot(m_doc).dirty);

    // A clean document follows the disk silently.
    model->revert(m_doc);
    QVERIFY(!model->slot(m_doc).bufferPresent);
    QVERIFY(writeFile(path(), Theirs));
    QTRY_COMPARE(model->slot(m_doc).bufferBytes, Theirs);
    QVERIFY(!model->slot(m_doc).dirty);
    QCOMPARE(model->slot(m_doc).conflict, ConflictState::None);
}

void tst_DocumentModel::staleSaveWritesNothingUntilOverwrite()
{
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    model->setBufferText(m_doc, u"# First run\n\nMine.\n");
    // No event is handled between the change and the save.
    QVERIFY(writeFile(path(), Theirs));
    const SaveResult stale = model->save(m_doc);
    QVERIFY(!stale.ok());
    QVERIFY(stale.isStale());
    QCOMPARE(stale.staleReason(), StaleReason::ChangedOnDisk);
    QVERIFY2(stale.error().contains(QDir::toNativeSeparators(path())), qPrintable(stale.error()));
    QCOMPARE(readFile(path()), Theirs);
    // The conflict shows at once, with the bytes Compare shows.
    QCOMPARE(model->slot(m_doc).conflict, ConflictState::ChangedOnDisk);
    QCOMPARE(model->slot(m_doc).diskBytes, Theirs);

    QVERIFY(model->save(m_doc, SaveMode::Overwrite).ok());
    QCOMPARE(readFile(path()), Mine);
    QVERIFY(!model->slot(m_doc).dirty);
}

void tst_DocumentModel::revertIsByteExact()
{
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    model->setBufferText(m_doc, u"Something else entirely.\n");
    QVERIFY(model->slot(m_doc).dirty);
    QSignalSpy replaced(model.get(), &PersonaModel::bufferReplaced);
    model->revert(m_doc);
    QCOMPARE(replaced.count(), 1);
    QVERIFY(!model->slot(m_doc).dirty);
    QCOMPARE(model->slot(m_doc).bufferBytes, Disk);
    QCOMPARE(readFile(path()), Disk);
    // Typing after it keeps the BOM and the CR LF.
    model->setBufferText(m_doc, u"# First run\n\nAsk who they are.\nThen listen.\n");
    QVERIFY(model->save(m_doc).ok());
    QCOMPARE(readFile(path()), Disk + "Then listen.\r\n");
}

void tst_DocumentModel::bytesAPaneCannotKeepAreReadOnly()
{
    const QByteArray odd = "# First run\n\nAsk \xff who they are.\n";
    QVERIFY(writeFile(path(), odd));
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    const SlotState &state = model->slot(m_doc);
    QVERIFY(state.readOnly);
    QVERIFY(state.canEditAnyway);
    QVERIFY(!state.obstacles.isEmpty());
    QVERIFY(!state.readOnlyReason.isEmpty());
    // Typing is ignored, so no byte the user did not edit is written.
    model->setBufferText(m_doc, u"# First run\n\nAsk who they are.\n");
    QVERIFY(!model->slot(m_doc).dirty);
    QVERIFY(model->saveAll().ok());
    QCOMPARE(readFile(path()), odd);

    // Edit anyway: it takes edits, and says which bytes a save changes.
    model->editAnyway(m_doc);
    QVERIFY(!model->slot(m_doc).readOnly);
    QVERIFY(model->slot(m_doc).editingAnyway());
    model->setBufferText(m_doc, u"# First run\n\nAsk who they are.\n");
    QVERIFY(model->slot(m_doc).dirty);
    QVERIFY(model->save(m_doc).ok());
    QCOMPARE(readFile(path()), QByteArray("# First run\n\nAsk who they are.\n"));
    QVERIFY(model->slot(m_doc).obstacles.isEmpty());
}

void tst_DocumentModel::aFifoIsNeverOpened()
{
    QVERIFY(QFile::remove(path()));
    QCOMPARE(::mkfifo(QFile::encodeName(path()).constData(), 0600), 0);
    // Opening a FIFO for reading would wait for a writer: this returns.
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    const SlotState &state = model->slot(m_doc);
    QVERIFY(!state.diskPresent());
    QVERIFY(!state.bufferPresent);
    QCOMPARE(state.presence, SlotPresence::NotRegularFile);
    QVERIFY(!state.absenceReason.isEmpty());
}

void tst_DocumentModel::deletedFileIsRestoredByteForByte()
{
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    model->setBufferText(m_doc, u"Unsaved.\n");
    QVERIFY(!model->deleteFile(m_doc).ok()); // never with unsaved text
    QVERIFY(QFile::exists(path()));
    model->revert(m_doc);
    QVERIFY(!model->deleteFile(slotIndex(u"SOUL.md")).ok()); // never a slot
    QVERIFY(model->deleteFile(m_doc).ok());
    QVERIFY(!QFile::exists(path()));
    QVERIFY(!model->slot(m_doc).bufferPresent);
    QVERIFY(!model->hasUnsaved());
    QCOMPARE(model->deletedBytes(m_doc).value_or(QByteArray()), Disk);

    QVERIFY(model->restoreDeleted(m_doc).ok());
    QCOMPARE(readFile(path()), Disk);
    QCOMPARE(model->slot(m_doc).bufferBytes, Disk);
    QVERIFY(!model->deletedBytes(m_doc));
    // Nothing to restore twice, and never over a file that is there.
    QVERIFY(!model->restoreDeleted(m_doc).ok());
    QVERIFY(model->deleteFile(m_doc).ok());
    QVERIFY(writeFile(path(), Theirs));
    QVERIFY(!model->restoreDeleted(m_doc).ok());
    QCOMPARE(readFile(path()), Theirs);
}

void tst_DocumentModel::saveAllToTakesItAndNeverOverwrites()
{
    const std::unique_ptr<PersonaModel> model = openModel();
    QVERIFY(model);
    model->setBufferText(m_doc, u"# First run\n\nMine.\n");
    const QString taken = m_dir->filePath(QStringLiteral("taken"));
    const QString theirs = QDir(taken).filePath(m_name);
    QVERIFY(QDir().mkpath(QFileInfo(theirs).absolutePath()));
    QVERIFY(writeFile(theirs, Theirs));
    const Status refused = model->saveAllTo(taken);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().contains(m_name), qPrintable(refused.error()));
    QCOMPARE(readFile(theirs), Theirs);
    QVERIFY(!QFile::exists(QDir(taken).filePath(QStringLiteral("SOUL.md"))));
    QCOMPARE(model->slot(m_doc).bufferBytes, Mine);

    const QString elsewhere = m_dir->filePath(QStringLiteral("elsewhere"));
    QVERIFY(model->saveAllTo(elsewhere).ok());
    QCOMPARE(readFile(QDir(elsewhere).filePath(m_name)), Mine);
    QCOMPARE(readFile(QDir(elsewhere).filePath(QStringLiteral("SOUL.md"))),
             QByteArray("You are calm.\n"));
    QCOMPARE(model->directory(), QFileInfo(elsewhere).absoluteFilePath());
    QVERIFY(!model->slot(m_doc).dirty);
    QCOMPARE(readFile(path()), Disk); // the old one as it was
}

QTEST_GUILESS_MAIN(tst_DocumentModel)
#include "tst_documentmodel.moc"
