#include "compose/displaytext.h"
#include "preview/runtimetextview.h"

#include <QRandomGenerator>
#include <QTest>
#include <QTextDocument>

using namespace soul;

namespace {

// Text with what displayText() treats apart: CRs and CR LFs, astral
// characters (surrogate pairs), a zero-width joiner and a tab.
QString randomText(QRandomGenerator &rng, qsizetype length)
{
    static const QString pieces[] = {QStringLiteral("Ava "),
                                     QStringLiteral("keeps "),
                                     QStringLiteral("notes\n"),
                                     QStringLiteral("\r\n"),
                                     QStringLiteral("\r"),
                                     QStringLiteral("\t"),
                                     QString::fromUtf8(
                                         "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB"),
                                     QString::fromUtf8("\xF0\x9D\x84\x9E"),
                                     QStringLiteral("\u00A7\n")};
    QString text;
    while (text.size() < length)
        text += pieces[rng.bounded(int(std::size(pieces)))];
    return text;
}

} // namespace

class tst_RuntimeTextView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A header near the start and a keystroke a long way after it change
    // together: the text between is not replaced.
    void twoEditsApartReplaceOnlyWhatChanged()
    {
        RuntimeTextView view;
        QString before = QStringLiteral("MEMORY [7% \u2014 173/2,200 chars]\n");
        before += QStringLiteral("- likes tea and long walks\n").repeated(20000);
        view.showText(before, false);
        QCOMPARE(view.toPlainText(), displayText(before, false));

        qsizetype changed = 0;
        connect(view.document(),
                &QTextDocument::contentsChange,
                &view,
                [&changed](int, int removed, int added) { changed += removed + added; });
        QString after = before;
        after.insert(before.size() * 2 / 3, QStringLiteral("x"));
        after.replace(QStringLiteral("173/2,200"), QStringLiteral("174/2,200"));
        view.showText(after, false);
        QCOMPARE(view.toPlainText(), displayText(after, false));
        QCOMPARE(view.text(), after);
        QVERIFY2(changed < 100, qPrintable(QString::number(changed)));
    }

    // A lone CR shows as a mark and the CR of a CR LF as a line break: a CR
    // that ends the stretch the two texts share is shown anew when the
    // character after it changes.
    void crBeforeTheSecondEditIsShownAnew()
    {
        RuntimeTextView view;
        const QString filler = QStringLiteral("- likes tea and long walks\n").repeated(20000);
        const QString before = QStringLiteral("MEMORY [7%]\n") + filler + QStringLiteral("end\rZ");
        view.showText(before, false);
        const QString after = QStringLiteral("MEMORY [8%]\n") + filler + QStringLiteral("end\r\nZ");
        view.showText(after, false);
        QCOMPARE(view.toPlainText(), displayText(after, false));
    }

    // Whatever the texts, the view shows the new one's display text.
    void anyChangeShowsTheNewText()
    {
        QRandomGenerator rng(5);
        for (int round = 0; round < 60; ++round) {
            const bool invisibles = round % 2 == 1;
            RuntimeTextView view;
            const QString before = randomText(rng, 9000 + rng.bounded(30000));
            view.showText(before, invisibles);
            QString after = before;
            // Up to three edits anywhere: insertions, removals, replacements.
            const int edits = 1 + rng.bounded(3);
            for (int e = 0; e < edits; ++e) {
                const qsizetype at = rng.bounded(int(after.size()));
                const qsizetype removed = qMin<qsizetype>(rng.bounded(6), after.size() - at);
                after.replace(at, removed, randomText(rng, rng.bounded(4)));
            }
            view.showText(after, invisibles);
            QCOMPARE(view.toPlainText(), displayText(after, invisibles));
            QCOMPARE(view.text(), after);
        }
    }
};

QTEST_MAIN(tst_RuntimeTextView)
#include "tst_runtimetextview.moc"
