#include "runtime/openclaw/openclawskills.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace soul;

// The skills list against hand-written bytes: what OpenClaw 2026.9 prints
// for the same folders (.ci/skills-oracle compares generated ones).
class TestOpenClawSkills : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString &relative) const { return m_dir.filePath(relative); }

    void write(const QString &relative, const QByteArray &bytes)
    {
        const QString file = path(relative);
        QVERIFY(QDir().mkpath(QFileInfo(file).path()));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
    }

    SkillsInput input(const QJsonObject &config = {}) const
    {
        SkillsInput in;
        in.workspaceDir = path(QStringLiteral("ws"));
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), path(QStringLiteral("home")));
        env.insert(QStringLiteral("OPENCLAW_STATE_DIR"), path(QStringLiteral("state")));
        env.insert(QStringLiteral("OPENCLAW_BUNDLED_SKILLS_DIR"), path(QStringLiteral("bundled")));
        env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        in.paths.environment = env;
        in.paths.workingDirectory = m_dir.path();
        in.paths.accountHome = path(QStringLiteral("home"));
        if (!config.isEmpty()) {
            OpenClawConfig c;
            c.exists = true;
            c.root = config;
            in.config = c;
        }
        return in;
    }

    static QString header(const char *instruction)
    {
        return QStringLiteral("\n\nThe following skills provide specialized instructions for "
                              "specific tasks.\n")
               + QLatin1String(instruction)
               + QStringLiteral("\nWhen a skill file references a relative path, resolve it "
                                "against the skill directory (parent of SKILL.md / dirname of "
                                "the path) and use that absolute path in tool commands.\n\n"
                                "<available_skills>");
    }

    static const SkillItem *find(const SkillsList &list, const QString &name, const QString &source)
    {
        for (const SkillItem &item : list.skills) {
            if (item.name == name && item.source == source)
                return &item;
        }
        return nullptr;
    }

    static bool hasLint(const SkillItem &item, const char *code)
    {
        for (const Lint &lint : item.lints) {
            if (lint.code == QLatin1String(code))
                return true;
        }
        return false;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QDir(m_dir.path()).removeRecursively();
        QVERIFY(QDir().mkpath(m_dir.path()));
        QVERIFY(QDir().mkpath(path(QStringLiteral("ws"))));
    }

    void escapesXml()
    {
        write(QStringLiteral("ws/skills/amp/SKILL.md"),
              "---\nname: a&b\ndescription: \"x <y> \\\"z\\\" 'w'\"\n---\nbody\n");
        const SkillsList list = openClawSkills(input());
        const QString expected
            = header("Read a skill's file at its listed location when the task matches its "
                     "description.")
              + QStringLiteral("\n  <skill>\n    <name>a&amp;b</name>\n    <description>x "
                               "&lt;y&gt; &quot;z&quot; &apos;w&apos;</description>\n    "
                               "<location>")
              + path(QStringLiteral("ws/skills/amp/SKILL.md"))
              + QStringLiteral("</location>\n  </skill>\n</available_skills>");
        QCOMPARE(list.prompt, expected);
    }

    void crlfAndBom()
    {
        write(QStringLiteral("ws/skills/one/SKILL.md"),
              "\xEF\xBB\xBF---\r\nname: one\r\ndescription: |\r\n  two\r\n  lines\r\n---\r\n");
        const SkillsList list = openClawSkills(input());
        QVERIFY2(list.prompt.contains(QStringLiteral("<description>two\nlines</description>")),
                 qPrintable(list.prompt));
    }

    void colonInDescriptionIsRecovered()
    {
        write(QStringLiteral("ws/skills/c/SKILL.md"),
              "---\nname: c\ndescription: Use when: now\n---\n");
        const SkillsList list = openClawSkills(input());
        QVERIFY2(list.prompt.contains(QStringLiteral("<description>Use when: now</description>")),
                 qPrintable(list.prompt));
    }

    void brokenFrontmatterSkipsTheSkill()
    {
        write(QStringLiteral("ws/skills/open/SKILL.md"), "---\nname: open\ndescription: x\n");
        write(QStringLiteral("ws/skills/flow/SKILL.md"),
              "---\nname: flow\ndescription: x\ntags: [unclosed\n---\n");
        const SkillsList list = openClawSkills(input());
        QCOMPARE(list.prompt, QString());
        QCOMPARE(list.skills.size(), 2);
        for (const SkillItem &item : list.skills) {
            QVERIFY(!item.loaded);
            QVERIFY(hasLint(item, "skill-invalid"));
        }
        QVERIFY2(list.skills.at(0).problem.contains(QStringLiteral(":")),
                 qPrintable(list.skills.at(0).problem));
    }

    void laterSourceWinsAClash()
    {
        write(QStringLiteral("bundled/x/SKILL.md"), "---\nname: same\ndescription: bundled\n---\n");
        write(QStringLiteral("state/skills/x/SKILL.md"),
              "---\nname: same\ndescription: managed\n---\n");
        write(QStringLiteral("ws/skills/x/SKILL.md"), "---\nname: same\ndescription: mine\n---\n");
        const SkillsList list = openClawSkills(input());
        QVERIFY(list.prompt.contains(QStringLiteral("<description>mine</description>")));
        QVERIFY(!list.prompt.contains(QStringLiteral("bundled</description>")));
        const SkillItem *bundled = find(list,
                                        QStringLiteral("same"),
                                        QStringLiteral("openclaw-bundled"));
        QVERIFY(bundled);
        QVERIFY(!bundled->winner);
        QVERIFY(bundled->shadowedBy.startsWith(QStringLiteral("openclaw-managed:")));
        QVERIFY(hasLint(*bundled, "skill-shadowed"));
    }

    void ineligibleAndDisabled()
    {
        write(QStringLiteral("ws/skills/needs/SKILL.md"),
              "---\nname: needs\ndescription: d\nmetadata: {\"openclaw\": {\"requires\": "
              "{\"bins\": [\"no-such-command-zz\"]}}}\n---\n");
        write(QStringLiteral("ws/skills/off/SKILL.md"), "---\nname: off\ndescription: d\n---\n");
        write(QStringLiteral("ws/skills/on/SKILL.md"), "---\nname: on\ndescription: d\n---\n");
        QJsonObject entries{
            {QStringLiteral("off"), QJsonObject{{QStringLiteral("enabled"), false}}}};
        const SkillsList list = openClawSkills(input(QJsonObject{
            {QStringLiteral("skills"), QJsonObject{{QStringLiteral("entries"), entries}}}}));
        QCOMPARE(list.listed, 1);
        const SkillItem *needs = find(list,
                                      QStringLiteral("needs"),
                                      QStringLiteral("openclaw-workspace"));
        QVERIFY(needs && !needs->eligible);
        QVERIFY(needs->whyNot.contains(QStringLiteral("no-such-command-zz")));
        const SkillItem *off = find(list,
                                    QStringLiteral("off"),
                                    QStringLiteral("openclaw-workspace"));
        QVERIFY(off && !off->eligible && off->whyNot.contains(QStringLiteral("disabled")));
    }

    void agentAllowlist()
    {
        write(QStringLiteral("ws/skills/a/SKILL.md"), "---\nname: a\ndescription: d\n---\n");
        write(QStringLiteral("ws/skills/b/SKILL.md"), "---\nname: b\ndescription: d\n---\n");
        const QJsonObject agents{
            {QStringLiteral("list"),
             QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("ops")},
                                    {QStringLiteral("skills"), QJsonArray{QStringLiteral("b")}}}}}};
        SkillsInput in = input(QJsonObject{{QStringLiteral("agents"), agents}});
        in.agentId = QStringLiteral("OPS");
        const SkillsList list = openClawSkills(in);
        QCOMPARE(list.listed, 1);
        QVERIFY(list.prompt.contains(QStringLiteral("<name>b</name>")));
    }

    void budgetShortensThenDrops_data()
    {
        QTest::addColumn<int>("budget");
        QTest::addColumn<QString>("head");
        QTest::addColumn<int>("listed");
        QTest::newRow("shortened") << 1400
                                   << QStringLiteral("\u26A0\uFE0F Skills catalog using compact "
                                                     "format (descriptions shortened). Run "
                                                     "`openclaw skills check` to audit.\n")
                                   << 3;
        QTest::newRow("dropped") << 700
                                 << QStringLiteral("\u26A0\uFE0F Skills truncated: included 1 of "
                                                   "3 (compact format, descriptions shortened). "
                                                   "Run `openclaw skills check` to audit.\n")
                                 << 1;
    }

    void budgetShortensThenDrops()
    {
        QFETCH(int, budget);
        QFETCH(QString, head);
        QFETCH(int, listed);
        for (const char *name : {"a", "b", "c"})
            write(QStringLiteral("ws/skills/%1/SKILL.md").arg(QLatin1String(name)),
                  QByteArray("---\nname: ") + name + "\ndescription: " + QByteArray(300, 'w')
                      + "\n---\n");
        const SkillsList list = openClawSkills(input(QJsonObject{
            {QStringLiteral("skills"),
             QJsonObject{{QStringLiteral("limits"),
                          QJsonObject{{QStringLiteral("maxSkillsPromptChars"), budget}}}}}}));
        QVERIFY2(list.prompt.startsWith(head), qPrintable(list.prompt.left(200)));
        QVERIFY(list.prompt.size() <= budget);
        QCOMPARE(list.listed, listed);
    }

    void refusesWhatIsNotAFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("fifo") << QStringLiteral("fifo");
        QTest::newRow("folder") << QStringLiteral("folder");
        QTest::newRow("big") << QStringLiteral("big");
    }

    void refusesWhatIsNotAFile()
    {
        QFETCH(QString, kind);
        const QString file = path(QStringLiteral("ws/skills/odd/SKILL.md"));
        QVERIFY(QDir().mkpath(QFileInfo(file).path()));
        if (kind == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(QFile::encodeName(file).constData(), 0600), 0);
        } else if (kind == QLatin1String("folder")) {
            QVERIFY(QDir().mkpath(file));
        } else {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.write("---\nname: odd\ndescription: d\n---\n") > 0);
            QVERIFY(f.resize(qint64(1) << 30)); // sparse: 1 GiB that is never read whole
        }
        const SkillsList list = openClawSkills(input());
        QCOMPARE(list.prompt, QString());
        QCOMPARE(list.skills.size(), 1);
        QVERIFY(!list.skills.at(0).loaded);
        QVERIFY2(list.skills.at(0).problem.contains(QStringLiteral("SKILL.md")),
                 qPrintable(list.skills.at(0).problem));
    }

    void invalidUtf8IsReplaced()
    {
        write(QStringLiteral("ws/skills/u/SKILL.md"),
              "---\nname: u\ndescription: a\xff\xfe b\n---\n");
        const SkillsList list = openClawSkills(input());
        QVERIFY(list.prompt.contains(QStringLiteral("a\uFFFD\uFFFD b")));
        QVERIFY(hasLint(list.skills.at(0), "skill-utf8"));
    }

    void symlinkOutOfTheWorkspaceIsRefused()
    {
        write(QStringLiteral("outside/evil/SKILL.md"), "---\nname: evil\ndescription: d\n---\n");
        QVERIFY(QDir().mkpath(path(QStringLiteral("ws/skills"))));
        QVERIFY(QFile::link(path(QStringLiteral("outside/evil")),
                            path(QStringLiteral("ws/skills/evil"))));
        const SkillsList list = openClawSkills(input());
        QCOMPARE(list.prompt, QString());
        bool said = false;
        for (const Lint &lint : list.lints)
            said = said || lint.code == QLatin1String("skill-escapes");
        QVERIFY(said);
    }

    void aliasBombIsRefused()
    {
        QByteArray bomb = "---\nname: bomb\ndescription: d\na: &a [x, x, x, x, x, x, x, x, x, x]\n";
        for (char c = 'b'; c <= 'j'; ++c)
            bomb += QByteArray(1, c) + ": &" + QByteArray(1, c) + " [*" + QByteArray(1, char(c - 1))
                    + ", *" + QByteArray(1, char(c - 1)) + ", *" + QByteArray(1, char(c - 1))
                    + ", *" + QByteArray(1, char(c - 1)) + ", *" + QByteArray(1, char(c - 1))
                    + ", *" + QByteArray(1, char(c - 1)) + ", *" + QByteArray(1, char(c - 1))
                    + ", *" + QByteArray(1, char(c - 1)) + ", *" + QByteArray(1, char(c - 1))
                    + "]\n";
        bomb += "---\n";
        write(QStringLiteral("ws/skills/bomb/SKILL.md"), bomb);
        const SkillsList list = openClawSkills(input());
        QCOMPARE(list.skills.size(), 1);
        QVERIFY(!list.skills.at(0).loaded);
        QVERIFY2(list.skills.at(0).problem.contains(QStringLiteral("alias")),
                 qPrintable(list.skills.at(0).problem));
    }

    void manySkillsAreBounded()
    {
        // More folders than OpenClaw lists: it reads 3,000 entries, keeps 300
        // candidates and loads 200.
        for (int i = 0; i < 3500; ++i)
            QVERIFY(QDir().mkpath(
                path(QStringLiteral("ws/skills/s%1").arg(i, 5, 10, QLatin1Char('0')))));
        for (int i = 0; i < 3500; i += 7)
            write(QStringLiteral("ws/skills/s%1/SKILL.md").arg(i, 5, 10, QLatin1Char('0')),
                  "---\ndescription: d\n---\n");
        const SkillsList list = openClawSkills(input());
        QVERIFY(list.skills.size() <= 200);
        bool cut = false;
        for (const Lint &lint : list.lints)
            cut = cut || lint.code == QLatin1String("skills-cut");
        QVERIFY(cut);
    }

    void bufferStandsForTheFile()
    {
        write(QStringLiteral("ws/skills/b/SKILL.md"), "---\nname: b\ndescription: saved\n---\n");
        SkillsInput in = input();
        in.buffers.insert(path(QStringLiteral("ws/skills/b/SKILL.md")),
                          "---\nname: b\ndescription: unsaved\n---\n");
        const SkillsList list = openClawSkills(in);
        QVERIFY(list.prompt.contains(QStringLiteral("<description>unsaved</description>")));
    }
};

QTEST_GUILESS_MAIN(TestOpenClawSkills)
#include "tst_openclawskills.moc"
