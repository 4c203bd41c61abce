#include "agents/json5.h"
#include "agents/openclawconfig.h"
#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "agents/personafolders.h"
#include "testfiles.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <QElapsedTimer>

#include <cmath>
#include <limits>
#include <map>
#include <sys/stat.h>

using namespace soul;
using namespace soul::test;

namespace {

using Texts = std::map<QString, QString>;

// A strict JSON text as the value it means.
QJsonValue jsonValue(const QString &text)
{
    const QJsonDocument document = QJsonDocument::fromJson(
        (QStringLiteral("[") + text + QStringLiteral("]")).toUtf8());
    return document.array().at(0);
}

// `text` with every "@" replaced by `root`.
QString rooted(QString text, const QString &root)
{
    return text.replace(QLatin1Char('@'), root);
}

} // namespace

class TestAgents : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void json5Values_data();
    void json5Values();
    void json5Numbers();
    void json5Errors_data();
    void json5Errors();
    void json5KeyOrder();
    void javaScriptOrder();

    void roster_data();
    void roster();
    void budgets();
    void missingConfigFile();
    void configThatNeverEnds_data();
    void configThatNeverEnds();
    void includeFanOut();
    void manyAgentsTakeLinearTime();
    void personaFolders();
};

void TestAgents::json5Values_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("json"); // strict JSON of the value

    QTest::newRow("plain JSON") << R"({"a": [1, 2.5, "x", true, null]})"
                                << R"({"a": [1, 2.5, "x", true, null]})";
    QTest::newRow("line comment") << "{ // a note\n a: 1 }"
                                  << R"({"a": 1})";
    QTest::newRow("block comment") << "/* head */ { a: /* inside */ 1 } /* tail */"
                                   << R"({"a": 1})";
    QTest::newRow("trailing comma in object") << "{ a: 1, b: 2, }"
                                              << R"({"a": 1, "b": 2})";
    QTest::newRow("trailing comma in array") << "[1, 2,]"
                                             << "[1, 2]";
    QTest::newRow("unquoted keys") << "{ $include: 1, _x9: 2, ünï: 3 }"
                                   << R"({"$include": 1, "_x9": 2, "ünï": 3})";
    QTest::newRow("escaped key") << R"({ \u0061b: 1 })"
                                 << R"({"ab": 1})";
    QTest::newRow("single-quoted string") << R"('it"s')"
                                          << R"("it\"s")";
    QTest::newRow("escaped single quote") << R"('it\'s')"
                                          << R"("it's")";
    QTest::newRow("single-quoted key") << R"({ 'a b': 1 })"
                                       << R"({"a b": 1})";
    QTest::newRow("line continuation LF") << "'one\\\ntwo'"
                                          << R"("onetwo")";
    QTest::newRow("line continuation CRLF") << "'one\\\r\ntwo'"
                                            << R"("onetwo")";
    QTest::newRow("escapes") << R"("\b\f\n\r\t\v\0\x41\u00e9\/\q")"
                             << R"("\b\f\n\r\t\u000b\u0000Aé/q")";
    QTest::newRow("escaped surrogate pair") << R"("\ud83d\ude42")"
                                            << R"("🙂")";
    QTest::newRow("hex number") << "0x1F"
                                << "31";
    QTest::newRow("negative hex") << "-0XfF"
                                  << "-255";
    QTest::newRow("leading point") << ".5"
                                   << "0.5";
    QTest::newRow("trailing point") << "5."
                                    << "5";
    QTest::newRow("explicit plus") << "+1e3"
                                   << "1000";
    QTest::newRow("exponent with sign") << "2E-2"
                                        << "0.02";
    QTest::newRow("repeated key keeps the last value") << "{a: 1, a: 2}"
                                                       << R"({"a": 2})";
    QTest::newRow("byte order mark and odd spaces") << "\xef\xbb\xbf\u00a0\u2003[\u2028 1 ]"
                                                    << "[1]";
    QTest::newRow("empty containers") << "{ a: {}, b: [ ] }"
                                      << R"({"a": {}, "b": []})";
    QTest::newRow("U+2028 inside a string") << "'a\u2028b'"
                                            << "\"a\u2028b\"";
}

void TestAgents::json5Values()
{
    QFETCH(QString, text);
    QFETCH(QString, json);
    Json5Error error;
    const std::optional<Json5Document> document = parseJson5(text, QString(), &error);
    QVERIFY2(document, qPrintable(error.message));
    QCOMPARE(document->value, jsonValue(json));
}

