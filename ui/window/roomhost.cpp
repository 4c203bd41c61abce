#include "roomhost.h"

#include "persona/personamodel.h"
#include "personasession.h"
#include "runtime/runtime.h"
#include "runtimepreview.h"

#include <QAction>
#include <QCryptographicHash>
#include <QDockWidget>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>

#include <utility>

namespace soul {

QString LiveSoul::sha256() const
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

RoomHost::RoomHost(QMainWindow *window, QMenu *menu, QSettings *settings)
    : QObject(window)
    , m_window(window)
    , m_menu(menu)
    , m_settings(settings)
{
    m_soulPause.setSingleShot(true);
    m_soulPause.setInterval(250);
    connect(&m_soulPause, &QTimer::timeout, this, [this] {
        // A result still on its way: its compositionChanged comes back here.
        if (m_session && m_session->runtimePreview()->busy())
            return;
        Q_EMIT liveSoulChanged();
    });
}

LiveSoul RoomHost::liveSoul() const
{
    if (!m_session)
        return {};
    // The shown runtime's text of the buffers, unsaved edits included.
    const RuntimePreview *preview = m_session->runtimePreview();
    const RuntimeProfile &profile = preview->profile();
    LiveSoul soul;
    soul.bytes = preview->currentText();
    soul.runtimeId = profile.runtime ? profile.runtime->id() : QString();
    soul.runtimeName = profile.displayName();
    soul.directory = m_session->model()->directory();
    return soul;
}

QAction *RoomHost::addDock(QDockWidget *dock, const QString &text, const QKeySequence &key)
{
    const QString visibleKey = QStringLiteral("rooms/%1/visible").arg(dock->objectName());
    m_window->addDockWidget(Qt::RightDockWidgetArea, dock);
    if (m_lastDock)
        m_window->tabifyDockWidget(m_lastDock, dock);
    m_lastDock = dock;
    dock->setVisible(m_settings && m_settings->value(visibleKey, false).toBool());
    QAction *toggle = m_menu->addAction(text);
    toggle->setObjectName(dock->objectName() + QStringLiteral("Toggle"));
    toggle->setShortcut(key);
    toggle->setCheckable(true);
    toggle->setChecked(dock->isVisible());
    connect(toggle, &QAction::triggered, dock, [this, dock, toggle, visibleKey](bool checked) {
        // Open but tabbed behind another room: its key brings it to the front.
        if (!checked && !dock->isHidden() && dock->visibleRegion().isEmpty()
            && !m_window->tabifiedDockWidgets(dock).isEmpty()) {
            toggle->setChecked(true);
            checked = true;
        }
        dock->setVisible(checked);
        if (checked) {
            dock->raise();
            if (QWidget *inside = dock->widget())
                inside->setFocus(Qt::ShortcutFocusReason);
        }
        if (m_settings)
            m_settings->setValue(visibleKey, checked);
    });
    // A dock tabbed behind another one is not visible but still open.
    connect(dock, &QDockWidget::visibilityChanged, toggle, [dock, toggle] {
        toggle->setChecked(!dock->isHidden());
    });
    return toggle;
}

QString RoomHost::directory() const
{
    return m_session ? m_session->directory() : QString();
}

void RoomHost::setSession(PersonaSession *session)
{
    if (session == m_session)
        return;
    m_session = session;
    Q_EMIT sessionChanged(session);
    soulMayHaveChanged();
}

void RoomHost::soulMayHaveChanged()
{
    m_soulPause.start();
}

} // namespace soul
