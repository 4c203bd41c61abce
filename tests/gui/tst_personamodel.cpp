#include "compose/composer.h"
#include "disk/composedirectory.h"
#include "disk/recoverystore.h"
#include "guitestfiles.h"
#include "persona/editortext.h"
#include "persona/personamodel.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace soul;
using namespace soul::guitest;

class tst_PersonaModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void openMatchesComposeDirectory();
    void typingMarksDirtyAndRecomposesOneSection();
    void saveKeepsEveryOtherByte_data();
    void saveKeepsEveryOtherByte();
    void cleanSlotFollowsDisk();
    void diskChangeIsReadOnce();
    void heldReadsShareTheDiskBytes();
    void dirtySlotKeepsEditsAndRaisesConflict();
    void deletedWhileDirtyCanBeSavedAgain();
    void staleSaveBeforeTheWatcherKnows();
    void staleSaveWhileTheBarShows();
    void createdOnDiskMeanwhileIsStale();
    void fileAlreadyHoldingTheBufferIsNotStale();
    void saveKeepsHardLinks();
    void ownSaveIsNotAChange();
    void failedSaveKeepsBuffer();
    void saveAllToWritesEveryBufferAndOpensIt();
    void fifoSlotDoesNotBlock();
    void obstaclesOpenReadOnly();
    void hugeSlotIsNotReadWhole();
    void createSlotIsUnsavedUntilSaved();
    void dirtyBufferReachesRecoveryAfterTheTimer();
    void savedSlotLosesItsCopyAtOnce();
    void failedCopyIsSaidAndWrittenLater();
    void cleanCloseClearsRecovery();
    void reopenOffersRecoveryWithoutApplyingIt();
    void restoreRecoveryMakesTheBufferDirty();
    void discardRecoveryForgetsIt();
    void recoveryEqualToDiskIsDropped();
    void recoveryKnowsTheFileChangedSince();
    void secondModelOnTheFolderKeepsNoCopies();
    void revertIsUndoneByTyping();
    void renameCaseVariantNeverReplaces();
    void editAnywayKeepsTheObstaclesUntilSaved();

private:
    // Every file under the persona folder with its bytes: recovery must not
    // change one of them.
    QMap<QString, QByteArray> personaFiles() const;
    QString path(int slot) const { return slotPath(m_dir->path(), slot); }
    void write(int slot, const QByteArray &bytes) { QVERIFY(writeInPlace(path(slot), bytes)); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_PersonaModel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_PersonaModel::init()
{
    // Test mode puts the recovery root under ~/.qttest, away from the user's.
    QVERIFY(QDir(RecoveryStore::rootPath()).removeRecursively());
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

QMap<QString, QByteArray> tst_PersonaModel::personaFiles() const
{
    return treeContents(m_dir->path());
}

void tst_PersonaModel::openMatchesComposeDirectory()
{
    write(1, "You are Kip.\r\n");
    write(6, "- prefers metric units");
    QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("TOOLS.md")));
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    const Composition expected = composeDirectory(m_dir->path());
    QCOMPARE(model.soul(SoulView::OnDisk), expected.soul);
    QCOMPARE(model.soul(SoulView::Unsaved), expected.soul);
    QCOMPARE(model.found(SoulView::OnDisk), expected.found);
    QCOMPARE(model.soulSize(SoulView::OnDisk), qint64(expected.soul.size()));
    QCOMPARE(model.slot(4).presence, SlotPresence::Directory);
    QVERIFY(!model.slot(4).absenceReason.isEmpty());
    QVERIFY(!model.hasUnsaved());
}

void tst_PersonaModel::typingMarksDirtyAndRecomposesOneSection()
{
    write(0, "Rules.\n");
    write(1, "You are Kip.\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QSignalSpy sections(&model, &PersonaModel::sectionChanged);
    model.setBufferText(1, u"You are Ava.\n");
    QCOMPARE(sections.count(), 1);
    QCOMPARE(sections.first().first().toInt(), 1);
    QVERIFY(model.slot(1).dirty);
    QCOMPARE(model.unsavedSlots(), QList<int>{1});
    QCOMPARE(*model.section(1, SoulView::Unsaved), QByteArray("## SOUL.md\n\nYou are Ava."));
    QCOMPARE(*model.section(1, SoulView::OnDisk), QByteArray("## SOUL.md\n\nYou are Kip."));
    SlotBuffers buffers;
    buffers[0] = QByteArray("Rules.\n");
    buffers[1] = QByteArray("You are Ava.\n");
    QCOMPARE(model.soul(SoulView::Unsaved), compose(buffers).soul);
    // Typing back to what is on disk is clean again.
    model.setBufferText(1, u"You are Kip.\n");
    QVERIFY(!model.slot(1).dirty);
}

void tst_PersonaModel::saveKeepsEveryOtherByte_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("crlf") << QByteArray("one word\r\ntwo\r\n") << QByteArray("one WORD\r\ntwo\r\n");
    QTest::newRow("bom") << QByteArray("\xef\xbb\xbfone word\n")
                         << QByteArray("\xef\xbb\xbfone WORD\n");
    QTest::newRow("nbsp") << QByteArray("one\xc2\xa0word\n") << QByteArray("one\xc2\xa0WORD\n");
    QTest::newRow("no final newline") << QByteArray("one word") << QByteArray("one WORD");
    QTest::newRow("all") << QByteArray("\xef\xbb\xbf"
                                       "a\xc2\xa0word\r\nb")
                         << QByteArray("\xef\xbb\xbf"
                                       "a\xc2\xa0WORD\r\nb");
}

