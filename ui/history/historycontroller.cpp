#include "history/historycontroller.h"

#include "history/historylistmodel.h"
#include "history/historyloader.h"
#include "history/historysession.h"
#include "history/historytimeline.h"
#include "history/repositorywatcher.h"
#include "persona/personamodel.h"
#include "personasession.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QSettings>
#include <QTabBar>
#include <QTabWidget>

namespace soul {

namespace {

const QString VisibleKey = QStringLiteral("history/visible");

} // namespace

HistoryController::HistoryController(PersonaSession *session, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
{
    setObjectName(QStringLiteral("historyController"));
    setSession(session);
}

HistoryController::~HistoryController() = default;

HistorySession *HistoryController::session() const
{
    return m_session->history();
}

HistoryListModel *HistoryController::rows() const
{
    return session()->rows();
}

HistoryLoader *HistoryController::loader() const
{
    return session()->loader();
}

RepositoryWatcher *HistoryController::repositoryWatcher() const
{
    return session()->repositoryWatcher();
}

bool HistoryController::listShown() const
{
    return m_panel && m_panel->isVisible();
}

void HistoryController::addPage(QWidget *page, const QString &title)
{
    m_tabs->addTab(page, title);
}

void HistoryController::showPage(QWidget *page)
{
    if (m_dock->isHidden()) {
        m_dock->show();
        m_settings->setValue(VisibleKey, true);
    }
    m_dock->raise();
    m_tabs->setCurrentWidget(page);
}

void HistoryController::setSession(PersonaSession *session)
{
    if (session == m_session)
        return;
    if (m_session) {
        HistorySession *before = m_session->history();
        disconnect(before, nullptr, this, nullptr);
        before->setListShown(false);
        before->setFollowed(false);
    }
    m_session = session;
    follow();
}

void HistoryController::follow()
{
    HistorySession *history = m_session->history();
    connect(history, &HistorySession::statusMessage, this, &HistoryController::statusMessage);
    connect(history,
            &HistorySession::checkpointNoteChanged,
            this,
            &HistoryController::checkpointNoteChanged);
    connect(history, &HistorySession::checkpointMade, this, &HistoryController::checkpointMade);
    connect(history, &HistorySession::compareRequested, this, &HistoryController::compareRequested);
    connect(history, &HistorySession::statusChanged, this, &HistoryController::showStatus);
    connect(history,
            &HistorySession::changedSinceCheckpointChanged,
            this,
            &HistoryController::showChanged);
    connect(history, &HistorySession::soulRead, this, [this](const CommitSoul &soul) {
        if (m_panel)
            m_panel->showSoul(soul);
    });
    connect(history, &HistorySession::soulFailed, this, [this](const QString &error) {
        if (m_panel)
            m_panel->showSoulError(error);
    });
    connect(history, &HistorySession::reselectRequested, this, [this](int row) {
        if (m_panel)
            m_panel->selectRow(row);
    });
    if (m_panel)
        m_panel->setRows(history->rows());
    history->setFollowed(true);
    history->setListShown(listShown());
    showStatus();
    showChanged();
}

void HistoryController::focusCommits()
{
    if (m_dock->isHidden()) {
        m_dock->show();
        m_settings->setValue(VisibleKey, true);
    }
    m_dock->raise(); // in front of a dock it is tabbed with
    m_tabs->setCurrentWidget(m_panel);
    m_panel->focusCommits();
}

void HistoryController::attach(QMainWindow *window,
                               QAction *toggle,
                               QAction *checkpointAction,
                               QAction *onSave)
{
    m_dock = new QDockWidget(tr("History"), window);
    m_dock->setObjectName(QStringLiteral("historyDock"));
    // The persona's history, and beside it the pages added later (a linked
    // file's history across members); the tab bar stays hidden until the
    // one who adds a page shows it.
    m_tabs = new QTabWidget(m_dock);
    m_tabs->setObjectName(QStringLiteral("historyTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->tabBar()->hide();
    m_panel = new HistoryPanel(rows(), m_tabs);
    m_tabs->addTab(m_panel, tr("This Agent"));
    m_dock->setWidget(m_tabs);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->setVisible(m_settings->value(VisibleKey, false).toBool());
    m_panel->timeline()->setCapBytes(m_session->model()->rule().capBytes);

    toggle->setCheckable(true);
    toggle->setChecked(m_dock->isVisible());
    connect(toggle, &QAction::toggled, m_dock, &QDockWidget::setVisible);
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this, toggle](bool visible) {
        // A dock tabbed behind another one is not visible but still open.
        toggle->setChecked(!m_dock->isHidden());
        session()->setListShown(visible && m_tabs->currentWidget() == m_panel);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        session()->setListShown(listShown());
    });
    // Remembered when the user shows or hides it (the menu, its key, the
    // dock's close button), not when the window hides it on the way out:
    // by then the settings may be gone.
    connect(toggle, &QAction::triggered, this, [this](bool checked) {
        m_settings->setValue(VisibleKey, checked);
    });
    m_dock->installEventFilter(this);
    connect(checkpointAction, &QAction::triggered, this, [this] { checkpoint(); });
    m_onSave = onSave;
    onSave->setCheckable(true);
    onSave->setChecked(checkpointOnSave());
    connect(onSave, &QAction::toggled, this, &HistoryController::setCheckpointOnSave);

    connect(m_panel, &HistoryPanel::createRepositoryRequested, this, [this] { createRepository(); });
    connect(m_panel, &HistoryPanel::refreshRequested, this, &HistoryController::refresh);
    connect(m_panel, &HistoryPanel::checkpointRequested, this, [this] { checkpoint(); });
    connect(m_panel, &HistoryPanel::rowSelected, this, [this](int row) {
        session()->selectRow(row);
    });
    connect(m_panel, &HistoryPanel::restoreFileRequested, this, [this](int row, int slot) {
        restoreFile(row, slot);
    });
    connect(m_panel, &HistoryPanel::restoreAllRequested, this, [this](int row) { restoreAll(row); });
    connect(m_panel, &HistoryPanel::compareRequested, this, &HistoryController::compareWith);
    connect(m_panel, &HistoryPanel::compareTwoRequested, this, &HistoryController::compareCommits);
    connect(m_panel, &HistoryPanel::diffRequested, this, &HistoryController::diffWithCheckpoint);
    showStatus();
    showChanged();
}

bool HistoryController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_dock && event->type() == QEvent::Close)
        m_settings->setValue(VisibleKey, false);
    return QObject::eventFilter(watched, event);
}

