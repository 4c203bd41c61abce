#include "compose/composer.h"
#include "compose/contract.h"
#include "diff/linediff.h"
#include "diff/sectionedsoul.h"
#include "diff/sequencediff.h"
#include "diff/souldiff.h"
#include "diff/tokenencoder.h"
#include "testfiles.h"

#include <QTest>

#include <optional>

using namespace soul;
using namespace soul::test;

namespace {

using Slots = QMap<int, QByteArray>; // slot -> file bytes

SectionedSoul soulOf(const Slots &files, const QString &label)
{
    SlotBuffers buffers;
    for (auto it = files.begin(); it != files.end(); ++it)
        buffers[size_t(it.key())] = it.value();
    return sectionedSoul(compose(buffers), label);
}

// A toy encoder whose ids span runs of letters, so that a change can move
// where a token ends without touching the bytes before it.
std::vector<quint32> letterRuns(QByteArrayView utf8)
{
    std::vector<quint32> ids;
    quint32 hash = 0;
    bool inWord = false;
    for (const char c : utf8) {
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (letter) {
            hash = inWord ? hash * 31 + quint8(c) : 1000 + quint8(c);
            inWord = true;
            continue;
        }
        if (inWord)
            ids.push_back(hash);
        inWord = false;
        ids.push_back(quint8(c));
    }
    if (inWord)
        ids.push_back(hash);
    return ids;
}

std::vector<quint32> ids(const QByteArray &text)
{
    std::vector<quint32> out;
    for (const char c : text)
        out.push_back(quint8(c));
    return out;
}

} // namespace

Q_DECLARE_METATYPE(Slots)
Q_DECLARE_METATYPE(SectionStatus)

class tst_SoulDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sequences_data();
    void sequences();
    void lineDiffText_data();
    void lineDiffText();
    void words_data();
    void words();
    void sections_data();
    void sections();
    void prefix_data();
    void prefix();
    void first_data();
    void first();
    void unified_data();
    void unified();
    void unifiedLargeOneWord();
    void encodings();
};

void tst_SoulDiff::sequences_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<int>("edits"); // the shortest script's length

    QTest::newRow("both empty") << QByteArray() << QByteArray() << 0;
    QTest::newRow("identical") << QByteArray("abcdef") << QByteArray("abcdef") << 0;
    QTest::newRow("from nothing") << QByteArray() << QByteArray("abc") << 3;
    QTest::newRow("to nothing") << QByteArray("abc") << QByteArray() << 3;
    QTest::newRow("one replaced") << QByteArray("abcdef") << QByteArray("abXdef") << 2;
    QTest::newRow("insert at start") << QByteArray("bcd") << QByteArray("abcd") << 1;
    QTest::newRow("delete at end") << QByteArray("abcd") << QByteArray("abc") << 1;
    QTest::newRow("classic") << QByteArray("abcabba") << QByteArray("cbabac") << 5;
    QTest::newRow("nothing shared") << QByteArray("abc") << QByteArray("xyz") << 6;
    QTest::newRow("interleaved") << QByteArray("axbxcxd") << QByteArray("abcd") << 3;
    // Past MaxDiffEdits the middle is given as removed, then added: still a
    // correct script (and here, with nothing shared, the shortest).
    QTest::newRow("too many edits")
        << QByteArray(3000, 'a') + QByteArray(3000, 'b') << QByteArray(3000, 'c') << 9000;
}

void tst_SoulDiff::sequences()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(int, edits);
    const std::vector<DiffRun> runs = diffSequences(ids(a), ids(b));
    // Applying the script to a gives b, with the fewest edits.
    QByteArray rebuilt;
    qsizetype i = 0;
    qsizetype j = 0;
    qsizetype count = 0;
    for (size_t r = 0; r < runs.size(); ++r) {
        QVERIFY(runs[r].count > 0);
        if (r > 0)
            QVERIFY(runs[r].kind != runs[r - 1].kind);
        switch (runs[r].kind) {
        case DiffKind::Keep:
            QCOMPARE(a.mid(i, runs[r].count), b.mid(j, runs[r].count));
            rebuilt += a.mid(i, runs[r].count);
            i += runs[r].count;
            j += runs[r].count;
            break;
        case DiffKind::Remove:
            i += runs[r].count;
            count += runs[r].count;
            break;
        case DiffKind::Add:
            rebuilt += b.mid(j, runs[r].count);
            j += runs[r].count;
            count += runs[r].count;
            break;
        }
    }
    QCOMPARE(i, a.size());
    QCOMPARE(rebuilt, b);
    QCOMPARE(count, qsizetype(edits));
}