void tst_PersonaModel::saveKeepsEveryOtherByte()
{
    QFETCH(QByteArray, original);
    QFETCH(QByteArray, expected);
    write(1, original);
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(!model.slot(1).readOnly);
    QString text = model.paneText(1);
    text.replace(QStringLiteral("word"), QStringLiteral("WORD"));
    model.setBufferText(1, text);
    QVERIFY(model.slot(1).dirty);
    QVERIFY(model.save(1).ok());
    QCOMPARE(readAll(path(1)), expected);
    QVERIFY(!model.slot(1).dirty);
}

void tst_PersonaModel::cleanSlotFollowsDisk()
{
    write(1, "before\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QSignalSpy replaced(&model, &PersonaModel::bufferReplaced);
    QSignalSpy sections(&model, &PersonaModel::sectionChanged);

    write(1, "after, in place\n");
    QTRY_COMPARE(model.slot(1).bufferBytes, QByteArray("after, in place\n"));
    QVERIFY(!model.slot(1).dirty);
    QVERIFY(replaced.count() >= 1);
    QCOMPARE(*model.section(1, SoulView::Unsaved), QByteArray("## SOUL.md\n\nafter, in place"));

    QVERIFY(writeAtomically(path(1), "after, atomically\n"));
    QTRY_COMPARE(model.slot(1).bufferBytes, QByteArray("after, atomically\n"));

    QVERIFY(QFile::remove(path(1)));
    QTRY_VERIFY(!model.slot(1).bufferPresent);
    QVERIFY(!model.section(1, SoulView::Unsaved));

    write(1, "back again\n");
    QTRY_COMPARE(model.slot(1).bufferBytes, QByteArray("back again\n"));
    QVERIFY(model.slot(1).bufferPresent);

    write(3, "a new slot\n");
    QTRY_VERIFY(model.section(3, SoulView::Unsaved).has_value());
    QVERIFY(sections.count() >= 5);
}

// What the model read is handed out shared, digest and all, for a snapshot
// that need not read the files again.
void tst_PersonaModel::heldReadsShareTheDiskBytes()
{
    write(1, "You are Kip.\n");
    write(4, "Tools.\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setBufferText(1, u"Unsaved.");
    const HeldReads held = model.heldReads();
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotState &state = model.slot(slot);
        QCOMPARE(held[size_t(slot)].has_value(), state.diskPresent());
        if (!held[size_t(slot)])
            continue;
        QCOMPARE(held[size_t(slot)]->bytes.constData(), state.diskBytes.constData());
        QCOMPARE(held[size_t(slot)]->sha256, state.diskSha256);
        QCOMPARE(held[size_t(slot)]->size, state.diskSize);
        QVERIFY(held[size_t(slot)]->complete);
    }
    // The disk's bytes, not the unsaved buffer's.
    QCOMPARE(held[1]->bytes, QByteArray("You are Kip.\n"));
}

void tst_PersonaModel::diskChangeIsReadOnce()
{
    // The watcher reads a changed file to know it changed; the model takes
    // that read instead of reading and hashing the file a second time.
    constexpr qsizetype size = 3 * 1024 * 1024;
    write(6, QByteArray(size, 'a'));
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());

    QByteArray changed(size, 'b');
    changed.append("\nlast line\n");
    const qint64 before = test::bytesReadSoFar();
    if (before < 0)
        QSKIP("this system does not say how many bytes a process has read");
    QVERIFY(writeAtomically(path(6), changed));
    const QByteArray digest = QCryptographicHash::hash(changed, QCryptographicHash::Sha256).toHex();
    QTRY_COMPARE(model.slot(6).diskSha256, digest);
    const qint64 read = test::bytesReadSoFar() - before;
    QCOMPARE(model.slot(6).diskBytes, changed);
    QVERIFY(model.slot(6).diskComplete);
    QCOMPARE(model.slot(6).bufferBytes, changed);
    QCOMPARE(model.soul(SoulView::OnDisk), composeDirectory(m_dir->path()).soul);
    // Once: a second read and digest would make it twice the file.
    QVERIFY2(read >= changed.size() && read < changed.size() + changed.size() / 2,
             qPrintable(
                 QStringLiteral("read %1 bytes of a %2-byte file").arg(read).arg(changed.size())));
}

