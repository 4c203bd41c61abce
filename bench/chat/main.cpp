// soulchat-bench: what our chat client costs per request over a bare HTTP
// client sending the same bytes.
//
// A server on its own thread answers every chat request with the same
// streamed reply (32 deltas, then usage). 100 persona test cases run through
// runPersonaTests() (request building, the streamed reply read through
// ChatClient, every assert checked); a bare client (one QTcpSocket, no
// parsing) sends the very same request bytes and reads the reply to its
// end. The two alternate, round by round, so a change in the machine's load
// reaches both; each row is the median round. Prints JSON:
//   cases, rounds, soul_bytes, client_ms_per_request, bare_ms_per_request,
//   client_overhead_ratio (client / bare; the goal is at most 1.05).

#include "chatclient.h"
#include "personatestfile.h"
#include "personatestrunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace soul;

namespace {

constexpr int Cases = 100;

// The reply's events: 32 deltas, usage, the end.
QList<QByteArray> replyEvents()
{
    QList<QByteArray> events;
    for (int i = 0; i < 32; ++i) {
        events.append("data: {\"choices\":[{\"delta\":{\"content\":\"word" + QByteArray::number(i)
                      + " \"}}]}\n\n");
    }
    events.append("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":900,\"completion_tokens\":32,"
                  "\"prompt_tokens_details\":{\"cached_tokens\":896}}}\n\n");
    events.append("data: [DONE]\n\n");
    return events;
}

// Answers each request, once its body is in, with replyEvents() and closes
// the connection: at once, or paced as a small local model answers (the
// first token after `firstMs`, then one every `tokenMs`).
class ReplyServer : public QObject
{
public:
    ReplyServer(int firstMs, int tokenMs)
        : m_server(new QTcpServer(this))
        , m_events(replyEvents())
        , m_firstMs(firstMs)
        , m_tokenMs(tokenMs)
    {
        connect(m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server->nextPendingConnection()) {
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { take(socket); });
            }
        });
    }
    quint16 listen()
    {
        m_server->listen(QHostAddress::LocalHost);
        return m_server->serverPort();
    }

private:
    void take(QTcpSocket *socket)
    {
        QByteArray &in = m_pending[socket];
        in += socket->readAll();
        const qsizetype end = in.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        qsizetype length = 0;
        for (const QByteArray &line : in.left(end).split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (in.size() < end + 4 + length)
            return;
        m_pending.remove(socket);
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                      "Connection: close\r\n\r\n");
        if (m_firstMs == 0) {
            for (const QByteArray &event : m_events)
                socket->write(event);
            socket->disconnectFromHost();
            return;
        }
        auto *pace = new QTimer(socket);
        pace->setTimerType(Qt::PreciseTimer);
        pace->setInterval(m_firstMs);
        connect(pace, &QTimer::timeout, socket, [this, socket, pace, next = 0]() mutable {
            socket->write(m_events.at(next++));
            pace->setInterval(m_tokenMs);
            if (next == m_events.size()) {
                pace->stop();
                socket->disconnectFromHost();
            }
        });
        pace->start();
    }

    QTcpServer *m_server;
    QList<QByteArray> m_events;
    int m_firstMs;
    int m_tokenMs;
    QHash<QTcpSocket *, QByteArray> m_pending;
};

// The request as it goes on the wire, as QNetworkAccessManager sends it,
// less the headers a bare client has no use for.
QByteArray wireRequest(const ChatRequest &request, quint16 port)
{
    const QByteArray body = chatRequestBody(request);
    return "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
           + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
             "Content-Length: "
           + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

// Sends `bytes` and reads until the server closes; the bytes read.
qint64 bareExchange(const QByteArray &bytes, quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return -1;
    socket.write(bytes);
    qint64 read = 0;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(5000))
        read += socket.readAll().size();
    read += socket.readAll().size();
    return read;
}

QByteArray soulText()
{
    // A persona's soul: Markdown, some of it not ASCII, about 24 KiB.
    QByteArray soul;
    for (int i = 0; soul.size() < 24 * 1024; ++i) {
        soul += "## Rule " + QByteArray::number(i)
                + "\nAva answers plainly, cites her sources and says « je ne sais pas » when she "
                  "does not know.\n\n";
    }
    return soul;
}

