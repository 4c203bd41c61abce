#include "compose/composer.h"
#include "compose/contract.h"
#include "disk/composedirectory.h"
#include "disk/slotreader.h"
#include "testfiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

using namespace soul;
using namespace soul::test;

namespace {

bool makeFifo(const QString &path)
{
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

} // namespace

class tst_SlotReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void missing();
    void regular();
    void emptyFile();
    void symlinkToRegular();
    void relativeSymlink();
    void danglingSymlink();
    void symlinkLoop();
    void directoryNamedLikeSlot();
    void symlinkToDirectory();
    void fifoIsAbsentAndDoesNotBlock();
    void fifoWithWriterDoesNotBlock();
    void symlinkToFifo();
    void characterDevice();
    void socketIsAbsent();
    void regularFileWithoutSizeHint();
    void unreadableFile();
    void lookupErrorIsUnreadable();
    void slotPathInNonAsciiDirectory();
    void caseVariantsAreNotSlots();

    void limits_data();
    void limits();
    void sparseGigabyteReadsOnlyCapPlusOne();
    void sha256StreamsWholeFile();
    void sha256OfSmallAndEmptyFiles();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString path(const QString &name) const { return QDir(m_dir->path()).filePath(name); }
};

void tst_SlotReader::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_SlotReader::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_SlotReader::missing()
{
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotRead read = readSlot(m_dir->path(), slot, CapBytes + 1);
        QCOMPARE(read.presence, SlotPresence::Missing);
        QCOMPARE(read.slot, slot);
        QCOMPARE(read.path, path(slotName(slot)));
        QVERIFY(read.bytes.isEmpty());
        QVERIFY(absenceReason(read).isEmpty());
    }
    // A directory that is not there: every slot is missing.
    const SlotRead read = readSlot(path(QStringLiteral("nowhere")), 1, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Missing);
    // A path through a regular file (ENOTDIR) is missing too.
    QVERIFY(writeFile(path(QStringLiteral("plain")), "x"));
    QCOMPARE(readSlot(path(QStringLiteral("plain")), 1, 10).presence, SlotPresence::Missing);
}

void tst_SlotReader::regular()
{
    QVERIFY(writeSlot(m_dir->path(), 1, "You are Kip.\n"));
    const SlotRead read = readSlot(m_dir->path(), 1, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Present);
    QCOMPARE(read.bytes, QByteArray("You are Kip.\n"));
    QCOMPARE(read.size, qint64(13));
    QVERIFY(read.complete);
    QVERIFY(!read.isSymlink);
    QVERIFY(read.sha256.isEmpty()); // not asked for
    QVERIFY(absenceReason(read).isEmpty());
    QCOMPARE(slotPath(m_dir->path(), 1), path(QStringLiteral("SOUL.md")));
}

void tst_SlotReader::emptyFile()
{
    QVERIFY(writeSlot(m_dir->path(), 3, {}));
    const SlotRead read = readSlot(m_dir->path(), 3, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Present);
    QVERIFY(read.bytes.isEmpty());
    QCOMPARE(read.size, qint64(0));
    QVERIFY(read.complete);
    QCOMPARE(composeDirectory(m_dir->path()).soul, QByteArray("## USER.md\n\n"));
}

void tst_SlotReader::symlinkToRegular()
{
    QVERIFY(writeFile(path(QStringLiteral("real-soul.txt")), "linked body"));
    QVERIFY(QFile::link(path(QStringLiteral("real-soul.txt")), path(QStringLiteral("SOUL.md"))));
    const SlotRead read = readSlot(m_dir->path(), 1, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Present);
    QVERIFY(read.isSymlink);
    QCOMPARE(read.bytes, QByteArray("linked body"));
    QCOMPARE(read.size, qint64(11));
    QCOMPARE(composeDirectory(m_dir->path()).soul, QByteArray("## SOUL.md\n\nlinked body"));
}