void TestAgents::json5Numbers()
{
    const auto number = [](const char *text) {
        const std::optional<Json5Document> document = parseJson5(QString::fromUtf8(text));
        return document ? document->value.toDouble() : -12345.0;
    };
    QCOMPARE(number("Infinity"), std::numeric_limits<double>::infinity());
    QCOMPARE(number("+Infinity"), std::numeric_limits<double>::infinity());
    QCOMPARE(number("-Infinity"), -std::numeric_limits<double>::infinity());
    QVERIFY(std::isnan(number("NaN")));
    QVERIFY(std::isnan(number("-NaN")));
    QCOMPARE(number("-0"), 0.0);
}

void TestAgents::json5Errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");

    QTest::newRow("empty") << "" << 1 << 1;
    QTest::newRow("only a comment") << "// nothing\n" << 2 << 1;
    QTest::newRow("unclosed object") << "{\n  a: 1,\n" << 3 << 1;
    QTest::newRow("missing colon") << "{\n  a 1\n}" << 2 << 5;
    QTest::newRow("two commas") << "[1,,2]" << 1 << 4;
    QTest::newRow("leading zero") << "{ n: 01 }" << 1 << 7;
    QTest::newRow("number as key") << "{ 1: true }" << 1 << 3;
    QTest::newRow("line break in string") << "{ s: 'one\ntwo' }" << 1 << 10;
    QTest::newRow("unclosed block comment") << "{ /* never\n closed" << 1 << 3;
    QTest::newRow("single slash") << "{ / }" << 1 << 3;
    QTest::newRow("text after the value") << "{} x" << 1 << 4;
    QTest::newRow("bad escape digit") << R"("\1")" << 1 << 3;
    QTest::newRow("short hex escape") << R"("\x4")" << 1 << 5;
    QTest::newRow("word run on") << "[truex]" << 1 << 6;
    QTest::newRow("hex without digits") << "0x" << 1 << 3;
    QTest::newRow("lone point") << "[.]" << 1 << 3;
    QTest::newRow("exponent without digits") << "1e+" << 1 << 4;
    QTest::newRow("undefined is no value") << "{ a: undefined }" << 1 << 6;
    QTest::newRow("error after CR LF lines") << "{\r\n a: 1,\r\n b: ?\r\n}" << 3 << 5;
}

void TestAgents::json5Errors()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    Json5Error error;
    QVERIFY(!parseJson5(text, QStringLiteral("cfg.json5"), &error));
    QCOMPARE(error.place.file, QStringLiteral("cfg.json5"));
    QVERIFY(!error.message.isEmpty());
    QCOMPARE(error.place.line, line);
    QCOMPARE(error.place.column, column);
}

void TestAgents::json5KeyOrder()
{
    const std::optional<Json5Document> document = parseJson5(
        u"{\n z: 1,\n a: { y: 1, b: 2 },\n z: 3,\n m: [ { q: 1, p: 2 } ] }");
    QVERIFY(document);
    QCOMPARE(document->keyOrder.value(QString()),
             (QStringList{QStringLiteral("z"), QStringLiteral("a"), QStringLiteral("m")}));
    QCOMPARE(document->keyOrder.value(QStringLiteral("/a")),
             (QStringList{QStringLiteral("y"), QStringLiteral("b")}));
    QCOMPARE(document->keyOrder.value(QStringLiteral("/m/0")),
             (QStringList{QStringLiteral("q"), QStringLiteral("p")}));
    // A repeated key is placed where it was last written.
    QCOMPARE(document->places.value(QStringLiteral("/z")).line, 4);
    QCOMPARE(document->places.value(QStringLiteral("/a/b")).column, 13);
}

void TestAgents::javaScriptOrder()
{
    const QStringList written{QStringLiteral("work"),
                              QStringLiteral("10"),
                              QStringLiteral("007"),
                              QStringLiteral("2"),
                              QStringLiteral("main"),
                              QStringLiteral("4294967295"),
                              QStringLiteral("0")};
    QCOMPARE(javaScriptKeyOrder(written),
             (QStringList{QStringLiteral("0"),
                          QStringLiteral("2"),
                          QStringLiteral("10"),
                          QStringLiteral("work"),
                          QStringLiteral("007"),
                          QStringLiteral("main"),
                          QStringLiteral("4294967295")}));
}

