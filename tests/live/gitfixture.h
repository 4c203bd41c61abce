#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <memory>

#include <sys/stat.h>
#include <unistd.h>

// Repositories for the history tests, made and checked with the git command
// line: the independent side of every comparison. Each run of git gets a
// home of its own (no user or system configuration), a fixed author and a
// date one minute after the last, so histories are the same on every
// machine.
namespace soul::test {

class GitFixture
{
public:
    // `home` holds git's configuration for these runs.
    explicit GitFixture(const QString &home)
        : m_home(home)
    {
        QFile config(QDir(home).filePath(QStringLiteral("gitconfig")));
        if (config.open(QIODevice::WriteOnly | QIODevice::Truncate))
            config.write("[init]\n\tdefaultBranch = main\n[core]\n\tautocrlf = false\n"
                         "[advice]\n\tdetachedHead = false\n");
    }

    // A fixture whose git runs, and this process's libgit2, read `home`
    // (made here) for their configuration, never the user's, and commit as
    // the fixture's author; null when the folder cannot be made.
    static std::unique_ptr<GitFixture> inHome(const QString &home)
    {
        if (!QDir().mkpath(home))
            return nullptr;
        qputenv("HOME", QFile::encodeName(home));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(home));
        qputenv("GIT_CONFIG_NOSYSTEM", "1");
        qputenv("GIT_AUTHOR_NAME", "Test Author");
        qputenv("GIT_AUTHOR_EMAIL", "author@example.org");
        qputenv("GIT_COMMITTER_NAME", "Test Author");
        qputenv("GIT_COMMITTER_EMAIL", "author@example.org");
        return std::make_unique<GitFixture>(home);
    }

    static bool available()
    {
        return !QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty();
    }

    // Runs git in `dir`; the standard output, or a null array when it failed
    // (lastError() says why).
    QByteArray git(const QString &dir, const QStringList &arguments, const QByteArray &input = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home);
        env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
        env.insert(QStringLiteral("GIT_CONFIG_GLOBAL"),
                   QDir(m_home).filePath(QStringLiteral("gitconfig")));
        env.insert(QStringLiteral("GIT_AUTHOR_NAME"), QStringLiteral("Test Author"));
        env.insert(QStringLiteral("GIT_AUTHOR_EMAIL"), QStringLiteral("author@example.org"));
        env.insert(QStringLiteral("GIT_COMMITTER_NAME"), QStringLiteral("Test Author"));
        env.insert(QStringLiteral("GIT_COMMITTER_EMAIL"), QStringLiteral("author@example.org"));
        m_time += 60;
        const QString date = QStringLiteral("@%1 +0200").arg(m_time);
        env.insert(QStringLiteral("GIT_AUTHOR_DATE"), date);
        env.insert(QStringLiteral("GIT_COMMITTER_DATE"), date);
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(dir);
        process.start(QStringLiteral("git"), arguments);
        if (!process.waitForStarted(30000)) {
            m_lastError = QStringLiteral("git did not start: ") + process.errorString();
            return {};
        }
        process.write(input);
        process.closeWriteChannel();
        if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit
            || process.exitCode() != 0) {
            m_lastError = QStringLiteral("git %1 failed: %2")
                              .arg(arguments.join(QLatin1Char(' ')),
                                   QString::fromUtf8(process.readAllStandardError()));
            return {};
        }
        QByteArray out = process.readAllStandardOutput();
        if (out.isNull())
            out = QByteArray("");
        return out;
    }

    // `git add -A && git commit`, and the new commit's id.
    QByteArray commitAll(const QString &dir, const QString &message)
    {
        if (git(dir, {QStringLiteral("add"), QStringLiteral("-A")}).isNull())
            return {};
        if (git(dir,
                {QStringLiteral("commit"),
                 QStringLiteral("-q"),
                 QStringLiteral("--allow-empty"),
                 QStringLiteral("-m"),
                 message})
                .isNull()) {
            return {};
        }
        return revParse(dir, QStringLiteral("HEAD"));
    }

    // One file written and committed.
    struct FileCommit
    {
        const char *name;
        QByteArray bytes;
        QString message;
    };
    // A repository at `repo` (made here) whose folder `dir` (`repo` or a
    // folder in it) gets `commits` in turn; false when git failed
    // (lastError() says why).
    bool makeRepository(const QString &repo, const QString &dir, const QList<FileCommit> &commits)
    {
        if (!QDir().mkpath(dir)
            || git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull())
            return false;
        for (const FileCommit &c : commits) {
            QFile file(QDir(dir).filePath(QLatin1String(c.name)));
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
                || file.write(c.bytes) != c.bytes.size() || !file.flush()) {
                m_lastError = QStringLiteral("%1 could not be written").arg(file.fileName());
                return false;
            }
            file.close();
            if (commitAll(repo, c.message).isEmpty())
                return false;
        }
        return true;
    }

    QByteArray revParse(const QString &dir, const QString &rev)
    {
        return git(dir, {QStringLiteral("rev-parse"), rev}).trimmed();
    }

    QString lastError() const { return m_lastError; }

private:
    QString m_home;
    QString m_lastError;
    qint64 m_time = 1700000000;
};

inline bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size() && file.flush();
}

inline QByteArray readBytes(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArrayLiteral("<unreadable>");
    return file.readAll();
}

inline bool makeSymlink(const QString &target, const QString &link)
{
    return ::symlink(QFile::encodeName(target).constData(), QFile::encodeName(link).constData())
           == 0;
}

} // namespace soul::test
