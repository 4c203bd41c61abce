#include "conversation.h"

#include "disk/atomicwrite.h"
#include "disk/guardedread.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <utility>

namespace soul {

namespace {

QJsonValue countValue(const std::optional<qint64> &count)
{
    return count ? QJsonValue(double(*count)) : QJsonValue(QJsonValue::Null);
}

QJsonObject turnRecord(const ChatTurn &turn)
{
    const QJsonArray messages = chatMessagesJson(turn.messages);
    QJsonObject usage{
        {QStringLiteral("prompt_tokens"), countValue(turn.reply.usage.promptTokens)},
        {QStringLiteral("completion_tokens"), countValue(turn.reply.usage.completionTokens)},
        {QStringLiteral("cached_tokens"), countValue(turn.reply.usage.cachedTokens)},
    };
    QJsonObject response{
        {QStringLiteral("content"), turn.reply.content},
        {QStringLiteral("usage"), usage},
        {QStringLiteral("latency_ms"), double(turn.reply.latencyMs)},
        {QStringLiteral("first_token_ms"), double(turn.reply.firstTokenMs)},
    };
    if (!turn.error.isEmpty())
        response.insert(QStringLiteral("error"), turn.error);
    return QJsonObject{
        {QStringLiteral("soul_sha256"), turn.soulSha256},
        {QStringLiteral("runtime"), turn.runtimeName},
        // A user name and password in the URL are credentials: never written.
        {QStringLiteral("endpoint"), turn.endpoint.toString(QUrl::RemoveUserInfo)},
        {QStringLiteral("model"), turn.model},
        {QStringLiteral("request"), QJsonObject{{QStringLiteral("messages"), messages}}},
        {QStringLiteral("response"), response},
    };
}

} // namespace

QString chatUsageText(const ChatTurn &turn)
{
    const ChatUsage &usage = turn.reply.usage;
    const auto count = [](const std::optional<qint64> &value) {
        return value ? QString::number(*value) : QStringLiteral("not reported");
    };
    QStringList parts;
    parts << QStringLiteral("prompt %1").arg(count(usage.promptTokens));
    QString cached = QStringLiteral("cached %1").arg(count(usage.cachedTokens));
    if (usage.cachedTokens && usage.promptTokens && *usage.promptTokens > 0)
        cached += QStringLiteral(" (%1%)").arg(*usage.cachedTokens * 100 / *usage.promptTokens);
    parts << cached;
    parts << QStringLiteral("completion %1").arg(count(usage.completionTokens));
    parts << (turn.reply.firstTokenMs >= 0
                  ? QStringLiteral("first token %1 ms").arg(turn.reply.firstTokenMs)
                  : QStringLiteral("no text"));
    const qint64 generating = turn.reply.latencyMs - std::max<qint64>(turn.reply.firstTokenMs, 0);
    if (usage.completionTokens && generating > 0) {
        parts << QStringLiteral("%1 tokens/s")
                     .arg(double(*usage.completionTokens) * 1000.0 / double(generating), 0, 'f', 1);
    }
    if (!turn.predicted) {
        parts << QStringLiteral("predicted: none cached (first request)");
    } else {
        parts << QStringLiteral("predicted: stable prefix %1 of %2 soul tokens (%3%)")
                     .arg(turn.predicted->tokens)
                     .arg(turn.predicted->totalTokens)
                     .arg(turn.predicted->percent());
    }
    return parts.join(QStringLiteral(" · "));
}

Conversation::Conversation(QObject *parent)
    : QObject(parent)
{}

Conversation::~Conversation()
{
    // The call is the client's child; quiet it before the turns go.
    if (m_call)
        m_call->disconnect(this);
}

void Conversation::start(FrozenSoul soul)
{
    m_replayQueue.clear();
    m_replaying = false;
    if (m_call) {
        m_call->disconnect(this);
        m_call->stop();
        m_call->deleteLater();
        m_call.clear();
    }
    m_soul = std::move(soul);
    m_started = true;
    m_turns.clear();
}

ChatRequest Conversation::requestFor(const QString &user) const
{
    ChatRequest request;
    request.baseUrl = m_endpoint.baseUrl;
    request.model = m_endpoint.model;
    request.apiKey = m_endpoint.apiKey;
    request.keyOverPlainHttp = m_endpoint.keyOverPlainHttp;
    request.timeoutMs = m_endpoint.timeoutMs;
    request.idleTimeoutMs = m_endpoint.idleTimeoutMs;
    // The bytes are UTF-8 as composed; the JSON body carries them as they are.
    request.messages.append({QStringLiteral("system"), QString::fromUtf8(m_soul.bytes)});
    for (const ChatTurn &turn : m_turns) {
        if (turn.reply.content.isEmpty())
            continue; // a request that got no text is not part of the exchange
        request.messages.append({QStringLiteral("user"), turn.user});
        request.messages.append({QStringLiteral("assistant"), turn.reply.content});
    }
    request.messages.append({QStringLiteral("user"), user});
    return request;
}

std::optional<StablePrefix> Conversation::predictFor(const FrozenSoul &soul)
{
    if (!m_sentBefore)
        return std::nullopt;
    if (m_predictedFrom == m_lastSentSha && m_predictedFor == soul.sha256 && m_lastPrediction)
        return m_lastPrediction;
    if (!m_encoding) {
        Result<TokenEncoding> encoding = tokenEncoding({});
        m_encoding = encoding ? std::move(encoding).value() : byteEncoding();
    }
    m_lastPrediction = stablePrefix(m_lastSentSoul, soul.bytes, *m_encoding);
    m_predictedFrom = m_lastSentSha;
    m_predictedFor = soul.sha256;
    return m_lastPrediction;
}

bool Conversation::send(const QString &user)
{
    if (!m_started || isBusy())
        return false;
    ChatTurn turn;
    turn.user = user;
    const ChatRequest request = requestFor(user);
    turn.messages = request.messages;
    turn.endpoint = request.baseUrl;
    turn.model = request.model;
    turn.soulSha256 = m_soul.sha256;
    turn.runtimeName = m_soul.runtimeName;
    turn.predicted = predictFor(m_soul);
    m_lastSentSoul = m_soul.bytes;
    m_lastSentSha = m_soul.sha256;
    m_sentBefore = true;
    m_turns.append(std::move(turn));
    const int index = int(m_turns.size()) - 1;

    m_call = m_client.start(request);
    connect(m_call, &ChatCall::textArrived, this, [this, index](const QString &piece) {
        m_turns[index].reply = m_call->partial();
        Q_EMIT textArrived(index, piece);
    });
    connect(m_call, &ChatCall::finished, this, [this, index] { take(index); });
    Q_EMIT turnStarted(index);
    return true;
}

void Conversation::take(int index)
{
    ChatCall *call = m_call;
    m_call.clear();
    ChatTurn &turn = m_turns[index];
    turn.done = true;
    turn.stopped = call->wasStopped();
    if (call->result().ok()) {
        turn.reply = call->result().value();
    } else {
        turn.reply = call->partial();
        turn.error = call->result().error();
    }
    call->deleteLater();
    const bool stopped = turn.stopped;
    Q_EMIT turnFinished(index);
    if (stopped)
        m_replayQueue.clear();
    if (!m_replayQueue.isEmpty() && send(m_replayQueue.takeFirst()))
        return;
    m_replayQueue.clear();
    if (m_replaying) {
        m_replaying = false;
        Q_EMIT replayFinished();
    }
}

void Conversation::stop()
{
    m_replayQueue.clear();
    if (m_call)
        m_call->stop();
}

bool Conversation::replay(const QStringList &users)
{
    if (!m_started || isBusy() || users.isEmpty())
        return false;
    m_replayQueue = users;
    m_replaying = true;
    return send(m_replayQueue.takeFirst());
}

QByteArray Conversation::transcript() const
{
    QByteArray lines;
    for (const ChatTurn &turn : m_turns) {
        if (!turn.done)
            continue;
        lines += QJsonDocument(turnRecord(turn)).toJson(QJsonDocument::Compact);
        lines += '\n';
    }
    return lines;
}

Status Conversation::saveTranscript(const QString &path) const
{
    return writeFileAtomically(path, transcript());
}

Result<QList<TranscriptLine>> Conversation::readTranscript(const QString &path)
{
    const Result<QByteArray> bytes = readGuardedFile(path,
                                                     GuardedFile{QStringLiteral("The transcript"),
                                                                 QStringLiteral("a transcript "
                                                                                "(.jsonl)"),
                                                                 QStringLiteral("Soul Studio"),
                                                                 MaxTranscriptBytes});
    if (!bytes)
        return Result<QList<TranscriptLine>>::failure(bytes.error());
    return parseTranscript(*bytes, path);
}

Result<QList<TranscriptLine>> Conversation::parseTranscript(const QByteArray &bytes,
                                                            const QString &path)
{
    using Lines = Result<QList<TranscriptLine>>;
    QList<TranscriptLine> found;
    const QList<QByteArray> lines = bytes.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int number = int(i) + 1;
        const QByteArray line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject()) {
            return Lines::failure(
                QStringLiteral("%1, line %2: not a JSON object (%3). A transcript has one "
                               "request and its response a line, as Save Transcript writes it.")
                    .arg(path)
                    .arg(number)
                    .arg(error.error != QJsonParseError::NoError
                             ? error.errorString()
                             : QStringLiteral("another value")));
        }
        const QJsonObject record = document.object();
        const QJsonArray messages = record.value(QStringLiteral("request"))
                                        .toObject()
                                        .value(QStringLiteral("messages"))
                                        .toArray();
        TranscriptLine entry;
        entry.line = number;
        entry.soulSha256 = record.value(QStringLiteral("soul_sha256")).toString();
        bool hasUser = false;
        for (const QJsonValue &message : messages) {
            const QJsonObject object = message.toObject();
            if (object.value(QStringLiteral("role")).toString() == QLatin1String("user")) {
                entry.user = object.value(QStringLiteral("content")).toString();
                hasUser = true;
            }
        }
        if (!hasUser) {
            return Lines::failure(QStringLiteral("%1, line %2: the request has no user message "
                                                 "(request.messages with role \"user\").")
                                      .arg(path)
                                      .arg(number));
        }
        found.append(entry);
    }
    if (found.isEmpty()) {
        return Lines::failure(
            QStringLiteral("%1 holds no requests: a transcript has one JSON object a line.")
                .arg(path));
    }
    return found;
}

} // namespace soul