void tst_PersonaModel::dirtySlotKeepsEditsAndRaisesConflict()
{
    write(1, "disk\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setBufferText(1, u"mine\n");
    write(1, "theirs\n");
    QTRY_COMPARE(model.slot(1).conflict, ConflictState::ChangedOnDisk);
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("mine\n"));
    QVERIFY(model.slot(1).dirty);
    QCOMPARE(*model.section(1, SoulView::OnDisk), QByteArray("## SOUL.md\n\ntheirs"));
    QCOMPARE(*model.section(1, SoulView::Unsaved), QByteArray("## SOUL.md\n\nmine"));

    model.keepMine(1);
    QCOMPARE(model.slot(1).conflict, ConflictState::None);
    QVERIFY(model.slot(1).dirty);

    write(1, "theirs again\n");
    QTRY_COMPARE(model.slot(1).conflict, ConflictState::ChangedOnDisk);
    model.revert(1); // Reload: drop my edits
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("theirs again\n"));
    QVERIFY(!model.slot(1).dirty);
    QCOMPARE(model.paneText(1), QStringLiteral("theirs again\n"));
}

void tst_PersonaModel::deletedWhileDirtyCanBeSavedAgain()
{
    write(2, "name\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setBufferText(2, u"new name\n");
    QVERIFY(QFile::remove(path(2)));
    QTRY_COMPARE(model.slot(2).conflict, ConflictState::DeletedOnDisk);
    QVERIFY(model.slot(2).bufferPresent);
    QVERIFY(!model.section(2, SoulView::OnDisk));
    QVERIFY(model.section(2, SoulView::Unsaved));
    // Saving would create the file again: asked first, nothing written.
    const SaveResult asked = model.save(2);
    QVERIFY(asked.isStale());
    QCOMPARE(asked.staleReason(), StaleReason::DeletedOnDisk);
    QVERIFY2(asked.error().contains(QDir::toNativeSeparators(path(2))), qPrintable(asked.error()));
    QVERIFY(!QFileInfo::exists(path(2)));
    QVERIFY(model.slot(2).dirty);
    QVERIFY(model.save(2, SaveMode::Overwrite).ok());
    QCOMPARE(readAll(path(2)), QByteArray("new name\n"));
    QCOMPARE(model.slot(2).conflict, ConflictState::None);
}

// The file changed and the watcher has not said so yet (no event loop ran):
// the save compares digests, writes nothing, and shows the conflict.
void tst_PersonaModel::staleSaveBeforeTheWatcherKnows()
{
    write(1, "disk\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setBufferText(1, u"mine\n");
    write(1, "theirs\n");
    const SaveResult result = model.save(1);
    QVERIFY(!result.ok());
    QCOMPARE(result.staleReason(), StaleReason::ChangedOnDisk);
    QVERIFY2(result.error().contains(QDir::toNativeSeparators(path(1))), qPrintable(result.error()));
    QCOMPARE(readAll(path(1)), QByteArray("theirs\n"));
    QVERIFY(model.slot(1).dirty);
    QCOMPARE(model.slot(1).conflict, ConflictState::ChangedOnDisk);
    QCOMPARE(model.slot(1).diskBytes, QByteArray("theirs\n"));
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("mine\n"));

    QVERIFY(model.save(1, SaveMode::Overwrite).ok());
    QCOMPARE(readAll(path(1)), QByteArray("mine\n"));
    QVERIFY(!model.slot(1).dirty);
}

// While the bar shows, a save asks; "Keep mine" makes the file as it is now
// the one a save may replace.
void tst_PersonaModel::staleSaveWhileTheBarShows()
{
    write(3, "disk\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setBufferText(3, u"mine\n");
    write(3, "theirs\n");
    QTRY_COMPARE(model.slot(3).conflict, ConflictState::ChangedOnDisk);
    QCOMPARE(model.staleness(3), StaleReason::ChangedOnDisk);
    QVERIFY(model.save(3).isStale());
    QVERIFY(model.saveAll().isStale());
    QCOMPARE(readAll(path(3)), QByteArray("theirs\n"));
    QVERIFY(model.slot(3).dirty);

    model.keepMine(3);
    QCOMPARE(model.staleness(3), StaleReason::None);
    QVERIFY(model.save(3).ok());
    QCOMPARE(readAll(path(3)), QByteArray("mine\n"));
}

void tst_PersonaModel::createdOnDiskMeanwhileIsStale()
{
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.createSlot(4, "from the template\n");
    write(4, "made elsewhere\n");
    const SaveResult result = model.save(4);
    QCOMPARE(result.staleReason(), StaleReason::CreatedOnDisk);
    QCOMPARE(readAll(path(4)), QByteArray("made elsewhere\n"));
    QVERIFY(model.slot(4).dirty);
}

// A change that makes the file equal to the buffer is no conflict: nothing
// is left to save.
void tst_PersonaModel::fileAlreadyHoldingTheBufferIsNotStale()
{
    write(5, "disk\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setBufferText(5, u"same\n");
    write(5, "same\n");
    QVERIFY(model.save(5).ok());
    QVERIFY(!model.slot(5).dirty);
    QCOMPARE(readAll(path(5)), QByteArray("same\n"));
}

// A slot with a second hard link keeps it: both names show the saved text.
void tst_PersonaModel::saveKeepsHardLinks()
{
    write(1, "old\n");
    const QString other = m_dir->filePath(QStringLiteral("elsewhere.md"));
    QCOMPARE(::link(QFile::encodeName(path(1)).constData(), QFile::encodeName(other).constData()),
             0);
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setBufferText(1, u"new\n");
    QVERIFY(model.save(1).ok());
    struct stat info
    {};
    QCOMPARE(::stat(QFile::encodeName(path(1)).constData(), &info), 0);
    QCOMPARE(int(info.st_nlink), 2);
    QCOMPARE(readAll(path(1)), QByteArray("new\n"));
    QCOMPARE(readAll(other), QByteArray("new\n"));
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
}

void tst_PersonaModel::ownSaveIsNotAChange()
{
    write(1, "disk\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QSignalSpy replaced(&model, &PersonaModel::bufferReplaced);
    model.setBufferText(1, u"saved by us\n");
    QVERIFY(model.save(1).ok());
    // A later real change proves the watcher ran; our save must not have
    // come back before it as a change of its own.
    write(3, "other\n");
    QTRY_VERIFY(model.section(3, SoulView::OnDisk).has_value());
    QCOMPARE(replaced.count(), 1); // slot 3 only
    QCOMPARE(replaced.first().first().toInt(), 3);
    QVERIFY(!model.slot(1).dirty);
    QCOMPARE(model.slot(1).conflict, ConflictState::None);
}

void tst_PersonaModel::failedSaveKeepsBuffer()
{
    const QString dir = m_dir->path() + QStringLiteral("/persona");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeInPlace(slotPath(dir, 1), "disk\n"));
    PersonaModel model;
    QVERIFY(model.open(dir).ok());
    model.setBufferText(1, u"precious edits\n");
    // The folder goes away (renamed): the save cannot land, and says so.
    QVERIFY(QDir().rename(dir, m_dir->path() + QStringLiteral("/moved")));
    const Status saved = model.save(1);
    QVERIFY(!saved.ok());
    QVERIFY(saved.error().contains(QStringLiteral("SOUL.md")));
    QVERIFY(model.slot(1).dirty);
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("precious edits\n"));
    QTRY_VERIFY(model.directoryLost());
    QVERIFY(model.slot(1).bufferPresent);
}

void tst_PersonaModel::saveAllToWritesEveryBufferAndOpensIt()
{
    const QString dir = m_dir->path() + QStringLiteral("/persona");
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeInPlace(slotPath(dir, 0), "rules\r\n"));
    QVERIFY(writeInPlace(slotPath(dir, 1), "disk\n"));
    PersonaModel model;
    QVERIFY(model.open(dir).ok());
    model.setBufferText(1, u"precious edits\n");
    model.createSlot(3, "# new\n");
    QVERIFY(QDir().rename(dir, m_dir->path() + QStringLiteral("/moved")));
    QTRY_VERIFY(model.directoryLost());
    const Status lostSave = model.save(1);
    QVERIFY(!lostSave.ok());
    QVERIFY(lostSave.error().contains(QStringLiteral("SOUL.md")));
    QVERIFY(lostSave.error().contains(QStringLiteral("removed or renamed")));

    // A folder that holds a slot file is refused before anything is written.
    const QString taken = m_dir->path() + QStringLiteral("/taken");
    QVERIFY(QDir().mkpath(taken));
    QVERIFY(writeInPlace(slotPath(taken, 5), "theirs\n"));
    const Status refused = model.saveAllTo(taken);
    QVERIFY(!refused.ok());
    QVERIFY(refused.error().contains(slotPath(taken, 5)));
    QVERIFY(!QFileInfo::exists(slotPath(taken, 0)));
    QCOMPARE(readAll(slotPath(taken, 5)), QByteArray("theirs\n"));
    QCOMPARE(model.directory(), dir);
    QVERIFY(model.directoryLost());
    QVERIFY(model.slot(1).dirty);

    // A missing folder is created; every buffer lands there, clean ones too.
    const QString elsewhere = m_dir->path() + QStringLiteral("/elsewhere/kip");
    QVERIFY(model.saveAllTo(elsewhere).ok());
    QCOMPARE(model.directory(), elsewhere);
    QVERIFY(!model.directoryLost());
    QVERIFY(!model.hasUnsaved());
    QCOMPARE(readAll(slotPath(elsewhere, 0)), QByteArray("rules\r\n"));
    QCOMPARE(readAll(slotPath(elsewhere, 1)), QByteArray("precious edits\n"));
    QCOMPARE(readAll(slotPath(elsewhere, 3)), QByteArray("# new\n"));
    QVERIFY(!QFileInfo::exists(slotPath(elsewhere, 2)));
    QVERIFY(model.slot(1).diskPresent());
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("precious edits\n"));
}

