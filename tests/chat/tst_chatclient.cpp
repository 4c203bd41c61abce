// ChatClient against servers in this process that misbehave: one that
// never answers (the deadline), one that is gone (connection refused), one
// that streams something other than JSON, and one that streams properly.

#include "chatclient.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <functional>
#include <memory>

using namespace soul;

namespace {

// Accepts connections and answers each request with `answer` (nothing at
// all when it is empty), then closes the connection, or keeps it open
// without a word more when `keepOpen`.
class StubServer : public QObject
{
    Q_OBJECT

public:
    explicit StubServer(QByteArray answer, bool keepOpen = false, QObject *parent = nullptr)
        : QObject(parent)
        , m_answer(std::move(answer))
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this, keepOpen] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket, keepOpen] {
                    m_received += socket->readAll();
                    if (!m_answer.isEmpty() && m_received.contains("\r\n\r\n") && !m_answered) {
                        m_answered = true;
                        socket->write(m_answer);
                        if (!keepOpen)
                            socket->disconnectFromHost();
                    }
                });
            }
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl baseUrl() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_server.serverPort()));
    }
    const QByteArray &received() const { return m_received; }

private:
    QTcpServer m_server;
    QByteArray m_answer;
    QByteArray m_received;
    bool m_answered = false;
};

QByteArray sseAnswer(const QByteArray &events)
{
    return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
           + events;
}

ChatRequest requestTo(const QUrl &baseUrl)
{
    ChatRequest request;
    request.baseUrl = baseUrl;
    request.model = QStringLiteral("m");
    request.messages = {{QStringLiteral("system"), QStringLiteral("soul")},
                        {QStringLiteral("user"), QStringLiteral("hi")}};
    return request;
}

// Answers a chat request with `head`, then feeds the connection from
// `next` every `everyMs` (a drip, an endless stream) until `next` returns
// nothing or `maxBytes` have gone, keeping the socket's queue short.
class FeedingServer : public QObject
{
    Q_OBJECT

public:
    FeedingServer(QByteArray head, std::function<QByteArray()> next, int everyMs, qint64 maxBytes)
        : m_head(std::move(head))
        , m_next(std::move(next))
        , m_everyMs(everyMs)
        , m_maxBytes(maxBytes)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
                    m_received += socket->readAll();
                    if (m_socket || !m_received.contains("\r\n\r\n"))
                        return;
                    m_socket = socket;
                    socket->write(m_head);
                    m_feeder.start(m_everyMs);
                });
            }
        });
        connect(&m_feeder, &QTimer::timeout, this, [this] {
            if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState
                || m_sent >= m_maxBytes) {
                m_feeder.stop();
                return;
            }
            if (m_socket->bytesToWrite() > (1 << 20))
                return;
            const QByteArray piece = m_next ? m_next() : QByteArray();
            if (piece.isEmpty()) {
                m_feeder.stop();
                return;
            }
            m_sent += piece.size();
            m_socket->write(piece);
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl baseUrl() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_server.serverPort()));
    }
    const QByteArray &received() const { return m_received; }
    qint64 sent() const { return m_sent; }

private:
    QTcpServer m_server;
    QByteArray m_head;
    std::function<QByteArray()> m_next;
    int m_everyMs;
    qint64 m_maxBytes;
    QTimer m_feeder;
    QPointer<QTcpSocket> m_socket;
    QByteArray m_received;
    qint64 m_sent = 0;
};

const QByteArray StreamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                              "Connection: close\r\n\r\n";

} // namespace

class TstChatClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void streamedReply();
    void deadline();
    void connectionRefused();
    void invalidJson();
    void replyNotStreamed();
    void notAnHttpUrl();
    void keyRefusedBeforeConnecting();
    void streamsPiecesInOrder();
    void stopKeepsWhatCame();
    void refusedCallFinishesLater();
    void listsModels_data();
    void listsModels();
    void modelsErrorsNameTheEndpoint();
    void keyOverPlainHttpWhenAllowed();
    void headersThenNothingEndsAtTheIdleDeadline();
    void dripEndsAtTheTotalDeadline();
    void endlessReplyIsCut();
    void endlessCommentsAreBounded();
    void oneHugeLineIsRefused();
    void compressedReplyIsNotExpanded();
    void serverTextIsEscaped();
    void impossibleUsage_data();
    void impossibleUsage();
    void keyWithLineBreakIsRefused();
    void urlPasswordCountsAsAKey();
};

