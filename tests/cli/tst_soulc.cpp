// Runs the real, built soulc on persona directories made in a fresh temporary
// directory per test and compares exact bytes and exit codes.

#include "soulcrun.h"

#include "compose/composer.h"
#include "compose/contract.h"
#include "disk/composedirectory.h"
#include "gitfixture.h"
#include "openclawexamples.h"
#include "tokens/tokenizer.h"
#include "writefaults.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace soul;

namespace {
// The numbers of today's toolnexus rule, whose exact output these tests check.
const qint64 CapBytes = ComposeRule::toolnexus().capBytes;
} // namespace

namespace {

using namespace soul::clitest;

// One slot file (or any file beside the slots) of a persona made for a row.
struct PersonaFile
{
    QString name;
    QByteArray bytes;
};
using Persona = QList<PersonaFile>;

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(bytes) == bytes.size() && file.flush();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QByteArray sha256Hex(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QByteArray notice()
{
    return QByteArray(TruncationNotice, TruncationNoticeBytes);
}

QString soulcPath()
{
    return QStringLiteral(SOUL_BIN_DIR "/soulc");
}

} // namespace

Q_DECLARE_METATYPE(Persona)

class TstSoulc : public QObject
{
    Q_OBJECT

private:
    // Runs soulc with `arguments` in the fixture's directory (or `workingDir`).
    // `environment`, when not empty, is all soulc sees of the environment.
    Run soulc(const QStringList &arguments,
              const QString &workingDir = {},
              const QByteArray &input = {},
              const QProcessEnvironment &environment = {}) const
    {
        return runSoulc({arguments,
                         workingDir.isEmpty() ? m_dir->path() : workingDir,
                         input,
                         environment.isEmpty() ? std::nullopt
                                               : std::optional<QProcessEnvironment>(environment)});
    }

    // A new persona directory under the fixture, holding `files`.
    QString makePersona(const QString &name, const Persona &files) const
    {
        const QString dir = m_dir->filePath(name);
        if (!QDir().mkpath(dir))
            return {};
        for (const PersonaFile &file : files) {
            if (!writeFile(QDir(dir).filePath(file.name), file.bytes))
                return {};
        }
        return dir;
    }

    // A repository under the fixture with a persona in agents/ava and three
    // commits that touch it (SOUL.md, MEMORY.md added, SOUL.md edited) and
    // one that does not; `git` is the fixture's git.
    QString makeHistory(test::GitFixture &git) const
    {
        const QString repo = m_dir->filePath(QStringLiteral("repo"));
        const QString ava = QDir(repo).filePath(QStringLiteral("agents/ava"));
        if (!QDir().mkpath(ava)
            || git.git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull())
            return {};
        const auto commit = [&](const char *name, const QByteArray &bytes) {
            return writeFile(QDir(ava).filePath(QLatin1String(name)), bytes)
                   && !git.commitAll(repo, QLatin1String(name)).isEmpty();
        };
        if (!commit("SOUL.md", "You are Ava.\n") || !commit("MEMORY.md", "- likes tea\n")
            || !writeFile(QDir(repo).filePath(QStringLiteral("README.md")), "readme\n")
            || git.commitAll(repo, QStringLiteral("readme")).isEmpty()
            || !commit("SOUL.md", "You are Ava, a careful and thorough assistant.\n")) {
            return {};
        }
        return ava;
    }

    // The soul of `folder` in a checkout of `rev` (git worktree add).
    QByteArray checkoutSoul(test::GitFixture &git,
                            const QString &repo,
                            const QString &rev,
                            const QString &folder) const
    {
        const QString worktree = m_dir->filePath(QStringLiteral("checkout"));
        if (git.git(repo,
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
        git.git(repo,
                {QStringLiteral("worktree"),
                 QStringLiteral("remove"),
                 QStringLiteral("--force"),
                 worktree});
        return soul;
    }

    std::unique_ptr<QTemporaryDir> m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(QFileInfo(soulcPath()).isExecutable(), qPrintable(soulcPath()));
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cleanup() { m_dir.reset(); }

    void compose_data()
    {
        QTest::addColumn<Persona>("files");
        QTest::addColumn<QByteArray>("expected");

        const QByteArray big(CapBytes + 10, 'a');
        QTest::newRow("two files")
            << Persona{{QStringLiteral("SOUL.md"), "You are Kip, a terse assistant."},
                       {QStringLiteral("MEMORY.md"), "- prefers metric units"}}
            << QByteArray("## SOUL.md\n\nYou are Kip, a terse assistant.\n\n"
                          "## MEMORY.md\n\n- prefers metric units");
        QTest::newRow("no slots") << Persona{{QStringLiteral("notes.txt"), "hello"}}
                                  << QByteArray();
        QTest::newRow("fixed order, not creation order")
            << Persona{{QStringLiteral("MEMORY.md"), "m"},
                       {QStringLiteral("TOOLS.md"), "t"},
                       {QStringLiteral("AGENTS.md"), "a"}}
            << QByteArray("## AGENTS.md\n\na\n\n## TOOLS.md\n\nt\n\n## MEMORY.md\n\nm");
        QTest::newRow("blank file keeps its section")
            << Persona{{QStringLiteral("SOUL.md"), " \n\t\r\n"}, {QStringLiteral("USER.md"), "u"}}
            << QByteArray("## SOUL.md\n\n\n\n## USER.md\n\nu");
        QTest::newRow("bom and crlf kept")
            << Persona{{QStringLiteral("AGENTS.md"), "\xEF\xBB\xBFhi\r\nthere\r\n"}}
            << QByteArray("## AGENTS.md\n\n\xEF\xBB\xBFhi\r\nthere");
        QTest::newRow("maximal subparts") << Persona{{QStringLiteral("TOOLS.md"),
                                                      "a\xC0\x80"
                                                      "b\xED\xA0\x80"
                                                      "c\xF0\x9F\x98"}}
                                          << QByteArray("## TOOLS.md\n\na\xEF\xBF\xBD\xEF\xBF\xBD"
                                                        "b"
                                                        "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                                                        "c\xEF\xBF\xBD");
        QTest::newRow("case variant is not read")
            << Persona{{QStringLiteral("soul.md"), "lower"}} << QByteArray();
        QTest::newRow("truncated at the cap")
            << Persona{{QStringLiteral("SOUL.md"), big}}
            << QByteArray("## SOUL.md\n\n") + big.left(CapBytes) + notice();
    }

    void compose()
    {
        QFETCH(Persona, files);
        QFETCH(QByteArray, expected);
        const QString dir = makePersona(QStringLiteral("persona"), files);
        QVERIFY(!dir.isEmpty());

        const Run run = soulc({QStringLiteral("compose"), dir});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(run.out.size(), expected.size());
        QVERIFY(run.out == expected);
        QVERIFY(run.out == composeDirectory(dir).soul);
    }

    // The public vectors of the spec, each made on disk and composed by soulc.
    void composeVectors_data()
    {
        QTest::addColumn<Persona>("files");
        QTest::addColumn<QByteArray>("soulSha256");
        QTest::addColumn<qint64>("soulBytes");
        QTest::addColumn<QByteArray>("found");

        QFile file(QStringLiteral(SOUL_TEST_DATA_DIR "/vectors.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray vectors = QJsonDocument::fromJson(file.readAll())
                                       .object()
                                       .value(QStringLiteral("vectors"))
                                       .toArray();
        QVERIFY(!vectors.isEmpty());
        for (const QJsonValue &value : vectors) {
            const QJsonObject vector = value.toObject();
            Persona persona;
            const QJsonObject files = vector.value(QStringLiteral("files")).toObject();
            for (auto it = files.begin(); it != files.end(); ++it) {
                QByteArray bytes;
                for (const QJsonValue &segment : it.value().toArray()) {
                    const QJsonObject s = segment.toObject();
                    if (s.contains(QStringLiteral("text"))) {
                        bytes += s.value(QStringLiteral("text")).toString().toUtf8();
                    } else if (s.contains(QStringLiteral("hex"))) {
                        bytes += QByteArray::fromHex(
                            s.value(QStringLiteral("hex")).toString().toLatin1());
                    } else {
                        const QByteArray unit
                            = s.value(QStringLiteral("repeat")).toString().toUtf8();
                        bytes += unit.repeated(s.value(QStringLiteral("times")).toInteger());
                    }
                }
                persona.append({it.key(), bytes});
            }
            const QJsonObject expect = vector.value(QStringLiteral("expect")).toObject();
            QByteArray found;
            for (const QJsonValue &name : expect.value(QStringLiteral("found")).toArray())
                found += name.toString().toUtf8() + '\n';
            QTest::newRow(qPrintable(vector.value(QStringLiteral("name")).toString()))
                << persona << expect.value(QStringLiteral("soulSha256")).toString().toLatin1()
                << expect.value(QStringLiteral("soulBytes")).toInteger() << found;
        }
    }

    void composeVectors()
    {
        QFETCH(Persona, files);
        QFETCH(QByteArray, soulSha256);
        QFETCH(qint64, soulBytes);
        QFETCH(QByteArray, found);
        const QString dir = makePersona(QStringLiteral("persona"), files);
        QVERIFY(!dir.isEmpty());

        const Run run = soulc({QStringLiteral("compose"), dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(qint64(run.out.size()), soulBytes);
        QCOMPARE(sha256Hex(run.out), soulSha256);

        const Run names = soulc({QStringLiteral("compose"), QStringLiteral("--found"), dir});
        QCOMPARE(names.exitCode, ExitSuccess);
        QCOMPARE(names.out, found);
    }

    // The golden folders of tests/data/golden: soulc composes each in place.
    void composeGolden_data()
    {
        QTest::addColumn<QString>("dir");
        const QDir golden(QStringLiteral(SOUL_TEST_DATA_DIR "/golden"));
        const QStringList cases = golden.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &name : cases)
            QTest::newRow(qPrintable(name)) << golden.filePath(name);
    }

    void composeGolden()
    {
        QFETCH(QString, dir);
        const Run run = soulc({QStringLiteral("compose"), dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QVERIFY(run.out == readFile(QDir(dir).filePath(QStringLiteral("expected.soul"))));
        const Run names = soulc({QStringLiteral("compose"), QStringLiteral("--found"), dir});
        QCOMPARE(names.exitCode, ExitSuccess);
        QCOMPARE(names.out, readFile(QDir(dir).filePath(QStringLiteral("expected.found"))));
    }

    // A FIFO must not block soulc; links to nothing and directories are absent.
    void composeSkipsWhatIsNotAFile()
    {
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("MEMORY.md"), "m"}});
        QVERIFY(!dir.isEmpty());
        QCOMPARE(::mkfifo(QFile::encodeName(QDir(dir).filePath(QStringLiteral("SOUL.md")))
                              .constData(),
                          0600),
                 0);
        QVERIFY(QFile::link(QDir(dir).filePath(QStringLiteral("gone")),
                            QDir(dir).filePath(QStringLiteral("USER.md"))));
        QVERIFY(QDir(dir).mkdir(QStringLiteral("TOOLS.md")));

        const Run run = soulc({QStringLiteral("compose"), dir});
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(run.out, QByteArray("## MEMORY.md\n\nm"));
        const Run names = soulc({QStringLiteral("compose"), QStringLiteral("--found"), dir});
        QCOMPARE(names.out, QByteArray("MEMORY.md\n"));
    }

    void composeFound()
    {
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("USER.md"), "u"},
                                         {QStringLiteral("AGENTS.md"), ""},
                                         {QStringLiteral("Soul.md"), "not read"}});
        QVERIFY(!dir.isEmpty());
        const Run run = soulc({QStringLiteral("compose"), QStringLiteral("--found"), dir});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(run.out, QByteArray("AGENTS.md\nUSER.md\n"));

        const QString empty = makePersona(QStringLiteral("empty"), {});
        const Run none = soulc({QStringLiteral("compose"), QStringLiteral("--found"), empty});
        QCOMPARE(none.exitCode, ExitSuccess);
        QCOMPARE(none.out, QByteArray());
    }

    void composeToFile_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<bool>("found");
        QTest::newRow("-o FILE") << QStringList{QStringLiteral("-o"), QStringLiteral("out.md")}
                                 << false;
        QTest::newRow("-oFILE") << QStringList{QStringLiteral("-oout.md")} << false;
        QTest::newRow("--output FILE")
            << QStringList{QStringLiteral("--output"), QStringLiteral("out.md")} << false;
        QTest::newRow("--output=FILE") << QStringList{QStringLiteral("--output=out.md")} << false;
        QTest::newRow("--found -o FILE")
            << QStringList{QStringLiteral("--found"), QStringLiteral("-o"), QStringLiteral("out.md")}
            << true;
    }

    void composeToFile()
    {
        QFETCH(QStringList, options);
        QFETCH(bool, found);
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("SOUL.md"), "Be kind.\n"},
                                         {QStringLiteral("TOOLS.md"), "Use grep."}});
        QVERIFY(!dir.isEmpty());
        const QString out = m_dir->filePath(QStringLiteral("out.md"));
        // An old file is kept without --force, as export keeps it...
        QVERIFY(writeFile(out, QByteArray(4096, 'x')));
        const Run refused = soulc(QStringList{QStringLiteral("compose")} + options
                                  + QStringList{dir});
        QCOMPARE(refused.exitCode, ExitFailure);
        QVERIFY2(refused.err.contains("out.md already exists. Choose another name, or allow "
                                      "overwriting (--force)."),
                 refused.err.constData());
        QCOMPARE(readFile(out), QByteArray(4096, 'x'));