void tst_PersonaModel::fifoSlotDoesNotBlock()
{
    QVERIFY(::mkfifo(QFile::encodeName(path(1)).constData(), 0600) == 0);
    write(0, "rules\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QCOMPARE(model.slot(1).presence, SlotPresence::NotRegularFile);
    QVERIFY(model.slot(1).absenceReason.contains(QStringLiteral("FIFO")));
    QCOMPARE(model.found(SoulView::OnDisk), QStringList{QStringLiteral("AGENTS.md")});
}

void tst_PersonaModel::obstaclesOpenReadOnly()
{
    write(1, QByteArray("bad \xff byte\n"));
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(model.slot(1).readOnly);
    QVERIFY(model.slot(1).canEditAnyway);
    QVERIFY(!model.slot(1).readOnlyReason.isEmpty());
    model.setBufferText(1, u"ignored while read-only\n");
    QVERIFY(!model.slot(1).dirty);
    model.editAnyway(1);
    QVERIFY(!model.slot(1).readOnly);
    model.setBufferText(1, model.paneText(1));
    QVERIFY(model.slot(1).dirty); // U+FFFD now stands where the byte was
}

void tst_PersonaModel::hugeSlotIsNotReadWhole()
{
    QFile big(path(6));
    QVERIFY(big.open(QIODevice::WriteOnly));
    QVERIFY(big.resize(WholeReadLimitBytes + 10)); // sparse: cheap to make
    big.close();
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(model.slot(6).readOnly);
    QVERIFY(!model.slot(6).canEditAnyway);
    QVERIFY(model.slot(6).diskBytes.size() <= CapBytes + 1);
    QVERIFY(model.truncated(6, SoulView::OnDisk));
    QCOMPARE(model.sizeIn(6, SoulView::OnDisk), WholeReadLimitBytes + 10);
    QVERIFY(model.paneText(6).isEmpty());
    QCOMPARE(model.soul(SoulView::OnDisk), composeDirectory(m_dir->path()).soul);
}

void tst_PersonaModel::createSlotIsUnsavedUntilSaved()
{
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.createSlot(3, "# Model of the user\n");
    QVERIFY(model.slot(3).dirty);
    QVERIFY(!QFile::exists(path(3)));
    QVERIFY(model.section(3, SoulView::Unsaved));
    QVERIFY(!model.section(3, SoulView::OnDisk));
    QVERIFY(model.save(3).ok());
    QCOMPARE(readAll(path(3)), QByteArray("# Model of the user\n"));
}

namespace {

QByteArray sha256(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

} // namespace

void tst_PersonaModel::dirtyBufferReachesRecoveryAfterTheTimer()
{
    write(1, "disk\n");
    write(6, "memory\n");
    const QMap<QString, QByteArray> before = personaFiles();
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setRecoveryInterval(50);
    const RecoveryStore store(m_dir->path());

    model.setBufferText(1, u"first");
    model.setBufferText(1, u"mine\n");
    // Nothing is written on the keystroke itself.
    QVERIFY(store.pending().isEmpty());
    QTRY_COMPARE(store.pending().size(), 1);
    const RecoveredSlot kept = store.pending().first();
    QCOMPARE(kept.slot, 1);
    QCOMPARE(kept.bytes, QByteArray("mine\n"));
    QCOMPARE(kept.diskSha256, sha256("disk\n"));
    QVERIFY(!store.storePath().startsWith(m_dir->path()));
    QCOMPARE(personaFiles(), before);

    // A slot typed back to the disk's text is clean: its copy goes.
    model.setBufferText(6, u"more memory\n");
    QTRY_COMPARE(store.pending().size(), 2);
    model.setBufferText(6, u"memory\n");
    QTRY_COMPARE(store.pending().size(), 1);

    // Saving makes the slot clean: its copy goes too, and with the last one
    // the directory's folder.
    QVERIFY(model.save(1).ok());
    QTRY_VERIFY(!QFileInfo::exists(store.storePath()));
    QVERIFY(store.pending().isEmpty());
}

// A copy is written after a pause, but removed as soon as its slot is clean,
// on the recovery thread without the pause: a crash after a save leaves
// nothing for the next window to offer.
void tst_PersonaModel::savedSlotLosesItsCopyAtOnce()
{
    write(1, "disk\n");
    write(6, "memory\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setRecoveryInterval(50);
    const RecoveryStore store(m_dir->path());
    model.setBufferText(1, u"mine\n");
    model.setBufferText(6, u"more memory\n");
    QTRY_COMPARE(store.pending().size(), 2);

    // The pause is long now: what goes, goes without it.
    model.setRecoveryInterval(60 * 60 * 1000);
    QVERIFY(model.save(1).ok());
    QTRY_COMPARE(store.pending().size(), 1);
    QCOMPARE(store.pending().first().slot, 6);
    model.setBufferText(6, u"memory\n");
    QTRY_VERIFY(!QFileInfo::exists(store.storePath()));
    QVERIFY(store.pending().isEmpty());
    // A new edit is kept after the pause, as before.
    model.setBufferText(6, u"memory, edited\n");
    QVERIFY(store.pending().isEmpty());
    model.flushRecovery();
    QCOMPARE(store.pending().size(), 1);
}

// Copies are written on the recovery thread: one that cannot be written is
// said once, from there, and the next change after the store is back writes
// the buffer as it is then.
void tst_PersonaModel::failedCopyIsSaidAndWrittenLater()
{
    write(1, "disk\n");
    const RecoveryStore store(m_dir->path());
    QVERIFY(QDir().mkpath(RecoveryStore::rootPath()));
    QVERIFY(writeInPlace(store.storePath(), "a file where the store's folder goes"));
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    model.setRecoveryInterval(20);
    QSignalSpy failed(&model, &PersonaModel::recoveryFailed);
    model.setBufferText(1, u"mine\n");
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY2(failed.first().first().toString().contains(store.storePath()),
             qPrintable(failed.first().first().toString()));
    model.setBufferText(1, u"mine, again\n");
    model.flushRecovery();
    QCoreApplication::processEvents();
    QCOMPARE(failed.count(), 1); // said once

    QVERIFY(QFile::remove(store.storePath()));
    model.setBufferText(1, u"mine\n"); // the text whose copy failed first
    QTRY_COMPARE(store.pending().size(), 1);
    QCOMPARE(store.pending().first().bytes, QByteArray("mine\n"));
    QCOMPARE(failed.count(), 1);
}

void tst_PersonaModel::cleanCloseClearsRecovery()
{
    write(1, "disk\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    const RecoveryStore store(m_dir->path());
    model.setBufferText(1, u"mine\n");
    model.flushRecovery();
    QCOMPARE(store.pending().size(), 1);
    // The window calls close() only after the user's Save all or Discard.
    model.close();
    QVERIFY(!QFileInfo::exists(store.storePath()));
    QCOMPARE(readAll(path(1)), QByteArray("disk\n"));
}

void tst_PersonaModel::reopenOffersRecoveryWithoutApplyingIt()
{
    write(1, "disk\n");
    const QMap<QString, QByteArray> before = personaFiles();
    {
        // A run that ends without close(), as a crash does.
        PersonaModel crashed;
        QVERIFY(crashed.open(m_dir->path()).ok());
        crashed.setBufferText(1, u"unsaved\n");
        crashed.createSlot(3, "new user notes\n");
        crashed.flushRecovery();
    }
    QCOMPARE(personaFiles(), before);

    PersonaModel model;
    QSignalSpy opened(&model, &PersonaModel::opened);
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(model.hasRecovery(1));
    QVERIFY(model.hasRecovery(3));
    QVERIFY(!model.hasRecovery(0));
    QCOMPARE(model.recovery(1)->bytes, QByteArray("unsaved\n"));
    QVERIFY(model.recovery(1)->savedAt.isValid());
    QCOMPARE(model.recovery(3)->bytes, QByteArray("new user notes\n"));
    // Offered, not applied.
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("disk\n"));
    QVERIFY(!model.hasUnsaved());
    QVERIFY(!model.slot(3).bufferPresent);
    QCOMPARE(*model.section(1, SoulView::Unsaved), QByteArray("## SOUL.md\n\ndisk"));
    // Typing waits for the answer, so it cannot overwrite the offer.
    model.setBufferText(1, u"typed\n");
    QVERIFY(!model.slot(1).dirty);
    // The offer survives until answered, even across another crash.
    model.flushRecovery();
    QCOMPARE(RecoveryStore(m_dir->path()).pending().size(), 2);
    QCOMPARE(opened.count(), 1);
}

void tst_PersonaModel::restoreRecoveryMakesTheBufferDirty()
{
    write(1, "one\r\ntwo\r\n");
    QVERIFY(RecoveryStore(m_dir->path()).store(1, "one\r\nTWO\r\n", sha256("one\r\ntwo\r\n")).ok());
    PersonaModel model;
    model.setRecoveryInterval(50);
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(model.hasRecovery(1));
    QVERIFY(!model.recoveryPredatesDisk(1));
    QSignalSpy sections(&model, &PersonaModel::sectionChanged);
    QSignalSpy replaced(&model, &PersonaModel::bufferReplaced);
    QSignalSpy offers(&model, &PersonaModel::recoveryChanged);

    model.restoreRecovery(1);
    QVERIFY(!model.hasRecovery(1));
    QVERIFY(model.slot(1).dirty);
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("one\r\nTWO\r\n"));
    QCOMPARE(*model.section(1, SoulView::Unsaved), QByteArray("## SOUL.md\n\none\r\nTWO"));
    QCOMPARE(model.paneText(1), QStringLiteral("one\nTWO\n"));
    QCOMPARE(sections.count(), 1);
    QCOMPARE(sections.first().first().toInt(), 1);
    QCOMPARE(replaced.count(), 1);
    QCOMPARE(offers.count(), 1);
    QCOMPARE(readAll(path(1)), QByteArray("one\r\ntwo\r\n"));

    // Now an ordinary unsaved buffer: typing keeps the recovered line breaks.
    model.setBufferText(1, u"one\u2029TWO!\u2029");
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("one\r\nTWO!\r\n"));
    QTRY_COMPARE(RecoveryStore(m_dir->path()).pending().value(0).bytes,
                 QByteArray("one\r\nTWO!\r\n"));
    model.revert(1);
    QTRY_VERIFY(RecoveryStore(m_dir->path()).pending().isEmpty());
}

void tst_PersonaModel::discardRecoveryForgetsIt()
{
    write(1, "disk\n");
    QVERIFY(RecoveryStore(m_dir->path()).store(1, "lost cause\n", sha256("disk\n")).ok());
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(model.hasRecovery(1));
    QSignalSpy offers(&model, &PersonaModel::recoveryChanged);
    model.discardRecovery(1);
    QVERIFY(!model.hasRecovery(1));
    QCOMPARE(offers.count(), 1);
    QVERIFY(RecoveryStore(m_dir->path()).pending().isEmpty());
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("disk\n"));
    QVERIFY(!model.slot(1).dirty);
    // Typing works again.
    model.setBufferText(1, u"typed\n");
    QVERIFY(model.slot(1).dirty);
}

