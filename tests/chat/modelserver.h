#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <functional>
#include <optional>
#include <utility>

namespace soul::chattest {

// An SSE event of a streamed delta.
inline QByteArray deltaEvent(const QString &text)
{
    const QJsonObject delta{{QStringLiteral("content"), text}};
    const QJsonObject choice{{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta}};
    const QJsonObject event{{QStringLiteral("choices"), QJsonArray{choice}}};
    return "data: " + QJsonDocument(event).toJson(QJsonDocument::Compact) + "\n\n";
}

// An OpenAI-compatible server in the test's own process, for the chat, the
// suites and the window's docks. It records every request (its request line,
// headers and body), answers GET /v1/models with models() and POST
// /v1/chat/completions with an SSE stream: the events given to setEvents(),
// else the reply setAnswer()'s function gives for the request's body ("You
// said: " and the last turn by default) after an SSE comment, in three
// pieces, followed by setUsage()'s usage and [DONE]; with setStatus() other
// than 200, an error body. While held, a reply sends its first `sentFirst` events and
// keeps the rest until release().
class ModelServer : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QByteArray head; // request line and headers
        QByteArray body;
        bool isChat() const { return head.startsWith("POST "); }
        QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    };

    explicit ModelServer(QObject *parent = nullptr)
        : QObject(parent)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
            }
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl baseUrl() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_server.serverPort()));
    }

    void setEvents(QList<QByteArray> events) { m_events = std::move(events); }
    void setAnswer(std::function<QString(const QJsonObject &)> answer)
    {
        m_answer = std::move(answer);
    }
    void setModels(QByteArray json) { m_models = std::move(json); }
    struct Usage
    {
        int prompt = 100;
        int completion = 10;
        std::optional<int> cached = 64; // nullopt: not reported
    };
    void setUsage(Usage usage) { m_usage = usage; }
    void setStatus(int status) { m_status = status; }
    void hold(int sentFirst = 0)
    {
        m_held = true;
        m_sentFirst = sentFirst;
    }
    // Sends what is held back and ends those replies.
    void release()
    {
        m_held = false;
        const auto waiting = std::exchange(m_waiting, {});
        for (const auto &[socket, rest] : waiting) {
            if (!socket)
                continue;
            for (const QByteArray &chunk : rest)
                socket->write(chunk);
            socket->disconnectFromHost();
        }
    }

    const QList<Request> &requests() const { return m_requests; }
    // The JSON bodies of the chat requests, in order.
    QList<QJsonObject> chats() const
    {
        QList<QJsonObject> bodies;
        for (const Request &request : m_requests) {
            if (request.isChat())
                bodies.append(request.json());
        }
        return bodies;
    }
    qsizetype chatRequests() const { return chats().size(); }
    QJsonObject chatBody(qsizetype n) const { return chats().value(n); }
    QByteArray chatRawBody(qsizetype n) const
    {
        for (const Request &request : m_requests) {
            if (request.isChat() && n-- == 0)
                return request.body;
        }
        return {};
    }
    // A request's system message (its first) and last turn.
    static QString systemMessage(const QJsonObject &body) { return message(body, true); }
    static QString lastTurn(const QJsonObject &body) { return message(body, false); }
    // The last turn of each chat request, in order.
    QStringList userTurns() const
    {
        QStringList turns;
        for (const QJsonObject &body : chats())
            turns.append(lastTurn(body));
        return turns;
    }

Q_SIGNALS:
    void received();

private:
    static QString message(const QJsonObject &body, bool first)
    {
        const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
        if (messages.isEmpty())
            return {};
        return (first ? messages.first() : messages.last())
            .toObject()
            .value(QStringLiteral("content"))
            .toString();
    }

    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        const QByteArray head = buffer.left(headerEnd);
        qsizetype length = 0;
        for (const QByteArray &line : head.split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (buffer.size() < headerEnd + 4 + length)
            return;
        const Request request{head, buffer.mid(headerEnd + 4, length)};
        m_buffers.remove(socket);
        m_requests.append(request);
        answer(socket, request);
        Q_EMIT received();
    }

    void answer(QTcpSocket *socket, const Request &request)
    {
        if (!request.isChat()) {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                          + QByteArray::number(m_models.size()) + "\r\nConnection: close\r\n\r\n"
                          + m_models);
            socket->disconnectFromHost();
            return;
        }
        if (m_status != 200) {
            const QByteArray error = R"({"error":{"message":"the model is not loaded"}})";
            socket->write("HTTP/1.1 " + QByteArray::number(m_status)
                          + " Internal Server Error\r\nContent-Type: application/json\r\n"
                            "Content-Length: "
                          + QByteArray::number(error.size()) + "\r\nConnection: close\r\n\r\n"
                          + error);
            socket->disconnectFromHost();
            return;
        }
        QList<QByteArray> chunks{"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                 "Connection: close\r\n\r\n"};
        chunks += m_events.isEmpty() ? answerEvents(request.json()) : m_events;
        const qsizetype sent = m_held ? qMin<qsizetype>(m_sentFirst + 1, chunks.size())
                                      : chunks.size();
        for (qsizetype i = 0; i < sent; ++i)
            socket->write(chunks.at(i));
        if (m_held)
            m_waiting.append({QPointer<QTcpSocket>(socket), chunks.mid(sent)});
        else
            socket->disconnectFromHost();
    }

    QList<QByteArray> answerEvents(const QJsonObject &body) const
    {
        const QString text = m_answer ? m_answer(body)
                                      : QStringLiteral("You said: ") + lastTurn(body);
        QJsonObject usage{{QStringLiteral("prompt_tokens"), m_usage.prompt},
                          {QStringLiteral("completion_tokens"), m_usage.completion}};
        if (m_usage.cached)
            usage.insert(QStringLiteral("prompt_tokens_details"),
                         QJsonObject{{QStringLiteral("cached_tokens"), *m_usage.cached}});
        const QJsonObject last{{QStringLiteral("choices"), QJsonArray{}},
                               {QStringLiteral("usage"), usage}};
        const qsizetype third = text.size() / 3;
        return {": a comment\n\n",
                deltaEvent(text.left(third)),
                deltaEvent(text.mid(third, third)),
                deltaEvent(text.mid(2 * third)),
                "data: " + QJsonDocument(last).toJson(QJsonDocument::Compact) + "\n\n",
                "data: [DONE]\n\n"};
    }

    QTcpServer m_server;
    QList<QByteArray> m_events;
    std::function<QString(const QJsonObject &)> m_answer;
    QByteArray m_models = R"({"object":"list","data":[{"id":"tiny-a"},{"id":"tiny-b"}]})";
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QList<Request> m_requests;
    bool m_held = false;
    int m_sentFirst = 0;
    Usage m_usage;
    int m_status = 200;
    QList<std::pair<QPointer<QTcpSocket>, QList<QByteArray>>> m_waiting;
};

} // namespace soul::chattest
