#pragma once

#include <QWidget>

class QLabel;
class QListWidget;

namespace soul {

class AgentListModel;

// The list of personas a window holds (OpenClaw's agents, or the personas of
// a folder): one row each, with what tells them apart at a glance, as the
// workspace's AgentListModel says. Shown only while the window holds a roster.
class AgentsSidebar : public QWidget
{
    Q_OBJECT

public:
    explicit AgentsSidebar(QWidget *parent = nullptr);

    // Shows `model`'s rows and source from now on; it must outlive the sidebar.
    void setModel(AgentListModel *model);
    void setCurrent(int index);
    int current() const;
    QListWidget *list() const { return m_list; }

Q_SIGNALS:
    void currentChanged(int index);

private:
    void showRows(int first, int last);

    AgentListModel *m_model = nullptr;
    QLabel *m_source = nullptr;
    QListWidget *m_list = nullptr;
};

} // namespace soul