void tst_PersonaModel::recoveryEqualToDiskIsDropped()
{
    write(1, "saved after all\n");
    write(2, "name\n");
    RecoveryStore store(m_dir->path());
    QVERIFY(store.store(1, "saved after all\n", sha256("before\n")).ok());
    QVERIFY(store.store(2, "new name\n", sha256("name\n")).ok());
    PersonaModel model;
    model.setRecoveryInterval(50);
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(!model.hasRecovery(1));
    QVERIFY(model.hasRecovery(2));
    QCOMPARE(store.pending().size(), 1);

    // The file comes to hold the offered text: the offer goes, silently.
    QSignalSpy offers(&model, &PersonaModel::recoveryChanged);
    write(2, "new name\n");
    QTRY_VERIFY(!model.hasRecovery(2));
    QCOMPARE(offers.count(), 1);
    QTRY_VERIFY(store.pending().isEmpty());
}

void tst_PersonaModel::recoveryKnowsTheFileChangedSince()
{
    write(1, "changed by someone else\n");
    QVERIFY(RecoveryStore(m_dir->path()).store(1, "mine\n", sha256("original\n")).ok());
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()).ok());
    QVERIFY(model.recoveryPredatesDisk(1));
}

void tst_PersonaModel::secondModelOnTheFolderKeepsNoCopies()
{
    write(1, "disk\n");
    write(6, "memory\n");
    PersonaModel first;
    QVERIFY(first.open(m_dir->path()).ok());
    first.setBufferText(1, u"first's live edit\n");
    first.flushRecovery();

    // The first one's copy is live, not a crash's leftover: not offered,
    // and not wiped when the second one closes.
    PersonaModel second;
    QSignalSpy failed(&second, &PersonaModel::recoveryFailed);
    QVERIFY(second.open(m_dir->path()).ok());
    QVERIFY(!second.hasRecovery(1));
    second.setBufferText(6, u"second's edit\n");
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("Another Soul Studio")));
    second.setBufferText(6, u"second's edit, more\n");
    QCOMPARE(failed.count(), 1); // said once
    second.flushRecovery();
    second.close();
    const QList<RecoveredSlot> kept = RecoveryStore(m_dir->path()).pending();
    QCOMPARE(kept.size(), 1);
    QCOMPARE(kept.first().bytes, QByteArray("first's live edit\n"));

    // Once the first one is closed, a model may keep copies again.
    first.close();
    QVERIFY(second.open(m_dir->path()).ok());
    second.setRecoveryInterval(50);
    second.setBufferText(6, u"now kept\n");
    QTRY_COMPARE(RecoveryStore(m_dir->path()).pending().size(), 1);
}

