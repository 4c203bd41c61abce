#include "composer.h"
#include "editortext.h"
#include "guitestfiles.h"
#include "personamodel.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

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
    void dirtySlotKeepsEditsAndRaisesConflict();
    void deletedWhileDirtyCanBeSavedAgain();
    void ownSaveIsNotAChange();
    void failedSaveKeepsBuffer();
    void fifoSlotDoesNotBlock();
    void obstaclesOpenReadOnly();
    void hugeSlotIsNotReadWhole();
    void createSlotIsUnsavedUntilSaved();

private:
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
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
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
    QVERIFY(model.save(2).ok());
    QCOMPARE(readAll(path(2)), QByteArray("new name\n"));
    QCOMPARE(model.slot(2).conflict, ConflictState::None);
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

QTEST_GUILESS_MAIN(tst_PersonaModel)
#include "tst_personamodel.moc"
