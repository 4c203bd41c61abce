#include "encodingfacts.h"

#include "compose/utf8.h"

#include <cstring>

namespace soul {

LineEndings EncodingFacts::lineEndings() const
{
    const int kinds = (lfCount > 0) + (crlfCount > 0) + (crCount > 0);
    if (kinds == 0)
        return LineEndings::None;
    if (kinds > 1)
        return LineEndings::Mixed;
    if (lfCount > 0)
        return LineEndings::Lf;
    return crlfCount > 0 ? LineEndings::CrLf : LineEndings::Cr;
}

EncodingFacts scanEncoding(QByteArrayView bytes)
{
    EncodingFacts facts;
    facts.bom = bytes.startsWith(QByteArrayView("\xEF\xBB\xBF", 3));
    facts.invalidSubparts = utf8::countInvalidSubparts(bytes);
    const char *p = bytes.data();
    const char *end = p + bytes.size();
    // memchr finds the rare bytes quickly in long lines.
    for (const char *q = p; q < end;) {
        const void *nul = std::memchr(q, '\0', static_cast<size_t>(end - q));
        if (!nul)
            break;
        ++facts.nulBytes;
        q = static_cast<const char *>(nul) + 1;
    }
    for (const char *q = p; q < end; ++q) {
        if (*q == '\n') {
            ++facts.lfCount;
        } else if (*q == '\r') {
            if (q + 1 < end && q[1] == '\n') {
                ++facts.crlfCount;
                ++q;
            } else {
                ++facts.crCount;
            }
        }
    }
    facts.finalNewline = !bytes.isEmpty() && (bytes.back() == '\n' || bytes.back() == '\r');
    return facts;
}

QString lineEndingsName(LineEndings endings)
{
    switch (endings) {
    case LineEndings::None:
        return QStringLiteral("none");
    case LineEndings::Lf:
        return QStringLiteral("LF");
    case LineEndings::CrLf:
        return QStringLiteral("CR LF");
    case LineEndings::Cr:
        return QStringLiteral("CR");
    case LineEndings::Mixed:
        return QStringLiteral("mixed");
    }
    return {};
}

} // namespace soul
