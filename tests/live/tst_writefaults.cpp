// Every write path, with every I/O call it makes failing in turn.
//
// As SQLite's I/O-error tests do, each test runs one write again and again:
// the first run fails the 1st call of a kind (open, write, fsync, ftruncate,
// close, rename, the folder's sync), the next the 2nd, and so on until the
// write makes fewer calls than that and succeeds. Each failed run must leave
// the target with exactly its old bytes, no temporary or backup file, and a
// sentence naming the file and the cure for that errno; the successful run,
// exactly the new bytes. A failed folder sync is the one call a write
// survives: the new bytes are in place, with a warning naming the file.
// Each row's call must fail at least once, and each test declares every kind
// of call its write makes (test::madeOnly()). The faults come from fileio.h,
// so no mount and no root is needed; a real full tmpfs is an extra, for
// root only.

#include "../core/testfiles.h"
#include "compose/contract.h"
#include "disk/atomicwrite.h"
#include "disk/fileio.h"
#include "disk/recoverystore.h"
#include "disk/slotsaver.h"
#include "persona/freeze.h"
#include "persona/personamodel.h"
#include "persona/snapshot.h"
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

    void slotSave_data();
    void slotSave();
    void modelSave_data() { test::addFaultRows(test::RenameCalls); }
    void modelSave();
    void modelSaveAll_data() { test::addFaultRows(test::RenameCalls); }
    void modelSaveAll();
    void modelSaveAllTo_data() { test::addFaultRows(test::RenameCalls); }
    void modelSaveAllTo();
    void exportSnapshot_data() { test::addFaultRows(test::RenameCalls); }
    void exportSnapshot();
    void recoveryStore_data() { test::addFaultRows(test::RenameCalls); }
    void recoveryStore();

    void hardLinkRestoreFails_data();
    void hardLinkRestoreFails();
    void exportRestoreFails_data();
    void exportRestoreFails();

    void neverOverwrite_data();
    void neverOverwrite();
    void linkFallbackCreates();
    void linkFallback_data() { test::addFaultRows({test::Call::Link}); }
    void linkFallback();
    void linkFallbackWithoutHardLinks();

    void realFullTmpfs();
    void realReadOnlyMount();

private:
    // Arms the row's fault at the k-th call of its kind.
    static void arm(int k);
    // A failed run's sentence names `file` and the cure for the row's errno.
    static bool saysWhy(const QString &text, const QString &file);
};

void tst_WriteFaults::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(QDir(RecoveryStore::rootPath()).removeRecursively());
}

