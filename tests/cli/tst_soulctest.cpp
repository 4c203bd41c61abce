// soulc test, run as a separate process against the model server in this
// process (../chat/modelserver.h), which records each request. It answers
// while the test waits on the process's finished signal.

#include "soulcrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <memory>

#include <sys/stat.h>

#include "../chat/modelserver.h"

namespace {

using namespace soul::clitest;

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

QString soulcPath()
{
    return QStringLiteral(SOUL_BIN_DIR "/soulc");
}

// A soul with template braces, non-ASCII text and CRLF line ends, which must
// reach the server exactly as compose writes them.
const QByteArray SoulFile = "I am Ava, {{ not a template }} {% if x %} {# a note #} #}.\r\n"
                            "Je parle fran\xc3\xa7"
                            "ais et \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e.\r\n";
const QByteArray AgentsFile = "# Rules\n\nStay in {{character}}.\n";

QByteArray testsYaml(const QString &baseUrl, const QByteArray &extraTests = {})
{
    return "description: Ava keeps her voice\n"
           "providers:\n"
           "  - id: openai:chat:file-model\n"
           "    config: {apiBaseUrl: "
           + baseUrl.toUtf8()
           + ", temperature: 0, max_tokens: 64, seed: 1}\n"
             "tests:\n"
             "  - description: introduces herself\n"
             "    vars: {message: \"Who are you?\"}\n"
             "    assert:\n"
             "      - {type: icontains, value: ava}\n"
             "      - {type: not-icontains, value: as an AI language model}\n"
           + extraTests;
}

const QByteArray FailingTest = "  - description: answers in JSON\n"
                               "    vars:\n"
                               "      messages:\n"
                               "        - {role: user, content: Hi}\n"
                               "        - {role: assistant, content: Hello}\n"
                               "        - {role: user, content: JSON please}\n"
                               "    assert:\n"
                               "      - {type: is-json}\n"
                               "      - {type: starts-with, value: Dear}\n";

// A port that was just free: nothing listens there.
QString closedEndpoint()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost))
        return QString();
    const QString url = QStringLiteral("http://127.0.0.1:%1/v1").arg(probe.serverPort());
    probe.close();
    return url;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Cases for the export: a user turn with template braces, a conversation,
// weights, a threshold, a latency assert and a repeat.
const QByteArray ExportTests = "  - description: keeps her braces\n"
                               "    vars: {message: \"Say {{ x }} and {% y %} and {# z #}\"}\n"
                               "    repeat: 2\n"
                               "    threshold: 0.5\n"
                               "    assert:\n"
                               "      - {type: contains, value: Ava, weight: 3}\n"
                               "      - {type: latency, threshold: 9000}\n"
                               "      - {type: icontains-any, value: \"hi,hello\"}\n"
                               "  - description: a conversation\n"
                               "    vars:\n"
                               "      messages:\n"
                               "        - {role: user, content: Hi}\n"
                               "        - {role: assistant, content: \"Hello \\u00e9\"}\n"
                               "        - {role: user, content: JSON please}\n"
                               "    assert:\n"
                               "      - {type: is-json}\n";
} // namespace

class TstSoulcTest : public QObject
{
    Q_OBJECT

private:
    Run soulc(const QStringList &arguments, const QProcessEnvironment &extra = {}) const
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("OPENAI_API_KEY"));
        for (const QString &key : extra.keys())
            environment.insert(key, extra.value(key));
        // The model server answers while this waits: runSoulc runs the event loop.
        return runSoulc({arguments, m_dir->path(), {}, environment, 60000});
    }

    QString persona() const { return m_dir->filePath(QStringLiteral("ava")); }
    void writeTests(const QByteArray &yaml) const
    {
        QVERIFY(writeFile(m_dir->filePath(QStringLiteral("ava/persona-tests.yaml")), yaml));
    }
    QByteArray composed(const QStringList &runtime = {}) const
    {
        QProcess process;
        process.start(soulcPath(),
                      QStringList{QStringLiteral("compose")} + runtime + QStringList{persona()});
        process.waitForFinished(60000);
        return process.readAllStandardOutput();
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<soul::chattest::ModelServer> m_server;

private Q_SLOTS:
    void init();
    void cleanup();
    void systemMessageIsTheComposedSoul_data();
    void systemMessageIsTheComposedSoul();
    void exitStatusAndText();
    void jsonShape();
    void junitFile();
    void endpointAndModelOverride();
    void repeat();
    void invalidFileSendsNothing();
    void noEndpoint();
    void unreadablePersona();
    void connectionRefused();
    void httpError();
    void keyOnlyOverHttpsOrLoopback();
    void usageErrors_data();
    void usageErrors();
    void exportPromptfoo_data();
    void exportPromptfoo();
    void exportedPromptFunction();
    void exportNeverOverwritesWithoutForce();
    void exportWarnsOfTemplatedAsserts();
    void exportOfABadFile();
    void keyGoesOnlyWhereTheUserSaid_data();
    void keyGoesOnlyWhereTheUserSaid();
    void keyWithLineBreakIsRefused();
    void stalledServerEndsWithASentence_data();
    void stalledServerEndsWithASentence();
    void hostileTestsFileIsRefusedAtOnce();
    void junitNeverReplacesWhatWasNotAsked_data();
    void junitNeverReplacesWhatWasNotAsked();
    void exportNeverWritesThroughLinks();
};

void TstSoulcTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("ava")));
    QVERIFY(writeFile(m_dir->filePath(QStringLiteral("ava/SOUL.md")), SoulFile));
    QVERIFY(writeFile(m_dir->filePath(QStringLiteral("ava/AGENTS.md")), AgentsFile));
    m_server = std::make_unique<soul::chattest::ModelServer>();
    QVERIFY(m_server->listen());
    m_server->setAnswer([](const QJsonObject &) { return QStringLiteral("Hello, I am Ava."); });
    m_server->setUsage({321, 7, std::nullopt});
}