// Undoing a revert in a pane is typing the old text again: the model then
// holds the edits and is dirty, as before the revert.
void tst_PersonaModel::revertIsUndoneByTyping()
{
    write(1, "disk\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()));
    model.setBufferText(1, u"disk\nmine");
    QVERIFY(model.slot(1).dirty);
    QSignalSpy replaced(&model, &PersonaModel::bufferReplaced);
    model.revert(1);
    QCOMPARE(replaced.size(), 1);
    QVERIFY(!model.slot(1).dirty);
    QCOMPARE(model.paneText(1), QStringLiteral("disk\n"));
    model.setBufferText(1, u"disk\nmine");
    QVERIFY(model.slot(1).dirty);
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("disk\nmine"));
    QCOMPARE(*model.section(1, SoulView::Unsaved), QByteArray("## SOUL.md\n\ndisk\nmine"));
}

void tst_PersonaModel::renameCaseVariantNeverReplaces()
{
    const QString lower = m_dir->filePath(QStringLiteral("soul.md"));
    QVERIFY(writeInPlace(lower, "lower\n"));
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()));
    QCOMPARE(model.caseVariant(1), QStringLiteral("soul.md"));
    QVERIFY(model.caseVariant(0).isEmpty());

    // SOUL.md appears between the offer and the click: nothing is renamed.
    write(1, "upper\n");
    const Status refused = model.renameCaseVariant(1);
    QVERIFY(!refused);
    QVERIFY(refused.error().contains(QStringLiteral("SOUL.md exists")));
    QCOMPARE(readAll(lower), QByteArray("lower\n"));
    QCOMPARE(readAll(path(1)), QByteArray("upper\n"));

    QVERIFY(QFile::remove(path(1)));
    QTRY_VERIFY(!model.slot(1).bufferPresent);
    QVERIFY(model.renameCaseVariant(1));
    QVERIFY(!QFileInfo::exists(lower));
    QCOMPARE(readAll(path(1)), QByteArray("lower\n"));
    QVERIFY(model.slot(1).diskPresent());
    QCOMPARE(model.slot(1).bufferBytes, QByteArray("lower\n"));
    QVERIFY(model.caseVariant(1).isEmpty());
    QVERIFY(!model.renameCaseVariant(1)); // nothing left to rename
}

