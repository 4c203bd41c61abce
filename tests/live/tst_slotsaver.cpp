#include "disk/slotsaver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace soul;

namespace {

QByteArray contentOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArrayLiteral("<unreadable>");
    return file.readAll();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

mode_t modeOf(const QString &path)
{
    struct stat info
    {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return 0;
    return info.st_mode & 07777;
}

bool isLink(const QString &path)
{
    struct stat info
    {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISLNK(info.st_mode);
}

bool makeLink(const QString &target, const QString &link)
{
    return ::symlink(QFile::encodeName(target).constData(), QFile::encodeName(link).constData())
           == 0;
}

// Names in `dir` other than `expected`: a failed save must leave no temporary.
QStringList strayEntries(const QString &dir, const QStringList &expected)
{
    QStringList names = QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                            | QDir::NoDotAndDotDot);
    for (const QString &name : expected)
        names.removeAll(name);
    return names;
}

class UmaskScope
{
public:
    explicit UmaskScope(mode_t mask)
        : m_old(::umask(mask))
    {}
    ~UmaskScope() { ::umask(m_old); }
    UmaskScope(const UmaskScope &) = delete;
    UmaskScope &operator=(const UmaskScope &) = delete;

private:
    mode_t m_old = 022;
};

// A file size limit (RLIMIT_FSIZE) for this process, with SIGXFSZ ignored so
// that write() past it fails with EFBIG instead of killing the test; the
// old limit and handler come back when it goes out of scope.
class FileSizeLimit
{
public:
    explicit FileSizeLimit(rlim_t bytes)
        : m_oldHandler(std::signal(SIGXFSZ, SIG_IGN))
    {
        if (::getrlimit(RLIMIT_FSIZE, &m_saved) != 0)
            return;
        struct rlimit small = m_saved;
        small.rlim_cur = bytes;
        m_active = ::setrlimit(RLIMIT_FSIZE, &small) == 0;
    }
    ~FileSizeLimit()
    {
        if (m_active)
            ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

    bool active() const { return m_active; }

private:
    struct rlimit m_saved
    {};
    void (*m_oldHandler)(int) = SIG_DFL;
    bool m_active = false;
};

} // namespace

class tst_SlotSaver : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void writesExactBytes_data();
    void writesExactBytes();
    void keepsPermissions_data();
    void keepsPermissions();
    void newFileGetsDefaultPermissions();
    void writesThroughLinks_data();
    void writesThroughLinks();
    void danglingLinkCreatesTarget();
    void danglingLinkIntoMissingFolderFails();
    void linkLoopFails();
    void parentIsAFileFails();
    void missingFolderFails();
    void notARegularFileFails();
    void neverOverwriteKeepsWhatIsThere_data();
    void neverOverwriteKeepsWhatIsThere();
    void readOnlyFolderFails();
    void readOnlyFileFails();
    void fullDiskKeepsOldFile();
    void qSaveFileShortWriteIsNoError();

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString path(const QString &name) const { return m_tmp->filePath(name); }
};

void tst_SlotSaver::init()
{
    m_tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(m_tmp->isValid());
}

void tst_SlotSaver::writesExactBytes_data()
{
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("new empty") << QByteArray() << QByteArray();
    QTest::newRow("replace with empty") << QByteArray("old") << QByteArray();
    QTest::newRow("crlf and bom") << QByteArray("x")
                                  << QByteArray("\xEF\xBB\xBF"
                                                "a\r\nb\r\n");
    QTest::newRow("binary") << QByteArray("x") << QByteArray("\0\xFF\xFE\r\r\n\0", 7);
    QTest::newRow("shorter") << QByteArray(5000, 'a') << QByteArray("b");
    QTest::newRow("3 MiB") << QByteArray("x") << QByteArray(3 * 1024 * 1024, 'z');
}

void tst_SlotSaver::writesExactBytes()
{
    QFETCH(QByteArray, before);
    QFETCH(QByteArray, bytes);
    const QString file = path(QStringLiteral("SOUL.md"));
    if (!before.isEmpty())
        QVERIFY(writeFile(file, before));

    const Status status = saveSlotFile(file, bytes);
    QVERIFY2(status.ok(), qPrintable(status.error()));
    QCOMPARE(contentOf(file), bytes);
    QCOMPARE(strayEntries(m_tmp->path(), {QStringLiteral("SOUL.md")}), QStringList());
}

void tst_SlotSaver::keepsPermissions_data()
{
    QTest::addColumn<int>("mode");
    QTest::newRow("0600") << 0600;
    QTest::newRow("0640") << 0640;
    QTest::newRow("0755") << 0755;
    QTest::newRow("0664") << 0664;
}

void tst_SlotSaver::keepsPermissions()
{
    QFETCH(int, mode);
    const QString file = path(QStringLiteral("AGENTS.md"));
    QVERIFY(writeFile(file, "old"));
    QCOMPARE(::chmod(QFile::encodeName(file).constData(), mode_t(mode)), 0);

    const UmaskScope umaskScope(077); // the old mode wins over the umask
    QVERIFY(saveSlotFile(file, "new").ok());
    QCOMPARE(contentOf(file), QByteArray("new"));
    QCOMPARE(int(modeOf(file)), mode);
}

void tst_SlotSaver::newFileGetsDefaultPermissions()
{
    {
        const UmaskScope umaskScope(022);
        QVERIFY(saveSlotFile(path(QStringLiteral("a.md")), "x").ok());
        QCOMPARE(int(modeOf(path(QStringLiteral("a.md")))), 0644);
    }
    {
        const UmaskScope umaskScope(027);
        QVERIFY(saveSlotFile(path(QStringLiteral("b.md")), "x").ok());
        QCOMPARE(int(modeOf(path(QStringLiteral("b.md")))), 0640);
    }
}

void tst_SlotSaver::writesThroughLinks_data()
{
    QTest::addColumn<bool>("relative");
    QTest::addColumn<bool>("chain");
    QTest::newRow("relative") << true << false;
    QTest::newRow("absolute") << false << false;
    QTest::newRow("chain of two") << true << true;
}

void tst_SlotSaver::writesThroughLinks()
{
    QFETCH(bool, relative);
    QFETCH(bool, chain);
    QVERIFY(QDir(m_tmp->path()).mkpath(QStringLiteral("shared")));
    const QString target = path(QStringLiteral("shared/soul.txt"));
    QVERIFY(writeFile(target, "old"));
    QCOMPARE(::chmod(QFile::encodeName(target).constData(), 0600), 0);

    const QString link = path(QStringLiteral("SOUL.md"));
    QString pointee = relative ? QStringLiteral("shared/soul.txt") : target;
    if (chain) {
        QVERIFY(makeLink(pointee, path(QStringLiteral("middle"))));
        pointee = QStringLiteral("middle");
    }
    QVERIFY(makeLink(pointee, link));

    const Status status = saveSlotFile(link, "new");
    QVERIFY2(status.ok(), qPrintable(status.error()));
    QVERIFY(isLink(link));
    QCOMPARE(QFile::symLinkTarget(link), chain ? path(QStringLiteral("middle")) : target);
    QCOMPARE(contentOf(target), QByteArray("new"));
    QCOMPARE(int(modeOf(target)), 0600);
}

void tst_SlotSaver::danglingLinkCreatesTarget()
{
    const QString link = path(QStringLiteral("USER.md"));
    QVERIFY(makeLink(QStringLiteral("user-notes.md"), link));
    const Status status = saveSlotFile(link, "hello");
    QVERIFY2(status.ok(), qPrintable(status.error()));
    QVERIFY(isLink(link));
    QCOMPARE(contentOf(path(QStringLiteral("user-notes.md"))), QByteArray("hello"));
}

void tst_SlotSaver::danglingLinkIntoMissingFolderFails()
{
    const QString link = path(QStringLiteral("USER.md"));
    QVERIFY(makeLink(QStringLiteral("gone/user.md"), link));
    const Status status = saveSlotFile(link, "hello");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(link), qPrintable(status.error()));
    QVERIFY2(status.error().contains(QStringLiteral("does not exist")), qPrintable(status.error()));
    QVERIFY(isLink(link));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("gone"))));
}

