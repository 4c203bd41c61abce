#pragma once

#include "disk/fileio.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

// The fault rows every write-path test runs through, shared by the core and
// the window tests: each kind of I/O call (fileio.h) a write makes, with each
// errno a full, failing or read-only disk gives. A test declares the calls
// its write makes; each row must see its call fail at least once, and the
// run that fails nothing must have made no other kind of call (madeOnly()),
// so a call that stops going through fileio, or a new kind of call, fails
// the test instead of passing untested.
namespace soul::test {

// A kind of failing call: a fileio::Op, with a short write apart.
enum class Call {
    Open,
    Write,
    ShortWrite,
    Sync,
    Truncate,
    Close,
    Rename,
    SyncFolder,
    Link,
    Unlink
};
using Calls = QList<Call>;

// The calls of a write through a temporary file and a rename: a new file, or
// one with a single name.
inline const Calls RenameCalls = {Call::Open,
                                  Call::Write,
                                  Call::ShortWrite,
                                  Call::Sync,
                                  Call::Close,
                                  Call::Rename,
                                  Call::SyncFolder};
// The calls of a write in place: a file with a second hard link.
inline const Calls InPlaceCalls
    = {Call::Open, Call::Write, Call::ShortWrite, Call::Sync, Call::Truncate, Call::Close};

struct CallFault
{
    fileio::Op op;
    bool partial;
    const char *name;
};

inline CallFault callFault(Call call)
{
    switch (call) {
    case Call::Open:
        return {fileio::Op::Open, false, "open"};
    case Call::Write:
        return {fileio::Op::Write, false, "write"};
    case Call::ShortWrite:
        return {fileio::Op::Write, true, "short write"};
    case Call::Sync:
        return {fileio::Op::Sync, false, "fsync"};
    case Call::Truncate:
        return {fileio::Op::Truncate, false, "ftruncate"};
    case Call::Close:
        return {fileio::Op::Close, false, "close"};
    case Call::Rename:
        return {fileio::Op::Rename, false, "rename"};
    case Call::SyncFolder:
        return {fileio::Op::SyncFolder, false, "folder sync"};
    case Call::Link:
        return {fileio::Op::Link, false, "link"};
    case Call::Unlink:
        return {fileio::Op::Unlink, false, "unlink"};
    }
    return {fileio::Op::Open, false, "?"};
}

struct FaultRow
{
    QByteArray name; // "fsync ENOSPC"
    int op;
    int error;
    bool partial;
};

// A row for each call in `calls` with each errno.
inline QList<FaultRow> faultRows(const Calls &calls)
{
    const struct
    {
        int error;
        const char *name;
    } errors[] = {{ENOSPC, "ENOSPC"}, {EIO, "EIO"}, {EROFS, "EROFS"}, {EDQUOT, "EDQUOT"}};
    QList<FaultRow> rows;
    for (Call call : calls) {
        const CallFault fault = callFault(call);
        for (const auto &error : errors) {
            rows.append({QByteArray(fault.name) + ' ' + error.name,
                         int(fault.op),
                         error.error,
                         fault.partial});
        }
    }
    return rows;
}

inline void addFaultColumns()
{
    QTest::addColumn<int>("op");
    QTest::addColumn<int>("error");
    QTest::addColumn<bool>("partial");
}

// Columns "op", "error", "partial", and faultRows(calls).
inline void addFaultRows(const Calls &calls)
{
    addFaultColumns();
    for (const FaultRow &row : faultRows(calls))
        QTest::newRow(row.name.constData()) << row.op << row.error << row.partial;
}

// Arms the current row's fault at the k-th call of its kind.
inline void armRowFault(int k)
{
    QFETCH(int, op);
    QFETCH(int, error);
    QFETCH(bool, partial);
    fileio::injectFault(fileio::Op(op), k, error, partial);
}

// Whether the row's call is one a write survives: after a failed folder
// sync the file is written, and the user is warned that the disk did not
// confirm it.
inline bool rowOnlyWarns()
{
    QFETCH(int, op);
    return fileio::Op(op) == fileio::Op::SyncFolder;
}

// Whether every call made since the last injectFault() is of a kind in
// `calls`; names the others. The link() of a rename that never replaces is
// left out: only a file system that refuses RENAME_NOREPLACE reaches it, and
// tst_writefaults makes one up for it (neverOverwrite, linkFallback).
inline bool madeOnly(const Calls &calls)
{
    bool only = true;
    for (int k = 0; k < fileio::OpCount; ++k) {
        const auto op = fileio::Op(k);
        if (op == fileio::Op::Link || fileio::callCount(op) == 0)
            continue;
        bool declared = false;
        for (Call call : calls)
            declared = declared || callFault(call).op == op;
        if (!declared) {
            const char *name = "?";
            for (Call call : {Call::Open,
                              Call::Write,
                              Call::Sync,
                              Call::Truncate,
                              Call::Close,
                              Call::Rename,
                              Call::SyncFolder,
                              Call::Unlink}) {
                if (callFault(call).op == op)
                    name = callFault(call).name;
            }
            qWarning("the write made %d %s call(s), which its test never fails",
                     fileio::callCount(op),
                     name);
            only = false;
        }
    }
    return only;
}

// The words that tell the user what to do about `error`.
inline QString cureFor(int error)
{
    switch (error) {
    case ENOSPC:
        return QStringLiteral("disk is full");
    case EDQUOT:
        return QStringLiteral("quota");
    case EROFS:
        return QStringLiteral("file system is read-only");
    case EIO:
        return QStringLiteral("device failed");
    default:
        return {};
    }
}

// How a test function went when run again in a namespace of its own.
struct NamespaceRun
{
    bool ran = false;    // the namespace was made and the test binary ran in it
    bool passed = false; // with no failure and no skip
    QString output;      // its output, to show when it failed
};

// Runs the current test function (its current data row) again, in a new
// process of this test binary, in a user and mount namespace of its own:
// `unshare --user --map-root-user --mount`, where root may mount a tmpfs
// even in a container that refuses it (EPERM), and so may any user where
// the kernel allows unprivileged namespaces. Not from inside such a run.
inline NamespaceRun rerunInMountNamespace()
{
    NamespaceRun run;
    if (qEnvironmentVariableIsSet("SOUL_TEST_IN_MOUNT_NAMESPACE"))
        return run;
    QString function = QString::fromLatin1(QTest::currentTestFunction());
    if (const char *tag = QTest::currentDataTag(); tag && *tag)
        function += QLatin1Char(':') + QString::fromUtf8(tag);
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SOUL_TEST_IN_MOUNT_NAMESPACE"), QStringLiteral("1"));
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("unshare"),
                  {QStringLiteral("--user"),
                   QStringLiteral("--map-root-user"),
                   QStringLiteral("--mount"),
                   QCoreApplication::applicationFilePath(),
                   function});
    if (!process.waitForStarted(30000))
        return run;
    process.waitForFinished(600000);
    run.output = QString::fromUtf8(process.readAll());
    // unshare's own refusal: "unshare: unshare failed: Operation not permitted".
    if (run.output.startsWith(QLatin1String("unshare:")))
        return run;
    run.ran = true;
    run.passed = process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0
                 && run.output.contains(QLatin1String(" 0 failed, 0 skipped"))
                 && run.output.contains(
                     QStringLiteral("::%1(").arg(QString::fromLatin1(QTest::currentTestFunction())))
                 && run.output.contains(QLatin1String("PASS   : "));
    return run;
}

