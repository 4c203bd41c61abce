#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <cstdio>
#include <cstdlib>

namespace soul::fuzz {

// Aborts with a message, so the fuzzer records the input as a crash.
[[noreturn]] inline void fail(const char *what)
{
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
}

inline void require(bool condition, const char *what)
{
    if (!condition)
        fail(what);
}

// An independent, byte-at-a-time decoder straight from Unicode's table of
// well-formed UTF-8 (Table 3-7), used to check the fast one. Appends the
// UTF-8 of each code point (U+FFFD for each maximal invalid subpart).
inline QByteArray referenceSanitize(QByteArrayView in)
{
    QByteArray out;
    const auto byte = [&](qsizetype i) { return static_cast<unsigned char>(in[i]); };
    qsizetype i = 0;
    while (i < in.size()) {
        const unsigned char b = byte(i);
        int need = 0;
        unsigned char lo = 0x80;
        unsigned char hi = 0xBF;
        if (b <= 0x7F) {
            out.append(static_cast<char>(b));
            ++i;
            continue;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        } else if (b == 0xE0) {
            need = 2;
            lo = 0xA0;
        } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
            need = 2;
        } else if (b == 0xED) {
            need = 2;
            hi = 0x9F;
        } else if (b == 0xF0) {
            need = 3;
            lo = 0x90;
        } else if (b >= 0xF1 && b <= 0xF3) {
            need = 3;
        } else if (b == 0xF4) {
            need = 3;
            hi = 0x8F;
        } else {
            out.append("\xEF\xBF\xBD");
            ++i;
            continue;
        }
        int got = 0;
        while (got < need && i + 1 + got < in.size()) {
            const unsigned char c = byte(i + 1 + got);
            const unsigned char l = got == 0 ? lo : 0x80;
            const unsigned char h = got == 0 ? hi : 0xBF;
            if (c < l || c > h)
                break;
            ++got;
        }
        if (got == need)
            out.append(in.sliced(i, need + 1).data(), need + 1);
        else
            out.append("\xEF\xBF\xBD");
        i += got + 1;
    }
    return out;
}

} // namespace soul::fuzz
