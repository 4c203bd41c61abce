#include "chatclient.h"

#include "compose/displaytext.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <cmath>
#include <utility>

namespace soul {

namespace {

// What a server said, short enough for one line of an error.
QString excerpt(const QByteArray &bytes)
{
    constexpr qsizetype Limit = 300;
    QString text = printableServerText(QString::fromUtf8(bytes.left(Limit)).simplified());
    if (bytes.size() > Limit)
        text += QStringLiteral("...");
    return text;
}

// A token count of a usage object: absent stays std::nullopt; one that no
// server can mean is named in `impossible`.
std::optional<qint64> countIn(const QJsonObject &object, const QString &key, QString &impossible)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    const double count = value.toDouble(-1.0);
    if (!value.isDouble() || !std::isfinite(count) || count < 0 || count >= ChatLimits::MaxUsage
        || count != std::floor(count)) {
        if (impossible.isEmpty()) {
            const QString shown
                = value.isDouble()
                      ? QString::number(value.toDouble(), 'g', 17)
                      : QString::fromUtf8(
                            QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
                            .mid(1)
                            .chopped(1);
            impossible = QStringLiteral("%1 is %2, which is not a count of tokens")
                             .arg(key, printableServerText(shown.left(60)));
        }
        return std::nullopt;
    }
    return qint64(count);
}

// The text an error object holds: {"error": {"message": ...}} or {"error": "..."}.
QString serverErrorText(const QJsonValue &error)
{
    if (error.isString())
        return printableServerText(error.toString().left(1000));
    const QString message = error.toObject().value(QStringLiteral("message")).toString();
    return printableServerText(
        message.isEmpty()
            ? QString::fromUtf8(QJsonDocument(error.toObject()).toJson(QJsonDocument::Compact))
                  .left(1000)
            : message.left(1000));
}

// <base><path>, however many slashes the base ends in.
QUrl apiUrl(const QUrl &baseUrl, const QString &path)
{
    QUrl url = baseUrl;
    QString basePath = url.path();
    while (basePath.endsWith(QLatin1Char('/')))
        basePath.chop(1);
    url.setPath(basePath + path);
    return url;
}

// Why a request to `url` cannot be sent, as a sentence; empty when it can.
QString sendProblem(const QUrl &url,
                    const QUrl &baseUrl,
                    const QString &apiKey,
                    bool keyOverPlainHttp)
{
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        return QStringLiteral("%1 is not an http or https URL. Give the API's base, such as "
                              "http://127.0.0.1:8080/v1.")
            .arg(baseUrl.toDisplayString());
    }
    if (const QString problem = keyTextProblem(apiKey, QString()); !problem.isEmpty())
        return problem;
    if (keyOverPlainHttp)
        return {};
    if (!apiKey.isEmpty())
        return keyTransportProblem(url);
    // A password in the URL is a credential as a key is.
    if (!url.password().isEmpty() && !keyTransportProblem(url).isEmpty()) {
        return QStringLiteral("Refusing to send the password in the URL to %1 over plain %2: "
                              "anyone on the way could read it. Use an https endpoint, or take "
                              "the password out of the URL.")
            .arg(url.toDisplayString(), url.scheme());
    }
    return {};
}

} // namespace

bool isLoopback(const QUrl &url)
{
    const QString host = url.host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QUrl chatCompletionsUrl(const QUrl &baseUrl)
{
    return apiUrl(baseUrl, QStringLiteral("/chat/completions"));
}

QJsonArray chatMessagesJson(const QList<ChatMessage> &messages)
{
    QJsonArray array;
    for (const ChatMessage &message : messages) {
        array.append(QJsonObject{{QStringLiteral("role"), message.role},
                                 {QStringLiteral("content"), message.content}});
    }
    return array;
}

QByteArray chatRequestBody(const ChatRequest &request)
{
    const QJsonArray messages = chatMessagesJson(request.messages);
    QJsonObject body{
        {QStringLiteral("model"), request.model},
        {QStringLiteral("messages"), messages},
        {QStringLiteral("stream"), true},
        {QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}}},
    };
    if (request.temperature)
        body.insert(QStringLiteral("temperature"), *request.temperature);
    if (request.maxTokens)
        body.insert(QStringLiteral("max_tokens"), *request.maxTokens);
    if (request.seed)
        body.insert(QStringLiteral("seed"), *request.seed);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QString keyTransportProblem(const QUrl &url, const QString &variable)
{
    if (url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0)
        return {};
    if (isLoopback(url))
        return {};
    return QStringLiteral("Refusing to send the API key in %1 to %2 over plain %3: anyone on "
                          "the way could read it. Use an https endpoint, or unset %1 for a "
                          "server that needs no key.")
        .arg(variable, url.toDisplayString(), url.scheme());
}