void tst_SlotSaver::linkLoopFails()
{
    const QString a = path(QStringLiteral("TOOLS.md"));
    QVERIFY(makeLink(QStringLiteral("other"), a));
    QVERIFY(makeLink(QStringLiteral("TOOLS.md"), path(QStringLiteral("other"))));
    const Status status = saveSlotFile(a, "x");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(a) && status.error().contains(QStringLiteral("loop")),
             qPrintable(status.error()));
    QVERIFY(isLink(a));
    QVERIFY(isLink(path(QStringLiteral("other"))));
}

void tst_SlotSaver::parentIsAFileFails()
{
    QVERIFY(writeFile(path(QStringLiteral("plain")), "I am a file"));
    const QString file = path(QStringLiteral("plain/SOUL.md"));
    const Status status = saveSlotFile(file, "x");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().startsWith(QStringLiteral("Cannot save ") + file),
             qPrintable(status.error()));
    const QString notADirectory = QString::fromLocal8Bit(std::strerror(ENOTDIR));
    QVERIFY2(status.error().contains(notADirectory), qPrintable(status.error()));
    QCOMPARE(contentOf(path(QStringLiteral("plain"))), QByteArray("I am a file"));
}

void tst_SlotSaver::missingFolderFails()
{
    const QString file = path(QStringLiteral("no-such-folder/SOUL.md"));
    const Status status = saveSlotFile(file, "x");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(file), qPrintable(status.error()));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("no-such-folder"))));
}

