// Each assert type and its not- form on sample replies, weights and a case's
// threshold, invalid regexes and what counts as JSON; cost from usage and
// the provider's prices; llm-rubric graded by a model server in this
// process.

#include "assertcheck.h"
#include "modelserver.h"
#include "personatestfile.h"
#include "personatestrunner.h"

#include <QTest>

using namespace soul;
using soul::chattest::ModelServer;

namespace {

AssertSpec spec(const QString &type, const QStringList &values = {}, double weight = 1.0)
{
    AssertSpec s;
    s.type = type;
    s.negated = type.startsWith(QLatin1String("not-"));
    s.baseType = s.negated ? type.mid(4) : type;
    s.values = values;
    s.weight = weight;
    return s;
}

} // namespace

class TstAsserts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void types_data();
    void types();
    void latency();
    void cost();
    void rubricGradedByTheTestedModel();
    void rubricGradedByItsOwnProvider();
    void rubricAnswersThatAreNotJudgements();
    void invalidRegexFailsBothWays();
    void reasonsSayWhy();
    void verdictWithoutThreshold();
    void verdictWithThreshold();
    void zeroWeightsScoreZero();
    void regexThatCannotFinishFailsBothWays();
    void impossibleUsageFailsCost();
};

void TstAsserts::types_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<QString>("output");
    QTest::addColumn<bool>("pass");

    const QString ava = QStringLiteral("Hello, I am Ava.");
    struct Row
    {
        const char *name;
        const char *type;
        QStringList values;
        QString output;
        bool pass;
    };
    const Row rows[] = {
        {"equals", "equals", {ava}, ava, true},
        {"equals differs", "equals", {QStringLiteral("hello, I am Ava.")}, ava, false},
        {"equals no trim", "equals", {ava}, ava + QLatin1Char('\n'), false},
        {"contains", "contains", {QStringLiteral("Ava")}, ava, true},
        {"contains case", "contains", {QStringLiteral("ava")}, ava, false},
        {"icontains", "icontains", {QStringLiteral("AVA")}, ava, true},
        {"icontains absent", "icontains", {QStringLiteral("Bob")}, ava, false},
        {"contains-any", "contains-any", {QStringLiteral("Bob"), QStringLiteral("Ava")}, ava, true},
        {"contains-any none",
         "contains-any",
         {QStringLiteral("Bob"), QStringLiteral("ava")},
         ava,
         false},
        {"contains-all", "contains-all", {QStringLiteral("Hello"), QStringLiteral("Ava")}, ava, true},
        {"contains-all one missing",
         "contains-all",
         {QStringLiteral("Hello"), QStringLiteral("Bob")},
         ava,
         false},
        {"icontains-any", "icontains-any", {QStringLiteral("BOB"), QStringLiteral("AVA")}, ava, true},
        {"icontains-any none", "icontains-any", {QStringLiteral("bob")}, ava, false},
        {"icontains-all",
         "icontains-all",
         {QStringLiteral("HELLO"), QStringLiteral("ava")},
         ava,
         true},
        {"icontains-all missing",
         "icontains-all",
         {QStringLiteral("hello"), QStringLiteral("x")},
         ava,
         false},
        {"starts-with", "starts-with", {QStringLiteral("Hello")}, ava, true},
        {"starts-with not", "starts-with", {QStringLiteral("Ava")}, ava, false},
        {"regex", "regex", {QStringLiteral("I am [A-Z][a-z]+\\.$")}, ava, true},
        {"regex no match", "regex", {QStringLiteral("^I am")}, ava, false},
        {"is-json object", "is-json", {}, QStringLiteral("{\"a\": [1, 2]}"), true},
        {"is-json number", "is-json", {}, QStringLiteral(" 42 "), true},
        {"is-json string", "is-json", {}, QStringLiteral("\"x\""), true},
        {"is-json prose", "is-json", {}, ava, false},
        {"is-json two values", "is-json", {}, QStringLiteral("1, 2"), false},
        {"is-json empty", "is-json", {}, QString(), false},
        {"is-json trailing text", "is-json", {}, QStringLiteral("{} ok"), false},
    };
    for (const Row &row : rows) {
        QTest::newRow(row.name) << QString::fromLatin1(row.type) << row.values << row.output
                                << row.pass;
        QTest::newRow(qPrintable(QStringLiteral("not-%1").arg(QLatin1String(row.name))))
            << QStringLiteral("not-%1").arg(QLatin1String(row.type)) << row.values << row.output
            << !row.pass;
    }
}