void TstSoulcTest::cleanup()
{
    m_server.reset();
    m_dir.reset();
}

void TstSoulcTest::systemMessageIsTheComposedSoul_data()
{
    QTest::addColumn<QStringList>("runtime");
    QTest::addColumn<bool>("keepsCrlf"); // Hermes reads its files with universal newlines
    QTest::newRow("toolnexus") << QStringList() << true;
    QTest::newRow("openclaw") << QStringList{QStringLiteral("--runtime"), QStringLiteral("openclaw")}
                              << true;
    QTest::newRow("hermes") << QStringList{QStringLiteral("--runtime"), QStringLiteral("hermes")}
                            << false;
}

void TstSoulcTest::systemMessageIsTheComposedSoul()
{
    QFETCH(QStringList, runtime);
    QFETCH(bool, keepsCrlf);
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const QByteArray soul = composed(runtime);
    QVERIFY(soul.contains("{{ not a template }}"));
    QVERIFY(soul.contains("\xe6\x97\xa5"));
    QCOMPARE(soul.contains("\r\n"), keepsCrlf);
    const Run run = soulc(QStringList{QStringLiteral("test")} + runtime + QStringList{persona()});
    QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
    QCOMPARE(m_server->requests().size(), 1);
    const QJsonObject body = m_server->requests().first().json();
    QVERIFY(m_server->requests().first().head.startsWith("POST /v1/chat/completions HTTP/1.1"));
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(0).toObject().value(QStringLiteral("role")).toString(),
             QStringLiteral("system"));
    QCOMPARE(messages.at(0).toObject().value(QStringLiteral("content")).toString().toUtf8(), soul);
    QCOMPARE(messages.at(1).toObject(),
             (QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                          {QStringLiteral("content"), QStringLiteral("Who are you?")}}));
    QCOMPARE(body.value(QStringLiteral("model")).toString(), QStringLiteral("file-model"));
    QCOMPARE(body.value(QStringLiteral("stream")).toBool(), true);
    QCOMPARE(body.value(QStringLiteral("stream_options")).toObject(),
             (QJsonObject{{QStringLiteral("include_usage"), true}}));
    QCOMPARE(body.value(QStringLiteral("temperature")).toDouble(), 0.0);
    QCOMPARE(body.value(QStringLiteral("max_tokens")).toInt(), 64);
    QCOMPARE(body.value(QStringLiteral("seed")).toInt(), 1);
    QVERIFY(!m_server->requests().first().head.toLower().contains("authorization"));
}

void TstSoulcTest::exitStatusAndText()
{
    writeTests(testsYaml(m_server->baseUrl().toString(), FailingTest));
    const Run failing = soulc({QStringLiteral("test"), persona()});
    QCOMPARE(failing.exitCode, ExitProblems);
    QVERIFY(failing.err.isEmpty());
    const QList<QByteArray> lines = failing.out.split('\n');
    QCOMPARE(lines.at(0), QByteArray("PASS  introduces herself"));
    QCOMPARE(lines.at(1), QByteArray("FAIL  answers in JSON"));
    QCOMPARE(lines.at(2),
             QByteArray("      The output is not valid JSON. is-json wants it to be valid JSON."));
    QCOMPARE(lines.at(3),
             QByteArray("      The output does not start with 'Dear'. starts-with wants it to "
                        "start with 'Dear'."));
    QVERIFY2(lines.at(4).startsWith("1 of 2 tests passed, file-model at http://127.0.0.1:"),
             lines.at(4).constData());
    // The conversation went as written, after the soul.
    QCOMPARE(m_server->requests().size(), 2);
    const QJsonArray turns
        = m_server->requests().at(1).json().value(QStringLiteral("messages")).toArray();
    QCOMPARE(turns.size(), 4);
    QCOMPARE(turns.at(2).toObject().value(QStringLiteral("role")).toString(),
             QStringLiteral("assistant"));
    QCOMPARE(turns.at(3).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("JSON please"));

    m_server->setAnswer(
        [](const QJsonObject &) { return QStringLiteral("Hello {\"name\": \"Ava\"}"); });
    writeTests(testsYaml(m_server->baseUrl().toString(),
                         "  - description: greets\n    vars: {message: Hi}\n    assert:\n"
                         "      - {type: starts-with, value: Hello}\n"
                         "      - {type: regex, value: '\"name\": \"A\\w+\"'}\n"));
    const Run passing = soulc({QStringLiteral("test"), persona()});
    QVERIFY2(passing.exitCode == ExitSuccess, passing.out.constData());
}

