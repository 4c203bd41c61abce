#include "../core/testfiles.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "tokens/tokenizer.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>

using namespace soul;
using namespace soul::test;

namespace {

// Prose whose lines mostly start with a letter, so a section of it is cut
// into many chunks; punctuation at the ends, where "\n\n" can merge.
QByteArray prose(qsizetype bytes, int seed)
{
    static const char *const words[] = {"Ava",
                                        "answers",
                                        "briefly;",
                                        "tools:",
                                        "memory",
                                        "`code`",
                                        "naïve",
                                        "中文",
                                        "emoji 👩‍💻",
                                        "don't",
                                        "1234567",
                                        "(note)",
                                        "**bold**",
                                        "metric",
                                        "units."};
    QByteArray out;
    quint32 state = quint32(seed) * 2654435761u + 7;
    int line = 0;
    while (out.size() < bytes) {
        if (line % 15 == 0)
            out += "## Part " + QByteArray::number(line) + "\n\n";
        if (line % 4 == 1)
            out += "- ";
        for (int w = 0; w < 8; ++w) {
            state = state * 1664525u + 1013904223u;
            out += words[(state >> 16) % 15];
            out += ' ';
        }
        out += line % 2 ? "end.\n" : "end\n";
        ++line;
    }
    return out;
}

} // namespace

class tst_SoulTokenCounter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void countsMatchTheComposedSoul_data();
    void countsMatchTheComposedSoul();
    void editsInALargeSectionRecountExactly();
    void rapidEditsAreCoalesced();
    void staleCountNeverOverwritesNewer();
    void encodingSwitchRecountsEverything();
    void unusableTokenizerFileKeepsTheEncoding();
    void bothViewsAndAbsentSlots();

private:
    // Waits until every count is exact; false on a time-out.
    bool settle(SoulTokenCounter &counter);
    // Every section's share and the soul's total equal the tokenizer's count
    // of the same bytes.
    void verifyExact(const SoulTokenCounter &counter, const QString &encoding);
    void openModel();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<PersonaModel> m_model;
};

void tst_SoulTokenCounter::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_SoulTokenCounter::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_model = std::make_unique<PersonaModel>();
}

void tst_SoulTokenCounter::cleanup()
{
    m_model.reset();
    m_dir.reset();
}

void tst_SoulTokenCounter::openModel()
{
    const Status opened = m_model->open(m_dir->path());
    QVERIFY2(opened.ok(), qPrintable(opened.error()));
}

bool tst_SoulTokenCounter::settle(SoulTokenCounter &counter)
{
    QSignalSpy spy(&counter, &SoulTokenCounter::countsChanged);
    while (!counter.isSettled()) {
        if (!spy.wait(20000))
            return false;
    }
    return true;
}

void tst_SoulTokenCounter::verifyExact(const SoulTokenCounter &counter, const QString &encoding)
{
    const auto tokenizer = Tokenizer::builtin(encoding);
    QVERIFY(tokenizer);
    QCOMPARE(counter.encodingName(), encoding);
    for (const SoulView view : {SoulView::Unsaved, SoulView::OnDisk}) {
        const QByteArray soul = m_model->soul(view);
        const SoulTokenCounter::Count total = counter.soulTokens(view);
        QVERIFY(total.exact);
        QCOMPARE(total.tokens, tokenizer->count(soul));
        // Each share: the section, with the join when another one follows.
        QList<int> present;
        for (int k = 0; k < SlotCount; ++k) {
            if (m_model->section(k, view))
                present.append(k);
        }
        for (int k = 0; k < SlotCount; ++k) {
            const SoulTokenCounter::Count share = counter.sectionTokens(k, view);
            QVERIFY(share.exact);
            const std::optional<QByteArray> section = m_model->section(k, view);
            if (!section) {
                QCOMPARE(share.tokens, qint64(0));
                continue;
            }
            QByteArray text = *section;
            if (k != present.last())
                text += SectionJoin;
            QCOMPARE(share.tokens, tokenizer->count(text));
        }
    }
}

void tst_SoulTokenCounter::countsMatchTheComposedSoul_data()
{
    QTest::addColumn<QList<QByteArray>>("files"); // one per slot; "-" for absent

    QTest::newRow("two files") << QList<QByteArray>{"-",
                                                    "You are Kip, a terse assistant.",
                                                    "-",
                                                    "-",
                                                    "-",
                                                    "-",
                                                    "- prefers metric units"};
    QTest::newRow("bodies ending in punctuation, where the join merges")
        << QList<QByteArray>{"Rules.", "Voice!", "Who?", "User:", "(tools)", "...", "end."};
    QTest::newRow("empty and blank files") << QList<QByteArray>{"",
                                                                "  \n\t",
                                                                "x",
                                                                "-",
                                                                "\xEF\xBB\xBF"
                                                                "BOM kept.",
                                                                "-",
                                                                ""};
    QTest::newRow("invalid UTF-8 and CR LF") << QList<QByteArray>{"a\xC0\x80z\r\n",
                                                                  "\xF0\x9F\x98",
                                                                  "-",
                                                                  "line\r\nline\r\n",
                                                                  "-",
                                                                  "-",
                                                                  "-"};
    QTest::newRow("sections longer than a chunk") << QList<QByteArray>{prose(70000, 1),
                                                                       "short.",
                                                                       prose(200000, 2),
                                                                       "-",
                                                                       "-",
                                                                       "-",
                                                                       prose(40000, 3)};
    QTest::newRow("over the cap: the notice ends the section")
        << QList<QByteArray>{"-", "-", "-", "-", "-", "-", prose(CapBytes + 1000, 4)};
}