// A small tmpfs mounted at `path` for the life of the object (root only;
// where root may not, see rerunInMountNamespace()); mounted() says whether
// it worked, why() why not.
class ScratchTmpfs
{
public:
    ScratchTmpfs(const QString &path, const char *options)
        : m_path(QFile::encodeName(path))
    {
        m_mounted = ::mount("tmpfs", m_path.constData(), "tmpfs", 0, options) == 0;
        if (!m_mounted)
            m_why = QStringLiteral("cannot mount a tmpfs here: %1")
                        .arg(QString::fromLocal8Bit(std::strerror(errno)));
    }
    ~ScratchTmpfs()
    {
        if (m_mounted)
            ::umount(m_path.constData());
    }
    ScratchTmpfs(const ScratchTmpfs &) = delete;
    ScratchTmpfs &operator=(const ScratchTmpfs &) = delete;

    bool mounted() const { return m_mounted; }
    QString why() const { return m_why; }
    bool remountReadOnly(const char *options)
    {
        return ::mount("tmpfs", m_path.constData(), "tmpfs", MS_REMOUNT | MS_RDONLY, options) == 0;
    }

private:
    QByteArray m_path;
    bool m_mounted = false;
    QString m_why;
};

// Fills the file system that holds `path` with the file `path` until a write
// fails for want of space, then gives `pagesLeft` pages of it back: the next
// writes there find exactly that much room (on a tmpfs, which counts whole
// pages and keeps nothing back for root). False, with `error` set, when the
// file cannot be written or the disk never fills.
inline bool fillFileSystem(const QString &path, qint64 pagesLeft, QString *error)
{
    const long page = ::sysconf(_SC_PAGESIZE);
    const QByteArray local = QFile::encodeName(path);
    const int fd = ::open(local.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QStringLiteral("cannot create %1: %2")
                     .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    const QByteArray block(qsizetype(page), '\0');
    qint64 size = 0;
    int failure = 0;
    // A 1 GiB bound, so a disk that never fills ends the test instead of the machine.
    while (size < (qint64(1) << 30)) {
        const ssize_t n = ::write(fd, block.constData(), size_t(block.size()));
        if (n < 0) {
            failure = errno;
            break;
        }
        size += n;
    }
    bool ok = false;
    if (failure != ENOSPC) {
        *error = QStringLiteral("%1: the disk did not fill (%2)")
                     .arg(path, QString::fromLocal8Bit(std::strerror(failure)));
    } else if (size < pagesLeft * page) {
        *error = QStringLiteral("%1: only %2 bytes fit, fewer than the %3 pages to give back")
                     .arg(path)
                     .arg(size)
                     .arg(pagesLeft);
    } else if (::ftruncate(fd, off_t(size - pagesLeft * page)) != 0) {
        *error = QStringLiteral("%1: cannot shorten it (%2)")
                     .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    } else {
        ok = true;
    }
    ok = ::close(fd) == 0 && ok;
    return ok;
}

} // namespace soul::test
