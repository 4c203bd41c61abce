#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

// Lossy UTF-8 decoding as the compose contract wants it, which is not what
// QString::fromUtf8 or QStringDecoder do: every maximal invalid subpart (the
// Unicode "substitution of maximal subparts" practice, as WHATWG and Rust's
// from_utf8_lossy) becomes one U+FFFD, and a leading BOM is kept as U+FEFF.
// NUL and every other valid code point pass through unchanged.
namespace soul::utf8 {

// Length of the longest prefix of `bytes` that is valid UTF-8.
qsizetype validPrefixLength(QByteArrayView bytes);

inline bool isValid(QByteArrayView bytes)
{
    return validPrefixLength(bytes) == bytes.size();
}

// `bytes` as valid UTF-8, each maximal invalid subpart replaced by EF BF BD.
// When `bytes` is already valid, the result shares `bytes`' data (no copy).
// `replacements`, when given, receives the number of U+FFFD inserted.
QByteArray sanitize(const QByteArray &bytes, qsizetype *replacements = nullptr);
QByteArray sanitize(QByteArrayView bytes, qsizetype *replacements = nullptr);

// The same decoding, to UTF-16.
QString decode(QByteArrayView bytes, qsizetype *replacements = nullptr);

// Where byte `sanitizedOffset` of sanitize(bytes) came from in `bytes`: the
// same byte within a valid run, the start of the invalid subpart a
// replacement stands for; bytes.size() at or past the end.
qsizetype rawOffset(QByteArrayView bytes, qsizetype sanitizedOffset);

// Number of maximal invalid subparts, without building any output.
qsizetype countInvalidSubparts(QByteArrayView bytes);

// Removes leading and/or trailing White_Space code points from valid UTF-8.
QByteArrayView trimmed(QByteArrayView validUtf8);
QByteArrayView trimmedStart(QByteArrayView validUtf8);
QByteArrayView trimmedEnd(QByteArrayView validUtf8);

} // namespace soul::utf8
