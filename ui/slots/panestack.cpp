#include "panestack.h"

#include "persona/personamodel.h"
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
    , m_model(model)
{
    auto *content = new QWidget(this);
    m_layout = new QVBoxLayout(content);
    m_layout->setContentsMargins(4, 4, 4, 4);
    m_layout->setSpacing(8);
    for (int k = 0; k < SlotCount; ++k) {
        auto *pane = new SlotPane(k, model, content);
        m_panes.push_back(pane);
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
    // A pane just made or shown has its place once the layout has run.
    widget()->layout()->activate();
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

bool PaneStack::showDocumentPane()
{
    for (size_t k = SlotCount; k < m_panes.size(); ++k) {
        SlotPane *target = m_panes[k];
        if (!target || target->isHidden())
            continue;
        showPane(int(k));
        return true;
    }
    return false;
}

SlotPane *PaneStack::addDocumentPane(int doc, const QString &name, bool followsRuntime)
{
    if (doc < SlotCount)
        return pane(doc);
    if (SlotPane *there = pane(doc))
        return there;
    if (m_panes.size() <= size_t(doc)) {
        m_panes.resize(size_t(doc) + 1, nullptr);
        m_documentNames.resize(size_t(doc) + 1);
        m_alwaysShown.resize(size_t(doc) + 1, false);
    }
    auto *made = new SlotPane(doc, m_model, widget());
    m_panes[size_t(doc)] = made;
    m_documentNames[size_t(doc)] = name;
    m_alwaysShown[size_t(doc)] = !followsRuntime;
    // After the slots and the documents before it, above the stretch.
    m_layout->insertWidget(m_layout->count() - 1, made);
    made->setVisible(!followsRuntime); // else until a runtime that reads it is chosen
    return made;
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
            continue;
        }
        for (size_t k = SlotCount; k < m_panes.size(); ++k) {
            if (m_panes[k] && m_documentNames[k] == name && !wanted.contains(m_panes[k]))
                wanted.append(m_panes[k]);
        }
    }
    for (int k = 0; k < SlotCount; ++k) {
        if (!slots.contains(k))
            wanted.append(m_panes.at(size_t(k)));
    }
    // A document the runtime does not read keeps its pane (and its text),
    // hidden, after the slots.
    for (size_t k = SlotCount; k < m_panes.size(); ++k) {
        if (!m_panes[k])
            continue;
        const bool shown = wanted.contains(m_panes[k]) || m_alwaysShown[k];
        if (!wanted.contains(m_panes[k]))
            wanted.append(m_panes[k]);
        m_panes[k]->setVisible(shown);
    }
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
        auto *shown = qobject_cast<SlotPane *>(widget);
        if (shown && shown->inSoul())
            names.append(slotName(shown->slot()));
        else if (shown && !shown->isHidden())
            names.append(m_documentNames.at(size_t(shown->slot())));
    }
    return names;
}

QList<int> PaneStack::order() const
{
    QList<int> slots;
    for (int at = 0; at < m_layout->count(); ++at) {
        auto *shown = qobject_cast<SlotPane *>(m_layout->itemAt(at)->widget());
        if (shown && shown->inSoul())
            slots.append(shown->slot());
    }
    return slots;
}

} // namespace soul
