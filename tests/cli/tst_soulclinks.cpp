// Link groups: the group file's rules, sync's checks and its kills, and
// `soulc links` as a separate process.
#include "disk/fileio.h"
#include "links/linkgroups.h"
#include "soulcrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace soul;
using namespace soul::clitest;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<absent>");
}

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

} // namespace

class TestSoulcLinks : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    int m_n = 0;

    // A folder of six personas a..f, each with SOUL.md and USER.md; a, b, c
    // and d share USER.md's text, e and f have their own.
    QString place()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("place%1").arg(++m_n));
        for (const char *agent : {"a", "b", "c", "d", "e", "f"}) {
            const QString folder = QDir(dir).filePath(QLatin1String(agent));
            writeBytes(QDir(folder).filePath(QStringLiteral("SOUL.md")),
                       QByteArray("I am ") + agent + "\n");
            const bool shared = QByteArray("abcd").contains(agent[0]);
            writeBytes(QDir(folder).filePath(QStringLiteral("USER.md")),
                       shared ? QByteArray("User: Sam\r\nLikes tea\r\n")
                              : QByteArray("User of ") + agent + "\n");
        }
        return dir;
    }
    // A place with the group "g" of USER.md for `members`, its text the
    // first member's; false when it could not be made.
    static bool grouped(const QString &dir,
                        const QStringList &members,
                        std::optional<LinkPlace> &at,
                        LinkGroups &groups)
    {
        const Result<LinkPlace> place = personaFoldersPlace(dir);
        if (!place)
            return false;
        at = *place;
        Result<LinkGroups> read = readLinkGroups(*at);
        if (!read)
            return false;
        groups = *read;
        return addGroup(*at, groups, QStringLiteral("g"), QStringLiteral("USER.md"), members, {})
            .ok();
    }
    static QString copy(const QString &dir, const char *agent, const char *file = "USER.md")
    {
        return QDir(dir).filePath(QLatin1String(agent) + QLatin1Char('/') + QLatin1String(file));
    }
    // soulc links add: the group "g" of USER.md for a and b; its exit code.
    static int linkUserOfAB(const QString &dir)
    {
        return links({QStringLiteral("add"),
                      QStringLiteral("--name=g"),
                      QStringLiteral("--file=USER.md"),
                      QStringLiteral("--agents=a,b"),
                      dir})
            .exitCode;
    }
    static Run links(const QStringList &arguments)
    {
        SoulcCall call;
        call.arguments = QStringList{QStringLiteral("links")} + arguments;
        return runSoulc(call);
    }
    // The group file's errors: a sentence naming the file and the line, and
    // nothing written because of it.
    void expectRefused(const QString &dir, const QByteArray &text, const QString &expected)
    {
        const QString file = QDir(dir).filePath(QStringLiteral("soul-links.json"));
        QVERIFY(writeBytes(file, text));
        const Result<LinkPlace> at = personaFoldersPlace(dir);
        QVERIFY(at.ok());
        const Result<LinkGroups> read = readLinkGroups(*at);
        QVERIFY2(!read.ok(), qPrintable(expected));
        QVERIFY2(read.error().contains(file), qPrintable(read.error()));
        QVERIFY2(read.error().contains(expected), qPrintable(read.error()));
        const QByteArray before = readAll(copy(dir, "e"));
        const Run run = links({QStringLiteral("sync"), QStringLiteral("--force"), dir});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err.constData());
        QCOMPARE(readAll(file), text);
        QCOMPARE(readAll(copy(dir, "e")), before);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void addListSync()
    {
        const QString dir = place();
        Run run = links({dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QVERIFY(run.out.startsWith("No link groups in "));
        run = links({QStringLiteral("add"),
                     QStringLiteral("--name"),
                     QStringLiteral("house"),
                     QStringLiteral("--file"),
                     QStringLiteral("USER.md"),
                     QStringLiteral("--agents"),
                     QStringLiteral("a,b,e"),
                     dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QVERIFY2(run.out.contains("Not yet the same: e (differs)"), run.out.constData());
        // Nothing written to the members by add.
        QCOMPARE(readAll(copy(dir, "e")), QByteArray("User of e\n"));
        run = links({QStringLiteral("--json"), dir});
        QCOMPARE(run.exitCode, ExitProblems);
        const QJsonArray groups
            = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("groups")).toArray();
        QCOMPARE(groups.size(), 1);
        const QJsonObject group = groups.at(0).toObject();
        QCOMPARE(group.value(QStringLiteral("name")).toString(), QStringLiteral("house"));
        QCOMPARE(group.value(QStringLiteral("file")).toString(), QStringLiteral("USER.md"));
        QStringList states;
        for (const QJsonValue &member : group.value(QStringLiteral("members")).toArray()) {
            const QJsonObject m = member.toObject();
            states.append(m.value(QStringLiteral("agent")).toString() + QLatin1Char('=')
                          + m.value(QStringLiteral("state")).toString());
            QCOMPARE(m.value(QStringLiteral("path")).toString(),
                     copy(dir, qPrintable(m.value(QStringLiteral("agent")).toString())));
        }
        QCOMPARE(states,
                 QStringList({QStringLiteral("a=same"),
                              QStringLiteral("b=same"),
                              QStringLiteral("e=differs")}));
        run = links({dir});
        QVERIFY2(run.out.contains("differs  " + copy(dir, "e").toUtf8()
                                  + " (10 bytes; first differs at line 1)\n"),
                 run.out.constData());

        // e diverged: sync refuses, writing nothing, naming it.
        run = links({QStringLiteral("sync"), dir});
        QCOMPARE(run.exitCode, ExitProblems);
        QVERIFY2(run.err.contains("USER.md of e"), run.err.constData());
        QCOMPARE(readAll(copy(dir, "e")), QByteArray("User of e\n"));
        // --force writes the group's text over it, byte for byte (CR LF kept).
        run = links({QStringLiteral("sync"), QStringLiteral("--force"), dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(readAll(copy(dir, "e")), QByteArray("User: Sam\r\nLikes tea\r\n"));
        QCOMPARE(links({dir}).exitCode, ExitSuccess);

        // An agent rewrites its copy; --from makes it the group's text.
        QVERIFY(writeBytes(copy(dir, "b"), "User: Sam\nLikes coffee now\n"));
        run = links({QStringLiteral("--json"), dir});
        QVERIFY(run.out.contains("\"state\": \"differs\""));
        run = links({QStringLiteral("sync"), QStringLiteral("--from"), QStringLiteral("b"), dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        for (const char *agent : {"a", "b", "e"})
            QCOMPARE(readAll(copy(dir, agent)), QByteArray("User: Sam\nLikes coffee now\n"));
        // c and d are not members: untouched.
        QCOMPARE(readAll(copy(dir, "c")), QByteArray("User: Sam\r\nLikes tea\r\n"));
        // The kept texts: the group's only, once the sync ended.
        QCOMPARE(QDir(QDir(dir).filePath(QStringLiteral(".soul-links")))
                     .entryList(QDir::Files)
                     .size(),
                 1);

        // A missing copy is written (its folder made for a skill).
        run = links({QStringLiteral("add"),
                     QStringLiteral("--name"),
                     QStringLiteral("skill"),
                     QStringLiteral("--file"),
                     QStringLiteral("skills/tidy/SKILL.md"),
                     QStringLiteral("--agents"),
                     QStringLiteral("c,d"),
                     dir});
        QCOMPARE(run.exitCode, ExitFailure); // c has no such file to take the text from
        QVERIFY2(run.err.contains("does not exist"), run.err.constData());
        QVERIFY(writeBytes(copy(dir, "c", "skills/tidy/SKILL.md"), "---\nname: tidy\n---\n"));
        QCOMPARE(links({QStringLiteral("add"),
                        QStringLiteral("--name"),
                        QStringLiteral("skill"),
                        QStringLiteral("--file"),
                        QStringLiteral("skills/tidy/SKILL.md"),
                        QStringLiteral("--agents"),
                        QStringLiteral("c,d"),
                        dir})
                     .exitCode,
                 ExitSuccess);
        run = links({QStringLiteral("--json"), dir});
        QVERIFY2(run.out.contains("\"state\": \"missing\""), run.out.constData());
        QCOMPARE(run.exitCode, ExitProblems);
        QCOMPARE(links({QStringLiteral("sync"), dir}).exitCode, ExitSuccess);
        QCOMPARE(readAll(copy(dir, "d", "skills/tidy/SKILL.md")),
                 QByteArray("---\nname: tidy\n---\n"));

        // remove: the group goes, the copies stay.
        run = links(
            {QStringLiteral("remove"), QStringLiteral("--name"), QStringLiteral("house"), dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(readAll(copy(dir, "e")), QByteArray("User: Sam\nLikes coffee now\n"));
        run = links({QStringLiteral("--json"), dir});
        QCOMPARE(QJsonDocument::fromJson(run.out)
                     .object()
                     .value(QStringLiteral("groups"))
                     .toArray()
                     .size(),
                 1);
    }

    void groupFileErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        const QByteArray sha(64, 'a');
        QTest::newRow("not JSON") << QByteArray("{\n  \"version\": 1,\n  \"groups\": [\n    {,\n")
                                  << QStringLiteral("line 4");
        QTest::newRow("unknown agent")
            << QByteArray(
                   "{\"version\": 1, \"groups\": [\n{\"name\": \"g\", \"file\": \"USER.md\",\n"
                   " \"members\": [\"a\", \"zed\"], \"sha256\": \""
                   + sha + "\"}]}\n")
            << QStringLiteral("line 2: group \"g\" names \"zed\", which is not an agent");
        QTest::newRow("member path outside")
            << QByteArray(
                   "{\"version\": 1, \"groups\": [\n\n{\"name\": \"g\", \"file\": \"USER.md\", "
                   "\"members\": [\"a\", \"../../etc\"], \"sha256\": \""
                   + sha + "\"}]}")
            << QStringLiteral("line 3: group \"g\" names \"../../etc\", a path, not an agent");
        QTest::newRow("file outside") << QByteArray(
            "{\"version\": 1, \"groups\": [{\"name\": \"g\", \"file\": \"../USER.md\", "
            "\"members\": [\"a\", \"b\"], \"sha256\": \""
            + sha + "\"}]}") << QStringLiteral("is not a file Soul Studio shares");
        QTest::newRow("same file in two groups")
            << QByteArray(
                   "{\"version\": 1, \"groups\": [\n{\"name\": \"g\", \"file\": \"USER.md\", "
                   "\"members\": [\"a\", \"b\"], \"sha256\": \""
                   + sha
                   + "\"},\n"
                     "{\"name\": \"h\", \"file\": \"USER.md\", "
                     "\"members\": [\"c\", \"b\"], \"sha256\": \""
                   + sha + "\"}]}")
            << QStringLiteral("line 3: USER.md of \"b\" is in the groups \"g\" and \"h\"");
        QByteArray many = "{\"version\": 1, \"groups\": [{\"name\": \"g\", \"file\": \"USER.md\", "
                          "\"members\": [";
        for (int i = 0; i < 10000; ++i)
            many += (i ? ", \"a" : "\"a") + QByteArray::number(i) + '"';
        many += "], \"sha256\": \"" + sha + "\"}]}";
        QTest::newRow("10,000 members")
            << many << QStringLiteral("has 10000 members, more than Soul Studio reads (1000)");
        QTest::newRow("no version")
            << QByteArray("{\"groups\": []}") << QStringLiteral("reads version 1");
        QTest::newRow("invalid UTF-8") << QByteArray("{\"version\": 1, \"groups\": [\"\xff\"]}")
                                       << QStringLiteral("is not UTF-8 text");
    }

    void groupFileErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        expectRefused(place(), text, expected);
    }

    void groupFileFifo()
    {
        const QString dir = place();
        const QString file = QDir(dir).filePath(QStringLiteral("soul-links.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(file).constData(), 0600), 0);
        // Never opened: a read would block for ever.
        const Run run = links({dir});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains("is a FIFO, not a regular file"), run.err.constData());
    }

    void copyOutOfFolderRefused()
    {
        const QString dir = place();
        QCOMPARE(linkUserOfAB(dir), ExitSuccess);
        const QString outside = m_tmp.filePath(QStringLiteral("outside%1.md").arg(m_n));
        QVERIFY(writeBytes(outside, "elsewhere\n"));
        QFile::remove(copy(dir, "b"));
        QVERIFY(QFile::link(outside, copy(dir, "b")));
        const Run run = links({QStringLiteral("sync"), QStringLiteral("--force"), dir});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains("leads out of its agent's folder"), run.err.constData());
        QCOMPARE(readAll(outside), QByteArray("elsewhere\n"));
    }

    // A write that fails part way (a full disk under one member) leaves each
    // copy old or new, says which, and the next sync finishes the job.
    void failedWriteFinishedByNextSync()
    {
        const QString dir = place();
        std::optional<LinkPlace> at;
        LinkGroups groups;
        QVERIFY(grouped(dir,
                        {QStringLiteral("e"),
                         QStringLiteral("a"),
                         QStringLiteral("b"),
                         QStringLiteral("f")},
                        at,
                        groups));
        // The second copy's write fails with ENOSPC.
        fileio::injectFault(fileio::Op::Write, 3, ENOSPC);
        SyncOutcome outcome = syncGroup(*at, groups, QStringLiteral("g"), QString(), true);
        const bool fired = fileio::clearFault();
        QVERIFY(fired);
        QVERIFY(!outcome.ok());
        QVERIFY2(!outcome.written.isEmpty() || outcome.error.contains(QStringLiteral("space")),
                 qPrintable(outcome.error));
        int fresh = 0;
        for (const char *agent : {"a", "b", "f"}) {
            const QByteArray bytes = readAll(copy(dir, agent));
            const bool isNew = bytes == "User of e\n";
            QVERIFY2(isNew || bytes == "User: Sam\r\nLikes tea\r\n" || bytes == "User of f\n",
                     bytes.constData());
            fresh += isNew ? 1 : 0;
        }
        QCOMPARE(fresh, outcome.written.size());
        Result<LinkGroups> reread = readLinkGroups(*at);
        QVERIFY(reread.ok());
        outcome = syncGroup(*at, reread.value(), QStringLiteral("g"), QString(), true);
        QVERIFY2(outcome.ok(), qPrintable(outcome.error));
        for (const char *agent : {"a", "b", "f"})
            QCOMPARE(readAll(copy(dir, agent)), QByteArray("User of e\n"));
    }

    // SIGKILL at each write call of a sync that takes a new text (--from):
    // every copy is old or new, the group file is readable, and the next
    // plain sync (no --force) finishes the job.
    void syncKilledAtEachWrite()
    {
        int kills = 0;
        int finished = 0;
        for (int n = 1;; ++n) {
            QVERIFY(n < 400);
            const QString dir = place();
            std::optional<LinkPlace> at;
            LinkGroups groups;
            QVERIFY(grouped(dir,
                            {QStringLiteral("a"),
                             QStringLiteral("b"),
                             QStringLiteral("c"),
                             QStringLiteral("d")},
                            at,
                            groups));
            const QByteArray oldText("User: Sam\r\nLikes tea\r\n");
            const QByteArray newText("User: Sam\nLikes rain\n");
            QVERIFY(writeBytes(copy(dir, "c"), newText));
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                fileio::injectKill(n);
                const SyncOutcome outcome
                    = syncGroup(*at, groups, QStringLiteral("g"), QStringLiteral("c"), false);
                ::_exit(outcome.ok() ? 0 : 4);
            }
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            const QString where = QStringLiteral("killed at call %1").arg(n);
            for (const char *agent : {"a", "b", "c", "d"}) {
                const QByteArray bytes = readAll(copy(dir, agent));
                QVERIFY2(bytes == oldText || bytes == newText, qPrintable(where));
            }
            const Result<LinkGroups> after = readLinkGroups(*at);
            QVERIFY2(after.ok(), qPrintable(where + QLatin1Char(' ') + after.error()));
            if (WIFEXITED(status)) {
                QCOMPARE(WEXITSTATUS(status), 0);
                for (const char *agent : {"a", "b", "c", "d"})
                    QCOMPARE(readAll(copy(dir, agent)), newText);
                break;
            }
            QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, qPrintable(where));
            ++kills;
            // The next sync: the group's text where the kill left it (old
            // before the group file took the new one, new after), written
            // to every copy without --force.
            const bool tookNew
                = after->groups.constFirst().sha256
                  == QCryptographicHash::hash(newText, QCryptographicHash::Sha256).toHex();
            Result<LinkGroups> again = readLinkGroups(*at);
            const SyncOutcome next = syncGroup(*at,
                                               again.value(),
                                               QStringLiteral("g"),
                                               tookNew ? QString() : QStringLiteral("c"),
                                               false);
            QVERIFY2(next.ok(), qPrintable(where + QLatin1Char(' ') + next.error));
            for (const char *agent : {"a", "b", "c", "d"})
                QVERIFY2(readAll(copy(dir, agent)) == newText, qPrintable(where));
            finished += tookNew ? 1 : 0;
        }
        qInfo("%d write calls of a sync, each killed in turn; %d left a pending group that the "
              "next plain sync finished",
              kills,
              finished);
        QVERIFY2(kills >= 8, qPrintable(QString::number(kills)));
        QVERIFY(finished >= 1);
    }

    // Identical files in several agents and in no group are offered.
    void candidates()
    {
        const QString dir = place();
        Run run = links({dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QVERIFY2(run.out.contains("USER.md in a, b, c, d (22 bytes): soulc links add --name NAME "
                                  "--file USER.md --agents a,b,c,d"),
                 run.out.constData());
        QVERIFY(!run.out.contains("SOUL.md in"));
        QCOMPARE(linkUserOfAB(dir), ExitSuccess);
        run = links({dir});
        QVERIFY2(run.out.contains("USER.md in c, d (22 bytes)"), run.out.constData());
    }

    // A checkpoint of a group commits every member's repository that
    // changed, with the same message.
    void checkpointAcrossMembers()
    {
        const QString dir = place();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"})
            env.insert(QLatin1String(name), QStringLiteral("Test"));
        for (const char *name : {"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"})
            env.insert(QLatin1String(name), QStringLiteral("test@example.invalid"));
        for (const char *agent : {"a", "b", "c"}) {
            QProcess git;
            git.setProcessEnvironment(env);
            git.start(QStringLiteral("git"),
                      {QStringLiteral("init"),
                       QStringLiteral("-q"),
                       QDir(dir).filePath(QLatin1String(agent))});
            QVERIFY2(git.waitForFinished(60000) && git.exitCode() == 0, "git is needed");
        }
        QCOMPARE(links({QStringLiteral("add"),
                        QStringLiteral("--name=house"),
                        QStringLiteral("--file=USER.md"),
                        QStringLiteral("--agents=a,b,c"),
                        dir})
                     .exitCode,
                 ExitSuccess);
        SoulcCall call;
        call.environment = env;
        call.arguments = QStringList{QStringLiteral("links"), QStringLiteral("checkpoint"), dir};
        Run run = runSoulc(call);
        QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
        for (const char *agent : {"a", "b", "c"}) {
            QProcess git;
            git.start(QStringLiteral("git"),
                      {QStringLiteral("-C"),
                       QDir(dir).filePath(QLatin1String(agent)),
                       QStringLiteral("log"),
                       QStringLiteral("--format=%s")});
            QVERIFY(git.waitForFinished(60000));
            QCOMPARE(git.readAllStandardOutput(), QByteArray("Link group house: USER.md\n"));
        }
        // Nothing changed since: nothing to commit, exit 1.
        run = runSoulc(call);
        QCOMPARE(run.exitCode, ExitProblems);
        QCOMPARE(run.out.count("nothing to checkpoint"), 3);
        // A group of a file a checkpoint does not commit is refused by name.
        QVERIFY(writeBytes(copy(dir, "a", "BOOTSTRAP.md"), "hello\n"));
        QCOMPARE(links({QStringLiteral("add"),
                        QStringLiteral("--name=boot"),
                        QStringLiteral("--file=BOOTSTRAP.md"),
                        QStringLiteral("--agents=a,b"),
                        dir})
                     .exitCode,
                 ExitSuccess);
        call.arguments = QStringList{QStringLiteral("links"),
                                     QStringLiteral("checkpoint"),
                                     QStringLiteral("--name=boot"),
                                     dir};
        run = runSoulc(call);
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains("a checkpoint commits the slot files"), run.err.constData());
    }

    void openClawRoster()
    {
        const QString state = m_tmp.filePath(QStringLiteral("state%1").arg(++m_n));
        QVERIFY(writeBytes(QDir(state).filePath(QStringLiteral("openclaw.json")),
                           "{agents: {ownership: 'explicit', entries: {work: {workspace: '"
                               + state.toUtf8() + "/w1'}, home: {workspace: '" + state.toUtf8()
                               + "/w2'}}}}\n"));
        QVERIFY(writeBytes(QDir(state).filePath(QStringLiteral("w1/USER.md")), "same\n"));
        QVERIFY(writeBytes(QDir(state).filePath(QStringLiteral("w2/USER.md")), "other\n"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENCLAW_STATE_DIR"), state);
        env.insert(QStringLiteral("HOME"), state);
        SoulcCall call;
        call.environment = env;
        call.arguments = QStringList{QStringLiteral("links"),
                                     QStringLiteral("add"),
                                     QStringLiteral("--name=u"),
                                     QStringLiteral("--file=USER.md"),
                                     QStringLiteral("--agents=work,home"),
                                     QStringLiteral("--openclaw")};
        Run run = runSoulc(call);
        QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
        QVERIFY(QFileInfo::exists(QDir(state).filePath(QStringLiteral("soul-links.json"))));
        call.arguments = QStringList{QStringLiteral("links"),
                                     QStringLiteral("--json"),
                                     QStringLiteral("--openclaw")};
        run = runSoulc(call);
        QCOMPARE(run.exitCode, ExitProblems);
        const QJsonArray members = QJsonDocument::fromJson(run.out)
                                       .object()
                                       .value(QStringLiteral("groups"))
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value(QStringLiteral("members"))
                                       .toArray();
        QCOMPARE(members.size(), 2);
        QCOMPARE(members.at(1).toObject().value(QStringLiteral("agent")).toString(),
                 QStringLiteral("home"));
        QCOMPARE(members.at(1).toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("differs"));
    }
};

QTEST_GUILESS_MAIN(TestSoulcLinks)
#include "tst_soulclinks.moc"
