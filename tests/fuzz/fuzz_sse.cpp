// The SSE reader and the chat stream on arbitrary server bytes, for
// libFuzzer.
//
// Input: the bytes a server streams. The first byte picks where they are
// cut into pieces (every that-many bytes, at least one).
//
// What must hold: the events do not depend on where the stream was cut
// (the whole stream in one piece gives the same events as the pieces); no
// event is longer than the parser's bound; the chat stream's reply never
// passes its bound and, once it has been cut, says so; an impossible usage
// leaves every count out.
#include "fuzzsupport.h"

#include "chatclient.h"
#include "sseparser.h"

#include <QUrl>

#include <cstdint>

using namespace soul;

namespace {

QList<QByteArray> parseInPieces(QByteArrayView bytes, qsizetype step, bool *tooLong)
{
    SseParser parser;
    QList<QByteArray> events;
    for (qsizetype at = 0; at < bytes.size(); at += step)
        events += parser.feed(bytes.sliced(at, qMin(step, bytes.size() - at)));
    events += parser.finish();
    *tooLong = parser.tooLong();
    return events;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const qsizetype step = qsizetype(data[0]) + 1;
    const QByteArrayView bytes(reinterpret_cast<const char *>(data) + 1, qsizetype(size) - 1);

    bool wholeTooLong = false;
    bool piecesTooLong = false;
    const QList<QByteArray> whole = parseInPieces(bytes,
                                                  qMax<qsizetype>(bytes.size(), 1),
                                                  &wholeTooLong);
    const QList<QByteArray> pieces = parseInPieces(bytes, step, &piecesTooLong);
    fuzz::require(wholeTooLong == piecesTooLong, "the bound does not depend on the cuts");
    if (!wholeTooLong)
        fuzz::require(whole == pieces, "the events do not depend on the cuts");
    for (const QByteArray &event : whole)
        fuzz::require(event.size() <= SseParser::MaxEventBytes, "no event passes the bound");

    ChatStream stream(QUrl(QStringLiteral("http://127.0.0.1:1/v1/chat/completions")));
    for (qsizetype at = 0; at < bytes.size(); at += step) {
        if (!stream.feed(bytes.sliced(at, qMin(step, bytes.size() - at)), at))
            break;
    }
    stream.finish(bytes.size());
    const ChatReply &reply = stream.reply();
    fuzz::require(reply.content.size() <= ChatLimits::MaxReplyChars, "the reply keeps its bound");
    fuzz::require(reply.content.size() < ChatLimits::MaxReplyChars || stream.isCut()
                      || !stream.error().isEmpty(),
                  "a reply at its bound says it was cut");
    if (!reply.usage.impossible.isEmpty())
        fuzz::require(!reply.usage.promptTokens && !reply.usage.completionTokens
                          && !reply.usage.cachedTokens,
                      "an impossible usage leaves every count out");
    for (const auto &count :
         {reply.usage.promptTokens, reply.usage.completionTokens, reply.usage.cachedTokens})
        fuzz::require(!count || *count >= 0, "a count is never negative");
    return 0;
}
