#pragma once

#include "chatclient.h"
#include "diff/souldiff.h"
#include "result.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

// A chat with one persona's soul as it was when the conversation started:
// the soul is frozen, sent byte for byte as the system message of every
// request, and edits made meanwhile do not reach it. Holds the turns, builds
// each request, writes and reads transcripts (JSONL) and replays a
// transcript's user turns in order. No widgets: the Chat dock shows it.
namespace soul {

// The soul a conversation runs on: the bytes Copy Soul gave when it started.
struct FrozenSoul
{
    QByteArray bytes;
    QString runtimeId;
    QString runtimeName;
    QString sha256; // of bytes, in hex
};

// Where the requests go. The key lives here for the session only; it is
// never written to a transcript.
struct ChatEndpoint
{
    QUrl baseUrl;
    QString model;
    QString apiKey;
    bool keyOverPlainHttp = false; // the author said yes to plain http
    int timeoutMs = ChatRequest::DefaultTimeoutMs;
    int idleTimeoutMs = ChatRequest::DefaultIdleTimeoutMs;
};

// One request and its reply.
struct ChatTurn
{
    QString user;
    QList<ChatMessage> messages; // what was sent, the soul first
    QUrl endpoint;
    QString model;
    QString soulSha256;
    QString runtimeName;
    ChatReply reply; // the text so far while streaming
    QString error;   // why the reply ended early or never came; "Stopped." when stopped
    bool done = false;
    bool stopped = false;
    // What a prompt cache could reuse of this soul: its stable prefix against
    // the soul of the request before (in any conversation); std::nullopt for
    // the first request, where nothing can be cached.
    std::optional<StablePrefix> predicted;
};

// One line of a transcript as read back.
struct TranscriptLine
{
    int line = 0; // 1-based
    QString soulSha256;
    QString user; // the request's last user message
};

// The line under a reply: prompt, cached (or "not reported"), completion
// tokens, time to the first token, tokens per second, and the cache the
// stable prefix predicts beside the share the server reported.
QString chatUsageText(const ChatTurn &turn);

class Conversation : public QObject
{
    Q_OBJECT

public:
    explicit Conversation(QObject *parent = nullptr);
    ~Conversation() override;

    // Starts a new conversation on `soul`: the turns are dropped, a reply
    // in flight and a replay are stopped.
    void start(FrozenSoul soul);
    bool isStarted() const { return m_started; }
    const FrozenSoul &soul() const { return m_soul; }

    void setEndpoint(const ChatEndpoint &endpoint) { m_endpoint = endpoint; }
    const ChatEndpoint &endpoint() const { return m_endpoint; }

    // The request that sending `user` now would make: the frozen soul as the
    // system message, the earlier turns that have text, then `user`.
    ChatRequest requestFor(const QString &user) const;

    // Sends `user` on the frozen soul; false (nothing sent) while a reply
    // streams or before start().
    bool send(const QString &user);
    // Ends the reply in flight; its text so far stays in its turn. Also ends
    // a replay.
    void stop();
    bool isBusy() const { return !m_call.isNull(); }
    bool isReplaying() const { return m_replaying; }

    const QList<ChatTurn> &turns() const { return m_turns; }

    // The transcript: one JSON object a line per turn that ended, with the
    // soul's SHA-256, the runtime, the endpoint, the model, the request's
    // messages and the response (content, usage, latency_ms,
    // first_token_ms). Never the key.
    QByteArray transcript() const;
    Status saveTranscript(const QString &path) const;
    // The user turns of a transcript file, in order, read through
    // readGuardedFile() (at most MaxTranscriptBytes; no FIFO or device).
    // Fails with a sentence naming the file and the line.
    static constexpr qint64 MaxTranscriptBytes = qint64(64) << 20;
    static Result<QList<TranscriptLine>> readTranscript(const QString &path);
    static Result<QList<TranscriptLine>> parseTranscript(const QByteArray &bytes,
                                                         const QString &path);

    // Sends `users` one after another, each once the reply before it ended,
    // on the frozen soul. False when busy, not started or `users` is empty.
    bool replay(const QStringList &users);

Q_SIGNALS:
    void turnStarted(int index);
    void textArrived(int index, const QString &piece);
    void turnFinished(int index);
    void replayFinished();

private:
    void take(int index);
    std::optional<StablePrefix> predictFor(const FrozenSoul &soul);

    ChatClient m_client;
    FrozenSoul m_soul;
    bool m_started = false;
    ChatEndpoint m_endpoint;
    QList<ChatTurn> m_turns;
    QPointer<ChatCall> m_call;
    QStringList m_replayQueue;
    bool m_replaying = false;
    // The soul of the last request sent, for the prediction of the next.
    QByteArray m_lastSentSoul;
    QString m_lastSentSha;
    bool m_sentBefore = false;
    // The last prediction and the souls it was made for: a conversation
    // sends the same soul each time, and tokenizing it again is wasted.
    QString m_predictedFrom;
    QString m_predictedFor;
    std::optional<TokenEncoding> m_encoding; // loaded on the first prediction
    std::optional<StablePrefix> m_lastPrediction;
};

} // namespace soul