void TestAgents::roster_data()
{
    // Files and environment values use "@" for the case's folder; HOME is
    // @/home and the working directory @/cwd unless a row says otherwise.
    // `agents` lists "id workspace [default]"; `error` is a piece of the
    // failure (then `line`, when not 0, must be named as "line N").
    QTest::addColumn<Texts>("files");
    QTest::addColumn<Texts>("env");
    QTest::addColumn<QStringList>("agents");
    QTest::addColumn<QString>("error");

    const QString config = QStringLiteral("home/.openclaw/openclaw.json");
    QTest::newRow("no config: the single agent main")
        << Texts{} << Texts{}
        << QStringList{QStringLiteral("main @/home/.openclaw/workspace default")} << QString();
    QTest::newRow("config without agents")
        << Texts{{config, QStringLiteral("{ gateway: {} }")}} << Texts{}
        << QStringList{QStringLiteral("main @/home/.openclaw/workspace default")} << QString();
    QTest::newRow("entries, explicit: nobody owns the default workspace")
        << Texts{{config,
                  QStringLiteral("{ agents: { ownership: 'explicit', entries: { work: {}, "
                                 "home: { workspace: '~/ws-home' }, main: {} } } }")}}
        << Texts{}
        << QStringList{QStringLiteral("work @/home/.openclaw/workspace-work"),
                       QStringLiteral("home @/home/ws-home"),
                       QStringLiteral("main @/home/.openclaw/workspace-main")}
        << QString();
    QTest::newRow("explicit with a system agent")
        << Texts{{config,
                  QStringLiteral("{ agents: { ownership: 'explicit', defaults: { systemAgent: { "
                                 "agentId: ' Coach ' } }, entries: { coach: {}, ops: {} } } }")}}
        << Texts{}
        << QStringList{QStringLiteral("coach @/home/.openclaw/workspace-coach default"),
                       QStringLiteral("ops @/home/.openclaw/workspace-ops")}
        << QString();
    QTest::newRow("legacy list with a default marker and a shared root")
        << Texts{{config,
                  QStringLiteral("{agents:{list:[{id:'a'},{id:'b',default:true}], "
                                 "defaults:{workspace:'~/wsroot'}}}")}}
        << Texts{}
        << QStringList{QStringLiteral("a @/home/wsroot/a"),
                       QStringLiteral("b @/home/wsroot default")}
        << QString();
    QTest::newRow("sole agent takes the default workspace")
        << Texts{{config, QStringLiteral("{ agents: { entries: { Coach: {} } } }")}} << Texts{}
        << QStringList{QStringLiteral("coach @/home/.openclaw/workspace default")} << QString();
    QTest::newRow("number-like ids in JavaScript's order")
        << Texts{{config,
                  QStringLiteral("{ agents: { ownership: 'explicit', entries: { work: {}, "
                                 "'10': {}, '2': {} } } }")}}
        << Texts{}
        << QStringList{QStringLiteral("2 @/home/.openclaw/workspace-2"),
                       QStringLiteral("10 @/home/.openclaw/workspace-10"),
                       QStringLiteral("work @/home/.openclaw/workspace-work")}
        << QString();
    QTest::newRow("state dir, relative workspace, blank workspace")
        << Texts{{QStringLiteral("state/openclaw.json"),
                  QStringLiteral("{ agents: { ownership: 'explicit', entries: { a: { workspace: "
                                 "'rel/a/' }, b: { workspace: '  ' } } } }")}}
        << Texts{{QStringLiteral("OPENCLAW_STATE_DIR"), QStringLiteral("@/state")}}
        << QStringList{QStringLiteral("a @/cwd/rel/a"), QStringLiteral("b @/state/workspace-b")}
        << QString();
    QTest::newRow("profile moves the default workspace")
        << Texts{} << Texts{{QStringLiteral("OPENCLAW_PROFILE"), QStringLiteral("work")}}
        << QStringList{QStringLiteral("main @/home/.openclaw-work/workspace default")} << QString();
    QTest::newRow("profile named default changes nothing")
        << Texts{} << Texts{{QStringLiteral("OPENCLAW_PROFILE"), QStringLiteral("Default")}}
        << QStringList{QStringLiteral("main @/home/.openclaw/workspace default")} << QString();
    QTest::newRow("state dir wins over profile")
        << Texts{}
        << Texts{{QStringLiteral("OPENCLAW_PROFILE"), QStringLiteral("work")},
                 {QStringLiteral("OPENCLAW_STATE_DIR"), QStringLiteral("~/st")}}
        << QStringList{QStringLiteral("main @/home/st/workspace default")} << QString();
    QTest::newRow("workspace dir wins over all")
        << Texts{}
        << Texts{{QStringLiteral("OPENCLAW_PROFILE"), QStringLiteral("work")},
                 {QStringLiteral("OPENCLAW_WORKSPACE_DIR"), QStringLiteral("mine")}}
        << QStringList{QStringLiteral("main @/cwd/mine default")} << QString();
    QTest::newRow("OPENCLAW_HOME with a tilde")
        << Texts{} << Texts{{QStringLiteral("OPENCLAW_HOME"), QStringLiteral("~/inner")}}
        << QStringList{QStringLiteral("main @/home/inner/.openclaw/workspace default")}
        << QString();
    QTest::newRow("legacy state folder: the sole agent still in ~/.openclaw/workspace")
        << Texts{{QStringLiteral("home/.clawdbot/clawdbot.json"),
                  QStringLiteral("{ agents: { ownership: 'explicit', entries: { a: {} } } }")}}
        << Texts{} << QStringList{QStringLiteral("a @/home/.openclaw/workspace")} << QString();
    QTest::newRow("legacy state folder: others' workspaces in it")
        << Texts{{QStringLiteral("home/.clawdbot/openclaw.json"),
                  QStringLiteral(
                      "{ agents: { ownership: 'explicit', entries: { a: {}, b: {} } } }")}}
        << Texts{}
        << QStringList{QStringLiteral("a @/home/.clawdbot/workspace-a"),
                       QStringLiteral("b @/home/.clawdbot/workspace-b")}
        << QString();
    QTest::newRow("config path")
        << Texts{{QStringLiteral("elsewhere/oc.json5"),
                  QStringLiteral("{ agents: { entries: { solo: { workspace: '~' } } } }")}}
        << Texts{{QStringLiteral("OPENCLAW_CONFIG_PATH"), QStringLiteral("@/elsewhere/oc.json5")}}
        << QStringList{QStringLiteral("solo @/home default")} << QString();
    QTest::newRow("include with siblings merged over it")
        << Texts{{config,
                  QStringLiteral(
                      "{ agents: { ownership: 'explicit', entries: { $include: "
                      "['./one.json5', 'parts/two.json5'], c: { workspace: '/c' } } } }")},
                 {QStringLiteral("home/.openclaw/one.json5"), QStringLiteral("{ a: {}, c: {} }")},
                 {QStringLiteral("home/.openclaw/parts/two.json5"),
                  QStringLiteral("{ $include: '../three.json5' }")},
                 {QStringLiteral("home/.openclaw/three.json5"), QStringLiteral("{ b: {} }")}}
        << Texts{}
        << QStringList{QStringLiteral("a @/home/.openclaw/workspace-a"),
                       QStringLiteral("c /c"),
                       QStringLiteral("b @/home/.openclaw/workspace-b")}
        << QString();
    QTest::newRow("variables")
        << Texts{{config,
                  QStringLiteral("{ agents: { ownership: 'explicit', entries: { a: { workspace: "
                                 "'${ROOT}/a' }, b: { workspace: '$${ROOT}/b' }, c: { workspace: "
                                 "'${UNSET}/c' }, d: { workspace: '${lower}/d' } } } }")}}
        << Texts{{QStringLiteral("ROOT"), QStringLiteral("@/var")}}
        << QStringList{QStringLiteral("a @/var/a"),
                       QStringLiteral("b @/cwd/${ROOT}/b"),
                       QStringLiteral("c @/cwd/${UNSET}/c"),
                       QStringLiteral("d @/cwd/${lower}/d")}
        << QString();
    QTest::newRow("empty entries: main")
        << Texts{{config, QStringLiteral("{ agents: { entries: {} } }")}} << Texts{}
        << QStringList{QStringLiteral("main @/home/.openclaw/workspace default")} << QString();

    // Refused, as OpenClaw refuses them.
    QTest::newRow("several agents, no owner")
        << Texts{{config, QStringLiteral("{\n  agents: {\n    entries: { a: {}, b: {} },\n  },\n}")}}
        << Texts{} << QStringList{} << QStringLiteral("openclaw.json line 2: a roster of several");
    QTest::newRow("invalid JSON5 with its line")
        << Texts{{config, QStringLiteral("{\n  agents: {\n    entries: { a: {} b: {} },\n}")}}
        << Texts{} << QStringList{} << QStringLiteral("openclaw.json: line 3, column 22");
    QTest::newRow("two default markers")
        << Texts{{config,
                  QStringLiteral("{ agents: { entries: { a: { default: true }, b: { default: "
                                 "true } } } }")}}
        << Texts{} << QStringList{} << QStringLiteral("at most one agent");
    QTest::newRow("same id twice")
        << Texts{{config,
                  QStringLiteral("{ agents: { ownership: 'explicit', entries: { work: {}, "
                                 "WORK: {} } } }")}}
        << Texts{} << QStringList{} << QStringLiteral("same agent id \"work\"");
    QTest::newRow("list id not canonical")
        << Texts{{config, QStringLiteral("{ agents: { list: [ { id: 'Work' } ] } }")}} << Texts{}
        << QStringList{} << QStringLiteral("cannot be moved to agents.entries");
    QTest::newRow("system agent not in the roster")
        << Texts{{config,
                  QStringLiteral("{ agents: { ownership: 'explicit', defaults: { systemAgent: { "
                                 "agentId: 'nobody' } }, entries: { a: {} } } }")}}
        << Texts{} << QStringList{} << QStringLiteral("agents.defaults.systemAgent.agentId");
    QTest::newRow("include outside the config's folder")
        << Texts{{config, QStringLiteral("{ $include: '../../outside.json5' }")},
                 {QStringLiteral("outside.json5"), QStringLiteral("{}")}}
        << Texts{} << QStringList{} << QStringLiteral("outside the config's folder");
    QTest::newRow("includes in a circle")
        << Texts{{config, QStringLiteral("{ $include: 'a.json5' }")},
                 {QStringLiteral("home/.openclaw/a.json5"),
                  QStringLiteral("{ $include: 'b.json5' }")},
                 {QStringLiteral("home/.openclaw/b.json5"),
                  QStringLiteral("{ $include: 'a.json5' }")}}
        << Texts{} << QStringList{} << QStringLiteral("in a circle");
    QTest::newRow("invalid included file names its line")
        << Texts{{config, QStringLiteral("{ $include: 'a.json5' }")},
                 {QStringLiteral("home/.openclaw/a.json5"), QStringLiteral("{\n\n  a: ,\n}")}}
        << Texts{} << QStringList{} << QStringLiteral("a.json5: line 3, column 6");
    QTest::newRow("env block sets a referenced variable: unsupported")
        << Texts{{config,
                  QStringLiteral("{ env: { vars: { ROOT: '/x' } }, agents: { entries: { a: { "
                                 "workspace: '${ROOT}/a' } } } }")}}
        << Texts{} << QStringList{} << QStringLiteral("unsupported");
    QTest::newRow("a .env beside a missing variable: unsupported")
        << Texts{{config,
                  QStringLiteral("{ agents: { entries: { a: { workspace: '${ROOT}/a' } } } }")},
                 {QStringLiteral("cwd/.env"), QStringLiteral("ROOT=/x\n")}}
        << Texts{} << QStringList{} << QStringLiteral("unsupported");
    QTest::newRow("profile that is no folder name")
        << Texts{} << Texts{{QStringLiteral("OPENCLAW_PROFILE"), QStringLiteral("bad name")}}
        << QStringList{} << QStringLiteral("OPENCLAW_PROFILE \"bad name\" is not a profile name");
    QTest::newRow("profile that is no folder name, where no agent needs it")
        << Texts{{config, QStringLiteral("{ agents: { entries: { a: { workspace: '/a' } } } }")}}
        << Texts{{QStringLiteral("OPENCLAW_PROFILE"), QStringLiteral("bad name")}}
        << QStringList{QStringLiteral("a /a default")} << QString();
    QTest::newRow("budget that is not a whole number")
        << Texts{{config,
                  QStringLiteral("{ agents: { entries: { a: { bootstrapMaxChars: 1.5 } } } }")}}
        << Texts{} << QStringList{} << QStringLiteral("whole number above 0");
    QTest::newRow("include of a file that holds no object, beside keys: the file is named")
        << Texts{{config, QStringLiteral("{ $include: 'list.json5', agents: {} }")},
                 {QStringLiteral("home/.openclaw/list.json5"), QStringLiteral("[1, 2]")}}
        << Texts{} << QStringList{}
        << QStringLiteral("$include names @/home/.openclaw/list.json5, which holds no object");
    // JavaScript's $ matches at the very end only: OpenClaw refuses "ops\n".
    QTest::newRow("entry key ending in a line break, escaped in the sentence")
        << Texts{{config, QStringLiteral("{ agents: { entries: { 'ops\\n': {} } } }")}} << Texts{}
        << QStringList{} << QStringLiteral("\"ops\\n\" is not a valid agent id");
    QTest::newRow("system agent id with a line break, escaped in the sentence")
        << Texts{{config,
                  QStringLiteral("{ agents: { ownership: 'explicit', defaults: { systemAgent: "
                                 "{ agentId: 'a\\nb' } }, entries: { ops: {} } } }")}}
        << Texts{} << QStringList{} << QStringLiteral("names the agent \"a\\nb\"");
    QTest::newRow("NUL in a workspace")
        << Texts{{config,
                  QStringLiteral("{ agents: { entries: { ops: { workspace: '/tmp/a\\u0000b' } } "
                                 "} }")}}
        << Texts{} << QStringList{}
        << QStringLiteral("the workspace of agent \"ops\", /tmp/a\\u0000b, holds a NUL");
}

