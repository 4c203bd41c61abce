// Every write path, with every I/O call it makes failing in turn.
//
// As SQLite's I/O-error tests do, each test runs one write again and again:
// the first run fails the 1st call of a kind (open, write, fsync, ftruncate,
// close, rename), the next the 2nd, and so on until the write makes fewer
// calls than that and succeeds. Each failed run must leave the target with
// exactly its old bytes, no temporary or backup file, and a sentence naming
// the file and the cure for that errno; the successful run, exactly the new
// bytes. The faults come from fileio.h, so no mount and no root is needed;
// a real full tmpfs is an extra, for root only.

#include "../core/testfiles.h"
#include "atomicwrite.h"
#include "contract.h"
#include "fileio.h"
#include "personamodel.h"
#include "recoverystore.h"
#include "slotsaver.h"
#include "snapshot.h"
#include "writefaults.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace soul;
using soul::test::cureFor;
using soul::test::writeFile;

namespace {

// Far more calls than any of these writes makes: a loop that reaches it
// never succeeded.
constexpr int MaxCalls = 64;

QByteArray contentOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArrayLiteral("<absent>");
    return file.readAll();
}

// Hidden leftovers of the write path (".NAME.XXXXXXXX.tmp" / ".bak") under `dir`.
QStringList leftovers(const QString &dir)
{
    QStringList found;
    const QStringList names = QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System);
    for (const QString &name : names) {
        if (name.endsWith(QLatin1String(".tmp")) || name.endsWith(QLatin1String(".bak")))
            found.append(name);
    }
    return found;
}

int linkCount(const QString &path)
{
    struct stat info
    {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_nlink) : 0;
}

// A PersonaModel on a fresh folder; the folder's files and the model go
// together, and test mode keeps recovery copies away from the user's.
struct Persona
{
    QTemporaryDir dir;
    PersonaModel model;
    QString path(int slot) const { return slotPath(dir.path(), slot); }
};

} // namespace

class tst_WriteFaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void slotSave_data() { faultRows(); }
    void slotSave();
    void modelSave_data() { faultRows(); }
    void modelSave();
    void modelSaveAll_data() { faultRows(); }
    void modelSaveAll();
    void modelSaveAllTo_data() { faultRows(); }
    void modelSaveAllTo();
    void exportSnapshot_data() { faultRows(); }
    void exportSnapshot();
    void recoveryStore_data() { faultRows(); }
    void recoveryStore();

    void realFullTmpfs();
    void realReadOnlyMount();

private:
    static void faultRows();
    // Arms the row's fault at the k-th call of its kind.
    static void arm(int k);
    // A failed run's sentence names `file` and the cure for the row's errno.
    static bool saysWhy(const QString &text, const QString &file);
    // Whether a path that surely opens, writes, syncs and closes must have
    // failed at least once for the row's kind of call.
    static bool mustFail();
};

void tst_WriteFaults::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(QDir(RecoveryStore::rootPath()).removeRecursively());
}

void tst_WriteFaults::cleanup()
{
    fileio::clearFault();
}

void tst_WriteFaults::faultRows()
{
    test::addFaultRows();
}

void tst_WriteFaults::arm(int k)
{
    test::armRowFault(k);
}

bool tst_WriteFaults::saysWhy(const QString &text, const QString &file)
{
    QFETCH(int, error);
    if (text.contains(file) && text.contains(cureFor(error)))
        return true;
    qWarning("missing %s or %s in: %s",
             qPrintable(file),
             qPrintable(cureFor(error)),
             qPrintable(text));
    return false;
}

bool tst_WriteFaults::mustFail()
{
    QFETCH(int, op);
    const fileio::Op kind = fileio::Op(op);
    return kind == fileio::Op::Open || kind == fileio::Op::Write || kind == fileio::Op::Sync
           || kind == fileio::Op::Close;
}

