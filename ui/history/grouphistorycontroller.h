#pragma once

#include "history/grouphistorypanel.h"

#include <QObject>
#include <QPointer>

namespace soul {

class GroupHistory;
class HistoryController;

// The window's side of a linked file's history across members: the
// "Linked File" page of the History dock, which shows the GroupHistory
// (session/history/, which reads and commits) and passes on what the user
// chose.
class GroupHistoryController : public QObject
{
    Q_OBJECT

public:
    // Adds the page to `history`'s dock (attached already). Both must
    // outlive the controller.
    GroupHistoryController(GroupHistory *group, HistoryController *history, QObject *parent);

    // The pane last focused: session `index`'s document `doc` (-1: none).
    void follow(int index, int doc);
    // Shows the History dock with this page in front.
    void show();
    // Checkpoint the Group: the group of the document followed.
    bool checkpoint();

    GroupHistoryPanel *panel() const { return m_panel; }
    GroupHistory *session() const { return m_group; }

Q_SIGNALS:
    void statusMessage(const QString &text);

private:
    void showState();
    // The tab is there only while the workspace has link groups.
    void showTab();

    GroupHistory *m_group = nullptr;
    HistoryController *m_history = nullptr;
    QPointer<GroupHistoryPanel> m_panel;
    int m_index = -1;
    int m_doc = -1;
};

} // namespace soul
