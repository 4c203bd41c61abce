#include "panestack.h"

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

void PaneStack::setOrder(const QStringList &files)
{
    QList<int> wanted;
    for (const QString &name : files) {
        const int slot = slotIndex(name);
        if (slot >= 0 && !wanted.contains(slot))
            wanted.append(slot);
    }
    for (int k = 0; k < SlotCount; ++k) {
        if (!wanted.contains(k))
            wanted.append(k);
    }
    if (wanted == order())
        return;
    SlotPane *typing = nullptr;
    for (SlotPane *pane : m_panes) {
        if (pane->isAncestorOf(QApplication::focusWidget()))
            typing = pane;
    }
    for (int at = 0; at < SlotCount; ++at) {
        SlotPane *pane = m_panes.at(size_t(wanted.at(at)));
        m_layout->removeWidget(pane);
        m_layout->insertWidget(at, pane);
    }
    if (typing) {
        widget()->layout()->activate();
        ensureWidgetVisible(typing, 0, 0);
    }
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