// Three shapes of target: an existing file (temporary file and rename), no
// file yet, and a file with a second hard link (written in place after a
// backup, which a failure restores, so both names keep the old bytes).
void tst_WriteFaults::slotSave()
{
    enum class Shape { Existing, Absent, HardLink };
    const QByteArray old(30000, 'o');   // longer than the new: the size must be cut too
    const QByteArray fresh(20000, 'n'); // several writes' worth when cut short
    for (Shape shape : {Shape::Existing, Shape::Absent, Shape::HardLink}) {
        int failures = 0;
        for (int k = 1;; ++k) {
            QVERIFY(k <= MaxCalls);
            QTemporaryDir dir;
            const QString file = dir.filePath(QStringLiteral("SOUL.md"));
            const QString other = dir.filePath(QStringLiteral("soul-copy.md"));
            if (shape != Shape::Absent) {
                QVERIFY(writeFile(file, old));
                QCOMPARE(::chmod(QFile::encodeName(file).constData(), 0640), 0);
            }
            if (shape == Shape::HardLink) {
                QCOMPARE(::link(QFile::encodeName(file).constData(),
                                QFile::encodeName(other).constData()),
                         0);
            }
            arm(k);
            const Status status = saveSlotFile(file, fresh);
            const bool fired = fileio::clearFault();
            QCOMPARE(leftovers(dir.path()), QStringList());
            const QByteArray before = shape == Shape::Absent ? QByteArray("<absent>") : old;
            const QByteArray expected = fired ? before : fresh;
            QCOMPARE(contentOf(file), expected);
            if (shape == Shape::HardLink) {
                QCOMPARE(linkCount(file), 2);
                QCOMPARE(contentOf(other), expected);
            }
            if (!fired) {
                QVERIFY2(status.ok(), qPrintable(status.error()));
                struct stat info
                {};
                QCOMPARE(::stat(QFile::encodeName(file).constData(), &info), 0);
                if (shape != Shape::Absent)
                    QCOMPARE(int(info.st_mode & 07777), 0640);
                break;
            }
            ++failures;
            QVERIFY(!status.ok());
            QVERIFY(saysWhy(status.error(), file));
            if (shape != Shape::HardLink) {
                QVERIFY2(status.error().contains(QLatin1String("unchanged")),
                         qPrintable(status.error()));
            }
        }
        QVERIFY(failures > 0 || !mustFail());
    }
}

void tst_WriteFaults::modelSave()
{
    const QByteArray old("You are Kip.\n");
    const QByteArray fresh("You are Kip, a terse assistant.\n");
    int failures = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        Persona p;
        QVERIFY(writeFile(p.path(1), old));
        QVERIFY(p.model.open(p.dir.path()).ok());
        p.model.setBufferText(1, QString::fromUtf8(fresh));
        arm(k);
        const SaveResult result = p.model.save(1);
        const bool fired = fileio::clearFault();
        QCOMPARE(leftovers(p.dir.path()), QStringList());
        if (!fired) {
            QVERIFY2(result.ok(), qPrintable(result.error()));
            QCOMPARE(contentOf(p.path(1)), fresh);
            QVERIFY(!p.model.slot(1).dirty);
            break;
        }
        ++failures;
        QVERIFY(!result.ok());
        QVERIFY(!result.isStale());
        QCOMPARE(contentOf(p.path(1)), old);
        QVERIFY(p.model.slot(1).dirty);
        QCOMPARE(p.model.slot(1).bufferBytes, fresh);
        QVERIFY(saysWhy(result.error(), p.path(1)));
        p.model.close();
    }
    QVERIFY(failures > 0 || !mustFail());
}