void tst_SlotSaver::notARegularFileFails()
{
    const QString dir = path(QStringLiteral("MEMORY.md"));
    QVERIFY(QDir(m_tmp->path()).mkdir(QStringLiteral("MEMORY.md")));
    Status status = saveSlotFile(dir, "x");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(QStringLiteral("a folder")), qPrintable(status.error()));
    QVERIFY(QFileInfo(dir).isDir());

    const QString fifo = path(QStringLiteral("HEARTBEAT.md"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    status = saveSlotFile(fifo, "x");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(QStringLiteral("a FIFO")), qPrintable(status.error()));
    struct stat info
    {};
    QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &info), 0);
    QVERIFY(S_ISFIFO(info.st_mode));
}

void tst_SlotSaver::neverOverwriteKeepsWhatIsThere_data()
{
    QTest::addColumn<QString>("what");
    QTest::newRow("file") << QStringLiteral("file");
    QTest::newRow("link to a file") << QStringLiteral("link");
    QTest::newRow("dangling link") << QStringLiteral("dangling");
    QTest::newRow("folder") << QStringLiteral("folder");
}

// Saving into another folder never replaces anything, and never writes
// through a link to somewhere else: whatever is at the path stays as it is.
void tst_SlotSaver::neverOverwriteKeepsWhatIsThere()
{
    QFETCH(QString, what);
    const QString file = path(QStringLiteral("SOUL.md"));
    const QString target = path(QStringLiteral("elsewhere.md"));
    if (what == QLatin1String("file"))
        QVERIFY(writeFile(file, "theirs"));
    if (what == QLatin1String("link")) {
        QVERIFY(writeFile(target, "theirs"));
        QVERIFY(makeLink(target, file));
    }
    if (what == QLatin1String("dangling"))
        QVERIFY(makeLink(target, file));
    if (what == QLatin1String("folder"))
        QVERIFY(QDir(m_tmp->path()).mkdir(QStringLiteral("SOUL.md")));

    const Status status = saveSlotFile(file, "mine", Overwrite::Never);
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(file)
                 && status.error().contains(QLatin1String("left as it is")),
             qPrintable(status.error()));
    QCOMPARE(isLink(file), what == QLatin1String("link") || what == QLatin1String("dangling"));
    if (what == QLatin1String("file"))
        QCOMPARE(contentOf(file), QByteArray("theirs"));
    if (what == QLatin1String("link"))
        QCOMPARE(contentOf(target), QByteArray("theirs"));
    if (what == QLatin1String("dangling"))
        QVERIFY(!QFileInfo::exists(target));
    if (what == QLatin1String("folder"))
        QVERIFY(QFileInfo(file).isDir());
    QCOMPARE(strayEntries(m_tmp->path(),
                          {QStringLiteral("SOUL.md"), QStringLiteral("elsewhere.md")}),
             QStringList());

    // Where nothing is, the file is created.
    const QString fresh = path(QStringLiteral("USER.md"));
    const Status created = saveSlotFile(fresh, "mine", Overwrite::Never);
    QVERIFY2(created.ok(), qPrintable(created.error()));
    QCOMPARE(contentOf(fresh), QByteArray("mine"));
}

