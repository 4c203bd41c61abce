#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

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

// A folder of this process's own for the files a target writes, removed at
// exit.
inline QString scratchDir()
{
    static QTemporaryDir dir;
    if (!dir.isValid())
        fail("cannot make a scratch folder");
    return dir.path();
}

// Writes `bytes` to `path`, replacing it; false on failure.
inline bool writeFile(const QString &path, QByteArrayView bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes.data(), bytes.size()) == bytes.size() && file.flush();
}

// The tests' own decoder (tests/core/referencedecoder.h), written apart from
// core/, as UTF-8.
inline QByteArray referenceSanitize(QByteArrayView in)
{
    return test::referenceDecode(in.toByteArray()).text.toUtf8();
}

inline QString referenceDecode(QByteArrayView in)
{
    return test::referenceDecode(in.toByteArray()).text;
}

} // namespace soul::fuzz
