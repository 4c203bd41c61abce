#include "composer.h"
#include "contract.h"
#include "tokencounter.h"
#include "tokenizer.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace soul;

namespace {

// The sections of `c` as they stand in its soul; std::nullopt for absent slots.
std::array<std::optional<QByteArray>, SlotCount> sectionsOf(const Composition &c)
{
    std::array<std::optional<QByteArray>, SlotCount> out;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto k = size_t(slot);
        if (c.present[k])
            out[k] = c.soul.mid(c.sectionOffset[k], c.sectionLength[k]);
    }
    return out;
}

SlotBuffers persona()
{
    SlotBuffers b;
    b[0] = QByteArray("Answer briefly.\nAsk before acting.");
    b[1] = QByteArray("You are Ava: calm, exact.\n\n- Keep it short!");
    b[3] = QByteArray("\xEF\xBB\xBF"
                      "Muthu prefers metric units; \xE4\xB8\xAD\xE6\x96\x87 is fine.");
    b[4] = QByteArray("Use grep...\r\nNever guess.");
    b[6] = QByteArray("- 2026: moved to Z\xC3\xBCrich \xF0\x9F\x8F\x94");
    return b;
}

} // namespace

class TestTokenCounter : public QObject
{
    Q_OBJECT

private:
    // Sets every section of `c` and waits for the soul's count.
    static bool countAll(TokenCounter &counter, const Composition &c)
    {
        QSignalSpy soul(&counter, &TokenCounter::soulCounted);
        const auto sections = sectionsOf(c);
        for (int slot = 0; slot < SlotCount; ++slot)
            counter.setSection(slot, sections[size_t(slot)]);
        return soul.wait(20000) || !counter.isCounting();
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void countsEqualTheWholeSoul_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::newRow("o200k_base") << QStringLiteral("o200k_base");
        QTest::newRow("cl100k_base") << QStringLiteral("cl100k_base");
    }
    void countsEqualTheWholeSoul()
    {
        QFETCH(QString, encoding);
        const auto tokenizer = Tokenizer::builtin(encoding);
        TokenCounter counter(tokenizer);
        const Composition c = compose(persona());
        QVERIFY(countAll(counter, c));
        QTRY_VERIFY(!counter.isCounting());
        QCOMPARE(counter.soulTokens(), tokenizer->count(c.soul));
        const auto sections = sectionsOf(c);
        for (int slot = 0; slot < SlotCount; ++slot) {
            const auto &s = sections[size_t(slot)];
            QCOMPARE(counter.sectionTokens(slot), s ? tokenizer->count(*s) : qint64(-1));
        }
        // Removing the last section makes another one last (no join after it).
        SlotBuffers fewer = persona();
        fewer[6].reset();
        QSignalSpy soul(&counter, &TokenCounter::soulCounted);
        counter.setSection(6, std::nullopt);
        QVERIFY(soul.count() == 1 || soul.wait(20000));
        QCOMPARE(soul.last().at(0).toLongLong(), tokenizer->count(compose(fewer).soul));
        QCOMPARE(counter.sectionTokens(6), qint64(-1));
    }

    // Many edits in a row: the last text's count arrives, older ones are
    // superseded rather than all counted.
    void newerEditsSupersedeOlderCounts()
    {
        const auto tokenizer = Tokenizer::builtin(u"o200k_base");
        TokenCounter counter(tokenizer);
        SlotBuffers b = persona();
        QByteArray big;
        for (int i = 0; big.size() < (1 << 20); ++i)
            big += "Line " + QByteArray::number(i) + " of the notes, kept short.\n";
        b[6] = big;
        QVERIFY(countAll(counter, compose(b)));
        QTRY_VERIFY(!counter.isCounting());

        QSignalSpy sections(&counter, &TokenCounter::sectionCounted);
        QSignalSpy soul(&counter, &TokenCounter::soulCounted);
        const int edits = 40;
        for (int i = 0; i < edits; ++i) {
            b[6] = big + "edit " + QByteArray::number(i);
            counter.setSection(6, composeSection(6, *b[6]));
            QCOMPARE(counter.soulTokens(), qint64(-1)); // pending
        }
        QVERIFY(soul.wait(30000));
        QTRY_VERIFY(!counter.isCounting());
        QCOMPARE(counter.soulTokens(), tokenizer->count(compose(b).soul));
        QCOMPARE(soul.count(), 1);
        QVERIFY2(sections.count() < edits / 2, qPrintable(QString::number(sections.count())));
        for (const QList<QVariant> &args : sections)
            QCOMPARE(args.at(0).toInt(), 6);
    }

    void switchingTheEncodingRecounts()
    {
        TokenCounter counter(Tokenizer::builtin(u"o200k_base"));
        const Composition c = compose(persona());
        QVERIFY(countAll(counter, c));
        QTRY_VERIFY(!counter.isCounting());
        const auto cl100k = Tokenizer::builtin(u"cl100k_base");
        QSignalSpy soul(&counter, &TokenCounter::soulCounted);
        counter.setTokenizer(cl100k);
        QVERIFY(counter.isCounting());
        QVERIFY(soul.wait(20000));
        QCOMPARE(counter.soulTokens(), cl100k->count(c.soul));
        QVERIFY(cl100k->count(c.soul) != Tokenizer::builtin(u"o200k_base")->count(c.soul));
    }

    // Destroyed with counts in flight: nothing arrives afterwards, nothing crashes.
    void destroyedWhileCounting()
    {
        auto counter = std::make_unique<TokenCounter>(Tokenizer::builtin(u"o200k_base"));
        counter->setSection(0, composeSection(0, QByteArray(1 << 20, 'q')));
        QVERIFY(counter->isCounting());
        counter.reset();
        QTest::qWait(0);
        QVERIFY(!counter);
    }
};

QTEST_GUILESS_MAIN(TestTokenCounter)
#include "tst_tokencounter.moc"