void TestAgents::roster()
{
    QFETCH(Texts, files);
    QFETCH(Texts, env);
    QFETCH(QStringList, agents);
    QFETCH(QString, error);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString root = QDir(dir.path()).canonicalPath();
    QVERIFY(QDir(root).mkpath(QStringLiteral("home")));
    QVERIFY(QDir(root).mkpath(QStringLiteral("cwd")));
    for (const auto &[path, text] : files) {
        const QString full = QDir(root).filePath(path);
        QVERIFY(QDir().mkpath(QFileInfo(full).absolutePath()));
        QVERIFY(writeFile(full, text.toUtf8()));
    }
    OpenClawPaths paths;
    paths.environment.insert(QStringLiteral("HOME"), root + QStringLiteral("/home"));
    for (const auto &[name, value] : env)
        paths.environment.insert(name, rooted(value, root));
    paths.workingDirectory = root + QStringLiteral("/cwd");
    paths.accountHome = root + QStringLiteral("/account");

    const Result<OpenClawRoster> roster = readOpenClawRoster(paths);
    if (!error.isEmpty()) {
        QVERIFY2(!roster, "the config should have been refused");
        QVERIFY2(roster.error().contains(rooted(error, root)), qPrintable(roster.error()));
        // A sentence stays on its line, whatever the config holds.
        QVERIFY2(!roster.error().contains(QLatin1Char('\n')) && !roster.error().contains(QChar(0)),
                 qPrintable(roster.error()));
        return;
    }
    QVERIFY2(roster, qPrintable(roster.error()));
    QStringList got;
    for (const OpenClawAgent &agent : roster->agents) {
        got.append(agent.id + QLatin1Char(' ') + agent.workspace
                   + (agent.isDefault ? QStringLiteral(" default") : QString()));
    }
    QStringList expected;
    for (const QString &agent : agents)
        expected.append(rooted(agent, root));
    QCOMPARE(got, expected);
}

