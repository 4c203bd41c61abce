#include "window/dialogprompter.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

using namespace soul;

// The real dialogs' wording: what the person reads before answering.
class tst_DialogPrompter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void staleSaveNamesWhatHappened_data();
    void staleSaveNamesWhatHappened();
};

void tst_DialogPrompter::staleSaveNamesWhatHappened_data()
{
    QTest::addColumn<StaleReason>("reason");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QStringList>("buttons");
    QTest::newRow("changed") << StaleReason::ChangedOnDisk
                             << QStringLiteral("MEMORY.md changed on disk")
                             << QStringList{QStringLiteral("Overwrite"),
                                            QStringLiteral("Compare"),
                                            QStringLiteral("Cancel")};
    QTest::newRow("deleted") << StaleReason::DeletedOnDisk
                             << QStringLiteral("MEMORY.md was deleted on disk")
                             << QStringList{QStringLiteral("Save Again"), QStringLiteral("Cancel")};
}

// The question's title says what happened to the file, and a deleted file
// offers no comparison with a file that is not there. Enter cancels.
void tst_DialogPrompter::staleSaveNamesWhatHappened()
{
    QFETCH(StaleReason, reason);
    QFETCH(QString, title);
    QFETCH(QStringList, buttons);

    QWidget parent;
    DialogPrompter prompter(&parent);
    QString seenTitle;
    QStringList seenButtons;
    bool seen = false;
    // Runs inside the box's own event loop, once it is the modal widget.
    QTimer::singleShot(0, this, [&] {
        QMessageBox *box = nullptr;
        for (QWidget *widget : QApplication::topLevelWidgets()) {
            if (auto *candidate = qobject_cast<QMessageBox *>(widget);
                candidate && candidate->isVisible())
                box = candidate;
        }
        if (!box)
            return; // askStaleSave returns without a box; seen stays false
        seen = true;
        seenTitle = box->windowTitle();
        for (QAbstractButton *button : box->buttons())
            seenButtons.append(button->text().remove(QLatin1Char('&')));
        QTest::keyClick(box, Qt::Key_Return);
    });
    const Prompter::StaleAnswer answer = prompter.askStaleSave(QStringLiteral("MEMORY.md"),
                                                               QStringLiteral("Why."),
                                                               reason);
    QVERIFY(seen);
    QCOMPARE(seenTitle, title);
    seenButtons.sort();
    buttons.sort();
    QCOMPARE(seenButtons, buttons);
    QCOMPARE(answer, Prompter::StaleAnswer::Cancel);
}

QTEST_MAIN(tst_DialogPrompter)
#include "tst_dialogprompter.moc"