void TstSoulcTest::jsonShape()
{
    writeTests(testsYaml(m_server->baseUrl().toString(), FailingTest));
    m_server->setUsage({321, 7, 256});
    const Run run = soulc({QStringLiteral("test"), QStringLiteral("--json"), persona()});
    QCOMPARE(run.exitCode, ExitProblems);
    QJsonParseError error{};
    const QJsonObject root = QJsonDocument::fromJson(run.out, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QByteArray soul = composed();
    const QJsonObject soulFacts = root.value(QStringLiteral("soul")).toObject();
    QCOMPARE(soulFacts.value(QStringLiteral("sha256")).toString().toLatin1(),
             QCryptographicHash::hash(soul, QCryptographicHash::Sha256).toHex());
    QCOMPARE(soulFacts.value(QStringLiteral("bytes")).toInteger(), soul.size());
    // The tokens soulc count gives for the same bytes.
    QProcess count;
    count.start(soulcPath(), {QStringLiteral("count"), QStringLiteral("-")});
    count.write(soul);
    count.closeWriteChannel();
    QVERIFY(count.waitForFinished(60000));
    QCOMPARE(soulFacts.value(QStringLiteral("tokens")).toInteger(),
             count.readAllStandardOutput().trimmed().toLongLong());
    QCOMPARE(root.value(QStringLiteral("runtime")).toString(), QStringLiteral("toolnexus"));
    QCOMPARE(root.value(QStringLiteral("endpoint")).toString(), m_server->baseUrl().toString());
    QCOMPARE(root.value(QStringLiteral("model")).toString(), QStringLiteral("file-model"));
    QCOMPARE(root.value(QStringLiteral("passed")).toInt(), 1);
    QCOMPARE(root.value(QStringLiteral("failed")).toInt(), 1);
    const QJsonArray tests = root.value(QStringLiteral("tests")).toArray();
    QCOMPARE(tests.size(), 2);
    const QJsonObject first = tests.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("description")).toString(),
             QStringLiteral("introduces herself"));
    QCOMPARE(first.value(QStringLiteral("pass")).toBool(), true);
    QCOMPARE(first.value(QStringLiteral("output")).toString(), QStringLiteral("Hello, I am Ava."));
    QVERIFY(first.value(QStringLiteral("latency_ms")).isDouble());
    const QJsonObject usage = first.value(QStringLiteral("usage")).toObject();
    QCOMPARE(usage.value(QStringLiteral("prompt_tokens")).toInt(), 321);
    QCOMPARE(usage.value(QStringLiteral("completion_tokens")).toInt(), 7);
    QCOMPARE(usage.value(QStringLiteral("cached_tokens")).toInt(), 256);
    const QJsonArray asserts = first.value(QStringLiteral("asserts")).toArray();
    QCOMPARE(asserts.size(), 2);
    const QJsonObject assert0 = asserts.at(0).toObject();
    QCOMPARE(assert0.value(QStringLiteral("type")).toString(), QStringLiteral("icontains"));
    QCOMPARE(assert0.value(QStringLiteral("value")).toString(), QStringLiteral("ava"));
    QCOMPARE(assert0.value(QStringLiteral("pass")).toBool(), true);
    QVERIFY(!assert0.value(QStringLiteral("reason")).toString().isEmpty());
    QCOMPARE(tests.at(1).toObject().value(QStringLiteral("pass")).toBool(), false);

    // A server that does not report cached tokens: null, not 0.
    m_server->setUsage({321, 7, std::nullopt});
    const Run unreported = soulc({QStringLiteral("test"), QStringLiteral("--json"), persona()});
    const QJsonObject again = QJsonDocument::fromJson(unreported.out).object();
    const QJsonObject usage2 = again.value(QStringLiteral("tests"))
                                   .toArray()
                                   .at(0)
                                   .toObject()
                                   .value(QStringLiteral("usage"))
                                   .toObject();
    QVERIFY(usage2.contains(QStringLiteral("cached_tokens")));
    QVERIFY(usage2.value(QStringLiteral("cached_tokens")).isNull());
    QCOMPARE(usage2.value(QStringLiteral("prompt_tokens")).toInt(), 321);
}

void TstSoulcTest::junitFile()
{
    writeTests(testsYaml(m_server->baseUrl().toString(), FailingTest));
    const QString junit = m_dir->filePath(QStringLiteral("results.xml"));
    QVERIFY(writeFile(junit, "an older run\n")); // a build artifact: replaced with --force
    const Run run = soulc({QStringLiteral("test"),
                           QStringLiteral("--junit"),
                           junit,
                           QStringLiteral("--force"),
                           persona()});
    QCOMPARE(run.exitCode, ExitProblems);
    QFile file(junit);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    int cases = 0;
    int failures = 0;
    QString suiteTests;
    QStringList names;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("testsuite"))
            suiteTests = xml.attributes().value(QStringLiteral("tests")).toString();
        if (xml.name() == QLatin1String("testcase")) {
            ++cases;
            names.append(xml.attributes().value(QStringLiteral("name")).toString());
        }
        if (xml.name() == QLatin1String("failure")) {
            ++failures;
            QVERIFY(xml.attributes()
                        .value(QStringLiteral("message"))
                        .contains(QLatin1String("not valid JSON")));
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(suiteTests, QStringLiteral("2"));
    QCOMPARE(cases, 2);
    QCOMPARE(failures, 1);
    QCOMPARE(names,
             QStringList({QStringLiteral("introduces herself"), QStringLiteral("answers in JSON")}));
}

void TstSoulcTest::endpointAndModelOverride()
{
    // The file names a server that is not there; the options name the real one.
    writeTests(testsYaml(QStringLiteral("http://127.0.0.1:9/v1")));
    const Run run = soulc({QStringLiteral("test"),
                           QStringLiteral("--endpoint"),
                           m_server->baseUrl().toString(),
                           QStringLiteral("--model=option-model"),
                           persona()});
    QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
    QCOMPARE(m_server->requests().size(), 1);
    QCOMPARE(m_server->requests().first().json().value(QStringLiteral("model")).toString(),
             QStringLiteral("option-model"));
    QVERIFY(run.out.contains("option-model at " + m_server->baseUrl().toString().toUtf8()));

    // --tests FILE from elsewhere.
    const QString other = m_dir->filePath(QStringLiteral("other.yaml"));
    QVERIFY(writeFile(other, testsYaml(m_server->baseUrl().toString())));
    QVERIFY(QFile::remove(m_dir->filePath(QStringLiteral("ava/persona-tests.yaml"))));
    const Run named = soulc({QStringLiteral("test"), QStringLiteral("--tests"), other, persona()});
    QVERIFY2(named.exitCode == ExitSuccess, named.err.constData());
    QCOMPARE(m_server->requests().size(), 2);
}

void TstSoulcTest::repeat()
{
    writeTests(testsYaml(m_server->baseUrl().toString(),
                         "  - description: twice\n    repeat: 2\n    vars: {message: Hi}\n"
                         "    assert:\n      - {type: contains, value: Ava}\n"));
    const Run run = soulc({QStringLiteral("test"), persona()});
    QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
    QCOMPARE(m_server->requests().size(), 3);
    QVERIFY(run.out.contains("PASS  twice (2 of 2 runs passed)\n"));
    QVERIFY(run.out.contains("2 of 2 tests passed (3 of 3 runs)"));

    const Run three = soulc(
        {QStringLiteral("test"), QStringLiteral("--repeat"), QStringLiteral("3"), persona()});
    QCOMPARE(three.exitCode, ExitSuccess);
    QCOMPARE(m_server->requests().size(), 3 + 6);
}