// Two dirty slots: a failure at the second leaves the first saved and clean,
// the second old and dirty; never a file in between.
void tst_WriteFaults::modelSaveAll()
{
    const QByteArray old1("soul\n"), old6("memory\n");
    const QByteArray new1("new soul\n"), new6("new memory\n");
    int failures = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        Persona p;
        QVERIFY(writeFile(p.path(1), old1));
        QVERIFY(writeFile(p.path(6), old6));
        QVERIFY(p.model.open(p.dir.path()).ok());
        p.model.setBufferText(1, QString::fromUtf8(new1));
        p.model.setBufferText(6, QString::fromUtf8(new6));
        arm(k);
        const SaveResult result = p.model.saveAll();
        const bool fired = fileio::clearFault();
        QCOMPARE(leftovers(p.dir.path()), QStringList());
        const QByteArray now1 = contentOf(p.path(1));
        const QByteArray now6 = contentOf(p.path(6));
        QVERIFY(now1 == old1 || now1 == new1);
        QVERIFY(now6 == old6 || now6 == new6);
        QCOMPARE(p.model.slot(1).dirty, now1 == old1);
        QCOMPARE(p.model.slot(6).dirty, now6 == old6);
        if (!fired) {
            QVERIFY2(result.ok(), qPrintable(result.error()));
            QCOMPARE(now1, new1);
            QCOMPARE(now6, new6);
            break;
        }
        ++failures;
        QVERIFY(!result.ok());
        QVERIFY(saysWhy(result.error(), now1 == old1 ? p.path(1) : p.path(6)));
        p.model.close();
    }
    QVERIFY(failures > 0 || !mustFail());
}

// Save all elsewhere: a failure stops there, the folder written so far holds
// whole files only, and the model stays on its folder with its buffers.
void tst_WriteFaults::modelSaveAllTo()
{
    const QByteArray new1("new soul\n");
    const QByteArray kept3("user\n");
    int failures = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        Persona p;
        QTemporaryDir elsewhere;
        QVERIFY(writeFile(p.path(1), "soul\n"));
        QVERIFY(writeFile(p.path(3), kept3));
        QVERIFY(p.model.open(p.dir.path()).ok());
        p.model.setBufferText(1, QString::fromUtf8(new1));
        const QString target = elsewhere.filePath(QStringLiteral("persona"));
        arm(k);
        const Status status = p.model.saveAllTo(target);
        const bool fired = fileio::clearFault();
        QCOMPARE(leftovers(target), QStringList());
        const QByteArray now1 = contentOf(slotPath(target, 1));
        const QByteArray now3 = contentOf(slotPath(target, 3));
        QVERIFY(now1 == "<absent>" || now1 == new1);
        QVERIFY(now3 == "<absent>" || now3 == kept3);
        if (!fired) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            QCOMPARE(p.model.directory(), target);
            QCOMPARE(now1, new1);
            QCOMPARE(now3, kept3);
            break;
        }
        ++failures;
        QVERIFY(!status.ok());
        QCOMPARE(p.model.directory(), QFileInfo(p.dir.path()).absoluteFilePath());
        QVERIFY(p.model.slot(1).dirty);
        QCOMPARE(p.model.slot(1).bufferBytes, new1);
        QVERIFY(saysWhy(status.error(), target));
        p.model.close();
    }
    QVERIFY(failures > 0 || !mustFail());
}

void tst_WriteFaults::exportSnapshot()
{
    QTemporaryDir persona;
    QVERIFY(writeFile(slotPath(persona.path(), 1), "You are Kip.\n"));
    const Result<Snapshot> snapshot = takeSnapshot(persona.path());
    QVERIFY2(snapshot.ok(), qPrintable(snapshot.error()));
    const QByteArray newManifest
        = QJsonDocument(snapshot->manifest()).toJson(QJsonDocument::Indented);
    int failures = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        QTemporaryDir out;
        const QString soulPath = out.filePath(QStringLiteral("ava.md"));
        const QString manifestPath = manifestPathFor(soulPath);
        QVERIFY(writeFile(soulPath, "old soul"));
        QVERIFY(writeFile(manifestPath, "old manifest"));
        arm(k);
        const Status status = writeSnapshot(*snapshot, soulPath, true);
        const bool fired = fileio::clearFault();
        QCOMPARE(leftovers(out.path()), QStringList());
        const QByteArray soulNow = contentOf(soulPath);
        const QByteArray manifestNow = contentOf(manifestPath);
        // The pair is old or new, never one of each.
        QVERIFY((soulNow == "old soul" && manifestNow == "old manifest")
                || (soulNow == snapshot->soul() && manifestNow == newManifest));
        if (!fired) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            QCOMPARE(soulNow, snapshot->soul());
            QCOMPARE(manifestNow, newManifest);
            break;
        }
        ++failures;
        QVERIFY(!status.ok());
        // Names the soul or its manifest (whose name starts with the soul's).
        QVERIFY(saysWhy(status.error(), soulPath));
    }
    QVERIFY(failures > 0 || !mustFail());
}