void tst_SlotReader::relativeSymlink()
{
    QVERIFY(QDir(m_dir->path()).mkpath(QStringLiteral("shared")));
    QVERIFY(writeFile(path(QStringLiteral("shared/tools.md")), "grep"));
    QVERIFY(::symlink("shared/tools.md",
                      QFile::encodeName(path(QStringLiteral("TOOLS.md"))).constData())
            == 0);
    const SlotRead read = readSlot(m_dir->path(), 4, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Present);
    QVERIFY(read.isSymlink);
    QCOMPARE(read.bytes, QByteArray("grep"));
}

void tst_SlotReader::danglingSymlink()
{
    QVERIFY(QFile::link(path(QStringLiteral("gone.md")), path(QStringLiteral("MEMORY.md"))));
    const SlotRead read = readSlot(m_dir->path(), 6, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::DanglingLink);
    QVERIFY(read.isSymlink);
    QVERIFY(read.bytes.isEmpty());
    QCOMPARE(absenceReason(read), QStringLiteral("is a dangling symbolic link"));
    const Composition c = composeDirectory(m_dir->path());
    QVERIFY(c.soul.isEmpty());
    QVERIFY(c.found.isEmpty());
}

void tst_SlotReader::symlinkLoop()
{
    QVERIFY(QFile::link(path(QStringLiteral("USER.md")), path(QStringLiteral("loop.md"))));
    QVERIFY(QFile::link(path(QStringLiteral("loop.md")), path(QStringLiteral("USER.md"))));
    QVERIFY(::symlink("AGENTS.md", QFile::encodeName(path(QStringLiteral("AGENTS.md"))).constData())
            == 0);
    for (const int slot : {0, 3}) {
        const SlotRead read = readSlot(m_dir->path(), slot, CapBytes + 1);
        QVERIFY(read.presence != SlotPresence::Present);
        QCOMPARE(read.presence, SlotPresence::DanglingLink);
        QVERIFY(read.isSymlink);
    }
    QVERIFY(writeSlot(m_dir->path(), 1, "x"));
    QCOMPARE(composeDirectory(m_dir->path()).found, QStringList{QStringLiteral("SOUL.md")});
}

void tst_SlotReader::directoryNamedLikeSlot()
{
    QVERIFY(QDir(m_dir->path()).mkpath(QStringLiteral("IDENTITY.md")));
    QVERIFY(writeFile(path(QStringLiteral("IDENTITY.md/inner.md")), "inside"));
    const SlotRead read = readSlot(m_dir->path(), 2, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Directory);
    QVERIFY(!read.isSymlink);
    QCOMPARE(absenceReason(read), QStringLiteral("is a directory"));
    QVERIFY(composeDirectory(m_dir->path()).soul.isEmpty());
}

void tst_SlotReader::symlinkToDirectory()
{
    QVERIFY(QDir(m_dir->path()).mkpath(QStringLiteral("elsewhere")));
    QVERIFY(QFile::link(path(QStringLiteral("elsewhere")), path(QStringLiteral("AGENTS.md"))));
    const SlotRead read = readSlot(m_dir->path(), 0, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Directory);
    QVERIFY(read.isSymlink);
}

// The reader must never open a FIFO for reading: with no writer, a blocking
// open would hang forever. This test just returns.
void tst_SlotReader::fifoIsAbsentAndDoesNotBlock()
{
    QVERIFY(makeFifo(path(QStringLiteral("HEARTBEAT.md"))));
    const SlotRead read = readSlot(m_dir->path(), 5, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::NotRegularFile);
    QCOMPARE(read.kindText, QStringLiteral("a FIFO"));
    QVERIFY(read.bytes.isEmpty());
    QVERIFY(absenceReason(read).contains(QLatin1String("FIFO")));

    ReadOptions options(ComposeRule::toolnexus().readLimit());
    options.sha256 = true;
    QCOMPARE(readSlot(m_dir->path(), 5, options).presence, SlotPresence::NotRegularFile);

    QVERIFY(writeSlot(m_dir->path(), 6, "notes"));
    const Composition c = composeDirectory(m_dir->path());
    QCOMPARE(c.found, QStringList{QStringLiteral("MEMORY.md")});
    QCOMPARE(c.soul, QByteArray("## MEMORY.md\n\nnotes"));
}

