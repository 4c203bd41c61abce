#include "links/threewaydialog.h"
#include "window/dialogprompter.h"

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

using namespace soul;

namespace {

ThreeWayTexts coachTexts()
{
    ThreeWayTexts texts;
    texts.file = QStringLiteral("USER.md");
    texts.agent = QStringLiteral("coach");
    texts.group = QStringLiteral("house");
    texts.others = QStringList{QStringLiteral("ava"), QStringLiteral("writer")};
    texts.lastGroup = "# User\n\nLikes tea in the morning.\nLives in Lyon.\n";
    texts.thisCopy = "# User\n\nLikes coffee in the morning.\nLives in Lyon.\n";
    texts.groupNow = texts.lastGroup;
    return texts;
}

} // namespace

// The three-way view of a linked file: what it says of the three texts, and
// the author's choice, by click and by key.
class tst_ThreeWayDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headingNamesTheGroup();
    void changedWordsAreMarked();
    void groupChangesAreShown();
    void choice_data();
    void choice();
    void escapeCloses();
    void unknownLastTextComparesWithTheGroupNow();
    void hugeInvalidUtf8Opens();
    void prompterAsksWithTheDialog();
};

void tst_ThreeWayDialog::headingNamesTheGroup()
{
    ThreeWayDialog dialog;
    dialog.setTexts(coachTexts());
    QCOMPARE(
        dialog.headingLabel()->text(),
        QStringLiteral(
            "USER.md of coach differs from the group house's text (shared with ava, writer)."));
    QCOMPARE(dialog.copyCaption()->text(), QStringLiteral("What coach's copy changed"));
    QCOMPARE(dialog.groupCaption()->text(), QStringLiteral("What the group changed since"));
    QVERIFY(dialog.adoptButton()->toolTip().contains(QStringLiteral("unsaved edit")));
    QVERIFY(dialog.leaveButton()->toolTip().contains(QStringLiteral("soul-links.json")));
}

// This copy's diff marks the word it changed; the group's text, unchanged,
// says so in a sentence.
void tst_ThreeWayDialog::changedWordsAreMarked()
{
    ThreeWayDialog dialog;
    dialog.setTexts(coachTexts());
    const QString html = dialog.copyHtml();
    QVERIFY2(html.contains(QStringLiteral("<span class=\"delw\">tea</span>")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("<span class=\"addw\">coffee</span>")), qPrintable(html));
    QVERIFY(dialog.copyView()->toPlainText().contains(QStringLiteral("+Likes coffee")));
    QVERIFY(dialog.groupView()->isVisibleTo(&dialog));
    QCOMPARE(dialog.groupView()->toPlainText(),
             QStringLiteral("Nothing: the group's text is still what it last wrote."));
}

void tst_ThreeWayDialog::groupChangesAreShown()
{
    ThreeWayTexts texts = coachTexts();
    texts.groupNow = "# User\n\nLikes tea in the morning.\nLives in Paris.\n";
    ThreeWayDialog dialog;
    dialog.setTexts(texts);
    const QString html = dialog.groupHtml();
    QVERIFY2(html.contains(QStringLiteral("<span class=\"delw\">Lyon</span>")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("<span class=\"addw\">Paris</span>")), qPrintable(html));
    // The copy's diff does not show the group's change.
    QVERIFY(!dialog.copyHtml().contains(QStringLiteral("Paris")));
}

void tst_ThreeWayDialog::choice_data()
{
    QTest::addColumn<QString>("button");
    QTest::addColumn<bool>("byKey");
    QTest::addColumn<ThreeWayDialog::Choice>("expected");
    QTest::newRow("adopt clicked")
        << QStringLiteral("adopt") << false << ThreeWayDialog::Choice::Adopt;
    QTest::newRow("adopt by Alt+A")
        << QStringLiteral("adopt") << true << ThreeWayDialog::Choice::Adopt;
    QTest::newRow("leave clicked")
        << QStringLiteral("leave") << false << ThreeWayDialog::Choice::Leave;
    QTest::newRow("leave by Alt+L")
        << QStringLiteral("leave") << true << ThreeWayDialog::Choice::Leave;
    QTest::newRow("close clicked")
        << QStringLiteral("close") << false << ThreeWayDialog::Choice::Close;
}