void tst_WriteFaults::cleanup()
{
    fileio::clearFault();
    fileio::setBeforeNoReplaceRename({});
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

// Three shapes of target: an existing file (temporary file and rename), no
// file yet, and a file with a second hard link (written in place after a
// backup, which a failure restores, so both names keep the old bytes).
enum class Shape { Existing, Absent, HardLink };

void tst_WriteFaults::slotSave_data()
{
    QTest::addColumn<Shape>("shape");
    test::addFaultColumns();
    const struct
    {
        Shape shape;
        const char *name;
        test::Calls calls;
    } shapes[] = {{Shape::Existing, "existing", test::RenameCalls},
                  {Shape::Absent, "absent", test::RenameCalls},
                  {Shape::HardLink, "hard link", test::InPlaceCalls}};
    for (const auto &shape : shapes) {
        for (const test::FaultRow &row : test::faultRows(shape.calls)) {
            QTest::addRow("%s: %s", shape.name, row.name.constData())
                << shape.shape << row.op << row.error << row.partial;
        }
    }
}

void tst_WriteFaults::slotSave()
{
    QFETCH(Shape, shape);
    const QByteArray old(30000, 'o');   // longer than the new: the size must be cut too
    const QByteArray fresh(20000, 'n'); // several writes' worth when cut short
    int fired = 0;
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
        const bool hit = fileio::clearFault();
        QCOMPARE(leftovers(dir.path()), QStringList());
        const bool failed = hit && !test::rowOnlyWarns();
        const QByteArray before = shape == Shape::Absent ? QByteArray("<absent>") : old;
        const QByteArray expected = failed ? before : fresh;
        QCOMPARE(contentOf(file), expected);
        if (shape == Shape::HardLink) {
            QCOMPARE(linkCount(file), 2);
            QCOMPARE(contentOf(other), expected);
        }
        if (!failed) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            struct stat info
            {};
            QCOMPARE(::stat(QFile::encodeName(file).constData(), &info), 0);
            if (shape != Shape::Absent)
                QCOMPARE(int(info.st_mode & 07777), 0640);
        }
        if (!hit) {
            QCOMPARE(status.warning(), QString());
            QVERIFY(
                test::madeOnly(shape == Shape::HardLink ? test::InPlaceCalls : test::RenameCalls));
            break;
        }
        ++fired;
        if (!failed) {
            QVERIFY(saysWhy(status.warning(), file));
            continue;
        }
        QVERIFY(!status.ok());
        QVERIFY(saysWhy(status.error(), file));
        if (shape != Shape::HardLink) {
            QVERIFY2(status.error().contains(QLatin1String("unchanged")),
                     qPrintable(status.error()));
        }
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

void tst_WriteFaults::modelSave()
{
    const QByteArray old("You are Kip.\n");
    const QByteArray fresh("You are Kip, a terse assistant.\n");
    int fired = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        Persona p;
        QVERIFY(writeFile(p.path(1), old));
        QVERIFY(p.model.open(p.dir.path()).ok());
        p.model.setBufferText(1, QString::fromUtf8(fresh));
        arm(k);
        const SaveResult result = p.model.save(1);
        const bool hit = fileio::clearFault();
        QCOMPARE(leftovers(p.dir.path()), QStringList());
        if (!hit || test::rowOnlyWarns()) {
            QVERIFY2(result.ok(), qPrintable(result.error()));
            QCOMPARE(contentOf(p.path(1)), fresh);
            QVERIFY(!p.model.slot(1).dirty);
            if (!hit) {
                QCOMPARE(result.warning(), QString());
                QVERIFY(test::madeOnly(test::RenameCalls));
                break;
            }
            ++fired;
            QVERIFY(saysWhy(result.warning(), p.path(1)));
            p.model.close();
            continue;
        }
        ++fired;
        QVERIFY(!result.ok());
        QVERIFY(!result.isStale());
        QCOMPARE(contentOf(p.path(1)), old);
        QVERIFY(p.model.slot(1).dirty);
        QCOMPARE(p.model.slot(1).bufferBytes, fresh);
        QVERIFY(saysWhy(result.error(), p.path(1)));
        p.model.close();
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

// Two dirty slots: a failure at the second leaves the first saved and clean,
// the second old and dirty; never a file in between. A warning about either
// file comes back with the success of both.
void tst_WriteFaults::modelSaveAll()
{
    const QByteArray old1("soul\n"), old6("memory\n");
    const QByteArray new1("new soul\n"), new6("new memory\n");
    int fired = 0;
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
        const bool hit = fileio::clearFault();
        QCOMPARE(leftovers(p.dir.path()), QStringList());
        const QByteArray now1 = contentOf(p.path(1));
        const QByteArray now6 = contentOf(p.path(6));
        QVERIFY(now1 == old1 || now1 == new1);
        QVERIFY(now6 == old6 || now6 == new6);
        QCOMPARE(p.model.slot(1).dirty, now1 == old1);
        QCOMPARE(p.model.slot(6).dirty, now6 == old6);
        if (!hit || test::rowOnlyWarns()) {
            QVERIFY2(result.ok(), qPrintable(result.error()));
            QCOMPARE(now1, new1);
            QCOMPARE(now6, new6);
            if (!hit) {
                QCOMPARE(result.warning(), QString());
                QVERIFY(test::madeOnly(test::RenameCalls));
                break;
            }
            ++fired;
            // The k-th folder sync is the k-th file's.
            QVERIFY(saysWhy(result.warning(), k == 1 ? p.path(1) : p.path(6)));
            p.model.close();
            continue;
        }
        ++fired;
        QVERIFY(!result.ok());
        QVERIFY(saysWhy(result.error(), now1 == old1 ? p.path(1) : p.path(6)));
        p.model.close();
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

// Save all elsewhere: a failure stops there, the folder written so far holds
// whole files only, and the model stays on its folder with its buffers.
void tst_WriteFaults::modelSaveAllTo()
{
    const QByteArray new1("new soul\n");
    const QByteArray kept3("user\n");
    int fired = 0;
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
        const bool hit = fileio::clearFault();
        QCOMPARE(leftovers(target), QStringList());
        const QByteArray now1 = contentOf(slotPath(target, 1));
        const QByteArray now3 = contentOf(slotPath(target, 3));
        QVERIFY(now1 == "<absent>" || now1 == new1);
        QVERIFY(now3 == "<absent>" || now3 == kept3);
        if (!hit || test::rowOnlyWarns()) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            QCOMPARE(p.model.directory(), target);
            QCOMPARE(now1, new1);
            QCOMPARE(now3, kept3);
            if (!hit) {
                QCOMPARE(status.warning(), QString());
                QVERIFY(test::madeOnly(test::RenameCalls));
                break;
            }
            ++fired;
            QVERIFY(saysWhy(status.warning(), k == 1 ? slotPath(target, 1) : slotPath(target, 3)));
            p.model.close();
            continue;
        }
        ++fired;
        QVERIFY(!status.ok());
        QCOMPARE(p.model.directory(), QFileInfo(p.dir.path()).absoluteFilePath());
        QVERIFY(p.model.slot(1).dirty);
        QCOMPARE(p.model.slot(1).bufferBytes, new1);
        QVERIFY(saysWhy(status.error(), target));
        p.model.close();
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

void tst_WriteFaults::exportSnapshot()
{
    QTemporaryDir persona;
    QVERIFY(writeFile(slotPath(persona.path(), 1), "You are Kip.\n"));
    const Result<Snapshot> snapshot = takeSnapshot(persona.path());
    QVERIFY2(snapshot.ok(), qPrintable(snapshot.error()));
    const QByteArray newManifest
        = QJsonDocument(snapshot->manifest()).toJson(QJsonDocument::Indented);
    int fired = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        QTemporaryDir out;
        const QString soulPath = out.filePath(QStringLiteral("ava.md"));
        const QString manifestPath = manifestPathFor(soulPath);
        QVERIFY(writeFile(soulPath, "old soul"));
        QVERIFY(writeFile(manifestPath, "old manifest"));
        arm(k);
        const Status status = writeSnapshot(*snapshot, soulPath, true);
        const bool hit = fileio::clearFault();
        QCOMPARE(leftovers(out.path()), QStringList());
        const QByteArray soulNow = contentOf(soulPath);
        const QByteArray manifestNow = contentOf(manifestPath);
        // The pair is old or new, never one of each.
        QVERIFY((soulNow == "old soul" && manifestNow == "old manifest")
                || (soulNow == snapshot->soul() && manifestNow == newManifest));
        if (!hit || test::rowOnlyWarns()) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            QCOMPARE(soulNow, snapshot->soul());
            QCOMPARE(manifestNow, newManifest);
            if (!hit) {
                QCOMPARE(status.warning(), QString());
                QVERIFY(test::madeOnly(test::RenameCalls));
                break;
            }
            ++fired;
            QVERIFY(saysWhy(status.warning(), k == 1 ? soulPath : manifestPath));
            continue;
        }
        ++fired;
        QVERIFY(!status.ok());
        // Names the soul or its manifest (whose name starts with the soul's).
        QVERIFY(saysWhy(status.error(), soulPath));
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

// The recovery store writes a buffer file, then its index: a failure keeps
// the copy it had, and leaves no half-written file behind. A failed folder
// sync is kept quiet (recoverystore.cpp says why).
void tst_WriteFaults::recoveryStore()
{
    int fired = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        QTemporaryDir persona;
        RecoveryStore store(persona.path());
        QVERIFY(store.store(1, "first copy", "abc").ok());
        arm(k);
        const Status status = store.store(1, "second copy", "abc");
        const bool hit = fileio::clearFault();
        QCOMPARE(leftovers(store.storePath()), QStringList());
        const QList<RecoveredSlot> pending = store.pending();
        QCOMPARE(pending.size(), 1);
        if (!hit || test::rowOnlyWarns()) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            QCOMPARE(status.warning(), QString());
            QCOMPARE(pending.first().bytes, QByteArray("second copy"));
            QVERIFY(store.clear().ok());
            if (!hit) {
                QVERIFY(test::madeOnly(test::RenameCalls));
                break;
            }
            ++fired;
            continue;
        }
        ++fired;
        QVERIFY(!status.ok());
        QCOMPARE(pending.first().bytes, QByteArray("first copy"));
        QVERIFY(saysWhy(status.error(), store.storePath()));
        QVERIFY(store.clear().ok());
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

// Two faults: the in-place write of a file with two names fails at its
// fsync, and putting the old bytes back fails too, at the call of the row's
// kind. The backup then stays, holds the old bytes exactly, and the
// sentence names it.
void tst_WriteFaults::hardLinkRestoreFails_data()
{
    QTest::addColumn<int>("op");
    for (test::Call call : {test::Call::Open,
                            test::Call::Write,
                            test::Call::Truncate,
                            test::Call::Sync,
                            test::Call::Close}) {
        const test::CallFault fault = test::callFault(call);
        QTest::addRow("restore's %s fails", fault.name) << int(fault.op);
    }
}

void tst_WriteFaults::hardLinkRestoreFails()
{
    QFETCH(int, op);
    const QByteArray old(30000, 'o');
    const QByteArray fresh(20000, 'n');
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("SOUL.md"));
    const QString other = dir.filePath(QStringLiteral("soul-copy.md"));
    const auto setUp = [&] {
        return writeFile(file, old) && !QFile::exists(other)
               && ::link(QFile::encodeName(file).constData(), QFile::encodeName(other).constData())
                      == 0;
    };
    // The backup's fsync is the 1st, the new bytes' the 2nd.
    constexpr int NewBytesSync = 2;

    // Once with the first fault alone: the restore works, and its call of
    // the row's kind is the last one of that kind.
    QVERIFY(setUp());
    fileio::injectFault(fileio::Op::Sync, NewBytesSync, EIO);
    const Status restored = saveSlotFile(file, fresh);
    QVERIFY(fileio::clearFault());
    QVERIFY(!restored.ok());
    QCOMPARE(contentOf(file), old);
    QCOMPARE(leftovers(dir.path()), QStringList());
    const int restoreCall = fileio::callCount(fileio::Op(op));
    QVERIFY(restoreCall > 0);
    QVERIFY(QFile::remove(other));

    QVERIFY(setUp());
    fileio::injectFault(fileio::Op::Sync, NewBytesSync, EIO);
    fileio::injectSecondFault(fileio::Op(op), restoreCall, EIO);
    const Status status = saveSlotFile(file, fresh);
    fileio::clearFault();
    QCOMPARE(fileio::hits(0), 1);
    QCOMPARE(fileio::hits(1), 1);
    QVERIFY(!status.ok());
    const QStringList kept = leftovers(dir.path());
    QCOMPARE(kept.size(), 1);
    QVERIFY2(kept.first().endsWith(QLatin1String(".bak")), qPrintable(kept.first()));
    const QString backup = dir.filePath(kept.first());
    QCOMPARE(contentOf(backup), old);
    QCOMPARE(linkCount(file), 2);
    QVERIFY2(status.error().contains(file) && status.error().contains(cureFor(EIO))
                 && status.error().contains(backup)
                 && status.error().contains(QLatin1String("could not be put back")),
             qPrintable(status.error()));
    // The file is not as it was, so the sentence must not say it is.
    QVERIFY2(!status.error().contains(QLatin1String("unchanged")), qPrintable(status.error()));
}

// Two faults: an export over an old pair writes the soul, fails at the
// manifest's rename, and putting the old soul back fails too, at the call of
// the row's kind. The sentence then says that the soul file holds the new
// soul; the manifest is the old one, and nothing temporary is left.
void tst_WriteFaults::exportRestoreFails_data()
{
    QTest::addColumn<int>("op");
    for (test::Call call : {test::Call::Open,
                            test::Call::Write,
                            test::Call::Sync,
                            test::Call::Close,
                            test::Call::Rename}) {
        const test::CallFault fault = test::callFault(call);
        QTest::addRow("restore's %s fails", fault.name) << int(fault.op);
    }
}

void tst_WriteFaults::exportRestoreFails()
{
    QFETCH(int, op);
    QTemporaryDir persona;
    QVERIFY(writeFile(slotPath(persona.path(), 1), "You are Kip.\n"));
    const Result<Snapshot> snapshot = takeSnapshot(persona.path());
    QVERIFY2(snapshot.ok(), qPrintable(snapshot.error()));
    QTemporaryDir out;
    const QString soulPath = out.filePath(QStringLiteral("ava.md"));
    const QString manifestPath = manifestPathFor(soulPath);
    const auto setUp = [&] {
        return writeFile(soulPath, "old soul") && writeFile(manifestPath, "old manifest");
    };
    // The soul's rename is the 1st, the manifest's the 2nd.
    constexpr int ManifestRename = 2;

    // Once with the first fault alone: the old soul goes back, and the call
    // of the row's kind that does it is the last one of that kind.
    QVERIFY(setUp());
    fileio::injectFault(fileio::Op::Rename, ManifestRename, ENOSPC);
    const Status restored = writeSnapshot(*snapshot, soulPath, true);
    QVERIFY(fileio::clearFault());
    QVERIFY(!restored.ok());
    QCOMPARE(contentOf(soulPath), QByteArray("old soul"));
    const int restoreCall = fileio::callCount(fileio::Op(op));
    QVERIFY(restoreCall > 0);

    QVERIFY(setUp());
    fileio::injectFault(fileio::Op::Rename, ManifestRename, ENOSPC);
    fileio::injectSecondFault(fileio::Op(op), restoreCall, EIO);
    const Status status = writeSnapshot(*snapshot, soulPath, true);
    fileio::clearFault();
    QCOMPARE(fileio::hits(0), 1);
    QCOMPARE(fileio::hits(1), 1);
    QVERIFY(!status.ok());
    QCOMPARE(leftovers(out.path()), QStringList());
    QCOMPARE(contentOf(soulPath), snapshot->soul());
    QCOMPARE(contentOf(manifestPath), QByteArray("old manifest"));
    QVERIFY2(status.error().contains(manifestPath) && status.error().contains(cureFor(ENOSPC))
                 && status.error().contains(soulPath + QLatin1String(" already holds the new soul")),
             qPrintable(status.error()));
}

// "Never overwrite": a file another program creates at the target after
// every look at it, just before the rename (fileio's hook), is kept byte for
// byte, and the user is told which file stopped the write. Also where the
// file system refuses RENAME_NOREPLACE and link() stands in for it.
enum class NoReplaceWrite { Freeze, SaveAllTo, Export, NewSlotFile };

void tst_WriteFaults::neverOverwrite_data()
{
    QTest::addColumn<NoReplaceWrite>("write");
    QTest::addColumn<int>("racedRename"); // which of the write's renames meets the other file
    QTest::addColumn<bool>("fallback");
    const struct
    {
        const char *name;
        NoReplaceWrite write;
        int racedRename;
    } writes[] = {{"freeze, soul", NoReplaceWrite::Freeze, 1},
                  {"freeze, manifest", NoReplaceWrite::Freeze, 2},
                  {"save all elsewhere, first file", NoReplaceWrite::SaveAllTo, 1},
                  {"save all elsewhere, second file", NoReplaceWrite::SaveAllTo, 2},
                  {"export, soul", NoReplaceWrite::Export, 1},
                  {"export, manifest", NoReplaceWrite::Export, 2},
                  {"new slot file", NoReplaceWrite::NewSlotFile, 1}};
    for (const auto &write : writes) {
        for (const bool fallback : {false, true}) {
            QTest::addRow("%s%s", write.name, fallback ? ", link() fallback" : "")
                << write.write << write.racedRename << fallback;
        }
    }
}

void tst_WriteFaults::neverOverwrite()
{
    QFETCH(NoReplaceWrite, write);
    QFETCH(int, racedRename);
    QFETCH(bool, fallback);
    const QByteArray theirs("another program's file\n");
    QString raced;
    int renames = 0;
    fileio::setBeforeNoReplaceRename([&](const char *to) {
        if (++renames == racedRename) {
            raced = QFile::decodeName(to);
            QVERIFY(writeFile(raced, theirs));
        }
    });
    if (fallback) {
        // The file system refuses the flag at that rename.
        fileio::injectFault(fileio::Op::Rename, racedRename, EINVAL);
    }

    QTemporaryDir persona;
    QVERIFY(writeFile(slotPath(persona.path(), 1), "You are Kip.\n"));
    QVERIFY(writeFile(slotPath(persona.path(), 3), "The user.\n"));
    QTemporaryDir out;
    QString folder = out.path();
    QString error;
    QString survivor; // a file this write put there before the race, kept
    switch (write) {
    case NoReplaceWrite::Freeze: {
        const Result<QString> frozen = freezeSnapshot(persona.path(), out.path());
        QVERIFY(!frozen.ok());
        error = frozen.error();
        break;
    }
    case NoReplaceWrite::SaveAllTo: {
        PersonaModel model;
        QVERIFY(model.open(persona.path()).ok());
        model.setBufferText(1, u"new soul\n");
        folder = out.filePath(QStringLiteral("persona"));
        const Status saved = model.saveAllTo(folder);
        QVERIFY(!saved.ok());
        error = saved.error();
        QCOMPARE(model.directory(), QFileInfo(persona.path()).absoluteFilePath());
        QVERIFY(model.slot(1).dirty);
        if (racedRename == 2) {
            survivor = slotPath(folder, 1);
            QCOMPARE(contentOf(survivor), QByteArray("new soul\n"));
        }
        break;
    }
    case NoReplaceWrite::Export: {
        const Result<Snapshot> snapshot = takeSnapshot(persona.path());
        QVERIFY2(snapshot.ok(), qPrintable(snapshot.error()));
        const Status written = writeSnapshot(*snapshot,
                                             out.filePath(QStringLiteral("ava.soul.md")),
                                             false);
        QVERIFY(!written.ok());
        error = written.error();
        break;
    }
    case NoReplaceWrite::NewSlotFile: {
        const Status saved = saveSlotFile(out.filePath(QStringLiteral("SOUL.md")),
                                          "template\n",
                                          Overwrite::Never);
        QVERIFY(!saved.ok());
        error = saved.error();
        break;
    }
    }
    fileio::clearFault();
    QVERIFY(!raced.isEmpty());
    QCOMPARE(contentOf(raced), theirs);
    QVERIFY2(error.contains(raced) && error.contains(QLatin1String("left as it is")),
             qPrintable(error));
    QCOMPARE(leftovers(folder), QStringList());
    if (fallback) {
        QCOMPARE(fileio::hits(0), 1);
        QCOMPARE(fileio::callCount(fileio::Op::Link), 1);
    }
    // Nothing else of this write is left, but a file it finished before the
    // race where nothing was (a soul without its manifest goes).
    QStringList expected{QFileInfo(raced).fileName()};
    if (!survivor.isEmpty())
        expected.append(QFileInfo(survivor).fileName());
    expected.sort();
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name),
             expected);
}

