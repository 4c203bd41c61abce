#include "persona/editortext.h"
#include "text/documentchange.h"

#include <QRandomGenerator>
#include <QTest>
#include <QTextDocument>

using namespace soul;

Q_DECLARE_METATYPE(soul::TextChange)

namespace {

// The document's text as a pane reads it: block breaks as '\n'.
QString documentText(const QTextDocument &document)
{
    return document.toRawText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
}

} // namespace

// documentChange() is textChange() of the document's text, found block by
// block without copying that text.
class tst_DocumentChange : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameAsTextChange_data();
    void sameAsTextChange();
    void randomEdits();
};

void tst_DocumentChange::sameAsTextChange_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    const QString pair = QString::fromUtf8("\xF0\x9F\x98\x80");
    const QString other = QString::fromUtf8("\xF0\x9F\x98\x81");
    QTest::newRow("equal") << QStringLiteral("one\ntwo\n") << QStringLiteral("one\ntwo\n");
    QTest::newRow("empty both") << QString() << QString();
    QTest::newRow("from empty") << QString() << QStringLiteral("new\ntext");
    QTest::newRow("to empty") << QStringLiteral("old\ntext") << QString();
    QTest::newRow("a word") << QStringLiteral("one\ntwo three\nfour")
                            << QStringLiteral("one\ntwo 3 three\nfour");
    QTest::newRow("a line added") << QStringLiteral("one\nthree")
                                  << QStringLiteral("one\ntwo\nthree");
    QTest::newRow("a line removed")
        << QStringLiteral("one\ntwo\nthree") << QStringLiteral("one\nthree");
    QTest::newRow("a break joined") << QStringLiteral("one\ntwo") << QStringLiteral("onetwo");
    QTest::newRow("at the start") << QStringLiteral("one\ntwo") << QStringLiteral("zero one\ntwo");
    QTest::newRow("at the end") << QStringLiteral("one\ntwo") << QStringLiteral("one\ntwo\n");
    QTest::newRow("repeated lines") << QStringLiteral("a\na\na\na") << QStringLiteral("a\na\na");
    QTest::newRow("blank lines") << QStringLiteral("\n\n\n") << QStringLiteral("\n\n");
    QTest::newRow("a pair changed") << QStringLiteral("x") + pair + QStringLiteral("y")
                                    << QStringLiteral("x") + other + QStringLiteral("y");
    QTest::newRow("no-break space and line separator")
        << QStringLiteral("a\u00A0b\u2028c\nd") << QStringLiteral("a\u00A0b\u2028C\nd");
}

void tst_DocumentChange::sameAsTextChange()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QTextDocument document;
    document.setPlainText(before);
    const QString held = documentText(document);
    const TextChange want = textChange(held, after);
    const TextChange got = documentChange(&document, after);
    QCOMPARE(got.position, want.position);
    QCOMPARE(got.removed, want.removed);
    QCOMPARE(got.inserted, want.inserted);
    // Applied, it gives the new text.
    QString applied = held;
    applied.replace(got.position, got.removed, after.mid(got.position, got.inserted));
    QCOMPARE(applied, after);
}

void tst_DocumentChange::randomEdits()
{
    QRandomGenerator random(2718);
    static const char16_t alphabet[] = u"ab\n \u00E9\U0001F600";
    const qsizetype letters = qsizetype(std::size(alphabet)) - 1;
    auto piece = [&](int maxLength) {
        QString s;
        const int n = int(random.bounded(maxLength + 1));
        for (int i = 0; i < n; ++i)
            s += QChar(alphabet[random.bounded(int(letters))]);
        return s;
    };
    for (int round = 0; round < 400; ++round) {
        QString before = piece(60);
        // Keep pairs whole in the base text: the document keeps what it is given.
        QTextDocument document;
        document.setPlainText(before);
        before = documentText(document);
        QString after = before;
        const qsizetype at = random.bounded(int(after.size()) + 1);
        const qsizetype removed = random.bounded(int(after.size() - at) + 1);
        after.replace(at, removed, piece(8));
        const TextChange want = textChange(before, after);
        const TextChange got = documentChange(&document, after);
        QCOMPARE(got.position, want.position);
        QCOMPARE(got.removed, want.removed);
        QCOMPARE(got.inserted, want.inserted);
    }
}

QTEST_MAIN(tst_DocumentChange)
#include "tst_documentchange.moc"
