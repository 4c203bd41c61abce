#include "compose/contract.h"
#include "disk/recoverystore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;

namespace {

constexpr int Soul = 1;
constexpr int User = 3;
constexpr int Memory = 6;

QByteArray sha(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QStringList filesIn(const QString &dir)
{
    QStringList names = QDir(dir).entryList(QDir::Files | QDir::Hidden);
    names.sort();
    return names;
}

} // namespace

class tst_RecoveryStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void storeAndPending();
    void storeReplacesTheSlotsBuffer();
    void removeAndClear();
    void aFileBesideTheSlotsKeepsItsOwnCopy();
    void neverInsideThePersonaDirectory();
    void oneFolderPerDirectory();
    void survivesANewInstance();
    void interruptedStoreIsIgnoredThenCleaned();
    void brokenIndexReadsAsEmpty();
    void badSlotFails();

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_dir;
};

void tst_RecoveryStore::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(!RecoveryStore::rootPath().isEmpty());
}

void tst_RecoveryStore::init()
{
    QVERIFY(QDir(RecoveryStore::rootPath()).removeRecursively());
    m_tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(m_tmp->isValid());
    m_dir = m_tmp->filePath(QStringLiteral("persona"));
    QVERIFY(QDir().mkpath(m_dir));
    QFile soul(m_dir + QStringLiteral("/SOUL.md"));
    QVERIFY(soul.open(QIODevice::WriteOnly));
    soul.write("on disk\n");
}

void tst_RecoveryStore::cleanup()
{
    QDir(RecoveryStore::rootPath()).removeRecursively();
    m_tmp.reset();
}

void tst_RecoveryStore::storeAndPending()
{
    RecoveryStore store(m_dir);
    QVERIFY(store.pending().isEmpty());

    const QDateTime before = QDateTime::currentDateTimeUtc().addMSecs(-1);
    const QByteArray soulBuffer("\xEF\xBB\xBF"
                                "edited\r\n\0binary\r\n",
                                20);
    QVERIFY(store.store(Memory, "- new note\n", QByteArray()).ok());
    QVERIFY(store.store(Soul, soulBuffer, sha("on disk\n")).ok());
    QVERIFY(store.store(User, QByteArray(), sha("x")).ok()); // emptied in the editor
    const QDateTime after = QDateTime::currentDateTimeUtc().addMSecs(1);

    const QList<RecoveredSlot> pending = store.pending();
    QCOMPARE(pending.size(), 3);
    QCOMPARE(pending.at(0).slot, Soul); // slot order, not store order
    QCOMPARE(pending.at(0).fileName, QStringLiteral("SOUL.md"));
    QCOMPARE(pending.at(0).bytes, soulBuffer);
    QCOMPARE(pending.at(0).diskSha256, sha("on disk\n"));
    QVERIFY(pending.at(0).savedAt >= before && pending.at(0).savedAt <= after);
    QCOMPARE(pending.at(0).savedAt.timeSpec(), Qt::UTC);

    QCOMPARE(pending.at(1).slot, User);
    QCOMPARE(pending.at(1).bytes, QByteArray());
    QCOMPARE(pending.at(2).slot, Memory);
    QCOMPARE(pending.at(2).bytes, QByteArray("- new note\n"));
    QCOMPARE(pending.at(2).diskSha256, QByteArray());

    QFile index(QDir(store.storePath()).filePath(QStringLiteral("index.json")));
    QVERIFY(index.open(QIODevice::ReadOnly));
    const QByteArray json = index.readAll();
    QVERIFY(json.contains(m_dir.toUtf8()));
    QVERIFY(json.contains("\"SOUL.md\""));

    // Only the owner may read unsaved text.
    QCOMPARE(QFileInfo(store.storePath()).permissions()
                 & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());
}

