// The SSE reader on a sample stream cut at every byte, and the chat stream
// that puts a reply together from its events.

#include "chatclient.h"
#include "sseparser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace soul;

namespace {

// Two chunks with a comment between, CRLF line ends in the second, a
// two-line event, then [DONE] and something after it that must be ignored.
const QByteArray Sample = QByteArrayLiteral(": keep-alive\n"
                                            "data: {\"a\":1}\n"
                                            "\n"
                                            "event: message\r\n"
                                            "id: 7\r\n"
                                            "data:{\"b\":\"\xc3\xa9\"}\r\n"
                                            "\r\n"
                                            "data: first\n"
                                            "data: second\n"
                                            "\n"
                                            "data: [DONE]\n"
                                            "\n"
                                            "data: after\n\n");

const QList<QByteArray> SampleEvents = {
    QByteArrayLiteral("{\"a\":1}"),
    QByteArrayLiteral("{\"b\":\"\xc3\xa9\"}"),
    QByteArrayLiteral("first\nsecond"),
};

QList<QByteArray> parseInPieces(const QByteArray &stream, const QList<qsizetype> &cuts, bool *done)
{
    SseParser parser;
    QList<QByteArray> events;
    qsizetype start = 0;
    for (const qsizetype cut : cuts) {
        events += parser.feed(QByteArrayView(stream).sliced(start, cut - start));
        start = cut;
    }
    events += parser.feed(QByteArrayView(stream).sliced(start));
    events += parser.finish();
    *done = parser.done();
    return events;
}

QByteArray deltaEvent(const QByteArray &content)
{
    return "data: {\"choices\":[{\"delta\":{\"content\":\"" + content + "\"}}]}\n\n";
}

} // namespace

class TstSseParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wholeStream();
    void everySplitPoint();
    void everyPairOfSplitPoints();
    void byteByByte();
    void unterminatedLastEvent();
    void chatStreamCollectsDeltasAndUsage();
    void chatStreamEverySplitPoint();
    void chatStreamUsageAbsentIsNotZero();
    void chatStreamRejectsInvalidJson();
    void chatStreamReportsServerError();
    void requestBody();
    void keyTransport_data();
    void keyTransport();
    void eventBound_data();
    void eventBound();
};

void TstSseParser::wholeStream()
{
    bool done = false;
    QCOMPARE(parseInPieces(Sample, {}, &done), SampleEvents);
    QVERIFY(done);
}

void TstSseParser::everySplitPoint()
{
    for (qsizetype cut = 0; cut <= Sample.size(); ++cut) {
        bool done = false;
        const QList<QByteArray> events = parseInPieces(Sample, {cut}, &done);
        QVERIFY2(events == SampleEvents, qPrintable(QStringLiteral("cut at %1").arg(cut)));
        QVERIFY(done);
    }
}

void TstSseParser::everyPairOfSplitPoints()
{
    for (qsizetype first = 0; first <= Sample.size(); ++first) {
        for (qsizetype second = first; second <= Sample.size(); ++second) {
            bool done = false;
            const QList<QByteArray> events = parseInPieces(Sample, {first, second}, &done);
            QVERIFY2(events == SampleEvents,
                     qPrintable(QStringLiteral("cuts at %1 and %2").arg(first).arg(second)));
        }
    }
}

void TstSseParser::byteByByte()
{
    QList<qsizetype> cuts;
    for (qsizetype i = 1; i < Sample.size(); ++i)
        cuts.append(i);
    bool done = false;
    QCOMPARE(parseInPieces(Sample, cuts, &done), SampleEvents);
    QVERIFY(done);
}

void TstSseParser::unterminatedLastEvent()
{
    SseParser parser;
    QCOMPARE(parser.feed("data: one\n\ndata: two"), QList<QByteArray>{"one"});
    QCOMPARE(parser.finish(), QList<QByteArray>{"two"});
    QVERIFY(!parser.done());
}

