// The JSON5 reader (core/agents/json5.h) on arbitrary text, for libFuzzer.
//
// Input: the text, as UTF-8.
//
// What must hold: a failure has a place inside the text (line and column at
// least 1, the line no later than the text's last) and a reason; a success
// records, for every object, exactly its keys in its key order, each once.
// (No comparison with QJsonDocument: it keeps integers that a double cannot
// hold exactly, which JavaScript, and so OpenClaw, does not.)
#include "fuzzsupport.h"

#include "agents/json5.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdint>

using namespace soul;

namespace {

void checkOrder(const Json5Document &document, const QJsonValue &value, const QString &pointer)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        QStringList order = document.keyOrder.value(pointer);
        fuzz::require(order.size() == object.size(), "key order lists every key once");
        for (const QString &key : std::as_const(order)) {
            fuzz::require(object.contains(key), "key order names a key of the object");
            checkOrder(document,
                       object.value(key),
                       pointer + QLatin1Char('/') + jsonPointerSegment(key));
        }
        order.removeDuplicates();
        fuzz::require(order.size() == object.size(), "key order has no key twice");
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            checkOrder(document, array.at(i), pointer + QLatin1Char('/') + QString::number(i));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString text = QString::fromUtf8(bytes);
    Json5Error error;
    const std::optional<Json5Document> document = parseJson5(text, QString(), &error);
    if (!document) {
        fuzz::require(error.place.line >= 1 && error.place.column >= 1, "an error has a place");
        fuzz::require(error.place.line <= text.count(QLatin1Char('\n')) + 1,
                      "an error's line is in the text");
        fuzz::require(!error.message.isEmpty(), "an error says why");
    } else {
        checkOrder(*document, document->value, QString());
    }
    return 0;
}