void TestAgents::budgets()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("oc.json5"));
    QVERIFY(
        writeFile(file,
                  "{ agents: { ownership: 'explicit',\n"
                  "  defaults: { bootstrapTotalMaxChars: 0x1D4C0 },\n"
                  "  entries: { own: { bootstrapMaxChars: 8000, bootstrapTotalMaxChars: 30000 },\n"
                  "             shared: {}, half: { bootstrapMaxChars: 12000 } } } }"));
    OpenClawPaths paths;
    paths.environment.insert(QStringLiteral("HOME"), dir.path());
    paths.workingDirectory = dir.path();
    const Result<OpenClawRoster> roster = readOpenClawRoster(paths, file);
    QVERIFY2(roster, qPrintable(roster.error()));
    QCOMPARE(roster->agents.size(), 3);
    const OpenClawAgent &own = roster->agents.at(0);
    QCOMPARE(own.settings.maxChars(), 8000);
    QCOMPARE(own.settings.totalMaxChars(), 30000);
    QCOMPARE(own.maxCharsSource, BudgetSource::Agent);
    QCOMPARE(own.totalMaxCharsSource, BudgetSource::Agent);
    const OpenClawAgent &shared = roster->agents.at(1);
    QCOMPARE(shared.settings.maxChars(), OpenClawSettings::DefaultMaxChars);
    QCOMPARE(shared.maxCharsSource, BudgetSource::OpenClaw);
    QCOMPARE(shared.settings.totalMaxChars(), 120000);
    QCOMPARE(shared.totalMaxCharsSource, BudgetSource::Defaults);
    const OpenClawAgent &half = roster->agents.at(2);
    QCOMPARE(half.settings.maxChars(), 12000);
    QCOMPARE(budgetSourceText(half.maxCharsSource, half.id), QStringLiteral("agents.entries.half"));
    QCOMPARE(budgetSourceText(half.totalMaxCharsSource, half.id), QStringLiteral("agents.defaults"));
    QCOMPARE(half.profile().id(), QStringLiteral("openclaw"));
    QCOMPARE(half.profile().totalBudget(), qint64(120000));
    QCOMPARE(half.profile().fileBudget(u"SOUL.md"), qint64(12000));
}

