#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include "../core/referencedecoder.h"

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

// The tests' own decoder (tests/core/referencedecoder.h), written apart from
// core/, as UTF-8.
inline QByteArray referenceSanitize(QByteArrayView in)
{
    return test::referenceDecode(in.toByteArray()).text.toUtf8();
}

} // namespace soul::fuzz
