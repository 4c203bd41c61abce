#include "panestack.h"

#include "slotpane.h"

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
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(8);
    for (int k = 0; k < SlotCount; ++k) {
        auto *pane = new SlotPane(k, model, content);
        m_panes[size_t(k)] = pane;
        layout->addWidget(pane);
    }
    layout->addStretch(1);
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

} // namespace soul