// Where the file system refuses RENAME_NOREPLACE, link() and unlink() make
// the file, and the temporary name goes.
void tst_WriteFaults::linkFallbackCreates()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("SOUL.md"));
    fileio::injectFault(fileio::Op::Rename, 1, ENOSYS);
    const Status status = saveSlotFile(file, "template\n", Overwrite::Never);
    QVERIFY(fileio::clearFault());
    QVERIFY2(status.ok(), qPrintable(status.error()));
    QCOMPARE(fileio::callCount(fileio::Op::Link), 1);
    QCOMPARE(contentOf(file), QByteArray("template\n"));
    QCOMPARE(linkCount(file), 1);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("SOUL.md")});
}

// The link() that stands in for a refused RENAME_NOREPLACE, failing: nothing
// is created, nothing temporary is left, and the sentence says why.
void tst_WriteFaults::linkFallback()
{
    int fired = 0;
    for (int k = 1;; ++k) {
        QVERIFY(k <= MaxCalls);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("SOUL.md"));
        arm(k);
        fileio::injectSecondFault(fileio::Op::Rename, 1, EINVAL);
        const Status status = saveSlotFile(file, "template\n", Overwrite::Never);
        const bool hit = fileio::clearFault();
        QCOMPARE(fileio::hits(1), 1);
        QCOMPARE(leftovers(dir.path()), QStringList());
        if (!hit) {
            QVERIFY2(status.ok(), qPrintable(status.error()));
            QCOMPARE(contentOf(file), QByteArray("template\n"));
            break;
        }
        ++fired;
        QVERIFY(!status.ok());
        QCOMPARE(contentOf(file), QByteArray("<absent>"));
        QVERIFY(saysWhy(status.error(), file));
    }
    QVERIFY2(fired > 0, "the row's call never failed: it does not go through fileio");
}

// A file system with neither RENAME_NOREPLACE nor hard links: the write
// fails rather than risk replacing a file, and says to save elsewhere.
void tst_WriteFaults::linkFallbackWithoutHardLinks()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("SOUL.md"));
    fileio::injectFault(fileio::Op::Rename, 1, EINVAL);
    fileio::injectSecondFault(fileio::Op::Link, 1, EPERM);
    const Status status = saveSlotFile(file, "template\n", Overwrite::Never);
    fileio::clearFault();
    QCOMPARE(fileio::hits(0), 1);
    QCOMPARE(fileio::hits(1), 1);
    QVERIFY(!status.ok());
    QCOMPARE(contentOf(file), QByteArray("<absent>"));
    QCOMPARE(leftovers(dir.path()), QStringList());
    QVERIFY2(status.error().contains(file)
                 && status.error().contains(QLatin1String("save to another place")),
             qPrintable(status.error()));
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