QString keyTextProblem(const QString &key, const QString &variable)
{
    for (const QChar c : key) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            return QStringLiteral("%1 holds a control character (%2), which would end the "
                                  "request's Authorization header or start another: refusing "
                                  "to send it. Set the key again without line breaks.")
                .arg(variable.isEmpty() ? QStringLiteral("The API key")
                                        : QStringLiteral("The key in %1").arg(variable),
                     c == QLatin1Char('\n') ? QStringLiteral("a line feed")
                     : c == QLatin1Char('\r')
                         ? QStringLiteral("a carriage return")
                         : QStringLiteral("0x%1").arg(c.unicode(), 2, 16, QLatin1Char('0')));
        }
    }
    return {};
}

QString printableServerText(const QString &text)
{
    return escapedControls(text);
}

ChatStream::ChatStream(QUrl endpoint)
    : m_endpoint(std::move(endpoint))
{}

bool ChatStream::feed(QByteArrayView bytes, qint64 elapsedMs)
{
    if (!m_error.isEmpty())
        return false;
    if (!m_reply.cut.isEmpty())
        return true;
    const bool taken = takeEvents(m_parser.feed(bytes), elapsedMs);
    if (taken && m_parser.tooLong()) {
        m_error = QStringLiteral("The model server at %1 sent one event of more than %2 MiB; a "
                                 "chat stream's events are a few hundred bytes. Is the endpoint "
                                 "an OpenAI-compatible API?")
                      .arg(m_endpoint.toDisplayString())
                      .arg(SseParser::MaxEventBytes >> 20);
        return false;
    }
    return taken;
}

bool ChatStream::finish(qint64 elapsedMs)
{
    if (!m_error.isEmpty())
        return false;
    if (!m_reply.cut.isEmpty())
        return true;
    return takeEvents(m_parser.finish(), elapsedMs);
}

bool ChatStream::takeWhole(const QByteArray &json, qint64 elapsedMs)
{
    return takeEvents({json}, elapsedMs);
}