void TstAsserts::types()
{
    QFETCH(QString, type);
    QFETCH(QStringList, values);
    QFETCH(QString, output);
    QFETCH(bool, pass);
    const AssertOutcome outcome = checkAssert(spec(type, values), output, 100);
    QCOMPARE(outcome.pass, pass);
    QCOMPARE(outcome.score, pass ? 1.0 : 0.0);
    QVERIFY(!outcome.reason.isEmpty());
}

void TstAsserts::latency()
{
    AssertSpec within = spec(QStringLiteral("latency"));
    within.threshold = 500;
    QVERIFY(checkAssert(within, QString(), 500).pass);
    QVERIFY(!checkAssert(within, QString(), 501).pass);
    QVERIFY(checkAssert(within, QString(), 501).reason.contains(QLatin1String("501 ms")));
    AssertSpec over = spec(QStringLiteral("not-latency"));
    over.threshold = 500;
    QVERIFY(checkAssert(over, QString(), 501).pass);
    QVERIFY(!checkAssert(over, QString(), 20).pass);
}

void TstAsserts::cost()
{
    AssertSpec cheap = spec(QStringLiteral("cost"));
    cheap.threshold = 0.002;
    PersonaTestFile file;
    ChatReply reply;
    reply.usage.promptTokens = 1000;
    reply.usage.completionTokens = 100;
    // No price: the cost is not known, and the assert says where to give one.
    AssertOutcome unpriced = checkAssert(cheap, reply, file);
    QVERIFY(!unpriced.pass);
    QVERIFY2(unpriced.reason.contains(QLatin1String("No price per token")),
             qPrintable(unpriced.reason));
    QVERIFY(unpriced.reason.contains(QLatin1String("provider's config")));
    // 1000 x 0.000001 + 100 x 0.000002 = 0.0012, within 0.002.
    file.inputCost = 0.000001;
    file.outputCost = 0.000002;
    const AssertOutcome within = checkAssert(cheap, reply, file);
    QVERIFY2(within.pass, qPrintable(within.reason));
    QVERIFY2(within.reason.contains(QLatin1String("$0.0012")), qPrintable(within.reason));
    cheap.threshold = 0.001;
    QVERIFY(!checkAssert(cheap, reply, file).pass);
    AssertSpec dear = spec(QStringLiteral("not-cost"));
    dear.threshold = 0.001;
    QVERIFY(checkAssert(dear, reply, file).pass);
    // A server that reports no usage.
    reply.usage = ChatUsage();
    const AssertOutcome unknown = checkAssert(cheap, reply, file);
    QVERIFY(!unknown.pass);
    QVERIFY(unknown.reason.contains(QLatin1String("no token usage")));
    // The file's prices: cost for both, inputCost over it.
    const Result<PersonaTestFile> parsed = parsePersonaTests(
        "providers: [{id: 'openai:chat:m', config: {cost: 0.5, inputCost: 0.25}}]\n"
        "tests:\n  - vars: {message: hi}\n    assert: [{type: cost, threshold: 1}]\n",
        QStringLiteral("t.yaml"));
    QVERIFY2(parsed.ok(), qPrintable(parsed.error()));
    QCOMPARE(parsed->inputCost, 0.25);
    QCOMPARE(parsed->outputCost, 0.5);
    QCOMPARE(parsed->tests.first().asserts.first().threshold, 1.0);
}