QByteArray testsYaml(quint16 port)
{
    QByteArray yaml = "description: bench\nproviders:\n  - id: openai:chat:bench\n"
                      "    config: {apiBaseUrl: http://127.0.0.1:"
                      + QByteArray::number(port)
                      + "/v1, temperature: 0, max_tokens: 64, seed: 1}\ntests:\n";
    for (int i = 0; i < Cases; ++i) {
        yaml += "  - description: case " + QByteArray::number(i)
                + "\n    vars: {message: \"Question " + QByteArray::number(i)
                + "?\"}\n    assert:\n      - {type: icontains, value: word3}\n"
                  "      - {type: not-regex, value: \"as an AI\"}\n"
                  "      - {type: latency, threshold: 60000}\n";
    }
    return yaml;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.at(values.size() / 2);
}

// 100 cases through each client, `rounds` times, against a server that
// paces its replies as given.
QJsonObject measure(int firstMs, int tokenMs, int rounds)
{
    QThread serverThread;
    auto *server = new ReplyServer(firstMs, tokenMs);
    server->moveToThread(&serverThread);
    QObject::connect(&serverThread, &QThread::finished, server, &QObject::deleteLater);
    serverThread.start();
    quint16 port = 0;
    QMetaObject::invokeMethod(
        server, [server] { return server->listen(); }, Qt::BlockingQueuedConnection, &port);
    const auto stopServer = qScopeGuard([&serverThread] {
        serverThread.quit();
        serverThread.wait();
    });
    if (port == 0) {
        std::fprintf(stderr, "soulchat-bench: cannot listen on 127.0.0.1\n");
        return {};
    }

    const QByteArray soul = soulText();
    const Result<PersonaTestFile> file = parsePersonaTests(testsYaml(port),
                                                           QStringLiteral("bench.yaml"));
    if (!file) {
        std::fprintf(stderr, "soulchat-bench: %s\n", qPrintable(file.error()));
        return {};
    }
    const PersonaTestSettings settings;
    std::vector<QByteArray> wire;
    for (const PersonaTestCase &test : file->tests)
        wire.push_back(wireRequest(caseRequest(*file, test, soul, settings), port));

    ChatClient client;
    std::vector<double> clientRounds;
    std::vector<double> bareRounds;
    QElapsedTimer timer;
    for (int round = 0; round < rounds; ++round) {
        timer.start();
        for (const QByteArray &bytes : wire) {
            if (bareExchange(bytes, port) <= 0) {
                std::fprintf(stderr, "soulchat-bench: the bare client got no reply\n");
                return {};
            }
        }
        bareRounds.push_back(double(timer.nsecsElapsed()) / 1e6 / Cases);

        timer.start();
        const Result<PersonaTestRun> run = runPersonaTests(client, *file, soul, settings);
        clientRounds.push_back(double(timer.nsecsElapsed()) / 1e6 / Cases);
        if (!run || run->passed != Cases) {
            std::fprintf(stderr,
                         "soulchat-bench: the cases did not all pass: %s\n",
                         qPrintable(run ? QStringLiteral("%1 failed").arg(run->failed)
                                        : run.error()));
            return {};
        }
    }

    const double clientMs = median(clientRounds);
    const double bareMs = median(bareRounds);
    const auto round3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    return QJsonObject{
        {QStringLiteral("cases"), Cases},
        {QStringLiteral("rounds"), rounds},
        {QStringLiteral("soul_bytes"), soul.size()},
        {QStringLiteral("server_first_token_ms"), firstMs},
        {QStringLiteral("server_token_ms"), tokenMs},
        {QStringLiteral("client_ms_per_request"), round3(clientMs)},
        {QStringLiteral("bare_ms_per_request"), round3(bareMs)},
        {QStringLiteral("client_overhead_ms"), round3(clientMs - bareMs)},
        {QStringLiteral("client_overhead_ratio"), round3(clientMs / bareMs)},
    };
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // instant: the server answers at once, so the rows show the client's
    // own cost in ms. paced: as a small model on this machine answers (the
    // first token after 20 ms, then one every 2 ms: about 86 ms a request),
    // where the goal is a ratio of at most 1.05.
    const QJsonObject instant = measure(0, 0, 7);
    const QJsonObject paced = measure(20, 2, 3);
    if (instant.isEmpty() || paced.isEmpty())
        return 1;
    const QJsonObject result{{QStringLiteral("chat_client_instant"), instant},
                             {QStringLiteral("chat_client_paced"), paced}};
    std::fputs(QJsonDocument(result).toJson(QJsonDocument::Indented).constData(), stdout);
    return 0;
}
