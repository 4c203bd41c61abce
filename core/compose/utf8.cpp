#include "utf8.h"

#include "contract.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

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

// Length of the valid prefix of [begin, end), one code point at a time.
qsizetype scalarValidPrefixLength(const unsigned char *begin, const unsigned char *end)
{
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// Validation 32 bytes at a time with AVX2, after Keiser and Lemire, "Validating
// UTF-8 in less than one instruction per byte" (2021), the lookup algorithm
// simdjson and simdutf use. Text with a few non-ASCII characters a line (most
// personas) would otherwise go through the scalar decoder at a fraction of
// memory speed. It only answers "valid or not, and from which block on";
// where a sequence ends and how long an invalid subpart is stay the scalar
// decoder's job, so the two cannot disagree on the output.
namespace avx2 {

// One bit per kind of error, as a pair (previous byte, this byte) shows it.
constexpr char TooShort = 1 << 0;  // lead byte, then no continuation
constexpr char TooLong = 1 << 1;   // ASCII, then a continuation
constexpr char Overlong3 = 1 << 2; // E0 80..9F
constexpr char TooLarge = 1 << 3;  // F4 90..BF, F5..FF
constexpr char Surrogate = 1 << 4; // ED A0..BF
constexpr char Overlong2 = 1 << 5; // C0, C1
// F5..FF 80..8F (TooLarge covers their 90..BF). It shares its bit with
// Overlong4, as in simdutf: byte1Low gives the bit to F0 for one and to
// F5..FF for the other, so the two never mix.
constexpr char TooLarge1000 = 1 << 6;
constexpr char Overlong4 = 1 << 6;      // F0 80..8F
constexpr char TwoConts = char(1 << 7); // two continuations, unless a 3- or 4-byte sequence
constexpr char Carry = TooShort | TooLong | TwoConts;

// A 16-byte table in both lanes, for _mm256_shuffle_epi8.
__attribute__((target("avx2"))) inline __m256i table(const char (&t)[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i *>(t)));
}

struct State
{
    __m256i previous;   // the last block
    __m256i incomplete; // nonzero when the last block ends inside a sequence
};

// Nonzero bytes where `input` (following state.previous) is not valid UTF-8.
__attribute__((target("avx2"))) inline __m256i checkBlock(__m256i input, State &state)
{
    if (_mm256_movemask_epi8(input) == 0) {
        const __m256i error = state.incomplete;
        state.previous = input;
        state.incomplete = _mm256_setzero_si256();
        return error;
    }
    // clang-format off
    static constexpr char byte1High[16] = {
        TooLong, TooLong, TooLong, TooLong, TooLong, TooLong, TooLong, TooLong,
        TwoConts, TwoConts, TwoConts, TwoConts,
        TooShort | Overlong2,
        TooShort,
        TooShort | Overlong3 | Surrogate,
        TooShort | TooLarge | TooLarge1000 | Overlong4,
    };
    static constexpr char byte1Low[16] = {
        Carry | Overlong3 | Overlong2 | Overlong4,
        Carry | Overlong2,
        Carry,
        Carry,
        Carry | TooLarge,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000 | Surrogate,
        Carry | TooLarge | TooLarge1000,
        Carry | TooLarge | TooLarge1000,
    };
    static constexpr char byte2High[16] = {
        TooShort, TooShort, TooShort, TooShort, TooShort, TooShort, TooShort, TooShort,
        TooLong | Overlong2 | TwoConts | Overlong3 | TooLarge1000 | Overlong4,
        TooLong | Overlong2 | TwoConts | Overlong3 | TooLarge,
        TooLong | Overlong2 | TwoConts | Surrogate | TooLarge,
        TooLong | Overlong2 | TwoConts | Surrogate | TooLarge,
        TooShort, TooShort, TooShort, TooShort,
    };
    // clang-format on
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    // The previous 1, 2 and 3 bytes of each byte, across the block boundary.
    const __m256i shifted = _mm256_permute2x128_si256(state.previous, input, 0x21);
    const __m256i prev1 = _mm256_alignr_epi8(input, shifted, 15);
    const __m256i prev2 = _mm256_alignr_epi8(input, shifted, 14);
    const __m256i prev3 = _mm256_alignr_epi8(input, shifted, 13);

    const __m256i prev1High = _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low4);
    const __m256i inputHigh = _mm256_and_si256(_mm256_srli_epi16(input, 4), low4);
    const __m256i high1 = _mm256_shuffle_epi8(table(byte1High), prev1High);
    const __m256i low1 = _mm256_shuffle_epi8(table(byte1Low), _mm256_and_si256(prev1, low4));
    const __m256i high2 = _mm256_shuffle_epi8(table(byte2High), inputHigh);
    const __m256i special = _mm256_and_si256(_mm256_and_si256(high1, low1), high2);

    // Where a continuation must come (third and fourth bytes), two in a row are fine.
    const __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8(char(0xE0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8(char(0xF0 - 0x80)));
    const __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth),
                                            _mm256_set1_epi8(char(0x80)));
    const __m256i error = _mm256_xor_si256(must23, special);

    // A lead byte in the last three positions that still wants more.
    static constexpr unsigned char maxTail[32] = {
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF,
    };
    const __m256i maxValue = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(maxTail));
    state.incomplete = _mm256_subs_epu8(input, maxValue);
    state.previous = input;
    return error;
}

