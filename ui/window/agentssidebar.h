#pragma once

#include <QWidget>

class QLabel;
class QListWidget;

namespace soul {

// The list of personas a window holds (OpenClaw's agents, or the personas of
// a folder): one row each, with what tells them apart at a glance. Shown
// only while the window holds more than one.
class AgentsSidebar : public QWidget
{
    Q_OBJECT

public:
    struct Row
    {
        QString title;         // "work — Ava", with a mark while unsaved
        QString detail;        // tokens, what OpenClaw injects, lints
        QString toolTip;       // the folder, where each budget came from
        bool available = true; // false: the workspace is missing
    };

    explicit AgentsSidebar(QWidget *parent = nullptr);

    // Where the list came from ("OpenClaw: ~/.openclaw/openclaw.json").
    void setSource(const QString &text);
    void setRowCount(int rows);
    void setRow(int index, const Row &row);
    void setCurrent(int index);
    int current() const;
    QListWidget *list() const { return m_list; }

Q_SIGNALS:
    void currentChanged(int index);

private:
    QLabel *m_source = nullptr;
    QListWidget *m_list = nullptr;
};

} // namespace soul
