#pragma once

#include "fileio.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/mount.h>

// The fault rows every write-path test runs through, shared by the core and
// the window tests: each kind of I/O call (fileio.h) with each errno a full,
// failing or read-only disk gives.
namespace soul::test {

// Columns "op", "error", "partial". Without `everyKind`, only the calls
// every write makes (no short write, no ftruncate).
inline void addFaultRows(bool everyKind = true)
{
    QTest::addColumn<int>("op");
    QTest::addColumn<int>("error");
    QTest::addColumn<bool>("partial");
    const struct
    {
        fileio::Op op;
        const char *name;
        bool partial;
        bool common;
    } ops[] = {
        {fileio::Op::Open, "open", false, true},
        {fileio::Op::Write, "write", false, true},
        {fileio::Op::Write, "short write", true, false},
        {fileio::Op::Sync, "fsync", false, true},
        {fileio::Op::Truncate, "ftruncate", false, false},
        {fileio::Op::Close, "close", false, true},
        {fileio::Op::Rename, "rename", false, true},
    };
    const struct
    {
        int error;
        const char *name;
    } errors[] = {{ENOSPC, "ENOSPC"}, {EIO, "EIO"}, {EROFS, "EROFS"}, {EDQUOT, "EDQUOT"}};
    for (const auto &op : ops) {
        if (!everyKind && !op.common)
            continue;
        for (const auto &error : errors)
            QTest::addRow("%s %s", op.name, error.name) << int(op.op) << error.error << op.partial;
    }
}

// Arms the current row's fault at the k-th call of its kind.
inline void armRowFault(int k)
{
    QFETCH(int, op);
    QFETCH(int, error);
    QFETCH(bool, partial);
    fileio::injectFault(fileio::Op(op), k, error, partial);
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

// A small tmpfs mounted at `path` for the life of the object (root only);
// mounted() says whether it worked, why() why not.
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

} // namespace soul::test