// A writer that keeps the FIFO open without writing must not make the reader
// wait for data either.
void tst_SlotReader::fifoWithWriterDoesNotBlock()
{
    const QString fifo = path(QStringLiteral("SOUL.md"));
    QVERIFY(makeFifo(fifo));
    // O_RDWR on a FIFO opens at once on Linux and counts as a writer.
    const int holder = ::open(QFile::encodeName(fifo).constData(), O_RDWR | O_NONBLOCK);
    QVERIFY(holder >= 0);
    const SlotRead read = readSlot(m_dir->path(), 1, CapBytes + 1);
    ::close(holder);
    QCOMPARE(read.presence, SlotPresence::NotRegularFile);
}

void tst_SlotReader::symlinkToFifo()
{
    QVERIFY(makeFifo(path(QStringLiteral("pipe"))));
    QVERIFY(QFile::link(path(QStringLiteral("pipe")), path(QStringLiteral("TOOLS.md"))));
    const SlotRead read = readSlot(m_dir->path(), 4, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::NotRegularFile);
    QVERIFY(read.isSymlink);
    QVERIFY(composeDirectory(m_dir->path()).soul.isEmpty());
}

void tst_SlotReader::characterDevice()
{
    if (!QFileInfo::exists(QStringLiteral("/dev/null")))
        QSKIP("no /dev/null here");
    QVERIFY(QFile::link(QStringLiteral("/dev/null"), path(QStringLiteral("USER.md"))));
    const SlotRead read = readSlot(m_dir->path(), 3, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::NotRegularFile);
    QCOMPARE(read.kindText, QStringLiteral("a character device"));
    QCOMPARE(absenceReason(read), QStringLiteral("is a character device, not a regular file"));
}