bool ChatStream::takeEvents(const QList<QByteArray> &events, qint64 elapsedMs)
{
    for (const QByteArray &data : events) {
        QJsonParseError parseError{};
        const QJsonDocument document = QJsonDocument::fromJson(data, &parseError);
        if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
            m_error = QStringLiteral("The model server at %1 sent a reply that is not a JSON "
                                     "object: '%2'. Is the endpoint an OpenAI-compatible API?")
                          .arg(m_endpoint.toDisplayString(), excerpt(data));
            return false;
        }
        const QJsonObject event = document.object();
        if (event.contains(QStringLiteral("error"))) {
            m_error = QStringLiteral("The model server at %1 reported an error: %2")
                          .arg(m_endpoint.toDisplayString(),
                               serverErrorText(event.value(QStringLiteral("error"))));
            return false;
        }
        const QJsonArray choices = event.value(QStringLiteral("choices")).toArray();
        if (!choices.isEmpty()) {
            const QJsonObject choice = choices.first().toObject();
            // Some servers put the whole message in one event instead of deltas.
            const QString piece = choice.contains(QStringLiteral("delta"))
                                      ? choice.value(QStringLiteral("delta"))
                                            .toObject()
                                            .value(QStringLiteral("content"))
                                            .toString()
                                      : choice.value(QStringLiteral("message"))
                                            .toObject()
                                            .value(QStringLiteral("content"))
                                            .toString();
            if (!piece.isEmpty() && m_reply.firstTokenMs < 0)
                m_reply.firstTokenMs = elapsedMs;
            if (m_reply.content.size() + piece.size() > ChatLimits::MaxReplyChars) {
                qsizetype room = ChatLimits::MaxReplyChars - m_reply.content.size();
                if (room > 0 && piece.at(room - 1).isHighSurrogate())
                    --room; // never half a character
                m_reply.content += QStringView(piece).first(room);
                m_reply.cut = QStringLiteral("The reply was cut at %1 characters, the most "
                                             "Soul Studio takes of one reply; the model server "
                                             "at %2 was still sending. Lower max_tokens, or "
                                             "check the server.")
                                  .arg(ChatLimits::MaxReplyChars)
                                  .arg(m_endpoint.toDisplayString());
                return true;
            }
            m_reply.content += piece;
        }
        const QJsonValue usage = event.value(QStringLiteral("usage"));
        if (usage.isObject()) {
            const QJsonObject object = usage.toObject();
            ChatUsage counts;
            counts.promptTokens = countIn(object,
                                          QStringLiteral("prompt_tokens"),
                                          counts.impossible);
            counts.completionTokens = countIn(object,
                                              QStringLiteral("completion_tokens"),
                                              counts.impossible);
            counts.cachedTokens
                = countIn(object.value(QStringLiteral("prompt_tokens_details")).toObject(),
                          QStringLiteral("cached_tokens"),
                          counts.impossible);
            if (!counts.impossible.isEmpty()) {
                const QString why = counts.impossible;
                counts = ChatUsage();
                counts.impossible = QStringLiteral("The model server at %1 reported an "
                                                   "impossible usage: %2.")
                                        .arg(m_endpoint.toDisplayString(), why);
            }
            m_reply.usage = counts;
        }
    }
    return true;
}

ChatCall::ChatCall(const ChatRequest &request, QObject *parent)
    : QObject(parent)
    , m_request(request)
    , m_url(chatCompletionsUrl(request.baseUrl))
    , m_stream(m_url)
{
    for (QTimer *timer : {&m_deadline, &m_idle}) {
        timer->setSingleShot(true);
        connect(timer, &QTimer::timeout, this, [this, timer] {
            m_timedOut = true;
            const bool idle = timer == &m_idle;
            abortFor(idle ? QStringLiteral("The model server at %1 sent nothing for %2 s%3. Is "
                                           "it stalled or overloaded? Raise the wait with "
                                           "--idle-timeout SECONDS (or the Chat and Tests "
                                           "settings) for a slow model.")
                                .arg(m_url.toDisplayString())
                                .arg(m_request.idleTimeoutMs / 1000.0)
                                .arg(m_received > 0 ? QStringLiteral(" in the middle of its reply")
                                                    : QString())
                          : QStringLiteral("The model server at %1 did not finish its reply "
                                           "within %2 s. Is it overloaded, or is max_tokens too "
                                           "large? Raise the limit with --timeout SECONDS (or "
                                           "the Chat and Tests settings).")
                                .arg(m_url.toDisplayString())
                                .arg(m_request.timeoutMs / 1000.0));
        });
    }
}

ChatCall::~ChatCall()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        delete m_reply;
    }
}

void ChatCall::fail(const QString &sentence)
{
    m_result = Result<ChatReply>::failure(sentence);
    // Heard after start() returned, as every other end.
    QMetaObject::invokeMethod(this, &ChatCall::finished, Qt::QueuedConnection);
}

void ChatCall::abortFor(const QString &sentence)
{
    if (m_limitHit.isEmpty())
        m_limitHit = sentence;
    if (m_reply)
        m_reply->abort();
}

