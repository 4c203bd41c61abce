#pragma once

#include "result.h"
#include "sseparser.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QList>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <optional>

// A client for OpenAI-compatible chat completions (/v1/chat/completions, as
// OpenAI, llama.cpp's server, vLLM and Ollama serve them), always streamed:
// the reply's text, its token usage and its timings.
namespace soul {

struct ChatMessage
{
    QString role; // "system", "user" or "assistant"
    QString content;
};

struct ChatRequest
{
    QUrl baseUrl; // the API's base, such as http://127.0.0.1:8080/v1
    QString model;
    QList<ChatMessage> messages;
    std::optional<double> temperature;
    std::optional<qint64> maxTokens;
    std::optional<qint64> seed;
    QString apiKey; // sent as "Authorization: Bearer" when not empty
    // The author said yes to sending apiKey over plain http to a host that
    // is not this machine; without it such a request is refused.
    bool keyOverPlainHttp = false;
    int timeoutMs = DefaultTimeoutMs;         // the whole exchange, first byte to last
    int idleTimeoutMs = DefaultIdleTimeoutMs; // the longest wait for the next byte

    static constexpr int DefaultTimeoutMs = 120000;
    static constexpr int DefaultIdleTimeoutMs = 30000;
};

// What one reply may take from a server, each named in a sentence when hit.
struct ChatLimits
{
    // The reply's text: past it the reply is cut there and says so (cut).
    static constexpr qsizetype MaxReplyChars = qsizetype(1) << 20;
    // Everything the server sends for one reply: events, comments, usage.
    static constexpr qsizetype MaxStreamBytes = qsizetype(64) << 20;
    // A reply that is not streamed, as one JSON object.
    static constexpr qsizetype MaxWholeBytes = qsizetype(16) << 20;
    // Token counts of 2^53 and more are not exact in JSON's numbers.
    static constexpr double MaxUsage = 9007199254740992.0;
};

// Token usage as the server reports it; a count it leaves out stays
// std::nullopt, which is not the same as 0 (a server that reports no cache
// hits says cached_tokens: 0).
struct ChatUsage
{
    std::optional<qint64> promptTokens;
    std::optional<qint64> completionTokens;
    std::optional<qint64> cachedTokens;
    // A count that no server can mean (negative, not finite, 2^53 or more), as
    // a sentence; the counts are then all left out.
    QString impossible;
};

struct ChatReply
{
    QString content;
    // Why the reply is not whole though it ended (it passed
    // ChatLimits::MaxReplyChars and was cut there), as a sentence; empty
    // when it is whole.
    QString cut;
    ChatUsage usage;
    qint64 firstTokenMs = -1; // -1: no text came
    qint64 latencyMs = 0;
};

// The URL's host is this machine (localhost or a loopback address).
bool isLoopback(const QUrl &url);

// <base>/chat/completions.
QUrl chatCompletionsUrl(const QUrl &baseUrl);
// The messages as the API takes them: [{"role": ..., "content": ...}, ...].
QJsonArray chatMessagesJson(const QList<ChatMessage> &messages);
// The request's JSON body: model, messages, stream with usage, and the
// sampling settings that are given.
QByteArray chatRequestBody(const ChatRequest &request);
// Why an API key must not go to `url` (plain http to a host other than this
// machine), as a sentence; empty when it may. `variable` names where the key
// came from, so the sentence can say what to unset.
QString keyTransportProblem(const QUrl &url,
                            const QString &variable = QStringLiteral("OPENAI_API_KEY"));
// Why `key` cannot go in a header (a line break or another control
// character would end the header or start another), as a sentence naming
// `variable` (or "the API key" when it is empty); empty when it can.
QString keyTextProblem(const QString &key,
                       const QString &variable = QStringLiteral("OPENAI_API_KEY"));
// Text a server sent, fit to show: control characters (escape sequences, line
// breaks) and bidirectional overrides written as \xNN or \u{NNNN}.
QString printableServerText(const QString &text);

// A streamed reply as its bytes arrive: the SSE events' deltas put together.
class ChatStream
{
public:
    explicit ChatStream(QUrl endpoint);
    // False once an event is not JSON or is an error the server sent; error()
    // then says which. `elapsedMs` is when the bytes came, for the first token.
    bool feed(QByteArrayView bytes, qint64 elapsedMs);
    // The end of the bytes: what is still buffered is taken.
    bool finish(qint64 elapsedMs);
    // A whole reply in one JSON object, from a server that does not stream
    // (its choices[0].message instead of deltas).
    bool takeWhole(const QByteArray &json, qint64 elapsedMs);

    const ChatReply &reply() const { return m_reply; }
    const QString &error() const { return m_error; }
    bool done() const { return m_parser.done(); }
    // The reply reached ChatLimits::MaxReplyChars: nothing more is taken.
    bool isCut() const { return !m_reply.cut.isEmpty(); }

private:
    bool takeEvents(const QList<QByteArray> &events, qint64 elapsedMs);