// The offset of the 32-byte block at which the first error shows (size() for
// a sequence cut at the very end), or -1 when all of [data, data + size) is
// valid.
__attribute__((target("avx2"))) qsizetype firstSuspectBlock(const unsigned char *data,
                                                            qsizetype size)
{
    State state{_mm256_setzero_si256(), _mm256_setzero_si256()};
    qsizetype pos = 0;
    for (; pos + 32 <= size; pos += 32) {
        const __m256i input = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(data + pos));
        const __m256i error = checkBlock(input, state);
        if (!_mm256_testz_si256(error, error))
            return pos;
    }
    if (pos < size) {
        // Zero padding is ASCII: a sequence cut by the end shows as too short.
        alignas(32) unsigned char tail[32] = {};
        std::memcpy(tail, data + pos, static_cast<size_t>(size - pos));
        const __m256i error = checkBlock(_mm256_load_si256(reinterpret_cast<const __m256i *>(tail)),
                                         state);
        if (!_mm256_testz_si256(error, error))
            return pos;
        pos = size;
    }
    if (!_mm256_testz_si256(state.incomplete, state.incomplete))
        return pos;
    return -1;
}

} // namespace avx2

bool hasAvx2()
{
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

qsizetype fastValidPrefixLength(const unsigned char *begin, const unsigned char *end)
{
    const qsizetype size = end - begin;
    if (size < 64 || !hasAvx2())
        return scalarValidPrefixLength(begin, end);
    const qsizetype suspect = avx2::firstSuspectBlock(begin, size);
    if (suspect < 0)
        return size;
    // An error flagged in one block may start in the block before; everything
    // before that was checked. Resume the scalar decoder at a character start.
    qsizetype from = qMax<qsizetype>(0, suspect - 32);
    for (int back = 0; back < 3 && from > 0 && (begin[from] & 0xC0) == 0x80; ++back)
        --from;
    if ((begin[from] & 0xC0) == 0x80)
        from = 0;
    return from + scalarValidPrefixLength(begin + from, end);
}

#else

qsizetype fastValidPrefixLength(const unsigned char *begin, const unsigned char *end)
{
    return scalarValidPrefixLength(begin, end);
}

#endif

// Walks `bytes`, calling valid(from, to) for each run of valid UTF-8 and
// invalid() for each maximal invalid subpart.
template<typename OnValid, typename OnInvalid>
void walk(QByteArrayView bytes, OnValid &&valid, OnInvalid &&invalid)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
    const auto *end = p + bytes.size();
    while (p < end) {
        const unsigned char *runEnd = p + fastValidPrefixLength(p, end);
        if (runEnd > p)
            valid(p, runEnd);
        if (runEnd == end)
            break;
        invalid();
        p = runEnd + decodeMultiByte(runEnd, end).length;
    }
}

} // namespace

qsizetype validPrefixLength(QByteArrayView bytes)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(bytes.data());
    return fastValidPrefixLength(begin, begin + bytes.size());
}

qsizetype rawOffset(QByteArrayView bytes, qsizetype sanitizedOffset)
{
    const auto *begin = reinterpret_cast<const unsigned char *>(bytes.data());
    const auto *end = begin + bytes.size();
    const unsigned char *p = begin;
    qsizetype sanitized = 0;
    while (p < end) {
        const unsigned char *runEnd = p + fastValidPrefixLength(p, end);
        if (sanitizedOffset < sanitized + (runEnd - p))
            return (p - begin) + qMax<qsizetype>(0, sanitizedOffset - sanitized);
        sanitized += runEnd - p;
        p = runEnd;
        if (p == end)
            break;
        if (sanitizedOffset < sanitized + 3)
            return p - begin;
        sanitized += 3;
        p += decodeMultiByte(p, end).length;
    }
    return bytes.size();
}

qsizetype countInvalidSubparts(QByteArrayView bytes)
{
    qsizetype count = 0;
    walk(
        bytes, [](const unsigned char *, const unsigned char *) {}, [&count] { ++count; });
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