void TstChatClient::streamedReply()
{
    StubServer server(sseAnswer("data: {\"choices\":[{\"delta\":{\"content\":\"Hi \"}}]}\r\n\r\n"
                                "data: {\"choices\":[{\"delta\":{\"content\":\"there\"}}]}\r\n\r\n"
                                "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,"
                                "\"completion_tokens\":2}}\r\n\r\n"
                                "data: [DONE]\r\n\r\n"));
    QVERIFY(server.listen());
    ChatClient client;
    ChatRequest request = requestTo(server.baseUrl());
    request.apiKey = QStringLiteral("local-key");
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY2(reply.ok(), qPrintable(reply.error()));
    QCOMPARE(reply->content, QStringLiteral("Hi there"));
    QCOMPARE(reply->usage.promptTokens, std::optional<qint64>(5));
    QVERIFY(!reply->usage.cachedTokens.has_value());
    QVERIFY(reply->firstTokenMs >= 0);
    QVERIFY(reply->latencyMs >= reply->firstTokenMs);
    QVERIFY(server.received().startsWith("POST /v1/chat/completions HTTP/1.1"));
    QVERIFY(server.received().contains("Authorization: Bearer local-key"));
}

void TstChatClient::deadline()
{
    StubServer silent{QByteArray()};
    QVERIFY(silent.listen());
    ChatClient client;
    ChatRequest request = requestTo(silent.baseUrl());
    request.timeoutMs = 300;
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("did not finish its reply within 0.3 s")),
             qPrintable(reply.error()));
    QVERIFY(reply.error().contains(silent.baseUrl().toString()));
}

void TstChatClient::connectionRefused()
{
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1").arg(probe.serverPort()));
    probe.close();
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(url));
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().startsWith(
                 QStringLiteral("Cannot reach the model server at %1/chat/completions: ")
                     .arg(url.toString())),
             qPrintable(reply.error()));
}

void TstChatClient::invalidJson()
{
    StubServer server(sseAnswer("data: <html>oops</html>\n\n"));
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("not a JSON object: '<html>oops</html>'")),
             qPrintable(reply.error()));
}

void TstChatClient::replyNotStreamed()
{
    StubServer server("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                      "Connection: close\r\n\r\n"
                      "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":"
                      "\"Whole\"}}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1,"
                      "\"prompt_tokens_details\":{\"cached_tokens\":8}}}");
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY2(reply.ok(), qPrintable(reply.error()));
    QCOMPARE(reply->content, QStringLiteral("Whole"));
    QCOMPARE(reply->usage.cachedTokens, std::optional<qint64>(8));
}

void TstChatClient::notAnHttpUrl()
{
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(
        requestTo(QUrl(QStringLiteral("ftp://127.0.0.1/v1"))));
    QVERIFY(!reply.ok());
    QVERIFY(reply.error().contains(QLatin1String("is not an http or https URL")));
}

void TstChatClient::keyRefusedBeforeConnecting()
{
    ChatClient client;
    ChatRequest request = requestTo(QUrl(QStringLiteral("http://192.0.2.1:8080/v1")));
    request.apiKey = QStringLiteral("secret");
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY(!reply.ok());
    QVERIFY(reply.error().startsWith(QLatin1String("Refusing to send the API key")));
}

void TstChatClient::streamsPiecesInOrder()
{
    StubServer server(sseAnswer("data: {\"choices\":[{\"delta\":{\"content\":\"Hi \"}}]}\n\n"
                                "data: {\"choices\":[{\"delta\":{\"content\":\"there\"}}]}\n\n"
                                "data: [DONE]\n\n"));
    QVERIFY(server.listen());
    ChatClient client;
    std::unique_ptr<ChatCall> call(client.start(requestTo(server.baseUrl())));
    QString pieces;
    connect(call.get(), &ChatCall::textArrived, this, [&pieces](const QString &piece) {
        pieces += piece;
    });
    QSignalSpy finished(call.get(), &ChatCall::finished);
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.count(), 1);
    QVERIFY(call->isFinished());
    QVERIFY2(call->result().ok(), qPrintable(call->result().error()));
    QCOMPARE(pieces, QStringLiteral("Hi there"));
    QCOMPARE(call->result()->content, pieces);
    QVERIFY(!call->wasStopped());
}

