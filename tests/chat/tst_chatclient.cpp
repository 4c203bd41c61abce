// ChatClient against servers in this process that misbehave: one that
// never answers (the deadline), one that is gone (connection refused), one
// that streams something other than JSON, and one that streams properly.

#include "chatclient.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

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

QTEST_GUILESS_MAIN(TstChatClient)
#include "tst_chatclient.moc"
