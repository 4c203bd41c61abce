#include "panestack.h"

#include "runtimefilepane.h"
#include "slotpane.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace soul {

namespace {

// Room for a pane's header in the usual states.
constexpr int MinimumWidthChars = 64;

} // namespace

PaneStack::PaneStack(const PersonaModel *model, QWidget *parent)
    : QScrollArea(parent)
{
    auto *content = new QWidget(this);
    m_layout = new QVBoxLayout(content);
    m_layout->setContentsMargins(4, 4, 4, 4);
    m_layout->setSpacing(8);
    for (int k = 0; k < SlotCount; ++k) {
        auto *pane = new SlotPane(k, model, content);
        m_panes[size_t(k)] = pane;
        m_layout->addWidget(pane);
    }
    m_layout->addStretch(1);
    // The panes' width follows the viewport, never their contents: a label
    // that grows (a lint, "unsaved", a bar) would otherwise widen every pane,
    // and a 2 MiB editor whose width changes gives each of its lines a
    // QTextLayout (see SlotPane). Below this width the panes scroll sideways.
    content->setMinimumWidth(fontMetrics().averageCharWidth() * MinimumWidthChars);
    setWidget(content);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setAccessibleName(tr("Slot panes"));
}

void PaneStack::showPane(int slot)
{
    SlotPane *target = pane(slot);
    ensureWidgetVisible(target, 0, 0);
    // Put the pane's top at the top, so its header is what the user sees.
    ensureVisible(0, target->y(), 0, 0);
    // An absent slot has no editor to type in; its Create button is next.
    QWidget *focus = target->editor();
    if (!focus->isEnabled())
        focus = target->createButton()->isVisible() ? static_cast<QWidget *>(target->createButton())
                                                    : target;
    focus->setFocus(Qt::ShortcutFocusReason);
}

bool PaneStack::showRuntimeFilePane()
{
    if (!m_runtimeFilePane || m_runtimeFilePane->isHidden())
        return false;
    ensureWidgetVisible(m_runtimeFilePane, 0, 0);
    ensureVisible(0, m_runtimeFilePane->y(), 0, 0);
    m_runtimeFilePane->editor()->setFocus(Qt::ShortcutFocusReason);
    return true;
}

void PaneStack::addRuntimeFilePane(RuntimeFilePane *pane, const QString &name)
{
    m_runtimeFilePane = pane;
    m_runtimeFileName = name;
    m_layout->insertWidget(SlotCount, pane);
    pane->hide(); // until a runtime that reads it is chosen
}

void PaneStack::setOrder(const QStringList &files)
{
    QList<QWidget *> wanted;
    QList<int> slots;
    for (const QString &name : files) {
        const int slot = slotIndex(name);
        if (slot >= 0 && !slots.contains(slot)) {
            slots.append(slot);
            wanted.append(m_panes.at(size_t(slot)));
        } else if (m_runtimeFilePane && name == m_runtimeFileName
                   && !wanted.contains(m_runtimeFilePane)) {
            wanted.append(m_runtimeFilePane);
        }
    }
    const bool runtimeFileShown = m_runtimeFilePane && wanted.contains(m_runtimeFilePane);
    for (int k = 0; k < SlotCount; ++k) {
        if (!slots.contains(k))
            wanted.append(m_panes.at(size_t(k)));
    }
    if (m_runtimeFilePane && !runtimeFileShown)
        wanted.append(m_runtimeFilePane);
    if (m_runtimeFilePane)
        m_runtimeFilePane->setVisible(runtimeFileShown);
    QWidget *typing = nullptr;
    for (QWidget *pane : wanted) {
        if (pane->isAncestorOf(QApplication::focusWidget()))
            typing = pane;
    }
    bool moved = false;
    for (int at = 0; at < wanted.size(); ++at) {
        if (m_layout->itemAt(at)->widget() == wanted.at(at))
            continue;
        m_layout->removeWidget(wanted.at(at));
        m_layout->insertWidget(at, wanted.at(at));
        moved = true;
    }
    if (moved && typing && typing->isVisible()) {
        widget()->layout()->activate();
        ensureWidgetVisible(typing, 0, 0);
    }
}

QStringList PaneStack::shownNames() const
{
    QStringList names;
    for (int at = 0; at < m_layout->count(); ++at) {
        QWidget *widget = m_layout->itemAt(at)->widget();
        if (auto *pane = qobject_cast<SlotPane *>(widget))
            names.append(slotName(pane->slot()));
        else if (widget && widget == m_runtimeFilePane && !widget->isHidden())
            names.append(m_runtimeFileName);
    }
    return names;
}

QList<int> PaneStack::order() const
{
    QList<int> slots;
    for (int at = 0; at < m_layout->count(); ++at) {
        if (auto *pane = qobject_cast<SlotPane *>(m_layout->itemAt(at)->widget()))
            slots.append(pane->slot());
    }
    return slots;
}

} // namespace soul
