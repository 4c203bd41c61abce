#include "compose/composer.h"
#include "compose/composerule.h"
#include "compose/contract.h"
#include "diff/liveprefix.h"
#include "diff/sectionedsoul.h"
#include "diff/souldiff.h"
#include "diff/tokenencoder.h"

#include <QTest>

using namespace soul;

namespace {

using Slots = QMap<int, QByteArray>; // slot -> file bytes

SectionedSoul soulOf(const Slots &files)
{
    SlotBuffers buffers;
    for (auto it = files.begin(); it != files.end(); ++it)
        buffers[size_t(it.key())] = it.value();
    return sectionedSoul(compose(buffers), QStringLiteral("soul"));
}

// A composed soul cut into one array per section, as a snapshot is read for
// a comparison.
LiveSections sectionsOf(const SectionedSoul &soul)
{
    LiveSections out;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (!soul.present(slot))
            continue;
        out.section[size_t(slot)] = soul.section(slot).toByteArray();
        out.truncated[size_t(slot)] = soul.truncated[size_t(slot)];
        out.bodyFirstLine[size_t(slot)] = soul.bodyFirstLine[size_t(slot)];
    }
    return out;
}

// The live side as the window builds it: one section per slot.
LiveSections liveOf(const Slots &files)
{
    LiveSections live;
    for (auto it = files.begin(); it != files.end(); ++it) {
        bool truncated = false;
        live.section[size_t(it.key())] = composeSection(it.key(), it.value(), &truncated);
        live.truncated[size_t(it.key())] = truncated;
        live.bodyFirstLine[size_t(it.key())] = bodyFirstLine(it.value());
    }
    return live;
}

// Compares `live` against the whole-soul results of `a` and `after`.
void checkSameAsWholeSoul(const LiveComparison &got,
                          const SectionedSoul &a,
                          const Slots &after,
                          const TokenEncoding &encoding)
{
    const SectionedSoul b = soulOf(after);
    const StablePrefix want = stablePrefix(a.soul, b.soul, encoding);
    QCOMPARE(got.prefix.tokens, want.tokens);
    QCOMPARE(got.prefix.totalTokens, want.totalTokens);
    QCOMPARE(got.prefix.bytes, want.bytes);
    QCOMPARE(got.prefix.totalBytes, want.totalBytes);
    QCOMPARE(got.prefix.identical, want.identical);
    const auto status = compareSections(a, b);
    QCOMPARE(got.status, status);
    const auto first = firstChange(a, b, status, want.bytes);
    QCOMPARE(got.firstChange.has_value(), !want.identical);
    // Both sides say where the change is, or neither does: a missing one is
    // a failure here, not a crash below.
    QCOMPARE(first.has_value(), got.firstChange.has_value());
    if (got.firstChange) {
        QCOMPARE(got.firstChange->slot, first->slot);
        QCOMPARE(got.firstChange->line, first->line);
        QCOMPARE(got.firstChange->offset, first->offset);
    }
}

const Slots Base{
    {0, "# Agents\n\nBe brief. Cite files.\n"},
    {1, "\n\nI am Ava, calm and exact.\n"},
    {3, "Name: Ava\n"},
    {6, "- likes tea\n- works late\n- the build is green\n"},
};

} // namespace

class TestLivePrefix : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void joinedEqualsComposed();
    void sameAsWholeSoul_data();
    void sameAsWholeSoul();
    void editsEncodeOnlyNewText();
    void longSectionEditedInBlocks();
    void editSequence_data();
    void editSequence();
    void truncatedSectionMoved();
    void snapshotSharesLiveArrays();
};

void TestLivePrefix::joinedEqualsComposed()
{
    const SectionedSoul composed = soulOf(Base);
    const SectionedSoul joined = joinSections(liveOf(Base), QStringLiteral("live"));
    QCOMPARE(joined.soul, composed.soul);
    QCOMPARE(joined.sectionOffset, composed.sectionOffset);
    QCOMPARE(joined.sectionLength, composed.sectionLength);
    QCOMPARE(joined.bodyFirstLine, composed.bodyFirstLine);
}

void TestLivePrefix::sameAsWholeSoul_data()
{
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<Slots>("after");

    auto edited = [](int slot, const QByteArray &bytes) {
        Slots s = Base;
        if (bytes.isNull())
            s.remove(slot);
        else
            s[slot] = bytes;
        return s;
    };
    for (const QString &encoding :
         {QStringLiteral("o200k_base"), QStringLiteral("cl100k_base"), QStringLiteral("bytes")}) {
        const QByteArray e = encoding.toUtf8();
        QTest::addRow("%s identical", e.constData()) << encoding << Base;
        QTest::addRow("%s first byte", e.constData())
            << encoding << edited(0, "! Agents\n\nBe brief. Cite files.\n");
        QTest::addRow("%s word in memory", e.constData())
            << encoding << edited(6, "- likes coffee\n- works late\n- the build is green\n");
        QTest::addRow("%s last byte", e.constData())
            << encoding << edited(6, "- likes tea\n- works late\n- the build is red\n");
        QTest::addRow("%s token boundary", e.constData())
            << encoding << edited(1, "\n\nI am Ava, calm and exactly so.\n");
        QTest::addRow("%s added slot", e.constData()) << encoding << edited(2, "Tools: none\n");
        QTest::addRow("%s removed slot", e.constData()) << encoding << edited(3, {});
        QTest::addRow("%s removed last slot", e.constData()) << encoding << edited(6, {});
        QTest::addRow("%s appended paragraph", e.constData())
            << encoding << edited(3, "Name: Ava\n\nAlso: Eve\n");
    }
}