void ChatCall::begin(QNetworkAccessManager &manager)
{
    const QUrl &url = m_url;
    if (const QString problem
        = sendProblem(url, m_request.baseUrl, m_request.apiKey, m_request.keyOverPlainHttp);
        !problem.isEmpty()) {
        fail(problem);
        return;
    }
    QNetworkRequest networkRequest(url);
    networkRequest.setHeader(QNetworkRequest::ContentTypeHeader,
                             QByteArrayLiteral("application/json"));
    networkRequest.setRawHeader("Accept", "text/event-stream");
    // Asking for the bytes as they are turns off Qt's own decompression, so
    // a compressed bomb is never expanded; a server that compresses anyway
    // is named.
    networkRequest.setRawHeader("Accept-Encoding", "identity");
    if (!m_request.apiKey.isEmpty())
        networkRequest.setRawHeader("Authorization", "Bearer " + m_request.apiKey.toUtf8());
    // A redirect could carry the key to another host; it is reported instead.
    networkRequest.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                                QNetworkRequest::ManualRedirectPolicy);
    manager.setProxy(isLoopback(url) ? QNetworkProxy(QNetworkProxy::NoProxy)
                                     : QNetworkProxy(QNetworkProxy::DefaultProxy));

    m_clock.start();
    m_reply = manager.post(networkRequest, chatRequestBody(m_request));
    // What Qt holds unread is bounded too: the socket is read as we read.
    m_reply->setReadBufferSize(SseParser::MaxEventBytes);
    connect(m_reply, &QNetworkReply::readyRead, this, &ChatCall::take);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &ChatCall::armIdle);
    connect(m_reply, &QNetworkReply::finished, this, &ChatCall::end);
    m_deadline.start(m_request.timeoutMs);
    armIdle();
}

void ChatCall::armIdle()
{
    // An idle wait as long as the whole deadline adds nothing to it.
    if (m_request.idleTimeoutMs < m_request.timeoutMs)
        m_idle.start(m_request.idleTimeoutMs);
}

void ChatCall::stop()
{
    if (isFinished() || !m_reply)
        return;
    m_stopped = true;
    m_reply->abort();
}

void ChatCall::take()
{
    if (!m_reply->isOpen() || !m_limitHit.isEmpty()) // aborted: nothing more to read
        return;
    armIdle();
    const QByteArray bytes = m_reply->readAll();
    m_received += bytes.size();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray encoding = m_reply->rawHeader("Content-Encoding").trimmed().toLower();
    if (!encoding.isEmpty() && encoding != "identity") {
        abortFor(QStringLiteral("The model server at %1 sent its reply compressed "
                                "(Content-Encoding: %2) though Soul Studio asked for it "
                                "uncompressed; such a reply is not expanded. Check the server or "
                                "the proxy in front of it.")
                     .arg(m_url.toDisplayString(),
                          printableServerText(QString::fromLatin1(encoding.left(40)))));
        return;
    }
    if (m_received > ChatLimits::MaxStreamBytes) {
        abortFor(QStringLiteral("The model server at %1 sent more than %2 MiB for one reply "
                                "without ending it. Is the endpoint an OpenAI-compatible API?")
                     .arg(m_url.toDisplayString())
                     .arg(ChatLimits::MaxStreamBytes >> 20));
        return;
    }
    const bool streamed = m_reply->header(QNetworkRequest::ContentTypeHeader)
                              .toString()
                              .startsWith(QLatin1String("text/event-stream"));
    if (status >= 200 && status < 300 && !streamed) {
        m_wholeBody += bytes;
        if (m_wholeBody.size() > ChatLimits::MaxWholeBytes)
            abortFor(QStringLiteral("The model server at %1 sent a reply of more than %2 MiB "
                                    "in one piece; a chat completion is a few kilobytes. Is the "
                                    "endpoint an OpenAI-compatible API?")
                         .arg(m_url.toDisplayString())
                         .arg(ChatLimits::MaxWholeBytes >> 20));
    } else if (status >= 200 && status < 300) {
        const qsizetype before = m_stream.reply().content.size();
        const bool fed = m_stream.feed(bytes, m_clock.elapsed());
        if (fed && m_stream.reply().content.size() > before)
            Q_EMIT textArrived(m_stream.reply().content.mid(before));
        // abort() ends the call at once (finished(), whose receiver may
        // delete this): nothing of this object is touched after it.
        if (!fed || m_stream.isCut())
            m_reply->abort();
    } else if (m_errorBody.size() < 4096) {
        m_errorBody += bytes.left(4096 - m_errorBody.size());
    }
}

void ChatCall::end()
{
    m_deadline.stop();
    m_idle.stop();
    take();
    m_result = outcome();
    m_reply->deleteLater();
    m_reply = nullptr;
    Q_EMIT finished();
}

