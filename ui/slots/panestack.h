#pragma once

#include "compose/contract.h"

#include <QList>
#include <QScrollArea>
#include <QStringList>

#include <array>

class QVBoxLayout;

namespace soul {

class PersonaModel;
class RuntimeFilePane;
class SlotPane;

// The seven panes one under the other, all reachable by scrolling: in the
// contract's order, or the chosen runtime's (setOrder()).
class PaneStack : public QScrollArea
{
    Q_OBJECT

public:
    explicit PaneStack(const PersonaModel *model, QWidget *parent = nullptr);

    SlotPane *pane(int slot) const { return m_panes.at(size_t(slot)); }
    // Scrolls pane `slot` into view and puts the keyboard focus in its editor.
    void showPane(int slot);

    // The pane of a file a runtime reads beside the slots; not owned. It is
    // shown only while setOrder()'s runtime reads it, in its place.
    void addRuntimeFilePane(RuntimeFilePane *pane, const QString &name);
    RuntimeFilePane *runtimeFilePane() const { return m_runtimeFilePane; }
    // Scrolls the runtime's own file into view and puts the keyboard focus
    // in it; false when the chosen runtime reads no such file.
    bool showRuntimeFilePane();

    // Puts the panes in a runtime's order: the files it reads, as `files`
    // lists them (addRuntimeFilePane()'s among them), then the others in slot
    // order. Focus, text and undo stay
    // with each pane; the pane being typed in stays in view.
    void setOrder(const QStringList &files);
    // The slots from top to bottom.
    QList<int> order() const;
    // The names of the panes shown, from top to bottom.
    QStringList shownNames() const;

private:
    QVBoxLayout *m_layout = nullptr;
    std::array<SlotPane *, SlotCount> m_panes{};
    RuntimeFilePane *m_runtimeFilePane = nullptr;
    QString m_runtimeFileName;
};

} // namespace soul