void tst_SoulDiff::lineDiffText_data()
{
    QTest::addColumn<QStringList>("before");
    QTest::addColumn<QStringList>("after");
    QTest::addColumn<QString>("expected");

    const QString names = QStringLiteral("--- a\n+++ b\n");
    QTest::newRow("same") << QStringList{QStringLiteral("x")} << QStringList{QStringLiteral("x")}
                          << names + QStringLiteral("(no differences in the text)\n");
    QTest::newRow("one line changed")
        << QStringList{QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")}
        << QStringList{QStringLiteral("one"), QStringLiteral("TWO"), QStringLiteral("three")}
        << names + QStringLiteral(" one\n-two\n+TWO\n three\n");
    QStringList longBefore;
    for (int i = 1; i <= 12; ++i)
        longBefore.append(QString::number(i));
    QStringList longAfter = longBefore;
    longAfter[0] = QStringLiteral("first");
    longAfter[11] = QStringLiteral("last");
    QTest::newRow("two parts") << longBefore << longAfter
                               << names
                                      + QStringLiteral("-1\n+first\n 2\n 3\n 4\n@@\n 9\n 10\n 11\n"
                                                       "-12\n+last\n");
}

void tst_SoulDiff::lineDiffText()
{
    QFETCH(QStringList, before);
    QFETCH(QStringList, after);
    QFETCH(QString, expected);
    QCOMPARE(lineDiff(QStringLiteral("a"), before, QStringLiteral("b"), after), expected);
}

void tst_SoulDiff::words_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<QList<TextRange>>("removed");
    QTest::addColumn<QList<TextRange>>("added");

    QTest::newRow("same") << QStringLiteral("a b") << QStringLiteral("a b") << QList<TextRange>()
                          << QList<TextRange>();
    QTest::newRow("one word") << QStringLiteral("prefers metric units")
                              << QStringLiteral("prefers imperial units")
                              << QList<TextRange>{{8, 6}} << QList<TextRange>{{8, 8}};
    QTest::newRow("appended") << QStringLiteral("Kip") << QStringLiteral("Kip, terse")
                              << QList<TextRange>() << QList<TextRange>{{3, 7}};
    QTest::newRow("punctuation alone") << QStringLiteral("a.b") << QStringLiteral("a,b")
                                       << QList<TextRange>{{1, 1}} << QList<TextRange>{{1, 1}};
    QTest::newRow("emoji stays whole")
        << QStringLiteral("x \U0001F600") << QStringLiteral("x \U0001F601")
        << QList<TextRange>{{2, 2}} << QList<TextRange>{{2, 2}};
}

void tst_SoulDiff::words()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(QList<TextRange>, removed);
    QFETCH(QList<TextRange>, added);
    const ChangedWords changed = changedWords(before, after);
    QCOMPARE(changed.removed, removed);
    QCOMPARE(changed.added, added);
}

void tst_SoulDiff::sections_data()
{
    QTest::addColumn<Slots>("a");
    QTest::addColumn<Slots>("b");
    QTest::addColumn<QList<SectionStatus>>("expected");

    using S = SectionStatus;
    QTest::newRow("every status") << Slots{{0, "same"}, {1, "old"}, {3, "gone"}}
                                  << Slots{{0, "same"}, {1, "new"}, {5, "fresh"}}
                                  << QList<S>{S::Unchanged,
                                              S::Changed,
                                              S::Absent,
                                              S::Removed,
                                              S::Absent,
                                              S::Added,
                                              S::Absent};
    QTest::newRow("only the trim differs")
        << Slots{{6, "- note"}} << Slots{{6, "\n\n- note  \n"}}
        << QList<S>{S::Absent, S::Absent, S::Absent, S::Absent, S::Absent, S::Absent, S::Unchanged};
    QTest::newRow("empty both") << Slots{} << Slots{} << QList<S>(7, S::Absent);
}