void TstAsserts::rubricGradedByTheTestedModel()
{
    ModelServer judge;
    QVERIFY(judge.listen());
    // The case's reply, then judgements.
    judge.setAnswer([](const QJsonObject &request) {
        const QJsonArray turns = request.value(QStringLiteral("messages")).toArray();
        if (!turns.first()
                 .toObject()
                 .value(QStringLiteral("content"))
                 .toString()
                 .contains(QLatin1String("rubric")))
            return QStringLiteral("You said: hi");
        return QStringLiteral("Sure:\n```json\n{\"reason\": \"It is polite.\", \"score\": 0.9, "
                              "\"pass\": true}\n```");
    });
    const Result<PersonaTestFile> file = parsePersonaTests(
        QStringLiteral("providers: [{id: 'openai:chat:tested', config: {apiBaseUrl: '%1'}}]\n"
                       "tests:\n  - vars: {message: hi}\n    assert:\n"
                       "      - {type: llm-rubric, value: is polite}\n"
                       "      - {type: not-llm-rubric, value: is polite}\n")
            .arg(judge.baseUrl().toString())
            .toUtf8(),
        QStringLiteral("t.yaml"));
    QVERIFY2(file.ok(), qPrintable(file.error()));
    const PersonaTestCase &test = file->tests.first();
    QVERIFY(isModelGraded(test.asserts.first()));
    QCOMPARE(modelGradedAsserts(test), QList<int>({0, 1}));

    // The same request runPersonaTests() makes: the reply graded after it.
    ChatClient client;
    const Result<PersonaTestRun> run = runPersonaTests(client, *file, "You are Ava.", {});
    QVERIFY2(run.ok(), qPrintable(run.error()));
    // The case, then one grading request per rubric.
    QCOMPARE(judge.chats().size(), 3);
    const QJsonObject grading = judge.chats().at(1);
    QCOMPARE(grading.value(QStringLiteral("model")).toString(), QStringLiteral("tested"));
    const QJsonArray messages = grading.value(QStringLiteral("messages")).toArray();
    QVERIFY(messages.at(0)
                .toObject()
                .value(QStringLiteral("content"))
                .toString()
                .contains(QLatin1String("JSON")));
    const QString asked = messages.at(1).toObject().value(QStringLiteral("content")).toString();
    QVERIFY2(asked.contains(QLatin1String("<Output>\nYou said: hi\n</Output>")), qPrintable(asked));
    QVERIFY(asked.contains(QLatin1String("<Rubric>\nis polite\n</Rubric>")));

    const CaseRun &graded = run->runs.first();
    QVERIFY(graded.outcomes.at(0).pass);
    QCOMPARE(graded.outcomes.at(0).score, 0.9);
    QCOMPARE(graded.outcomes.at(0).reason, QStringLiteral("judged by tested: It is polite."));
    QVERIFY(!graded.outcomes.at(1).pass);
    QVERIFY(graded.outcomes.at(1).reason.startsWith(QLatin1String("judged by tested: ")));
    QVERIFY(!graded.verdict.pass);
}

void TstAsserts::rubricGradedByItsOwnProvider()
{
    ModelServer tested;
    ModelServer judge;
    QVERIFY(tested.listen() && judge.listen());
    judge.setAnswer([](const QJsonObject &) {
        return QStringLiteral("{\"reason\": \"Rude.\", \"pass\": false}");
    });
    const QString yaml = QStringLiteral(
        "providers: [{id: 'openai:chat:tested', config: {apiBaseUrl: '%1'}}]\n"
        "defaultTest:\n  options:\n    provider: {id: 'openai:chat:grader', config: "
        "{apiBaseUrl: '%2'}}\n"
        "tests:\n  - vars: {message: hi}\n    assert:\n"
        "      - {type: llm-rubric, value: is polite}\n"
        "      - type: llm-rubric\n        value: is kind\n        provider: "
        "'openai:chat:other'\n");
    const Result<PersonaTestFile> file = parsePersonaTests(yaml.arg(tested.baseUrl().toString(),
                                                                    judge.baseUrl().toString())
                                                               .toUtf8(),
                                                           QStringLiteral("t.yaml"));
    QVERIFY2(file.ok(), qPrintable(file.error()));
    QCOMPARE(file->judge->model, QStringLiteral("grader"));
    ChatClient client;
    const Result<PersonaTestRun> run = runPersonaTests(client, *file, "soul", {});
    QVERIFY2(run.ok(), qPrintable(run.error()));
    // The file's grader at its endpoint; the assert's own model at the
    // tested endpoint, as its provider names no apiBaseUrl.
    QCOMPARE(tested.chats().size(), 2);
    QCOMPARE(judge.chats().size(), 1);
    QCOMPARE(judge.chats().first().value(QStringLiteral("model")).toString(),
             QStringLiteral("grader"));
    QCOMPARE(tested.chats().last().value(QStringLiteral("model")).toString(),
             QStringLiteral("other"));
    const CaseRun &graded = run->runs.first();
    QCOMPARE(graded.outcomes.at(0).reason, QStringLiteral("judged by grader: Rude."));
    QVERIFY(!graded.outcomes.at(0).pass);
    QCOMPARE(graded.outcomes.at(0).score, 0.0);
    // The tested server answers "You said: ...", not a judgement.
    QVERIFY(!graded.outcomes.at(1).pass);
    QVERIFY2(graded.outcomes.at(1).reason.startsWith(
                 QLatin1String("judged by other: its answer is not a JSON object")),
             qPrintable(graded.outcomes.at(1).reason));
}

