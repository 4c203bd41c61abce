// persona-tests.yaml: what is read, and the sentences for what is wrong.

#include "personatestfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace soul;

namespace {

const QString FileName = QStringLiteral("p/persona-tests.yaml");

Result<PersonaTestFile> parse(const char *yaml)
{
    return parsePersonaTests(QByteArray(yaml), FileName);
}

} // namespace

class TstTestFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fullFile();
    void multiTurnMessages();
    void listValues();
    void errors_data();
    void errors();
    void unknownAssertListsSupported();
    void modelGradedAndCostTypes();
    void unreadableFile();
    void hostileFilesAreRefusedAtOnce_data();
    void hostileFilesAreRefusedAtOnce();
    void aliasBombIsRefused();
    void tooDeepIsNamed();
    void invalidUtf8IsNamed();
    void tooManyRunsAreRefused();
};

void TstTestFile::fullFile()
{
    const auto file = parse(R"(description: Ava keeps her voice
providers:
  - id: openai:chat:qwen3-8b
    config: {apiBaseUrl: http://127.0.0.1:8080/v1, temperature: 0.5, max_tokens: 64, seed: 1,
             apiKeyEnvar: LOCAL_KEY}
tests:
  - description: introduces herself
    vars: {message: "Who are you?"}
    threshold: 0.5
    repeat: 3
    assert:
      - {type: icontains, value: Ava, weight: 2}
      - {type: not-icontains, value: as an AI language model}
      - {type: latency, threshold: 1500}
      - type: is-json
)");
    QVERIFY2(file.ok(), qPrintable(file.error()));
    QCOMPARE(file->description, QStringLiteral("Ava keeps her voice"));
    QCOMPARE(file->model, QStringLiteral("qwen3-8b"));
    QCOMPARE(file->apiBaseUrl, QUrl(QStringLiteral("http://127.0.0.1:8080/v1")));
    QCOMPARE(file->temperature, std::optional<double>(0.5));
    QCOMPARE(file->maxTokens, std::optional<qint64>(64));
    QCOMPARE(file->seed, std::optional<qint64>(1));
    QCOMPARE(file->apiKeyEnvar, QStringLiteral("LOCAL_KEY"));
    QCOMPARE(file->tests.size(), 1);
    const PersonaTestCase &test = file->tests.first();
    QCOMPARE(test.index, 1);
    QCOMPARE(test.repeat, 3);
    QCOMPARE(test.threshold, std::optional<double>(0.5));
    QCOMPARE(test.messages.size(), 1);
    QCOMPARE(test.messages.first().role, QStringLiteral("user"));
    QCOMPARE(test.messages.first().content, QStringLiteral("Who are you?"));
    QCOMPARE(test.asserts.size(), 4);
    QCOMPARE(test.asserts.at(0).weight, 2.0);
    QCOMPARE(test.asserts.at(1).baseType, QStringLiteral("icontains"));
    QVERIFY(test.asserts.at(1).negated);
    QCOMPARE(test.asserts.at(2).threshold, std::optional<double>(1500));
    QCOMPARE(test.asserts.at(3).type, QStringLiteral("is-json"));
}

void TstTestFile::multiTurnMessages()
{
    const auto file = parse(R"(tests:
  - description: remembers
    vars:
      messages:
        - {role: user, content: "My name is Kim."}
        - {role: assistant, content: "Hello, Kim."}
        - role: user
          content: |
            What is my name?
    assert:
      - {type: contains, value: Kim}
)");
    QVERIFY2(file.ok(), qPrintable(file.error()));
    QVERIFY(file->model.isEmpty());
    QVERIFY(file->apiBaseUrl.isEmpty());
    const QList<ChatMessage> &turns = file->tests.first().messages;
    QCOMPARE(turns.size(), 3);
    QCOMPARE(turns.at(1).role, QStringLiteral("assistant"));
    QCOMPARE(turns.at(1).content, QStringLiteral("Hello, Kim."));
    QCOMPARE(turns.at(2).content, QStringLiteral("What is my name?\n"));
}