void TstSoulcTest::invalidFileSendsNothing()
{
    writeTests(testsYaml(m_server->baseUrl().toString(),
                         "  - description: judged\n    vars: {message: Hi}\n    assert:\n"
                         "      - {type: similar, value: is polite}\n"));
    const Run unsupported = soulc({QStringLiteral("test"), persona()});
    QCOMPARE(unsupported.exitCode, ExitFailure);
    QVERIFY2(unsupported.err.contains("persona-tests.yaml:14: test 2 ('judged'), assert 1: "
                                      "unknown assert type 'similar'"),
             unsupported.err.constData());

    writeTests("tests:\n  - vars: {message: \"Hi}\n");
    const Run syntax = soulc({QStringLiteral("test"), persona()});
    QCOMPARE(syntax.exitCode, ExitFailure);
    QVERIFY2(syntax.err.contains("persona-tests.yaml:3:1: not valid YAML: "),
             syntax.err.constData());

    QVERIFY(QFile::remove(m_dir->filePath(QStringLiteral("ava/persona-tests.yaml"))));
    const Run missing = soulc({QStringLiteral("test"), persona()});
    QCOMPARE(missing.exitCode, ExitFailure);
    QVERIFY(missing.err.contains("persona-tests.yaml"));
    QVERIFY(missing.err.contains("--tests FILE"));
    QCOMPARE(m_server->requests().size(), 0);
}

void TstSoulcTest::noEndpoint()
{
    writeTests("providers: [openai:chat:m]\ntests:\n  - vars: {message: Hi}\n    assert:\n"
               "      - {type: contains, value: Ava}\n");
    const Run run = soulc({QStringLiteral("test"), persona()});
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains("names no endpoint: give one with --endpoint URL"),
             run.err.constData());
}

void TstSoulcTest::unreadablePersona()
{
    const QString tests = m_dir->filePath(QStringLiteral("tests.yaml"));
    QVERIFY(writeFile(tests, testsYaml(m_server->baseUrl().toString())));
    const QString nowhere = m_dir->filePath(QStringLiteral("nowhere"));
    const Run run = soulc({QStringLiteral("test"), QStringLiteral("--tests"), tests, nowhere});
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains(nowhere.toUtf8()), run.err.constData());
    QCOMPARE(m_server->requests().size(), 0);
}

void TstSoulcTest::connectionRefused()
{
    // A port that was just free: nothing listens there.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const QString url = QStringLiteral("http://127.0.0.1:%1/v1").arg(probe.serverPort());
    probe.close();
    writeTests(testsYaml(url));
    const Run run = soulc({QStringLiteral("test"), persona()});
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.startsWith("soulc: "), run.err.constData());
    QVERIFY(
        run.err.contains("Cannot reach the model server at " + url.toUtf8() + "/chat/completions"));
    QVERIFY(run.out.isEmpty());
}

void TstSoulcTest::httpError()
{
    m_server->setStatus(500);
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const Run run = soulc({QStringLiteral("test"), persona()});
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains("answered HTTP 500"), run.err.constData());
    QVERIFY(run.err.contains("the model is not loaded"));
}

void TstSoulcTest::keyOnlyOverHttpsOrLoopback()
{
    QProcessEnvironment key;
    key.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-test-123"));
    // To this machine over http: sent.
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const Run local = soulc({QStringLiteral("test"), persona()}, key);
    QVERIFY2(local.exitCode == ExitSuccess, local.err.constData());
    QCOMPARE(m_server->requests().size(), 1);
    QVERIFY(m_server->requests().first().head.contains("Authorization: Bearer sk-test-123"));

    // The variable the provider names is not the file's to choose: the
    // key of OPENAI_API_KEY goes, and soulc says how to use the other.
    QByteArray yaml = testsYaml(m_server->baseUrl().toString());
    yaml.replace("seed: 1}", "seed: 1, apiKeyEnvar: GITHUB_TOKEN}");
    writeTests(yaml);
    QProcessEnvironment named;
    named.insert(QStringLiteral("GITHUB_TOKEN"), QStringLiteral("ghp-456"));
    named.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-test-123"));
    const Run chosenByFile = soulc({QStringLiteral("test"), persona()}, named);
    QCOMPARE(chosenByFile.exitCode, ExitSuccess);
    QCOMPARE(m_server->requests().size(), 2);
    QVERIFY(m_server->requests().at(1).head.contains("Authorization: Bearer sk-test-123"));
    QVERIFY(!m_server->requests().at(1).head.contains("ghp-456"));
    QVERIFY2(chosenByFile.err.contains("names apiKeyEnvar GITHUB_TOKEN; soulc reads the API key "
                                       "only from the variable you name, here OPENAI_API_KEY"),
             chosenByFile.err.constData());
    // Named by the user, it is used.
    QCOMPARE(soulc({QStringLiteral("test"),
                    QStringLiteral("--key-env"),
                    QStringLiteral("GITHUB_TOKEN"),
                    persona()},
                   named)
                 .exitCode,
             ExitSuccess);
    QCOMPARE(m_server->requests().size(), 3);
    QVERIFY(m_server->requests().at(2).head.contains("Authorization: Bearer ghp-456"));

    // To another host over http: refused before anything is sent.
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const Run remote = soulc({QStringLiteral("test"),
                              QStringLiteral("--endpoint"),
                              QStringLiteral("http://192.0.2.1:8080/v1"),
                              persona()},
                             key);
    QCOMPARE(remote.exitCode, ExitFailure);
    QVERIFY2(remote.err.contains("Refusing to send the API key in OPENAI_API_KEY to "
                                 "http://192.0.2.1:8080/v1 over plain http"),
             remote.err.constData());
    QVERIFY(!remote.err.contains("sk-test-123"));
    QCOMPARE(m_server->requests().size(), 3);
}