void TestAgents::missingConfigFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    OpenClawPaths paths;
    paths.environment.insert(QStringLiteral("HOME"), dir.path());
    paths.workingDirectory = dir.path();
    // Named by the caller, a missing file is an error...
    const Result<OpenClawRoster> named = readOpenClawRoster(paths, QStringLiteral("nope.json"));
    QVERIFY(!named);
    QVERIFY2(named.error().contains(dir.filePath(QStringLiteral("nope.json"))),
             qPrintable(named.error()));
    // ...but where OpenClaw looks, it means no config.
    paths.environment.insert(QStringLiteral("OPENCLAW_CONFIG_PATH"), QStringLiteral("nope.json"));
    const Result<OpenClawRoster> found = readOpenClawRoster(paths);
    QVERIFY2(found, qPrintable(found.error()));
    QVERIFY(!found->configExists);
    QCOMPARE(found->agents.size(), 1);
    QCOMPARE(found->defaultAgent()->id, QStringLiteral("main"));
}

void TestAgents::configThatNeverEnds_data()
{
    // `make` puts something at the path given; the config is read as
    // --config (`top`) or through an $include of the file at that path.
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("top");
    QTest::addColumn<QString>("error");

    for (const bool top : {true, false}) {
        const char *how = top ? "top file" : "included";
        QTest::addRow("FIFO, %s", how)
            << QStringLiteral("fifo") << top << QStringLiteral("is a FIFO, not a regular file");
        QTest::addRow("/dev/zero, %s", how)
            << QStringLiteral("zero") << top << QStringLiteral("is a character device");
        QTest::addRow("/dev/urandom, %s", how)
            << QStringLiteral("urandom") << top << QStringLiteral("is a character device");
        QTest::addRow("2 GiB sparse file, %s", how)
            << QStringLiteral("sparse") << top << QStringLiteral("is larger than");
        QTest::addRow("loop of symbolic links, %s", how)
            << QStringLiteral("loop") << top << QStringLiteral("is a loop of symbolic links");
    }
}

