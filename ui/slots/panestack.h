#pragma once

#include "contract.h"

#include <QScrollArea>

#include <array>

namespace soul {

class PersonaModel;
class SlotPane;

// The seven panes in the fixed order, one under the other, all reachable by
// scrolling.
class PaneStack : public QScrollArea
{
    Q_OBJECT

public:
    explicit PaneStack(const PersonaModel *model, QWidget *parent = nullptr);

    SlotPane *pane(int slot) const { return m_panes.at(size_t(slot)); }
    // Scrolls pane `slot` into view and puts the keyboard focus in its editor.
    void showPane(int slot);

private:
    std::array<SlotPane *, SlotCount> m_panes{};
};

} // namespace soul