void TestLivePrefix::sameAsWholeSoul()
{
    QFETCH(QString, encoding);
    QFETCH(Slots, after);
    const Result<TokenEncoding> enc = tokenEncoding(encoding);
    QVERIFY2(enc, qPrintable(enc.error()));
    const SectionedSoul a = soulOf(Base);
    LivePrefix live(sectionsOf(a), enc.value());
    // Twice: the second comparison comes from the caches.
    for (int round = 0; round < 2; ++round) {
        checkSameAsWholeSoul(live.compare(liveOf(after)), a, after, enc.value());
        if (QTest::currentTestFailed())
            return;
    }
}

void TestLivePrefix::editsEncodeOnlyNewText()
{
    const Result<TokenEncoding> enc = tokenEncoding(QStringLiteral("o200k_base"));
    QVERIFY(enc);
    LivePrefix live(sectionsOf(soulOf(Base)), enc.value());
    Slots after = Base;
    after[6] = "- likes coffee\n- works late\n- the build is green\n";
    // Only MEMORY.md differs: one section is encoded, the rest are the snapshot's.
    QCOMPARE(live.compare(liveOf(after)).encodedSections, 1);
    QCOMPARE(live.compare(liveOf(after)).encodedSections, 0);
    after[6] = "- likes cocoa\n- works late\n- the build is green\n";
    QCOMPARE(live.compare(liveOf(after)).encodedSections, 1);
    QCOMPARE(live.compare(liveOf(Base)).encodedSections, 0);
}

void TestLivePrefix::longSectionEditedInBlocks()
{
    // About 200 KB of lines that start with letters, blanks, slashes,
    // digits and marks: many blocks, and every kind of line start at a cut.
    QByteArray memory;
    const char *starts[] = {"Note", "  indented", "/path", "- item", "12 items", "\tTab", "x"};
    for (int i = 0; memory.size() < 200 * 1024; ++i)
        memory += QByteArray(starts[i % 7]) + " line " + QByteArray::number(i) + " ends here.\n";
    Slots before = Base;
    before[6] = memory;
    const Result<TokenEncoding> enc = tokenEncoding(QStringLiteral("o200k_base"));
    QVERIFY(enc);
    const SectionedSoul a = soulOf(before);
    LivePrefix live(sectionsOf(a), enc.value());
    Slots after = before;
    // Edits one after another, each on the text the previous one left.
    const QList<QPair<qsizetype, QByteArray>> edits{{100000, "word "},
                                                    {150000, "\n/slash"},
                                                    {20, "X"},
                                                    {-1, "tail\n"},
                                                    {60000, "\n\nNew"},
                                                    {99990, ""}};
    for (const auto &edit : edits) {
        QByteArray &m = after[6];
        if (edit.first < 0)
            m.append(edit.second);
        else if (edit.second.isEmpty())
            m.remove(edit.first, 40);
        else
            m.insert(edit.first, edit.second);
        const LiveComparison got = live.compare(liveOf(after));
        const StablePrefix want = stablePrefix(a.soul, soulOf(after).soul, enc.value());
        QCOMPARE(got.prefix.tokens, want.tokens);
        QCOMPARE(got.prefix.totalTokens, want.totalTokens);
    }
}

void TestLivePrefix::editSequence_data()
{
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<QList<Slots>>("steps");

    auto with = [](Slots s, int slot, const QByteArray &bytes) {
        if (bytes.isNull())
            s.remove(slot);
        else
            s[slot] = bytes;
        return s;
    };
    const Slots memory = with(Base, 6, "- likes coffee\n- works late\n- the build is green\n");
    const Slots soulToo = with(memory, 1, "\n\nI am Ava, calm and precise.\n");
    const Slots noUser = with(Base, 3, {});
    const Slots tools = with(noUser, 2, "Tools: none\n");
    const Slots noMemory = with(Base, 6, {});
    for (const QString &encoding :
         {QStringLiteral("o200k_base"), QStringLiteral("cl100k_base"), QStringLiteral("bytes")}) {
        const QByteArray e = encoding.toUtf8();
        // The first change moves up to SOUL.md, back down to MEMORY.md, and goes.
        QTest::addRow("%s first change moves", e.constData())
            << encoding << QList<Slots>{memory, soulToo, memory, Base};
        QTest::addRow("%s section equal again", e.constData())
            << encoding
            << QList<Slots>{with(Base, 3, "Name: Eve\n"), Base, with(Base, 3, "Name: Ava \n"), Base};
        QTest::addRow("%s slots removed and added", e.constData())
            << encoding << QList<Slots>{noUser, tools, with(tools, 3, "Name: Ava\n"), noUser, Base};
        // The last slot goes: the one before it loses its join, and has it
        // again when a slot after it comes.
        QTest::addRow("%s join comes and goes", e.constData())
            << encoding
            << QList<Slots>{noMemory,
                            with(noMemory, 5, "Heartbeat\n"),
                            with(memory, 5, "Beat\n"),
                            Base};
        QTest::addRow("%s all slots go", e.constData())
            << encoding << QList<Slots>{Slots{}, Base, with(Slots{}, 4, "Later\n"), Base};
    }
}

