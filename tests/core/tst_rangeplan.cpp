#include "diff/rangeplan.h"

#include <QByteArray>
#include <QList>
#include <QRandomGenerator>
#include <QTest>

using namespace soul;

namespace {

constexpr qsizetype Reach = 4096;

// Text of ordinary lines with some two-, three- and four-byte characters.
QByteArray lines(qsizetype size, quint32 seed)
{
    static const QList<QByteArray> words = {"soul ",
                                            "caf\xC3\xA9 ",
                                            "\xE2\x82\xAC ",
                                            "\xF0\x9F\x98\x80 ",
                                            "persona ",
                                            "cap ",
                                            "\r\n",
                                            "\n",
                                            "memory "};
    QRandomGenerator random(seed);
    QByteArray out;
    while (out.size() < size)
        out += words.at(random.bounded(int(words.size())));
    return out;
}

// What the cap does to a file over it: the first `cap` bytes, cut back to a
// character boundary, then the notice.
QByteArray capped(const QByteArray &file, qsizetype cap)
{
    qsizetype n = qMin(cap, file.size());
    while (n > 0 && n < file.size() && (uchar(file[n]) & 0xC0) == 0x80)
        --n;
    return file.first(n) + (file.size() > cap ? "\n[truncated: exceeds the cap]" : "");
}

bool isBoundary(const QByteArray &text, qsizetype p)
{
    return p >= text.size() || (uchar(text[p]) & 0xC0) != 0x80;
}

// The plan's promises, whatever the texts.
void checkPlan(const QByteArray &before, const QByteArray &after, const QList<RangeEdit> &edits)
{
    QCOMPARE(applyRangeEdits(before, after, edits), after);
    qsizetype oldEnd = 0;
    qsizetype newEnd = 0;
    for (const RangeEdit &edit : edits) {
        QVERIFY(edit.from >= oldEnd && edit.to >= newEnd);
        QVERIFY(edit.removed > 0 || edit.inserted > 0);
        QVERIFY(isBoundary(before, edit.from) && isBoundary(before, edit.from + edit.removed));
        QVERIFY(isBoundary(after, edit.to) && isBoundary(after, edit.to + edit.inserted));
        // What lies between edits is the same text on both sides.
        QCOMPARE(before.sliced(oldEnd, edit.from - oldEnd), after.sliced(newEnd, edit.to - newEnd));
        oldEnd = edit.from + edit.removed;
        newEnd = edit.to + edit.inserted;
    }
}

qsizetype replaced(const QList<RangeEdit> &edits)
{
    qsizetype bytes = 0;
    for (const RangeEdit &edit : edits)
        bytes += edit.removed + edit.inserted;
    return bytes;
}

} // namespace

class tst_RangePlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void plans_data();
    void plans();
    void typingInACappedFileReplacesLittle_data();
    void typingInACappedFileReplacesLittle();
    void revertingSeveralEditsReplacesLittle();
    void randomEdits();
};

void tst_RangePlan::plans_data()
{
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<QList<RangeEdit>>("edits");

    QTest::newRow("equal") << QByteArray("same\n") << QByteArray("same\n") << QList<RangeEdit>{};
    QTest::newRow("insert mid line, through its line break")
        << QByteArray("one\ntwo\nthree\n") << QByteArray("one\ntwXo\nthree\n")
        << QList<RangeEdit>{{6, 2, 6, 3}};
    QTest::newRow("last line: back to the break before it")
        << QByteArray("one\ntwo") << QByteArray("one\ntwXo") << QList<RangeEdit>{{3, 3, 3, 4}};
    QTest::newRow("a character boundary, not the first differing byte")
        << QByteArray("x\xC3\xA9y\n") << QByteArray("x\xC3\xA8y\n")
        << QList<RangeEdit>{{1, 4, 1, 4}};
    QTest::newRow("the CR before the edit")
        << QByteArray("a\rb\n") << QByteArray("a\r\nb\n") << QList<RangeEdit>{{1, 3, 1, 4}};
    QTest::newRow("emptied") << QByteArray("abc") << QByteArray() << QList<RangeEdit>{{0, 3, 0, 0}};
    QTest::newRow("from nothing") << QByteArray() << QByteArray("abc")
                                  << QList<RangeEdit>{{0, 0, 0, 3}};
    {
        // A long text shifted by one byte, the end cut: two small edits.
        const QByteArray body = lines(40000, 1);
        const QByteArray before = "head\n" + body + "tail";
        const QByteArray after = "head\nX" + body;
        QTest::newRow("moved text between two changes")
            << before << after
            << QList<RangeEdit>{{5, body.indexOf('\n') + 1, 5, body.indexOf('\n') + 2},
                                {5 + body.lastIndexOf('\n'),
                                 body.size() - body.lastIndexOf('\n') + 4,
                                 6 + body.lastIndexOf('\n'),
                                 body.size() - body.lastIndexOf('\n')}};
    }
}

