// `soulc skills`, `soulc compose --part skills|all` and the skills lints of
// `soulc check`, run as a separate process on workspaces made in a fresh
// temporary folder, against what the core API gives for the same folders.
#include "registry/runtimeregistry.h"
#include "runtime/runtimeskills.h"
#include "soulcrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>

using namespace soul;
using namespace soul::clitest;

namespace {

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

QByteArray skillText(const QByteArray &name, const QByteArray &description)
{
    return "---\nname: " + name + "\ndescription: " + description + "\n---\n\n# " + name
           + "\n\nSteps.\n";
}

QJsonObject jsonOf(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

// The skill of that name the list keeps (a plugin's skill is found twice:
// in the plugin, and through OpenClaw's link, which wins).
const QJsonObject *findSkill(const QJsonArray &skills, const QString &name, QJsonObject &out)
{
    for (const QJsonValue &value : skills) {
        const QJsonObject skill = value.toObject();
        if (skill.value(QStringLiteral("name")).toString() == name
            && skill.value(QStringLiteral("winner")).toBool()) {
            out = skill;
            return &out;
        }
    }
    return nullptr;
}

QByteArray readBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString sha256Of(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

bool writeJson(const QString &path, const QJsonObject &object)
{
    return writeBytes(path, QJsonDocument(object).toJson());
}

} // namespace

class TestSoulcSkills : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    int m_n = 0;

    QString path(const QString &relative) const { return m_tmp.filePath(relative); }

    // A fresh workspace with the seven files and two skills, and a config
    // that turns plugins off (the folder name, the config's path).
    QString workspace(QString *config, const QJsonObject &settings = {})
    {
        const QString ws = path(QStringLiteral("ws%1").arg(++m_n));
        for (const char *file : {"AGENTS.md",
                                 "SOUL.md",
                                 "TOOLS.md",
                                 "IDENTITY.md",
                                 "USER.md",
                                 "HEARTBEAT.md",
                                 "MEMORY.md"})
            writeBytes(QDir(ws).filePath(QLatin1String(file)),
                       QByteArray("# ") + file + "\n\nText of " + file + ".\n");
        writeBytes(ws + QStringLiteral("/skills/notes/SKILL.md"),
                   skillText("notes", "Take notes & keep them"));
        writeBytes(ws + QStringLiteral("/skills/trip/SKILL.md"),
                   skillText("trip", "Plan a trip <fast>"));
        QJsonObject root = settings;
        if (!root.contains(QStringLiteral("plugins")))
            root.insert(QStringLiteral("plugins"), QJsonObject{{QStringLiteral("enabled"), false}});
        *config = ws + QStringLiteral(".json");
        writeBytes(*config, QJsonDocument(root).toJson());
        return ws;
    }

    // What soulc sees of the world: a home, a state folder, no bundled
    // skills and a PATH without OpenClaw unless `binDir` is given.
    QProcessEnvironment environment(const QString &binDir = QString()) const
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), path(QStringLiteral("home")));
        env.insert(QStringLiteral("OPENCLAW_STATE_DIR"), path(QStringLiteral("state")));
        env.insert(QStringLiteral("OPENCLAW_BUNDLED_SKILLS_DIR"), path(QStringLiteral("none")));
        env.insert(QStringLiteral("PATH"),
                   (binDir.isEmpty() ? QString() : binDir + QLatin1Char(':'))
                       + QStringLiteral("/usr/bin:/bin"));
        return env;
    }

    Run soulc(const QStringList &arguments, const QString &binDir = QString()) const
    {
        SoulcCall call;
        call.arguments = arguments;
        call.environment = environment(binDir);
        call.workingDir = m_tmp.path();
        return runSoulc(call);
    }

    static QStringList skillsJson(const QString &config, const QString &ws)
    {
        return {QStringLiteral("skills"),
                QStringLiteral("--runtime"),
                QStringLiteral("openclaw"),
                QStringLiteral("--config"),
                config,
                QStringLiteral("--json"),
                ws};
    }

    // `soulc COMMAND --runtime openclaw --config CONFIG WS`.
    Run openclaw(const QString &command, const QString &config, const QString &ws) const
    {
        return soulc({command,
                      QStringLiteral("--runtime"),
                      QStringLiteral("openclaw"),
                      QStringLiteral("--config"),
                      config,
                      ws});
    }

    // The core API's list for the same folder, config and environment.
    SkillsList coreSkills(const QString &runtime,
                          const QString &dir,
                          const QString &config,
                          const QString &binDir = QString()) const
    {
        const Runtime *found = RuntimeRegistry::instance().find(runtime);
        if (!found)
            return {};
        SkillsRequest request;
        request.input.dir = dir;
        request.configFile = config;
        request.environment = environment(binDir);
        request.workingDirectory = m_tmp.path();
        request.accountHome = path(QStringLiteral("home"));
        const Result<SkillsList> list = found->skills(request);
        return list ? *list : SkillsList();
    }

    // An OpenClaw install as npm lays it out: the package with one bundled
    // plugin "demo" (on by default) bringing the skill demo-skill, and a
    // bin folder whose `openclaw` links into it. Returns the bin folder.
    QString install()
    {
        const QString root = path(QStringLiteral("install/node_modules/openclaw"));
        if (!writeBytes(root + QStringLiteral("/package.json"),
                        "{\"name\": \"openclaw\", \"version\": \"2026.9.6\"}")
            || !writeBytes(root + QStringLiteral("/openclaw.mjs"), "#!/usr/bin/env node\n")
            || !QFile::setPermissions(root + QStringLiteral("/openclaw.mjs"),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
            return {};
        const QString plugin = root + QStringLiteral("/dist/extensions/demo");
        writeBytes(plugin + QStringLiteral("/openclaw.plugin.json"),
                   "{\"id\": \"demo\", \"enabledByDefault\": true, \"skills\": [\"./skills\"]}");
        writeBytes(plugin + QStringLiteral("/skills/demo-skill/SKILL.md"),
                   skillText("demo-skill", "Demonstrate a plugin skill"));
        const QString off = root + QStringLiteral("/dist/extensions/quiet");
        writeBytes(off + QStringLiteral("/openclaw.plugin.json"),
                   "{\"id\": \"quiet\", \"skills\": [\"./skills\"]}");
        writeBytes(off + QStringLiteral("/skills/quiet-skill/SKILL.md"),
                   skillText("quiet-skill", "Off unless turned on"));
        const QString bin = path(QStringLiteral("install/node_modules/.bin"));
        QDir().mkpath(bin);
        QFile::link(QStringLiteral("../openclaw/openclaw.mjs"), bin + QStringLiteral("/openclaw"));
        return bin;
    }

    static QStringList openclawOptions(const QString &config)
    {
        return {QStringLiteral("--runtime"),
                QStringLiteral("openclaw"),
                QStringLiteral("--config"),
                config};
    }

    // `soulc export OPTIONS DIR OUT`'s exit status.
    int exportSoul(const QStringList &options, const QString &dir, const QString &out) const
    {
        const Run run = soulc(QStringList{QStringLiteral("export")} + options
                              + QStringList{dir, out});
        return run.exitCode;
    }

    // The options that name the runtime, and for OpenClaw its config, of a
    // fresh persona of that runtime with its skills (one described beyond
    // ASCII, so characters and bytes differ); the persona's folder.
    QString persona(const QString &runtime, QStringList *options)
    {
        if (runtime == QLatin1String("hermes")) {
            const QString home = path(QStringLiteral("hermes%1").arg(++m_n));
            writeBytes(home + QStringLiteral("/SOUL.md"), "I am Hermes's agent.\n");
            writeBytes(home + QStringLiteral("/skills/research/arxiv/SKILL.md"),
                       skillText("arxiv", "Search papers \xc3\xa9t\xc3\xa9 \xe2\x9c\x88"));
            writeBytes(home + QStringLiteral("/skills/notes/jot/SKILL.md"),
                       skillText("jot", "Jot things down"));
            *options = {QStringLiteral("--runtime"), QStringLiteral("hermes")};
            return home;
        }
        QString config;
        const QString ws = workspace(&config);
        writeBytes(ws + QStringLiteral("/skills/fly/SKILL.md"),
                   skillText("fly", "Book a flight \xe2\x9c\x88 \xc3\xa9t\xc3\xa9"));
        *options = openclawOptions(config);
        return ws;
    }

    // What `soulc compose --part skills` writes for the persona.
    QByteArray skillsBytes(const QStringList &options, const QString &dir) const
    {
        const Run run = soulc(
            QStringList{QStringLiteral("compose")} + options
            + QStringList{QStringLiteral("--part"), QStringLiteral("skills"), dir});
        return run.exitCode == ExitSuccess ? run.out : QByteArray();
    }

    // `soulc count --encoding ENCODING` of `bytes`, as soulc prints it.
    qint64 countedTokens(const QByteArray &bytes, const QString &encoding)
    {
        const QString file = path(QStringLiteral("count%1.txt").arg(++m_n));
        if (!writeBytes(file, bytes))
            return -1;
        const Run run = soulc(
            {QStringLiteral("count"), QStringLiteral("--encoding"), encoding, file});
        if (run.exitCode != ExitSuccess)
            return -1;
        bool ok = false;
        const qint64 n
            = run.out.trimmed().split('\t').constFirst().split(' ').constFirst().toLongLong(&ok);
        return ok ? n : -1;
    }

    // The names `soulc skills --json` lists in the prompt (kept or
    // shortened), in its order.
    QStringList listedNames(const QStringList &options, const QString &dir) const
    {
        const Run run = soulc(QStringList{QStringLiteral("skills"), QStringLiteral("--json")}
                              + options + QStringList{dir});
        QStringList names;
        for (const QJsonValue &value : jsonOf(run.out).value(QStringLiteral("skills")).toArray()) {
            const QJsonObject skill = value.toObject();
            const QString fate = skill.value(QStringLiteral("fate")).toString();
            if (fate == QLatin1String("kept") || fate == QLatin1String("shortened"))
                names.append(skill.value(QStringLiteral("name")).toString());
        }
        return names;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        QVERIFY(QDir().mkpath(path(QStringLiteral("home"))));
    }

    void skillsTextAndJson()
    {
        QString config;
        const QString ws = workspace(&config);
        const Run text = openclaw(QStringLiteral("skills"), config, ws);
        QCOMPARE(text.exitCode, ExitSuccess);
        QVERIFY2(text.out.contains("notes\topenclaw-workspace\t"), text.out.constData());
        QVERIFY2(text.out.contains("2 of 2 eligible skills listed"), text.out.constData());

        const Run json = soulc({QStringLiteral("skills"),
                                QStringLiteral("--runtime"),
                                QStringLiteral("openclaw"),
                                QStringLiteral("--config"),
                                config,
                                QStringLiteral("--json"),
                                ws});
        QCOMPARE(json.exitCode, ExitSuccess);
        const QJsonObject root = jsonOf(json.out);
        const QJsonArray skills = root.value(QStringLiteral("skills")).toArray();
        QCOMPARE(skills.size(), 2);
        QJsonObject trip;
        QVERIFY(findSkill(skills, QStringLiteral("trip"), trip));
        QCOMPARE(trip.value(QStringLiteral("fate")).toString(), QStringLiteral("kept"));
        QCOMPARE(trip.value(QStringLiteral("location")).toString(),
                 QDir(ws).filePath(QStringLiteral("skills/trip/SKILL.md")));
        const SkillsList core = coreSkills(QStringLiteral("openclaw"), ws, config);
        QCOMPARE(root.value(QStringLiteral("totals"))
                     .toObject()
                     .value(QStringLiteral("chars"))
                     .toInt(),
                 int(core.prompt.size()));
    }

    void skillsExitStatus_data()
    {
        QTest::addColumn<QByteArray>("skill"); // written as skills/extra/SKILL.md; empty: none
        QTest::addColumn<bool>("badConfig");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("clean") << QByteArray() << false << ExitSuccess << QByteArray("eligible");
        QTest::newRow("no description") << QByteArray("---\nname: extra\n---\n") << false
                                        << ExitProblems << QByteArray("has no description");
        QTest::newRow("unterminated frontmatter")
            << QByteArray("---\nname: extra\ndescription: x\n") << false << ExitProblems
            << QByteArray("skill-invalid");
        QTest::newRow("bad config") << QByteArray() << true << ExitFailure << QByteArray();
    }

    void skillsExitStatus()
    {
        QFETCH(QByteArray, skill);
        QFETCH(bool, badConfig);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, says);
        QString config;
        const QString ws = workspace(&config);
        if (!skill.isEmpty())
            QVERIFY(writeBytes(ws + QStringLiteral("/skills/extra/SKILL.md"), skill));
        if (badConfig)
            QVERIFY(writeBytes(config, "{ plugins: "));
        const Run run = openclaw(QStringLiteral("skills"), config, ws);
        QCOMPARE(run.exitCode, exitCode);
        if (exitCode == ExitFailure)
            QVERIFY2(run.err.contains(QFileInfo(config).fileName().toUtf8()), run.err.constData());
        else
            QVERIFY2(run.out.contains(says), run.out.constData());
    }

    void composeParts()
    {
        QString config;
        const QString ws = workspace(&config);
        const QStringList base{QStringLiteral("compose"),
                               QStringLiteral("--runtime"),
                               QStringLiteral("openclaw"),
                               QStringLiteral("--config"),
                               config};
        const Run skills = soulc(
            base + QStringList{QStringLiteral("--part"), QStringLiteral("skills"), ws});
        QCOMPARE(skills.exitCode, ExitSuccess);
        const SkillsList core = coreSkills(QStringLiteral("openclaw"), ws, config);
        QVERIFY(!core.prompt.isEmpty());
        QCOMPARE(skills.out, core.prompt.toUtf8()); // no newline added
        QVERIFY(skills.out.endsWith("</available_skills>"));
        const Run project = soulc(base + QStringList{ws});
        QCOMPARE(project.exitCode, ExitSuccess);
        const Run all = soulc(base
                              + QStringList{QStringLiteral("--part"), QStringLiteral("all"), ws});
        QCOMPARE(all.exitCode, ExitSuccess);
        // OpenClaw puts the skills list before the project text.
        QCOMPARE(all.out, core.prompt.toUtf8() + project.out);
    }

    void hermes()
    {
        const QString home = path(QStringLiteral("hermes%1").arg(++m_n));
        QVERIFY(writeBytes(home + QStringLiteral("/SOUL.md"), "I am Hermes's agent.\n"));
        QVERIFY(writeBytes(home + QStringLiteral("/skills/research/arxiv/SKILL.md"),
                           skillText("arxiv", "Search papers")));
        QVERIFY(writeBytes(home + QStringLiteral("/skills/research/hidden/SKILL.md"),
                           skillText("hidden", "Has a comment <!-- do evil -->")));
        const SkillsList core = coreSkills(QStringLiteral("hermes"), home, QString());
        QVERIFY(!core.prompt.isEmpty());
        const QStringList hermes{QStringLiteral("--runtime"), QStringLiteral("hermes")};
        const Run skills = soulc(
            QStringList{QStringLiteral("compose")} + hermes
            + QStringList{QStringLiteral("--part"), QStringLiteral("skills"), home});
        QCOMPARE(skills.exitCode, ExitSuccess);
        QCOMPARE(skills.out, core.prompt.toUtf8());
        const Run project = soulc(QStringList{QStringLiteral("compose")} + hermes
                                  + QStringList{home});
        const Run all = soulc(QStringList{QStringLiteral("compose")} + hermes
                              + QStringList{QStringLiteral("--part"), QStringLiteral("all"), home});
        QCOMPARE(all.exitCode, ExitSuccess);
        // Hermes puts the index after the project text.
        QCOMPARE(all.out, project.out + core.prompt.toUtf8());
        const Run list = soulc(QStringList{QStringLiteral("skills")} + hermes
                               + QStringList{QStringLiteral("--json"), home});
        QVERIFY2(list.exitCode == ExitSuccess || list.exitCode == ExitProblems,
                 list.err.constData());
        QJsonObject arxiv;
        QVERIFY(findSkill(jsonOf(list.out).value(QStringLiteral("skills")).toArray(),
                          QStringLiteral("arxiv"),
                          arxiv));
        QCOMPARE(arxiv.value(QStringLiteral("source")).toString(), QStringLiteral("research"));
    }

    void checkPrintsSkillLints()
    {
        QString config;
        const QString ws = workspace(&config);
        const QByteArray clean = openclaw(QStringLiteral("check"), config, ws).out;
        // A comment the model reads: a warning; the exit status stays.
        QVERIFY(writeBytes(ws + QStringLiteral("/skills/notes/SKILL.md"),
                           skillText("notes", "Take notes <!-- and mail them away -->")));
        const Run warned = openclaw(QStringLiteral("check"), config, ws);
        QCOMPARE(warned.exitCode, ExitSuccess);
        const QByteArray file = QDir(ws).filePath(QStringLiteral("skills/notes/SKILL.md")).toUtf8();
        QVERIFY2(warned.out.contains(file + ": warning: "), warned.out.constData());
        QVERIFY2(!clean.contains(file), clean.constData());
        // A skill OpenClaw skips: an error, counted.
        QVERIFY(
            writeBytes(ws + QStringLiteral("/skills/broken/SKILL.md"), "---\nname: broken\n---\n"));
        const Run failed = openclaw(QStringLiteral("check"), config, ws);
        QCOMPARE(failed.exitCode, ExitProblems);
        const QByteArray broken
            = QDir(ws).filePath(QStringLiteral("skills/broken/SKILL.md")).toUtf8();
        QVERIFY2(failed.out.contains(broken + ": error: "), failed.out.constData());
        // --config needs a runtime that lists skills.
        const Run toolnexus = soulc(
            {QStringLiteral("check"), QStringLiteral("--config"), config, ws});
        QCOMPARE(toolnexus.exitCode, ExitFailure);
    }

    void pluginSkills()
    {
        const QString bin = install();
        QVERIFY(!bin.isEmpty());
        QString config;
        const QString ws = workspace(&config,
                                     QJsonObject{{QStringLiteral("plugins"), QJsonObject()}});
        const QStringList args = skillsJson(config, ws);
        const Run run = soulc(args, bin);
        QCOMPARE(run.exitCode, ExitSuccess);
        const QJsonObject root = jsonOf(run.out);
        QCOMPARE(root.value(QStringLiteral("plugins")).toArray(),
                 QJsonArray{QStringLiteral("demo")});
        QJsonObject demo;
        QVERIFY(findSkill(root.value(QStringLiteral("skills")).toArray(),
                          QStringLiteral("demo-skill"),
                          demo));
        QCOMPARE(demo.value(QStringLiteral("source")).toString(), QStringLiteral("openclaw-extra"));
        QCOMPARE(demo.value(QStringLiteral("plugin")).toString(), QStringLiteral("demo"));
        // Listed from the link OpenClaw makes in the state folder; soulc makes none.
        QCOMPARE(demo.value(QStringLiteral("location")).toString(),
                 path(QStringLiteral("state/plugin-skills/demo-skill/SKILL.md")));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("state/plugin-skills"))));
        QJsonObject quiet;
        QVERIFY(!findSkill(root.value(QStringLiteral("skills")).toArray(),
                           QStringLiteral("quiet-skill"),
                           quiet));
        const SkillsList core = coreSkills(QStringLiteral("openclaw"), ws, config, bin);
        QVERIFY(core.prompt.contains(QStringLiteral("<name>demo-skill</name>")));

        // Turned off by its entry, and a plugin turned on by its.
        QVERIFY(writeBytes(config,
                           "{\"plugins\": {\"entries\": {\"demo\": {\"enabled\": false}, "
                           "\"Quiet\": {\"enabled\": true}}}}"));
        const QJsonObject swapped = jsonOf(soulc(args, bin).out);
        QCOMPARE(swapped.value(QStringLiteral("plugins")).toArray(),
                 QJsonArray{QStringLiteral("quiet")});

        // No install: the plugins' skills are unknown, and soulc says so.
        QVERIFY(writeBytes(config, "{}"));
        const Run unknown = soulc(args.mid(0, 5) + QStringList{ws});
        QCOMPARE(unknown.exitCode, ExitSuccess);
        QVERIFY2(unknown.out.contains("plugin-skills-unknown"), unknown.out.constData());
        QVERIFY2(unknown.out.contains("unknown and not shown"), unknown.out.constData());
        QVERIFY(!unknown.out.contains("demo-skill"));
        // soulc check speaks of the persona, not of this machine's install.
        const Run checked = openclaw(QStringLiteral("check"), config, ws);
        QVERIFY2(checked.exitCode != -1 && !checked.out.contains("unknown and not shown"),
                 checked.out.constData());
    }

    void fifoSkillFile()
    {
        QString config;
        const QString ws = workspace(&config);
        QVERIFY(QDir().mkpath(ws + QStringLiteral("/skills/pipe")));
        const QString fifo = ws + QStringLiteral("/skills/pipe/SKILL.md");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        SoulcCall call;
        call.arguments = QStringList{QStringLiteral("skills"),
                                     QStringLiteral("--runtime"),
                                     QStringLiteral("openclaw"),
                                     QStringLiteral("--config"),
                                     config,
                                     ws};
        call.environment = environment();
        call.deadlineMs = 30000; // a FIFO nobody writes would block a reader for ever
        const Run run = runSoulc(call);
        QCOMPARE(run.exitCode, ExitProblems);
        QVERIFY2(run.out.contains(fifo.toUtf8()), run.out.constData());
        QVERIFY2(run.out.contains("skill-invalid"), run.out.constData());
    }

    void statSkillsFigures_data()
    {
        QTest::addColumn<QString>("runtime");
        QTest::addColumn<QString>("encoding"); // empty: the default, o200k_base
        QTest::newRow("openclaw") << QStringLiteral("openclaw") << QString();
        QTest::newRow("openclaw cl100k_base")
            << QStringLiteral("openclaw") << QStringLiteral("cl100k_base");
        QTest::newRow("hermes") << QStringLiteral("hermes") << QString();
        QTest::newRow("hermes cl100k_base")
            << QStringLiteral("hermes") << QStringLiteral("cl100k_base");
    }

    // soulc stat's skills line and "skills" object give the figures of
    // exactly what compose --part skills writes.
    void statSkillsFigures()
    {
        QFETCH(QString, runtime);
        QFETCH(QString, encoding);
        QStringList options;
        const QString dir = persona(runtime, &options);
        const QByteArray bytes = skillsBytes(options, dir);
        QVERIFY(!bytes.isEmpty());
        const QString named = encoding.isEmpty() ? QStringLiteral("o200k_base") : encoding;
        const qint64 tokens = countedTokens(bytes, named);
        QVERIFY(tokens > 0);
        const qint64 chars = QString::fromUtf8(bytes).size();
        QVERIFY(chars < bytes.size()); // the test's text is not all ASCII
        const QStringList encodingOption = encoding.isEmpty()
                                               ? QStringList()
                                               : QStringList{QStringLiteral("--encoding"), encoding};
        const QStringList stat = QStringList{QStringLiteral("stat")} + options + encodingOption;

        const Run json = soulc(stat + QStringList{QStringLiteral("--json"), dir});
        QCOMPARE(json.exitCode, ExitSuccess);
        const QJsonObject root = jsonOf(json.out);
        const QJsonObject skills = root.value(QStringLiteral("skills")).toObject();
        QCOMPARE(skills.value(QStringLiteral("chars")).toInteger(), chars);
        QCOMPARE(skills.value(QStringLiteral("tokens")).toInteger(), tokens);
        QCOMPARE(skills.value(QStringLiteral("listed")).toInteger(),
                 qint64(listedNames(options, dir).size()));
        QCOMPARE(skills.value(QStringLiteral("sha256")).toString(), sha256Of(bytes));
        QVERIFY(root.size() > 1); // the runtime's own report is still there

        const Run text = soulc(stat + QStringList{dir});
        QCOMPARE(text.exitCode, ExitSuccess);
        const QByteArray line = QStringLiteral("skills list: %1 characters, %2 tokens (%3), %4 "
                                               "skills listed, SHA-256 %5\n")
                                    .arg(chars)
                                    .arg(tokens)
                                    .arg(named)
                                    .arg(listedNames(options, dir).size())
                                    .arg(sha256Of(bytes))
                                    .toUtf8();
        QVERIFY2(text.out.endsWith(line), text.out.constData());
    }

    // A config that cannot be read fails stat when --config names it.
    void statSkillsBadConfig()
    {
        QString config;
        const QString ws = workspace(&config);
        QVERIFY(writeBytes(config, "{ plugins: "));
        const Run run = soulc({QStringLiteral("stat"),
                               QStringLiteral("--runtime"),
                               QStringLiteral("openclaw"),
                               QStringLiteral("--config"),
                               config,
                               ws});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains(QFileInfo(config).fileName().toUtf8()), run.err.constData());
    }

    void exportRecordsSkills_data()
    {
        QTest::addColumn<QString>("runtime");
        QTest::newRow("openclaw") << QStringLiteral("openclaw");
        QTest::newRow("hermes") << QStringLiteral("hermes");
    }

    // The manifest (schema 3) holds the list's exact text, its SHA-256,
    // characters, tokens and listed names, as compose, count and skills
    // give them.
    void exportRecordsSkills()
    {
        QFETCH(QString, runtime);
        QStringList options;
        const QString dir = persona(runtime, &options);
        const QByteArray bytes = skillsBytes(options, dir);
        QVERIFY(!bytes.isEmpty());
        const QString out = path(QStringLiteral("export%1.soul.md").arg(++m_n));
        const Run exported = soulc(QStringList{QStringLiteral("export")} + options
                                   + QStringList{dir, out});
        QVERIFY2(exported.exitCode == ExitSuccess, exported.err.constData());
        const QJsonObject manifest = jsonOf(readBytes(out + QStringLiteral(".manifest.json")));
        QCOMPARE(manifest.value(QStringLiteral("schema")).toInt(), 3);
        const QJsonObject skills = manifest.value(QStringLiteral("skills")).toObject();
        QCOMPARE(skills.value(QStringLiteral("text")).toString().toUtf8(), bytes);
        QCOMPARE(skills.value(QStringLiteral("sha256")).toString(), sha256Of(bytes));
        QCOMPARE(skills.value(QStringLiteral("chars")).toInteger(),
                 qint64(QString::fromUtf8(bytes).size()));
        QCOMPARE(skills.value(QStringLiteral("tokens")).toInteger(),
                 countedTokens(bytes, QStringLiteral("o200k_base")));
        QStringList names;
        for (const QJsonValue &name : skills.value(QStringLiteral("names")).toArray())
            names.append(name.toString());
        QCOMPARE(names, listedNames(options, dir));
        QCOMPARE(names.size(), runtime == QLatin1String("hermes") ? 2 : 3);
        // The soul itself is still only the runtime's text.
        QCOMPARE(readBytes(out),
                 soulc(QStringList{QStringLiteral("compose")} + options + QStringList{dir}).out);
    }

    void diffSkills_data()
    {
        QTest::addColumn<QString>("change");  // what happens to the persona after the export
        QTest::addColumn<bool>("twoExports"); // B exported too, else the folder
        QTest::addColumn<QString>("status");  // empty: no skills comparison
        QTest::addColumn<int>("exitCode");
        QTest::newRow("unchanged")
            << QString() << false << QStringLiteral("unchanged") << ExitSuccess;
        QTest::newRow("changed") << QStringLiteral("describe") << false << QStringLiteral("changed")
                                 << ExitProblems;
        QTest::newRow("changed, two exports")
            << QStringLiteral("describe") << true << QStringLiteral("changed") << ExitProblems;
        QTest::newRow("added") << QStringLiteral("add") << false << QStringLiteral("added")
                               << ExitProblems;
        QTest::newRow("removed") << QStringLiteral("remove") << true << QStringLiteral("removed")
                                 << ExitProblems;
        QTest::newRow("schema 2 manifest")
            << QStringLiteral("schema2") << false << QString() << ExitSuccess;
    }

    void diffSkills()
    {
        QFETCH(QString, change);
        QFETCH(bool, twoExports);
        QFETCH(QString, status);
        QFETCH(int, exitCode);
        QString config;
        const QString ws = workspace(&config);
        const QString skillsDir = ws + QStringLiteral("/skills");
        const QStringList options = openclawOptions(config);
        // "add": exported without a skill, then they come.
        const QString aside = path(QStringLiteral("aside%1").arg(++m_n));
        if (change == QLatin1String("add"))
            QVERIFY(QDir().rename(skillsDir, aside));
        const QString a = path(QStringLiteral("a%1.soul.md").arg(++m_n));
        QCOMPARE(exportSoul(options, ws, a), ExitSuccess);
        if (change == QLatin1String("add"))
            QVERIFY(QDir().rename(aside, skillsDir));
        if (change == QLatin1String("remove"))
            QVERIFY(QDir(skillsDir).removeRecursively());
        if (change == QLatin1String("describe")) {
            QVERIFY(writeBytes(ws + QStringLiteral("/skills/trip/SKILL.md"),
                               skillText("trip", "Plan a journey")));
        }
        if (change == QLatin1String("schema2")) {
            // As export wrote it before schema 3: no skills list.
            QJsonObject manifest = jsonOf(readBytes(a + QStringLiteral(".manifest.json")));
            manifest.remove(QStringLiteral("skills"));
            manifest.insert(QStringLiteral("schema"), 2);
            QVERIFY(writeJson(a + QStringLiteral(".manifest.json"), manifest));
        }
        QString b = ws;
        if (twoExports) {
            b = path(QStringLiteral("b%1.soul.md").arg(++m_n));
            QCOMPARE(exportSoul(options, ws, b), ExitSuccess);
        }
        // Diff reads a folder by the runtime's own config: the same one here.
        SoulcCall call;
        call.environment = environment();
        call.environment->insert(QStringLiteral("OPENCLAW_CONFIG_PATH"), config);
        call.workingDir = m_tmp.path();
        call.arguments = {QStringLiteral("diff"), a, b};
        const Run text = runSoulc(call);
        QVERIFY2(text.exitCode == exitCode, text.out + text.err);
        call.arguments = {QStringLiteral("diff"), QStringLiteral("--json"), a, b};
        const Run json = runSoulc(call);
        QCOMPARE(json.exitCode, exitCode);
        const QJsonValue skills = jsonOf(json.out).value(QStringLiteral("skills"));
        if (status.isEmpty()) {
            QVERIFY2(!text.out.contains("skills list"), text.out.constData());
            QVERIFY(skills.isNull());
            return;
        }
        QVERIFY2(text.out.contains("skills list: " + status.toUtf8() + '\n'), text.out.constData());
        QCOMPARE(skills.toObject().value(QStringLiteral("status")).toString(), status);
        const QByteArray header = "--- " + a.toUtf8() + " (skills list)\n";
        if (status == QLatin1String("unchanged")) {
            QVERIFY2(!text.out.contains(header), text.out.constData());
            return;
        }
        // The list's lines follow the files' (SOUL.md did not change: none).
        QVERIFY2(text.out.startsWith(header), text.out.constData());
        QVERIFY2(text.out.contains("+++ " + b.toUtf8() + " (skills list)\n"), text.out.constData());
        if (change == QLatin1String("describe")) {
            QVERIFY2(text.out.contains("\n-") && text.out.contains("Plan a trip"),
                     text.out.constData());
            QVERIFY2(text.out.contains("\n+") && text.out.contains("Plan a journey"),
                     text.out.constData());
        }
    }

    // The list's lines come after the files' when both changed.
    void diffSkillsAfterFiles()
    {
        QString config;
        const QString ws = workspace(&config);
        const QStringList options = openclawOptions(config);
        const QString a = path(QStringLiteral("a%1.soul.md").arg(++m_n));
        QCOMPARE(exportSoul(options, ws, a), ExitSuccess);
        QVERIFY(writeBytes(ws + QStringLiteral("/SOUL.md"), "# SOUL.md\n\nAnother soul.\n"));
        QVERIFY(writeBytes(ws + QStringLiteral("/skills/trip/SKILL.md"),
                           skillText("trip", "Plan a journey")));
        const QString b = path(QStringLiteral("b%1.soul.md").arg(++m_n));
        QCOMPARE(exportSoul(options, ws, b), ExitSuccess);
        const Run run = soulc({QStringLiteral("diff"), a, b});
        QCOMPARE(run.exitCode, ExitProblems);
        const qsizetype files = run.out.indexOf("--- " + a.toUtf8() + '\n');
        const qsizetype list = run.out.indexOf("--- " + a.toUtf8() + " (skills list)\n");
        QVERIFY2(files == 0 && list > files, run.out.constData());
        QVERIFY2(run.out.indexOf("Another soul") < list, run.out.constData());
        QVERIFY2(run.out.indexOf("Plan a journey") > list, run.out.constData());
    }

    // A skills list changed in the manifest after export is refused.
    void diffRefusesTamperedSkills()
    {
        QString config;
        const QString ws = workspace(&config);
        const QString a = path(QStringLiteral("a%1.soul.md").arg(++m_n));
        QCOMPARE(exportSoul(openclawOptions(config), ws, a), ExitSuccess);
        const QString manifestPath = a + QStringLiteral(".manifest.json");
        QJsonObject manifest = jsonOf(readBytes(manifestPath));
        QJsonObject skills = manifest.value(QStringLiteral("skills")).toObject();
        skills.insert(QStringLiteral("text"),
                      skills.value(QStringLiteral("text")).toString() + QStringLiteral("x"));
        manifest.insert(QStringLiteral("skills"), skills);
        QVERIFY(writeJson(manifestPath, manifest));
        const Run run = soulc({QStringLiteral("diff"), a, a});
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains(manifestPath.toUtf8()) && run.err.contains("skills list"),
                 run.err.constData());
    }

    void manyFolders()
    {
        QString config;
        const QString ws = workspace(&config);
        constexpr int Folders = 3200;
        for (int i = 0; i < Folders; ++i) {
            QVERIFY(writeBytes(ws
                                   + QStringLiteral("/skills/s%1/SKILL.md")
                                         .arg(i, 4, 10, QLatin1Char('0')),
                               skillText("s" + QByteArray::number(i), "One of many")));
        }
        SoulcCall call;
        call.arguments = skillsJson(config, ws);
        call.environment = environment();
        call.deadlineMs = 60000;
        const Run run = runSoulc(call);
        QVERIFY2(run.exitCode == ExitSuccess || run.exitCode == ExitProblems, run.err.constData());
        const QJsonObject root = jsonOf(run.out);
        // OpenClaw looks at 300 folders of a root and loads 200 skills of a
        // source; so does soulc, whatever the folder holds.
        QVERIFY(root.value(QStringLiteral("skills")).toArray().size() <= 300);
        bool cut = false;
        for (const QJsonValue &lint : root.value(QStringLiteral("lints")).toArray())
            cut = cut
                  || lint.toObject().value(QStringLiteral("code")).toString()
                         == QLatin1String("skills-cut");
        QVERIFY(cut);
    }
};

QTEST_GUILESS_MAIN(TestSoulcSkills)
#include "tst_soulcskills.moc"