void TstTestFile::listValues()
{
    const auto file = parse(R"(tests:
  - vars: {message: hi}
    assert:
      - {type: contains-any, value: [Ava, ava]}
      - {type: icontains-all, value: "hello, there"}
)");
    QVERIFY2(file.ok(), qPrintable(file.error()));
    QCOMPARE(file->tests.first().asserts.at(0).values,
             QStringList({QStringLiteral("Ava"), QStringLiteral("ava")}));
    QCOMPARE(file->tests.first().asserts.at(1).values,
             QStringList({QStringLiteral("hello"), QStringLiteral("there")}));
}

void TstTestFile::errors_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("expected"); // the start of the error

    QTest::newRow("syntax: unclosed flow")
        << QByteArray("tests:\n  - vars: {message: hi\n    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:3:11: not valid YAML: end of map flow not found.");
    QTest::newRow("syntax: bad indentation")
        << QByteArray("tests:\n  - vars: {message: hi}\n   assert:\n      - x\n")
        << QStringLiteral("p/persona-tests.yaml:3:");
    QTest::newRow("no tests") << QByteArray("description: x\n")
                              << QStringLiteral("p/persona-tests.yaml:1: the file has no tests");
    QTest::newRow("no message")
        << QByteArray("tests:\n  - description: greets\n    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:2: test 1 ('greets') has no vars.message");
    QTest::newRow("no message, second test, no description")
        << QByteArray("tests:\n  - vars: {message: hi}\n    assert: []\n"
                      "  - vars: {other: 1}\n    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:4: test 2 has no vars.message");
    QTest::newRow("no assert")
        << QByteArray("tests:\n  - description: greets\n    vars: {message: hi}\n")
        << QStringLiteral("p/persona-tests.yaml:2: test 1 ('greets') has no assert list");
    QTest::newRow("assert without value")
        << QByteArray("tests:\n  - vars: {message: hi}\n    assert:\n      - type: contains\n")
        << QStringLiteral("p/persona-tests.yaml:4: test 1, assert 1 (contains) needs a value.");
    QTest::newRow("latency without threshold")
        << QByteArray("tests:\n  - vars: {message: hi}\n    assert:\n      - type: latency\n")
        << QStringLiteral("p/persona-tests.yaml:4: test 1, assert 1 (latency) needs a threshold");
    QTest::newRow("invalid regex")
        << QByteArray("tests:\n  - vars: {message: hi}\n    assert:\n"
                      "      - {type: regex, value: \"(a\"}\n")
        << QStringLiteral("p/persona-tests.yaml:4: test 1, assert 1: the regex '(a' is invalid");
    QTest::newRow("message without role")
        << QByteArray("tests:\n  - vars:\n      messages:\n        - {content: hi}\n"
                      "    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:4: test 1, message 1 needs a role and a content.");
    QTest::newRow("bad role")
        << QByteArray("tests:\n  - vars:\n      messages:\n        - {role: bot, content: hi}\n"
                      "    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:4: test 1, message 1: role 'bot' is none of");
    QTest::newRow("other provider")
        << QByteArray("providers: [anthropic:messages:claude]\ntests:\n"
                      "  - vars: {message: hi}\n    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:1: provider 'anthropic:messages:claude' is not");
    QTest::newRow("two providers")
        << QByteArray("providers: [openai:chat:a, openai:chat:b]\ntests:\n"
                      "  - vars: {message: hi}\n    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:1: providers names 2 providers");
    QTest::newRow("repeat zero")
        << QByteArray("tests:\n  - vars: {message: hi}\n    repeat: 0\n    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:3: test 1's repeat must be from 1 to 1000.");
    QTest::newRow("temperature not a number")
        << QByteArray("providers:\n  - id: openai:chat:m\n    config: {temperature: warm}\n"
                      "tests:\n  - vars: {message: hi}\n    assert: []\n")
        << QStringLiteral("p/persona-tests.yaml:3: temperature must be a number, not 'warm'.");
}