        // ...and replaced whole with it.
        const Run run = soulc(QStringList{QStringLiteral("compose"), QStringLiteral("--force")}
                              + options + QStringList{dir});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(run.out, QByteArray());
        const QByteArray expected = found ? QByteArray("SOUL.md\nTOOLS.md\n")
                                          : QByteArray("## SOUL.md\n\nBe kind.\n\n"
                                                       "## TOOLS.md\n\nUse grep.");
        QCOMPARE(readFile(out), expected);
        // Nothing is left behind by the atomic write.
        const QStringList entries = QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden);
        QCOMPARE(entries, QStringList{QStringLiteral("out.md")});
    }

    void composeNeverWritesOverThePersona_data()
    {
        QTest::addColumn<QString>("runtime");
        QTest::addColumn<QString>("output"); // "@" is the persona folder, "~" the fixture
        QTest::addColumn<QString>("link");   // "symbolic" or "hard": output is a link to @/SOUL.md
        QTest::addColumn<QString>("file");   // the persona's file it would have written over

        QTest::newRow("its SOUL.md")
            << QString() << QStringLiteral("@/SOUL.md") << QString() << QStringLiteral("@/SOUL.md");
        QTest::newRow("its SOUL.md by another path")
            << QString() << QStringLiteral("@/../persona/./SOUL.md") << QString()
            << QStringLiteral("@/SOUL.md");
        QTest::newRow("a symbolic link to its SOUL.md")
            << QString() << QStringLiteral("~/link.md") << QStringLiteral("symbolic")
            << QStringLiteral("@/SOUL.md");
        QTest::newRow("a hard link to its SOUL.md")
            << QString() << QStringLiteral("~/hard.md") << QStringLiteral("hard")
            << QStringLiteral("@/SOUL.md");
        QTest::newRow("its MEMORY.md, not there yet") << QString() << QStringLiteral("@/MEMORY.md")
                                                      << QString() << QStringLiteral("@/MEMORY.md");
        QTest::newRow("openclaw: its TOOLS.md")
            << QStringLiteral("openclaw") << QStringLiteral("@/TOOLS.md") << QString()
            << QStringLiteral("@/TOOLS.md");
        QTest::newRow("hermes: a project file it reads")
            << QStringLiteral("hermes") << QStringLiteral("@/CLAUDE.md") << QString()
            << QStringLiteral("@/CLAUDE.md");
        QTest::newRow("hermes: a cursor rule")
            << QStringLiteral("hermes") << QStringLiteral("@/.cursor/rules/new.mdc") << QString()
            << QStringLiteral("@/.cursor/rules/new.mdc");
    }

    void composeNeverWritesOverThePersona()
    {
        QFETCH(QString, runtime);
        QFETCH(QString, output);
        QFETCH(QString, link);
        QFETCH(QString, file);
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("SOUL.md"), "Be kind.\n"},
                                         {QStringLiteral("TOOLS.md"), "Use grep.\n"}});
        QVERIFY(!dir.isEmpty());
        QVERIFY(QDir(dir).mkpath(QStringLiteral(".cursor/rules")));
        const auto place = [&](QString path) {
            return path.replace(QLatin1Char('@'), dir).replace(QLatin1Char('~'), m_dir->path());
        };
        const QString target = place(output);
        if (link == QLatin1String("symbolic"))
            QVERIFY(QFile::link(QDir(dir).filePath(QStringLiteral("SOUL.md")), target));
        if (link == QLatin1String("hard"))
            QCOMPARE(::link(QFile::encodeName(QDir(dir).filePath(QStringLiteral("SOUL.md")))
                                .constData(),
                            QFile::encodeName(target).constData()),
                     0);
        QStringList arguments{QStringLiteral("compose")};
        if (!runtime.isEmpty())
            arguments << QStringLiteral("--runtime") << runtime;
        // Even with --force.
        arguments << QStringLiteral("--force") << QStringLiteral("-o") << target << dir;
        const Run run = soulc(arguments);
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains(QStringLiteral("would write over %1, a file of the persona being "
                                                 "composed")
                                      .arg(QDir::cleanPath(place(file)))
                                      .toUtf8()),
                 run.err.constData());
        QCOMPARE(run.out, QByteArray());
        // Nothing was written: the persona is as it was, and nothing new is in it.
        QCOMPARE(readFile(QDir(dir).filePath(QStringLiteral("SOUL.md"))), QByteArray("Be kind.\n"));
        QCOMPARE(readFile(QDir(dir).filePath(QStringLiteral("TOOLS.md"))),
                 QByteArray("Use grep.\n"));
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden),
                 (QStringList{QStringLiteral("SOUL.md"), QStringLiteral("TOOLS.md")}));
        QVERIFY(QDir(QDir(dir).filePath(QStringLiteral(".cursor/rules"))).isEmpty());
    }

    void nonUtf8Arguments_data()
    {
        QTest::addColumn<QString>("command"); // sh: $soulc, and $name, the name's bytes

        QTest::newRow("agents --config") << QStringLiteral("\"$soulc\" agents --config \"$name\"");
        QTest::newRow("compose DIR") << QStringLiteral("\"$soulc\" compose \"$name\"");
        QTest::newRow("stat --runtime hermes DIR")
            << QStringLiteral("\"$soulc\" stat --runtime hermes \"$name\"");
    }

    void nonUtf8Arguments()
    {
        QFETCH(QString, command);
        // A folder whose name is not UTF-8, there: the sentence must name the
        // encoding, not say there is no such file.
        const QByteArray base = QFile::encodeName(m_dir->path());
        const QByteArray name = base + "/bad\xff";
        QCOMPARE(::mkdir(name.constData(), 0755), 0);
        // QTemporaryDir cannot name it to remove it.
        const auto removeName = qScopeGuard([&name] { ::rmdir(name.constData()); });
        // QProcess passes its arguments as UTF-8; the shell reads the bytes
        // from a file and passes them on as they are.
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("name")), name));
        QProcess process;
        process.setWorkingDirectory(m_dir->path());
        process.setProcessEnvironment(agentsEnvironment());
        process.start(QStringLiteral("/bin/sh"),
                      {QStringLiteral("-c"),
                       QStringLiteral("soulc=$0; name=$(cat name); exec ") + command,
                       soulcPath()});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), ExitFailure);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(err.contains("/bad\\xff', is not valid UTF-8"), err.constData());
        QVERIFY2(!err.contains("no such") && !err.contains("not a directory"), err.constData());
        QCOMPARE(process.readAllStandardOutput(), QByteArray());
    }

    void stat()
    {
        const QByteArray big(CapBytes + 100, 'z');
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("SOUL.md"), "You are Kip."},
                                         {QStringLiteral("USER.md"), "\xEF\xBB\xBFMuthu"},
                                         {QStringLiteral("MEMORY.md"), big}});
        QVERIFY(!dir.isEmpty());
        const QByteArray soul = composeDirectory(dir).soul;

        const Run run = soulc({QStringLiteral("stat"), dir});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        const QString text = QString::fromUtf8(run.out);
        const QStringList lines = text.split(QLatin1Char('\n'));

        const auto row = [&lines](const QString &first) {
            for (const QString &line : lines) {
                if (line.startsWith(first + QLatin1Char(' ')))
                    return line.simplified();
            }
            return QString();
        };
        QCOMPARE(row(QStringLiteral("persona")),
                 QStringLiteral("persona ") + QFileInfo(dir).absoluteFilePath());
        // Each slot's tokens are its section's ("## NAME\n\n" and the body).
        const auto o200k = Tokenizer::builtin(u"o200k_base");
        const Composition composition = composeDirectory(dir);
        const auto sectionTokens = [&](int slot) {
            return QLocale(QLocale::English)
                .toString(o200k->count(QByteArrayView(composition.soul)
                                           .sliced(composition.sectionOffset[size_t(slot)],
                                                   composition.sectionLength[size_t(slot)])));
        };
        QCOMPARE(row(QStringLiteral("slot")),
                 QStringLiteral("slot present bytes tokens % of cap truncated lints"));
        QCOMPARE(row(QStringLiteral("AGENTS.md")), QStringLiteral("AGENTS.md no - - - - -"));
        QCOMPARE(row(QStringLiteral("SOUL.md")),
                 QStringLiteral("SOUL.md yes 12 %1 <0.1% no -").arg(sectionTokens(1)));
        QCOMPARE(row(QStringLiteral("USER.md")),
                 QStringLiteral("USER.md yes 8 %1 <0.1% no 1 warning").arg(sectionTokens(3)));
        QCOMPARE(row(QStringLiteral("MEMORY.md")),
                 QStringLiteral("MEMORY.md yes 2,097,252 %1 100.0% yes 1 error, 1 info")
                     .arg(sectionTokens(6)));
        QCOMPARE(row(QStringLiteral("total")),
                 QStringLiteral("total 3 of 7 2,097,272 1 1 error, 1 warning, 1 info"));
        QVERIFY(text.contains(QStringLiteral("\nMEMORY.md: error: MEMORY.md is 2,097,252 bytes")));
        QVERIFY(text.contains(QStringLiteral("\nUSER.md: warning: ")));

        const QString tokens = QLocale(QLocale::English).toString(o200k->count(soul));
        QCOMPARE(row(QStringLiteral("soul")),
                 QStringLiteral("soul %1 bytes, %2 tokens (o200k_base)")
                     .arg(QLocale(QLocale::English).toString(soul.size()), tokens));
        QCOMPARE(row(QStringLiteral("sha256")),
                 QStringLiteral("sha256 ") + QString::fromLatin1(sha256Hex(soul)));
        // Columns line up: every table row is as wide as the header up to "lints".
        const qsizetype lintsColumn = lines.at(2).indexOf(QStringLiteral("lints"));
        QVERIFY(lintsColumn > 0);
        for (int i = 3; i <= 10; ++i)
            QCOMPARE(lines.at(i).at(lintsColumn - 1), QLatin1Char(' '));
    }

    void statJson()
    {
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("AGENTS.md"), "Reply briefly."},
                                         {QStringLiteral("HEARTBEAT.md"), "   "},
                                         {QStringLiteral("identity.md"), "case variant"}});
        QVERIFY(!dir.isEmpty());
        const QByteArray soul = composeDirectory(dir).soul;

        const Run run = soulc({QStringLiteral("stat"),
                               QStringLiteral("--json"),
                               QStringLiteral("--encoding"),
                               QStringLiteral("cl100k_base"),
                               dir});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);

        QCOMPARE(root.value(QStringLiteral("directory")).toString(),
                 QFileInfo(dir).absoluteFilePath());
        QCOMPARE(root.value(QStringLiteral("capBytes")).toInteger(), CapBytes);
        const QJsonArray slotArray = root.value(QStringLiteral("slots")).toArray();
        QCOMPARE(slotArray.size(), qsizetype(SlotCount));
        for (int i = 0; i < SlotCount; ++i)
            QCOMPARE(slotArray.at(i)[QStringLiteral("name")].toString(), slotName(i));

        const QJsonObject agents = slotArray.at(0).toObject();
        QCOMPARE(agents.value(QStringLiteral("present")).toBool(), true);
        QCOMPARE(agents.value(QStringLiteral("status")).toString(), QStringLiteral("present"));
        QCOMPARE(agents.value(QStringLiteral("bytes")).toInteger(), qint64(14));
        QCOMPARE(agents.value(QStringLiteral("truncated")).toBool(), false);
        QCOMPARE(agents.value(QStringLiteral("sha256")).toString().toLatin1(),
                 sha256Hex("Reply briefly."));

        const QJsonObject identity = slotArray.at(2).toObject();
        QCOMPARE(identity.value(QStringLiteral("present")).toBool(), false);
        QCOMPARE(identity.value(QStringLiteral("status")).toString(), QStringLiteral("missing"));
        QVERIFY(identity.value(QStringLiteral("bytes")).isNull());

        const QJsonObject heartbeat = slotArray.at(5).toObject();
        QCOMPARE(heartbeat[QStringLiteral("lints")][QStringLiteral("warning")].toInt(), 1);

        QCOMPARE(root.value(QStringLiteral("found")).toArray(),
                 QJsonArray({QStringLiteral("AGENTS.md"), QStringLiteral("HEARTBEAT.md")}));
        QStringList codes;
        for (const QJsonValue &lint : root.value(QStringLiteral("lints")).toArray())
            codes.append(lint[QStringLiteral("code")].toString());
        QCOMPARE(codes, QStringList({QStringLiteral("blank"), QStringLiteral("case-variant")}));

        const QJsonObject totals = root.value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("present")).toInteger(), qint64(2));
        QCOMPARE(totals.value(QStringLiteral("bytes")).toInteger(), qint64(17));
        QCOMPARE(totals.value(QStringLiteral("truncated")).toInteger(), qint64(0));

        const QJsonObject soulObject = root.value(QStringLiteral("soul")).toObject();
        QCOMPARE(soulObject.value(QStringLiteral("bytes")).toInteger(), qint64(soul.size()));
        const auto cl100k = Tokenizer::builtin(u"cl100k_base");
        QCOMPARE(root.value(QStringLiteral("encoding")).toString(), QStringLiteral("cl100k_base"));
        QCOMPARE(soulObject.value(QStringLiteral("tokens")).toInteger(), cl100k->count(soul));
        QVERIFY(!soulObject.contains(QStringLiteral("approxTokens")));
        // "## AGENTS.md\n\nReply briefly.": the tokens of the section.
        QCOMPARE(agents.value(QStringLiteral("tokens")).toInteger(),
                 cl100k->count("## AGENTS.md\n\nReply briefly."));
        QVERIFY(identity.value(QStringLiteral("tokens")).isNull());
        QCOMPARE(soulObject.value(QStringLiteral("sha256")).toString().toLatin1(), sha256Hex(soul));
    }

    void check_data()
    {
        QTest::addColumn<Persona>("files");
        QTest::addColumn<bool>("fromInside"); // run as `soulc check .` in the persona
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("lines"); // "FILE: level: " starts, in order

        QTest::newRow("clean") << Persona{{QStringLiteral("SOUL.md"), "You are Kip."}} << false
                               << ExitSuccess << QStringList();
        QTest::newRow("empty directory") << Persona{} << false << ExitSuccess << QStringList();
        QTest::newRow("warnings only")
            << Persona{{QStringLiteral("SOUL.md"), "\xEF\xBB\xBFKip"},
                       {QStringLiteral("Memory.md"), "x"}}
            << false << ExitSuccess
            << QStringList{QStringLiteral("persona/SOUL.md: warning: "),
                           QStringLiteral("persona/Memory.md: warning: ")};
        QTest::newRow("truncated")
            << Persona{{QStringLiteral("TOOLS.md"), QByteArray(CapBytes + 1, '-')}} << false
            << ExitProblems
            << QStringList{QStringLiteral("persona/TOOLS.md: error: TOOLS.md is 2,097,153 bytes")};
        QTest::newRow("from inside")
            << Persona{{QStringLiteral("USER.md"), QByteArray(CapBytes + 5, 'u')}} << true
            << ExitProblems
            << QStringList{QStringLiteral("USER.md: error: USER.md is 2,097,157 bytes"),
                           QStringLiteral("USER.md: info: ")};
        QTest::newRow("exactly at the cap is fine")
            << Persona{{QStringLiteral("USER.md"), QByteArray(CapBytes, 'u')}} << false
            << ExitSuccess
            << QStringList{QStringLiteral(
                               "persona/USER.md: warning: USER.md is at 100% of the cap"),
                           QStringLiteral("persona/USER.md: info: ")};
    }

    void check()
    {
        QFETCH(Persona, files);
        QFETCH(bool, fromInside);
        QFETCH(int, exitCode);
        QFETCH(QStringList, lines);
        const QString dir = makePersona(QStringLiteral("persona"), files);
        QVERIFY(!dir.isEmpty());

        const Run run = fromInside ? soulc({QStringLiteral("check"), QStringLiteral(".")}, dir)
                                   : soulc({QStringLiteral("check"), QStringLiteral("persona")});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, exitCode);
        QStringList got = QString::fromUtf8(run.out).split(QLatin1Char('\n'));
        QCOMPARE(got.takeLast(), QString()); // every line ends in a newline
        QCOMPARE(got.size(), lines.size());
        static const QRegularExpression format(QStringLiteral("^[^:]+: (error|warning|info): .+$"));
        for (qsizetype i = 0; i < got.size(); ++i) {
            QVERIFY2(format.match(got.at(i)).hasMatch(), qPrintable(got.at(i)));
            QVERIFY2(got.at(i).startsWith(lines.at(i)), qPrintable(got.at(i)));
        }
    }

    // export --runtime NAME writes what compose --runtime NAME writes, with a
    // manifest that names the runtime and its settings.
    void exportRuntime_data()
    {
        QTest::addColumn<QString>("runtime");
        QTest::addColumn<QString>("name");
        QTest::newRow("openclaw") << QStringLiteral("openclaw")
                                  << QStringLiteral("OpenClaw 2026.9");
        QTest::newRow("hermes") << QStringLiteral("hermes")
                                << QStringLiteral("Hermes Agent 0.21.3");
    }

    void exportRuntime()
    {
        QFETCH(QString, runtime);
        QFETCH(QString, name);
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("AGENTS.md"), "Be brief.\n"},
                                         {QStringLiteral("SOUL.md"), "Kip, curious.\n"},
                                         {QStringLiteral("MEMORY.md"), "likes tea\n"},
                                         {QStringLiteral("USER.md"), "Muthu.\n"}});
        QVERIFY(!dir.isEmpty());
        const Run composed = soulc(
            {QStringLiteral("compose"), QStringLiteral("--runtime"), runtime, dir});
        QCOMPARE(composed.exitCode, ExitSuccess);
        QVERIFY(!composed.out.isEmpty());

        const QString out = m_dir->filePath(QStringLiteral("exported.soul.md"));
        const Run run = soulc(
            {QStringLiteral("export"), QStringLiteral("--runtime"), runtime, dir, out});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(readFile(out), composed.out);
        const QJsonObject manifest
            = QJsonDocument::fromJson(readFile(out + QStringLiteral(".manifest.json"))).object();
        QCOMPARE(manifest.value(QStringLiteral("format")).toString(),
                 QStringLiteral("soul-snapshot"));
        const QJsonObject part = manifest.value(QStringLiteral("runtime")).toObject();
        QCOMPARE(part.value(QStringLiteral("runtime")).toString(), runtime);
        QCOMPARE(part.value(QStringLiteral("runtimeName")).toString(), name);
        QVERIFY(!part.value(QStringLiteral("settings")).toObject().isEmpty());
        QVERIFY(!part.value(QStringLiteral("files")).toArray().isEmpty());
        QCOMPARE(manifest[QStringLiteral("soul")][QStringLiteral("sha256")].toString().toLatin1(),
                 sha256Hex(composed.out));
        QCOMPARE(manifest[QStringLiteral("soul")][QStringLiteral("bytes")].toInteger(),
                 qint64(composed.out.size()));

        // Against its own folder: the runtime's text is the same.
        const Run diff = soulc({QStringLiteral("diff"), out, dir});
        QCOMPARE(diff.err, QByteArray());
        QCOMPARE(diff.exitCode, ExitSuccess);
        QVERIFY2(diff.out.startsWith(name.toUtf8() + ": "), diff.out.constData());
    }

    // diff of an OpenClaw export against the folder changed since: the folder
    // is composed for OpenClaw by the export's settings, and only the change
    // shows.
    void diffRuntimeExport()
    {
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("SOUL.md"), "Kip, curious.\nKind.\n"},
                                         {QStringLiteral("USER.md"), "Muthu.\n"},
                                         {QStringLiteral("IDENTITY.md"), "Name: Kip\n"}});
        QVERIFY(!dir.isEmpty());
        const QString out = m_dir->filePath(QStringLiteral("oc.soul.md"));
        Run run = soulc({QStringLiteral("export"),
                         QStringLiteral("--runtime"),
                         QStringLiteral("openclaw"),
                         dir,
                         out});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);

        QVERIFY(writeFile(dir + QStringLiteral("/USER.md"), "Muthu, at home.\n"));
        QVERIFY(writeFile(dir + QStringLiteral("/MEMORY.md"), "likes tea\n"));
        run = soulc({QStringLiteral("diff"), out, dir});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitProblems);
        const QList<QByteArray> lines = run.out.split('\n');
        QByteArrayList removed;
        QByteArrayList added;
        for (const QByteArray &line : lines) {
            if (line.startsWith('-') && !line.startsWith("---"))
                removed.append(line);
            if (line.startsWith('+') && !line.startsWith("+++"))
                added.append(line);
        }
        QCOMPARE(removed, QByteArrayList({"-Muthu."}));
        // The USER.md line, MEMORY.md's line in the list OpenClaw gives, and
        // MEMORY.md's header and text.
        QCOMPARE(added.size(), 4);
        QVERIFY2(added.contains("+Muthu, at home."), run.out.constData());
        QVERIFY(added.contains("+likes tea"));
        QVERIFY(run.out.startsWith("--- " + out.toUtf8() + "\n+++ " + dir.toUtf8() + "\n"));
        QCOMPARE(lines.at(lines.size() - 3),
                 QByteArray("OpenClaw 2026.9: SOUL.md unchanged, IDENTITY.md unchanged, "
                            "USER.md changed, MEMORY.md added"));
        QVERIFY2(lines.at(lines.size() - 2).startsWith("stable prefix: "),
                 lines.at(lines.size() - 2).constData());

        // The other way round, and as JSON.
        run = soulc({QStringLiteral("diff"), QStringLiteral("--json"), dir, out});
        QCOMPARE(run.exitCode, ExitProblems);
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(json[QStringLiteral("runtime")][QStringLiteral("id")].toString(),
                 QStringLiteral("openclaw"));
        QCOMPARE(json[QStringLiteral("runtime")][QStringLiteral("settings")]
                     [QStringLiteral("bootstrapMaxChars")]
                         .toInteger(),
                 qint64(20000));
        QStringList statuses;
        for (const QJsonValue &file : json[QStringLiteral("files")].toArray()) {
            statuses.append(file[QStringLiteral("name")].toString() + QLatin1Char('=')
                            + file[QStringLiteral("status")].toString());
        }
        QCOMPARE(statuses.join(QLatin1Char(' ')),
                 QStringLiteral("SOUL.md=unchanged IDENTITY.md=unchanged USER.md=changed "
                                "MEMORY.md=removed"));
        QVERIFY(!json[QStringLiteral("identical")].toBool());

        // Like with like only: the toolnexus soul, or another runtime's text.
        const QString toolnexus = m_dir->filePath(QStringLiteral("tn.soul.md"));
        QCOMPARE(soulc({QStringLiteral("export"), dir, toolnexus}).exitCode, ExitSuccess);
        run = soulc({QStringLiteral("diff"), out, toolnexus});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains("holds the toolnexus soul"), run.err.constData());
        const QString hermes = m_dir->filePath(QStringLiteral("he.soul.md"));
        QCOMPARE(soulc({QStringLiteral("export"),
                        QStringLiteral("--runtime"),
                        QStringLiteral("hermes"),
                        dir,
                        hermes})
                     .exitCode,
                 ExitSuccess);
        run = soulc({QStringLiteral("diff"), out, hermes});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains("'openclaw'") && run.err.contains("'hermes'")
                     && run.err.contains("do not compare"),
                 run.err.constData());
        QCOMPARE(run.out, QByteArray());

        // The folder is composed by the settings the manifest records, not
        // by OpenClaw's defaults: at 8 characters a file, IDENTITY.md is cut.
        const QString manifestPath = out + QStringLiteral(".manifest.json");
        QJsonObject manifest = QJsonDocument::fromJson(readFile(manifestPath)).object();
        QJsonObject part = manifest.value(QStringLiteral("runtime")).toObject();
        QJsonObject settings = part.value(QStringLiteral("settings")).toObject();
        settings.insert(QStringLiteral("bootstrapMaxChars"), 8);
        part.insert(QStringLiteral("settings"), settings);
        manifest.insert(QStringLiteral("runtime"), part);
        QVERIFY(writeFile(manifestPath, QJsonDocument(manifest).toJson()));
        run = soulc({QStringLiteral("diff"), out, dir});
        QCOMPARE(run.exitCode, ExitProblems);
        QVERIFY(run.out.contains("\n-Name: Kip\n"));
        QVERIFY(!run.out.contains("\n+Name: Kip"));
        QVERIFY(run.out.contains("\n+[Bootstrap truncation warning]\n"));
        QVERIFY2(run.out.contains("IDENTITY.md changed"), run.out.right(400).constData());

        // A runtime this build does not know: named, with what to do.
        part.insert(QStringLiteral("runtime"), QStringLiteral("zeta"));
        manifest.insert(QStringLiteral("runtime"), part);
        QVERIFY(writeFile(manifestPath, QJsonDocument(manifest).toJson()));
        run = soulc({QStringLiteral("diff"), out, dir});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains(out.toUtf8()) && run.err.contains("'zeta")
                     && run.err.contains("does not know"),
                 run.err.constData());
    }

    void exportSnapshot()
    {
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("SOUL.md"), "Kip."},
                                         {QStringLiteral("USER.md"), "Muthu."}});
        QVERIFY(!dir.isEmpty());
        const QString out = m_dir->filePath(QStringLiteral("snap/soul.md"));
        const QString manifestPath = out + QStringLiteral(".manifest.json");
        QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("snap")));

        Run run = soulc({QStringLiteral("export"), dir, out});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(run.out, QByteArray());
        const QByteArray soul = readFile(out);
        QCOMPARE(soul, composeDirectory(dir).soul);
        QCOMPARE(soul, QByteArray("## SOUL.md\n\nKip.\n\n## USER.md\n\nMuthu."));

        const QJsonObject manifest = QJsonDocument::fromJson(readFile(manifestPath)).object();
        QCOMPARE(manifest.value(QStringLiteral("format")).toString(),
                 QStringLiteral("soul-snapshot"));
        QCOMPARE(manifest.value(QStringLiteral("found")).toArray(),
                 QJsonArray({QStringLiteral("SOUL.md"), QStringLiteral("USER.md")}));
        QCOMPARE(manifest[QStringLiteral("soul")][QStringLiteral("sha256")].toString().toLatin1(),
                 sha256Hex(soul));
        QCOMPARE(manifest[QStringLiteral("soul")][QStringLiteral("bytes")].toInteger(),
                 qint64(soul.size()));
        const QJsonArray files = manifest.value(QStringLiteral("files")).toArray();
        QCOMPARE(files.size(), qsizetype(2));
        QCOMPARE(files.at(1)[QStringLiteral("sha256")].toString().toLatin1(), sha256Hex("Muthu."));
        // The token counts, with the default encoding.
        const auto o200k = Tokenizer::builtin(u"o200k_base");
        QCOMPARE(manifest[QStringLiteral("soul")][QStringLiteral("encoding")].toString(),
                 QStringLiteral("o200k_base"));
        QCOMPARE(manifest[QStringLiteral("soul")][QStringLiteral("tokens")].toInteger(),
                 o200k->count(soul));
        QCOMPARE(files.at(1)[QStringLiteral("tokens")].toInteger(),
                 o200k->count("## USER.md\n\nMuthu."));

        // A second export refuses to replace either file...
        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral("SOUL.md")), "Kip, changed."));
        QVERIFY(QFile::remove(manifestPath));
        QVERIFY(writeFile(manifestPath, "keep me"));
        run = soulc({QStringLiteral("export"), dir, out});
        QCOMPARE(run.exitCode, ExitFailure);
        QCOMPARE(run.out, QByteArray());
        QVERIFY(run.err.startsWith("soulc: " + QFile::encodeName(out) + " already exists."));
        QCOMPARE(run.err.count('\n'), qsizetype(1));
        QVERIFY(run.err.endsWith('\n'));
        QCOMPARE(readFile(out), soul);
        QCOMPARE(readFile(manifestPath), QByteArray("keep me"));

        // ... even when only the manifest is there.
        QVERIFY(QFile::remove(out));
        run = soulc({QStringLiteral("export"), dir, out});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY(run.err.contains(QFile::encodeName(manifestPath)));
        QVERIFY(!QFileInfo::exists(out));

        // --force replaces both.
        for (const QString &force : {QStringLiteral("--force"), QStringLiteral("-f")}) {
            run = soulc({QStringLiteral("export"), force, dir, out});
            QCOMPARE(run.err, QByteArray());
            QCOMPARE(run.exitCode, ExitSuccess);
            QCOMPARE(readFile(out),
                     QByteArray("## SOUL.md\n\nKip, changed.\n\n## USER.md\n\nMuthu."));
            const QJsonObject replaced = QJsonDocument::fromJson(readFile(manifestPath)).object();
            QCOMPARE(replaced[QStringLiteral("soul")][QStringLiteral("sha256")].toString().toLatin1(),
                     sha256Hex(readFile(out)));
        }
        QCOMPARE(QDir(m_dir->filePath(QStringLiteral("snap"))).entryList(QDir::Files | QDir::Hidden),
                 QStringList({QStringLiteral("soul.md"), QStringLiteral("soul.md.manifest.json")}));
    }

    // Every error: exit 2, nothing on standard output, one line on standard
    // error starting "soulc: " and naming the path (or the bad argument).
    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments"); // "@" stands for the fixture directory
        QTest::addColumn<QString>("mentions");
        QTest::addColumn<QString>("cause");

        const QString missing = QStringLiteral("@/no-such-persona");
        const QString file = QStringLiteral("@/plain.txt");
        const QString persona = QStringLiteral("@/persona");
        const QString noDir = QStringLiteral("@/no-such-dir/out.md");
        for (const char *command : {"compose", "stat", "check", "export"}) {
            const QString name = QLatin1String(command);
            const QStringList tail = name == QLatin1String("export")
                                         ? QStringList{QStringLiteral("@/out.md")}
                                         : QStringList();
            QTest::addRow("%s: no such directory", command)
                << (QStringList{name, missing} + tail) << missing
                << QStringLiteral("no such directory");
            QTest::addRow("%s: not a directory", command)
                << (QStringList{name, file} + tail) << file << QStringLiteral("not a directory");
            QTest::addRow("%s: a loop of symbolic links", command)
                << (QStringList{name, QStringLiteral("@/loop")} + tail) << QStringLiteral("@/loop")
                << QStringLiteral("is a loop of symbolic links");
            QTest::addRow("%s: missing DIR", command)
                << QStringList{name} << name << QStringLiteral("missing");
            QTest::addRow("%s: unknown option", command)
                << QStringList{name, QStringLiteral("--frobnicate"), persona}
                << QStringLiteral("--frobnicate") << QStringLiteral("unknown option");
            QTest::addRow("%s: extra argument", command)
                << (QStringList{name, persona} + tail + QStringList{QStringLiteral("extra")})
                << QStringLiteral("extra") << QStringLiteral("unexpected argument");
        }
        for (const char *command : {"compose", "stat", "check"}) {
            QTest::addRow("%s: unknown runtime", command)
                << QStringList{QLatin1String(command), QStringLiteral("--runtime=nemo"), persona}
                << QStringLiteral("nemo") << QStringLiteral("unknown runtime");
            QTest::addRow("%s: --runtime without a name", command)
                << QStringList{QLatin1String(command), persona, QStringLiteral("--runtime")}
                << QStringLiteral("--runtime") << QStringLiteral("needs a NAME");
            QTest::addRow("%s --runtime openclaw: not a directory", command)
                << QStringList{QLatin1String(command),
                               QStringLiteral("--runtime"),
                               QStringLiteral("openclaw"),
                               file}
                << file << QStringLiteral("not a directory");
        }
        QTest::newRow("compose -o into a missing directory")
            << QStringList{QStringLiteral("compose"), QStringLiteral("-o"), noDir, persona} << noDir
            << QStringLiteral("Cannot write");
        QTest::newRow("compose -o onto a directory")
            << QStringList{QStringLiteral("compose"), QStringLiteral("-o"), persona, persona}
            << persona << QStringLiteral("Cannot write");
        QTest::newRow("compose -o without FILE")
            << QStringList{QStringLiteral("compose"), persona, QStringLiteral("-o")}
            << QStringLiteral("-o") << QStringLiteral("needs a FILE");
        QTest::newRow("compose --output= empty")
            << QStringList{QStringLiteral("compose"), QStringLiteral("--output="), persona}
            << QStringLiteral("--output") << QStringLiteral("needs a FILE");
        QTest::newRow("export into a missing directory")
            << QStringList{QStringLiteral("export"), persona, noDir} << noDir
            << QStringLiteral("Cannot write");
        QTest::newRow("stat --found is compose's")
            << QStringList{QStringLiteral("stat"), QStringLiteral("--found"), persona}
            << QStringLiteral("--found") << QStringLiteral("unknown option");
        QTest::newRow("no command")
            << QStringList() << QStringLiteral("soulc --help") << QStringLiteral("missing command");
        QTest::newRow("unknown command")
            << QStringList{QStringLiteral("frobnicate"), persona} << QStringLiteral("frobnicate")
            << QStringLiteral("unknown command");
        QTest::newRow("unknown global option")
            << QStringList{QStringLiteral("--frobnicate")} << QStringLiteral("--frobnicate")
            << QStringLiteral("unknown option");
        QTest::newRow("help for an unknown command")
            << QStringList{QStringLiteral("help"), QStringLiteral("frobnicate")}
            << QStringLiteral("frobnicate") << QStringLiteral("unknown command");
        QTest::newRow("empty path") << QStringList{QStringLiteral("stat"), QString()}
                                    << QStringLiteral("stat") << QStringLiteral("empty path");
        const QString diff = QStringLiteral("diff");
        QTest::newRow("diff: missing B") << QStringList{diff, persona} << QStringLiteral("diff")
                                         << QStringLiteral("missing A and B");
        QTest::newRow("diff: no such A") << QStringList{diff, missing, persona} << missing
                                         << QStringLiteral("no such persona folder or soul file");
        QTest::newRow("diff: a soul without its manifest")
            << QStringList{diff, persona, file} << file + QStringLiteral(".manifest.json")
            << QStringLiteral("no manifest beside it");
        QTest::newRow("diff: unknown encoding")
            << QStringList{diff,
                           QStringLiteral("--encoding"),
                           QStringLiteral("nope"),
                           persona,
                           persona}
            << QStringLiteral("'nope'") << QStringLiteral("unknown encoding");
        QTest::newRow("diff: --encoding without NAME")
            << QStringList{diff, persona, persona, QStringLiteral("--encoding")}
            << QStringLiteral("--encoding") << QStringLiteral("needs a NAME");
        QTest::newRow("diff: extra argument")
            << QStringList{diff, persona, persona, QStringLiteral("extra")}
            << QStringLiteral("extra") << QStringLiteral("unexpected argument");
    }

    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        QFETCH(QString, cause);
        QVERIFY(!makePersona(QStringLiteral("persona"), {{QStringLiteral("SOUL.md"), "Kip."}})
                     .isEmpty());
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("plain.txt")), "not a persona"));
        QVERIFY(QFile::link(m_dir->filePath(QStringLiteral("loop2")),
                            m_dir->filePath(QStringLiteral("loop"))));
        QVERIFY(QFile::link(m_dir->filePath(QStringLiteral("loop")),
                            m_dir->filePath(QStringLiteral("loop2"))));
        const QString base = m_dir->path();
        for (QString &argument : arguments)
            argument.replace(QLatin1Char('@'), base);
        mentions.replace(QLatin1Char('@'), base);

        const Run run = soulc(arguments);
        QCOMPARE(run.exitCode, ExitFailure);
        QCOMPARE(run.out, QByteArray());
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.startsWith(QStringLiteral("soulc: ")), qPrintable(err));
        QVERIFY2(err.endsWith(QLatin1Char('\n')) && err.count(QLatin1Char('\n')) == 1,
                 qPrintable(err));
        QVERIFY2(err.contains(mentions), qPrintable(err));
        QVERIFY2(err.contains(cause), qPrintable(err));
        // Nothing half-written is left behind.
        QVERIFY(!QFileInfo::exists(m_dir->filePath(QStringLiteral("out.md"))));
    }

    // Each folder of tests/data/diff: `soulc diff A B` run inside it.
    void diffGolden_data()
    {
        QTest::addColumn<QString>("dir");
        const QDir golden(QStringLiteral(SOUL_TEST_DATA_DIR "/diff"));
        const QStringList cases = golden.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(cases.size() >= 12);
        for (const QString &name : cases)
            QTest::newRow(qPrintable(name)) << golden.filePath(name);
    }

    void diffGolden()
    {
        QFETCH(QString, dir);
        const QDir d(dir);
        const auto side = [&d](const QString &name) {
            return d.exists(name) ? name : name + QStringLiteral(".soul.md");
        };
        const Run run
            = soulc({QStringLiteral("diff"), side(QStringLiteral("a")), side(QStringLiteral("b"))},
                    dir);
        QCOMPARE(run.out, readFile(d.filePath(QStringLiteral("expected.out"))));
        QCOMPARE(run.err, readFile(d.filePath(QStringLiteral("expected.err"))));
        QCOMPARE(run.exitCode,
                 readFile(d.filePath(QStringLiteral("expected.exit"))).trimmed().toInt());
    }

    // Slots over the cap: a change near the cap, and the cut coming or going.
    void diffTruncated_data()
    {
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<QByteArray>("after");
        QTest::addColumn<QByteArray>("line");

        const QByteArray big = QByteArray("line\n").repeated(CapBytes / 5 + 10);
        const QByteArray lines = QByteArray::number(CapBytes / 5);
        QTest::newRow("change near the cap")
            << big << QByteArray(big).replace(CapBytes - 3, 1, "X") << "TOOLS.md line " + lines;
        QTest::newRow("no longer cut")
            << big << big.left(CapBytes) << "TOOLS.md line " + QByteArray::number(CapBytes / 5 + 1);
        // The cap falls inside line CapBytes / 5 + 1 ("li"): the last line the agent gets.
        QTest::newRow("newly cut")
            << big.left(CapBytes) << big << "TOOLS.md line " + QByteArray::number(CapBytes / 5 + 1);
        QTest::newRow("change past the cap, unseen")
            << big << QByteArray(big).append("more") << QByteArray();
    }

    void diffTruncated()
    {
        QFETCH(QByteArray, before);
        QFETCH(QByteArray, after);
        QFETCH(QByteArray, line);
        const QString a = makePersona(QStringLiteral("a"),
                                      {{QStringLiteral("SOUL.md"), "Kip."},
                                       {QStringLiteral("TOOLS.md"), before}});
        const QString b = makePersona(QStringLiteral("b"),
                                      {{QStringLiteral("SOUL.md"), "Kip."},
                                       {QStringLiteral("TOOLS.md"), after}});
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const Run run = soulc({QStringLiteral("diff"), QStringLiteral("a"), QStringLiteral("b")});
        QCOMPARE(run.err, QByteArray());
        const QByteArray last = run.out.mid(run.out.lastIndexOf('\n', run.out.size() - 2) + 1);
        if (line.isEmpty()) {
            QCOMPARE(run.exitCode, ExitSuccess);
            QVERIFY2(last.endsWith("(100%)\n"), last.constData());
            return;
        }
        QCOMPARE(run.exitCode, ExitProblems);
        QVERIFY2(last.startsWith("stable prefix: ")
                     && last.endsWith("; first change: " + line + '\n'),
                 last.constData());
        QVERIFY(run.out.startsWith("--- a\n+++ b\n@@ "));
        QVERIFY(run.out.contains(" @@ TOOLS.md\n"));
    }

    void diffJson()
    {
        const QString dir = QStringLiteral(SOUL_TEST_DATA_DIR "/diff/every-status");
        const Run run = soulc({QStringLiteral("diff"),
                               QStringLiteral("--json"),
                               QStringLiteral("a"),
                               QStringLiteral("b")},
                              dir);
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitProblems);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(run.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(root.value(QStringLiteral("identical")).toBool(true), false);
        QCOMPARE(root.value(QStringLiteral("encoding")).toString(), QStringLiteral("o200k_base"));
        QStringList statuses;
        for (const QJsonValue &section : root.value(QStringLiteral("sections")).toArray())
            statuses.append(section[QStringLiteral("name")].toString() + QLatin1Char('=')
                            + section[QStringLiteral("status")].toString());
        QCOMPARE(statuses,
                 QStringList({QStringLiteral("AGENTS.md=unchanged"),
                              QStringLiteral("SOUL.md=changed"),
                              QStringLiteral("IDENTITY.md=absent"),
                              QStringLiteral("USER.md=removed"),
                              QStringLiteral("TOOLS.md=added"),
                              QStringLiteral("HEARTBEAT.md=absent"),
                              QStringLiteral("MEMORY.md=unchanged")}));
        const QJsonArray sections = root.value(QStringLiteral("sections")).toArray();
        QCOMPARE(sections.at(3)[QStringLiteral("b")].type(), QJsonValue::Null);
        QCOMPARE(sections.at(1)[QStringLiteral("a")][QStringLiteral("offset")].toInteger(), 30);
        const QJsonObject prefix = root.value(QStringLiteral("stablePrefix")).toObject();
        // The token figures of the case's expected.out, which
        // .ci/token-goldens.js checks against OpenAI's tiktoken.
        static const QRegularExpression
            figures(QStringLiteral("^stable prefix: (\\d+) of (\\d+) tokens \\((\\d+)%\\)"),
                    QRegularExpression::MultilineOption);
        const QRegularExpressionMatch text = figures.match(
            QString::fromUtf8(readFile(dir + QStringLiteral("/expected.out"))));
        QVERIFY(text.hasMatch());
        QCOMPARE(prefix.value(QStringLiteral("tokens")).toInteger(), text.captured(1).toLongLong());
        QCOMPARE(prefix.value(QStringLiteral("bytes")).toInteger(), 60);
        QCOMPARE(prefix.value(QStringLiteral("totalTokens")).toInteger(),
                 text.captured(2).toLongLong());
        QCOMPARE(prefix.value(QStringLiteral("totalBytes")).toInteger(), 116);
        QCOMPARE(prefix.value(QStringLiteral("percent")).toInt(), text.captured(3).toInt());
        const QJsonObject first = root.value(QStringLiteral("firstChange")).toObject();
        QCOMPARE(first.value(QStringLiteral("file")).toString(), QStringLiteral("SOUL.md"));
        QCOMPARE(first.value(QStringLiteral("line")).toInteger(), 2);
        QCOMPARE(first.value(QStringLiteral("side")).toString(), QStringLiteral("b"));
        QCOMPARE(first.value(QStringLiteral("offset")).toInteger(), 60);

        const Run same = soulc({QStringLiteral("diff"),
                                QStringLiteral("--json"),
                                QStringLiteral("a"),
                                QStringLiteral("a")},
                               dir);
        QCOMPARE(same.exitCode, ExitSuccess);
        const QJsonObject sameRoot = QJsonDocument::fromJson(same.out).object();
        QCOMPARE(sameRoot.value(QStringLiteral("identical")).toBool(), true);
        QCOMPARE(sameRoot.value(QStringLiteral("firstChange")).type(), QJsonValue::Null);
    }

    void standardOutputFull()
    {
        if (!QFileInfo::exists(QStringLiteral("/dev/full")))
            QSKIP("no /dev/full here");
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("SOUL.md"), "Kip."}});
        QProcess process;
        process.setStandardOutputFile(QStringLiteral("/dev/full"));
        process.start(soulcPath(), {QStringLiteral("compose"), dir});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), ExitFailure);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(err.startsWith("soulc: standard output: "), err.constData());
        QCOMPARE(err.count('\n'), qsizetype(1));
    }

    void help_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("usage"); // the first line

        const QString general = QStringLiteral("Usage: soulc COMMAND [OPTIONS] DIR");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << general;
        QTest::newRow("-h") << QStringList{QStringLiteral("-h")} << general;
        QTest::newRow("help") << QStringList{QStringLiteral("help")} << general;
        const QList<QPair<QString, QString>> commands = {
            {QStringLiteral("compose"),
             QStringLiteral("Usage: soulc compose [--runtime NAME | --rev REV] [--found] [-o FILE "
                            "[--force]] DIR")},
            {QStringLiteral("stat"),
             QStringLiteral(
                 "Usage: soulc stat [--runtime NAME | --rev REV] [--encoding NAME] [--json] DIR")},
            {QStringLiteral("check"),
             QStringLiteral(
                 "Usage: soulc check [--runtime NAME] [--config FILE] [--agent ID] DIR")},
            {QStringLiteral("export"),
             QStringLiteral("Usage: soulc export [--runtime NAME] [--config FILE] [--agent ID] "
                            "[--force] DIR OUT")},
            {QStringLiteral("count"),
             QStringLiteral("Usage: soulc count [--encoding NAME | --tokenizer FILE] FILE...")},
            {QStringLiteral("diff"),
             QStringLiteral("Usage: soulc diff [--encoding NAME] [--json] A B")},
            {QStringLiteral("log"),
             QStringLiteral("Usage: soulc log [--encoding NAME] [--json] DIR")},
            {QStringLiteral("checkpoint"),
             QStringLiteral("Usage: soulc checkpoint [-m MESSAGE] DIR")},
        };
        for (const auto &[command, usage] : commands) {
            QTest::addRow("%s --help", qPrintable(command))
                << QStringList{command, QStringLiteral("--help")} << usage;
            QTest::addRow("%s -h with other arguments", qPrintable(command))
                << QStringList{command, QStringLiteral("/no/such/dir"), QStringLiteral("-h")}
                << usage;
            QTest::addRow("help %s", qPrintable(command))
                << QStringList{QStringLiteral("help"), command} << usage;
        }
    }

    void help()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, usage);
        const Run run = soulc(arguments);
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        const QString text = QString::fromUtf8(run.out);
        QCOMPARE(text.section(QLatin1Char('\n'), 0, 0), usage);
        QVERIFY(text.contains(QStringLiteral("Exit status:")));
        QVERIFY(text.endsWith(QLatin1Char('\n')));
    }

    void version()
    {
        const Run run = soulc({QStringLiteral("--version")});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        QCOMPARE(run.out, QByteArray("soulc " SOULSTUDIO_VERSION "\n"));
    }

    // One count a line, in the order given, each equal to the core's count
    // of the file's bytes; '-' is standard input.
    void count()
    {
        const QByteArray prose = "You are Ava. Keep answers short; ask before acting.\r\n";
        const QByteArray mixed = "\xEF\xBB\xBF"
                                 "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x91\xA9\xE2\x80\x8D"
                                 "\xF0\x9F\x92\xBB <|endoftext|> 1234567 \xFF\xFE";
        const QByteArray input = "read from standard input\n";
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("prose.md")), prose));
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("mixed.md")), mixed));
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("empty.md")), QByteArray()));
        for (const QString &encoding : builtinEncodings()) {
            const auto t = Tokenizer::builtin(encoding);
            QStringList args{QStringLiteral("count")};
            if (encoding != QLatin1String("o200k_base"))
                args << QStringLiteral("--encoding") << encoding;
            args << QStringLiteral("mixed.md") << QStringLiteral("-") << QStringLiteral("prose.md")
                 << QStringLiteral("empty.md");
            const Run run = soulc(args, {}, input);
            QCOMPARE(run.err, QByteArray());
            QCOMPARE(run.exitCode, ExitSuccess);
            QCOMPARE(run.out,
                     QByteArray::number(t->count(mixed)) + '\n' + QByteArray::number(t->count(input))
                         + '\n' + QByteArray::number(t->count(prose)) + "\n0\n");
            QVERIFY(t->count(mixed) > 10);

            args.insert(1, QStringLiteral("--ids"));
            const Run ids = soulc(args, {}, input);
            QCOMPARE(ids.exitCode, ExitSuccess);
            const QList<QByteArray> lines = ids.out.split('\n');
            QCOMPARE(lines.size(), 5);
            QByteArray expected;
            for (const quint32 id : t->encode(prose))
                expected += (expected.isEmpty() ? "" : " ") + QByteArray::number(id);
            QCOMPARE(lines.at(2), expected);
            QCOMPARE(lines.at(3), QByteArray());
        }
    }

    void countFailures_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error"); // a part of the one line on standard error
        QTest::newRow("no file") << QStringList{QStringLiteral("count")}
                                 << QStringLiteral("missing FILE");
        QTest::newRow("missing file") << QStringList{QStringLiteral("count"),
                                                     QStringLiteral("prose.md"),
                                                     QStringLiteral("nope.md")}
                                      << QStringLiteral("cannot read nope.md");
        QTest::newRow("directory") << QStringList{QStringLiteral("count"), QStringLiteral(".")}
                                   << QStringLiteral(". is a directory");
        QTest::newRow("unknown encoding")
            << QStringList{QStringLiteral("count"),
                           QStringLiteral("--encoding"),
                           QStringLiteral("p50k_base"),
                           QStringLiteral("prose.md")}
            << QStringLiteral("unknown encoding 'p50k_base'. Use one of: o200k_base, cl100k_base.");
        QTest::newRow("both options") << QStringList{QStringLiteral("count"),
                                                     QStringLiteral("--encoding"),
                                                     QStringLiteral("cl100k_base"),
                                                     QStringLiteral("--tokenizer"),
                                                     QStringLiteral("t.json"),
                                                     QStringLiteral("prose.md")}
                                      << QStringLiteral("exclude each other");
        QTest::newRow("SentencePiece tokenizer.json")
            << QStringList{QStringLiteral("count"),
                           QStringLiteral("--tokenizer"),
                           QStringLiteral("sp.json"),
                           QStringLiteral("prose.md")}
            << QStringLiteral(
                   "sp.json: a SentencePiece-style model (Metaspace); only byte-level BPE");
        QTest::newRow("stdin twice")
            << QStringList{QStringLiteral("count"), QStringLiteral("-"), QStringLiteral("-")}
            << QStringLiteral("only once");
        QTest::newRow("stat, unknown encoding") << QStringList{QStringLiteral("stat"),
                                                               QStringLiteral("--encoding=gpt2"),
                                                               QStringLiteral(".")}
                                                << QStringLiteral("unknown encoding 'gpt2'");
    }
    void countFailures()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("prose.md")), "Some prose."));
        QVERIFY(writeFile(
            m_dir->filePath(QStringLiteral("sp.json")),
            R"({"model":{"type":"BPE","vocab":{},"merges":[]},"pre_tokenizer":{"type":"Metaspace"}})"));
        const Run run = soulc(arguments);
        QCOMPARE(run.exitCode, ExitFailure);
        QCOMPARE(run.out, QByteArray());
        QVERIFY2(run.err.startsWith("soulc: ") && run.err.count('\n') == 1, run.err.constData());
        QVERIFY2(QString::fromUtf8(run.err).contains(error), run.err.constData());
    }

    // A byte-level BPE tokenizer.json counts with the same engine.
    void countWithTokenizerJson()
    {
        QString vocab;
        for (int b = 0; b < 256; ++b) {
            const char16_t c = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE
                                   ? char16_t(b)
                                   : char16_t(0);
            if (c != 0 && c != u'"' && c != u'\\')
                vocab += QStringLiteral("\"%1\":%2,").arg(QChar(c)).arg(b);
        }
        vocab += QStringLiteral("\"ab\":300");
        const QByteArray json
            = QStringLiteral(
                  R"({"normalizer":null,"pre_tokenizer":{"type":"ByteLevel","add_prefix_space":false,"use_regex":true},)"
                  R"("model":{"type":"BPE","vocab":{%1},"merges":["a b"]}})")
                  .arg(vocab)
                  .toUtf8();
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("tokenizer.json")), json));
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("t.md")), "abab"));
        const Run run = soulc({QStringLiteral("count"),
                               QStringLiteral("--tokenizer"),
                               QStringLiteral("tokenizer.json"),
                               QStringLiteral("--ids"),
                               QStringLiteral("t.md")});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.out, QByteArray("300 300\n"));
    }

    // soulc compose --runtime openclaw prints OpenClaw's own output for the
    // worked examples, with DIR made absolute as OpenClaw makes it: the link
    // in the path named on the command line is kept, not resolved.
    void composeOpenClawExamples_data()
    {
        QTest::addColumn<QJsonObject>("example");
        const QJsonObject all = test::openClawExamples();
        QVERIFY(!all.isEmpty());
        for (const QJsonValue &value : all.value(QStringLiteral("examples")).toArray()) {
            const QJsonObject example = value.toObject();
            QTest::newRow(qPrintable(example.value(QStringLiteral("name")).toString())) << example;
        }
    }

    void composeOpenClawExamples()
    {
        QFETCH(QJsonObject, example);
        const QString real = m_dir->filePath(QStringLiteral("real/agent"));
        QVERIFY(QDir().mkpath(real));
        QVERIFY(test::makeExampleFolder(example, real));
        QVERIFY(QFile::link(m_dir->filePath(QStringLiteral("real")),
                            m_dir->filePath(QStringLiteral("via"))));
        const Run run = soulc({QStringLiteral("compose"),
                               QStringLiteral("--runtime"),
                               QStringLiteral("openclaw"),
                               QStringLiteral("via/./agent/")});
        QCOMPARE(run.exitCode, ExitSuccess);
        const QString placeholder = test::openClawExamples().value(QStringLiteral("dir")).toString();
        const QString dir = QDir(m_dir->path()).canonicalPath() + QStringLiteral("/via/agent");
        const QString expected = example.value(QStringLiteral("expect"))
                                     .toObject()
                                     .value(QStringLiteral("section"))
                                     .toString()
                                     .replace(placeholder, dir);
        QCOMPARE(QString::fromUtf8(run.out), expected);
        QCOMPARE(run.out, expected.toUtf8());
    }

    void composeRuntimeDefault()
    {
        const QString dir = makePersona(QStringLiteral("persona"),
                                        {{QStringLiteral("SOUL.md"), "You are Kip.\n"},
                                         {QStringLiteral("TOOLS.md"), "ssh\n"}});
        const Run plain = soulc({QStringLiteral("compose"), dir});
        const Run toolnexus = soulc(
            {QStringLiteral("compose"), QStringLiteral("--runtime=toolnexus"), dir});
        QCOMPARE(plain.exitCode, ExitSuccess);
        QCOMPARE(toolnexus.exitCode, ExitSuccess);
        QCOMPARE(toolnexus.out, plain.out);
        QCOMPARE(plain.out, composeDirectory(dir).soul);
        const Run found = soulc({QStringLiteral("compose"),
                                 QStringLiteral("--runtime"),
                                 QStringLiteral("openclaw"),
                                 QStringLiteral("--found"),
                                 dir});
        QCOMPARE(found.exitCode, ExitSuccess);
        // AGENTS.md and IDENTITY.md are missing: their MISSING lines take part.
        QCOMPARE(found.out, QByteArray("AGENTS.md\nSOUL.md\nIDENTITY.md\n"));
    }

    void statOpenClaw()
    {
        const QJsonObject all = test::openClawExamples();
        QJsonObject totalBudget;
        for (const QJsonValue &value : all.value(QStringLiteral("examples")).toArray()) {
            if (value.toObject().value(QStringLiteral("name")).toString()
                == QLatin1String("total-budget"))
                totalBudget = value.toObject();
        }
        QVERIFY(!totalBudget.isEmpty());
        const QString dir = m_dir->filePath(QStringLiteral("persona"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(test::makeExampleFolder(totalBudget, dir));
        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral("TOOLS.md")), "ssh: home\n"));

        const Run json = soulc({QStringLiteral("stat"),
                                QStringLiteral("--runtime"),
                                QStringLiteral("openclaw"),
                                QStringLiteral("--json"),
                                dir});
        QCOMPARE(json.err, QByteArray());
        QCOMPARE(json.exitCode, ExitSuccess);
        const QJsonObject root = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(root.value(QStringLiteral("runtime")).toString(), QStringLiteral("openclaw"));
        QCOMPARE(root.value(QStringLiteral("settings"))
                     .toObject()
                     .value(QStringLiteral("bootstrapTotalMaxChars"))
                     .toInt(),
                 60000);
        QVERIFY(root.value(QStringLiteral("notice")).toBool());
        // The figures OpenClaw itself reports for the example.
        QHash<QString, QJsonObject> byName;
        for (const QJsonValue &value : root.value(QStringLiteral("files")).toArray())
            byName.insert(value.toObject().value(QStringLiteral("name")).toString(),
                          value.toObject());
        for (const QJsonValue &value : totalBudget.value(QStringLiteral("expect"))
                                           .toObject()
                                           .value(QStringLiteral("files"))
                                           .toArray()) {
            const QJsonObject want = value.toObject();
            const QJsonObject got = byName.value(want.value(QStringLiteral("name")).toString());
            QCOMPARE(got.value(QStringLiteral("rawChars")).toInt(),
                     want.value(QStringLiteral("rawChars")).toInt());
            QCOMPARE(got.value(QStringLiteral("injectedChars")).toInt(),
                     want.value(QStringLiteral("injectedChars")).toInt());
            QCOMPARE(got.value(QStringLiteral("truncated")).toBool(),
                     want.value(QStringLiteral("truncated")).toBool());
        }
        QCOMPARE(byName.value(QStringLiteral("USER.md")).value(QStringLiteral("limit")).toInt(),
                 4000);
        QCOMPARE(byName.value(QStringLiteral("USER.md")).value(QStringLiteral("keptHead")).toInt(),
                 58);
        QCOMPARE(byName.value(QStringLiteral("MEMORY.md")).value(QStringLiteral("injected")).toBool(),
                 false);
        QCOMPARE(byName.value(QStringLiteral("TOOLS.md")).value(QStringLiteral("status")).toString(),
                 QStringLiteral("not-loaded"));
        QCOMPARE(byName.value(QStringLiteral("TOOLS.md")).value(QStringLiteral("rawChars")).toInt(),
                 9);
        QCOMPARE(byName.value(QStringLiteral("BOOTSTRAP.md"))
                     .value(QStringLiteral("status"))
                     .toString(),
                 QStringLiteral("absent"));
        const QJsonObject totals = root.value(QStringLiteral("totals")).toObject();
        QCOMPARE(totals.value(QStringLiteral("injectedChars")).toInt(), 19999 + 20000 + 19901 + 99);
        QCOMPARE(totals.value(QStringLiteral("totalMaxChars")).toInt(), 60000);
        QVERIFY(totals.value(QStringLiteral("nearLimit")).toBool());
        QCOMPARE(totals.value(QStringLiteral("truncated")).toInt(), 2);
        const QJsonObject section = root.value(QStringLiteral("section")).toObject();
        const Run compose = soulc({QStringLiteral("compose"),
                                   QStringLiteral("--runtime"),
                                   QStringLiteral("openclaw"),
                                   dir});
        QCOMPARE(section.value(QStringLiteral("bytes")).toInt(), compose.out.size());
        QCOMPARE(section.value(QStringLiteral("sha256")).toString().toLatin1(),
                 sha256Hex(compose.out));
        // The exact count of the bytes OpenClaw injects, not an estimate.
        const auto o200k = Tokenizer::builtin(QStringLiteral("o200k_base"));
        QVERIFY(o200k);
        const qint64 tokens = o200k->count(compose.out);
        QVERIFY(tokens > 0);
        QCOMPARE(section.value(QStringLiteral("encoding")).toString(), QStringLiteral("o200k_base"));
        QCOMPARE(section.value(QStringLiteral("tokens")).toInteger(), tokens);
        QVERIFY(!section.contains(QStringLiteral("approxTokens")));

        const Run text = soulc({QStringLiteral("stat"), QStringLiteral("--runtime=openclaw"), dir});
        QCOMPARE(text.exitCode, ExitSuccess);
        const QString out = QString::fromUtf8(text.out);
        static const QRegularExpression userRow(
            QStringLiteral("\nUSER\\.md +read +300 +99 +4,000 +yes "));
        static const QRegularExpression memoryRow(
            QStringLiteral("\nMEMORY\\.md +read +12 +0 +20,000 +yes "));
        static const QRegularExpression totalRow(
            QStringLiteral("\ntotal +60,212 +59,999 +60,000 +2 "));
        QVERIFY2(userRow.match(out).hasMatch(), qPrintable(out));
        QVERIFY2(memoryRow.match(out).hasMatch(), qPrintable(out));
        QVERIFY2(totalRow.match(out).hasMatch(), qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("\nTOOLS.md      not loaded")));
        QVERIFY2(out.contains(QStringLiteral(" bytes, %1 tokens (o200k_base)\n")
                                  .arg(QLocale(QLocale::English).toString(tokens))),
                 qPrintable(out));
    }

    void checkOpenClaw_data()
    {
        QTest::addColumn<Persona>("files");
        QTest::addColumn<QStringList>("links"); // "NAME>TARGET"
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("lines"); // in order, each a whole line after "persona/"

        const QByteArray soul = QByteArray(26499, 's');
        QTest::newRow("clean") << Persona{{QStringLiteral("AGENTS.md"), "a\n"},
                                          {QStringLiteral("SOUL.md"), "s\n"},
                                          {QStringLiteral("IDENTITY.md"), "i\n"}}
                               << QStringList() << ExitSuccess << QStringList();
        QTest::newRow("cut, unloaded, linked")
            << Persona{{QStringLiteral("AGENTS.md"), "a\n"},
                       {QStringLiteral("SOUL.md"), soul},
                       {QStringLiteral("IDENTITY.md"), "i\n"},
                       {QStringLiteral("real.md"), "m\n"},
                       {QStringLiteral("TOOLS.md"), "t\n"}}
            << QStringList{QStringLiteral("MEMORY.md>real.md")} << ExitProblems
            << QStringList{
                   QStringLiteral(
                       "SOUL.md: warning: OpenClaw keeps the first 14,920 and the last 4,973 of "
                       "its 26,499 characters (limit 20,000); the 6,606 between are not injected."),
                   QStringLiteral(
                       "MEMORY.md: error: MEMORY.md is a symbolic link: OpenClaw refuses it and "
                       "injects \"[UNREADABLE: symlink path component not allowed]\" instead of "
                       "its text. Replace the link with the file itself."),
                   QStringLiteral("TOOLS.md: warning: TOOLS.md is not loaded by OpenClaw 2026.9: "
                                  "move its notes to a ## Tools section of AGENTS.md."),
               };
        QTest::newRow("templates")
            << Persona{{QStringLiteral("IDENTITY.md"), "i\n"},
                       {QStringLiteral("BOOTSTRAP.md"), "Hello.\n"}}
            << QStringList() << ExitSuccess
            << QStringList{
                   QStringLiteral("AGENTS.md: warning: AGENTS.md is missing: OpenClaw 2026.9 "
                                  "creates it from its default template before the next reply, and "
                                  "the agent reads that instead. Write your own AGENTS.md."),
                   QStringLiteral("SOUL.md: warning: SOUL.md is missing: while the first run is "
                                  "pending (BOOTSTRAP.md is here) OpenClaw 2026.9 creates it from "
                                  "its default template before the next reply."),
                   QStringLiteral(
                       "BOOTSTRAP.md: info: BOOTSTRAP.md is still here: OpenClaw treats the first "
                       "run as pending (and deletes the file once the persona looks set up)."),
               };
    }

    void checkOpenClaw()
    {
        QFETCH(Persona, files);
        QFETCH(QStringList, links);
        QFETCH(int, exitCode);
        QFETCH(QStringList, lines);
        const QString dir = makePersona(QStringLiteral("persona"), files);
        QVERIFY(!dir.isEmpty());
        for (const QString &link : std::as_const(links))
            QVERIFY(QFile::link(link.section(QLatin1Char('>'), 1),
                                QDir(dir).filePath(link.section(QLatin1Char('>'), 0, 0))));
        const Run run = soulc({QStringLiteral("check"),
                               QStringLiteral("--runtime"),
                               QStringLiteral("openclaw"),
                               QStringLiteral("persona")});
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, exitCode);
        QStringList got = QString::fromUtf8(run.out).split(QLatin1Char('\n'));
        QCOMPARE(got.takeLast(), QString());
        for (QString &line : got) {
            QVERIFY2(line.startsWith(QStringLiteral("persona/")), qPrintable(line));
            line.remove(0, 8);
        }
        QCOMPARE(got, lines);
    }

    // The example persona shipped with the project composes, measures and
    // passes its own check.
    // ---- history ---------------------------------------------------------

    void historyLog()
    {
        test::GitFixture git(m_dir->path());
        const QString ava = makeHistory(git);
        QVERIFY2(!ava.isEmpty(), qPrintable(git.lastError()));
        const QString repo = m_dir->filePath(QStringLiteral("repo"));
        const Run log = soulc({QStringLiteral("log"), ava});
        QCOMPARE(log.err, QByteArray());
        QCOMPARE(log.exitCode, ExitSuccess);
        const QList<QByteArray> lines = log.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines.at(0).startsWith("commit   date"));
        // Newest first, the commit that touched no slot left out.
        const QList<QByteArray> touching = git.git(repo,
                                                   {QStringLiteral("log"),
                                                    QStringLiteral("--format=%h"),
                                                    QStringLiteral("--abbrev=7"),
                                                    QStringLiteral("--"),
                                                    QStringLiteral("agents/ava")})
                                               .trimmed()
                                               .split('\n');
        QCOMPARE(touching.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QByteArray &line = lines.at(i + 1);
            QVERIFY2(line.startsWith(touching.at(i) + ' '), line.constData());
            // The soul's bytes and tokens are stat --rev's.
            const Run stat = soulc({QStringLiteral("stat"),
                                    QStringLiteral("--json"),
                                    QStringLiteral("--rev"),
                                    QString::fromLatin1(touching.at(i)),
                                    ava});
            QCOMPARE(stat.exitCode, ExitSuccess);
            const QJsonObject soul
                = QJsonDocument::fromJson(stat.out).object().value(QLatin1String("soul")).toObject();
            const QString figures
                = QStringLiteral("  %1  %2  ")
                      .arg(QLocale(QLocale::English)
                               .toString(soul.value(QLatin1String("bytes")).toInteger()),
                           QLocale(QLocale::English)
                               .toString(soul.value(QLatin1String("tokens")).toInteger()));
            QVERIFY2(QString::fromUtf8(line).simplified().contains(figures.simplified()),
                     line.constData());
        }
        QVERIFY2(lines.at(1).contains(" SOUL.md +"), lines.at(1).constData());
        const auto tokenizer = Tokenizer::builtin(QString());
        const auto sectionTokens = [&tokenizer](int slot, const QByteArray &bytes) {
            return QByteArray::number(tokenizer->count(composeSection(slot, bytes)));
        };
        QVERIFY2(lines.at(2).endsWith("MEMORY.md added (+" + sectionTokens(6, "- likes tea\n")
                                      + ')'),
                 lines.at(2).constData());
        QVERIFY2(lines.at(3).endsWith("SOUL.md added (+" + sectionTokens(1, "You are Ava.\n") + ')'),
                 lines.at(3).constData());

        const Run json = soulc({QStringLiteral("log"),
                                QStringLiteral("--json"),
                                QStringLiteral("--encoding"),
                                QStringLiteral("cl100k_base"),
                                ava});
        QCOMPARE(json.exitCode, ExitSuccess);
        const QJsonObject root = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(root.value(QLatin1String("path")).toString(), QStringLiteral("agents/ava"));
        QCOMPARE(root.value(QLatin1String("encoding")).toString(), QStringLiteral("cl100k_base"));
        const QJsonArray commits = root.value(QLatin1String("commits")).toArray();
        QCOMPARE(commits.size(), 3);
        const QJsonObject newest = commits.at(0).toObject();
        QCOMPARE(newest.value(QLatin1String("id")).toString().toLatin1(),
                 git.revParse(repo, QStringLiteral("HEAD")));
        QCOMPARE(newest.value(QLatin1String("author"))
                     .toObject()
                     .value(QLatin1String("name"))
                     .toString(),
                 QStringLiteral("Test Author"));
        const QJsonObject soulSlot = newest.value(QLatin1String("slots")).toArray().at(1).toObject();
        QCOMPARE(soulSlot.value(QLatin1String("change")).toString(), QStringLiteral("modified"));
        QCOMPARE(soulSlot.value(QLatin1String("blob")).toString().toLatin1(),
                 git.revParse(repo, QStringLiteral("HEAD:agents/ava/SOUL.md")));
        const Run clStat = soulc({QStringLiteral("stat"),
                                  QStringLiteral("--json"),
                                  QStringLiteral("--encoding"),
                                  QStringLiteral("cl100k_base"),
                                  QStringLiteral("--rev"),
                                  QStringLiteral("HEAD~2"),
                                  ava});
        QCOMPARE(commits.at(1)
                     .toObject()
                     .value(QLatin1String("soul"))
                     .toObject()
                     .value(QLatin1String("tokens")),
                 QJsonDocument::fromJson(clStat.out)
                     .object()
                     .value(QLatin1String("soul"))
                     .toObject()
                     .value(QLatin1String("tokens")));
    }

    void historyComposeStatDiff()
    {
        test::GitFixture git(m_dir->path());
        const QString ava = makeHistory(git);
        QVERIFY2(!ava.isEmpty(), qPrintable(git.lastError()));
        const QString repo = m_dir->filePath(QStringLiteral("repo"));
        // The working files change after the last commit.
        QVERIFY(writeFile(QDir(ava).filePath(QStringLiteral("USER.md")), "The user.\n"));

        for (const QString &rev :
             {QStringLiteral("HEAD"), QStringLiteral("HEAD~1"), QStringLiteral("HEAD~3")}) {
            const Run run = soulc({QStringLiteral("compose"), QStringLiteral("--rev"), rev, ava});
            QCOMPARE(run.err, QByteArray());
            QCOMPARE(run.exitCode, ExitSuccess);
            QCOMPARE(run.out, checkoutSoul(git, repo, rev, QStringLiteral("agents/ava")));
        }
        const Run found = soulc({QStringLiteral("compose"),
                                 QStringLiteral("--found"),
                                 QStringLiteral("--rev=HEAD~1"),
                                 ava});
        QCOMPARE(found.out, QByteArray("SOUL.md\nMEMORY.md\n"));
        const Run toFile = soulc({QStringLiteral("compose"),
                                  QStringLiteral("--rev"),
                                  QStringLiteral("HEAD~3"),
                                  QStringLiteral("-o"),
                                  QStringLiteral("old.soul.md"),
                                  ava});
        QCOMPARE(toFile.exitCode, ExitSuccess);
        QCOMPARE(readFile(m_dir->filePath(QStringLiteral("old.soul.md"))),
                 QByteArray("## SOUL.md\n\nYou are Ava."));

        const QByteArray shortId = git.git(repo,
                                           {QStringLiteral("rev-parse"),
                                            QStringLiteral("--short=7"),
                                            QStringLiteral("HEAD~1")})
                                       .trimmed();
        const Run stat = soulc(
            {QStringLiteral("stat"), QStringLiteral("--rev"), QStringLiteral("HEAD~1"), ava});
        QCOMPARE(stat.exitCode, ExitSuccess);
        QVERIFY2(stat.out.contains("\ncommit   " + shortId + " (HEAD~1)\n"), stat.out.constData());
        QVERIFY2(stat.out.contains("\nUSER.md       no "), stat.out.constData());
        const Run statJson = soulc({QStringLiteral("stat"),
                                    QStringLiteral("--json"),
                                    QStringLiteral("--rev"),
                                    QStringLiteral("HEAD~1"),
                                    ava});
        QCOMPARE(QJsonDocument::fromJson(statJson.out)
                     .object()
                     .value(QLatin1String("commit"))
                     .toObject()
                     .value(QLatin1String("id"))
                     .toString()
                     .toLatin1(),
                 git.revParse(repo, QStringLiteral("HEAD~1")));

        // diff --rev REV DIR is soulc diff of the commit's soul and the folder.
        const QString old = makePersona(QStringLiteral("old"),
                                        {{QStringLiteral("SOUL.md"), "You are Ava.\n"},
                                         {QStringLiteral("MEMORY.md"), "- likes tea\n"}});
        const Run revDiff = soulc(
            {QStringLiteral("diff"), QStringLiteral("--rev"), QStringLiteral("HEAD~1"), ava});
        const Run plainDiff = soulc({QStringLiteral("diff"), old, ava});
        QCOMPARE(revDiff.exitCode, ExitProblems);
        QCOMPARE(plainDiff.exitCode, ExitProblems);
        QVERIFY2(revDiff.out.startsWith("--- HEAD~1:" + QFile::encodeName(QDir::cleanPath(ava))
                                        + "\n+++ " + QFile::encodeName(ava) + "\n"),
                 revDiff.out.constData());
        QCOMPARE(revDiff.out.mid(revDiff.out.indexOf("\n@@")),
                 plainDiff.out.mid(plainDiff.out.indexOf("\n@@")));
        const Run twoRevs = soulc({QStringLiteral("diff"),
                                   QStringLiteral("--json"),
                                   QStringLiteral("--rev"),
                                   QStringLiteral("HEAD~3"),
                                   QStringLiteral("--rev"),
                                   QStringLiteral("HEAD"),
                                   ava});
        QCOMPARE(twoRevs.exitCode, ExitProblems);
        const QJsonArray sections = QJsonDocument::fromJson(twoRevs.out)
                                        .object()
                                        .value(QLatin1String("sections"))
                                        .toArray();
        QCOMPARE(sections.at(1).toObject().value(QLatin1String("status")).toString(),
                 QStringLiteral("changed"));
        QCOMPARE(sections.at(6).toObject().value(QLatin1String("status")).toString(),
                 QStringLiteral("added"));
        QCOMPARE(sections.at(3).toObject().value(QLatin1String("status")).toString(),
                 QStringLiteral("absent"));
        const Run same = soulc({QStringLiteral("diff"),
                                QStringLiteral("--rev"),
                                QStringLiteral("HEAD~1"),
                                QStringLiteral("--rev"),
                                QStringLiteral("HEAD~2"),
                                ava});
        QCOMPARE(same.exitCode, ExitSuccess); // HEAD~1 changed README.md alone
        QVERIFY2(same.out.startsWith("stable prefix: "), same.out.constData());
        QVERIFY(same.out.contains("(100%)"));
    }

    void checkpointCommand()
    {
        test::GitFixture git(m_dir->path());
        // soulc reads no user configuration here.
        const QByteArray home = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(m_dir->path()));
        const auto restoreHome = qScopeGuard([&home] { qputenv("HOME", home); });
        const QString dir = makePersona(QStringLiteral("kip"),
                                        {{QStringLiteral("SOUL.md"), "You are Kip.\n"}});
        const Run loose = soulc({QStringLiteral("checkpoint"), dir});
        QCOMPARE(loose.exitCode, ExitFailure);
        QVERIFY2(loose.err.startsWith("soulc: " + QFile::encodeName(dir)
                                      + " is not in a git repository"),
                 loose.err.constData());

        QVERIFY(!git.git(dir, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
        const Run first = soulc({QStringLiteral("checkpoint"), dir});
        QCOMPARE(first.err, QByteArray());
        QCOMPARE(first.exitCode, ExitSuccess);
        const QByteArray shortId = git.git(dir,
                                           {QStringLiteral("rev-parse"),
                                            QStringLiteral("--short=7"),
                                            QStringLiteral("HEAD")})
                                       .trimmed();
        const QByteArray added = "SOUL.md added (+"
                                 + QByteArray::number(Tokenizer::builtin(QString())->count(
                                     composeSection(1, "You are Kip.\n")))
                                 + " tokens)";
        QCOMPARE(first.out, "checkpoint " + shortId + ": " + added + '\n');
        QCOMPARE(git.git(dir, {QStringLiteral("log"), QStringLiteral("--format=%an|%B")}),
                 "Soul Studio|" + added + "\n\n");

        const Run nothing = soulc({QStringLiteral("checkpoint"), dir});
        QCOMPARE(nothing.exitCode, ExitProblems);
        QCOMPARE(nothing.err, QByteArray());
        QVERIFY2(nothing.out.startsWith("nothing to checkpoint"), nothing.out.constData());

        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral("SOUL.md")), "You are Kip, terse.\n"));
        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral("notes.txt")), "not a slot\n"));
        const Run named = soulc({QStringLiteral("checkpoint"),
                                 QStringLiteral("-m"),
                                 QStringLiteral("Make Kip terse"),
                                 dir});
        QCOMPARE(named.exitCode, ExitSuccess);
        QVERIFY2(named.out.endsWith(": Make Kip terse\n"), named.out.constData());
        QCOMPARE(git.git(dir,
                         {QStringLiteral("log"),
                          QStringLiteral("-1"),
                          QStringLiteral("--format=%B")}),
                 QByteArray("Make Kip terse\n\n"));
        QCOMPARE(git.git(dir, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray("?? notes.txt\n"));

        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral("MEMORY.md")), "- one\n"));
        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral(".git/index.lock")), ""));
        const Run locked = soulc({QStringLiteral("checkpoint"), dir});
        QCOMPARE(locked.exitCode, ExitFailure);
        QVERIFY2(locked.err.contains(".git/index.lock exists"), locked.err.constData());
        QCOMPARE(locked.out, QByteArray());
        QCOMPARE(git.git(dir,
                         {QStringLiteral("rev-list"),
                          QStringLiteral("--count"),
                          QStringLiteral("HEAD")}),
                 QByteArray("2\n"));
    }

    // A full disk: exit 2 with a sentence that says so, and HEAD where it
    // was; once there is room, the same command commits.
    void checkpointFullDisk()
    {
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
        test::GitFixture git(m_dir->path());
        const QByteArray home = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(m_dir->path()));
        const auto restoreHome = qScopeGuard([&home] { qputenv("HOME", home); });
        const QString dir = mountPoint.filePath(QStringLiteral("kip"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(!git.git(dir, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral("SOUL.md")), "You are Kip.\n"));
        const QByteArray first = git.commitAll(dir, QStringLiteral("one"));
        QVERIFY(!first.isEmpty());
        QVERIFY(writeFile(QDir(dir).filePath(QStringLiteral("SOUL.md")), "You are Kip, terse.\n"));
        const QString ballast = mountPoint.filePath(QStringLiteral("ballast"));
        QString error;
        QVERIFY2(test::fillFileSystem(ballast, 0, &error), qPrintable(error));

        const Run full = soulc({QStringLiteral("checkpoint"), dir});
        QCOMPARE(full.exitCode, ExitFailure);
        QCOMPARE(full.out, QByteArray());
        QVERIFY2(full.err.startsWith("soulc: ") && full.err.contains("No space left on device")
                     && full.err.contains("The disk is full: free some space on it, then "
                                          "checkpoint again; nothing was committed."),
                 full.err.constData());
        QCOMPARE(git.revParse(dir, QStringLiteral("HEAD")), first);

        QVERIFY(QFile::remove(ballast));
        const Run freed = soulc({QStringLiteral("checkpoint"), dir});
        QCOMPARE(freed.err, QByteArray());
        QCOMPARE(freed.exitCode, ExitSuccess);
        QCOMPARE(git.revParse(dir, QStringLiteral("HEAD~1")), first);
    }

    void historyErrors_data()
    {
        QTest::addColumn<QStringList>("arguments"); // "@" stands for the persona
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("says");
        const QString dir = QStringLiteral("@");
        const auto row =
            [](const char *name, QStringList arguments, int exitCode, const char *says) {
                QTest::newRow(name) << arguments << exitCode << QString::fromUtf8(says);
            };
        row("log: not a repository",
            {QStringLiteral("log"), QStringLiteral("@loose")},
            ExitFailure,
            "is not in a git repository");
        row("compose: not a repository",
            {QStringLiteral("compose"),
             QStringLiteral("--rev"),
             QStringLiteral("HEAD"),
             QStringLiteral("@loose")},
            ExitFailure,
            "is not in a git repository");
        row("compose: unknown rev",
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("nope"), dir},
            ExitFailure,
            "'nope' names no commit in the repository at");
        row("stat: too far back",
            {QStringLiteral("stat"), QStringLiteral("--rev"), QStringLiteral("HEAD~9"), dir},
            ExitFailure,
            "'HEAD~9' names no commit");
        row("diff: a blob",
            {QStringLiteral("diff"),
             QStringLiteral("--rev"),
             QStringLiteral("HEAD:agents/ava/SOUL.md"),
             dir},
            ExitFailure,
            "names a blob");
        row("compose: --rev twice",
            {QStringLiteral("compose"),
             QStringLiteral("--rev"),
             QStringLiteral("HEAD"),
             QStringLiteral("--rev"),
             QStringLiteral("HEAD"),
             dir},
            ExitFailure,
            "option '--rev' can be given once");
        row("compose: --rev and openclaw",
            {QStringLiteral("compose"),
             QStringLiteral("--rev"),
             QStringLiteral("HEAD"),
             QStringLiteral("--runtime"),
             QStringLiteral("openclaw"),
             dir},
            ExitFailure,
            "exclude each other");
        row("diff: --rev and two folders",
            {QStringLiteral("diff"), QStringLiteral("--rev"), QStringLiteral("HEAD"), dir, dir},
            ExitFailure,
            "unexpected argument");
        row("diff: three revs",
            {QStringLiteral("diff"),
             QStringLiteral("--rev=HEAD"),
             QStringLiteral("--rev=HEAD"),
             QStringLiteral("--rev=HEAD"),
             dir},
            ExitFailure,
            "at most twice");
        row("log: missing DIR", {QStringLiteral("log")}, ExitFailure, "log: missing DIR");
        row("checkpoint: empty message",
            {QStringLiteral("checkpoint"), QStringLiteral("-m"), QString(), dir},
            ExitFailure,
            "needs a MESSAGE");
        row("check: no --rev",
            {QStringLiteral("check"), QStringLiteral("--rev"), QStringLiteral("HEAD"), dir},
            ExitFailure,
            "unknown option '--rev'");
        row("log: empty repository",
            {QStringLiteral("log"), QStringLiteral("@empty")},
            ExitSuccess,
            "no commit in the repository at");
    }

    void historyErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, says);
        test::GitFixture git(m_dir->path());
        const QString ava = makeHistory(git);
        QVERIFY2(!ava.isEmpty(), qPrintable(git.lastError()));
        const QString loose = makePersona(QStringLiteral("loose"),
                                          {{QStringLiteral("SOUL.md"), "x"}});
        const QString empty = makePersona(QStringLiteral("empty"),
                                          {{QStringLiteral("SOUL.md"), "x"}});
        QVERIFY(!git.git(empty, {QStringLiteral("init"), QStringLiteral("-q")}).isNull());
        for (QString &argument : arguments) {
            if (argument == QLatin1String("@"))
                argument = ava;
            else if (argument.startsWith(QLatin1Char('@')))
                argument = argument == QLatin1String("@loose") ? loose : empty;
        }
        const Run run = soulc(arguments);
        QCOMPARE(run.exitCode, exitCode);
        const QByteArray text = exitCode == ExitSuccess ? run.out : run.err;
        QVERIFY2(text.contains(says.toUtf8()), text.constData());
        if (exitCode != ExitSuccess) {
            QVERIFY(run.err.startsWith("soulc: "));
            QCOMPARE(run.err.count('\n'), qsizetype(1));
            QCOMPARE(run.out, QByteArray());
        }
    }

    void exampleAva()
    {
        const QString ava = QStringLiteral(SOUL_PROJECT_SOURCE_DIR "/examples/ava");
        QVERIFY2(QFileInfo(ava).isDir(), qPrintable(ava));

        const Run stat = soulc({QStringLiteral("stat"), ava});
        QCOMPARE(stat.err, QByteArray());
        QCOMPARE(stat.exitCode, ExitSuccess);
        QVERIFY(stat.out.contains("tokens (o200k_base)"));
        QVERIFY(stat.out.contains("\nSOUL.md "));

        const Run compose = soulc({QStringLiteral("compose"), ava});
        QCOMPARE(compose.exitCode, ExitSuccess);
        QVERIFY(!compose.out.isEmpty());
        QVERIFY(compose.out == composeDirectory(ava).soul);

        const Run check = soulc({QStringLiteral("check"), ava});
        QVERIFY2(check.exitCode == ExitSuccess, check.out.constData());
    }

    // An environment with HOME in the fixture and nothing of the user's.
    QProcessEnvironment agentsEnvironment() const
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("HOME"), m_dir->filePath(QStringLiteral("home")));
        environment.insert(QStringLiteral("PATH"), qEnvironmentVariable("PATH"));
        return environment;
    }

    void agentsJson()
    {
        // Three agents: one with a soul and its own budget, one with a
        // missing workspace, the default one in the state directory.
        const QString state = m_dir->filePath(QStringLiteral("home/.openclaw"));
        QVERIFY(QDir().mkpath(state));
        QVERIFY(writeFile(QDir(state).filePath(QStringLiteral("openclaw.json")),
                          "{\n"
                          "  // three agents\n"
                          "  agents: {\n"
                          "    defaults: { bootstrapTotalMaxChars: 50000 },\n"
                          "    entries: {\n"
                          "      main: { default: true },\n"
                          "      coach: { workspace: '~/coach', bootstrapMaxChars: 0x1F40 },\n"
                          "      gone: {},\n"
                          "    },\n"
                          "  },\n"
                          "}\n"));
        const QString coach = makePersona(QStringLiteral("home/coach"),
                                          {{QStringLiteral("SOUL.md"), "# Coach\n\nBrief.\n"}});
        QVERIFY(!coach.isEmpty());
        QVERIFY(QDir().mkpath(QDir(state).filePath(QStringLiteral("workspace"))));

        const Run run = soulc({QStringLiteral("agents"), QStringLiteral("--json")},
                              {},
                              {},
                              agentsEnvironment());
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(run.exitCode, ExitSuccess);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root.value(QStringLiteral("config")).toString(),
                 QDir(state).filePath(QStringLiteral("openclaw.json")));
        const QJsonArray agents = root.value(QStringLiteral("agents")).toArray();
        QCOMPARE(agents.size(), 3);

        const QJsonObject main = agents.at(0).toObject();
        QCOMPARE(main.value(QStringLiteral("id")).toString(), QStringLiteral("main"));
        QCOMPARE(main.value(QStringLiteral("isDefault")).toBool(), true);
        QCOMPARE(main.value(QStringLiteral("workspace")).toString(),
                 QDir(state).filePath(QStringLiteral("workspace")));
        QCOMPARE(main.value(QStringLiteral("exists")).toBool(), true);
        QCOMPARE(main.value(QStringLiteral("soul")).toObject().value(QStringLiteral("bytes")).toInt(),
                 0);

        const QJsonObject coachAgent = agents.at(1).toObject();
        QCOMPARE(coachAgent.value(QStringLiteral("workspace")).toString(), coach);
        QCOMPARE(coachAgent.value(QStringLiteral("isDefault")).toBool(), false);
        const QJsonObject soul = coachAgent.value(QStringLiteral("soul")).toObject();
        QCOMPARE(soul.value(QStringLiteral("bytes")).toInt(), composeDirectory(coach).soul.size());
        QVERIFY(soul.value(QStringLiteral("tokens")).toInt() > 0);
        const QJsonObject budgets = coachAgent.value(QStringLiteral("budgets")).toObject();
        QCOMPARE(budgets.value(QStringLiteral("bootstrapMaxChars")).toInt(), 8000);
        QCOMPARE(budgets.value(QStringLiteral("bootstrapMaxCharsFrom")).toString(),
                 QStringLiteral("agents.entries.coach"));
        QCOMPARE(budgets.value(QStringLiteral("bootstrapTotalMaxChars")).toInt(), 50000);
        QCOMPARE(budgets.value(QStringLiteral("bootstrapTotalMaxCharsFrom")).toString(),
                 QStringLiteral("agents.defaults"));
        const QJsonObject openClaw = coachAgent.value(QStringLiteral("openclaw")).toObject();
        QCOMPARE(openClaw.value(QStringLiteral("totalMaxChars")).toInt(), 50000);
        QVERIFY(openClaw.value(QStringLiteral("injectedChars")).toInt() > 0);

        const QJsonObject gone = agents.at(2).toObject();
        QCOMPARE(gone.value(QStringLiteral("workspace")).toString(),
                 QDir(state).filePath(QStringLiteral("workspace-gone")));
        QCOMPARE(gone.value(QStringLiteral("exists")).toBool(), false);
        QVERIFY(!gone.contains(QStringLiteral("soul")));

        // The table says the same.
        const Run text = soulc({QStringLiteral("agents")}, {}, {}, agentsEnvironment());
        QCOMPARE(text.exitCode, ExitSuccess);
        QVERIFY2(text.out.contains("\ngone   no       missing"), text.out.constData());
        QVERIFY2(text.out.contains("\nmain   yes      yes"), text.out.constData());
    }

    void agentsConfig_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("says"); // in the output, or in the error

        QTest::newRow("list roster") << QByteArray("{ agents: { list: [ { id: 'solo' } ] } }")
                                     << ExitSuccess << QByteArray("\"id\": \"solo\"");
        QTest::newRow("invalid JSON5 names file and line")
            << QByteArray("{\n  agents: {\n    entries: [\n  }\n}\n") << ExitFailure
            << QByteArray("other.json5: line 4, column 3: not valid JSON5");
        QTest::newRow("refused roster names file and line")
            << QByteArray("{\n  agents: {\n    entries: { a: {}, b: {} },\n  },\n}\n")
            << ExitFailure << QByteArray("other.json5 line 2: a roster of several agents");
        QTest::newRow("missing include")
            << QByteArray("{ $include: './nope.json5' }") << ExitFailure
            << QByteArray("$include \"./nope.json5\": The included file ");
        QTest::newRow("include that holds no object, named")
            << QByteArray("{ $include: './list.json5', agents: {} }") << ExitFailure
            << QByteArray("list.json5, which holds no object");
        // No "Broken filename" from Qt, and no exit 0.
        QTest::newRow("NUL in a workspace")
            << QByteArray("{ agents: { entries: { ops: { workspace: '/tmp/a\\u0000b' } } } }")
            << ExitFailure << QByteArray("/tmp/a\\u0000b, holds a NUL character");
        QTest::newRow("line break in a workspace, escaped")
            << QByteArray("{ agents: { entries: { ops: { workspace: '/tmp/a\\nb' } } } }")
            << ExitSuccess << QByteArray("/tmp/a\\nb");
    }

    void agentsConfig()
    {
        QFETCH(QByteArray, config);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, says);
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("other.json5")), config));
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("list.json5")), "[1, 2]"));
        const Run run = soulc({QStringLiteral("agents"),
                               QStringLiteral("--json"),
                               QStringLiteral("--config"),
                               QStringLiteral("other.json5")},
                              {},
                              {},
                              agentsEnvironment());
        QCOMPARE(run.exitCode, exitCode);
        const QByteArray said = exitCode == ExitSuccess ? run.out : run.err;
        QVERIFY2(said.contains(says), said.constData());
        QVERIFY2(!run.err.contains("Broken filename"), run.err.constData());
        if (exitCode == ExitSuccess) {
            // The table keeps each agent on one line, whatever its path holds.
            const Run text = soulc({QStringLiteral("agents"),
                                    QStringLiteral("--config"),
                                    QStringLiteral("other.json5")},
                                   {},
                                   {},
                                   agentsEnvironment());
            QCOMPARE(text.exitCode, ExitSuccess);
            QCOMPARE(text.err, QByteArray());
            if (says.contains("\\n"))
                QVERIFY2(text.out.contains(says + '\n'), text.out.constData());
        }
        if (exitCode != ExitSuccess) {
            QVERIFY(run.err.startsWith("soulc: "));
            QCOMPARE(run.out, QByteArray());
        }
    }

    void agentsMissingConfig()
    {
        const Run named = soulc({QStringLiteral("agents"), QStringLiteral("--config=none.json")},
                                {},
                                {},
                                agentsEnvironment());
        QCOMPARE(named.exitCode, ExitFailure);
        QVERIFY2(named.err.contains("none.json: there is no such config file"),
                 named.err.constData());
        // No config where OpenClaw looks: the single agent main.
        const Run none = soulc({QStringLiteral("agents")}, {}, {}, agentsEnvironment());
        QCOMPARE(none.exitCode, ExitSuccess);
        QVERIFY2(none.out.contains("(none: the single agent main)"), none.out.constData());
        QVERIFY2(none.out.contains("\nmain   yes      missing"), none.out.constData());
    }

    void statAll()
    {
        QVERIFY(!makePersona(QStringLiteral("team/work"),
                             {{QStringLiteral("SOUL.md"), "# Work\n"},
                              {QStringLiteral("USER.md"), "Dana\n"}})
                     .isEmpty());
        QVERIFY(!makePersona(QStringLiteral("team/coach"),
                             {{QStringLiteral("AGENTS.md"), "Be brief.\n"}})
                     .isEmpty());
        QVERIFY(!makePersona(QStringLiteral("team/notes"), {{QStringLiteral("notes.md"), "x\n"}})
                     .isEmpty());

        const Run json = soulc({QStringLiteral("stat"),
                                QStringLiteral("--all"),
                                QStringLiteral("--json"),
                                QStringLiteral("team")});
        QCOMPARE(json.err, QByteArray());
        QCOMPARE(json.exitCode, ExitSuccess);
        const QJsonArray personas
            = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("personas")).toArray();
        QCOMPARE(personas.size(), 2);
        QCOMPARE(personas.at(0).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("coach"));
        const QJsonObject work = personas.at(1).toObject();
        QCOMPARE(work.value(QStringLiteral("name")).toString(), QStringLiteral("work"));
        QCOMPARE(work.value(QStringLiteral("slots")).toArray().size(), 2);
        const QString workDir = m_dir->filePath(QStringLiteral("team/work"));
        QCOMPARE(work.value(QStringLiteral("soul")).toObject().value(QStringLiteral("bytes")).toInt(),
                 composeDirectory(workDir).soul.size());

        const Run text = soulc(
            {QStringLiteral("stat"), QStringLiteral("--all"), QStringLiteral("team")});
        QCOMPARE(text.exitCode, ExitSuccess);
        QVERIFY2(text.out.contains("\ncoach    1 of 7"), text.out.constData());
        QVERIFY2(text.out.contains("\nwork     2 of 7"), text.out.constData());
        QVERIFY(!text.out.contains("notes"));

        const Run rev = soulc({QStringLiteral("stat"),
                               QStringLiteral("--all"),
                               QStringLiteral("--rev"),
                               QStringLiteral("HEAD"),
                               QStringLiteral("team")});
        QCOMPARE(rev.exitCode, ExitFailure);
        QVERIFY2(rev.err.contains("'--all' takes neither"), rev.err.constData());
        const Run notFolder = soulc(
            {QStringLiteral("stat"), QStringLiteral("--all"), QStringLiteral("nope")});
        QCOMPARE(notFolder.exitCode, ExitFailure);
        QVERIFY2(notFolder.err.contains("nope is not a folder"), notFolder.err.constData());
    }
};

QTEST_GUILESS_MAIN(TstSoulc)

#include "tst_soulc.moc"