void TestAgents::configThatNeverEnds()
{
    QFETCH(QString, kind);
    QFETCH(bool, top);
    QFETCH(QString, error);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString root = QDir(dir.path()).canonicalPath();
    const bool device = kind == QLatin1String("zero") || kind == QLatin1String("urandom");
    const QString file = device ? QStringLiteral("/dev/") + kind
                                : QDir(root).filePath(QStringLiteral("odd.json"));
    if (kind == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(QFile::encodeName(file).constData(), 0600), 0);
    } else if (device) {
        // Named as it is: a link to it would lead outside the config's folder.
    } else if (kind == QLatin1String("sparse")) {
        QFile sparse(file);
        QVERIFY(sparse.open(QIODevice::WriteOnly));
        QVERIFY(sparse.resize(qint64(2) * 1024 * 1024 * 1024));
    } else {
        QVERIFY(QFile::link(QDir(root).filePath(QStringLiteral("other.json")), file));
        QVERIFY(QFile::link(file, QDir(root).filePath(QStringLiteral("other.json"))));
    }
    QString config = file;
    if (!top) {
        config = QDir(root).filePath(QStringLiteral("openclaw.json"));
        QVERIFY(writeFile(config, QStringLiteral("{ $include: '%1' }").arg(file).toUtf8()));
    }
    OpenClawPaths paths;
    paths.environment.insert(QStringLiteral("HOME"), root);
    paths.environment.insert(QStringLiteral("OPENCLAW_INCLUDE_ROOTS"), QStringLiteral("/dev"));
    paths.workingDirectory = root;
    // Returns at once: a FIFO is never opened, a device or a sparse file never read whole.
    const Result<OpenClawRoster> roster = readOpenClawRoster(paths, config);
    QVERIFY2(!roster, "the config should have been refused");
    QVERIFY2(roster.error().contains(file + QLatin1Char(' ') + error), qPrintable(roster.error()));
    if (!top)
        QVERIFY2(roster.error().startsWith(config), qPrintable(roster.error()));

    // Where OpenClaw looks for its config (OPENCLAW_CONFIG_PATH), the same,
    // except a loop, which OpenClaw takes for no file at all.
    paths.environment.insert(QStringLiteral("OPENCLAW_CONFIG_PATH"), config);
    const Result<OpenClawRoster> found = readOpenClawRoster(paths);
    if (kind == QLatin1String("loop") && top) {
        QVERIFY2(found, qPrintable(found.error()));
        QVERIFY(!found->configExists);
    } else {
        QVERIFY(!found);
        QCOMPARE(found.error(), roster.error());
    }
}

void TestAgents::includeFanOut()
{
    // Nine small files, each including the next eight times: 8^8 includes
    // within OpenClaw's depth of 10, hours of work without a cap on the total.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString root = QDir(dir.path()).canonicalPath();
    for (int i = 0; i < 8; ++i) {
        QStringList names;
        for (int k = 0; k < 8; ++k)
            names.append(QStringLiteral("'f%1.json'").arg(i + 1));
        QVERIFY(writeFile(QDir(root).filePath(QStringLiteral("f%1.json").arg(i)),
                          QStringLiteral("{ $include: [%1] }").arg(names.join(u',')).toUtf8()));
    }
    QVERIFY(writeFile(QDir(root).filePath(QStringLiteral("f8.json")), "{ a: 1 }"));
    OpenClawPaths paths;
    paths.environment.insert(QStringLiteral("HOME"), root);
    paths.workingDirectory = root;
    const QString top = QDir(root).filePath(QStringLiteral("f0.json"));
    const Result<OpenClawRoster> roster = readOpenClawRoster(paths, top);
    QVERIFY2(!roster, "the config should have been refused");
    QVERIFY2(roster.error().contains(top + QStringLiteral(" includes more than 1000 files in all")),
             qPrintable(roster.error()));

    // Below the cap, the same files are read as OpenClaw reads them.
    const QString small = QDir(root).filePath(QStringLiteral("f6.json"));
    const Result<OpenClawRoster> fine = readOpenClawRoster(paths, small);
    QVERIFY2(fine, qPrintable(fine.error()));
    QCOMPARE(fine->agents.size(), 1);
}