void tst_ThreeWayDialog::choice()
{
    QFETCH(QString, button);
    QFETCH(bool, byKey);
    QFETCH(ThreeWayDialog::Choice, expected);

    ThreeWayDialog dialog;
    dialog.setTexts(coachTexts());
    QSignalSpy finished(&dialog, &QDialog::finished);
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QPushButton *target = button == QLatin1String("adopt")   ? dialog.adoptButton()
                          : button == QLatin1String("leave") ? dialog.leaveButton()
                                                             : dialog.closeButton();
    if (byKey)
        QTest::keyClick(&dialog,
                        button == QLatin1String("adopt") ? Qt::Key_A : Qt::Key_L,
                        Qt::AltModifier);
    else
        QTest::mouseClick(target, Qt::LeftButton);
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(dialog.choice(), expected);
}

void tst_ThreeWayDialog::escapeCloses()
{
    ThreeWayDialog dialog;
    dialog.setTexts(coachTexts());
    QSignalSpy finished(&dialog, &QDialog::finished);
    dialog.show();
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QTest::keyClick(&dialog, Qt::Key_Escape);
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), int(QDialog::Rejected));
    QCOMPARE(dialog.choice(), ThreeWayDialog::Choice::Close);
}

// Without the group's last text the two changes cannot be told apart: one
// diff, of the group's text now against this copy, and a sentence why.
void tst_ThreeWayDialog::unknownLastTextComparesWithTheGroupNow()
{
    ThreeWayTexts texts = coachTexts();
    texts.lastGroup.clear();
    texts.groupNow = "# User\n\nLikes tea in the morning.\nLives in Paris.\n";
    ThreeWayDialog dialog;
    dialog.setTexts(texts);
    QVERIFY2(dialog.noteLabel()->text().contains(
                 QStringLiteral("The group's last text is not kept")),
             qPrintable(dialog.noteLabel()->text()));
    QVERIFY(!dialog.groupView()->isVisibleTo(&dialog));
    QCOMPARE(dialog.copyCaption()->text(),
             QStringLiteral("How coach's copy differs from the group's text now"));
    const QString html = dialog.copyHtml();
    QVERIFY2(html.contains(QStringLiteral("<span class=\"delw\">tea</span>")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("<span class=\"addw\">coffee</span>")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("<span class=\"delw\">Paris</span>")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("<span class=\"addw\">Lyon</span>")), qPrintable(html));
}

// 16 MiB of bytes that are no UTF-8 (with line breaks, so the diff has
// lines to match) open as a sentence or a diff, and the dialog shows.
void tst_ThreeWayDialog::hugeInvalidUtf8Opens()
{
    ThreeWayTexts texts = coachTexts();
    QByteArray junk(qsizetype(16) << 20, '\xff');
    for (qsizetype i = 100; i < junk.size(); i += 101)
        junk[i] = '\n';
    texts.thisCopy = junk;
    ThreeWayDialog dialog;
    dialog.setTexts(texts);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QString shown = dialog.copyView()->toPlainText();
    QVERIFY2(shown.startsWith(QStringLiteral("This diff is too large to show here"))
                 || dialog.copyHtml().contains(QStringLiteral("class=\"add\"")),
             qPrintable(shown.left(200)));
    // The group's side is unaffected.
    QCOMPARE(dialog.groupView()->toPlainText(),
             QStringLiteral("Nothing: the group's text is still what it last wrote."));
}

// DialogPrompter asks with the dialog and answers what was pressed.
void tst_ThreeWayDialog::prompterAsksWithTheDialog()
{
    QWidget parent;
    DialogPrompter prompter(&parent);
    bool seen = false;
    // Runs inside the dialog's own event loop, once it is shown.
    QTimer::singleShot(0, this, [&] {
        for (QWidget *widget : QApplication::topLevelWidgets()) {
            if (auto *dialog = qobject_cast<ThreeWayDialog *>(widget);
                dialog && dialog->isVisible()) {
                seen = true;
                dialog->leaveButton()->click();
            }
        }
    });
    const Prompter::DivergedAnswer answer = prompter.askDivergedCopy(coachTexts());
    QVERIFY(seen);
    QCOMPARE(answer, Prompter::DivergedAnswer::Leave);
}

QTEST_MAIN(tst_ThreeWayDialog)
#include "tst_threewaydialog.moc"