void TstSseParser::chatStreamCollectsDeltasAndUsage()
{
    ChatStream stream(QUrl(QStringLiteral("http://127.0.0.1:1/v1/chat/completions")));
    QVERIFY(stream.feed("data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n", 3));
    QVERIFY(stream.feed(deltaEvent("Hello, "), 5));
    QVERIFY(stream.feed(deltaEvent("I am Ava."), 8));
    QVERIFY(stream.feed("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":120,"
                        "\"completion_tokens\":4,\"prompt_tokens_details\":"
                        "{\"cached_tokens\":0}}}\n\ndata: [DONE]\n\n",
                        9));
    QVERIFY(stream.finish(10));
    QVERIFY(stream.done());
    QCOMPARE(stream.reply().content, QStringLiteral("Hello, I am Ava."));
    QCOMPARE(stream.reply().firstTokenMs, 5);
    QCOMPARE(stream.reply().usage.promptTokens, std::optional<qint64>(120));
    QCOMPARE(stream.reply().usage.completionTokens, std::optional<qint64>(4));
    QCOMPARE(stream.reply().usage.cachedTokens, std::optional<qint64>(0));
}

void TstSseParser::chatStreamEverySplitPoint()
{
    // "é" and "あ" are cut inside their UTF-8 bytes at some split points.
    const QByteArray stream = deltaEvent("Bonjour, \xc3\xa9t\xc3\xa9 ") + deltaEvent("\xe3\x81\x82")
                              + "data: [DONE]\n\n";
    const QString expected = QStringLiteral("Bonjour, \u00e9t\u00e9 \u3042");
    for (qsizetype cut = 0; cut <= stream.size(); ++cut) {
        ChatStream chat(QUrl(QStringLiteral("http://127.0.0.1:1/v1/chat/completions")));
        QVERIFY(chat.feed(QByteArrayView(stream).first(cut), 1));
        QVERIFY(chat.feed(QByteArrayView(stream).sliced(cut), 2));
        QVERIFY(chat.finish(3));
        QCOMPARE(chat.reply().content, expected);
    }
}

void TstSseParser::chatStreamUsageAbsentIsNotZero()
{
    ChatStream stream(QUrl(QStringLiteral("http://127.0.0.1:1/v1/chat/completions")));
    QVERIFY(stream.feed(deltaEvent("Hi")
                            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,"
                              "\"completion_tokens\":1}}\n\n",
                        1));
    QVERIFY(stream.finish(2));
    QCOMPARE(stream.reply().usage.promptTokens, std::optional<qint64>(3));
    QVERIFY(!stream.reply().usage.cachedTokens.has_value());

    ChatStream none(QUrl(QStringLiteral("http://127.0.0.1:1/v1/chat/completions")));
    QVERIFY(none.feed(deltaEvent("Hi"), 1));
    QVERIFY(none.finish(2));
    QVERIFY(!none.reply().usage.promptTokens.has_value());
    QVERIFY(!none.reply().usage.completionTokens.has_value());
}

void TstSseParser::chatStreamRejectsInvalidJson()
{
    ChatStream stream(QUrl(QStringLiteral("http://127.0.0.1:9/v1/chat/completions")));
    QVERIFY(!stream.feed("data: {not json\n\n", 1));
    QVERIFY(stream.error().contains(QLatin1String("http://127.0.0.1:9/v1/chat/completions")));
    QVERIFY(stream.error().contains(QLatin1String("not a JSON object")));
    QVERIFY(!stream.feed(deltaEvent("more"), 2));
}

void TstSseParser::chatStreamReportsServerError()
{
    ChatStream stream(QUrl(QStringLiteral("http://127.0.0.1:9/v1/chat/completions")));
    QVERIFY(!stream.feed("data: {\"error\":{\"message\":\"model not loaded\"}}\n\n", 1));
    QVERIFY(stream.error().contains(QLatin1String("model not loaded")));
}

