#pragma once

#include "recentplace.h"

#include <QList>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace soul {

// Shown when no folder is open: Open, New persona, the bundled example,
// OpenClaw's agents and the recent folders.
class StartView : public QWidget
{
    Q_OBJECT

public:
    explicit StartView(QWidget *parent = nullptr);

    void setRecent(const QList<RecentPlace> &places);
    void setExampleAvailable(bool available);

Q_SIGNALS:
    void openRequested();
    void newPersonaRequested();
    void exampleRequested();
    void agentsRequested();
    void hermesHomeRequested();
    void recentRequested(const soul::RecentPlace &place);

private:
    QPushButton *m_open = nullptr;
    QPushButton *m_new = nullptr;
    QPushButton *m_example = nullptr;
    QPushButton *m_agents = nullptr;
    QPushButton *m_hermes = nullptr;
    QListWidget *m_recent = nullptr;
    QLabel *m_noRecent = nullptr; // stands in for the list while it is empty
    QList<RecentPlace> m_places;  // the list's rows
};

} // namespace soul