// The recovery store writes a buffer file, then its index: a failure keeps
// the copy it had, and leaves no half-written file behind.
void tst_WriteFaults::recoveryStore()
{
    int failures = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        QTemporaryDir persona;
        RecoveryStore store(persona.path());
        QVERIFY(store.store(1, "first copy", "abc").ok());
        arm(k);
        const Status status = store.store(1, "second copy", "abc");
        const bool fired = fileio::clearFault();
        QCOMPARE(leftovers(store.storePath()), QStringList());
        const QList<RecoveredSlot> pending = store.pending();
        QCOMPARE(pending.size(), 1);
        if (!fired) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            QCOMPARE(pending.first().bytes, QByteArray("second copy"));
            QVERIFY(store.clear().ok());
            break;
        }
        ++failures;
        QVERIFY(!status.ok());
        QCOMPARE(pending.first().bytes, QByteArray("first copy"));
        QVERIFY(saysWhy(status.error(), store.storePath()));
        QVERIFY(store.clear().ok());
    }
    QVERIFY(failures > 0 || !mustFail());
}

// The same, for real: a small tmpfs filled up, where a small file's save
// used to empty the file and report success. Needs root to mount.
void tst_WriteFaults::realFullTmpfs()
{
    if (::geteuid() != 0)
        QSKIP("mounting a tmpfs needs root; the injected faults above cover the same calls");
    QTemporaryDir mountPoint;
    const test::ScratchTmpfs tmpfs(mountPoint.path(), "size=64k");
    if (!tmpfs.mounted())
        QSKIP(qPrintable(tmpfs.why()));

    const QString file = mountPoint.filePath(QStringLiteral("SOUL.md"));
    const QByteArray old("You are Kip, a terse assistant.\n");
    QVERIFY(writeFile(file, old));
    // Fill every block that is left.
    {
        QFile filler(mountPoint.filePath(QStringLiteral("filler")));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        const QByteArray block(4096, 'x');
        while (filler.write(block) == block.size() && filler.flush()) {
        }
    }
    const Status status = saveSlotFile(file, old + "One more word.\n");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(file), qPrintable(status.error()));
    QVERIFY2(status.error().contains(cureFor(ENOSPC)), qPrintable(status.error()));
    QCOMPARE(contentOf(file), old);
    QCOMPARE(leftovers(mountPoint.path()), QStringList());
}

// On a file system mounted read-only, the sentence says so, instead of
// asking to make the file writable. Needs root to mount.
void tst_WriteFaults::realReadOnlyMount()
{
    if (::geteuid() != 0)
        QSKIP("mounting a tmpfs needs root; EROFS from each call is injected above");
    QTemporaryDir mountPoint;
    test::ScratchTmpfs tmpfs(mountPoint.path(), "size=64k");
    if (!tmpfs.mounted())
        QSKIP(qPrintable(tmpfs.why()));
    const QString file = mountPoint.filePath(QStringLiteral("SOUL.md"));
    QVERIFY(writeFile(file, "old\n"));
    QVERIFY(tmpfs.remountReadOnly("size=64k"));
    const Status status = saveSlotFile(file, "new\n");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(cureFor(EROFS)), qPrintable(status.error()));
    QVERIFY2(!status.error().contains(QLatin1String("Make it writable")),
             qPrintable(status.error()));
    QCOMPARE(contentOf(file), QByteArray("old\n"));
}

QTEST_GUILESS_MAIN(tst_WriteFaults)
#include "tst_writefaults.moc"