void TstSseParser::requestBody()
{
    ChatRequest request;
    request.model = QStringLiteral("m");
    request.messages = {{QStringLiteral("system"), QStringLiteral("S\r\n{{x}} \u00e9")},
                        {QStringLiteral("user"), QStringLiteral("Who are you?")}};
    request.seed = 1;
    request.temperature = 0.0;
    const QJsonObject body = QJsonDocument::fromJson(chatRequestBody(request)).object();
    QCOMPARE(body.value(QStringLiteral("model")).toString(), QStringLiteral("m"));
    QCOMPARE(body.value(QStringLiteral("stream")).toBool(), true);
    QCOMPARE(body.value(QStringLiteral("stream_options"))
                 .toObject()
                 .value(QStringLiteral("include_usage"))
                 .toBool(),
             true);
    QCOMPARE(body.value(QStringLiteral("seed")).toInt(), 1);
    QVERIFY(body.contains(QStringLiteral("temperature")));
    QVERIFY(!body.contains(QStringLiteral("max_tokens")));
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(0).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("S\r\n{{x}} \u00e9"));
    QCOMPARE(chatCompletionsUrl(QUrl(QStringLiteral("http://h:1/v1/"))).toString(),
             QStringLiteral("http://h:1/v1/chat/completions"));
}

void TstSseParser::keyTransport_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("https") << QStringLiteral("https://api.example.com/v1") << true;
    QTest::newRow("http loopback v4") << QStringLiteral("http://127.0.0.1:8080/v1") << true;
    QTest::newRow("http loopback v4 other") << QStringLiteral("http://127.1.2.3/v1") << true;
    QTest::newRow("http loopback v6") << QStringLiteral("http://[::1]:8080/v1") << true;
    QTest::newRow("http localhost") << QStringLiteral("http://localhost:8080/v1") << true;
    QTest::newRow("http remote") << QStringLiteral("http://api.example.com/v1") << false;
    QTest::newRow("http lan") << QStringLiteral("http://192.168.1.5:8080/v1") << false;
}

void TstSseParser::keyTransport()
{
    QFETCH(QString, url);
    QFETCH(bool, allowed);
    const QString problem = keyTransportProblem(QUrl(url), QStringLiteral("MY_KEY"));
    QCOMPARE(problem.isEmpty(), allowed);
    if (!allowed)
        QVERIFY(problem.contains(QLatin1String("MY_KEY")));
}

void TstSseParser::eventBound_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<bool>("tooLong");
    const QByteArray max(SseParser::MaxEventBytes - 6, 'x'); // "data: " and this: the bound
    QTest::newRow("a line at the bound") << "data: " + max + "\r\n\r\n" << false;
    QTest::newRow("a line over it") << "data: " + max + "y\n\n" << true;
    QTest::newRow("a comment over it") << ": " + max + "yyyyy\n\n" << true;
    QTest::newRow("an event of two lines over it")
        << "data: " + QByteArray(600 << 10, 'a') + "\ndata: " + QByteArray(600 << 10, 'b') + "\n\n"
        << true;
    QTest::newRow("an unended line over it") << "data: " + max + "yy" << true;
}

// The bound holds wherever the stream is cut, and says the same.
void TstSseParser::eventBound()
{
    QFETCH(QByteArray, stream);
    QFETCH(bool, tooLong);
    for (const qsizetype step : {stream.size(), qsizetype(1000), qsizetype(65536)}) {
        SseParser parser;
        QList<QByteArray> events;
        for (qsizetype at = 0; at < stream.size(); at += step)
            events += parser.feed(QByteArrayView(stream).sliced(at, qMin(step, stream.size() - at)));
        events += parser.finish();
        QCOMPARE(parser.tooLong(), tooLong);
        QCOMPARE(events.size(), tooLong ? 0 : 1);
        for (const QByteArray &event : std::as_const(events))
            QVERIFY(event.size() <= SseParser::MaxEventBytes);
    }
}

QTEST_GUILESS_MAIN(TstSseParser)
#include "tst_sseparser.moc"
