#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <memory>
#include <utility>

namespace soul::chattest {

// An OpenAI-compatible server in the test's process that records every
// request it receives (its request line, headers and body) and answers
// GET /v1/models with `models` and POST /v1/chat/completions with `events`
// as an SSE stream. With hold(), a chat request gets the first event and
// then nothing more until release(), so a test can stop a reply midway.
class RecordingServer : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QByteArray head; // request line and headers
        QByteArray body;
        QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    };

    explicit RecordingServer(QObject *parent = nullptr)
        : QObject(parent)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                auto buffer = std::make_shared<QByteArray>();
                connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
                    *buffer += socket->readAll();
                    const qsizetype end = buffer->indexOf("\r\n\r\n");
                    if (end < 0)
                        return;
                    const QByteArray head = buffer->left(end);
                    qsizetype length = 0;
                    for (const QByteArray &line : head.split('\n')) {
                        if (line.toLower().startsWith("content-length:"))
                            length = line.mid(15).trimmed().toLongLong();
                    }
                    if (buffer->size() < end + 4 + length)
                        return;
                    Request request{head, buffer->mid(end + 4, length)};
                    buffer->clear();
                    m_requests.append(request);
                    answer(socket, request);
                    Q_EMIT received();
                });
            }
        });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost); }
    QUrl baseUrl() const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(m_server.serverPort()));
    }

    void setEvents(QList<QByteArray> events) { m_events = std::move(events); }
    void setModels(QByteArray json) { m_models = std::move(json); }
    void hold() { m_hold = true; }
    // Sends what is held back and ends the reply.
    void release()
    {
        m_hold = false;
        if (m_held) {
            for (qsizetype i = 1; i < m_events.size(); ++i)
                m_held->write(m_events.at(i));
            m_held->disconnectFromHost();
        }
    }

    const QList<Request> &requests() const { return m_requests; }
    qsizetype chatRequests() const
    {
        qsizetype count = 0;
        for (const Request &request : m_requests)
            count += request.head.startsWith("POST ") ? 1 : 0;
        return count;
    }
    // The JSON body of the n-th chat request.
    QJsonObject chatBody(qsizetype n) const
    {
        for (const Request &request : m_requests) {
            if (request.head.startsWith("POST ") && n-- == 0)
                return request.json();
        }
        return {};
    }
    QByteArray chatRawBody(qsizetype n) const
    {
        for (const Request &request : m_requests) {
            if (request.head.startsWith("POST ") && n-- == 0)
                return request.body;
        }
        return {};
    }

Q_SIGNALS:
    void received();

private:
    void answer(QTcpSocket *socket, const Request &request)
    {
        if (request.head.startsWith("GET ")) {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                          + QByteArray::number(m_models.size()) + "\r\nConnection: close\r\n\r\n"
                          + m_models);
            socket->disconnectFromHost();
            return;
        }
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: "
                      "close\r\n\r\n");
        if (m_hold) {
            if (!m_events.isEmpty())
                socket->write(m_events.first());
            m_held = socket;
            return;
        }
        for (const QByteArray &event : m_events)
            socket->write(event);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QList<QByteArray> m_events;
    QByteArray m_models = R"({"object":"list","data":[{"id":"tiny-a"},{"id":"tiny-b"}]})";
    QList<Request> m_requests;
    bool m_hold = false;
    QPointer<QTcpSocket> m_held;
};

// An SSE event of a streamed delta.
inline QByteArray deltaEvent(const QString &text)
{
    const QJsonObject delta{{QStringLiteral("content"), text}};
    const QJsonObject choice{{QStringLiteral("delta"), delta}};
    const QJsonObject event{{QStringLiteral("choices"), QJsonArray{choice}}};
    return "data: " + QJsonDocument(event).toJson(QJsonDocument::Compact) + "\n\n";
}

} // namespace soul::chattest