void TestLivePrefix::editSequence()
{
    QFETCH(QString, encoding);
    QFETCH(QList<Slots>, steps);
    const Result<TokenEncoding> enc = tokenEncoding(encoding);
    QVERIFY2(enc, qPrintable(enc.error()));
    const SectionedSoul a = soulOf(Base);
    LivePrefix live(sectionsOf(a), enc.value());
    // One comparison after another on the same caches, as the author edits.
    for (const Slots &step : steps) {
        checkSameAsWholeSoul(live.compare(liveOf(step)), a, step, enc.value());
        if (QTest::currentTestFailed())
            return;
    }
}

void TestLivePrefix::truncatedSectionMoved()
{
    // MEMORY.md over the cap: typing before the cut moves the text after it,
    // and the cut takes other bytes, so no suffix is shared. The blocks the
    // text moved keep their counts: a keystroke encodes a few blocks only.
    QByteArray memory;
    const char *words[]
        = {"note", "agent", "tools", "prefers", "metric", "brief", "check", "acting"};
    for (quint32 i = 0, state = 7; memory.size() < ComposeRule::toolnexus().capBytes + 4096; ++i) {
        QByteArray line = i % 3 == 0 ? "- Item " : "Note ";
        for (int w = 0; w < 12; ++w) {
            state = state * 1103515245u + 12345u;
            line += QByteArray(words[(state >> 16) % 8]) + ' ';
        }
        memory += line + QByteArray::number(i) + ".\n";
    }
    Slots before = Base;
    before[6] = memory;
    const Result<TokenEncoding> enc = tokenEncoding(QStringLiteral("o200k_base"));
    QVERIFY(enc);
    const SectionedSoul a = soulOf(before);
    QVERIFY(a.truncated[6]);
    LivePrefix live(sectionsOf(a), enc.value());
    QCOMPARE(live.heldIds(), 0);
    Slots after = before;
    const QList<QPair<qsizetype, QByteArray>> edits{{500000, "q"},
                                                    {500001, "q"},
                                                    {500001, ""},
                                                    {1000000, QByteArray(3000, 'x')},
                                                    {20, "Z"}};
    for (const auto &edit : edits) {
        QByteArray &m = after[6];
        if (edit.second.isEmpty())
            m.remove(edit.first, 1);
        else
            m.insert(edit.first, edit.second);
        const LiveComparison got = live.compare(liveOf(after));
        checkSameAsWholeSoul(got, a, after, enc.value());
        if (QTest::currentTestFailed())
            return;
        // The blocks around the edit, the last one before the notice and the
        // one where the prefix ends: far from the 2 MiB of the section.
        QVERIFY2(got.encodedBytes < 160 * 1024,
                 qPrintable(QStringLiteral("%1 bytes encoded after the edit at %2")
                                .arg(got.encodedBytes)
                                .arg(edit.first)));
        // Of the snapshot's ids only a block or two are held.
        QVERIFY(live.heldIds() > 0);
        QVERIFY2(live.heldIds() < 20000, qPrintable(QString::number(live.heldIds())));
    }
}

void TestLivePrefix::snapshotSharesLiveArrays()
{
    // The snapshot's sections are the model's arrays where they are equal:
    // the same comparison as with arrays of its own.
    const Result<TokenEncoding> enc = tokenEncoding(QStringLiteral("o200k_base"));
    QVERIFY(enc);
    const LiveSections shared = liveOf(Base);
    LivePrefix live(shared, enc.value());
    QVERIFY(live.snapshot().section[6]->constData() == shared.section[6]->constData());
    LiveComparison got = live.compare(shared);
    QVERIFY(got.prefix.identical);
    QCOMPARE(got.encodedSections, 0);
    Slots after = Base;
    after[6] = "- likes tea\n- works late\n- the build is red\n";
    LiveSections edited = shared;
    edited.section[6] = liveOf(after).section[6];
    got = live.compare(edited);
    checkSameAsWholeSoul(got, soulOf(Base), after, enc.value());
}

QTEST_GUILESS_MAIN(TestLivePrefix)
#include "tst_liveprefix.moc"