    QUrl m_endpoint;
    SseParser m_parser;
    ChatReply m_reply;
    QString m_error;
};

// One request in flight: its reply's text as it streams, and its end. It
// ends once, with finished(); result() then holds the reply or the sentence
// saying why there is none. Deleting it aborts the request.
class ChatCall : public QObject
{
    Q_OBJECT

public:
    ~ChatCall() override;

    const ChatRequest &request() const { return m_request; }
    // The reply so far: its text, and its usage once the server sent it.
    const ChatReply &partial() const { return m_stream.reply(); }
    bool isFinished() const { return m_result.has_value(); }
    // Valid once isFinished().
    const Result<ChatReply> &result() const { return *m_result; }
    // Ends the request now; the reply so far is kept in partial(), and
    // result() says it was stopped.
    void stop();
    bool wasStopped() const { return m_stopped; }

Q_SIGNALS:
    // New text of the reply, in order; partial() holds all of it.
    void textArrived(const QString &piece);
    void finished();

private:
    friend class ChatClient;
    ChatCall(const ChatRequest &request, QObject *parent);
    void begin(QNetworkAccessManager &manager);
    void take();
    void end();
    Result<ChatReply> outcome();
    void fail(const QString &sentence);

    ChatRequest m_request;
    QUrl m_url;
    ChatStream m_stream;
    // The manager owns it; it may go first when the client is destroyed.
    QPointer<QNetworkReply> m_reply;
    void abortFor(const QString &sentence);
    void armIdle();

    QElapsedTimer m_clock;
    QTimer m_deadline;
    QTimer m_idle;
    QByteArray m_errorBody;
    QByteArray m_wholeBody; // a reply that is not streamed
    qint64 m_received = 0;  // every byte of the body so far
    QString m_limitHit;     // why the call was ended early by a limit
    bool m_timedOut = false;
    bool m_stopped = false;
    std::optional<Result<ChatReply>> m_result;
};

// One GET <base>/models in flight: the ids of the models the server offers.
// It ends once, with finished(); deleting it aborts the request.
class ModelsCall : public QObject
{
    Q_OBJECT

public:
    ~ModelsCall() override;

    bool isFinished() const { return m_result.has_value(); }
    // Valid once isFinished(): the ids in the server's order, or a sentence
    // naming the endpoint.
    const Result<QStringList> &result() const { return *m_result; }

Q_SIGNALS:
    void finished();

private:
    friend class ChatClient;
    ModelsCall(QUrl baseUrl, QObject *parent);
    void begin(QNetworkAccessManager &manager, const QString &apiKey, bool keyOverPlainHttp);
    void end();
    void fail(const QString &sentence);

    QUrl m_baseUrl;
    QUrl m_url;
    // The manager owns it; it may go first when the client is destroyed.
    QPointer<QNetworkReply> m_reply;
    QTimer m_deadline;
    static constexpr qsizetype MaxModelsBytes = qsizetype(4) << 20;
    QByteArray m_body;
    int m_timeoutMs = 15000;
    bool m_timedOut = false;
    bool m_tooLarge = false;
    std::optional<Result<QStringList>> m_result;
};

// <base>/models.
QUrl modelsUrl(const QUrl &baseUrl);
// The model ids of a /models answer: OpenAI's {"data": [{"id": ...}]} (as
// llama.cpp, vLLM, LM Studio and Ollama's /v1 serve it) or Ollama's own
// {"models": [{"name": ...}]}. Fails with a sentence naming `url`.
Result<QStringList> modelIdsIn(const QByteArray &json, const QUrl &url);

// Sends chat requests. Owns its network access manager. A loopback server
// is reached without a proxy.
class ChatClient : public QObject
{
    Q_OBJECT

public:
    explicit ChatClient(QObject *parent = nullptr);

    // Starts `request` and returns at once; the call is a child of this
    // client, and the caller deletes it when done with it (deleting it
    // aborts the request). A request that cannot be sent (not an http URL,
    // a key refused for plain http) finishes on the next turn of the event
    // loop with its sentence.
    ChatCall *start(const ChatRequest &request);

    // Sends `request` and waits for the whole reply in a local event loop
    // (the caller's thread needs a QCoreApplication). Fails with a sentence
    // naming the endpoint: the key refused for plain http, the server not
    // reached, an HTTP error with what the server said, a stream that is
    // not JSON, or the deadline passed.
    Result<ChatReply> exchange(const ChatRequest &request);

    // Asks the server at `baseUrl` for its models (GET <base>/models) and
    // returns at once; the call is a child of this client, deleted by the
    // caller. Refuses `apiKey` over plain http as start() does. Fails with a
    // sentence naming the endpoint: not reached, an HTTP error, an answer
    // that is not a model list, no answer within `timeoutMs`.
    ModelsCall *listModels(const QUrl &baseUrl,
                           const QString &apiKey = {},
                           bool keyOverPlainHttp = false,
                           int timeoutMs = 15000);

private:
    QNetworkAccessManager m_manager;
};

} // namespace soul
