#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace soul {

// The bar over a pane whose file is linked in a group (one file shared by
// several agents): a quiet line while the copies agree, a tinted bar with
// what to do when this copy went its own way, or when a save stopped part
// way. It only shows the state and emits what the user chose.
class LinkBar : public QFrame
{
    Q_OBJECT

public:
    enum class Kind { None, Shared, Diverged, Behind };

    explicit LinkBar(QWidget *parent = nullptr);

    // Hidden for Kind::None.
    void showNote(Kind kind, const QString &text, const QString &tip);
    Kind kind() const { return m_kind; }
    QString text() const;

Q_SIGNALS:
    void threeWayRequested();
    void adoptRequested();
    void leaveRequested();
    void finishRequested();

private:
    Kind m_kind = Kind::None;
    QLabel *m_label = nullptr;
    QPushButton *m_threeWay = nullptr;
    QPushButton *m_adopt = nullptr;
    QPushButton *m_leave = nullptr;
    QPushButton *m_finish = nullptr;
};

} // namespace soul