void TstChatClient::stopKeepsWhatCame()
{
    StubServer server(sseAnswer("data: {\"choices\":[{\"delta\":{\"content\":\"Once\"}}]}\n\n"),
                      true);
    QVERIFY(server.listen());
    ChatClient client;
    std::unique_ptr<ChatCall> call(client.start(requestTo(server.baseUrl())));
    QSignalSpy arrived(call.get(), &ChatCall::textArrived);
    QSignalSpy finished(call.get(), &ChatCall::finished);
    QVERIFY(arrived.wait(5000));
    QVERIFY(!call->isFinished());
    call->stop();
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(call->wasStopped());
    QVERIFY(!call->result().ok());
    QCOMPARE(call->result().error(), QStringLiteral("Stopped."));
    QCOMPARE(call->partial().content, QStringLiteral("Once"));
}

void TstChatClient::refusedCallFinishesLater()
{
    ChatClient client;
    ChatRequest request = requestTo(QUrl(QStringLiteral("http://192.0.2.1:8080/v1")));
    request.apiKey = QStringLiteral("secret");
    std::unique_ptr<ChatCall> call(client.start(request));
    QSignalSpy finished(call.get(), &ChatCall::finished);
    QVERIFY(call->isFinished());   // the sentence is known at once ...
    QCOMPARE(finished.count(), 0); // ... and told on the next turn of the event loop
    QVERIFY(finished.wait(5000));
    QVERIFY(call->result().error().contains(QLatin1String("Refusing to send the API key")));
}

namespace {

QByteArray jsonAnswer(const QByteArray &status, const QByteArray &body)
{
    return "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: "
           + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

Result<QStringList> modelsOf(ChatClient &client, const QUrl &url, const QString &key = {})
{
    std::unique_ptr<ModelsCall> call(client.listModels(url, key, false, 2000));
    QSignalSpy finished(call.get(), &ModelsCall::finished);
    if (!call->isFinished() || finished.isEmpty())
        finished.wait(5000);
    return call->isFinished() ? call->result()
                              : Result<QStringList>::failure(QStringLiteral("(no end)"));
}

} // namespace

void TstChatClient::listsModels_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QStringList>("ids");
    QTest::newRow("openai") << QByteArray(
        R"({"object":"list","data":[{"id":"gpt-x","object":"model"},{"id":"tiny"}]})")
                            << QStringList{QStringLiteral("gpt-x"), QStringLiteral("tiny")};
    QTest::newRow("ollama") << QByteArray(R"({"models":[{"name":"llama3:8b"}]})")
                            << QStringList{QStringLiteral("llama3:8b")};
    QTest::newRow("none") << QByteArray(R"({"data":[]})") << QStringList{};
}

void TstChatClient::listsModels()
{
    QFETCH(QByteArray, body);
    QFETCH(QStringList, ids);
    StubServer server(jsonAnswer("200 OK", body));
    QVERIFY(server.listen());
    ChatClient client;
    const Result<QStringList> models = modelsOf(client, server.baseUrl(), QStringLiteral("k"));
    QVERIFY2(models.ok(), qPrintable(models.error()));
    QCOMPARE(*models, ids);
    QVERIFY(server.received().startsWith("GET /v1/models HTTP/1.1"));
    QVERIFY(server.received().contains("Authorization: Bearer k"));
}

void TstChatClient::modelsErrorsNameTheEndpoint()
{
    ChatClient client;
    {
        StubServer server(jsonAnswer("401 Unauthorized", R"({"error":{"message":"bad key"}})"));
        QVERIFY(server.listen());
        const Result<QStringList> models = modelsOf(client, server.baseUrl());
        QVERIFY(!models.ok());
        QVERIFY2(models.error().contains(server.baseUrl().toString() + QStringLiteral("/models"))
                     && models.error().contains(QLatin1String("HTTP 401"))
                     && models.error().contains(QLatin1String("bad key")),
                 qPrintable(models.error()));
    }
    {
        StubServer server(jsonAnswer("200 OK", "<html>not an API</html>"));
        QVERIFY(server.listen());
        const Result<QStringList> models = modelsOf(client, server.baseUrl());
        QVERIFY2(models.error().contains(QLatin1String("did not answer with a list of models")),
                 qPrintable(models.error()));
    }
    {
        StubServer silent{QByteArray()};
        QVERIFY(silent.listen());
        const Result<QStringList> models = modelsOf(client, silent.baseUrl());
        QVERIFY2(models.error().contains(QLatin1String("did not list its models in time"))
                     && models.error().contains(silent.baseUrl().toString()),
                 qPrintable(models.error()));
    }
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const QUrl url(QStringLiteral("http://127.0.0.1:%1/v1").arg(probe.serverPort()));
        probe.close();
        const Result<QStringList> models = modelsOf(client, url);
        QVERIFY2(models.error().startsWith(QLatin1String("Cannot reach the model server at "))
                     && models.error().contains(url.toString()),
                 qPrintable(models.error()));
    }
    const Result<QStringList> refused = modelsOf(client,
                                                 QUrl(QStringLiteral("http://192.0.2.1:8080/v1")),
                                                 QStringLiteral("k"));
    QVERIFY2(refused.error().startsWith(QLatin1String("Refusing to send the API key")),
             qPrintable(refused.error()));
}

