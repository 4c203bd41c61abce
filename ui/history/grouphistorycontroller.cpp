#include "history/grouphistorycontroller.h"

#include "history/grouphistory.h"
#include "history/grouphistorypanel.h"
#include "history/historycontroller.h"

#include <QTabBar>
#include <QTabWidget>

namespace soul {

GroupHistoryController::GroupHistoryController(GroupHistory *group,
                                               HistoryController *history,
                                               QObject *parent)
    : QObject(parent)
    , m_group(group)
    , m_history(history)
{
    setObjectName(QStringLiteral("groupHistoryController"));
    m_panel = new GroupHistoryPanel(group->rows());
    history->addPage(m_panel, tr("Linked File"));
    connect(m_panel, &GroupHistoryPanel::shownChanged, group, &GroupHistory::setShown);
    connect(m_panel, &GroupHistoryPanel::rowSelected, group, &GroupHistory::selectRow);
    connect(m_panel, &GroupHistoryPanel::refreshRequested, group, &GroupHistory::refresh);
    connect(m_panel, &GroupHistoryPanel::checkpointRequested, this, [this] { checkpoint(); });
    connect(group, &GroupHistory::textRead, m_panel, &GroupHistoryPanel::showText);
    connect(group, &GroupHistory::textFailed, m_panel, &GroupHistoryPanel::showTextError);
    connect(group, &GroupHistory::stateChanged, this, &GroupHistoryController::showState);
    connect(group, &GroupHistory::statusMessage, this, &GroupHistoryController::statusMessage);
    connect(group, &GroupHistory::groupsChanged, this, &GroupHistoryController::showTab);
    group->setShown(m_panel->isVisible());
    showState();
    showTab();
}

void GroupHistoryController::follow(int index, int doc)
{
    m_index = index;
    m_doc = doc;
    m_group->follow(index, doc);
}

void GroupHistoryController::show()
{
    if (!m_group->hasGroups()) {
        Q_EMIT statusMessage(tr("No link groups here: Edit > Linked Files > Link Identical Files "
                                "makes one, or soulc links add."));
        return;
    }
    m_history->showPage(m_panel);
}

void GroupHistoryController::showTab()
{
    QTabWidget *tabs = m_history->tabs();
    const int at = tabs->indexOf(m_panel);
    if (at < 0)
        return;
    const bool shown = m_group->hasGroups();
    if (!shown && tabs->currentIndex() == at)
        tabs->setCurrentIndex(0);
    tabs->setTabVisible(at, shown);
    tabs->tabBar()->setVisible(shown);
}

bool GroupHistoryController::checkpoint()
{
    return m_group->checkpoint(m_index, m_doc);
}

void GroupHistoryController::showState()
{
    if (!m_panel)
        return;
    m_panel->showState(m_group->statusText(),
                       m_group->memberNotes(),
                       !m_group->groupName().isEmpty());
    // The tab names the file it follows, so the page is found from the
    // persona's list.
    QTabWidget *tabs = m_history->tabs();
    const int at = tabs->indexOf(m_panel);
    if (at >= 0) {
        tabs->setTabText(at,
                         m_group->file().isEmpty() ? tr("Linked File")
                                                   : tr("Linked File: %1").arg(m_group->file()));
    }
}

} // namespace soul