void tst_RangePlan::plans()
{
    QFETCH(QByteArray, before);
    QFETCH(QByteArray, after);
    QFETCH(QList<RangeEdit>, edits);
    const QList<RangeEdit> planned = planRangeEdits(before, after, Reach);
    checkPlan(before, after, planned);
    QCOMPARE(planned, edits);
}

void tst_RangePlan::typingInACappedFileReplacesLittle_data()
{
    QTest::addColumn<qsizetype>("at");
    QTest::addColumn<QByteArray>("typed");
    QTest::addColumn<int>("removed"); // bytes taken away at `at` first

    QTest::newRow("a letter near the start") << qsizetype(100) << QByteArray("x") << 0;
    QTest::newRow("a four-byte character mid-file")
        << qsizetype(900000) << QByteArray("\xF0\x9F\x98\x80") << 0;
    QTest::newRow("a pasted paragraph") << qsizetype(5000) << QByteArray(3000, 'p') << 0;
    QTest::newRow("backspace") << qsizetype(700000) << QByteArray() << 1;
    QTest::newRow("a word deleted") << qsizetype(20000) << QByteArray() << 9;
}

void tst_RangePlan::typingInACappedFileReplacesLittle()
{
    QFETCH(qsizetype, at);
    QFETCH(QByteArray, typed);
    QFETCH(int, removed);
    constexpr qsizetype cap = 1 << 20;
    QByteArray file = lines(cap + 50000, 7);
    while (!isBoundary(file, at))
        ++at;
    const QByteArray before = capped(file, cap);
    file.remove(at, removed);
    while (!isBoundary(file, at + 0) && removed > 0)
        file.remove(at, 1); // a backspace takes a whole character
    file.insert(at, typed);
    const QByteArray after = capped(file, cap);

    const QList<RangeEdit> edits = planRangeEdits(before, after, Reach);
    checkPlan(before, after, edits);
    QCOMPARE(edits.size(), 2);
    // The edit and the cut, each within a few lines: not the stretch between.
    QVERIFY2(replaced(edits) < 4 * Reach + 2 * typed.size() + 64,
             qPrintable(QString::number(replaced(edits))));
}

void tst_RangePlan::revertingSeveralEditsReplacesLittle()
{
    // Three places typed into, far apart, then all reverted at once: each
    // place and the cut are edits, the stretches between them are kept.
    constexpr qsizetype cap = 1 << 20;
    const QByteArray original = lines(cap + 50000, 11);
    QByteArray typed = original;
    for (const qsizetype at : {qsizetype(900000), qsizetype(500000), qsizetype(200000)}) {
        qsizetype p = at;
        while (!isBoundary(typed, p))
            ++p;
        typed.insert(p, QByteArray(15, 'q'));
    }
    const QByteArray before = capped(typed, cap);
    const QByteArray after = capped(original, cap);
    const QList<RangeEdit> edits = planRangeEdits(before, after, Reach);
    checkPlan(before, after, edits);
    QCOMPARE(edits.size(), 4);
    QVERIFY2(replaced(edits) < 8 * Reach + 64, qPrintable(QString::number(replaced(edits))));
}

void tst_RangePlan::randomEdits()
{
    // Any edit of any text: the plan rebuilds the new text exactly.
    QRandomGenerator random(20261201);
    for (int round = 0; round < 400; ++round) {
        const qsizetype size = random.bounded(round % 4 == 0 ? 200000 : 3000);
        QByteArray file = lines(size, random.generate());
        const QByteArray before = round % 2 ? capped(file, size * 3 / 4) : file;
        const int edits = 1 + random.bounded(3);
        for (int e = 0; e < edits; ++e) {
            qsizetype at = file.isEmpty() ? 0 : random.bounded(int(file.size()));
            while (!isBoundary(file, at))
                ++at;
            qsizetype end = qMin(file.size(), at + random.bounded(40));
            while (!isBoundary(file, end))
                ++end;
            file.replace(at, end - at, lines(random.bounded(60), random.generate()));
        }
        const QByteArray after = round % 2 ? capped(file, size * 3 / 4) : file;
        checkPlan(before, after, planRangeEdits(before, after, Reach));
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("round %1").arg(round)));
    }
}

QTEST_GUILESS_MAIN(tst_RangePlan)
#include "tst_rangeplan.moc"