Result<ChatReply> ChatCall::outcome()
{
    const QString where = m_url.toDisplayString();
    if (!m_stream.error().isEmpty())
        return Result<ChatReply>::failure(m_stream.error());
    if (m_stopped)
        return Result<ChatReply>::failure(QStringLiteral("Stopped."));
    if (!m_limitHit.isEmpty())
        return Result<ChatReply>::failure(m_limitHit);
    if (m_stream.isCut()) {
        ChatReply result = m_stream.reply();
        result.latencyMs = m_clock.elapsed();
        return result;
    }
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 0 && (status < 200 || status >= 300)) {
        const QString reason = printableServerText(
            m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString().left(200));
        QString said = excerpt(m_errorBody);
        const QJsonDocument document = QJsonDocument::fromJson(m_errorBody);
        if (document.isObject() && document.object().contains(QStringLiteral("error")))
            said = serverErrorText(document.object().value(QStringLiteral("error")));
        return Result<ChatReply>::failure(
            QStringLiteral("The model server at %1 answered HTTP %2%3%4")
                .arg(where)
                .arg(status)
                .arg(reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason),
                     said.isEmpty() ? QStringLiteral(".") : QStringLiteral(": %1").arg(said)));
    }
    if (m_reply->error() != QNetworkReply::NoError) {
        return Result<ChatReply>::failure(
            QStringLiteral("Cannot reach the model server at %1: %2. Start the server, or give "
                           "another endpoint (--endpoint URL).")
                .arg(where, printableServerText(m_reply->errorString())));
    }
    if (!m_wholeBody.isEmpty()) {
        if (!m_stream.takeWhole(m_wholeBody, m_clock.elapsed()))
            return Result<ChatReply>::failure(m_stream.error());
    } else if (!m_stream.finish(m_clock.elapsed())) {
        return Result<ChatReply>::failure(m_stream.error());
    }
    ChatReply result = m_stream.reply();
    result.latencyMs = m_clock.elapsed();
    return result;
}

QUrl modelsUrl(const QUrl &baseUrl)
{
    return apiUrl(baseUrl, QStringLiteral("/models"));
}

Result<QStringList> modelIdsIn(const QByteArray &json, const QUrl &url)
{
    const QJsonDocument document = QJsonDocument::fromJson(json);
    const QJsonObject object = document.object();
    QStringList ids;
    if (object.value(QStringLiteral("data")).isArray()) {
        for (const QJsonValue &model : object.value(QStringLiteral("data")).toArray())
            ids.append(model.toObject().value(QStringLiteral("id")).toString());
    } else if (object.value(QStringLiteral("models")).isArray()) {
        for (const QJsonValue &model : object.value(QStringLiteral("models")).toArray())
            ids.append(model.toObject().value(QStringLiteral("name")).toString());
    }
    if (!ids.isEmpty() || object.value(QStringLiteral("data")).isArray()
        || object.value(QStringLiteral("models")).isArray()) {
        for (QString &id : ids)
            id = printableServerText(id.left(200));
    } else {
        return Result<QStringList>::failure(
            QStringLiteral("The server at %1 did not answer with a list of models: '%2'. Is the "
                           "endpoint an OpenAI-compatible API (its base ends in /v1)?")
                .arg(url.toDisplayString(), excerpt(json)));
    }
    ids.removeAll(QString());
    return ids;
}

ModelsCall::ModelsCall(QUrl baseUrl, QObject *parent)
    : QObject(parent)
    , m_baseUrl(std::move(baseUrl))
    , m_url(modelsUrl(m_baseUrl))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        if (m_reply)
            m_reply->abort();
    });
}

ModelsCall::~ModelsCall()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        delete m_reply;
    }
}

void ModelsCall::fail(const QString &sentence)
{
    m_result = Result<QStringList>::failure(sentence);
    QMetaObject::invokeMethod(this, &ModelsCall::finished, Qt::QueuedConnection);
}