void tst_SoulTokenCounter::countsMatchTheComposedSoul()
{
    QFETCH(QList<QByteArray>, files);
    for (int k = 0; k < SlotCount; ++k) {
        if (files.at(k) != "-")
            QVERIFY(writeSlot(m_dir->path(), k, files.at(k)));
    }
    SoulTokenCounter counter(m_model.get());
    openModel();
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("o200k_base"));
}

void tst_SoulTokenCounter::editsInALargeSectionRecountExactly()
{
    const QByteArray base = prose(300000, 5);
    QVERIFY(writeSlot(m_dir->path(), 1, base));
    QVERIFY(writeSlot(m_dir->path(), 2, "Ava."));
    SoulTokenCounter counter(m_model.get());
    openModel();
    QVERIFY(settle(counter));

    std::atomic<int> counted{0};
    counter.setWorkerHookForTesting([&counted](int) { ++counted; });
    struct Edit
    {
        qsizetype at;
        qsizetype remove;
        QByteArray insert;
    };
    const QList<Edit> edits = {
        {10, 0, "X"},                  // the first chunk
        {150000, 0, "Hello.\nWorld "}, // the middle, adding a line (cut points move)
        {150000, 13, ""},              // and taking it out again
        {base.size() - 3, 0, "!!"},    // the last chunk, before the join
        {100000, 60000, ""},           // a large deletion
        {5000, 0, prose(40000, 6)},    // a large insertion
    };
    QByteArray text = base;
    for (const Edit &e : edits) {
        text.replace(e.at, e.remove, e.insert);
        m_model->setBufferText(1, QString::fromUtf8(text));
        QVERIFY(settle(counter));
        verifyExact(counter, QStringLiteral("o200k_base"));
    }
    QCOMPARE(counted.load(), int(edits.size()));
}

void tst_SoulTokenCounter::rapidEditsAreCoalesced()
{
    QVERIFY(writeSlot(m_dir->path(), 1, prose(100000, 7)));
    QVERIFY(writeSlot(m_dir->path(), 6, "Notes."));
    SoulTokenCounter counter(m_model.get());
    openModel();
    QVERIFY(settle(counter));

    std::atomic<int> counted{0};
    counter.setWorkerHookForTesting([&counted](int) { ++counted; });
    QByteArray text = m_model->slot(1).bufferBytes;
    constexpr int Edits = 60;
    for (int i = 0; i < Edits; ++i) {
        text.insert(50000 + i, char('a' + i % 26));
        m_model->setBufferText(1, QString::fromUtf8(text));
        // The pending count is never shown as exact.
        QVERIFY(!counter.sectionTokens(1, SoulView::Unsaved).exact);
        QVERIFY(!counter.soulTokens(SoulView::Unsaved).exact);
    }
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("o200k_base"));
    // The first edit's count may have started; every later edit waits for it
    // and is counted once, at its newest text.
    QVERIFY2(counted.load() <= 2, qPrintable(QString::number(counted.load())));
}

void tst_SoulTokenCounter::staleCountNeverOverwritesNewer()
{
    QVERIFY(writeSlot(m_dir->path(), 1, "Start."));
    SoulTokenCounter counter(m_model.get());
    openModel();
    QVERIFY(settle(counter));

    // Holds the first count on the worker until the newer edit is made.
    QSemaphore entered;
    QSemaphore release;
    std::atomic<bool> hold{true};
    counter.setWorkerHookForTesting([&](int) {
        if (hold.exchange(false)) {
            entered.release();
            release.acquire();
        }
    });
    const auto tokenizer = Tokenizer::builtin(u"o200k_base");
    const QByteArray older = "Older text, counted first and slowly.";
    const QByteArray newer = "Newer.";
    const qint64 olderCount = tokenizer->count(head(1) + older);
    const qint64 newerCount = tokenizer->count(head(1) + newer);
    QVERIFY(olderCount != newerCount);

    QList<qint64> shown;
    connect(&counter, &SoulTokenCounter::countsChanged, this, [&] {
        const SoulTokenCounter::Count c = counter.sectionTokens(1, SoulView::Unsaved);
        if (c.exact)
            shown.append(c.tokens);
    });
    m_model->setBufferText(1, QString::fromUtf8(older));
    QVERIFY(entered.tryAcquire(1, 20000));
    m_model->setBufferText(1, QString::fromUtf8(newer));
    release.release();
    QVERIFY(settle(counter));
    QCOMPARE(counter.sectionTokens(1, SoulView::Unsaved).tokens, newerCount);
    QCOMPARE(counter.soulTokens(SoulView::Unsaved).tokens, newerCount);
    QVERIFY(!shown.isEmpty());
    QVERIFY2(!shown.contains(olderCount), "the superseded count was shown");
    QCOMPARE(shown.last(), newerCount);
}