void TstTestFile::errors()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, expected);
    const auto file = parsePersonaTests(yaml, FileName);
    QVERIFY(!file.ok());
    QVERIFY2(file.error().startsWith(expected), qPrintable(file.error()));
}

void TstTestFile::unknownAssertListsSupported()
{
    const auto file = parse("tests:\n  - description: greets\n    vars: {message: hi}\n"
                            "    assert:\n      - {type: contains, value: a}\n"
                            "      - {type: not-containz, value: a}\n");
    QVERIFY(!file.ok());
    QCOMPARE(file.error(),
             QStringLiteral("p/persona-tests.yaml:6: test 1 ('greets'), assert 2: unknown assert "
                            "type 'not-containz'. Supported: equals, contains, icontains, "
                            "contains-any, contains-all, icontains-any, icontains-all, "
                            "starts-with, regex, is-json, latency, cost, llm-rubric (each also as "
                            "not-TYPE)."));
}

void TstTestFile::modelGradedAndCostTypes()
{
    const auto file = parsePersonaTests(
        "tests:\n  - vars: {message: hi}\n    assert:\n"
        "      - {type: llm-rubric, value: is polite, provider: 'openai:chat:judge'}\n"
        "      - {type: not-llm-rubric, value: is rude}\n"
        "      - {type: cost, threshold: 0.01}\n",
        FileName);
    QVERIFY2(file.ok(), qPrintable(file.error()));
    const QList<AssertSpec> &asserts = file->tests.first().asserts;
    QCOMPARE(asserts.at(0).values, QStringList{QStringLiteral("is polite")});
    QCOMPARE(asserts.at(0).judge->model, QStringLiteral("judge"));
    QVERIFY(!asserts.at(1).judge);
    QCOMPARE(asserts.at(2).threshold, 0.01);
    // A rubric needs its text, a cost its most dollars.
    const auto noRubric
        = parsePersonaTests("tests:\n  - vars: {message: hi}\n    assert: [{type: llm-rubric}]\n",
                            FileName);
    QVERIFY(!noRubric.ok());
    QVERIFY2(noRubric.error().contains(QLatin1String("(llm-rubric) needs a value")),
             qPrintable(noRubric.error()));
    const auto noThreshold
        = parsePersonaTests("tests:\n  - vars: {message: hi}\n    assert: [{type: cost}]\n",
                            FileName);
    QVERIFY(!noThreshold.ok());
    QVERIFY2(noThreshold.error().contains(QLatin1String("(cost) needs a threshold")),
             qPrintable(noThreshold.error()));
}

void TstTestFile::unreadableFile()
{
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("persona-tests.yaml"));
    const auto file = loadPersonaTests(path);
    QVERIFY(!file.ok());
    QVERIFY(file.error().contains(path));
    QVERIFY(file.error().contains(QLatin1String("--tests FILE")));
}

void TstTestFile::hostileFilesAreRefusedAtOnce_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("said");
    QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("is a FIFO");
    QTest::newRow("/dev/zero") << QStringLiteral("zero") << QStringLiteral("not a regular file");
    QTest::newRow("sparse 2 GiB") << QStringLiteral("sparse")
                                  << QStringLiteral("is larger than Soul Studio reads (16777216 "
                                                    "bytes at most)");
    QTest::newRow("folder") << QStringLiteral("folder") << QStringLiteral("is a folder");
}

void TstTestFile::hostileFilesAreRefusedAtOnce()
{
    QFETCH(QString, kind);
    QFETCH(QString, said);
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("persona-tests.yaml"));
    if (kind == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == QLatin1String("zero")) {
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    } else if (kind == QLatin1String("sparse")) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(qint64(2) << 30));
    } else {
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("persona-tests.yaml")));
    }
    QElapsedTimer clock;
    clock.start();
    const auto file = loadPersonaTests(path);
    QVERIFY(!file.ok());
    QVERIFY2(file.error().contains(said), qPrintable(file.error()));
    QVERIFY2(file.error().contains(path), qPrintable(file.error()));
    // Refused without reading gigabytes or waiting on a writer.
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
}

