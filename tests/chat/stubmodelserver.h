#pragma once

// An OpenAI-compatible chat server in the test's own process: it records
// every request's JSON body and streams back the reply `answer` gives for
// it, with usage. While held, it keeps requests unanswered until
// release(). Shared by the chat tests and the window's Tests panel test.

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <functional>

class StubModelServer : public QObject
{
    Q_OBJECT

public:
    explicit StubModelServer(QObject *parent = nullptr)
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
    // The reply's text for a request's body; by default "You said: " and
    // the last turn.
    void setAnswer(std::function<QString(const QJsonObject &)> answer)
    {
        m_answer = std::move(answer);
    }
    void hold() { m_held = true; }
    void release()
    {
        m_held = false;
        const auto waiting = m_waiting;
        m_waiting.clear();
        for (const auto &[socket, body] : waiting) {
            if (socket)
                respond(socket, body);
        }
    }
    const QList<QJsonObject> &requests() const { return m_requests; }
    // A request's system message (its first).
    static QString systemMessage(const QJsonObject &request)
    {
        return request.value(QStringLiteral("messages"))
            .toArray()
            .first()
            .toObject()
            .value(QStringLiteral("content"))
            .toString();
    }
    // The last turn of each request, in order.
    QStringList userTurns() const
    {
        QStringList turns;
        for (const QJsonObject &request : m_requests)
            turns.append(request.value(QStringLiteral("messages"))
                             .toArray()
                             .last()
                             .toObject()
                             .value(QStringLiteral("content"))
                             .toString());
        return turns;
    }

Q_SIGNALS:
    void requestReceived();

private:
    void read(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        qsizetype length = 0;
        for (const QByteArray &line : buffer.left(headerEnd).split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (buffer.size() < headerEnd + 4 + length)
            return;
        const QJsonObject body = QJsonDocument::fromJson(buffer.mid(headerEnd + 4, length)).object();
        buffer.clear();
        m_requests.append(body);
        Q_EMIT requestReceived();
        if (m_held)
            m_waiting.append({QPointer<QTcpSocket>(socket), body});
        else
            respond(socket, body);
    }

    void respond(QTcpSocket *socket, const QJsonObject &body)
    {
        const QString text = m_answer ? m_answer(body)
                                      : QStringLiteral("You said: ")
                                            + body.value(QStringLiteral("messages"))
                                                  .toArray()
                                                  .last()
                                                  .toObject()
                                                  .value(QStringLiteral("content"))
                                                  .toString();
        const QJsonObject delta{
            {QStringLiteral("choices"),
             QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                    {QStringLiteral("delta"),
                                     QJsonObject{{QStringLiteral("content"), text}}}}}}};
        const QJsonObject usage{{QStringLiteral("choices"), QJsonArray{}},
                                {QStringLiteral("usage"),
                                 QJsonObject{{QStringLiteral("prompt_tokens"), 100},
                                             {QStringLiteral("completion_tokens"), 10},
                                             {QStringLiteral("prompt_tokens_details"),
                                              QJsonObject{{QStringLiteral("cached_tokens"), 64}}}}}};
        QByteArray out = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                         "Connection: close\r\n\r\n";
        out += "data: " + QJsonDocument(delta).toJson(QJsonDocument::Compact) + "\n\n";
        out += "data: " + QJsonDocument(usage).toJson(QJsonDocument::Compact) + "\n\n";
        out += "data: [DONE]\n\n";
        socket->write(out);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    std::function<QString(const QJsonObject &)> m_answer;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QList<QJsonObject> m_requests;
    bool m_held = false;
    QList<std::pair<QPointer<QTcpSocket>, QJsonObject>> m_waiting;
};