void TstSoulcTest::keyGoesOnlyWhereTheUserSaid_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QByteArray>("said");
    // The tested endpoint, from the file, on another host over https.
    QTest::newRow("tested endpoint")
        << testsYaml(QStringLiteral("https://collector.example/v1"))
        << QByteArray("sends requests to https://collector.example/v1, which you did not give");
    // A grader the file names, while the tested server is this machine's.
    QTest::newRow("grader") << QByteArray()
                            << QByteArray("sends requests to https://grader.example/v1, which you "
                                          "did not give");
}

void TstSoulcTest::keyGoesOnlyWhereTheUserSaid()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QByteArray, said);
    if (yaml.isEmpty()) {
        yaml = testsYaml(m_server->baseUrl().toString());
        yaml.replace("description: Ava keeps her voice\n",
                     "description: Ava keeps her voice\ndefaultTest:\n  options:\n    provider:\n"
                     "      id: openai:chat:judge\n      config: {apiBaseUrl: "
                     "'https://grader.example/v1'}\n");
        yaml += "  - description: graded\n    vars: {message: hi}\n    assert:\n"
                "      - {type: llm-rubric, value: is kind}\n";
    }
    writeTests(yaml);
    QProcessEnvironment key;
    key.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-secret-789"));
    const Run run = soulc({QStringLiteral("test"), persona()}, key);
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains(said), run.err.constData());
    QVERIFY2(run.err.contains("Run with --key-endpoint https://"), run.err.constData());
    QVERIFY(!run.err.contains("sk-secret-789"));
    QCOMPARE(m_server->requests().size(), 0);
}

void TstSoulcTest::keyWithLineBreakIsRefused()
{
    writeTests(testsYaml(m_server->baseUrl().toString()));
    QProcessEnvironment key;
    key.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-1\r\nX-Injected: yes"));
    const Run run = soulc({QStringLiteral("test"), persona()}, key);
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains("The key in OPENAI_API_KEY holds a control character"),
             run.err.constData());
    QCOMPARE(m_server->requests().size(), 0);
}

void TstSoulcTest::stalledServerEndsWithASentence_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QByteArray>("said");
    QTest::newRow("idle") << QStringList{QStringLiteral("--idle-timeout"), QStringLiteral("1")}
                          << QByteArray("sent nothing for 1 s");
    QTest::newRow("total") << QStringList{QStringLiteral("--timeout"), QStringLiteral("1")}
                           << QByteArray("did not finish its reply within 1 s");
}

void TstSoulcTest::stalledServerEndsWithASentence()
{
    QFETCH(QStringList, options);
    QFETCH(QByteArray, said);
    m_server->hold(); // the headers, then nothing
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const Run run = soulc(QStringList{QStringLiteral("test")} + options + QStringList{persona()});
    m_server->release();
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains(said), run.err.constData());
    QVERIFY2(run.ms < 30000, QByteArray::number(run.ms).constData());
}

void TstSoulcTest::hostileTestsFileIsRefusedAtOnce()
{
    const QString fifo = m_dir->filePath(QStringLiteral("tests.fifo"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QStringList &arguments :
         {QStringList{QStringLiteral("test"), QStringLiteral("--tests"), fifo, persona()},
          QStringList{QStringLiteral("test"),
                      QStringLiteral("--tests"),
                      fifo,
                      QStringLiteral("--export-promptfoo"),
                      m_dir->filePath(QStringLiteral("pf")),
                      persona()}}) {
        const Run run = soulc(arguments);
        QCOMPARE(run.exitCode, ExitFailure);
        QVERIFY2(run.err.contains("is a FIFO, not a regular file"), run.err.constData());
        QVERIFY2(run.ms < 30000, QByteArray::number(run.ms).constData());
    }
    QCOMPARE(m_server->requests().size(), 0);
}

void TstSoulcTest::junitNeverReplacesWhatWasNotAsked_data()
{
    QTest::addColumn<QString>("target"); // relative to the test's folder
    QTest::addColumn<QString>("link");   // when set, --junit names this link to target
    QTest::addColumn<bool>("force");
    QTest::addColumn<QByteArray>("said");
    QTest::newRow("a slot of the persona") << QStringLiteral("ava/SOUL.md") << QString() << true
                                           << QByteArray("a file of the persona being composed");
    QTest::newRow("a slot not there yet") << QStringLiteral("ava/MEMORY.md") << QString() << true
                                          << QByteArray("a file of the persona being composed");
    QTest::newRow("the tests file") << QStringLiteral("ava/persona-tests.yaml") << QString() << true
                                    << QByteArray("the tests file");
    QTest::newRow("a link to a file")
        << QStringLiteral("elsewhere.txt") << QStringLiteral("results.xml") << true
        << QByteArray("is a symbolic link");
    QTest::newRow("a dangling link") << QStringLiteral("gone.txt") << QStringLiteral("results.xml")
                                     << true << QByteArray("is a symbolic link");
    QTest::newRow("a file there") << QStringLiteral("results.xml") << QString() << false
                                  << QByteArray("already exists");
}

void TstSoulcTest::junitNeverReplacesWhatWasNotAsked()
{
    QFETCH(QString, target);
    QFETCH(QString, link);
    QFETCH(bool, force);
    QFETCH(QByteArray, said);
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const QString targetPath = m_dir->filePath(target);
    const bool targetExists = !target.startsWith(QLatin1String("gone"))
                              && !target.endsWith(QLatin1String("MEMORY.md"));
    if (targetExists && !QFileInfo::exists(targetPath))
        QVERIFY(writeFile(targetPath, "keep me\n"));
    const QByteArray before = readFile(targetPath);
    QString junit = targetPath;
    if (!link.isEmpty()) {
        junit = m_dir->filePath(link);
        QVERIFY(QFile::link(targetPath, junit));
    }
    QStringList arguments{QStringLiteral("test"), QStringLiteral("--junit"), junit};
    if (force)
        arguments << QStringLiteral("--force");
    const Run run = soulc(arguments << persona());
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains(said), run.err.constData());
    // Refused before anything was sent, and nothing written.
    QCOMPARE(m_server->requests().size(), 0);
    QCOMPARE(readFile(targetPath), before);
    QCOMPARE(QFileInfo::exists(targetPath), targetExists);
}

