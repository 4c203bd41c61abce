#pragma once

#include <QObject>

#include <functional>

class QWidget;

namespace soul {

// An update of a widget's display that is run now while the widget is
// visible, and otherwise once, when it is next shown (before it is painted).
// An agent not shown takes every edit a link group hands on to it: its panes
// and preview then lay out no text that nobody sees, and catch up in one go.
class WhenShown : public QObject
{
public:
    // Owned by `widget`.
    WhenShown(QWidget *widget, std::function<void()> update);

    // Runs the update now when the widget is visible, else marks it due.
    void request();
    // Runs an update still due now, shown or not (before an action on the
    // widget's content, such as an undo).
    void runIfDue();
    bool isDue() const { return m_due; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_widget;
    std::function<void()> m_update;
    bool m_due = false;
};

} // namespace soul