void ModelsCall::begin(QNetworkAccessManager &manager, const QString &apiKey, bool keyOverPlainHttp)
{
    if (const QString problem = sendProblem(m_url, m_baseUrl, apiKey, keyOverPlainHttp);
        !problem.isEmpty()) {
        fail(problem);
        return;
    }
    QNetworkRequest request(m_url);
    request.setRawHeader("Accept-Encoding", "identity");
    if (!apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + apiKey.toUtf8());
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    manager.setProxy(isLoopback(m_url) ? QNetworkProxy(QNetworkProxy::NoProxy)
                                       : QNetworkProxy(QNetworkProxy::DefaultProxy));
    m_reply = manager.get(request);
    m_reply->setReadBufferSize(SseParser::MaxEventBytes);
    connect(m_reply, &QNetworkReply::readyRead, this, [this] {
        if (!m_reply->isOpen() || m_tooLarge)
            return;
        m_body += m_reply->readAll();
        if (m_body.size() > MaxModelsBytes) {
            m_tooLarge = true;
            m_reply->abort();
        }
    });
    connect(m_reply, &QNetworkReply::finished, this, &ModelsCall::end);
    m_deadline.start(m_timeoutMs);
}

void ModelsCall::end()
{
    m_deadline.stop();
    const QString where = m_url.toDisplayString();
    if (m_reply->isOpen() && !m_tooLarge)
        m_body += m_reply->readAll();
    const QByteArray &body = m_body;
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray encoding = m_reply->rawHeader("Content-Encoding").trimmed().toLower();
    if (m_tooLarge || body.size() > MaxModelsBytes) {
        m_result = Result<QStringList>::failure(
            QStringLiteral("The server at %1 answered with more than %2 MiB when asked for its "
                           "models. Is this an OpenAI-compatible API's base?")
                .arg(where)
                .arg(MaxModelsBytes >> 20));
    } else if (!encoding.isEmpty() && encoding != "identity") {
        m_result = Result<QStringList>::failure(
            QStringLiteral("The server at %1 listed its models compressed (Content-Encoding: "
                           "%2) though Soul Studio asked for them uncompressed. Check the "
                           "server or the proxy in front of it.")
                .arg(where, printableServerText(QString::fromLatin1(encoding.left(40)))));
    } else if (m_timedOut) {
        m_result = Result<QStringList>::failure(
            QStringLiteral("The server at %1 did not list its models in time. Is it running, "
                           "and is this its API's base?")
                .arg(where));
    } else if (status != 0 && (status < 200 || status >= 300)) {
        QString said = excerpt(body);
        const QJsonDocument document = QJsonDocument::fromJson(body);
        if (document.isObject() && document.object().contains(QStringLiteral("error")))
            said = serverErrorText(document.object().value(QStringLiteral("error")));
        m_result = Result<QStringList>::failure(
            QStringLiteral("The server at %1 answered HTTP %2 when asked for its models%3")
                .arg(where)
                .arg(status)
                .arg(said.isEmpty() ? QStringLiteral(".") : QStringLiteral(": %1").arg(said)));
    } else if (m_reply->error() != QNetworkReply::NoError) {
        m_result = Result<QStringList>::failure(
            QStringLiteral("Cannot reach the model server at %1: %2. Start the server, or give "
                           "another endpoint.")
                .arg(where, printableServerText(m_reply->errorString())));
    } else {
        m_result = modelIdsIn(body, m_url);
    }
    m_reply->deleteLater();
    m_reply = nullptr;
    Q_EMIT finished();
}

ChatClient::ChatClient(QObject *parent)
    : QObject(parent)
{}

ChatCall *ChatClient::start(const ChatRequest &request)
{
    auto *call = new ChatCall(request, this);
    call->begin(m_manager);
    return call;
}

Result<ChatReply> ChatClient::exchange(const ChatRequest &request)
{
    std::unique_ptr<ChatCall> call(start(request));
    if (!call->isFinished()) {
        QEventLoop loop;
        connect(call.get(), &ChatCall::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return call->result();
}

ModelsCall *ChatClient::listModels(const QUrl &baseUrl,
                                   const QString &apiKey,
                                   bool keyOverPlainHttp,
                                   int timeoutMs)
{
    auto *call = new ModelsCall(baseUrl, this);
    call->m_timeoutMs = timeoutMs;
    call->begin(m_manager, apiKey, keyOverPlainHttp);
    return call;
}

} // namespace soul
