#pragma once

#include <QDateTime>
#include <QFrame>

class QLabel;
class QPushButton;

namespace soul {

// The bar over a pane for which a previous run left unsaved text (after a
// crash or a kill). It shows the offer and emits the user's answer; the model
// keeps or drops the text.
class RecoveryBar : public QFrame
{
    Q_OBJECT

public:
    explicit RecoveryBar(QWidget *parent = nullptr);

    // `savedAt` is when the text was kept; `diskChangedSince` says the file
    // is no longer the one the text was edited from.
    void showFor(const QString &fileName, const QDateTime &savedAt, bool diskChangedSince);
    QString message() const;

    QPushButton *restoreButton() const { return m_restore; }

Q_SIGNALS:
    void restoreRequested(); // the pane takes the recovered text, unsaved
    void compareRequested(); // show the file on disk against the recovered text
    void discardRequested(); // forget the recovered text

private:
    QLabel *m_label = nullptr;
    QPushButton *m_restore = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_discard = nullptr;
};

} // namespace soul