void tst_SoulDiff::sections()
{
    QFETCH(Slots, a);
    QFETCH(Slots, b);
    QFETCH(QList<SectionStatus>, expected);
    const auto status = compareSections(soulOf(a, {}), soulOf(b, {}));
    QCOMPARE(QList<SectionStatus>(status.begin(), status.end()), expected);
}

void tst_SoulDiff::prefix_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("letterTokens");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<qint64>("totalTokens");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<int>("percent");

    QTest::newRow("identical") << QByteArray("abc") << QByteArray("abc") << false << qint64(3)
                               << qint64(3) << qint64(3) << 100;
    QTest::newRow("both empty") << QByteArray() << QByteArray() << false << qint64(0) << qint64(0)
                                << qint64(0) << 100;
    QTest::newRow("first byte") << QByteArray("abc") << QByteArray("xbc") << false << qint64(0)
                                << qint64(3) << qint64(0) << 0;
    QTest::newRow("last byte") << QByteArray("abcd") << QByteArray("abcx") << false << qint64(3)
                               << qint64(4) << qint64(3) << 75;
    QTest::newRow("b is longer") << QByteArray("ab") << QByteArray("abcd") << false << qint64(2)
                                 << qint64(4) << qint64(2) << 50;
    QTest::newRow("b is empty") << QByteArray("ab") << QByteArray() << false << qint64(0)
                                << qint64(0) << qint64(0) << 0;
    QTest::newRow("never rounds up to 100")
        << QByteArray(1000, 'a') << QByteArray(999, 'a') + 'b' << false << qint64(999)
        << qint64(1000) << qint64(999) << 99;
    // "units" -> "unitsX": the bytes agree up to the end of "units", but the
    // token that held "units" is a different token now.
    QTest::newRow("token boundary moved")
        << QByteArray("prefers metric units") << QByteArray("prefers metric unitsX") << true
        << qint64(4) << qint64(5) << qint64(20) << 80;
}

void tst_SoulDiff::prefix()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, letterTokens);
    QFETCH(qint64, tokens);
    QFETCH(qint64, totalTokens);
    QFETCH(qint64, bytes);
    QFETCH(int, percent);
    const TokenEncoder encoder = letterTokens ? TokenEncoder(letterRuns) : byteEncoding().encode;
    const StablePrefix p = stablePrefix(a, b, encoder);
    QCOMPARE(p.tokens, tokens);
    QCOMPARE(p.totalTokens, totalTokens);
    QCOMPARE(p.bytes, bytes);
    QCOMPARE(p.totalBytes, qint64(b.size()));
    QCOMPARE(p.identical, a == b);
    QCOMPARE(p.percent(), percent);
    if (!letterTokens) {
        // In bytes without ids: the same answer.
        const StablePrefix q = stablePrefix(a, b, byteEncoding());
        QCOMPARE(q.tokens, p.tokens);
        QCOMPARE(q.totalTokens, p.totalTokens);
        QCOMPARE(q.bytes, p.bytes);
        QCOMPARE(q.identical, p.identical);
    }
}