void TestAgents::manyAgentsTakeLinearTime()
{
    // agents.list and agents.entries with n agents: the time must grow with
    // n, not n^2 (QJsonObject insertions in written order, a list search per
    // agent). Four times the agents may take four times as long, and noise
    // from a busy machine is allowed up to ten; quadratic work takes sixteen.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    OpenClawPaths paths;
    paths.environment.insert(QStringLiteral("HOME"), dir.path());
    paths.workingDirectory = dir.path();
    const auto write = [&](const QString &name, int n, bool list) {
        QByteArray text = list ? "{ agents: { list: ["
                               : "{ agents: { ownership: 'explicit', entries: {";
        for (int i = 0; i < n; ++i) {
            // Not in sorted order, as a hand-written roster is not.
            const QByteArray id = "a" + QByteArray::number((qint64(i) * 7919) % n) + "x";
            text += list ? "{ id: '" + id + "'" + (i == 0 ? ", default: true" : "") + " },"
                         : id + ": {},";
        }
        text += list ? "] } }" : "} } }";
        const QString path = dir.filePath(name);
        return writeFile(path, text) ? path : QString();
    };
    const auto fastest = [&](const QString &path, int expected) {
        qint64 best = std::numeric_limits<qint64>::max();
        for (int run = 0; run < 3; ++run) {
            QElapsedTimer timer;
            timer.start();
            const Result<OpenClawRoster> roster = readOpenClawRoster(paths, path);
            const qint64 spent = timer.nsecsElapsed();
            if (!roster || roster->agents.size() != expected)
                return qint64(-1);
            best = std::min(best, spent);
        }
        return best;
    };
    for (const bool list : {true, false}) {
        const QString small = write(QStringLiteral("small.json"), 10000, list);
        const QString large = write(QStringLiteral("large.json"), 40000, list);
        QVERIFY(!small.isEmpty() && !large.isEmpty());
        const qint64 smallTime = fastest(small, 10000);
        const qint64 largeTime = fastest(large, 40000);
        QVERIFY(smallTime > 0 && largeTime > 0);
        QVERIFY2(largeTime < 10 * smallTime,
                 qPrintable(QStringLiteral("%1: 10,000 agents took %2 ms, 40,000 took %3 ms")
                                .arg(list ? QStringLiteral("agents.list")
                                          : QStringLiteral("agents.entries"))
                                .arg(smallTime / 1000000)
                                .arg(largeTime / 1000000)));
    }
}

void TestAgents::personaFolders()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QDir parent(dir.path());
    for (const char *name : {"coach", "work", "empty", ".hidden", "notes"})
        QVERIFY(parent.mkpath(QLatin1String(name)));
    QVERIFY(writeFile(parent.filePath(QStringLiteral("coach/SOUL.md")), "soul"));
    QVERIFY(writeFile(parent.filePath(QStringLiteral("coach/USER.md")), "user"));
    QVERIFY(writeFile(parent.filePath(QStringLiteral("work/AGENTS.md")), "agents"));
    QVERIFY(writeFile(parent.filePath(QStringLiteral(".hidden/SOUL.md")), "hidden"));
    QVERIFY(writeFile(parent.filePath(QStringLiteral("notes/soul.md")), "wrong case"));
    QVERIFY(parent.mkpath(QStringLiteral("empty/SOUL.md"))); // a folder, not a slot file
    QVERIFY(writeFile(parent.filePath(QStringLiteral("IDENTITY.md")), "a file, not a folder"));

    const Result<QList<PersonaFolder>> folders = listPersonaFolders(dir.path());
    QVERIFY2(folders, qPrintable(folders.error()));
    QCOMPARE(folders->size(), 2);
    QCOMPARE(folders->at(0).name, QStringLiteral("coach"));
    QCOMPARE(folders->at(0).slotFiles,
             (QStringList{QStringLiteral("SOUL.md"), QStringLiteral("USER.md")}));
    QCOMPARE(folders->at(1).name, QStringLiteral("work"));
    QCOMPARE(folders->at(1).path, QDir::cleanPath(parent.absoluteFilePath(QStringLiteral("work"))));

    const Result<QList<PersonaFolder>> missing = listPersonaFolders(
        parent.filePath(QStringLiteral("nothing")));
    QVERIFY(!missing);
    QVERIFY(missing.error().contains(QStringLiteral("nothing")));
}

QTEST_GUILESS_MAIN(TestAgents)

#include "tst_agents.moc"