void HistoryController::setBudget(qint64 tokens)
{
    if (m_panel)
        m_panel->timeline()->setBudget(tokens);
}

void HistoryController::setRuntimeProfile(const RuntimeProfile &profile)
{
    session()->setRuntimeProfile(profile);
}

void HistoryController::refresh()
{
    session()->refresh();
}

void HistoryController::showStatus()
{
    if (!m_panel)
        return;
    const HistorySession *history = session();
    m_panel->showStatus(history->status(), history->errorText(), history->busyText());
    m_panel->showProgress(history->rows()->measured(), history->rows()->count());
    m_panel->setRestoreEnabled(m_session->model()->isOpen());
}

void HistoryController::showChanged()
{
    if (!m_panel)
        return;
    const HistorySession *history = session();
    QList<HistoryPanel::Changed> changed;
    for (int k : history->changedSinceCheckpoint())
        changed.append({k, history->savedHere(k)});
    m_panel->showChanged(changed, history->checkpointShortId());
}

bool HistoryController::checkpoint()
{
    return session()->checkpoint();
}

bool HistoryController::checkpointQuietly()
{
    return session()->checkpointQuietly();
}

bool HistoryController::checkpointOnSave() const
{
    return session()->checkpointOnSave();
}

void HistoryController::setCheckpointOnSave(bool on)
{
    session()->setCheckpointOnSave(on);
    if (m_onSave && m_onSave->isChecked() != on)
        m_onSave->setChecked(on);
}

bool HistoryController::createRepository()
{
    return session()->createRepository();
}

bool HistoryController::restoreFile(int row, int slot)
{
    return bool(session()->restoreFile(row, slot));
}

bool HistoryController::restoreAll(int row)
{
    return bool(session()->restoreAll(row));
}

bool HistoryController::savedHere(int slot) const
{
    return session()->savedHere(slot);
}

QList<int> HistoryController::changedSinceCheckpoint() const
{
    return session()->changedSinceCheckpoint();
}

void HistoryController::diffWithCheckpoint(int slot)
{
    session()->diffWithCheckpoint(slot);
}

void HistoryController::compareWith(int row)
{
    session()->compareWith(row);
}

void HistoryController::compareCommits(int older, int newer)
{
    session()->compareCommits(older, newer);
}

} // namespace soul
