// PersonaHistory against the git command line: repositories made with git in
// a fresh temporary folder per test, read with libgit2 through the core, and
// checked with git again (a checkout by `git worktree add`, `git ls-tree`,
// `git status`), so every expectation comes from git itself.

#include "compose/composer.h"
#include "disk/composedirectory.h"
#include "gitfixture.h"
#include "history/historycounts.h"
#include "history/personahistory.h"
#include "persona/inspection.h"
#include "tokens/soultokens.h"
#include "tokens/tokenizer.h"
#include "writefaults.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <fcntl.h>
#include <memory>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace soul;
using test::GitFixture;
using test::makeSymlink;
using test::readBytes;
using test::writeBytes;

namespace {

const QStringList AuthorVariables = {QStringLiteral("GIT_AUTHOR_NAME"),
                                     QStringLiteral("GIT_AUTHOR_EMAIL"),
                                     QStringLiteral("GIT_COMMITTER_NAME"),
                                     QStringLiteral("GIT_COMMITTER_EMAIL")};

std::unique_ptr<PersonaHistory> openOrNull(const QString &dir, QString *error = nullptr)
{
    auto history = PersonaHistory::open(dir);
    if (!history) {
        if (error)
            *error = history.error();
        return nullptr;
    }
    return std::move(history).value();
}

HistoryCounts makeCounts()
{
    return HistoryCounts(Tokenizer::builtin(QString()));
}

QByteArray revisionSoul(const PersonaHistory &history, const QString &rev, QString *error = nullptr)
{
    const Result<PersonaRevision> revision
        = history.readRevision(rev, ReadOptions(ComposeRule::toolnexus().readLimit()));
    if (!revision) {
        if (error)
            *error = revision.error();
        return QByteArrayLiteral("<failed>");
    }
    return compose(slotBuffers(revision->reads)).soul;
}

QList<QByteArray> ids(const QList<HistoryCommit> &commits)
{
    QList<QByteArray> out;
    for (const HistoryCommit &commit : commits)
        out.append(commit.id);
    return out;
}

} // namespace