void tst_SoulTokenCounter::encodingSwitchRecountsEverything()
{
    // Text where the two encodings differ.
    QVERIFY(writeSlot(m_dir->path(), 0, prose(30000, 8)));
    QVERIFY(writeSlot(m_dir->path(), 1, "Здравствуйте! 你好，世界。"));
    SoulTokenCounter counter(m_model.get());
    openModel();
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("o200k_base"));
    const qint64 o200k = counter.soulTokens(SoulView::Unsaved).tokens;

    QSignalSpy changed(&counter, &SoulTokenCounter::encodingChanged);
    counter.setEncoding(QStringLiteral("cl100k_base"));
    QVERIFY(counter.isLoading() || !counter.isSettled());
    QVERIFY(!counter.soulTokens(SoulView::Unsaved).exact);
    QCOMPARE(counter.encodingName(), QStringLiteral("cl100k_base"));
    QVERIFY(changed.wait(20000));
    QCOMPARE(changed.first().first().toString(), QStringLiteral("cl100k_base"));
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("cl100k_base"));
    QVERIFY(counter.soulTokens(SoulView::Unsaved).tokens != o200k);

    // An edit after the switch is counted with the new encoding.
    m_model->setBufferText(1, QStringLiteral("Bonjour, ça va ?"));
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("cl100k_base"));

    counter.setEncoding(QStringLiteral("o200k_base"));
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("o200k_base"));
}

void tst_SoulTokenCounter::unusableTokenizerFileKeepsTheEncoding()
{
    QVERIFY(writeSlot(m_dir->path(), 1, "Ava."));
    SoulTokenCounter counter(m_model.get());
    openModel();
    QVERIFY(settle(counter));

    const QString path = m_dir->filePath(QStringLiteral("gemma-tokenizer.json"));
    QVERIFY(writeFile(path,
                      R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},)"
                      R"("pre_tokenizer":{"type":"Metaspace","replacement":"\u2581"}})"));
    QSignalSpy failed(&counter, &SoulTokenCounter::tokenizerFailed);
    counter.setTokenizerFile(path);
    QVERIFY(counter.isLoading());
    QVERIFY(failed.wait(20000));
    const QString error = failed.first().first().toString();
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("SentencePiece")), qPrintable(error));
    QVERIFY(!counter.isLoading());
    QVERIFY(counter.isSettled());
    verifyExact(counter, QStringLiteral("o200k_base"));

    counter.setEncoding(QStringLiteral("p50k_base"));
    QVERIFY(failed.wait(20000));
    QVERIFY(failed.last().first().toString().contains(QLatin1String("p50k_base")));
    QCOMPARE(counter.encodingName(), QStringLiteral("o200k_base"));

    // A remembered file that is gone, chosen before anything was counted:
    // the default encoding counts instead.
    SoulTokenCounter fresh(m_model.get());
    QSignalSpy freshFailed(&fresh, &SoulTokenCounter::tokenizerFailed);
    fresh.setTokenizerFile(m_dir->filePath(QStringLiteral("gone.json")));
    QVERIFY(freshFailed.wait(20000));
    QVERIFY(freshFailed.first().first().toString().contains(QLatin1String("gone.json")));
    QVERIFY(settle(fresh));
    verifyExact(fresh, QStringLiteral("o200k_base"));
}

void tst_SoulTokenCounter::bothViewsAndAbsentSlots()
{
    QVERIFY(writeSlot(m_dir->path(), 0, "Rules."));
    QVERIFY(writeSlot(m_dir->path(), 6, "Memory."));
    SoulTokenCounter counter(m_model.get());
    openModel();
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("o200k_base"));

    // A new unsaved slot after the last one: the old last section now takes
    // the join in the unsaved view only.
    m_model->createSlot(3, "A user.");
    m_model->setBufferText(6, QStringLiteral("Memory, edited."));
    QVERIFY(settle(counter));
    verifyExact(counter, QStringLiteral("o200k_base"));
    QVERIFY(counter.soulTokens(SoulView::Unsaved).tokens
            != counter.soulTokens(SoulView::OnDisk).tokens);

    // Closing leaves nothing to count.
    m_model->close();
    QVERIFY(settle(counter));
    QCOMPARE(counter.soulTokens(SoulView::Unsaved).tokens, qint64(0));
    QCOMPARE(counter.soulTokens(SoulView::OnDisk).tokens, qint64(0));
}

QTEST_GUILESS_MAIN(tst_SoulTokenCounter)
#include "tst_soultokencounter.moc"