void TstAsserts::rubricAnswersThatAreNotJudgements()
{
    const AssertSpec rubric = spec(QStringLiteral("llm-rubric"), {QStringLiteral("is brief")});
    ChatRequest request;
    request.model = QStringLiteral("m");
    // A grader that could not be reached.
    const AssertOutcome unreached
        = rubricOutcome(rubric, request, Result<ChatReply>::failure(QStringLiteral("Refused.")));
    QVERIFY(!unreached.pass);
    QCOMPARE(unreached.reason, QStringLiteral("judged by m: the grader gave no answer: Refused."));
    // As promptfoo reads a judgement: a score alone passes (pass is true
    // when not given), and is the assert's score; a threshold makes the
    // score count.
    ChatReply reply;
    reply.content = QStringLiteral("{\"score\": 0.2}");
    QVERIFY(rubricOutcome(rubric, request, reply).pass);
    QCOMPARE(rubricOutcome(rubric, request, reply).score, 0.2);
    AssertSpec withThreshold = rubric;
    withThreshold.threshold = 0.5;
    QVERIFY(!rubricOutcome(withThreshold, request, reply).pass);
    reply.content = QStringLiteral("{\"score\": \"0.7\", \"pass\": \"yes\"}");
    QVERIFY(rubricOutcome(withThreshold, request, reply).pass);
    QCOMPARE(rubricOutcome(withThreshold, request, reply).score, 0.7);
    reply.content = QStringLiteral("{\"pass\": \"no\"}");
    QVERIFY(!rubricOutcome(rubric, request, reply).pass);
    QCOMPARE(rubricOutcome(rubric, request, reply).score, 0.0);
    // Negated, the verdict turns and the score with it.
    AssertSpec negated = spec(QStringLiteral("not-llm-rubric"), {QStringLiteral("is brief")});
    reply.content = QStringLiteral("{\"score\": 0.2}");
    QVERIFY(!rubricOutcome(negated, request, reply).pass);
    QCOMPARE(rubricOutcome(negated, request, reply).score, 0.8);
    // Prose without an object is not graded.
    reply.content = QStringLiteral("It is brief.");
    QVERIFY(!rubricOutcome(rubric, request, reply).pass);
    // Not graded before its answer comes.
    QVERIFY(!checkAssert(rubric, ChatReply(), PersonaTestFile()).pass);
}

void TstAsserts::invalidRegexFailsBothWays()
{
    for (const QString &type : {QStringLiteral("regex"), QStringLiteral("not-regex")}) {
        const AssertOutcome outcome = checkAssert(spec(type, {QStringLiteral("(unclosed")}),
                                                  QStringLiteral("(unclosed"),
                                                  1);
        QVERIFY(!outcome.pass);
        QVERIFY2(outcome.reason.contains(QLatin1String("invalid")), qPrintable(outcome.reason));
        QVERIFY(outcome.reason.contains(QLatin1String("offset")));
    }
}

void TstAsserts::reasonsSayWhy()
{
    const AssertOutcome missing = checkAssert(spec(QStringLiteral("icontains"),
                                                   {QStringLiteral("Ava")}),
                                              QStringLiteral("I am Bob."),
                                              1);
    QCOMPARE(missing.reason,
             QStringLiteral("The output does not contain 'Ava' (ignoring case). icontains wants "
                            "it to contain 'Ava' (ignoring case)."));
    const AssertOutcome forbidden = checkAssert(spec(QStringLiteral("not-contains"),
                                                     {QStringLiteral("as an AI")}),
                                                QStringLiteral("Well, as an AI, I"),
                                                1);
    QCOMPARE(forbidden.reason,
             QStringLiteral("The output contains 'as an AI'. not-contains wants it not to "
                            "contain 'as an AI'."));
    const AssertOutcome lacks = checkAssert(spec(QStringLiteral("contains-all"),
                                                 {QStringLiteral("a"), QStringLiteral("z")}),
                                            QStringLiteral("abc"),
                                            1);
    QVERIFY2(lacks.reason.startsWith(QLatin1String("The output lacks 'z'.")),
             qPrintable(lacks.reason));
}

void TstAsserts::verdictWithoutThreshold()
{
    const QList<AssertSpec> specs = {spec(QStringLiteral("contains"), {QStringLiteral("a")}),
                                     spec(QStringLiteral("contains"), {QStringLiteral("b")})};
    const QList<AssertOutcome> outcomes = {checkAssert(specs[0], QStringLiteral("a"), 1),
                                           checkAssert(specs[1], QStringLiteral("a"), 1)};
    const CaseVerdict verdict = judgeCase(specs, outcomes, std::nullopt);
    QVERIFY(!verdict.pass);
    QCOMPARE(verdict.score, 0.5);
    const QList<AssertOutcome> both = {checkAssert(specs[0], QStringLiteral("ab"), 1),
                                       checkAssert(specs[1], QStringLiteral("ab"), 1)};
    QVERIFY(judgeCase(specs, both, std::nullopt).pass);
}

