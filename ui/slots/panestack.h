#pragma once

#include "compose/contract.h"

#include <QList>
#include <QScrollArea>
#include <QStringList>

#include <vector>

class QVBoxLayout;

namespace soul {

class PersonaModel;
class SlotPane;

// The seven panes one under the other, all reachable by scrolling: in the
// contract's order, or the chosen runtime's (setOrder()); after them the
// panes of the model's other documents that have one (addDocumentPane()).
class PaneStack : public QScrollArea
{
    Q_OBJECT

public:
    explicit PaneStack(const PersonaModel *model, QWidget *parent = nullptr);

    // The pane of document `slot` (a slot, or a document the model added);
    // null for a document without a pane.
    SlotPane *pane(int slot) const
    {
        return slot >= 0 && size_t(slot) < m_panes.size() ? m_panes[size_t(slot)] : nullptr;
    }
    // Scrolls pane `slot` into view and puts the keyboard focus in its editor.
    void showPane(int slot);

    // Makes the pane of the model's document `doc` (PersonaModel::
    // addDocument(), at least SlotCount), owned by the stack, or returns the
    // one there is. With `followsRuntime`, it is shown only while
    // setOrder()'s runtime reads the file `name`, in its place; without (a
    // skill the author opened), it is shown after the slots whatever the
    // runtime.
    SlotPane *addDocumentPane(int doc, const QString &name, bool followsRuntime = true);
    // Scrolls the first document pane shown into view and puts the keyboard
    // focus in it; false when the chosen runtime reads no such file.
    bool showDocumentPane();

    // Puts the panes in a runtime's order: the files it reads, as `files`
    // lists them (addDocumentPane()'s among them), then the others in slot
    // order. Focus, text and undo stay
    // with each pane; the pane being typed in stays in view.
    void setOrder(const QStringList &files);
    // The slots from top to bottom.
    QList<int> order() const;
    // The names of the panes shown, from top to bottom.
    QStringList shownNames() const;

private:
    const PersonaModel *m_model = nullptr;
    QVBoxLayout *m_layout = nullptr;
    // By document number; null where a document has no pane.
    std::vector<SlotPane *> m_panes;
    // By document number: shown whatever the runtime reads.
    std::vector<bool> m_alwaysShown;
    // The document panes' file names, by document number.
    std::vector<QString> m_documentNames;
};

} // namespace soul