void TstChatClient::keyOverPlainHttpWhenAllowed()
{
    // Nothing listens at the address; what matters is that the key is not
    // refused before connecting once the author said yes.
    ChatClient client;
    ChatRequest request = requestTo(QUrl(QStringLiteral("http://192.0.2.1:9/v1")));
    request.apiKey = QStringLiteral("k");
    request.timeoutMs = 200;
    request.keyOverPlainHttp = true;
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY(!reply.ok());
    QVERIFY2(!reply.error().startsWith(QLatin1String("Refusing")), qPrintable(reply.error()));
    request.keyOverPlainHttp = false;
    QVERIFY(client.exchange(request).error().startsWith(QLatin1String("Refusing")));
}

void TstChatClient::headersThenNothingEndsAtTheIdleDeadline()
{
    FeedingServer server(StreamHead, {}, 10, 0);
    QVERIFY(server.listen());
    ChatClient client;
    ChatRequest request = requestTo(server.baseUrl());
    request.timeoutMs = 60000;
    request.idleTimeoutMs = 300;
    QElapsedTimer clock;
    clock.start();
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("sent nothing for 0.3 s")),
             qPrintable(reply.error()));
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
}

void TstChatClient::dripEndsAtTheTotalDeadline()
{
    // A comment every 50 ms keeps the idle deadline away; the total one ends it.
    FeedingServer server(
        StreamHead, [] { return QByteArray(": x\n"); }, 50, 1 << 20);
    QVERIFY(server.listen());
    ChatClient client;
    ChatRequest request = requestTo(server.baseUrl());
    request.timeoutMs = 700;
    request.idleTimeoutMs = 400;
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("did not finish its reply within 0.7 s")),
             qPrintable(reply.error()));
    QVERIFY(server.sent() > 0);
}

void TstChatClient::endlessReplyIsCut()
{
    const QByteArray event = "data: {\"choices\":[{\"delta\":{\"content\":\""
                             + QByteArray(1000, 'x') + "\"}}]}\n\n";
    FeedingServer server(
        StreamHead, [event] { return event.repeated(16); }, 0, qint64(64) << 20);
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY2(reply.ok(), qPrintable(reply.error()));
    QCOMPARE(reply->content.size(), ChatLimits::MaxReplyChars);
    QVERIFY2(reply->cut.contains(QLatin1String("was cut at 1048576 characters")),
             qPrintable(reply->cut));
    // It stopped reading soon after the cut, not at the server's end.
    QVERIFY2(server.sent() < (qint64(16) << 20), qPrintable(QString::number(server.sent())));
}

void TstChatClient::endlessCommentsAreBounded()
{
    FeedingServer server(
        StreamHead,
        [] { return QByteArray(": keep-alive\n").repeated(5000); },
        0,
        qint64(200) << 20);
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("sent more than 64 MiB for one reply")),
             qPrintable(reply.error()));
}

void TstChatClient::oneHugeLineIsRefused()
{
    bool first = true;
    FeedingServer server(
        StreamHead,
        [&first] {
            const QByteArray piece = (first ? QByteArray("data: ") : QByteArray())
                                     + QByteArray(64 << 10, 'x');
            first = false;
            return piece;
        },
        0,
        qint64(8) << 20);
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("sent one event of more than 1 MiB")),
             qPrintable(reply.error()));
}

