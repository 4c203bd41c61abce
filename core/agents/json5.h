#pragma once

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>
#include <utility>

// A JSON5 reader (https://spec.json5.org/, as the npm package json5 2.x reads
// it): comments, trailing commas, unquoted (ECMAScript identifier) keys,
// single-quoted strings, escapes and line continuations, hexadecimal numbers,
// leading and trailing decimal points, an explicit +, Infinity and NaN.
// QJsonDocument reads strict JSON only; OpenClaw's config is JSON5.
//
// QJsonObject keeps its keys sorted, but the order keys were written in is
// meaningful to a JavaScript reader (OpenClaw lists agents in it), so the
// document keeps each object's key order, and where each key was written,
// beside the value, by its JSON pointer ("/agents/entries").
namespace soul {

// A place in a JSON5 text: 1-based line (only a line feed ends one) and
// column (in UTF-16 code units), as the json5 package counts them.
struct Json5Place
{
    QString file; // empty for a text that came from no file
    int line = 0;
    int column = 0;
};

struct Json5Document
{
    QJsonValue value;
    // JSON pointer of an object -> its keys in the order they were first
    // written (a repeated key keeps its first place and its last value, as
    // in JavaScript).
    QHash<QString, QStringList> keyOrder;
    // JSON pointer of a member -> where its key was written.
    QHash<QString, Json5Place> places;
};

struct Json5Error
{
    Json5Place place;
    QString message; // "invalid character '}'", without the place
};

// `text` parsed, or std::nullopt with `error` (when given) saying where and
// why. `file` is only recorded in the places.
std::optional<Json5Document> parseJson5(QStringView text,
                                        const QString &file = {},
                                        Json5Error *error = nullptr);

// An object of `members`, whose keys are distinct. QJsonObject keeps its
// keys sorted and moves every later key on each insert, so inserting keys as
// written is quadratic (100,000 agents took 20 s); this inserts them sorted.
QJsonObject jsonObjectOf(QList<std::pair<QString, QJsonValue>> members);

// `text` with its control characters (C0, DEL, C1, U+2028, U+2029) written as
// JSON escapes ("\n", "\u0000"), for a sentence or a table cell that must
// stay on its line: a config can put a line break into a key or a path.
QString printableText(const QString &text);

// A JSON pointer segment: "~" as "~0", "/" as "~1".
QString jsonPointerSegment(const QString &key);
// `keys` in the order JavaScript enumerates an object's own keys: those that
// are array indices ("0", "17"; no sign, no leading zero, below 2^32 - 1)
// first in ascending order, then the others in the order given.
QStringList javaScriptKeyOrder(const QStringList &keys);

} // namespace soul
