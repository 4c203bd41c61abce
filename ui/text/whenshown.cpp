#include "whenshown.h"

#include <QEvent>
#include <QWidget>

#include <utility>

namespace soul {

WhenShown::WhenShown(QWidget *widget, std::function<void()> update)
    : QObject(widget)
    , m_widget(widget)
    , m_update(std::move(update))
{
    widget->installEventFilter(this);
}

void WhenShown::request()
{
    if (!m_widget->isVisible()) {
        m_due = true;
        return;
    }
    m_due = false;
    m_update();
}

void WhenShown::runIfDue()
{
    if (std::exchange(m_due, false))
        m_update();
}

bool WhenShown::eventFilter(QObject *watched, QEvent *event)
{
    // Qt sends Show to every widget that becomes visible with its parent,
    // before the first paint.
    if (watched == m_widget && event->type() == QEvent::Show && std::exchange(m_due, false))
        m_update();
    return QObject::eventFilter(watched, event);
}

} // namespace soul
