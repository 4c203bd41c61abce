#include "utf8.h"

#include "contract.h"

#include <cstring>

namespace soul::utf8 {

namespace {

constexpr char Replacement[] = "\xEF\xBF\xBD";

// How one step of the decoder ended: a code point of `length` bytes, or an
// invalid subpart of `length` bytes (one U+FFFD).
struct Step
{
    char32_t codePoint = 0;
    int length = 1;
    bool valid = true;
};

inline bool inRange(unsigned char b, unsigned char lo, unsigned char hi)
{
    return b >= lo && b <= hi;
}

// Decodes one code point at p (p < end, *p >= 0x80), following the table of
// well-formed byte sequences (Unicode 15, table 3-7). An ill-formed sequence
// consumes its lead byte and every continuation byte that could still have
// been part of a well-formed sequence: that is the maximal subpart.
inline Step decodeMultiByte(const unsigned char *p, const unsigned char *end)
{
    const unsigned char lead = p[0];
    int need = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    char32_t cp = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
        need = 1;
        cp = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        need = 2;
        cp = lead & 0x0F;
        if (lead == 0xE0)
            lo = 0xA0;
        else if (lead == 0xED)
            hi = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        need = 3;
        cp = lead & 0x07;
        if (lead == 0xF0)
            lo = 0x90;
        else if (lead == 0xF4)
            hi = 0x8F;
    } else {
        return {0xFFFD, 1, false};
    }
    for (int i = 1; i <= need; ++i) {
        if (p + i >= end || !inRange(p[i], lo, hi))
            return {0xFFFD, i, false};
        cp = (cp << 6) | (p[i] & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    return {cp, need + 1, true};
}

inline bool allAscii8(const unsigned char *p)
{
    quint64 word;
    std::memcpy(&word, p, sizeof word);
    return (word & 0x8080808080808080ULL) == 0;
}

// Skips ASCII quickly, eight bytes at a time.
inline const unsigned char *skipAscii(const unsigned char *p, const unsigned char *end)
{
    while (end - p >= 8 && allAscii8(p))
        p += 8;
    while (p < end && *p < 0x80)
        ++p;
    return p;
}

// Walks `bytes`, calling valid(from, to) for each run of valid UTF-8 and
// invalid() for each maximal invalid subpart.
template<typename OnValid, typename OnInvalid>
void walk(QByteArrayView bytes, OnValid &&valid, OnInvalid &&invalid)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(bytes.data());
    const auto *end = begin + bytes.size();
    const unsigned char *runStart = begin;
    const unsigned char *p = begin;
    while (p < end) {
        p = skipAscii(p, end);
        if (p == end)
            break;
        const Step step = decodeMultiByte(p, end);
        if (step.valid) {
            p += step.length;
            continue;
        }
        if (p > runStart)
            valid(runStart, p);
        invalid();
        p += step.length;
        runStart = p;
    }
    if (end > runStart)
        valid(runStart, end);
}

} // namespace

qsizetype validPrefixLength(QByteArrayView bytes)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(bytes.data());
    const auto *end = begin + bytes.size();
    const unsigned char *p = begin;
    while (p < end) {
        p = skipAscii(p, end);
        if (p == end)
            break;
        const Step step = decodeMultiByte(p, end);
        if (!step.valid)
            break;
        p += step.length;
    }
    return p - begin;
}

qsizetype countInvalidSubparts(QByteArrayView bytes)
{
    qsizetype count = 0;
    walk(bytes, [](const unsigned char *, const unsigned char *) {}, [&count] { ++count; });
    return count;
}

QByteArray sanitize(const QByteArray &bytes, qsizetype *replacements)
{
    const qsizetype prefix = validPrefixLength(bytes);
    if (prefix == bytes.size()) {
        if (replacements)
            *replacements = 0;
        return bytes;
    }
    return sanitize(QByteArrayView(bytes), replacements);
}

QByteArray sanitize(QByteArrayView bytes, qsizetype *replacements)
{
    QByteArray out;
    // Each invalid byte grows to at most three.
    out.reserve(bytes.size() + 16);
    qsizetype count = 0;
    walk(
        bytes,
        [&out](const unsigned char *from, const unsigned char *to) {
            out.append(reinterpret_cast<const char *>(from), to - from);
        },
        [&out, &count] {
            out.append(Replacement, 3);
            ++count;
        });
    if (replacements)
        *replacements = count;
    return out;
}

QString decode(QByteArrayView bytes, qsizetype *replacements)
{
    QString out;
    out.reserve(bytes.size());
    qsizetype count = 0;
    const auto *begin = reinterpret_cast<const unsigned char *>(bytes.data());
    const auto *end = begin + bytes.size();
    const unsigned char *p = begin;
    while (p < end) {
        const unsigned char *asciiEnd = skipAscii(p, end);
        if (asciiEnd > p) {
            out.append(QLatin1String(reinterpret_cast<const char *>(p), asciiEnd - p));
            p = asciiEnd;
            if (p == end)
                break;
        }
        const Step step = decodeMultiByte(p, end);
        if (!step.valid)
            ++count;
        if (step.codePoint > 0xFFFF) {
            const char32_t c = step.codePoint;
            out.append(QChar(QChar::highSurrogate(c)));
            out.append(QChar(QChar::lowSurrogate(c)));
        } else {
            out.append(QChar(static_cast<char16_t>(step.codePoint)));
        }
        p += step.length;
    }
    if (replacements)
        *replacements = count;
    return out;
}

QByteArrayView trimmedStart(QByteArrayView validUtf8)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(validUtf8.data());
    const auto *end = begin + validUtf8.size();
    while (begin < end) {
        if (*begin < 0x80) {
            if (!isWhiteSpace(*begin))
                break;
            ++begin;
            continue;
        }
        const Step step = decodeMultiByte(begin, end);
        if (!step.valid || !isWhiteSpace(step.codePoint))
            break;
        begin += step.length;
    }
    return QByteArrayView(reinterpret_cast<const char *>(begin), end - begin);
}

QByteArrayView trimmedEnd(QByteArrayView validUtf8)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(validUtf8.data());
    const auto *end = begin + validUtf8.size();
    while (end > begin) {
        const unsigned char last = end[-1];
        if (last < 0x80) {
            if (!isWhiteSpace(last))
                break;
            --end;
            continue;
        }
        // Back up to the lead byte of the last code point.
        const unsigned char *lead = end - 1;
        while (lead > begin && (*lead & 0xC0) == 0x80 && end - lead < 4)
            --lead;
        const Step step = decodeMultiByte(lead, end);
        if (!step.valid || lead + step.length != end || !isWhiteSpace(step.codePoint))
            break;
        end = lead;
    }
    return QByteArrayView(reinterpret_cast<const char *>(begin), end - begin);
}

QByteArrayView trimmed(QByteArrayView validUtf8)
{
    return trimmedEnd(trimmedStart(validUtf8));
}

} // namespace soul::utf8