void tst_SoulDiff::first_data()
{
    QTest::addColumn<Slots>("a");
    QTest::addColumn<Slots>("b");
    QTest::addColumn<QString>("file"); // empty: identical
    QTest::addColumn<qint64>("line");

    const QByteArray big = repeated("line\n", CapBytes / 5 + 10); // over the cap
    QTest::newRow("identical") << Slots{{1, "x"}} << Slots{{1, "x"}} << QString() << qint64(0);
    QTest::newRow("first byte of the soul")
        << Slots{{0, "hello"}} << Slots{{0, "jello"}} << QStringLiteral("AGENTS.md") << qint64(1);
    QTest::newRow("last byte of the soul")
        << Slots{{0, "a"}, {6, "one\ntwo\nthree"}} << Slots{{0, "a"}, {6, "one\ntwo\nthreX"}}
        << QStringLiteral("MEMORY.md") << qint64(3);
    QTest::newRow("after leading blank lines")
        << Slots{{1, "\n\n\nHi\nthere"}} << Slots{{1, "\r\n\n \nHi\nthen"}}
        << QStringLiteral("SOUL.md") << qint64(5);
    QTest::newRow("added slot") << Slots{{0, "a"}, {6, "m"}} << Slots{{0, "a"}, {4, "t"}, {6, "m"}}
                                << QStringLiteral("TOOLS.md") << qint64(1);
    QTest::newRow("removed slot") << Slots{{0, "a"}, {2, "i\nj"}, {6, "m"}}
                                  << Slots{{0, "a"}, {6, "m"}} << QStringLiteral("IDENTITY.md")
                                  << qint64(1);
    QTest::newRow("earlier slot wins") << Slots{{1, "s"}, {6, "m"}} << Slots{{1, "S"}, {6, "M"}}
                                       << QStringLiteral("SOUL.md") << qint64(1);
    QTest::newRow("text appended")
        << Slots{{3, "u\nv"}} << Slots{{3, "u\nv\nw"}} << QStringLiteral("USER.md") << qint64(2);
    QTest::newRow("BOM added") << Slots{{3, "u"}} << Slots{{3, "\xEF\xBB\xBFu"}}
                               << QStringLiteral("USER.md") << qint64(1);
    QTest::newRow("after a NUL") << Slots{{5, QByteArray("a\0b\nc", 5)}}
                                 << Slots{{5, QByteArray("a\0b\nd", 5)}}
                                 << QStringLiteral("HEARTBEAT.md") << qint64(2);
    QTest::newRow("truncated, change near the cap")
        << Slots{{4, big}} << Slots{{4, QByteArray(big).replace(CapBytes - 3, 1, "X")}}
        << QStringLiteral("TOOLS.md") << qint64(CapBytes / 5);
    // Cut no more: the notice goes, the file's text is the same up to the
    // cap, so the change is put on the last line the agent got.
    QTest::newRow("no longer truncated") << Slots{{4, big}} << Slots{{4, big.left(CapBytes)}}
                                         << QStringLiteral("TOOLS.md") << qint64(CapBytes / 5 + 1);
}

void tst_SoulDiff::first()
{
    QFETCH(Slots, a);
    QFETCH(Slots, b);
    QFETCH(QString, file);
    QFETCH(qint64, line);
    const SectionedSoul sa = soulOf(a, QStringLiteral("a"));
    const SectionedSoul sb = soulOf(b, QStringLiteral("b"));
    const auto change
        = firstChange(sa, sb, compareSections(sa, sb), commonPrefixLength(sa.soul, sb.soul));
    if (file.isEmpty()) {
        QVERIFY(!change);
        return;
    }
    QVERIFY(change);
    QCOMPARE(change->file, file);
    QCOMPARE(change->line, line);
    QCOMPARE(change->slot, slotIndex(file));
}

void tst_SoulDiff::unified_data()
{
    QTest::addColumn<Slots>("a");
    QTest::addColumn<Slots>("b");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("identical") << Slots{{1, "x"}} << Slots{{1, "x"}} << QByteArray();
    QTest::newRow("changed last line")
        << Slots{{1, "You are Kip."}, {6, "- one\n- two\n- three\n- four\n- metric"}}
        << Slots{{1, "You are Kip."}, {6, "- one\n- two\n- three\n- four\n- imperial"}}
        << QByteArray("--- a\n+++ b\n"
                      "@@ -8,4 +8,4 @@ MEMORY.md\n"
                      " - two\n - three\n - four\n"
                      "-- metric\n\\ No newline at end of file\n"
                      "+- imperial\n\\ No newline at end of file\n");
    QTest::newRow("added section")
        << Slots{{0, "a"}, {6, "m"}} << Slots{{0, "a"}, {4, "t"}, {6, "m"}}
        << QByteArray("--- a\n+++ b\n"
                      "@@ -2,6 +2,10 @@ TOOLS.md\n"
                      " \n a\n \n+## TOOLS.md\n+\n+t\n+\n ## MEMORY.md\n \n m\n"
                      "\\ No newline at end of file\n");
    // "a" loses its line break as the last line, so the change starts in AGENTS.md.
    QTest::newRow("removed section")
        << Slots{{0, "a"}, {2, "i"}} << Slots{{0, "a"}}
        << QByteArray(
               "--- a\n+++ b\n"
               "@@ -1,7 +1,3 @@ AGENTS.md\n"
               " ## AGENTS.md\n \n-a\n-\n-## IDENTITY.md\n-\n-i\n\\ No newline at end of file\n"
               "+a\n\\ No newline at end of file\n");
    QTest::newRow("first line") << Slots{{0, "a"}} << Slots{{1, "a"}}
                                << QByteArray("--- a\n+++ b\n"
                                              "@@ -1,3 +1,3 @@ SOUL.md\n"
                                              "-## AGENTS.md\n+## SOUL.md\n"
                                              " \n a\n\\ No newline at end of file\n");
}