void tst_RecoveryStore::storeReplacesTheSlotsBuffer()
{
    RecoveryStore store(m_dir);
    for (int i = 0; i < 5; ++i)
        QVERIFY(store.store(Soul, "version " + QByteArray::number(i), sha("on disk\n")).ok());
    const QList<RecoveredSlot> pending = store.pending();
    QCOMPARE(pending.size(), 1);
    QCOMPARE(pending.at(0).bytes, QByteArray("version 4"));
    // The index and one buffer: older buffers are gone.
    QCOMPARE(filesIn(store.storePath()).size(), 2);
}

void tst_RecoveryStore::removeAndClear()
{
    RecoveryStore store(m_dir);
    QVERIFY(store.store(Soul, "a", QByteArray()).ok());
    QVERIFY(store.store(Memory, "b", QByteArray()).ok());
    QVERIFY(store.remove(Soul).ok());
    QCOMPARE(store.pending().size(), 1);
    QCOMPARE(store.pending().at(0).slot, Memory);
    QCOMPARE(filesIn(store.storePath()).size(), 2);
    QVERIFY(store.remove(Soul).ok()); // nothing kept: nothing to do

    // Removing the last buffer removes the folder.
    QVERIFY(store.remove(Memory).ok());
    QVERIFY(!QFileInfo::exists(store.storePath()));
    QVERIFY(store.pending().isEmpty());

    QVERIFY(store.store(User, "c", QByteArray()).ok());
    QVERIFY(store.clear().ok());
    QVERIFY(!QFileInfo::exists(store.storePath()));
    QVERIFY(store.clear().ok());
    QVERIFY(store.pending().isEmpty());
}