void TstTestFile::aliasBombIsRefused()
{
    // 1 MiB of text named 5,000 times: 5 GB once expanded; a few MB of YAML.
    QByteArray yaml = "big: &big \"" + QByteArray(1 << 20, 'x') + "\"\n"
                      + "tests:\n  - vars: {message: hi}\n    assert:\n"
                        "      - type: contains-any\n        value: [";
    for (int i = 0; i < 5000; ++i)
        yaml += i ? ", *big" : "*big";
    yaml += "]\n";
    QElapsedTimer clock;
    clock.start();
    const auto file = parsePersonaTests(yaml, FileName);
    QVERIFY(!file.ok());
    QVERIFY2(file.error().contains(QLatin1String("aliases (*name) repeat more text than persona "
                                                 "tests read (64 MiB in all")),
             qPrintable(file.error()));
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));

    // Billion laughs: each level names the one before ten times.
    QByteArray laughs = "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", "
                        "\"lol\", \"lol\", \"lol\"]\n";
    char previous = 'a';
    for (char level = 'b'; level <= 'i'; ++level) {
        laughs += QByteArray(1, level) + ": &" + QByteArray(1, level) + " [";
        for (int i = 0; i < 10; ++i)
            laughs += (i ? ", *" : "*") + QByteArray(1, previous);
        laughs += "]\n";
        previous = level;
    }
    laughs += "tests:\n  - vars: {message: hi}\n    assert:\n"
              "      - {type: contains-any, value: *i}\n";
    const auto bomb = parsePersonaTests(laughs, FileName);
    QVERIFY(!bomb.ok());
    QVERIFY2(bomb.error().contains(QLatin1String("single value"))
                 || bomb.error().contains(QLatin1String("repeat more text")),
             qPrintable(bomb.error()));
}

void TstTestFile::tooDeepIsNamed()
{
    const QByteArray yaml = "tests: " + QByteArray(5000, '[') + QByteArray(5000, ']') + "\n";
    const auto file = parsePersonaTests(yaml, FileName);
    QVERIFY(!file.ok());
    QVERIFY2(file.error().contains(QLatin1String("levels deep, more than persona tests read")),
             qPrintable(file.error()));
    QVERIFY2(!file.error().contains(QLatin1String("bad file")), qPrintable(file.error()));
}

void TstTestFile::invalidUtf8IsNamed()
{
    const QByteArray yaml = "tests:\n  - vars: {message: \"caf\xe9\"}\n    assert:\n"
                            "      - {type: contains, value: x}\n";
    const auto file = parsePersonaTests(yaml, FileName);
    QVERIFY(!file.ok());
    QCOMPARE(file.error(),
             FileName
                 + QStringLiteral(":2:25: is not valid UTF-8 (byte 0xe9). Save the file as "
                                  "UTF-8, then run again."));
}

void TstTestFile::tooManyRunsAreRefused()
{
    QByteArray yaml = "tests:\n";
    for (int i = 0; i < 101; ++i)
        yaml += "  - vars: {message: hi}\n    repeat: 1000\n    assert: [{type: contains, "
                "value: x}]\n";
    const auto file = parsePersonaTests(yaml, FileName);
    QVERIFY(!file.ok());
    QVERIFY2(file.error().contains(QLatin1String("more than 100000 runs")),
             qPrintable(file.error()));
    // Many aliases of one case count each time too.
    QByteArray aliased = "case: &c {vars: {message: hi}, assert: [{type: contains, value: x}]}\n"
                         "tests: [";
    for (int i = 0; i < 100001; ++i)
        aliased += i ? ",*c" : "*c";
    aliased += "]\n";
    const auto many = parsePersonaTests(aliased, FileName);
    QVERIFY(!many.ok());
    QVERIFY2(many.error().contains(QLatin1String("100001 tests")), qPrintable(many.error()));
}

QTEST_GUILESS_MAIN(TstTestFile)
#include "tst_testfile.moc"