void tst_SoulDiff::unified()
{
    QFETCH(Slots, a);
    QFETCH(Slots, b);
    QFETCH(QByteArray, expected);
    const QByteArray diff = unifiedSoulDiff(soulOf(a, QStringLiteral("a")),
                                            soulOf(b, QStringLiteral("b")));
    QCOMPARE(diff, expected);
}

void tst_SoulDiff::unifiedLargeOneWord()
{
    // Seven slots near the cap, one word changed in MEMORY.md: one hunk,
    // with its real line numbers.
    Slots a;
    for (int slot = 0; slot < SlotCount; ++slot)
        a[slot] = repeated("The quick brown fox jumps over the lazy dog.\n", 40000);
    Slots b = a;
    b[6].replace(45 * 20000 + 4, 5, "QUICK");
    const SectionedSoul sa = soulOf(a, QStringLiteral("a"));
    const SectionedSoul sb = soulOf(b, QStringLiteral("b"));
    const QByteArray diff = unifiedSoulDiff(sa, sb);
    // Line of the change in the soul: six sections of 4 + 40000 lines
    // (head, blank, body, and the blank of the join), then 2 + 20001.
    const qint64 line = 6 * (2 + 40000 + 1) + 2 + 20001;
    const QByteArray expected = "--- a\n+++ b\n@@ -" + QByteArray::number(line - 3) + ",7 +"
                                + QByteArray::number(line - 3) + ",7 @@ MEMORY.md\n";
    QVERIFY2(diff.startsWith(expected), diff.left(200).constData());
    QCOMPARE(diff.count("\n-The"), 1);
    QCOMPARE(diff.count("\n+The QUICK"), 1);
    const auto change
        = firstChange(sa, sb, compareSections(sa, sb), commonPrefixLength(sa.soul, sb.soul));
    QVERIFY(change);
    QCOMPARE(change->file, QStringLiteral("MEMORY.md"));
    QCOMPARE(change->line, qint64(20001));
}

void tst_SoulDiff::encodings()
{
    const Result<TokenEncoding> bytes = tokenEncoding(QStringLiteral("bytes"));
    QVERIFY(bytes.ok());
    QCOMPARE(bytes->name, QStringLiteral("bytes"));
    QCOMPARE(bytes->encode(QByteArrayView("\xC3\xA9x")), (std::vector<quint32>{0xC3, 0xA9, 'x'}));

    // The default counts o200k_base tokens: " unit" and " units" are one token
    // each, so the ids part where the bytes still agree.
    const Result<TokenEncoding> tokens = tokenEncoding(QString());
    QVERIFY(tokens.ok());
    QCOMPARE(tokens->name, QStringLiteral("o200k_base"));
    QCOMPARE(tokens->unit, QStringLiteral("tokens"));
    const StablePrefix prefix = stablePrefix("metric unit", "metric units", *tokens);
    QCOMPARE(prefix.bytes, qint64(11));
    QCOMPARE(prefix.tokens, qint64(1));
    QCOMPARE(prefix.totalTokens, qint64(2));
    QCOMPARE(tokenEncoding(QStringLiteral("cl100k_base"))->name, QStringLiteral("cl100k_base"));
    const Result<TokenEncoding> unknown = tokenEncoding(QStringLiteral("nope"));
    QVERIFY(!unknown.ok());
    QVERIFY2(unknown.error().contains(QStringLiteral("'nope'")), qPrintable(unknown.error()));
}

QTEST_GUILESS_MAIN(tst_SoulDiff)

#include "tst_souldiff.moc"
