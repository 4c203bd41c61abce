#pragma once

#include "comparecontroller.h"
#include "diff/souldiff.h"
#include "diff/tokenencoder.h"
#include "persona/snapshotfile.h"

#include <QByteArray>
#include <QTest>

// Checks of a comparison against core's functions on the whole souls, for
// the session tests and the window's.
namespace soul::test {

// The stable prefix `compare` found equals stablePrefix() (o200k_base) of
// its snapshot's soul and `live`; `want`, when given, receives core's.
inline void checkPrefixAgainstCore(const CompareController *compare,
                                   const QByteArray &live,
                                   StablePrefix *want = nullptr)
{
    const Result<LoadedSnapshot> snapshot = loadSnapshot(compare->snapshotPath());
    QVERIFY2(snapshot, qPrintable(snapshot.error()));
    const StablePrefix core = stablePrefix(snapshot.value().soul.soul,
                                           live,
                                           tokenEncoding(QStringLiteral("o200k_base")).value());
    const StablePrefix &got = compare->result().prefix;
    QCOMPARE(got.tokens, core.tokens);
    QCOMPARE(got.totalTokens, core.totalTokens);
    QCOMPARE(got.bytes, core.bytes);
    QCOMPARE(got.identical, core.identical);
    if (want)
        *want = core;
}

} // namespace soul::test