void TstAsserts::verdictWithThreshold()
{
    // Weighted 3:1, the heavy assert passing: 0.75.
    const QList<AssertSpec> specs = {spec(QStringLiteral("contains"), {QStringLiteral("a")}, 3),
                                     spec(QStringLiteral("contains"), {QStringLiteral("b")}, 1)};
    const QList<AssertOutcome> outcomes = {checkAssert(specs[0], QStringLiteral("a"), 1),
                                           checkAssert(specs[1], QStringLiteral("a"), 1)};
    QCOMPARE(judgeCase(specs, outcomes, 0.75).score, 0.75);
    QVERIFY(judgeCase(specs, outcomes, 0.75).pass);
    QVERIFY(judgeCase(specs, outcomes, 0.7).pass);
    const CaseVerdict below = judgeCase(specs, outcomes, 0.8);
    QVERIFY(!below.pass);
    QVERIFY(below.reason.contains(QLatin1String("0.75")));
    QVERIFY(below.reason.contains(QLatin1String("0.8")));
    // The light one passing instead: 0.25.
    const QList<AssertOutcome> light = {checkAssert(specs[0], QStringLiteral("b"), 1),
                                        checkAssert(specs[1], QStringLiteral("b"), 1)};
    QCOMPARE(judgeCase(specs, light, 0.5).score, 0.25);
    QVERIFY(!judgeCase(specs, light, 0.5).pass);
}

void TstAsserts::zeroWeightsScoreZero()
{
    // promptfoo's: asserts that weigh nothing in all score 0, so a threshold
    // above 0 fails (it gave 1 and passed before).
    const QList<AssertSpec> specs = {spec(QStringLiteral("contains"), {QStringLiteral("z")}, 0)};
    const QList<AssertOutcome> outcomes = {checkAssert(specs[0], QStringLiteral("a"), 1)};
    QCOMPARE(judgeCase(specs, outcomes, 0.5).score, 0.0);
    QVERIFY(!judgeCase(specs, outcomes, 0.5).pass);
    QVERIFY(judgeCase(specs, outcomes, 0.0).pass);
    // Without a threshold the failed assert still fails the case.
    QVERIFY(!judgeCase(specs, outcomes, std::nullopt).pass);
    // No asserts at all: 1, as promptfoo's "No assertions".
    QCOMPARE(judgeCase({}, {}, 0.5).score, 1.0);
    QVERIFY(judgeCase({}, {}, 0.5).pass);
}

void TstAsserts::regexThatCannotFinishFailsBothWays()
{
    // A pattern that backtracks exponentially on a reply that almost
    // matches: PCRE2's match limit stops it. Neither regex nor not-regex
    // may pass (not-regex passed as "no match" before).
    const QString pattern = QStringLiteral("^(a+)+$");
    const QString output = QString(40, QLatin1Char('a')) + QLatin1Char('!');
    for (const QString &type : {QStringLiteral("regex"), QStringLiteral("not-regex")}) {
        AssertSpec assertSpec = spec(type, {pattern});
        const AssertOutcome outcome = checkAssert(assertSpec, output, 1);
        QVERIFY2(!outcome.pass, qPrintable(type));
        QVERIFY2(outcome.reason.contains(QLatin1String("could not be checked"))
                     && outcome.reason.contains(QLatin1String("limit")),
                 qPrintable(outcome.reason));
    }
    // The same pattern on a reply it can decide is judged as usual.
    QVERIFY(checkAssert(spec(QStringLiteral("regex"), {pattern}), QStringLiteral("aaaa"), 1).pass);
    QVERIFY(checkAssert(spec(QStringLiteral("not-regex"), {pattern}), QStringLiteral("ab"), 1).pass);
}

void TstAsserts::impossibleUsageFailsCost()
{
    PersonaTestFile file;
    file.inputCost = 0.001;
    file.outputCost = 0.002;
    AssertSpec cost = spec(QStringLiteral("cost"), {});
    cost.threshold = 1.0;
    ChatReply reply;
    reply.usage.impossible = QStringLiteral("The model server at X reported an impossible usage: "
                                            "prompt_tokens is -5, which is not a count of tokens.");
    const AssertOutcome outcome = checkAssert(cost, reply, file);
    QVERIFY(!outcome.pass);
    QVERIFY2(outcome.reason.contains(QLatin1String("impossible usage")), qPrintable(outcome.reason));
}

QTEST_GUILESS_MAIN(TstAsserts)
#include "tst_asserts.moc"