void tst_PersonaModel::editAnywayKeepsTheObstaclesUntilSaved()
{
    write(1, "a\r\nb\nc\n");
    PersonaModel model;
    QVERIFY(model.open(m_dir->path()));
    QVERIFY(model.slot(1).readOnly);
    QVERIFY(!model.slot(1).editingAnyway());
    model.editAnyway(1);
    QVERIFY(model.slot(1).editingAnyway());
    QCOMPARE(model.slot(1).obstacles.size(), 1);
    model.setBufferText(1, u"a\nb\nc\nd");
    QVERIFY(model.slot(1).editingAnyway());
    model.revert(1);
    QVERIFY(!model.slot(1).editingAnyway());
    QVERIFY(model.slot(1).readOnly);
    model.editAnyway(1);
    model.setBufferText(1, u"a\nb\nc\nd");
    QVERIFY(model.save(1));
    QVERIFY(!model.slot(1).editingAnyway());
    QVERIFY(model.slot(1).obstacles.isEmpty());
    // A file that went away clean leaves no obstacle behind.
    write(2, "x\r\ny\n");
    QTRY_VERIFY(model.slot(2).readOnly);
    model.editAnyway(2);
    QVERIFY(model.slot(2).editingAnyway());
    QVERIFY(QFile::remove(path(2)));
    QTRY_VERIFY(!model.slot(2).diskPresent());
    QVERIFY(!model.slot(2).editingAnyway());
    QVERIFY(model.slot(2).obstacles.isEmpty());
}

QTEST_GUILESS_MAIN(tst_PersonaModel)
#include "tst_personamodel.moc"
