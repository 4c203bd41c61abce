// persona-tests.yaml: what is read, and the sentences for what is wrong.

#include "personatestfile.h"

#include <QTemporaryDir>
#include <QTest>

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

QTEST_GUILESS_MAIN(TstTestFile)
#include "tst_testfile.moc"