void TstChatClient::compressedReplyIsNotExpanded()
{
    // Eight bytes that a gzip reader would take as the start of a stream.
    StubServer server("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                      "Content-Encoding: gzip\r\nConnection: close\r\n\r\n"
                      "\x1f\x8b\x08\x00\x00\x00\x00\x00");
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("sent its reply compressed (Content-Encoding: "
                                                  "gzip)")),
             qPrintable(reply.error()));
    QVERIFY(server.received().contains("Accept-Encoding: identity"));
}

void TstChatClient::serverTextIsEscaped()
{
    const QByteArray body = R"({"error":{"message":"\u001b[2J\u001b[31mowned\u202e\r\nX"}})";
    StubServer server("HTTP/1.1 500 Oops\x1b[1m\r\nContent-Type: application/json\r\n"
                      "Content-Length: "
                      + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY(!reply.ok());
    const QString error = reply.error();
    QVERIFY2(error.contains(QLatin1String("\\x1b[2J\\x1b[31mowned\\u{202e}\\x0d\\x0aX")),
             qPrintable(error));
    for (const QChar c : error)
        QVERIFY2(c.unicode() >= 0x20 && c.unicode() != 0x7f && c.unicode() != 0x202e,
                 qPrintable(error));
}

void TstChatClient::impossibleUsage_data()
{
    QTest::addColumn<QByteArray>("usage");
    QTest::addColumn<QString>("said");
    QTest::newRow("negative") << QByteArray(R"({"prompt_tokens":-5,"completion_tokens":2})")
                              << QStringLiteral("prompt_tokens is -5");
    QTest::newRow("1e300") << QByteArray(R"({"prompt_tokens":5,"completion_tokens":1e300})")
                           << QStringLiteral("completion_tokens is 1.0000000000000001e+300");
    QTest::newRow("over 2^53") << QByteArray(
        R"({"prompt_tokens":9007199254740993,"completion_tokens":1})")
                               << QStringLiteral("prompt_tokens is 9007199254740992");
    QTest::newRow("fraction") << QByteArray(R"({"prompt_tokens":1.5,"completion_tokens":1})")
                              << QStringLiteral("prompt_tokens is 1.5");
    QTest::newRow("string") << QByteArray(R"({"prompt_tokens":"12","completion_tokens":1})")
                            << QStringLiteral("prompt_tokens is \"12\"");
}

void TstChatClient::impossibleUsage()
{
    QFETCH(QByteArray, usage);
    QFETCH(QString, said);
    StubServer server(sseAnswer("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                                "data: {\"choices\":[],\"usage\":"
                                + usage + "}\n\ndata: [DONE]\n\n"));
    QVERIFY(server.listen());
    ChatClient client;
    const Result<ChatReply> reply = client.exchange(requestTo(server.baseUrl()));
    QVERIFY2(reply.ok(), qPrintable(reply.error()));
    QCOMPARE(reply->content, QStringLiteral("Hi"));
    QVERIFY(!reply->usage.promptTokens);
    QVERIFY(!reply->usage.completionTokens);
    QVERIFY2(reply->usage.impossible.contains(QLatin1String("reported an impossible usage")),
             qPrintable(reply->usage.impossible));
    QVERIFY2(reply->usage.impossible.contains(said), qPrintable(reply->usage.impossible));
}

void TstChatClient::keyWithLineBreakIsRefused()
{
    StubServer server(sseAnswer("data: [DONE]\n\n"));
    QVERIFY(server.listen());
    ChatClient client;
    ChatRequest request = requestTo(server.baseUrl());
    request.apiKey = QStringLiteral("sk-1\r\nX-Injected: yes");
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("holds a control character (a carriage "
                                                  "return)")),
             qPrintable(reply.error()));
    QVERIFY(!reply.error().contains(QLatin1String("sk-1")));
    QVERIFY(server.received().isEmpty());
}

void TstChatClient::urlPasswordCountsAsAKey()
{
    ChatClient client;
    ChatRequest request = requestTo(QUrl(QStringLiteral("http://user:secret@192.0.2.1:9/v1")));
    const Result<ChatReply> reply = client.exchange(request);
    QVERIFY(!reply.ok());
    QVERIFY2(reply.error().contains(QLatin1String("Refusing to send the password in the URL to "
                                                  "http://user@192.0.2.1:9/v1/chat/completions "
                                                  "over plain http")),
             qPrintable(reply.error()));
    QVERIFY(!reply.error().contains(QLatin1String("secret")));
}

QTEST_GUILESS_MAIN(TstChatClient)
#include "tst_chatclient.moc"