void TstSoulcTest::exportNeverWritesThroughLinks()
{
    writeTests(testsYaml(closedEndpoint()));
    const QString out = m_dir->filePath(QStringLiteral("pf"));
    QVERIFY(QDir().mkpath(out));
    const QString soulPath = m_dir->filePath(QStringLiteral("ava/SOUL.md"));
    const QString testsPath = m_dir->filePath(QStringLiteral("ava/persona-tests.yaml"));
    const QByteArray soulBefore = readFile(soulPath);
    const QByteArray testsBefore = readFile(testsPath);
    QVERIFY(QFile::link(soulPath, out + QStringLiteral("/soul.txt")));
    QVERIFY(QFile::link(testsPath, out + QStringLiteral("/promptfooconfig.yaml")));
    const Run run = soulc({QStringLiteral("test"),
                           QStringLiteral("--export-promptfoo"),
                           out,
                           QStringLiteral("--force"),
                           persona()});
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains("a file of the persona being composed")
                 || run.err.contains("the tests file") || run.err.contains("symbolic link"),
             run.err.constData());
    QCOMPARE(readFile(soulPath), soulBefore);
    QCOMPARE(readFile(testsPath), testsBefore);
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/turns.json")));
}

void TstSoulcTest::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("error");
    QTest::newRow("no DIR") << QStringList() << QByteArray("soulc: test: missing DIR.");
    QTest::newRow("repeat zero") << QStringList{QStringLiteral("--repeat=0"), QStringLiteral("ava")}
                                 << QByteArray("soulc: test: option '--repeat' needs a whole "
                                               "number from 1 to 1000, not '0'.");
    QTest::newRow("endpoint not a URL")
        << QStringList{QStringLiteral("--endpoint"),
                       QStringLiteral("localhost"),
                       QStringLiteral("ava")}
        << QByteArray("soulc: test: option '--endpoint' needs an http or https URL");
    QTest::newRow("force without export")
        << QStringList{QStringLiteral("--force"), QStringLiteral("ava")}
        << QByteArray("soulc: test: option '--force' needs --export-promptfoo OUTDIR or --junit "
                      "FILE.");
    QTest::newRow("export with json")
        << QStringList{QStringLiteral("--export-promptfoo"),
                       QStringLiteral("out"),
                       QStringLiteral("--json"),
                       QStringLiteral("ava")}
        << QByteArray("soulc: test: option '--export-promptfoo' runs nothing");
    QTest::newRow("key endpoint not a URL")
        << QStringList{QStringLiteral("--key-endpoint"),
                       QStringLiteral("grader.example"),
                       QStringLiteral("ava")}
        << QByteArray("soulc: test: option '--key-endpoint' needs an http or https URL");
    QTest::newRow("key variable not a name")
        << QStringList{QStringLiteral("--key-env"), QStringLiteral("A-B"), QStringLiteral("ava")}
        << QByteArray("soulc: test: option '--key-env' needs the name of an environment variable");
    QTest::newRow("timeout zero")
        << QStringList{QStringLiteral("--timeout"), QStringLiteral("0"), QStringLiteral("ava")}
        << QByteArray("soulc: test: option '--timeout' needs a whole number of seconds");
    QTest::newRow("unknown runtime")
        << QStringList{QStringLiteral("--runtime"), QStringLiteral("nope"), QStringLiteral("ava")}
        << QByteArray("soulc: test: unknown runtime 'nope'");
}

void TstSoulcTest::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, error);
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const Run run = soulc(QStringList{QStringLiteral("test")} + arguments);
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.startsWith(error), run.err.constData());
    QCOMPARE(m_server->requests().size(), 0);
}

void TstSoulcTest::exportPromptfoo_data()
{
    QTest::addColumn<QStringList>("runtime");
    QTest::newRow("toolnexus") << QStringList();
    QTest::newRow("openclaw") << QStringList{QStringLiteral("--runtime"),
                                             QStringLiteral("openclaw")};
}

