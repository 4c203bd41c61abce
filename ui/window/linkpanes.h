#pragma once

#include "personaeditor.h"

#include <QObject>

#include <functional>

#include <vector>

namespace soul {

class LinkSession;
class PersonaSession;
class Workspace;
class WindowActions;
struct LinkCandidate;

// Shows the workspace's link groups in the panes (each linked file's bar:
// shared with whom, a copy that went its own way, a save that stopped part
// way) and passes the bars' and the menu's requests to the LinkSession.
class LinkPanes : public QObject
{
    Q_OBJECT

public:
    explicit LinkPanes(Workspace *workspace, QObject *parent = nullptr);

    // Shows `session`'s notes in `editor` until remove(); both must outlive that.
    void add(PersonaSession *session, PersonaEditor *editor);
    void remove(PersonaSession *session);
    // Every pane's bar, now.
    void refresh();

    // A bar's button or the menu's action, on document `doc` of the session shown.
    void act(int doc, PersonaEditor::LinkAction action);
    // The Linked Files menu's actions of `actions`, on the document
    // `currentDoc()` says (the pane last focused; -1 for none).
    void attach(const WindowActions *actions, std::function<int()> currentDoc);
    // Offers each candidate group of the roster (identical files) in turn.
    void linkIdentical();

Q_SIGNALS:
    void message(const QString &text, int ms);

private:
    struct Entry
    {
        PersonaSession *session = nullptr;
        PersonaEditor *editor = nullptr;
    };
    void showCandidates();
    LinkSession *links() const;

    Workspace *m_workspace = nullptr;
    std::vector<Entry> m_entries;
    bool m_offered = false; // the candidates of the roster held were said once
};

} // namespace soul
