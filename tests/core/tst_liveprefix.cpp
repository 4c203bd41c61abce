#include "composer.h"
#include "contract.h"
#include "liveprefix.h"
#include "sectionedsoul.h"
#include "souldiff.h"
#include "tokenencoder.h"

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

// The live side as the window builds it: one section per slot.
SectionedSoul liveOf(const Slots &files)
{
    LiveSections live;
    for (auto it = files.begin(); it != files.end(); ++it) {
        bool truncated = false;
        live.section[size_t(it.key())] = composeSection(it.key(), it.value(), &truncated);
        live.truncated[size_t(it.key())] = truncated;
        live.bodyFirstLine[size_t(it.key())] = bodyFirstLine(it.value());
    }
    return joinSections(live, QStringLiteral("live"));
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
};

void TestLivePrefix::joinedEqualsComposed()
{
    const SectionedSoul composed = soulOf(Base);
    const SectionedSoul joined = liveOf(Base);
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
    const SectionedSoul b = soulOf(after);
    LivePrefix live(a, enc.value());
    // Twice: the second comparison comes from the caches.
    for (int round = 0; round < 2; ++round) {
        const LiveComparison got = live.compare(liveOf(after));
        const StablePrefix want = stablePrefix(a.soul, b.soul, enc.value());
        QCOMPARE(got.prefix.tokens, want.tokens);
        QCOMPARE(got.prefix.totalTokens, want.totalTokens);
        QCOMPARE(got.prefix.bytes, want.bytes);
        QCOMPARE(got.prefix.totalBytes, want.totalBytes);
        QCOMPARE(got.prefix.identical, want.identical);
        const auto status = compareSections(a, b);
        QCOMPARE(got.status, status);
        const auto first = firstChange(a, b, status, want.bytes);
        QCOMPARE(got.firstChange.has_value(), !want.identical);
        if (got.firstChange) {
            QCOMPARE(got.firstChange->slot, first->slot);
            QCOMPARE(got.firstChange->line, first->line);
            QCOMPARE(got.firstChange->offset, first->offset);
        }
    }
}

void TestLivePrefix::editsEncodeOnlyNewText()
{
    const Result<TokenEncoding> enc = tokenEncoding(QStringLiteral("o200k_base"));
    QVERIFY(enc);
    LivePrefix live(soulOf(Base), enc.value());
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
    LivePrefix live(a, enc.value());
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

QTEST_GUILESS_MAIN(TestLivePrefix)
#include "tst_liveprefix.moc"