void TstSoulcTest::exportPromptfoo()
{
    QFETCH(QStringList, runtime);
    writeTests(testsYaml(m_server->baseUrl().toString(), ExportTests));
    const QString endpoint = closedEndpoint();
    QVERIFY(!endpoint.isEmpty());
    const QString out = m_dir->filePath(QStringLiteral("export/pf"));
    QProcessEnvironment key;
    key.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-never-written"));
    const Run run = soulc(QStringList{QStringLiteral("test"),
                                      QStringLiteral("--export-promptfoo"),
                                      out,
                                      QStringLiteral("--endpoint"),
                                      endpoint,
                                      QStringLiteral("--model"),
                                      QStringLiteral("cli-model")}
                              + runtime + QStringList{persona()},
                          key);
    QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
    QVERIFY(run.err.isEmpty());
    QVERIFY2(run.out.startsWith("Wrote " + out.toUtf8() + "/promptfooconfig.yaml with "),
             run.out.constData());
    for (const char *name : {"soul.txt", "turns.json", "prompt.cjs"})
        QVERIFY(run.out.contains(out.toUtf8() + '/' + name));
    QCOMPARE(m_server->requests().size(), 0);

    const QByteArray soul = composed(runtime);
    QVERIFY(soul.contains("{{ not a template }} {% if x %} {# a note #}"));
    QVERIFY(soul.contains("\r\n"));
    QVERIFY(soul.contains("\xe6\x97\xa5"));
    QCOMPARE(readFile(out + QStringLiteral("/soul.txt")), soul);

    const QJsonArray turns
        = QJsonDocument::fromJson(readFile(out + QStringLiteral("/turns.json"))).array();
    QCOMPARE(turns.size(), 3);
    QCOMPARE(turns.at(0).toArray().at(0).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Who are you?"));
    QCOMPARE(turns.at(1).toArray(),
             (QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                     {QStringLiteral("content"),
                                      QStringLiteral("Say {{ x }} and {% y %} and {# z #}")}}}));
    QCOMPARE(turns.at(2).toArray().size(), 3);
    QCOMPARE(turns.at(2).toArray().at(1).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Hello \u00e9"));

    QJsonParseError error;
    const QJsonObject config
        = QJsonDocument::fromJson(readFile(out + QStringLiteral("/promptfooconfig.yaml")), &error)
              .object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(config.value(QStringLiteral("description")).toString(),
             QStringLiteral("Ava keeps her voice"));
    QCOMPARE(config.value(QStringLiteral("prompts")).toArray(),
             QJsonArray{QStringLiteral("file://prompt.cjs")});
    const QJsonArray providers = config.value(QStringLiteral("providers")).toArray();
    QCOMPARE(providers.size(), 1);
    QCOMPARE(providers.at(0).toObject().value(QStringLiteral("id")).toString(),
             QStringLiteral("openai:chat:cli-model"));
    QCOMPARE(providers.at(0).toObject().value(QStringLiteral("config")).toObject(),
             (QJsonObject{{QStringLiteral("apiBaseUrl"), endpoint},
                          {QStringLiteral("temperature"), 0},
                          {QStringLiteral("max_tokens"), 64},
                          {QStringLiteral("seed"), 1}}));

    // The file's first case, then the export's: twice (repeat: 2), then once.
    const QJsonArray tests = config.value(QStringLiteral("tests")).toArray();
    QCOMPARE(tests.size(), 4);
    const auto caseIndex = [&tests](int i) {
        return tests.at(i).toObject().value(QStringLiteral("vars")).toObject();
    };
    QCOMPARE(caseIndex(0), (QJsonObject{{QStringLiteral("case_index"), 0}}));
    QCOMPARE(caseIndex(1), (QJsonObject{{QStringLiteral("case_index"), 1}}));
    QCOMPARE(caseIndex(2), (QJsonObject{{QStringLiteral("case_index"), 1}}));
    QCOMPARE(caseIndex(3), (QJsonObject{{QStringLiteral("case_index"), 2}}));
    QCOMPARE(tests.at(0).toObject().value(QStringLiteral("assert")).toArray(),
             (QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("icontains")},
                                     {QStringLiteral("value"), QStringLiteral("ava")},
                                     {QStringLiteral("weight"), 1}},
                         QJsonObject{{QStringLiteral("type"), QStringLiteral("not-icontains")},
                                     {QStringLiteral("value"),
                                      QStringLiteral("as an AI language model")},
                                     {QStringLiteral("weight"), 1}}}));
    QVERIFY(!tests.at(0).toObject().contains(QStringLiteral("threshold")));
    const QJsonObject braces = tests.at(1).toObject();
    QCOMPARE(braces.value(QStringLiteral("description")).toString(),
             QStringLiteral("keeps her braces (run 1 of 2)"));
    QCOMPARE(tests.at(2).toObject().value(QStringLiteral("description")).toString(),
             QStringLiteral("keeps her braces (run 2 of 2)"));
    QCOMPARE(braces.value(QStringLiteral("threshold")).toDouble(), 0.5);
    QCOMPARE(braces.value(QStringLiteral("assert")).toArray(),
             (QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("contains")},
                                     {QStringLiteral("value"), QStringLiteral("Ava")},
                                     {QStringLiteral("weight"), 3}},
                         QJsonObject{{QStringLiteral("type"), QStringLiteral("latency")},
                                     {QStringLiteral("threshold"), 9000},
                                     {QStringLiteral("weight"), 1}},
                         QJsonObject{{QStringLiteral("type"), QStringLiteral("icontains-any")},
                                     {QStringLiteral("value"),
                                      QJsonArray{QStringLiteral("hi"), QStringLiteral("hello")}},
                                     {QStringLiteral("weight"), 1}}}));
    QCOMPARE(tests.at(3).toObject().value(QStringLiteral("assert")).toArray(),
             (QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("is-json")},
                                     {QStringLiteral("weight"), 1}}}));

    for (const char *name : {"soul.txt", "turns.json", "prompt.cjs", "promptfooconfig.yaml"})
        QVERIFY(!readFile(out + QLatin1Char('/') + QLatin1String(name)).contains("sk-never"));
}