// OpenClaw's BOOTSTRAP.md is kept in the same index under its own name: the
// slots' offers leave it out, and removing the last slot keeps it.
void tst_RecoveryStore::aFileBesideTheSlotsKeepsItsOwnCopy()
{
    RecoveryStore store(m_dir);
    const QString bootstrap = QStringLiteral("BOOTSTRAP.md");
    QVERIFY(!store.pendingFile(bootstrap));
    QVERIFY(store.store(Soul, "a", QByteArray()).ok());
    QVERIFY(store.storeFile(bootstrap, "Hello\r\n", "abc").ok());
    QCOMPARE(store.pending().size(), 1);
    QVERIFY(store.remove(Soul).ok());
    QVERIFY(store.pending().isEmpty());
    const std::optional<RecoveredSlot> kept = store.pendingFile(bootstrap);
    QVERIFY(kept);
    QCOMPARE(kept->bytes, QByteArray("Hello\r\n"));
    QCOMPARE(kept->diskSha256, QByteArray("abc"));
    QCOMPARE(kept->fileName, bootstrap);
    QVERIFY(kept->savedAt.isValid());

    // A new copy replaces the old one; removed, the store's folder goes with it.
    QVERIFY(store.storeFile(bootstrap, "Hi", QByteArray()).ok());
    QCOMPARE(store.pendingFile(bootstrap).value_or(RecoveredSlot()).bytes, QByteArray("Hi"));
    QVERIFY(store.removeFile(bootstrap).ok());
    QVERIFY(!store.pendingFile(bootstrap));
    QVERIFY(!QFileInfo::exists(store.storePath()));
    QVERIFY(!store.storeFile(QStringLiteral("../x"), "no", QByteArray()).ok());
    QVERIFY(!store.storeFile(QStringLiteral("skills/../../x"), "no", QByteArray()).ok());
    QVERIFY(!store.storeFile(QStringLiteral("/etc/x"), "no", QByteArray()).ok());

    // A path under the folder (a skill's SKILL.md) names a copy too; the copy
    // is a file of the store's own folder, not of a folder below it.
    const QString skill = QStringLiteral("skills/demo/SKILL.md");
    QVERIFY(store.storeFile(skill, "Skill\r\n", QByteArray()).ok());
    QCOMPARE(store.pendingFile(skill).value_or(RecoveredSlot()).bytes, QByteArray("Skill\r\n"));
    QCOMPARE(QDir(store.storePath()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList());
    QVERIFY(store.pending().isEmpty()); // the slots' list leaves it out
    QVERIFY(store.removeFile(skill).ok());
    QVERIFY(!store.pendingFile(skill));
}

void tst_RecoveryStore::neverInsideThePersonaDirectory()
{
    const QStringList before = QDir(m_dir).entryList(QDir::AllEntries | QDir::Hidden
                                                     | QDir::NoDotAndDotDot);
    RecoveryStore store(m_dir);
    QVERIFY(store.store(Soul, "x", QByteArray()).ok());
    QVERIFY(!store.storePath().startsWith(m_dir));
    QVERIFY(store.storePath().startsWith(RecoveryStore::rootPath() + u'/'));
    QCOMPARE(QDir(m_dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), before);
}

void tst_RecoveryStore::oneFolderPerDirectory()
{
    const QString other = m_tmp->filePath(QStringLiteral("other"));
    QVERIFY(QDir().mkpath(other));
    RecoveryStore first(m_dir);
    RecoveryStore second(other);
    QVERIFY(first.storePath() != second.storePath());
    QVERIFY(first.store(Soul, "first", QByteArray()).ok());
    QVERIFY(second.pending().isEmpty());

    // The same directory, spelled differently, is the same store.
    RecoveryStore again(m_dir + QStringLiteral("/../persona"));
    QCOMPARE(again.storePath(), first.storePath());
    QCOMPARE(again.pending().size(), 1);
}

void tst_RecoveryStore::survivesANewInstance()
{
    {
        RecoveryStore store(m_dir);
        QVERIFY(store.store(Soul, "unsaved", sha("on disk\n")).ok());
    }
    RecoveryStore reopened(m_dir);
    const QList<RecoveredSlot> pending = reopened.pending();
    QCOMPARE(pending.size(), 1);
    QCOMPARE(pending.at(0).bytes, QByteArray("unsaved"));
    QCOMPARE(pending.at(0).diskSha256, sha("on disk\n"));
}

// A crash between writing a buffer and switching the index leaves a buffer the
// index does not name: it is not offered, and the next store removes it.
void tst_RecoveryStore::interruptedStoreIsIgnoredThenCleaned()
{
    RecoveryStore store(m_dir);
    QVERIFY(store.store(Soul, "complete", QByteArray()).ok());
    const QString stray = QDir(store.storePath()).filePath(QStringLiteral("SOUL.md.999"));
    QFile file(stray);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("half writ");
    file.close();

    QCOMPARE(store.pending().size(), 1);
    QCOMPARE(store.pending().at(0).bytes, QByteArray("complete"));

    QVERIFY(store.store(Memory, "m", QByteArray()).ok());
    QVERIFY(!QFileInfo::exists(stray));
    QCOMPARE(filesIn(store.storePath()).size(), 3);
}

void tst_RecoveryStore::brokenIndexReadsAsEmpty()
{
    RecoveryStore store(m_dir);
    QVERIFY(store.store(Soul, "x", QByteArray()).ok());
    QFile index(QDir(store.storePath()).filePath(QStringLiteral("index.json")));
    QVERIFY(index.open(QIODevice::WriteOnly | QIODevice::Truncate));
    index.write("{ not json");
    index.close();

    QVERIFY(store.pending().isEmpty());
    QVERIFY(store.store(User, "y", QByteArray()).ok());
    QCOMPARE(store.pending().size(), 1);
    QCOMPARE(store.pending().at(0).slot, User);
}

void tst_RecoveryStore::badSlotFails()
{
    RecoveryStore store(m_dir);
    QVERIFY(!store.store(-1, "x", QByteArray()).ok());
    QVERIFY(!store.store(SlotCount, "x", QByteArray()).ok());
    QVERIFY(store.pending().isEmpty());
}

QTEST_GUILESS_MAIN(tst_RecoveryStore)
#include "tst_recoverystore.moc"