void tst_SlotReader::socketIsAbsent()
{
    const QByteArray native = QFile::encodeName(path(QStringLiteral("AGENTS.md")));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (size_t(native.size()) >= sizeof address.sun_path)
        QSKIP("temporary path too long for a Unix socket");
    std::memcpy(address.sun_path, native.constData(), size_t(native.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    const int bound = ::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address);
    ::close(fd);
    QCOMPARE(bound, 0);
    const SlotRead read = readSlot(m_dir->path(), 0, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::NotRegularFile);
    QCOMPARE(read.kindText, QStringLiteral("a socket"));
    QVERIFY(composeDirectory(m_dir->path()).soul.isEmpty());
}

// Files in /proc are regular but report a size of 0: the size is only a hint.
void tst_SlotReader::regularFileWithoutSizeHint()
{
    const QString source = QStringLiteral("/proc/self/status");
    const QFileInfo info(source);
    if (!info.exists() || !info.isFile() || info.size() != 0)
        QSKIP("no /proc file with a zero size here");
    QVERIFY(QFile::link(source, path(QStringLiteral("MEMORY.md"))));
    const SlotRead read = readSlot(m_dir->path(), 6, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Present);
    QVERIFY(read.complete);
    QVERIFY(read.bytes.contains("Name:"));
    QCOMPARE(read.size, qint64(read.bytes.size()));

    // Cut short, the size still says that more follows.
    ReadOptions options(ComposeRule::toolnexus().readLimit());
    options.limit = 10;
    const SlotRead cut = readPath(source, options);
    QCOMPARE(cut.presence, SlotPresence::Present);
    QCOMPARE(cut.bytes.size(), qsizetype(10));
    QVERIFY(!cut.complete);
    QVERIFY2(cut.size > 10, qPrintable(QString::number(cut.size)));
}

void tst_SlotReader::unreadableFile()
{
    if (::geteuid() == 0)
        QSKIP("root reads a file whatever its mode");
    QVERIFY(writeSlot(m_dir->path(), 3, "secret"));
    QVERIFY(::chmod(QFile::encodeName(path(QStringLiteral("USER.md"))).constData(), 0) == 0);
    const SlotRead read = readSlot(m_dir->path(), 3, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Unreadable);
    QVERIFY(!read.errorText.isEmpty());
    QVERIFY(read.bytes.isEmpty());
    QVERIFY(absenceReason(read).startsWith(QLatin1String("cannot be read (")));
    QVERIFY(composeDirectory(m_dir->path()).soul.isEmpty());
    ::chmod(QFile::encodeName(path(QStringLiteral("USER.md"))).constData(), 0600);
}

// Works as root too: a name longer than the file system allows fails lstat()
// with ENAMETOOLONG, which is neither "missing" nor present.
void tst_SlotReader::lookupErrorIsUnreadable()
{
    const QString dir = path(QString(300, QLatin1Char('d')));
    const SlotRead read = readSlot(dir, 1, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Unreadable);
    QVERIFY(!read.errorText.isEmpty());
    QCOMPARE(absenceReason(read), QStringLiteral("cannot be read (%1)").arg(read.errorText));
    QVERIFY(composeDirectory(dir).soul.isEmpty());
}

void tst_SlotReader::slotPathInNonAsciiDirectory()
{
    const QString dir = path(QStringLiteral("persönlich 人格"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeSlot(dir, 2, "Name: Émile"));
    const SlotRead read = readSlot(dir, 2, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Present);
    QCOMPARE(read.bytes, QByteArray("Name: Émile"));
    QCOMPARE(composeDirectory(dir).found, QStringList{QStringLiteral("IDENTITY.md")});
}

void tst_SlotReader::caseVariantsAreNotSlots()
{
    QVERIFY(writeFile(path(QStringLiteral("soul.md")), "lower"));
    QVERIFY(writeFile(path(QStringLiteral("SOUL.MD")), "upper"));
    QVERIFY(writeFile(path(QStringLiteral("Agents.md")), "mixed"));
    QCOMPARE(readSlot(m_dir->path(), 1, CapBytes + 1).presence, SlotPresence::Missing);
    QCOMPARE(readSlot(m_dir->path(), 0, CapBytes + 1).presence, SlotPresence::Missing);
    const Composition c = composeDirectory(m_dir->path());
    QVERIFY(c.soul.isEmpty());
    QVERIFY(c.found.isEmpty());

    QVERIFY(writeSlot(m_dir->path(), 1, "real"));
    QCOMPARE(composeDirectory(m_dir->path()).soul, QByteArray("## SOUL.md\n\nreal"));
}

void tst_SlotReader::limits_data()
{
    QTest::addColumn<int>("fileSize");
    QTest::addColumn<qint64>("limit");
    QTest::addColumn<int>("kept");
    QTest::addColumn<bool>("complete");

    QTest::newRow("smaller than the limit") << 10 << qint64(20) << 10 << true;
    QTest::newRow("exactly the limit") << 20 << qint64(20) << 20 << true;
    QTest::newRow("one over the limit") << 21 << qint64(20) << 20 << false;
    QTest::newRow("limit zero, empty file") << 0 << qint64(0) << 0 << true;
    QTest::newRow("limit zero, one byte") << 1 << qint64(0) << 0 << false;
    QTest::newRow("negative limit") << 5 << qint64(-1) << 0 << false;
    QTest::newRow("cap bytes") << int(CapBytes) << CapBytes + 1 << int(CapBytes) << true;
    QTest::newRow("cap + 1 bytes")
        << int(CapBytes + 1) << CapBytes + 1 << int(CapBytes + 1) << true;
    QTest::newRow("cap + 2 bytes")
        << int(CapBytes + 2) << CapBytes + 1 << int(CapBytes + 1) << false;
    QTest::newRow("over a read chunk")
        << (3 << 20) + 7 << qint64((1 << 20) + 3) << (1 << 20) + 3 << false;
}

void tst_SlotReader::limits()
{
    QFETCH(int, fileSize);
    QFETCH(qint64, limit);
    QFETCH(int, kept);
    QFETCH(bool, complete);

    QByteArray content(fileSize, Qt::Uninitialized);
    for (int i = 0; i < fileSize; ++i)
        content[i] = char('a' + i % 26);
    QVERIFY(writeSlot(m_dir->path(), 6, content));
    const SlotRead read = readSlot(m_dir->path(), 6, limit);
    QCOMPARE(read.presence, SlotPresence::Present);
    QCOMPARE(read.bytes.size(), qsizetype(kept));
    QVERIFY(read.bytes == content.left(kept));
    QCOMPARE(read.complete, complete);
    QCOMPARE(read.size, qint64(fileSize));

    ReadOptions options(ComposeRule::toolnexus().readLimit());
    options.limit = limit;
    options.sha256 = true;
    const SlotRead hashed = readSlot(m_dir->path(), 6, options);
    QVERIFY(hashed.bytes == read.bytes);
    QCOMPARE(hashed.complete, complete);
    QCOMPARE(hashed.size, qint64(fileSize));
    QCOMPARE(hashed.sha256, QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
}

// A 1 GiB file with no data blocks: composing it must keep CapBytes + 1
// bytes and read not much more, never the whole file.
void tst_SlotReader::sparseGigabyteReadsOnlyCapPlusOne()
{
    constexpr qint64 GiB = qint64(1) << 30;
    {
        QFile file(path(QStringLiteral("TOOLS.md")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        if (!file.resize(GiB))
            QSKIP("this file system cannot make a sparse 1 GiB file");
    }
    const qint64 before = test::bytesReadSoFar();
    const SlotRead read = readSlot(m_dir->path(), 4, CapBytes + 1);
    QCOMPARE(read.presence, SlotPresence::Present);
    QCOMPARE(read.bytes.size(), qsizetype(CapBytes + 1));
    QVERIFY(!read.complete);
    QCOMPARE(read.size, GiB);

    const Composition c = composeDirectory(m_dir->path());
    const qint64 after = test::bytesReadSoFar();
    QVERIFY(c.truncated[4]);
    // NUL is not white space: the body is CapBytes NULs and the notice.
    QCOMPARE(c.soul.size(), head(4).size() + CapBytes + TruncationNoticeBytes);
    QVERIFY(c.soul.endsWith(notice()));
    if (before >= 0 && after >= 0) {
        // Two reads of the slot, each of about CapBytes + 1 bytes.
        QVERIFY2(after - before < 4 * (CapBytes + 2),
                 qPrintable(QStringLiteral("read %1 bytes").arg(after - before)));
    }
}

void tst_SlotReader::sha256StreamsWholeFile()
{
    QRandomGenerator random(20260101);
    QByteArray content((5 << 20) + 12345, Qt::Uninitialized);
    random.fillRange(reinterpret_cast<quint32 *>(content.data()), content.size() / 4);
    QVERIFY(writeSlot(m_dir->path(), 0, content));

    ReadOptions options(ComposeRule::toolnexus().readLimit());
    options.sha256 = true;
    const SlotRead read = readSlot(m_dir->path(), 0, options);
    QCOMPARE(read.presence, SlotPresence::Present);
    QCOMPARE(read.sha256, QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
    QCOMPARE(read.size, qint64(content.size()));
    QCOMPARE(read.bytes.size(), qsizetype(CapBytes + 1));
    QVERIFY(read.bytes == content.left(CapBytes + 1));
    QVERIFY(!read.complete);

    // readPath gives the same for the same file.
    const SlotRead byPath = readPath(path(QStringLiteral("AGENTS.md")), options);
    QCOMPARE(byPath.sha256, read.sha256);
    QCOMPARE(byPath.slot, -1);
}

void tst_SlotReader::sha256OfSmallAndEmptyFiles()
{
    ReadOptions options(ComposeRule::toolnexus().readLimit());
    options.sha256 = true;
    QVERIFY(writeSlot(m_dir->path(), 1, {}));
    QCOMPARE(readSlot(m_dir->path(), 1, options).sha256,
             QByteArray("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QVERIFY(writeSlot(m_dir->path(), 2, "abc"));
    const SlotRead read = readSlot(m_dir->path(), 2, options);
    QCOMPARE(read.sha256,
             QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QVERIFY(read.complete);
    QCOMPARE(read.size, qint64(3));
}

QTEST_GUILESS_MAIN(tst_SlotReader)

#include "tst_slotreader.moc"