class TstHistory : public QObject
{
    Q_OBJECT

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }

    // A new repository `name` (git init), or empty.
    QString makeRepo(const QString &name)
    {
        const QString repo = path(name);
        if (!QDir().mkpath(repo)
            || m_git->git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull())
            return {};
        return repo;
    }

    // The soul of `folder` (relative to the repository) in a checkout of
    // `rev` made by git: what the history must read from the objects.
    QByteArray checkoutSoul(const QString &repo, const QString &rev, const QString &folder)
    {
        const QString worktree = path(QStringLiteral("checkout"));
        if (m_git
                ->git(repo,
                      {QStringLiteral("worktree"),
                       QStringLiteral("add"),
                       QStringLiteral("-q"),
                       QStringLiteral("--detach"),
                       worktree,
                       rev})
                .isNull()) {
            return QByteArrayLiteral("<no checkout>");
        }
        const QByteArray soul = composeDirectory(QDir(worktree).filePath(folder)).soul;
        m_git->git(repo,
                   {QStringLiteral("worktree"),
                    QStringLiteral("remove"),
                    QStringLiteral("--force"),
                    worktree});
        return soul;
    }

    QByteArray indexBytes(const QString &repo) const
    {
        return readBytes(QDir(repo).filePath(QStringLiteral(".git/index")));
    }

    // Every file of the repository's .git folder but its objects, with its
    // bytes, and every folder (as "NAME/"): HEAD, the refs, packed-refs, the
    // reflogs, the index, the configuration, and any lock or temporary file.
    static QMap<QString, QByteArray> gitFiles(const QString &repo)
    {
        QMap<QString, QByteArray> files;
        const QDir git(QDir(repo).filePath(QStringLiteral(".git")));
        QDirIterator it(git.path(),
                        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString name = git.relativeFilePath(it.next());
            if (name.startsWith(QLatin1String("objects/")))
                continue;
            if (it.fileInfo().isDir())
                files.insert(name + QLatin1Char('/'), QByteArray());
            else
                files.insert(name, readBytes(it.filePath()));
        }
        return files;
    }

    // The loose objects' files: "objects/1a/2b3c...".
    static QStringList objectFiles(const QString &repo)
    {
        QStringList files;
        const QDir git(QDir(repo).filePath(QStringLiteral(".git")));
        QDirIterator it(git.filePath(QStringLiteral("objects")),
                        QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(git.relativeFilePath(it.next()));
        files.sort();
        return files;
    }

    // What differs between two gitFiles(), one line a file; empty when nothing.
    static QString differences(const QMap<QString, QByteArray> &before,
                               const QMap<QString, QByteArray> &after)
    {
        QStringList lines;
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            if (!after.contains(it.key()))
                lines.append(QStringLiteral("%1 is gone").arg(it.key()));
            else if (after.value(it.key()) != it.value())
                lines.append(QStringLiteral("%1 changed: %2 bytes, then %3")
                                 .arg(it.key())
                                 .arg(it.value().size())
                                 .arg(after.value(it.key()).size()));
        }
        for (auto it = after.cbegin(); it != after.cend(); ++it) {
            if (!before.contains(it.key()))
                lines.append(QStringLiteral("%1 is new").arg(it.key()));
        }
        return lines.join(QLatin1Char('\n'));
    }

    // Appends a reflog line to `log` that leaves `room` bytes free in its
    // last page, so the next line needs a page more.
    static bool padReflog(const QString &log, const QByteArray &id, qint64 room)
    {
        const qint64 page = ::sysconf(_SC_PAGESIZE);
        const QByteArray bytes = readBytes(log);
        const QByteArray start = id + ' ' + id
                                 + " Test Author <author@example.org> 1700000000 +0200\t";
        const qint64 message = page - room - bytes.size() - start.size() - 1;
        if (message < 1)
            return false;
        return writeBytes(log, bytes + start + QByteArray(qsizetype(message), 'x') + '\n');
    }

    enum class RepoKind { Change, FirstCommit, Detached };

    // A new repository at `repo` (any old one removed) for the checkpoint
    // tests: SOUL.md committed (`c1`, empty for FirstCommit) unless
    // FirstCommit, then SOUL.md changed, MEMORY.md new and other.txt staged
    // by hand, which a checkpoint must leave staged.
    bool makeCheckpointRepo(const QString &repo, RepoKind kind, QByteArray *c1)
    {
        if (QFileInfo::exists(repo) && !QDir(repo).removeRecursively())
            return false;
        if (!QDir().mkpath(repo)
            || m_git->git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull())
            return false;
        const auto at = [&repo](const char *name) {
            return QDir(repo).filePath(QLatin1String(name));
        };
        c1->clear();
        if (kind != RepoKind::FirstCommit) {
            if (!writeBytes(at("SOUL.md"), "one\n") || !writeBytes(at("other.txt"), "other\n"))
                return false;
            *c1 = m_git->commitAll(repo, QStringLiteral("one"));
            if (c1->isEmpty())
                return false;
            if (kind == RepoKind::Detached
                && m_git
                       ->git(repo,
                             {QStringLiteral("checkout"),
                              QStringLiteral("-q"),
                              QStringLiteral("--detach")})
                       .isNull())
                return false;
        }
        return writeBytes(at("SOUL.md"), "two\n") && writeBytes(at("MEMORY.md"), "- likes tea\n")
               && writeBytes(at("other.txt"), "other, staged\n")
               && !m_git->git(repo, {QStringLiteral("add"), QStringLiteral("other.txt")}).isNull();
    }

    // HEAD's reflog lines, by git.
    int reflogCount(const QString &repo)
    {
        const QByteArray out = m_git->git(repo,
                                          {QStringLiteral("reflog"), QStringLiteral("--format=%H")});
        return int(out.count('\n'));
    }

    static QByteArray checkpointedStatus(RepoKind kind)
    {
        return kind == RepoKind::FirstCommit ? QByteArray("A  other.txt\n")
                                             : QByteArray("M  other.txt\n");
    }

    // The files a checkpoint names as its own, in .git and its objects folder.
    static QStringList ownFiles(const QString &repo)
    {
        QStringList out;
        QDirIterator it(QDir(repo).filePath(QStringLiteral(".git")),
                        QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString name = it.next();
            if (it.fileName().startsWith(QLatin1String("soulstudio-checkpoint-"))
                || it.fileName().contains(QLatin1String("before-checkpoint")))
                out.append(name);
        }
        return out;
    }

    // The git locks in .git: "*.lock".
    static QStringList lockFiles(const QString &repo)
    {
        QStringList out;
        QDirIterator it(QDir(repo).filePath(QStringLiteral(".git")),
                        {QStringLiteral("*.lock")},
                        QDir::Files | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            out.append(it.next());
        return out;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<GitFixture> m_git;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (!GitFixture::available())
            QFAIL("these tests check the history against the git command line: install git");
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        const QString home = path(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(home));
        m_git = std::make_unique<GitFixture>(home);
        // libgit2 in this process reads no user configuration and no
        // author from the environment unless a test sets one.
        qputenv("HOME", QFile::encodeName(home));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(home));
        for (const QString &name : AuthorVariables)
            qunsetenv(name.toLatin1().constData());
    }

    void cleanup()
    {
        m_git.reset();
        m_dir.reset();
    }

    void notARepository()
    {
        const QString dir = path(QStringLiteral("loose"));
        QVERIFY(QDir().mkpath(dir));
        QString error;
        QVERIFY(!openOrNull(dir, &error));
        QVERIFY2(error.contains(dir) && error.contains(QLatin1String("not in a git repository")),
                 qPrintable(error));
        QVERIFY(!openOrNull(path(QStringLiteral("nowhere")), &error));
        QVERIFY2(error.contains(QLatin1String("no such directory")), qPrintable(error));
    }

    void initRepository()
    {
        const QString dir = path(QStringLiteral("fresh"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(!openOrNull(dir));
        const Status made = PersonaHistory::initRepository(dir);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        const auto history = openOrNull(dir);
        QVERIFY(history);
        QVERIFY(!history->hasCommits());
        QCOMPARE(history->pathInRepository(), QString());
        // git agrees it is a repository, with no commit yet.
        QVERIFY(
            !m_git->git(dir, {QStringLiteral("status"), QStringLiteral("--porcelain")}).isNull());
        QVERIFY(m_git
                    ->git(dir,
                          {QStringLiteral("rev-parse"),
                           QStringLiteral("--verify"),
                           QStringLiteral("-q"),
                           QStringLiteral("HEAD")})
                    .isNull());
    }

    // OpenClaw runs `git init` in a workspace and never commits.
    void emptyRepository()
    {
        const QString repo = makeRepo(QStringLiteral("empty"));
        QVERIFY(!repo.isEmpty());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "You are Kip.\n"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("MEMORY.md")), "- likes tea\n"));
        auto history = openOrNull(repo);
        QVERIFY(history);
        QVERIFY(!history->hasCommits());
        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY2(log.ok(), qPrintable(log.error()));
        QVERIFY(log->isEmpty());
        QString error;
        QCOMPARE(revisionSoul(*history, QStringLiteral("HEAD"), &error), QByteArray("<failed>"));
        QVERIFY2(error.contains(QLatin1String("has no commit yet"))
                     && error.contains(QLatin1String("'HEAD'")),
                 qPrintable(error));

        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QVERIFY(!made->nothingToCommit);
        QVERIFY2(made->message.startsWith(QLatin1String("SOUL.md added (+")),
                 qPrintable(made->message));
        QVERIFY2(made->message.contains(QLatin1String("; MEMORY.md added (+")),
                 qPrintable(made->message));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("main")), made->id);
        QCOMPARE(m_git->git(repo, {QStringLiteral("show"), QStringLiteral("HEAD:SOUL.md")}),
                 QByteArray("You are Kip.\n"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray(""));
        QVERIFY(m_git
                    ->git(repo,
                          {QStringLiteral("reflog"),
                           QStringLiteral("-1"),
                           QStringLiteral("--format=%gs")})
                    .startsWith("commit (initial): SOUL.md added"));
        QCOMPARE(revisionSoul(*history, QStringLiteral("HEAD")), composeDirectory(repo).soul);
        // The working files are left as they were.
        QCOMPARE(readBytes(QDir(repo).filePath(QStringLiteral("SOUL.md"))),
                 QByteArray("You are Kip.\n"));
    }

    void logNewestFirst_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("persona at the root") << QString();
        QTest::newRow("persona in a subfolder") << QStringLiteral("agents/ava");
        QTest::newRow("subfolder with a space") << QStringLiteral("team/a b/persona");
    }

    void logNewestFirst()
    {
        QFETCH(QString, folder);
        const QString repo = makeRepo(QStringLiteral("repo"));
        QVERIFY(!repo.isEmpty());
        const QString persona = folder.isEmpty() ? repo : QDir(repo).filePath(folder);
        const auto slot = [&](const char *name) {
            return QDir(persona).filePath(QLatin1String(name));
        };
        QVERIFY(writeBytes(slot("SOUL.md"), "You are Ava.\n"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("README.md")), "readme\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY2(!c1.isEmpty(), qPrintable(m_git->lastError()));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("README.md")), "readme 2\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("readme only")).isEmpty());
        QVERIFY(writeBytes(slot("MEMORY.md"), "- likes tea\n"));
        const QByteArray c3 = m_git->commitAll(repo, QStringLiteral("memory"));
        QVERIFY(writeBytes(slot("SOUL.md"), "You are Ava, a careful assistant.\n"));
        const QByteArray c4 = m_git->commitAll(repo, QStringLiteral("soul"));
        if (!folder.isEmpty()) {
            // Slot names outside the persona's folder are not its slots.
            QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "another persona\n"));
            QVERIFY(!m_git->commitAll(repo, QStringLiteral("root soul")).isEmpty());
        }

        const auto history = openOrNull(persona);
        QVERIFY(history);
        QCOMPARE(history->pathInRepository(), folder);
        QCOMPARE(history->repositoryRoot(), QFileInfo(repo).canonicalFilePath());
        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY2(log.ok(), qPrintable(log.error()));
        QCOMPARE(ids(*log), (QList<QByteArray>{c4, c3, c1}));
        const HistoryCommit &soulEdit = log->at(0);
        QCOMPARE(soulEdit.change(1), SlotChange::Modified);
        QCOMPARE(soulEdit.change(6), SlotChange::Unchanged);
        QCOMPARE(soulEdit.summary, QStringLiteral("soul"));
        QCOMPARE(soulEdit.authorName, QStringLiteral("Test Author"));
        QCOMPARE(soulEdit.authorTime.offsetFromUtc(), 7200);
        QCOMPARE(soulEdit.shortId, QString::fromLatin1(c4.left(soulEdit.shortId.size())));
        QVERIFY(soulEdit.shortId.size() >= 7);
        QCOMPARE(log->at(1).change(6), SlotChange::Added);
        QCOMPARE(log->at(2).change(1), SlotChange::Added);
        QCOMPARE(log->at(2).parentCount, 0);
        QCOMPARE(log->at(2).before[1].presence, SlotPresence::Missing);
        QCOMPARE(log->at(2).slots[1].blobId,
                 m_git->revParse(repo,
                                 QStringLiteral("%1:%2SOUL.md")
                                     .arg(QString::fromLatin1(c1),
                                          folder.isEmpty() ? QString()
                                                           : folder + QLatin1Char('/'))));
        for (const QString &rev : {QStringLiteral("HEAD"),
                                   QStringLiteral("HEAD~2"),
                                   QString::fromLatin1(c1.left(9)),
                                   QStringLiteral("main~3")}) {
            QString error;
            QCOMPARE(revisionSoul(*history, rev, &error), checkoutSoul(repo, rev, folder));
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
    }

    // A rev of every kind git understands.
    void revisions()
    {
        const QString repo = makeRepo(QStringLiteral("revs"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "v1\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("tag"),
                            QStringLiteral("-a"),
                            QStringLiteral("v1.0"),
                            QStringLiteral("-m"),
                            QStringLiteral("first")})
                     .isNull());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "v2\n"));
        const QByteArray c2 = m_git->commitAll(repo, QStringLiteral("two"));
        const auto history = openOrNull(repo);
        QVERIFY(history);
        const struct
        {
            QString rev;
            QByteArray id;
        } rows[] = {
            {QStringLiteral("HEAD"), c2},
            {QStringLiteral("HEAD~1"), c1},
            {QStringLiteral("HEAD^"), c1},
            {QStringLiteral("v1.0"), c1},
            {QStringLiteral("main"), c2},
            {QString::fromLatin1(c1.left(7)), c1},
            {QString::fromLatin1(c2), c2},
            {QStringLiteral("HEAD@{1}"), c1},
        };
        for (const auto &row : rows) {
            const Result<HistoryCommit> commit = history->commit(row.rev);
            QVERIFY2(commit.ok(), qPrintable(row.rev + QLatin1String(": ") + commit.error()));
            QCOMPARE(commit->id, row.id);
        }
        QCOMPARE(revisionSoul(*history, QStringLiteral("v1.0")), QByteArray("## SOUL.md\n\nv1"));
    }

    void badRevisions_data()
    {
        QTest::addColumn<QString>("rev");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown name")
            << QStringLiteral("nope") << QStringLiteral("names no commit");
        QTest::newRow("beyond the root")
            << QStringLiteral("HEAD~5") << QStringLiteral("names no commit");
        QTest::newRow("a blob") << QStringLiteral("HEAD:SOUL.md") << QStringLiteral("names a blob");
        QTest::newRow("not a revision")
            << QStringLiteral("HEAD~~~^^^{bad") << QStringLiteral("names no commit");
        QTest::newRow("unknown id")
            << QStringLiteral("0123456789abcdef") << QStringLiteral("names no commit");
    }

    void badRevisions()
    {
        QFETCH(QString, rev);
        QFETCH(QString, says);
        const QString repo = makeRepo(QStringLiteral("bad"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "v1\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("one")).isEmpty());
        const auto history = openOrNull(repo);
        QVERIFY(history);
        const Result<PersonaRevision> read = history->readRevision(rev, ReadOptions(1024));
        QVERIFY(!read.ok());
        QVERIFY2(read.error().contains(QLatin1Char('\'') + rev + QLatin1Char('\''))
                     && read.error().contains(says)
                     && read.error().contains(QFileInfo(repo).canonicalFilePath()),
                 qPrintable(read.error()));
    }

    void detachedHead()
    {
        const QString repo = makeRepo(QStringLiteral("detached"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "v1\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "v2\n"));
        const QByteArray c2 = m_git->commitAll(repo, QStringLiteral("two"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "v3\n"));
        const QByteArray c3 = m_git->commitAll(repo, QStringLiteral("three"));
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("checkout"),
                            QStringLiteral("-q"),
                            QStringLiteral("--detach"),
                            QString::fromLatin1(c2)})
                     .isNull());

        auto history = openOrNull(repo);
        QVERIFY(history);
        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY(log.ok());
        QCOMPARE(ids(*log), (QList<QByteArray>{c2, c1}));
        QCOMPARE(revisionSoul(*history, QStringLiteral("HEAD")), QByteArray("## SOUL.md\n\nv2"));
        QCOMPARE(revisionSoul(*history, QStringLiteral("main")), QByteArray("## SOUL.md\n\nv3"));

        // A checkpoint moves the detached HEAD, not the branch.
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "v2 and more\n"));
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QStringLiteral("on a detached HEAD"),
                                                            counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), made->id);
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c2);
        QCOMPARE(m_git->revParse(repo, QStringLiteral("main")), c3);
        QVERIFY(
            m_git
                ->git(repo,
                      {QStringLiteral("symbolic-ref"), QStringLiteral("-q"), QStringLiteral("HEAD")})
                .isNull());
        QCOMPARE(m_git
                     ->git(repo,
                           {QStringLiteral("log"),
                            QStringLiteral("-1"),
                            QStringLiteral("--format=%B")})
                     .trimmed(),
                 QByteArray("on a detached HEAD"));
    }

    void renamesAndDeletions()
    {
        const QString repo = makeRepo(QStringLiteral("moves"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "a soul\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("one")).isEmpty());
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("mv"),
                            QStringLiteral("SOUL.md"),
                            QStringLiteral("MEMORY.md")})
                     .isNull());
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("rename")).isEmpty());
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("rm"), QStringLiteral("-q"), QStringLiteral("MEMORY.md")})
                     .isNull());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("other.md")), "x\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("delete")).isEmpty());
        const auto history = openOrNull(repo);
        QVERIFY(history);
        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY(log.ok());
        QCOMPARE(log->size(), 3);
        QCOMPARE(log->at(0).change(6), SlotChange::Removed);
        QCOMPARE(log->at(1).change(1), SlotChange::Removed);
        QCOMPARE(log->at(1).change(6), SlotChange::Added);
        // The same blob moved: one count serves both.
        QCOMPARE(log->at(1).slots[6].blobId, log->at(2).slots[1].blobId);
        HistoryCounts counts = makeCounts();
        const Result<SoulFigures> moved = history->measure(log->at(1), counts);
        QVERIFY(moved.ok());
        QCOMPARE(moved->sectionTokens[1], qint64(-1));
        QCOMPARE(moved->tokenChange[6], moved->sectionTokens[6]);
        QVERIFY(moved->tokenChange[1] < 0);
        QCOMPARE(revisionSoul(*history, QStringLiteral("HEAD")), QByteArray());
    }

    // A slot that is a link reads the file its target names in the same
    // commit, as a checkout leads the kernel; a link that leads nowhere is
    // an absent slot, as a dangling link on disk.
    void symbolicLinks()
    {
        const QString repo = makeRepo(QStringLiteral("links"));
        const QString persona = QDir(repo).filePath(QStringLiteral("agents/ava"));
        const auto at = [&](const char *name) {
            return QDir(persona).filePath(QLatin1String(name));
        };
        QVERIFY(writeBytes(at("notes/soul.txt"), "Linked soul.\n"));
        QVERIFY(
            writeBytes(QDir(repo).filePath(QStringLiteral("shared/agents.md")), "Shared rules.\n"));
        QVERIFY(makeSymlink(QStringLiteral("notes/soul.txt"), at("SOUL.md")));
        QVERIFY(makeSymlink(QStringLiteral("../../shared/agents.md"), at("AGENTS.md")));
        QVERIFY(makeSymlink(QStringLiteral("/notes/soul.txt"), at("IDENTITY.md")));
        QVERIFY(makeSymlink(QStringLiteral("missing.md"), at("USER.md")));
        QVERIFY(makeSymlink(QStringLiteral("notes"), at("TOOLS.md")));
        QVERIFY(makeSymlink(QStringLiteral("MEMORY.md"), at("HEARTBEAT.md")));
        QVERIFY(makeSymlink(QStringLiteral("HEARTBEAT.md"), at("MEMORY.md")));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("links"));
        QVERIFY(!c1.isEmpty());
        // Only the link's target changes.
        QVERIFY(writeBytes(at("notes/soul.txt"), "Linked soul, edited.\n"));
        const QByteArray c2 = m_git->commitAll(repo, QStringLiteral("target"));
        // A link through a linked folder, and one with a trailing slash.
        QVERIFY(makeSymlink(QStringLiteral("notes"), at("linkdir")));
        QVERIFY(QFile::remove(at("USER.md"))
                && makeSymlink(QStringLiteral("linkdir/soul.txt"), at("USER.md")));
        QVERIFY(QFile::remove(at("TOOLS.md"))
                && makeSymlink(QStringLiteral("notes/soul.txt/"), at("TOOLS.md")));
        const QByteArray c3 = m_git->commitAll(repo, QStringLiteral("more links"));

        const auto history = openOrNull(persona);
        QVERIFY(history);
        const Result<HistoryCommit> first = history->commit(QString::fromLatin1(c1));
        QVERIFY2(first.ok(), qPrintable(first.error()));
        const HistorySlots &slots = first->slots;
        QCOMPARE(slots[1].presence, SlotPresence::Present);
        QVERIFY(slots[1].isSymlink);
        QCOMPARE(slots[1].entryMode, 0120000);
        QCOMPARE(slots[1].blobId,
                 m_git->revParse(repo,
                                 QString::fromLatin1(c1)
                                     + QStringLiteral(":agents/ava/notes/soul.txt")));
        QCOMPARE(slots[1].entryId,
                 m_git->revParse(repo,
                                 QString::fromLatin1(c1) + QStringLiteral(":agents/ava/SOUL.md")));
        QCOMPARE(slots[0].presence, SlotPresence::Present);
        QCOMPARE(slots[2].presence,
                 SlotPresence::DanglingLink); // absolute: not followed into the tree
        QCOMPARE(slots[3].presence, SlotPresence::DanglingLink); // nothing there
        QCOMPARE(slots[4].presence, SlotPresence::Directory);    // a folder
        QCOMPARE(slots[5].presence, SlotPresence::DanglingLink); // a loop
        QCOMPARE(slots[6].presence, SlotPresence::DanglingLink);

        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY(log.ok());
        QCOMPARE(ids(*log), (QList<QByteArray>{c3, c2, c1}));
        QCOMPARE(log->at(1).change(1), SlotChange::Modified);
        QCOMPARE(log->at(1).slots[1].entryId, log->at(1).before[1].entryId);
        QCOMPARE(log->at(0).slots[3].presence, SlotPresence::Present);
        QCOMPARE(log->at(0).slots[4].presence, SlotPresence::DanglingLink);
        for (const QByteArray &id : {c1, c2, c3}) {
            QString error;
            const QByteArray soul = revisionSoul(*history, QString::fromLatin1(id), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(soul,
                     checkoutSoul(repo, QString::fromLatin1(id), QStringLiteral("agents/ava")));
        }
        QVERIFY(revisionSoul(*history, QString::fromLatin1(c2)).contains("Linked soul, edited."));
    }

    void crlfAsStored()
    {
        const QString repo = makeRepo(QStringLiteral("crlf"));
        QVERIFY(
            writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "line one\r\nline two\r\n"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("MEMORY.md")), "lf one\nlf two\n"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral(".gitattributes")),
                           "MEMORY.md text eol=crlf\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("crlf")).isEmpty());
        const auto history = openOrNull(repo);
        QVERIFY(history);
        const Result<PersonaRevision> read = history->readRevision(QStringLiteral("HEAD"),
                                                                   ReadOptions(4096));
        QVERIFY2(read.ok(), qPrintable(read.error()));
        // SOUL.md was stored with its CR LF; MEMORY.md with LF, which a
        // checkout turns into CR LF: the history reads what git stores.
        QCOMPARE(read->reads[1].bytes, QByteArray("line one\r\nline two\r\n"));
        QCOMPARE(read->reads[6].bytes,
                 m_git->git(repo,
                            {QStringLiteral("cat-file"),
                             QStringLiteral("blob"),
                             QStringLiteral("HEAD:MEMORY.md")}));
        QCOMPARE(read->reads[6].bytes, QByteArray("lf one\nlf two\n"));
        QVERIFY(!read->checkoutConverts[1]);
        QVERIFY(read->checkoutConverts[6]);
        QCOMPARE(compose(slotBuffers(read->reads)).soul,
                 QByteArray(
                     "## SOUL.md\n\nline one\r\nline two\n\n## MEMORY.md\n\nlf one\nlf two"));
        QCOMPARE(read->reads[1].path, read->commit.shortId + QStringLiteral(":SOUL.md"));
        // A limit keeps the start of a blob; -1 keeps all of it.
        const Result<PersonaRevision> cut = history->readRevision(QStringLiteral("HEAD"),
                                                                  ReadOptions(4));
        QVERIFY(cut.ok());
        QCOMPARE(cut->reads[1].bytes, QByteArray("line"));
        QCOMPARE(cut->reads[1].size, qint64(20));
        QVERIFY(!cut->reads[1].complete);
        const Result<PersonaRevision> whole = history->readRevision(QStringLiteral("HEAD"),
                                                                    ReadOptions(-1));
        QVERIFY(whole.ok());
        QCOMPARE(whole->reads[1].bytes, QByteArray("line one\r\nline two\r\n"));
        QVERIFY(whole->reads[1].complete);
    }

    void caseVariants()
    {
        const QString repo = makeRepo(QStringLiteral("case"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("soul.md")), "lower case\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("variant")).isEmpty());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "the slot\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("slot")).isEmpty());
        const auto history = openOrNull(repo);
        QVERIFY(history);
        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY(log.ok());
        QCOMPARE(log->size(), 1); // the variant alone touched no slot
        QCOMPARE(log->at(0).change(1), SlotChange::Added);
        const Result<PersonaRevision> first = history->readRevision(QStringLiteral("HEAD~1"),
                                                                    ReadOptions(4096));
        QVERIFY(first.ok());
        QCOMPARE(first->reads[1].presence, SlotPresence::Missing);
        QVERIFY(first->entryNames.contains(QStringLiteral("soul.md")));
        const Inspection inspection = inspectReads(repo,
                                                   first->reads,
                                                   first->entryNames,
                                                   first->memoryFolder,
                                                   ComposeRule::toolnexus());
        QCOMPARE(inspection.composition.soul, QByteArray());
        bool variantLint = false;
        for (const Lint &lint : inspection.lints)
            variantLint = variantLint
                          || (lint.code == QLatin1String("case-variant")
                              && lint.file == QLatin1String("soul.md"));
        QVERIFY(variantLint);
    }

    // A damaged object is an error naming it, never a slot quietly absent.
    void corruptObject()
    {
        const QString repo = makeRepo(QStringLiteral("corrupt"));
        QVERIFY(
            writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "a soul worth keeping\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("one")).isEmpty());
        const QByteArray blob = m_git->revParse(repo, QStringLiteral("HEAD:SOUL.md"));
        const QString object = QDir(repo).filePath(
            QStringLiteral(".git/objects/%1/%2")
                .arg(QString::fromLatin1(blob.left(2)), QString::fromLatin1(blob.mid(2))));
        QVERIFY(QFileInfo::exists(object));
        QVERIFY(QFile::setPermissions(object, QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(writeBytes(object, "this is not a zlib stream"));

        const auto history = openOrNull(repo);
        QVERIFY(history);
        const Result<PersonaRevision> read = history->readRevision(QStringLiteral("HEAD"),
                                                                   ReadOptions(4096));
        QVERIFY(!read.ok());
        QVERIFY2(read.error().contains(QLatin1String("damaged"))
                     && read.error().contains(QLatin1String("SOUL.md"))
                     && read.error().contains(QString::fromLatin1(blob)),
                 qPrintable(read.error()));
        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY2(log.ok(), qPrintable(log.error())); // the trees are whole
        HistoryCounts counts = makeCounts();
        const Result<SoulFigures> figures = history->measure(log->at(0), counts);
        QVERIFY(!figures.ok());
        QVERIFY2(figures.error().contains(QString::fromLatin1(blob)), qPrintable(figures.error()));
    }

    // Each blob is counted once, and the sum of section shares is the count
    // of the whole soul.
    void countsByBlob()
    {
        const QString repo = makeRepo(QStringLiteral("counts"));
        const QString soulPath = QDir(repo).filePath(QStringLiteral("SOUL.md"));
        const QString memoryPath = QDir(repo).filePath(QStringLiteral("MEMORY.md"));
        const QByteArray texts[] = {"You are Ava.\n", "You are Ava, careful.\n", "You are Ava.\n"};
        QVERIFY(writeBytes(memoryPath, "- one.\n"));
        for (const QByteArray &text : texts) {
            QVERIFY(writeBytes(soulPath, text));
            QVERIFY(!m_git->commitAll(repo, QStringLiteral("soul")).isEmpty());
        }
        QVERIFY(writeBytes(memoryPath, "- one.\n- two.\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("memory")).isEmpty());
        const auto history = openOrNull(repo);
        QVERIFY(history);
        const Result<QList<HistoryCommit>> log = history->log();
        QVERIFY(log.ok());
        QCOMPARE(log->size(), 4);
        HistoryCounts counts = makeCounts();
        QSet<QByteArray> blobs;
        for (const HistoryCommit &commit : *log) {
            for (int slot = 0; slot < SlotCount; ++slot) {
                for (const HistorySlot *s :
                     {&commit.slots[size_t(slot)], &commit.before[size_t(slot)]}) {
                    if (s->present())
                        blobs.insert(QByteArray::number(slot) + s->blobId);
                }
            }
            const Result<SoulFigures> figures = history->measure(commit, counts);
            QVERIFY2(figures.ok(), qPrintable(figures.error()));
            const Composition composition = compose(slotBuffers(
                history->readRevision(QString::fromLatin1(commit.id), ReadOptions(4096))->reads));
            const SoulTokenCounts tokens = countSoulTokens(composition, counts.tokenizer());
            QCOMPARE(figures->soulBytes, qint64(composition.soul.size()));
            QCOMPARE(figures->soulTokens, tokens.soul);
            QCOMPARE(figures->sectionTokens, tokens.sections);
        }
        QCOMPARE(blobs.size(), 4); // two SOUL.md blobs and two MEMORY.md blobs
        QCOMPARE(counts.sectionsCounted(), qint64(blobs.size()));
        for (const HistoryCommit &commit : *log)
            QVERIFY(history->measure(commit, counts).ok());
        QCOMPARE(counts.sectionsCounted(), qint64(blobs.size()));
        const qint64 grew = counts.countSection(6, "- one.\n- two.\n").tokens
                            - counts.countSection(6, "- one.\n").tokens;
        QVERIFY(grew > 0);
        QCOMPARE(history->measure(log->at(0), counts)->tokenChange[6], grew);
    }

    // A section counted line by line, each line once, gives the tokenizer's
    // count of the whole section, and of the section with the join after it.
    void sectionCountsByLines_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::newRow("o200k_base") << QStringLiteral("o200k_base");
        QTest::newRow("cl100k_base") << QStringLiteral("cl100k_base");
    }

    void sectionCountsByLines()
    {
        QFETCH(QString, encoding);
        const auto tokenizer = Tokenizer::builtin(encoding);
        QVERIFY(tokenizer && tokenizer->splitsAtLines());
        HistoryCounts counts(tokenizer);
        // Fragments that meet at line starts in every way Markdown makes
        // them: lists, headings, paths, numbers, quotes, CR LF, blank lines,
        // white space that is not ASCII, text over the cap's notice.
        const QList<QByteArray> fragments = {
            "\n",
            "\r\n",
            "\n\n",
            " ",
            "\t",
            "- ",
            "* ",
            "## ",
            "1. ",
            "/usr/bin",
            "./notes",
            "'s",
            "\"quoted\"",
            "word",
            "Word",
            "don't",
            ".",
            "...",
            ":",
            "—",
            "é",
            "日本",
            "🙂",
            "\xC2\xA0",
            "\xE2\x80\xA8",
            "\xC2\x85",
            "42",
            "#",
            "> ",
            "|a|b|",
            "`code`",
            "!",
            "?\n",
            "\n/",
            "\n-",
            "\n ",
            "\r",
            "\xff",
            "<|endoftext|>",
            "https://x.org/a",
            "\n\n## TOOLS.md\n\n",
        };
        QRandomGenerator random(18);
        QList<QByteArray> texts = {"- one\n- two\n- three\n",
                                   "# Title\n\nText.\n\n## Part\n\n1. a\n2. b\n",
                                   "line\r\n- item\r\n/path\r\nend.",
                                   "no line break at all",
                                   "",
                                   "\n\n\n"};
        for (int i = 0; i < 400; ++i) {
            QByteArray text;
            const int parts = int(random.bounded(1, 60));
            for (int k = 0; k < parts; ++k)
                text += fragments.at(qsizetype(random.bounded(int(fragments.size()))));
            texts.append(text);
        }
        for (const QByteArray &text : std::as_const(texts)) {
            const int slot = int(random.bounded(SlotCount));
            const QByteArray section = composeSection(slot, text);
            const HistoryCounts::Section counted = counts.countSection(slot, text);
            QCOMPARE(counted.bytes, qint64(section.size()));
            QVERIFY2(counted.tokens == tokenizer->count(section),
                     text.toPercentEncoding().constData());
            QVERIFY2(counted.shareTokens == tokenizer->count(section + "\n\n"),
                     text.toPercentEncoding().constData());
        }
        // Lines seen before are not counted again.
        const qint64 pieces = counts.piecesCounted();
        counts.countSection(6, "- one\n- two\n- three\n");
        QCOMPARE(counts.piecesCounted(), pieces);
        counts.countSection(6, "- one\n- two\n- three\n- four\n");
        // "- three\n" (the last line before, now with its line break),
        // "- four", and "- four" with the join.
        QCOMPARE(counts.piecesCounted(), pieces + 3);
    }

    // A window opens one PersonaHistory per worker and shares the counts.
    void workersShareCounts()
    {
        const QString repo = makeRepo(QStringLiteral("workers"));
        for (int i = 0; i < 12; ++i) {
            QVERIFY(writeBytes(QDir(repo).filePath(
                                   QLatin1String(BootstrapOrder[size_t(i % SlotCount)])),
                               QByteArray("revision ") + QByteArray::number(i) + "\n"));
            QVERIFY(!m_git->commitAll(repo, QStringLiteral("c%1").arg(i)).isEmpty());
        }
        auto counts = std::make_shared<HistoryCounts>(Tokenizer::builtin(QString()));
        QList<qint64> totals[2];
        const auto work = [&](int k) {
            const auto history = openOrNull(repo);
            if (!history)
                return;
            history->log([&](const HistoryCommit &commit) {
                const Result<SoulFigures> figures = history->measure(commit, *counts);
                totals[k].append(figures ? figures->soulTokens : -1);
                return true;
            });
        };
        std::unique_ptr<QThread> a(QThread::create(work, 0));
        std::unique_ptr<QThread> b(QThread::create(work, 1));
        a->start();
        b->start();
        QVERIFY(a->wait(60000) && b->wait(60000));
        QCOMPARE(totals[0].size(), 12);
        QCOMPARE(totals[0], totals[1]);
        QVERIFY(!totals[0].contains(-1));
    }

    // ---- checkpoints ---------------------------------------------------

    // Only the slot files are committed; every other change, staged or not,
    // stays where it was, and the working files are not written.
    // A record of a dead run that names something outside the git folder
    // (written by hand, or in a copy of someone else's repository) is left
    // alone, and nothing it names is touched.
    void checkpointIgnoresForeignRecords()
    {
        const QString repo = makeRepo(QStringLiteral("foreign"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "You are Ava.\n"));
        const QByteArray head = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(!head.isEmpty());
        const QString outside = path(QStringLiteral("outside.txt"));
        QVERIFY(writeBytes(outside, "not the repository's\n"));
        QVERIFY(writeBytes(outside + QStringLiteral(".lock"), ""));
        const QString record = QDir(repo).filePath(
            QStringLiteral(".git/soulstudio-checkpoint-999999"));
        const QByteArray text = "host " + QSysInfo::machineHostName().toUtf8()
                                + "\nref ../../outside.txt\nold " + head + "\nnew " + head + "\n";
        QVERIFY(writeBytes(record, text));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "You are Ava, still.\n"));
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QCOMPARE(readBytes(outside), QByteArray("not the repository's\n"));
        QVERIFY(QFileInfo::exists(outside + QStringLiteral(".lock")));
        QCOMPARE(readBytes(record), text);
    }

    // A file changed in the same second as the index that staged it is
    // "racily clean": the index's stat data cannot tell (git compares whole
    // seconds). A checkpoint writes a later index, so such an entry is
    // written smudged (size 0), as git writes it, and git still sees the
    // change.
    void checkpointKeepsRacyEntriesVisible()
    {
        const QString repo = makeRepo(QStringLiteral("racy"));
        const auto at = [&](const char *name) { return QDir(repo).filePath(QLatin1String(name)); };
        const auto statOf = [](const QString &path) {
            struct stat st = {};
            ::stat(QFile::encodeName(path).constData(), &st);
            return st;
        };
        QVERIFY(writeBytes(at("SOUL.md"), "You are Ava.\n"));
        QVERIFY(writeBytes(at("notes.txt"), "aaaa\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("one")).isEmpty());
        // `git add`, then an edit of the same size in the same second (tried
        // again when the clock ticked between the two).
        time_t second = 0;
        for (int attempt = 0; attempt < 10 && second == 0; ++attempt) {
            QVERIFY(writeBytes(at("notes.txt"), "bbbb\n"));
            QVERIFY(
                !m_git->git(repo, {QStringLiteral("add"), QStringLiteral("notes.txt")}).isNull());
            const struct stat added = statOf(at("notes.txt"));
            QVERIFY(writeBytes(at("notes.txt"), "cccc\n"));
            const struct stat edited = statOf(at("notes.txt"));
            const struct stat index = statOf(at(".git/index"));
            if (added.st_mtime == edited.st_mtime && added.st_ctime == edited.st_ctime
                && index.st_mtime == edited.st_mtime)
                second = edited.st_mtime;
        }
        QVERIFY(second != 0);
        // The checkpoint's index is dated later than that second.
        QTRY_VERIFY_WITH_TIMEOUT(::time(nullptr) > second + 1, 5000);
        QVERIFY(writeBytes(at("SOUL.md"), "You are Ava, still.\n"));
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray("MM notes.txt\n"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("diff"), QStringLiteral("--name-only")}),
                 QByteArray("notes.txt\n"));
    }

    void checkpointStagesOnlySlots()
    {
        const QString repo = makeRepo(QStringLiteral("stage"));
        const QString persona = QDir(repo).filePath(QStringLiteral("agents/ava"));
        const auto at = [&](const QString &base, const char *name) {
            return QDir(base).filePath(QLatin1String(name));
        };
        QVERIFY(writeBytes(at(persona, "SOUL.md"), "You are Ava.\n"));
        QVERIFY(writeBytes(at(persona, "USER.md"), "The user.\n"));
        QVERIFY(writeBytes(at(persona, "MEMORY.md"), "- remember this\n"));
        QVERIFY(writeBytes(at(repo, "README.md"), "readme\n"));
        QVERIFY(writeBytes(at(repo, "notes.txt"), "notes\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(!c1.isEmpty());

        QVERIFY(
            writeBytes(at(persona, "SOUL.md"), "You are Ava, a careful and thorough assistant.\n"));
        QVERIFY(QFile::remove(at(persona, "MEMORY.md")));
        QVERIFY(writeBytes(at(persona, "IDENTITY.md"), "Ava.\n"));
        QVERIFY(writeBytes(at(persona, "tools.md"), "a case variant, not a slot\n"));
        QVERIFY(writeBytes(at(repo, "README.md"), "readme, edited\n"));
        QVERIFY(writeBytes(at(repo, "notes.txt"), "notes, staged\n"));
        QVERIFY(!m_git->git(repo, {QStringLiteral("add"), QStringLiteral("notes.txt")}).isNull());
        QVERIFY(writeBytes(at(repo, "untracked.txt"), "untracked\n"));
        const QByteArray statusBefore
            = m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")});
        QStringList files = {at(persona, "SOUL.md"),
                             at(persona, "USER.md"),
                             at(persona, "IDENTITY.md"),
                             at(persona, "tools.md"),
                             at(repo, "README.md"),
                             at(repo, "notes.txt"),
                             at(repo, "untracked.txt")};
        QList<QByteArray> bytesBefore;
        for (const QString &file : files)
            bytesBefore.append(readBytes(file));

        auto history = openOrNull(persona);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        const Result<CheckpointPlan> plan = history->planCheckpoint(counts);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        QCOMPARE(plan->slots.size(), 3);
        QCOMPARE(plan->slots.at(0).slot, 1);
        QCOMPARE(plan->slots.at(0).change, SlotChange::Modified);
        QVERIFY(plan->slots.at(0).tokensAfter > plan->slots.at(0).tokensBefore);
        QCOMPARE(plan->slots.at(1).change, SlotChange::Added);
        QCOMPARE(plan->slots.at(2).change, SlotChange::Removed);
        QCOMPARE(plan->message,
                 QStringLiteral("SOUL.md +%1 tokens; IDENTITY.md added (+%2 tokens); MEMORY.md "
                                "removed (-%3 tokens)")
                     .arg(plan->slots.at(0).tokensAfter - plan->slots.at(0).tokensBefore)
                     .arg(plan->slots.at(1).tokensAfter)
                     .arg(plan->slots.at(2).tokensBefore));
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QCOMPARE(made->message, plan->message);

        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
        QCOMPARE(
            m_git->git(repo,
                       {QStringLiteral("diff-tree"),
                        QStringLiteral("--no-commit-id"),
                        QStringLiteral("--name-status"),
                        QStringLiteral("-r"),
                        QStringLiteral("HEAD")}),
            QByteArray(
                "A\tagents/ava/IDENTITY.md\nD\tagents/ava/MEMORY.md\nM\tagents/ava/SOUL.md\n"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray(
                     " M README.md\nM  notes.txt\n?? agents/ava/tools.md\n?? untracked.txt\n"));
        QVERIFY(statusBefore
                != m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}));
        for (qsizetype i = 0; i < files.size(); ++i)
            QCOMPARE(readBytes(files.at(i)), bytesBefore.at(i));
        QVERIFY(!QFileInfo::exists(at(persona, "MEMORY.md")));
        // The staged change of notes.txt is still staged, with its bytes.
        QCOMPARE(m_git->git(repo, {QStringLiteral("show"), QStringLiteral(":notes.txt")}),
                 QByteArray("notes, staged\n"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("show"), QStringLiteral("HEAD:notes.txt")}),
                 QByteArray("notes\n"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                 QByteArray(""));

        // Again: nothing left to commit, and nothing written.
        const QByteArray index = indexBytes(repo);
        const Result<Checkpoint> again = history->checkpoint(QString(), counts);
        QVERIFY2(again.ok(), qPrintable(again.error()));
        QVERIFY(again->nothingToCommit);
        QCOMPARE(indexBytes(repo), index);
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), made->id);
    }

    void checkpointLinksAndModes()
    {
        const QString repo = makeRepo(QStringLiteral("modes"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("notes.md")), "linked\n"));
        QVERIFY(makeSymlink(QStringLiteral("notes.md"),
                            QDir(repo).filePath(QStringLiteral("SOUL.md"))));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("TOOLS.md")), "tools\n"));
        QVERIFY(QFile::setPermissions(QDir(repo).filePath(QStringLiteral("TOOLS.md")),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QStringLiteral("links"), counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        // notes.md is not a slot: the link is committed, its target is not.
        QCOMPARE(m_git->git(repo,
                            {QStringLiteral("ls-tree"),
                             QStringLiteral("--name-only"),
                             QStringLiteral("HEAD")}),
                 QByteArray("SOUL.md\nTOOLS.md\n"));
        QVERIFY(
            m_git
                ->git(repo,
                      {QStringLiteral("ls-tree"), QStringLiteral("HEAD"), QStringLiteral("SOUL.md")})
                .startsWith("120000 blob"));
        QVERIFY(m_git
                    ->git(repo,
                          {QStringLiteral("ls-tree"),
                           QStringLiteral("HEAD"),
                           QStringLiteral("TOOLS.md")})
                    .startsWith("100755 blob"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray("?? notes.md\n"));
        // Only the mode changes: still a change to commit.
        QVERIFY(QFile::setPermissions(QDir(repo).filePath(QStringLiteral("TOOLS.md")),
                                      QFile::ReadOwner | QFile::WriteOwner));
        const Result<Checkpoint> mode = history->checkpoint(QString(), counts);
        QVERIFY2(mode.ok() && !mode->nothingToCommit, qPrintable(mode.error()));
        QCOMPARE(mode->message, QStringLiteral("TOOLS.md changed"));
        QVERIFY(m_git
                    ->git(repo,
                          {QStringLiteral("ls-tree"),
                           QStringLiteral("HEAD"),
                           QStringLiteral("TOOLS.md")})
                    .startsWith("100644 blob"));
    }

    void checkpointAuthor()
    {
        const QString repo = makeRepo(QStringLiteral("author"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "one\n"));
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        QVERIFY(history->checkpoint(QString(), counts).ok());
        QCOMPARE(m_git->git(repo,
                            {QStringLiteral("log"),
                             QStringLiteral("-1"),
                             QStringLiteral("--format=%an <%ae>|%cn <%ce>")}),
                 QByteArray(
                     "Soul Studio <soulstudio@localhost>|Soul Studio <soulstudio@localhost>\n"));
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("config"),
                            QStringLiteral("user.name"),
                            QStringLiteral("Ava Author")})
                     .isNull());
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("config"),
                            QStringLiteral("user.email"),
                            QStringLiteral("ava@example.org")})
                     .isNull());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "two\n"));
        history = openOrNull(repo);
        QVERIFY(history->checkpoint(QString(), counts).ok());
        QCOMPARE(m_git->git(repo,
                            {QStringLiteral("log"),
                             QStringLiteral("-1"),
                             QStringLiteral("--format=%an <%ae>")}),
                 QByteArray("Ava Author <ava@example.org>\n"));
    }

    // Another git holds the index: nothing is written, and the sentence says
    // which file is in the way.
    void checkpointLockedIndex()
    {
        const QString repo = makeRepo(QStringLiteral("locked"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "one\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "two\n"));
        const QString lock = QDir(repo).filePath(QStringLiteral(".git/index.lock"));
        QVERIFY(writeBytes(lock, ""));
        const QByteArray index = indexBytes(repo);
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY(!made.ok());
        QVERIFY2(made.error().contains(lock) && made.error().contains(QLatin1String("locked")),
                 qPrintable(made.error()));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), c1);
        QCOMPARE(indexBytes(repo), index);
        QCOMPARE(readBytes(QDir(repo).filePath(QStringLiteral("SOUL.md"))), QByteArray("two\n"));
        QVERIFY(QFileInfo::exists(lock)); // not ours to remove
        QVERIFY(QFile::remove(lock));
        QVERIFY(history->checkpoint(QString(), counts).ok());
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
    }

    void checkpointRefusesLocks_data()
    {
        QTest::addColumn<QString>("lock");
        QTest::addColumn<bool>("detached");
        QTest::addColumn<bool>("gitRefuses");
        QTest::newRow("HEAD.lock") << QStringLiteral(".git/HEAD.lock") << false << true;
        QTest::newRow("the branch's lock")
            << QStringLiteral(".git/refs/heads/main.lock") << false << true;
        QTest::newRow("index.lock") << QStringLiteral(".git/index.lock") << false << true;
        QTest::newRow("packed-refs.lock")
            << QStringLiteral(".git/packed-refs.lock") << false << false;
        QTest::newRow("HEAD.lock, HEAD detached")
            << QStringLiteral(".git/HEAD.lock") << true << true;
    }

    // Every lock git honours stops a checkpoint before it writes anything:
    // no object, no reflog line, no index, no file of its own; the lock is
    // not ours and stays. Once it is gone the same checkpoint goes through,
    // keeping a change staged by hand.
    void checkpointRefusesLocks()
    {
        QFETCH(QString, lock);
        QFETCH(bool, detached);
        QFETCH(bool, gitRefuses);
        const QString repo = makeRepo(QStringLiteral("locked"));
        const auto at = [&repo](const QString &name) { return QDir(repo).filePath(name); };
        QVERIFY(writeBytes(at(QStringLiteral("SOUL.md")), "one\n"));
        QVERIFY(writeBytes(at(QStringLiteral("other.txt")), "other\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(!c1.isEmpty());
        if (detached) {
            QVERIFY(!m_git
                         ->git(repo,
                               {QStringLiteral("checkout"),
                                QStringLiteral("-q"),
                                QStringLiteral("--detach")})
                         .isNull());
        }
        QVERIFY(writeBytes(at(QStringLiteral("SOUL.md")), "two\n"));
        QVERIFY(writeBytes(at(QStringLiteral("MEMORY.md")), "- likes tea\n"));
        QVERIFY(writeBytes(at(QStringLiteral("other.txt")), "other, staged\n"));
        QVERIFY(!m_git->git(repo, {QStringLiteral("add"), QStringLiteral("other.txt")}).isNull());
        const QString lockPath = at(lock);
        QVERIFY(writeBytes(lockPath, ""));
        const QMap<QString, QByteArray> before = gitFiles(repo);
        const QStringList objects = objectFiles(repo);
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY(!made.ok());
        QVERIFY2(made.error().contains(lockPath)
                     && made.error().contains(QLatin1String("another git program"))
                     && made.error().contains(QLatin1String("remove the file if no git program "
                                                            "is running"))
                     && made.error().contains(QLatin1String("nothing was written")),
                 qPrintable(made.error()));
        QCOMPARE(differences(before, gitFiles(repo)), QString());
        QCOMPARE(objectFiles(repo), objects);
        if (gitRefuses) {
            // git sees the same lock.
            QVERIFY(m_git
                        ->git(repo,
                              {QStringLiteral("commit"),
                               QStringLiteral("-q"),
                               QStringLiteral("-m"),
                               QStringLiteral("by git")})
                        .isNull());
            QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), c1);
        }
        QVERIFY(QFile::remove(lockPath));
        const Result<Checkpoint> again = history->checkpoint(QString(), counts);
        QVERIFY2(again.ok(), qPrintable(again.error()));
        QVERIFY(again->recovered.isEmpty());
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray("M  other.txt\n"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                 QByteArray(""));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD@{0}")),
                 m_git->revParse(repo, QStringLiteral("HEAD")));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD@{1}")), c1);
    }

    // A slot file larger than CheckpointFileLimit (here a 2 GiB sparse one,
    // which costs nothing on disk) is refused at once, by name, with nothing
    // written; one at the limit is committed.
    void checkpointRefusesHugeFile()
    {
        const QString repo = makeRepo(QStringLiteral("huge"));
        const QString memory = QDir(repo).filePath(QStringLiteral("MEMORY.md"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "one\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(!c1.isEmpty());
        QFile file(memory);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(2) << 30));
        file.close();
        const QMap<QString, QByteArray> before = gitFiles(repo);
        const QStringList objects = objectFiles(repo);
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        QElapsedTimer timer;
        timer.start();
        const Result<CheckpointPlan> plan = history->planCheckpoint(counts);
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        for (const QString &error : {plan.error(), made.error()}) {
            QVERIFY2(error.contains(memory) && error.contains(QLatin1String("2048.0 MiB"))
                         && error.contains(QLatin1String("more than the 64 MiB"))
                         && error.contains(QLatin1String("git add")),
                     qPrintable(error));
        }
        QVERIFY(!made.ok());
        QCOMPARE(differences(before, gitFiles(repo)), QString());
        QCOMPARE(objectFiles(repo), objects);
        QVERIFY(QFile::resize(memory, CheckpointFileLimit + 1));
        QVERIFY(!history->checkpoint(QString(), counts).ok());
        QVERIFY(QFile::resize(memory, CheckpointFileLimit));
        const Result<Checkpoint> limit = history->checkpoint(QString(), counts);
        QVERIFY2(limit.ok(), qPrintable(limit.error()));
        QCOMPARE(m_git
                     ->git(repo,
                           {QStringLiteral("cat-file"),
                            QStringLiteral("-s"),
                            QStringLiteral("HEAD:MEMORY.md")})
                     .trimmed(),
                 QByteArray::number(CheckpointFileLimit));
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray(""));
    }

    void checkpointKilledAtEachWrite_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("a change") << int(RepoKind::Change);
        QTest::newRow("the first commit") << int(RepoKind::FirstCommit);
        QTest::newRow("a detached HEAD") << int(RepoKind::Detached);
    }

    // A checkpoint killed with SIGKILL at each of its write calls in turn
    // (open, write, fsync, close, link, rename, unlink: every one goes
    // through fileio) leaves HEAD old or new, never anything else; git fsck
    // finds nothing wrong; with HEAD old the index is as it was, with HEAD
    // new it matches HEAD or waits, new, in index.lock of our own making.
    // The next checkpoint then cleans what the killed one left, says so, and
    // ends with HEAD new, the index matching it and no lock or file of ours.
    void checkpointKilledAtEachWrite()
    {
        QFETCH(int, kind);
        const auto repoKind = RepoKind(kind);
        const QString repo = path(QStringLiteral("killed"));
        const auto at = [&repo](const char *name) {
            return QDir(repo).filePath(QLatin1String(name));
        };
        int kills = 0;
        int finishedByNextRun = 0;
        for (int n = 1;; ++n) {
            QVERIFY(n < 500);
            const QString where = QStringLiteral("killed at call %1").arg(n);
            QByteArray c1;
            QVERIFY(makeCheckpointRepo(repo, repoKind, &c1));
            const QByteArray indexBefore = indexBytes(repo);
            const QByteArray statusBefore
                = m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")});
            const int reflogBefore = reflogCount(repo);
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                auto history = openOrNull(repo);
                if (!history)
                    ::_exit(3);
                HistoryCounts counts = makeCounts();
                fileio::injectKill(n);
                const Result<Checkpoint> made = history->checkpoint(QString(), counts);
                ::_exit(made.ok() ? 0 : 4);
            }
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            const bool ended = WIFEXITED(status);
            if (ended) {
                QCOMPARE(WEXITSTATUS(status), 0);
            } else {
                QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, qPrintable(where));
                ++kills;
            }
            const QByteArray head = m_git->revParse(repo, QStringLiteral("HEAD"));
            const bool moved = !head.isEmpty() && head != c1 && head != QByteArray("HEAD");
            if (moved) {
                if (!c1.isEmpty())
                    QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
                QCOMPARE(m_git->git(repo, {QStringLiteral("show"), QStringLiteral("HEAD:SOUL.md")}),
                         QByteArray("two\n"));
            } else if (!c1.isEmpty()) {
                QCOMPARE(head, c1);
            }
            QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                     QByteArray(""));
            const bool indexWaits = QFileInfo::exists(at(".git/index.lock"));
            if (!moved) {
                QVERIFY2(indexBytes(repo) == indexBefore, qPrintable(where));
                QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                         statusBefore);
            } else if (!indexWaits) {
                QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                         checkpointedStatus(repoKind));
            }
            const QStringList left = ownFiles(repo);
            QVERIFY2(!ended || left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
            // Any lock left is ours, and explained by our record.
            for (const QString &lock : lockFiles(repo)) {
                QVERIFY2(!left.filter(QStringLiteral("soulstudio-checkpoint-")).isEmpty(),
                         qPrintable(where + QStringLiteral(": ") + lock));
            }

            auto history = openOrNull(repo);
            QVERIFY(history);
            HistoryCounts counts = makeCounts();
            const Result<Checkpoint> next = history->checkpoint(QString(), counts);
            QVERIFY2(next.ok(), qPrintable(where + QStringLiteral(": ") + next.error()));
            QCOMPARE(next->nothingToCommit, moved);
            if (!left.isEmpty() && !ended)
                QVERIFY2(!next->recovered.isEmpty(), qPrintable(where));
            if (moved && indexWaits) {
                ++finishedByNextRun;
                QVERIFY2(next->recovered.join(QString()).contains(
                             QLatin1String("index is now in place")),
                         qPrintable(next->recovered.join(QLatin1Char(' '))));
            }
            QVERIFY2(ownFiles(repo).isEmpty(), qPrintable(ownFiles(repo).join(QLatin1Char(' '))));
            QVERIFY2(lockFiles(repo).isEmpty(), qPrintable(lockFiles(repo).join(QLatin1Char(' '))));
            QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                     checkpointedStatus(repoKind));
            QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                     QByteArray(""));
            // One reflog line for the checkpoint, whichever run made it.
            QCOMPARE(reflogCount(repo), reflogBefore + 1);
            if (ended) {
                // The run no call stopped made the commit itself.
                QVERIFY2(moved, qPrintable(where));
                QVERIFY(next->nothingToCommit);
                break;
            }
        }
        qInfo("%d write calls, each killed in turn; the next run finished the index %d time(s)",
              kills,
              finishedByNextRun);
        // Every step was reached: the record, three locks, objects, the
        // reflogs, HEAD, the index and the removals.
        QVERIFY2(kills >= 20, qPrintable(QString::number(kills)));
        // Killed between HEAD's move and the index's (the rename of index.lock).
        QCOMPARE(finishedByNextRun, 1);
    }

    // Files named as a checkpoint's own are removed only when their process
    // is gone, and a lock only when our second name still links to it: a
    // live run's lock, and a lock another program took after a run was
    // killed, stay and refuse the checkpoint by name.
    void checkpointKeepsLocksItDidNotLeave()
    {
        QByteArray c1;
        const QString repo = path(QStringLiteral("others"));
        QVERIFY(makeCheckpointRepo(repo, RepoKind::Change, &c1));
        const auto at = [&repo](const QString &name) { return QDir(repo).filePath(name); };
        const QString lock = at(QStringLiteral(".git/index.lock"));
        // A checkpoint still running: its process waits on a pipe.
        int pipe[2];
        QVERIFY(::pipe(pipe) == 0);
        const pid_t live = ::fork();
        QVERIFY(live >= 0);
        if (live == 0) {
            ::close(pipe[1]);
            char byte = 0;
            ::_exit(::read(pipe[0], &byte, 1) < 0 ? 1 : 0);
        }
        ::close(pipe[0]);
        const QString record = at(QStringLiteral(".git/soulstudio-checkpoint-%1").arg(live));
        const QByteArray zeros(40, '0');
        QVERIFY(writeBytes(record,
                           "host " + QSysInfo::machineHostName().toUtf8()
                               + "\nref refs/heads/main\nold " + c1 + "\nnew " + zeros + "\n"));
        QVERIFY(writeBytes(record + QStringLiteral(".index"), "index of the live run"));
        QVERIFY(::link(QFile::encodeName(record + QStringLiteral(".index")).constData(),
                       QFile::encodeName(lock).constData())
                == 0);
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY(!made.ok());
        QVERIFY2(made.error().contains(lock), qPrintable(made.error()));
        QVERIFY(QFileInfo::exists(lock) && QFileInfo::exists(record));
        // The run ends (killed); meanwhile another program took index.lock anew.
        ::close(pipe[1]);
        int status = 0;
        QCOMPARE(::waitpid(live, &status, 0), live);
        QVERIFY(QFile::remove(lock));
        QVERIFY(writeBytes(lock, "another program's"));
        made = history->checkpoint(QString(), counts);
        QVERIFY(!made.ok());
        QVERIFY2(made.error().contains(lock), qPrintable(made.error()));
        QCOMPARE(readBytes(lock), QByteArray("another program's"));
        QVERIFY(ownFiles(repo).isEmpty()); // the dead run's own files went
        QVERIFY(made.error().contains(QLatin1String("was stopped before it ended")));
        QVERIFY(QFile::remove(lock));
        made = history->checkpoint(QString(), counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QVERIFY(made->recovered.isEmpty());
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 checkpointedStatus(RepoKind::Change));
    }

    // A run whose process id looks dead here, but whose record is still
    // locked (a run in another PID namespace, sharing the repository), is
    // alive: its lock and files stay.
    void checkpointKeepsARunWithItsRecordLocked()
    {
        QByteArray c1;
        const QString repo = path(QStringLiteral("namespaced"));
        QVERIFY(makeCheckpointRepo(repo, RepoKind::Change, &c1));
        const auto at = [&repo](const QString &name) { return QDir(repo).filePath(name); };
        const QString lock = at(QStringLiteral(".git/index.lock"));
        const QString record = at(QStringLiteral(".git/soulstudio-checkpoint-999999"));
        QVERIFY(::kill(999999, 0) != 0); // no such process here
        const QByteArray zeros(40, '0');
        QVERIFY(writeBytes(record,
                           "host " + QSysInfo::machineHostName().toUtf8()
                               + "\nref refs/heads/main\nold " + c1 + "\nnew " + zeros + "\n"));
        QVERIFY(writeBytes(record + QStringLiteral(".index"), "index of the other run"));
        QVERIFY(::link(QFile::encodeName(record + QStringLiteral(".index")).constData(),
                       QFile::encodeName(lock).constData())
                == 0);
        const int held = ::open(QFile::encodeName(record).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(held >= 0);
        QVERIFY(::flock(held, LOCK_EX | LOCK_NB) == 0);
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY(!made.ok());
        QVERIFY2(made.error().contains(lock), qPrintable(made.error()));
        QVERIFY(QFileInfo::exists(lock) && QFileInfo::exists(record));
        QCOMPARE(readBytes(lock), QByteArray("index of the other run"));
        // Once its lock is let go (the run was killed), the next checkpoint
        // cleans up after it and commits.
        ::close(held);
        made = history->checkpoint(QString(), counts);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QVERIFY(!QFileInfo::exists(lock) && !QFileInfo::exists(record));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
    }

    void checkpointFaults_data()
    {
        test::addFaultRows({test::Call::Open,
                            test::Call::Write,
                            test::Call::ShortWrite,
                            test::Call::Sync,
                            test::Call::Close,
                            test::Call::Rename,
                            test::Call::Link,
                            test::Call::Unlink});
    }

    // Each write call of a checkpoint fails in turn as a full, failing or
    // read-only disk fails it (the full disk of CI, which cannot mount a
    // small tmpfs): the sentence names the cause and what to do, and HEAD,
    // the refs, the reflogs and the index are as they were, with only whole
    // objects new; or, when only the index could not be put in place after
    // HEAD moved, the sentence says so and the next checkpoint finishes it.
    // Either way the next checkpoint goes through. An unlink fails only after
    // the commit is made (HEAD's guard lock, the run's second names, its
    // record): the commit stands, the run says what it left, and the next
    // checkpoint removes it and says so.
    void checkpointFaults()
    {
        const QString repo = path(QStringLiteral("faults"));
        int failures = 0;
        for (int k = 1;; ++k) {
            QVERIFY(k < 200);
            QByteArray c1;
            QVERIFY(makeCheckpointRepo(repo, RepoKind::Change, &c1));
            const QMap<QString, QByteArray> before = gitFiles(repo);
            const QStringList objectsBefore = objectFiles(repo);
            auto history = openOrNull(repo);
            QVERIFY(history);
            HistoryCounts counts = makeCounts();
            test::armRowFault(k);
            const Result<Checkpoint> made = history->checkpoint(QString(), counts);
            const bool fired = fileio::clearFault();
            if (!fired) {
                QVERIFY2(made.ok(), qPrintable(made.error()));
                QVERIFY(!made->nothingToCommit);
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), made->id);
                break;
            }
            QFETCH(int, error);
            QFETCH(int, op);
            const QString where = QStringLiteral("call %1: ").arg(k);
            if (fileio::Op(op) == fileio::Op::Unlink) {
                QVERIFY2(made.ok(), qPrintable(where + made.error()));
                ++failures;
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), made->id);
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
                QVERIFY2(made->leftovers.size() == 1
                             && made->leftovers.first()
                                    .contains(QLatin1String("the next checkpoint removes it"),
                                              Qt::CaseInsensitive),
                         qPrintable(where + made->leftovers.join(QLatin1Char(' '))));
                QVERIFY2(!ownFiles(repo).isEmpty(), qPrintable(where));
                const Result<Checkpoint> again = history->checkpoint(QString(), counts);
                QVERIFY2(again.ok(), qPrintable(where + again.error()));
                QVERIFY(again->nothingToCommit);
                QVERIFY2(!again->recovered.isEmpty(), qPrintable(where));
                QVERIFY2(lockFiles(repo).isEmpty() && ownFiles(repo).isEmpty(),
                         qPrintable(where
                                    + (lockFiles(repo) + ownFiles(repo)).join(QLatin1Char(' '))));
                QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                         QByteArray(""));
                continue;
            }
            QVERIFY2(!made.ok(), qPrintable(where));
            ++failures;
            const bool headMoved = made.error().contains(
                QLatin1String("could not be put in place"));
            if (headMoved) {
                QVERIFY2(made.error().contains(QLatin1String(".git/index.lock")),
                         qPrintable(made.error()));
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
            } else {
                QVERIFY2(made.error().contains(test::cureFor(error))
                             && made.error().contains(QLatin1String("nothing was committed"),
                                                      Qt::CaseInsensitive),
                         qPrintable(where + made.error()));
                QCOMPARE(differences(before, gitFiles(repo)), QString());
                for (const QString &object : objectFiles(repo)) {
                    if (objectsBefore.contains(object))
                        continue;
                    const QString id = object.mid(8, 2) + object.mid(11);
                    QVERIFY2(!m_git
                                  ->git(repo, {QStringLiteral("cat-file"), QStringLiteral("-t"), id})
                                  .isNull(),
                             qPrintable(where + object));
                }
            }
            QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                     QByteArray(""));
            const Result<Checkpoint> again = history->checkpoint(QString(), counts);
            QVERIFY2(again.ok(), qPrintable(where + again.error()));
            QCOMPARE(again->nothingToCommit, headMoved);
            QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                     checkpointedStatus(RepoKind::Change));
            QVERIFY2(lockFiles(repo).isEmpty() && ownFiles(repo).isEmpty(),
                     qPrintable((lockFiles(repo) + ownFiles(repo)).join(QLatin1Char(' '))));
        }
        QVERIFY(failures >= 1);
    }

    // A file system without hard links (FAT, exFAT, some FUSE ones) refuses
    // link() with EPERM: each lock is then taken as git takes it, O_EXCL,
    // and the checkpoint goes through, leaving no lock or file of its own.
    void checkpointWithoutHardLinks()
    {
        const QString repo = path(QStringLiteral("no-links"));
        int fallbacks = 0;
        for (int k = 1;; ++k) {
            QVERIFY(k < 20);
            QByteArray c1;
            QVERIFY(makeCheckpointRepo(repo, RepoKind::Change, &c1));
            auto history = openOrNull(repo);
            QVERIFY(history);
            HistoryCounts counts = makeCounts();
            fileio::injectFault(fileio::Op::Link, k, EPERM);
            const Result<Checkpoint> made = history->checkpoint(QString(), counts);
            const bool fired = fileio::clearFault();
            const QString where = QStringLiteral("link %1: ").arg(k);
            QVERIFY2(made.ok(), qPrintable(where + made.error()));
            QVERIFY(!made->nothingToCommit);
            QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
            QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                     checkpointedStatus(RepoKind::Change));
            QVERIFY2(lockFiles(repo).isEmpty() && ownFiles(repo).isEmpty(),
                     qPrintable(where + (lockFiles(repo) + ownFiles(repo)).join(QLatin1Char(' '))));
            QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                     QByteArray(""));
            if (!fired)
                break;
            ++fallbacks;
        }
        // The index's lock and the branch's, at least.
        QVERIFY2(fallbacks >= 2, qPrintable(QString::number(fallbacks)));
    }

    // A repository that cannot be written: the sentence says so and nothing
    // changes.
    void checkpointReadOnlyRepository()
    {
        QTemporaryDir mountPoint;
        std::unique_ptr<test::ScratchTmpfs> tmpfs;
        QString repo;
        if (::geteuid() == 0) {
            // Root writes through permissions: only a read-only mount stops it.
            tmpfs = std::make_unique<test::ScratchTmpfs>(mountPoint.path(), "size=4m");
            if (!tmpfs->mounted()) {
                const test::NamespaceRun again = test::rerunInMountNamespace();
                if (again.ran) {
                    QVERIFY2(again.passed, qPrintable(again.output));
                    return;
                }
                QSKIP(qPrintable(tmpfs->why()));
            }
            repo = mountPoint.filePath(QStringLiteral("repo"));
            QVERIFY(QDir().mkpath(repo));
            QVERIFY(!m_git->git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
        } else {
            repo = makeRepo(QStringLiteral("readonly"));
        }
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "one\n"));
        const QByteArray c1 = m_git->commitAll(repo, QStringLiteral("one"));
        QVERIFY(!c1.isEmpty());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "two\n"));
        const QByteArray index = indexBytes(repo);
        if (tmpfs) {
            QVERIFY(tmpfs->remountReadOnly("size=4m"));
        } else {
            QVERIFY(!m_git->git(repo, {QStringLiteral("count-objects")}).isNull());
            QProcess::execute(QStringLiteral("chmod"),
                              {QStringLiteral("-R"),
                               QStringLiteral("a-w"),
                               QDir(repo).filePath(QStringLiteral(".git"))});
        }
        auto history = openOrNull(repo);
        QVERIFY(history);
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        if (!tmpfs)
            QProcess::execute(QStringLiteral("chmod"),
                              {QStringLiteral("-R"),
                               QStringLiteral("u+w"),
                               QDir(repo).filePath(QStringLiteral(".git"))});
        QVERIFY(!made.ok());
        QVERIFY2(made.error().contains(QFileInfo(repo).canonicalFilePath())
                     && made.error().contains(QLatin1String("Nothing was committed"),
                                              Qt::CaseInsensitive),
                 qPrintable(made.error()));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), c1);
        QCOMPARE(indexBytes(repo), index);
        QCOMPARE(readBytes(QDir(repo).filePath(QStringLiteral("SOUL.md"))), QByteArray("two\n"));
    }

    void checkpointFullDisk_data()
    {
        QTest::addColumn<QString>("sub");
        QTest::addColumn<bool>("firstCommit");
        QTest::addColumn<bool>("logsAtPageEnd");
        QTest::newRow("a change") << QString() << false << false;
        QTest::newRow("a persona in a subfolder, reflogs at a page's end")
            << QStringLiteral("agents/ava") << false << true;
        QTest::newRow("the first commit") << QString() << true << false;
    }

    // A full disk stops the checkpoint at whichever write it reaches first:
    // with 0, 1, 2... pages free, each attempt either commits or fails with a
    // sentence that says the disk is full, leaving HEAD, the refs, the
    // reflogs, the index and the files byte for byte as they were and no lock
    // or temporary file behind (new objects only, whole, for git gc); once
    // space is freed the same checkpoint goes through.
    void checkpointFullDisk()
    {
        QFETCH(QString, sub);
        QFETCH(bool, firstCommit);
        QFETCH(bool, logsAtPageEnd);
        QTemporaryDir mountPoint;
        QVERIFY(mountPoint.isValid());
        // Root mounts the tmpfs; where it may not, or for another user, the
        // test runs again in a user and mount namespace of its own.
        std::unique_ptr<test::ScratchTmpfs> mounted;
        if (::geteuid() == 0)
            mounted = std::make_unique<test::ScratchTmpfs>(mountPoint.path(), "size=2m");
        if (!mounted || !mounted->mounted()) {
            const test::NamespaceRun again = test::rerunInMountNamespace();
            if (again.ran) {
                QVERIFY2(again.passed, qPrintable(again.output));
                return;
            }
            if (!mounted)
                QSKIP("only root can mount the small tmpfs that is filled here");
            QSKIP(qPrintable(mounted->why()));
        }
        const QString repo = mountPoint.filePath(QStringLiteral("repo"));
        const QString persona = sub.isEmpty() ? repo : QDir(repo).filePath(sub);
        const QString ballast = mountPoint.filePath(QStringLiteral("ballast"));
        const auto at = [&persona](const char *name) {
            return QDir(persona).filePath(QLatin1String(name));
        };
        const QStringList workFiles = {at("SOUL.md"), at("MEMORY.md"), at("notes.txt")};
        int failures = 0;
        bool committed = false;
        for (qint64 pages = 0; pages <= 64 && !committed; ++pages) {
            const QString where = QStringLiteral("with %1 pages free").arg(pages);
            // A new repository each time: objects an attempt left must not
            // spare the next one a write.
            QVERIFY(!QFileInfo::exists(repo) || QDir(repo).removeRecursively());
            QVERIFY(QDir().mkpath(persona));
            QVERIFY(!m_git->git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
            QByteArray c1;
            if (!firstCommit) {
                QVERIFY(writeBytes(at("SOUL.md"), "You are Ava.\n"));
                QVERIFY(writeBytes(at("notes.txt"), "not a slot\n"));
                c1 = m_git->commitAll(repo, QStringLiteral("one"));
                QVERIFY2(!c1.isEmpty(), qPrintable(m_git->lastError()));
                if (logsAtPageEnd) {
                    QVERIFY(
                        padReflog(QDir(repo).filePath(QStringLiteral(".git/logs/HEAD")), c1, 20));
                    QVERIFY(
                        padReflog(QDir(repo).filePath(QStringLiteral(".git/logs/refs/heads/main")),
                                  c1,
                                  20));
                }
            }
            QVERIFY(writeBytes(at("SOUL.md"), "You are Ava, careful and kind.\n"));
            QVERIFY(writeBytes(at("MEMORY.md"), "- likes tea\n"));
            const QMap<QString, QByteArray> gitBefore = gitFiles(repo);
            const QStringList objectsBefore = objectFiles(repo);
            QList<QByteArray> workBefore;
            for (const QString &file : workFiles)
                workBefore.append(readBytes(file));

            QString error;
            QVERIFY2(test::fillFileSystem(ballast, pages, &error), qPrintable(error));
            auto history = openOrNull(persona);
            QVERIFY(history);
            HistoryCounts counts = makeCounts();
            const Result<Checkpoint> made = history->checkpoint(QString(), counts);
            if (made.ok()) {
                committed = true;
                QVERIFY(!made->nothingToCommit);
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), made->id);
                QVERIFY(QFile::remove(ballast));
            } else {
                ++failures;
                QVERIFY2(made.error().contains(QLatin1String(
                             "The disk is full: free some space on it, then checkpoint again; "
                             "nothing was committed.")),
                         qPrintable(where + QStringLiteral(": ") + made.error()));
                const QString changed = differences(gitBefore, gitFiles(repo));
                QVERIFY2(changed.isEmpty(), qPrintable(where + QStringLiteral(":\n") + changed));
                // Only whole objects are new, which git reads.
                for (const QString &object : objectFiles(repo)) {
                    if (objectsBefore.contains(object))
                        continue;
                    QVERIFY2(QRegularExpression(
                                 QStringLiteral("^objects/[0-9a-f]{2}/[0-9a-f]{38}$"))
                                 .match(object)
                                 .hasMatch(),
                             qPrintable(where + QStringLiteral(": ") + object));
                    const QString id = object.mid(8, 2) + object.mid(11);
                    QVERIFY2(!m_git
                                  ->git(repo, {QStringLiteral("cat-file"), QStringLiteral("-t"), id})
                                  .isNull(),
                             qPrintable(m_git->lastError()));
                }
                for (qsizetype i = 0; i < workFiles.size(); ++i)
                    QCOMPARE(readBytes(workFiles.at(i)), workBefore.at(i));
                // Space again: the same checkpoint goes through.
                QVERIFY(QFile::remove(ballast));
                const Result<Checkpoint> again = history->checkpoint(QString(), counts);
                QVERIFY2(again.ok(),
                         qPrintable(where + QStringLiteral(", then freed: ") + again.error()));
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), again->id);
            }
            // Git reads what was made: the objects, the reflogs, the index.
            QCOMPARE(m_git->git(repo, {QStringLiteral("fsck"), QStringLiteral("--no-dangling")}),
                     QByteArray(""));
            QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD@{0}")),
                     m_git->revParse(repo, QStringLiteral("HEAD")));
            if (!firstCommit) {
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD~1")), c1);
                QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD@{1}")), c1);
            }
            QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                     QByteArray(""));
        }
        QVERIFY2(committed, "the checkpoint never went through, even with 64 pages free");
        // Each write a checkpoint makes (blobs, trees, the index, the commit,
        // the branch, the reflogs) was reached by a full disk at least once.
        QVERIFY2(failures >= 5, qPrintable(QString::number(failures)));
    }

    void checkpointDuringMerge()
    {
        const QString repo = makeRepo(QStringLiteral("merge"));
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "base\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("base")).isEmpty());
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("checkout"),
                            QStringLiteral("-q"),
                            QStringLiteral("-b"),
                            QStringLiteral("side")})
                     .isNull());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "side\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("side")).isEmpty());
        QVERIFY(
            !m_git
                 ->git(repo,
                       {QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("main")})
                 .isNull());
        QVERIFY(writeBytes(QDir(repo).filePath(QStringLiteral("SOUL.md")), "main\n"));
        const QByteArray head = m_git->commitAll(repo, QStringLiteral("main"));
        QVERIFY(
            m_git->git(repo, {QStringLiteral("merge"), QStringLiteral("-q"), QStringLiteral("side")})
                .isNull()); // a conflict
        auto history = openOrNull(repo);
        QVERIFY(history);
        QVERIFY2(history->busyState().contains(QLatin1String("a merge")),
                 qPrintable(history->busyState()));
        HistoryCounts counts = makeCounts();
        const Result<Checkpoint> made = history->checkpoint(QString(), counts);
        QVERIFY(!made.ok());
        QVERIFY2(made.error().contains(QLatin1String("middle of a merge")),
                 qPrintable(made.error()));
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), head);
        // Reading still works.
        QVERIFY(history->log().ok());
        QCOMPARE(revisionSoul(*history, QStringLiteral("HEAD")), QByteArray("## SOUL.md\n\nmain"));
    }
};

QTEST_GUILESS_MAIN(TstHistory)
#include "tst_history.moc"
