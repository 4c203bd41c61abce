// Invariants of the lossy UTF-8 decoder, for libFuzzer.
#include "fuzzsupport.h"

#include "compose/utf8.h"

#include <QString>

#include <cstdint>

using namespace soul;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView in(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));

    qsizetype replacements = -1;
    const QByteArray sanitized = utf8::sanitize(in, &replacements);
    fuzz::require(utf8::isValid(sanitized), "sanitize() output is valid UTF-8");
    fuzz::require(sanitized == fuzz::referenceSanitize(in), "sanitize() matches the reference");
    fuzz::require(replacements == utf8::countInvalidSubparts(in), "replacement count agrees");

    const bool valid = utf8::isValid(in);
    fuzz::require(valid == (replacements == 0), "valid input has no replacements");
    if (valid)
        fuzz::require(sanitized == in, "valid UTF-8 comes back unchanged");

    bool ascii = true;
    for (size_t i = 0; i < size; ++i)
        ascii = ascii && data[i] < 0x80;
    if (ascii)
        fuzz::require(valid && sanitized == in, "ASCII comes back unchanged");

    qsizetype decodedReplacements = -1;
    const QString decoded = utf8::decode(in, &decodedReplacements);
    fuzz::require(decodedReplacements == replacements, "decode() counts as sanitize()");
    for (qsizetype i = 0; i < decoded.size(); ++i) {
        const QChar c = decoded.at(i);
        if (c.isHighSurrogate()) {
            fuzz::require(i + 1 < decoded.size() && decoded.at(i + 1).isLowSurrogate(),
                          "a high surrogate is followed by a low one");
            ++i;
        } else {
            fuzz::require(!c.isLowSurrogate(), "no lone low surrogate");
        }
    }
    fuzz::require(decoded.toUtf8() == sanitized, "UTF-16 output re-encodes to sanitize()");

    const QByteArrayView trimmed = utf8::trimmed(sanitized);
    fuzz::require(trimmed.size() <= sanitized.size(), "trimming never grows");
    fuzz::require(utf8::isValid(trimmed), "trimming keeps valid UTF-8");
    fuzz::require(utf8::trimmed(trimmed) == trimmed, "trimming is idempotent");
    return 0;
}