void tst_SlotSaver::readOnlyFolderFails()
{
    if (::geteuid() == 0)
        QSKIP("root may write into a read-only folder");
    const QString folder = path(QStringLiteral("ro"));
    QVERIFY(QDir(m_tmp->path()).mkdir(QStringLiteral("ro")));
    const QString file = folder + QStringLiteral("/SOUL.md");
    QVERIFY(writeFile(file, "old"));
    QCOMPARE(::chmod(QFile::encodeName(folder).constData(), 0555), 0);

    const Status status = saveSlotFile(file, "new");
    ::chmod(QFile::encodeName(folder).constData(), 0755);
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(file), qPrintable(status.error()));
    QCOMPARE(contentOf(file), QByteArray("old"));
}

void tst_SlotSaver::readOnlyFileFails()
{
    if (::geteuid() == 0)
        QSKIP("root may write a read-only file");
    const QString file = path(QStringLiteral("SOUL.md"));
    QVERIFY(writeFile(file, "old"));
    QCOMPARE(::chmod(QFile::encodeName(file).constData(), 0444), 0);
    const Status status = saveSlotFile(file, "new");
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(QStringLiteral("read-only")), qPrintable(status.error()));
    QCOMPARE(contentOf(file), QByteArray("old"));
}

// A full disk, as far as the writer can tell: RLIMIT_FSIZE makes write()
// fail with EFBIG past the limit (SIGXFSZ ignored), for root too.
void tst_SlotSaver::fullDiskKeepsOldFile()
{
    const QString file = path(QStringLiteral("MEMORY.md"));
    const QByteArray old(100, 'o');
    QVERIFY(writeFile(file, old));

    std::optional<FileSizeLimit> limit;
    limit.emplace(4096);
    QVERIFY(limit->active());

    const Status status = saveSlotFile(file, QByteArray(1024 * 1024, 'n'));

    limit.reset();

    QVERIFY(!status.ok());
    QVERIFY2(status.error().startsWith(QStringLiteral("Cannot save ") + file),
             qPrintable(status.error()));
    QVERIFY2(status.error().contains(QStringLiteral("unchanged")), qPrintable(status.error()));
    QVERIFY2(status.error().contains(QString::fromLocal8Bit(std::strerror(EFBIG))),
             qPrintable(status.error()));
    QCOMPARE(contentOf(file), old);
    QCOMPARE(strayEntries(m_tmp->path(), {QStringLiteral("MEMORY.md")}), QStringList());
}

// Why the write path does not use QSaveFile: a write cut short by a full
// disk (here the file size limit) leaves QSaveFile without an error, and its
// commit() then puts the cut file in place.
void tst_SlotSaver::qSaveFileShortWriteIsNoError()
{
    std::optional<FileSizeLimit> limit;
    limit.emplace(4096);
    QVERIFY(limit->active());

    QSaveFile file(path(QStringLiteral("cut")));
    const bool opened = file.open(QIODevice::WriteOnly);
    const qint64 written = opened ? file.write(QByteArray(100000, 'x')) : -1;
    const QFileDevice::FileError error = file.error();
    const bool committed = opened && file.commit();

    limit.reset();

    QVERIFY(opened);
    QCOMPARE(written, 4096);
    QCOMPARE(error, QFileDevice::NoError);
    QVERIFY(committed);
    QCOMPARE(QFileInfo(path(QStringLiteral("cut"))).size(), 4096);
}

QTEST_GUILESS_MAIN(tst_SlotSaver)
#include "tst_slotsaver.moc"