void TstSoulcTest::exportedPromptFunction()
{
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty())
        QSKIP("node is not on PATH: the exported prompt function is not run");
    writeTests(testsYaml(closedEndpoint(), ExportTests));
    const QString out = m_dir->filePath(QStringLiteral("pf"));
    const Run run = soulc(
        {QStringLiteral("test"), QStringLiteral("--export-promptfoo"), out, persona()});
    QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
    const QByteArray soul = composed();

    // What promptfoo does: require the file, call its function with the
    // test's vars.
    const auto call = [&node, &out](int index, bool templating) {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("PROMPTFOO_DISABLE_TEMPLATING"));
        if (!templating)
            environment.insert(QStringLiteral("PROMPTFOO_DISABLE_TEMPLATING"),
                               QStringLiteral("true"));
        process.setProcessEnvironment(environment);
        process.start(node,
                      {QStringLiteral("-e"),
                       QStringLiteral("const prompt = require(process.argv[1]);"
                                      "process.stdout.write(JSON.stringify("
                                      "prompt({vars: {case_index: %1}})));")
                           .arg(index),
                       out + QStringLiteral("/prompt.cjs")});
        process.waitForFinished(60000);
        return QJsonDocument::fromJson(process.readAllStandardOutput()).array();
    };

    // Without templating, the messages are the text itself.
    const QJsonArray plain = call(1, false);
    QCOMPARE(plain.size(), 2);
    QCOMPARE(plain.at(0).toObject().value(QStringLiteral("role")).toString(),
             QStringLiteral("system"));
    QCOMPARE(plain.at(0).toObject().value(QStringLiteral("content")).toString().toUtf8(), soul);
    QCOMPARE(plain.at(1).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Say {{ x }} and {% y %} and {# z #}"));

    // With it, each '{' (and '#' before '}') is a template that renders as
    // itself; nothing else could open or close a tag.
    const QJsonArray templated = call(0, true);
    QCOMPARE(templated.size(), 2);
    QString system = templated.at(0).toObject().value(QStringLiteral("content")).toString();
    QString stripped = system;
    stripped.remove(QStringLiteral("{{ '{' }}")).remove(QStringLiteral("{{ '#' }}"));
    QVERIFY(!stripped.contains(QLatin1Char('{')));
    QVERIFY(!stripped.contains(QLatin1String("#}")));
    system.replace(QStringLiteral("{{ '{' }}"), QStringLiteral("{"))
        .replace(QStringLiteral("{{ '#' }}"), QStringLiteral("#"));
    QCOMPARE(system.toUtf8(), soul);
    QCOMPARE(templated.at(1).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Who are you?"));
}

void TstSoulcTest::exportNeverOverwritesWithoutForce()
{
    writeTests(testsYaml(closedEndpoint()));
    const QString out = m_dir->filePath(QStringLiteral("pf"));
    QVERIFY(QDir().mkpath(out));
    const QString configPath = out + QStringLiteral("/promptfooconfig.yaml");
    QVERIFY(writeFile(configPath, "mine\n"));
    const QStringList arguments{QStringLiteral("test"),
                                QStringLiteral("--export-promptfoo"),
                                out,
                                persona()};
    const Run refused = soulc(arguments);
    QCOMPARE(refused.exitCode, ExitFailure);
    QVERIFY2(refused.err.contains(configPath.toUtf8() + " already exists"), refused.err.constData());
    QVERIFY(refused.err.contains("--force"));
    QVERIFY(refused.out.isEmpty());
    QCOMPARE(readFile(configPath), QByteArray("mine\n"));
    QVERIFY(!QFile::exists(out + QStringLiteral("/soul.txt")));

    const Run forced = soulc(arguments + QStringList{QStringLiteral("--force")});
    QVERIFY2(forced.exitCode == ExitSuccess, forced.err.constData());
    QVERIFY(QJsonDocument::fromJson(readFile(configPath)).isObject());
    QCOMPARE(readFile(out + QStringLiteral("/soul.txt")), composed());

    // Written once, an export is not written over either.
    const Run again = soulc(arguments);
    QCOMPARE(again.exitCode, ExitFailure);
    QVERIFY(QJsonDocument::fromJson(readFile(configPath)).isObject());
}

void TstSoulcTest::exportWarnsOfTemplatedAsserts()
{
    writeTests(testsYaml(closedEndpoint(),
                         "  - description: braces\n    vars: {message: Hi}\n    assert:\n"
                         "      - {type: contains, value: Ava}\n"
                         "      - {type: not-contains, value: \"{{ name }}\"}\n"));
    const QString out = m_dir->filePath(QStringLiteral("pf"));
    const Run run = soulc(
        {QStringLiteral("test"), QStringLiteral("--export-promptfoo"), out, persona()});
    QVERIFY2(run.exitCode == ExitSuccess, run.err.constData());
    QVERIFY2(run.err.startsWith("soulc: warning: test 2 ('braces'), assert 2 (not-contains): "
                                "promptfoo renders its value as a Nunjucks template"),
             run.err.constData());
    QCOMPARE(run.err.count('\n'), 1);
    // The value is still exported as written.
    const QJsonArray tests = QJsonDocument::fromJson(
                                 readFile(out + QStringLiteral("/promptfooconfig.yaml")))
                                 .object()
                                 .value(QStringLiteral("tests"))
                                 .toArray();
    QCOMPARE(tests.at(1)
                 .toObject()
                 .value(QStringLiteral("assert"))
                 .toArray()
                 .at(1)
                 .toObject()
                 .value(QStringLiteral("value"))
                 .toString(),
             QStringLiteral("{{ name }}"));
}

void TstSoulcTest::exportOfABadFile()
{
    writeTests(testsYaml(m_server->baseUrl().toString(),
                         "  - description: judged\n    vars: {message: Hi}\n    assert:\n"
                         "      - {type: similar, value: is polite}\n"));
    const QString out = m_dir->filePath(QStringLiteral("pf"));
    const Run run = soulc(
        {QStringLiteral("test"), QStringLiteral("--export-promptfoo"), out, persona()});
    QCOMPARE(run.exitCode, ExitFailure);
    QVERIFY2(run.err.contains("unknown assert type 'similar'"), run.err.constData());
    QVERIFY(!QFileInfo::exists(out));

    // A persona that cannot be read, and an OUTDIR that cannot be made.
    writeTests(testsYaml(m_server->baseUrl().toString()));
    const QString nowhere = m_dir->filePath(QStringLiteral("nowhere"));
    const Run unreadable = soulc({QStringLiteral("test"),
                                  QStringLiteral("--tests"),
                                  m_dir->filePath(QStringLiteral("ava/persona-tests.yaml")),
                                  QStringLiteral("--export-promptfoo"),
                                  out,
                                  nowhere});
    QCOMPARE(unreadable.exitCode, ExitFailure);
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY(writeFile(m_dir->filePath(QStringLiteral("a-file")), "x"));
    const Run blocked = soulc({QStringLiteral("test"),
                               QStringLiteral("--export-promptfoo"),
                               m_dir->filePath(QStringLiteral("a-file/pf")),
                               persona()});
    QCOMPARE(blocked.exitCode, ExitFailure);
    QVERIFY2(blocked.err.startsWith("soulc: "), blocked.err.constData());
    QCOMPARE(m_server->requests().size(), 0);
}

QTEST_GUILESS_MAIN(TstSoulcTest)
#include "tst_soulctest.moc"
