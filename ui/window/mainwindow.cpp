#include "mainwindow.h"

#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "agents/personafolders.h"
#include "agentssidebar.h"
#include "chat/chatroom.h"
#include "compare/comparedialog.h"
#include "comparecontroller.h"
#include "compose/utf8.h"
#include "dialogprompter.h"
#include "documentcontroller.h"
#include "exportcontroller.h"
#include "freedmemory.h"
#include "freezecontroller.h"
#include "heap.h"
#include "history/historycontroller.h"
#include "persona/personamodel.h"
#include "persona/runtimefile.h"
#include "persona/soultokencounter.h"
#include "personaeditor.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "preview/tokenbar.h"
#include "prompter.h"
#include "registry/runtimeregistry.h"
#include "roomhost.h"
#include "runtimepreview.h"
#include "sameslotnotes.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "startview.h"
#include "tests/testsroom.h"
#include "windowactions.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>

#include <algorithm>

// Resources of a static library are registered by hand, outside any namespace.
static void initSoulStudioResources()
{
    Q_INIT_RESOURCE(soulstudio);
}

namespace soul {

namespace {

const QString GeometryKey = QStringLiteral("window/geometry");
const QString SplitterKey = QStringLiteral("window/splitter");
const QString SidebarKey = QStringLiteral("window/sidebar");
const QString HermesProjectKey = QStringLiteral("hermes/lastProject");

// Puts `bytes` (UTF-8) on the clipboard: as text, and as the exact bytes.
void copyToClipboard(const QByteArray &bytes)
{
    auto *mime = new QMimeData;
    mime->setText(utf8::decode(bytes));
    mime->setData(QStringLiteral("text/plain;charset=utf-8"), bytes);
    QGuiApplication::clipboard()->setMimeData(mime);
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(Options(), parent)
{}

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(options.settingsFile.isEmpty()
                     ? std::make_unique<QSettings>()
                     : std::make_unique<QSettings>(options.settingsFile, QSettings::IniFormat))
    , m_prompter(std::make_unique<DialogPrompter>(this))
{
    initSoulStudioResources();
    m_freedMemory = new FreedMemory(this);
    m_actions = new WindowActions(this);
    m_splitterState = m_settings->value(SplitterKey).toByteArray();
    setWindowIcon(QIcon(QStringLiteral(":/soulstudio/icons/soulstudio.svg")));
    setAcceptDrops(true);
    buildUi();
    m_sameNotes = new SameSlotNotes(this);
    addSession();
    m_history = new HistoryController(currentSession(), m_settings.get(), this);
    wireActions();
    wireHistory();
    wireRooms();
    m_summaryTimer.setSingleShot(true);
    m_summaryTimer.setInterval(250);
    connect(&m_summaryTimer, &QTimer::timeout, this, &MainWindow::showSummaries);
    showFolderState();
    // Roomy by default, but never larger than the screen it opens on; after
    // the first run, as the user left it.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1400, 900);
    resize(QSize(1400, 900).boundedTo(available * 0.92));
    restoreGeometry(m_settings->value(GeometryKey).toByteArray());
    m_body->restoreState(m_settings->value(SidebarKey).toByteArray());
}

MainWindow::~MainWindow() = default;

PersonaSession *MainWindow::session(int index) const
{
    return index >= 0 && index < sessionCount() ? m_open.at(size_t(index)).session : nullptr;
}

PersonaEditor *MainWindow::editor(int index) const
{
    return index >= 0 && index < sessionCount() ? m_open.at(size_t(index)).editor : nullptr;
}

PersonaModel *MainWindow::model() const
{
    return currentSession()->model();
}

DocumentController *MainWindow::documents() const
{
    return currentSession()->documents();
}

ExportController *MainWindow::exporter() const
{
    return currentSession()->exporter();
}

FreezeController *MainWindow::freezer() const
{
    return currentSession()->freezer();
}

PaneStack *MainWindow::panes() const
{
    return currentEditor()->panes();
}

PreviewPanel *MainWindow::previewPanel() const
{
    return currentEditor()->previewPanel();
}

SoulTokenCounter *MainWindow::tokenCounter() const
{
    return currentSession()->tokens();
}

int MainWindow::addSession()
{
    auto *session = new PersonaSession(m_prompter.get(), m_settings.get(), this);
    // The editor is shown before its panes and preview take the text (this
    // is connected before the editor's own handler): a text view whose
    // width changes afterwards gives each of its lines a layout (hundreds of
    // MiB on a large soul).
    connect(session->model(), &PersonaModel::opened, this, [this, session] {
        if (session == currentSession())
            showFolderState();
    });
    auto *editor = new PersonaEditor(session, m_settings.get(), m_editors);
    m_editors->addWidget(editor);
    if (m_editors->currentWidget() != editor)
        editor->setUpdatesEnabled(false); // see showPage()
    m_open.push_back({session, editor});
    m_sameNotes->add(session, editor);
    if (!m_splitterState.isEmpty())
        editor->splitter()->restoreState(m_splitterState);
    PersonaModel *model = session->model();
    PreviewPanel *preview = editor->previewPanel();
    const auto soulMoved = [this, session] {
        if (m_rooms && session == currentSession())
            m_rooms->soulMayHaveChanged();
    };
    connect(model, &PersonaModel::sectionChanged, this, soulMoved);
    connect(model, &PersonaModel::opened, this, soulMoved);
    connect(session->runtimePreview(), &RuntimePreview::compositionChanged, this, soulMoved);
    connect(session->runtimePreview(), &RuntimePreview::profileChanged, this, soulMoved);

    // Large texts were read, decoded and composed once, or replaced: what
    // that freed goes back to the system once the window is quiet.
    connect(model, &PersonaModel::opened, m_freedMemory, &FreedMemory::releaseSoon);
    connect(model, &PersonaModel::bufferReplaced, m_freedMemory, &FreedMemory::releaseSoon);
    connect(session->freezer(), &FreezeController::frozen, m_freedMemory, &FreedMemory::releaseSoon);
    connect(session->freezer(), &FreezeController::failed, m_freedMemory, &FreedMemory::releaseSoon);
    connect(session->exporter(),
            &ExportController::exported,
            m_freedMemory,
            &FreedMemory::releaseSoon);
    connect(session->exporter(),
            &ExportController::failed,
            m_freedMemory,
            &FreedMemory::releaseSoon);

    connect(model, &PersonaModel::closed, this, [this, session] {
        if (session == currentSession())
            showFolderState();
    });
    auto recoveryFailed = [this, session](const QString &error) {
        showMessage(session == currentSession() || sessionCount() == 1
                        ? error
                        : tr("%1: %2").arg(session->agent().id, error),
                    15000);
    };
    connect(model, &PersonaModel::recoveryFailed, this, recoveryFailed);
    connect(session->documents()->setupFile(), &RuntimeFile::recoveryFailed, this, recoveryFailed);
    connect(model, &PersonaModel::watchingChanged, this, [this, session] {
        if (session == currentSession())
            showStatus();
    });
    connect(model, &PersonaModel::refreshed, this, [this, session] {
        if (session == currentSession())
            showStatus();
    });
    connect(model, &PersonaModel::directoryLostChanged, this, [this, session] {
        if (session == currentSession())
            showStatus();
    });
    connect(editor, &PersonaEditor::editStateChanged, this, [this, editor] {
        setWindowModified(std::any_of(m_open.begin(), m_open.end(), [](const Open &o) {
            return o.session->hasUnsaved();
        }));
        if (editor == currentEditor())
            showEditState();
    });
    connect(editor, &PersonaEditor::message, this, &MainWindow::showMessage);
    connect(session, &PersonaSession::statusMessage, this, [this, session](const QString &text) {
        // Another agent's sentence says whose it is.
        showMessage(session == currentSession() || sessionCount() == 1
                        ? text
                        : tr("%1: %2").arg(session->agent().id, text),
                    5000);
    });
    connect(session->documents(), &DocumentController::recentChanged, this, [this, session] {
        m_startView->setRecent(session->documents()->recentPlaces());
        m_actions->setRecent(session->documents()->recentPlaces());
    });
    connect(session->freezer(), &FreezeController::recentChanged, this, [this, session] {
        if (session == currentSession())
            m_actions->setRecentSnapshots(session->freezer()->recent());
    });

    // The sidebar follows what changes an agent's row.
    connect(session, &PersonaSession::summaryChanged, this, [this, session] {
        scheduleSummary(session);
    });
    connect(model, &PersonaModel::slotStateChanged, this, [this, session] {
        scheduleSummary(session);
    });
    connect(session->tokens(), &SoulTokenCounter::countsChanged, this, [this, session] {
        scheduleSummary(session);
    });

    // The runtime the session chose: the text views' memory and the History
    // dock follow the one shown.
    connect(session->runtimePreview(),
            &RuntimePreview::profileChanged,
            this,
            [this, session](const RuntimeProfile &p) {
                if (session != currentSession())
                    return;
                followShownRuntime(p);
                if (m_history)
                    m_history->setRuntimeProfile(p);
            });

    connect(preview->invisiblesToggle(),
            &QCheckBox::toggled,
            m_actions->showInvisibles,
            &QAction::setChecked);
    connect(preview->unsavedToggle(),
            &QCheckBox::toggled,
            m_actions->showOnDisk,
            [this](bool unsaved) { m_actions->showOnDisk->setChecked(!unsaved); });
    preview->invisiblesToggle()->setChecked(m_actions->showInvisibles->isChecked());
    preview->unsavedToggle()->setChecked(!m_actions->showOnDisk->isChecked());

    // The History dock follows the session shown.
    for (int k = 0; k < SlotCount; ++k) {
        connect(editor->panes()->pane(k),
                &SlotPane::checkpointDiffRequested,
                this,
                [this](int slot) { m_history->diffWithCheckpoint(slot); });
    }
    connect(preview->tokenBar()->budgetChooser(),
            &QComboBox::currentTextChanged,
            this,
            [this, editor] {
                if (m_history && editor == currentEditor())
                    m_history->setBudget(editor->previewPanel()->tokenBar()->budget());
            });
    m_sidebar->setRowCount(sessionCount());
    m_actions->setAgentCount(sessionCount());
    return sessionCount() - 1;
}

void MainWindow::removeSession(int index)
{
    if (index < 0 || index >= sessionCount() || sessionCount() == 1)
        return;
    const Open gone = m_open.at(size_t(index));
    m_open.erase(m_open.begin() + index);
    m_sameNotes->remove(gone.session);
    m_summaryPending.remove(gone.session);
    if (m_current >= sessionCount())
        m_current = sessionCount() - 1;
    else if (m_current > index)
        --m_current;
    m_editors->removeWidget(gone.editor);
    m_sidebar->setRowCount(sessionCount());
    m_actions->setAgentCount(sessionCount());
    // The history and the comparison were of the current session.
    const int shown = m_current;
    m_splitterState = gone.editor->splitter()->saveState();
    m_current = -1;
    setCurrentIndex(shown);
    gone.editor->deleteLater();
    gone.session->deleteLater();
    for (const Open &o : m_open)
        scheduleSummary(o.session);
}

void MainWindow::setCurrentIndex(int index)
{
    if (index < 0 || index >= sessionCount())
        return;
    // An agent whose workspace was created since the roster was read opens now.
    PersonaSession *chosen = session(index);
    if (m_roster && !chosen->model()->isOpen() && QFileInfo(chosen->agent().folder).isDir()) {
        if (const Status opened = chosen->model()->open(chosen->agent().folder); !opened)
            showMessage(opened.error(), 15000);
        scheduleSummary(chosen);
    }
    const bool changed = index != m_current;
    if (PersonaEditor *before = currentEditor(); changed && before)
        m_splitterState = before->splitter()->saveState();
    m_current = index;
    PersonaEditor *shown = currentEditor();
    PersonaSession *session = currentSession();
    if (changed) {
        showPage(shown);
        followShownRuntime(shown->previewPanel()->runtimeProfile());
        if (!m_splitterState.isEmpty())
            shown->splitter()->restoreState(m_splitterState);
        if (m_history) {
            m_history->setSession(session);
            m_history->setRuntimeProfile(shown->previewPanel()->runtimeProfile());
            m_history->setBudget(shown->previewPanel()->tokenBar()->budget());
        }
        // A comparison was of the persona shown before: it ends, and its
        // snapshot's sections are let go.
        if (m_compare) {
            m_compare->controller()->close();
            m_compare->close();
            m_compare->deleteLater();
            m_compare = nullptr;
        }
    }
    m_sidebar->setCurrent(index);
    if (m_rooms)
        m_rooms->setSession(session);
    showFolderState();
}

void MainWindow::setPrompter(std::unique_ptr<Prompter> prompter)
{
    m_prompter = std::move(prompter);
    for (const Open &o : m_open)
        o.session->setPrompter(m_prompter.get());
}

bool MainWindow::chooseRuntime(const QString &id)
{
    return currentSession()->runtimePreview()->chooseRuntime(id);
}

void MainWindow::start(const QString &dir)
{
    if (!dir.isEmpty()) {
        openFolder(dir);
        return;
    }
    // What is gone since is not asked about: the start view shows instead.
    const RecentPlace last = documents()->lastPlace();
    if (!last.isEmpty() && QFileInfo(last.directory).isDir()
        && (!last.isHermesHome() || QFileInfo(last.project).isDir()))
        openRecent(last);
}

void MainWindow::openRecent(const RecentPlace &place)
{
    if (place.isHermesHome())
        openHermesHome(place.directory, place.project, place.projectFile);
    else
        openFolder(place.directory);
}

void MainWindow::openFolder(const QString &dir)
{
    if (dir.isEmpty())
        return;
    if (sessionCount() == 1 && !m_roster) {
        documents()->open(dir);
        return;
    }
    // A roster is open: the folder joins it, or is shown when it is there.
    const QString absolute = QFileInfo(dir).absoluteFilePath();
    for (int i = 0; i < sessionCount(); ++i) {
        const PersonaModel *m = session(i)->model();
        if ((m->isOpen() && m->directory() == absolute)
            || QFileInfo(session(i)->agent().folder).absoluteFilePath() == absolute) {
            setCurrentIndex(i); // opens an agent's workspace made since
            return;
        }
    }
    const int added = addSession();
    PersonaSession::Agent agent;
    agent.id = QFileInfo(absolute).fileName();
    agent.folder = absolute;
    session(added)->setAgent(agent);
    if (session(added)->documents()->open(absolute))
        setCurrentIndex(added);
    else
        removeSession(added);
}

QString MainWindow::lastHermesProject() const
{
    const QString last = m_settings->value(HermesProjectKey).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::currentPath();
}

bool MainWindow::openHermesHome(const QString &home,
                                const QString &project,
                                const QString &projectFile)
{
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    const Result<SlotLayout> layout = runtime ? runtime->homeLayout(home, project, projectFile)
                                              : Result<SlotLayout>::failure(
                                                  tr("No runtime reads a home of its own."));
    if (!layout) {
        m_prompter->showError(tr("Cannot open Hermes's home"), layout.error());
        return false;
    }
    if (m_roster || sessionCount() > 1) {
        // The home is one persona: the roster goes, as when its last agent closes.
        if (!closeAll())
            return false;
        while (sessionCount() > 1)
            removeSession(sessionCount() - 1);
        m_roster = false;
        currentSession()->setAgent({});
        m_sidebar->setSource(QString());
    }
    if (!documents()->openLayout(layout.value()))
        return false;
    m_settings->setValue(HermesProjectKey, layout.value().project);
    chooseRuntime(runtime->id());
    showFolderState();
    return true;
}

void MainWindow::openHermesHomeWithDialog()
{
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    const QString home = runtime ? runtime->homeDirectory() : QString();
    if (!QFileInfo(home).isDir()) {
        m_prompter->showError(tr("Cannot open Hermes's home"),
                              tr("%1 is not a folder. Hermes keeps its home in $HERMES_HOME, "
                                 "else in ~/.hermes, and makes it when it first runs. Run Hermes "
                                 "once, set HERMES_HOME, or start soulstudio with --hermes-home.")
                                  .arg(QDir::toNativeSeparators(home)));
        return;
    }
    const QString project = m_prompter->askHermesProject(home, lastHermesProject());
    if (!project.isEmpty())
        openHermesHome(home, project);
}

void MainWindow::openWithDialog()
{
    const QString start = model()->isOpen() ? model()->directory() : documents()->lastDirectory();
    openFolder(m_prompter->askOpenDirectory(start.isEmpty() ? QDir::homePath() : start));
}

void MainWindow::newPersona()
{
    if (sessionCount() == 1 && !m_roster) {
        documents()->newPersona();
        return;
    }
    const int added = addSession();
    if (session(added)->documents()->newPersona()) {
        PersonaSession::Agent agent;
        agent.id = session(added)->displayName();
        agent.folder = session(added)->directory();
        session(added)->setAgent(agent);
        setCurrentIndex(added);
    } else {
        removeSession(added);
    }
}

void MainWindow::closeCurrent()
{
    if (!documents()->close())
        return;
    if (sessionCount() > 1) {
        removeSession(m_current);
        return;
    }
    // The last of a roster closed: the window is empty again, and the next
    // folder opened is no agent.
    m_roster = false;
    currentSession()->setAgent({});
    m_sidebar->setSource(QString());
    showFolderState();
}

bool MainWindow::closeAll()
{
    QStringList names;
    for (const Open &o : m_open) {
        if (!o.session->hasUnsaved())
            continue;
        for (const QString &name : o.session->documents()->unsavedFiles())
            names.append(sessionCount() == 1 ? name : tr("%1: %2").arg(o.session->agent().id, name));
    }
    if (!names.isEmpty()) {
        switch (m_prompter->askUnsaved(names)) {
        case Prompter::UnsavedAnswer::Cancel:
            return false;
        case Prompter::UnsavedAnswer::SaveAll:
            for (const Open &o : m_open) {
                if (o.session->hasUnsaved() && !o.session->documents()->saveAll())
                    return false;
            }
            break;
        case Prompter::UnsavedAnswer::Discard:
            break;
        }
    }
    for (const Open &o : m_open) {
        if (o.session->model()->isOpen())
            o.session->model()->close();
    }
    return true;
}

bool MainWindow::openOpenClawAgents(const QString &configFile)
{
    const Result<OpenClawRoster> roster = readOpenClawRoster(OpenClawPaths::system(), configFile);
    if (!roster) {
        m_prompter->showError(tr("Cannot read OpenClaw's agents"), roster.error());
        return false;
    }
    QList<PersonaSession::Agent> agents;
    for (const OpenClawAgent &a : roster.value().agents) {
        PersonaSession::Agent agent;
        agent.id = a.id;
        agent.folder = a.workspace;
        agent.isDefault = a.isDefault;
        agent.openClaw = a.profile();
        agent.budgetNote = tr("bootstrapMaxChars %1 from %2\nbootstrapTotalMaxChars %3 from %4")
                               .arg(QLocale().toString(a.settings.maxChars()),
                                    budgetSourceText(a.maxCharsSource, a.id),
                                    QLocale().toString(a.settings.totalMaxChars()),
                                    budgetSourceText(a.totalMaxCharsSource, a.id));
        agents.append(agent);
    }
    const QString source = roster.value().configExists
                               ? tr("OpenClaw's agents, from %1")
                                     .arg(QDir::toNativeSeparators(roster.value().configPath))
                               : tr("OpenClaw's agents: no config at %1, so the one agent "
                                    "\"main\"")
                                     .arg(QDir::toNativeSeparators(roster.value().configPath));
    if (!closeAll())
        return false;
    openRoster(agents, source);
    return true;
}

bool MainWindow::openPersonaFolder(const QString &parent)
{
    const Result<QList<PersonaFolder>> folders = listPersonaFolders(parent);
    if (!folders) {
        m_prompter->showError(tr("Cannot open the folder of personas"), folders.error());
        return false;
    }
    if (folders.value().isEmpty()) {
        m_prompter->showError(tr("No personas in this folder"),
                              tr("No subfolder of %1 holds a slot file (AGENTS.md, SOUL.md, "
                                 "IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md or MEMORY.md). "
                                 "Choose the folder that holds the persona folders, or open a "
                                 "persona with Open Folder.")
                                  .arg(QDir::toNativeSeparators(parent)));
        return false;
    }
    QList<PersonaSession::Agent> agents;
    for (const PersonaFolder &folder : folders.value()) {
        PersonaSession::Agent agent;
        agent.id = folder.name;
        agent.folder = folder.path;
        agents.append(agent);
    }
    if (!closeAll())
        return false;
    openRoster(agents, tr("Personas in %1").arg(QDir::toNativeSeparators(parent)));
    return true;
}

void MainWindow::openRoster(const QList<PersonaSession::Agent> &agents, const QString &source)
{
    // Every session closed: the first one stays and takes the first agent.
    while (sessionCount() > 1)
        removeSession(sessionCount() - 1);
    m_sidebar->setSource(source);
    m_roster = true;
    QStringList failed;
    for (qsizetype i = 0; i < agents.size(); ++i) {
        const int index = i == 0 ? 0 : addSession();
        PersonaSession *s = session(index);
        s->setAgent(agents.at(i));
        if (!QFileInfo(agents.at(i).folder).isDir())
            continue;
        if (Status opened = s->model()->open(agents.at(i).folder); !opened)
            failed.append(tr("%1: %2").arg(agents.at(i).id, opened.error()));
    }
    // The default agent first on screen, else the first.
    int shown = 0;
    for (qsizetype i = 0; i < agents.size(); ++i) {
        if (agents.at(i).isDefault)
            shown = int(i);
    }
    m_current = -1;
    setCurrentIndex(shown);
    for (const Open &o : m_open)
        scheduleSummary(o.session);
    if (!failed.isEmpty())
        m_prompter->showError(tr("Some agents could not be opened"), failed.join(QLatin1Char('\n')));
    else
        showMessage(tr("Opened %n personas", nullptr, int(agents.size())), 5000);
}

void MainWindow::scheduleSummary(PersonaSession *session)
{
    // Only a roster has rows, and a row costs a lint and an OpenClaw compose
    // of the persona: made once typing pauses.
    if (!m_roster)
        return;
    m_summaryPending.insert(session);
    m_summaryTimer.start();
}

void MainWindow::showSummaries()
{
    const QLocale locale;
    for (int i = 0; i < sessionCount(); ++i) {
        PersonaSession *s = session(i);
        if (!m_summaryPending.contains(s))
            continue;
        const PersonaSession::Agent &agent = s->agent();
        AgentsSidebar::Row row;
        row.available = s->model()->isOpen();
        const QString id = agent.id.isEmpty() ? s->displayName() : agent.id;
        if (!row.available) {
            row.title = id;
            row.detail = tr("no workspace folder");
            row.toolTip = tr("%1 does not exist. OpenClaw creates it when the agent first runs.")
                              .arg(QDir::toNativeSeparators(agent.folder));
            m_sidebar->setRow(i, row);
            continue;
        }
        const PersonaSession::Summary summary = s->summary();
        row.title = summary.identityName.isEmpty() ? id
                                                   : tr("%1 — %2").arg(id, summary.identityName);
        if (agent.isDefault)
            row.title += tr(" (default)");
        if (summary.unsaved)
            row.title += QStringLiteral(" ●");
        QStringList detail;
        detail.append(summary.tokens < 0 ? tr("… tokens")
                                         : tr("%1 tokens").arg(locale.toString(summary.tokens)));
        if (summary.budget > 0)
            detail.append(
                tr("OpenClaw %1/%2")
                    .arg(locale.toString(summary.injected), locale.toString(summary.budget)));
        if (summary.lints > 0)
            detail.append(tr("%n lint(s)", nullptr, summary.lints));
        row.detail = detail.join(QStringLiteral(" · "));
        row.toolTip = QDir::toNativeSeparators(s->directory());
        if (!agent.budgetNote.isEmpty())
            row.toolTip += QLatin1Char('\n') + agent.budgetNote;
        m_sidebar->setRow(i, row);
    }
    m_summaryPending.clear();
}

void MainWindow::compareWithAgent(int other)
{
    PersonaSession *theirs = session(other);
    if (!theirs || other == m_current || !model()->isOpen())
        return;
    if (!theirs->model()->isOpen()) {
        showMessage(tr("%1 has no workspace folder to compare with.").arg(theirs->agent().id), 8000);
        return;
    }
    // The other agent's soul as the preview's switch says, frozen into a
    // snapshot the compare dialog reads like any other.
    const Result<QString> soulPath
        = currentSession()->compare()->writeAgentSnapshot(*theirs,
                                                          previewPanel()->preview()->view());
    if (!soulPath) {
        m_prompter->showError(tr("Could not compare"), soulPath.error());
        return;
    }
    compareWith(soulPath.value());
}

void MainWindow::copySlotToAgents(int slot, const QList<int> &targets)
{
    if (slot < 0 || slot >= SlotCount || !model()->isOpen())
        return;
    const SlotState &source = model()->slot(slot);
    if (!source.bufferPresent) {
        showMessage(tr("%1 has no text here to copy.").arg(slotName(slot)), 8000);
        return;
    }
    QStringList copied;
    QStringList refused;
    for (int target : targets) {
        PersonaSession *s = session(target);
        if (!s || target == m_current)
            continue;
        if (!s->model()->isOpen()) {
            refused.append(tr("%1: it has no workspace folder.").arg(s->agent().id));
            continue;
        }
        if (const Status replaced = s->model()->replaceBuffer(slot, source.bufferBytes); !replaced)
            refused.append(tr("%1: %2").arg(s->agent().id, replaced.error()));
        else
            copied.append(s->agent().id);
    }
    if (!refused.isEmpty())
        m_prompter->showError(tr("Copy %1").arg(slotName(slot)), refused.join(QLatin1Char('\n')));
    if (!copied.isEmpty())
        showMessage(tr("Copied %1 to %2, unsaved: save each agent to write it (Ctrl+Z undoes it "
                       "there).")
                        .arg(slotName(slot), copied.join(QStringLiteral(", "))),
                    8000);
}

void MainWindow::wireHistory()
{
    m_history->attach(this,
                      m_actions->showHistory,
                      m_actions->checkpoint,
                      m_actions->checkpointOnSave);
    m_history->setBudget(previewPanel()->tokenBar()->budget());
    m_history->setRuntimeProfile(previewPanel()->runtimeProfile());
    connect(m_history, &HistoryController::statusMessage, this, [this](const QString &text) {
        showMessage(text, 8000);
    });
    connect(m_history, &HistoryController::compareRequested, this, &MainWindow::compareWith);
    connect(m_history,
            &HistoryController::checkpointNoteChanged,
            this,
            [this](int slot, const QString &note) { panes()->pane(slot)->setCheckpointNote(note); });
}

void MainWindow::wireRooms()
{
    m_rooms = new RoomHost(this, m_actions->roomsMenu, m_settings.get());
    m_rooms->setSoulSource([this] {
        LiveSoul soul;
        const RuntimePreview *preview = currentSession()->runtimePreview();
        const RuntimeProfile &profile = preview->profile();
        soul.bytes = preview->currentText();
        soul.runtimeId = profile.runtime ? profile.runtime->id() : QString();
        soul.runtimeName = profile.displayName();
        soul.directory = model()->directory();
        return soul;
    });
    new ChatRoom(m_rooms);
    new TestsRoom(m_rooms);
    m_rooms->setSession(currentSession());
}

void MainWindow::compareWith(const QString &soulPath)
{
    if (!m_compare) {
        PreviewPanel *preview = previewPanel();
        m_compare = new CompareDialog(currentSession()->compare(), this);
        // Opening a snapshot reads it once and frees what the model holds too.
        connect(m_compare->controller(),
                &CompareController::updated,
                m_freedMemory,
                &FreedMemory::releaseSoon,
                Qt::UniqueConnection);
        m_compare->controller()->setView(preview->unsavedToggle()->isChecked() ? SoulView::Unsaved
                                                                               : SoulView::OnDisk);
        CompareDialog *dialog = m_compare;
        connect(preview->unsavedToggle(), &QCheckBox::toggled, dialog, [dialog](bool unsaved) {
            dialog->controller()->setView(unsaved ? SoulView::Unsaved : SoulView::OnDisk);
        });
        // The diff marks invisibles when the preview does, and the other way.
        m_compare->invisiblesToggle()->setChecked(preview->invisiblesToggle()->isChecked());
        connect(preview->invisiblesToggle(),
                &QCheckBox::toggled,
                m_compare->invisiblesToggle(),
                &QCheckBox::setChecked);
        connect(m_compare->invisiblesToggle(),
                &QCheckBox::toggled,
                preview->invisiblesToggle(),
                &QCheckBox::setChecked);
        connect(m_compare, &CompareDialog::jumpRequested, this, &MainWindow::goToLine);
    }
    m_compare->compareWith(soulPath);
    m_compare->show();
    m_compare->raise();
}

void MainWindow::goToLine(int slot, qint64 line, qint64 column)
{
    activateWindow();
    currentEditor()->goToLine(slot, line, column);
}

void MainWindow::buildUi()
{
    m_actions->fillMenuBar(menuBar());

    m_stack = new QStackedWidget(this);
    m_startView = new StartView(m_stack);
    m_startView->setExampleAvailable(!DocumentController::exampleDirectory().isEmpty());

    m_body = new QSplitter(Qt::Horizontal, m_stack);
    m_sidebar = new AgentsSidebar(m_body);
    m_editors = new QStackedWidget(m_body);
    m_missing = new QLabel(m_editors);
    m_missing->setObjectName(QStringLiteral("missingWorkspace"));
    m_missing->setWordWrap(true);
    m_missing->setAlignment(Qt::AlignCenter);
    m_missing->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_missing->setMargin(24);
    m_editors->addWidget(m_missing);
    m_body->addWidget(m_sidebar);
    m_body->addWidget(m_editors);
    m_body->setStretchFactor(0, 0);
    m_body->setStretchFactor(1, 1);
    m_body->setSizes({240, 10000});
    m_body->setChildrenCollapsible(false);
    m_sidebar->hide();
    connect(m_sidebar, &AgentsSidebar::currentChanged, this, &MainWindow::setCurrentIndex);

    m_stack->addWidget(m_startView);
    m_stack->addWidget(m_body);
    setCentralWidget(m_stack);

    m_statusDir = new QLabel(this);
    m_statusWatch = new QLabel(this);
    m_statusRefresh = new QLabel(this);
    // QStatusBar::showMessage() cuts a sentence at the bar's width; this
    // label wraps it instead, and the bar grows a line while it is shown.
    m_statusMessage = new QLabel(this);
    m_statusMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusMessage->setAccessibleName(tr("Status message"));
    m_statusMessage->hide();
    m_messageTimer.setSingleShot(true);
    connect(&m_messageTimer, &QTimer::timeout, this, [this] {
        m_statusMessage->hide();
        m_statusMessage->clear();
        m_statusDir->show();
    });
    statusBar()->addWidget(m_statusMessage, 1);
    statusBar()->addWidget(m_statusDir, 1);
    statusBar()->addPermanentWidget(m_statusWatch);
    statusBar()->addPermanentWidget(m_statusRefresh);
}

void MainWindow::wireActions()
{
    m_startView->setRecent(documents()->recentPlaces());
    m_actions->setRecent(documents()->recentPlaces());
    connect(m_actions->open, &QAction::triggered, this, &MainWindow::openWithDialog);
    connect(m_actions->newPersona, &QAction::triggered, this, &MainWindow::newPersona);
    connect(m_actions->openExample, &QAction::triggered, this, [this] {
        openFolder(DocumentController::exampleDirectory());
    });
    connect(m_actions->openAgents, &QAction::triggered, this, [this] { openOpenClawAgents(); });
    connect(m_actions->openPersonaFolder, &QAction::triggered, this, [this] {
        const QString start = model()->isOpen() ? QFileInfo(model()->directory()).absolutePath()
                                                : QDir::homePath();
        const QString parent = m_prompter->askOpenDirectory(start);
        if (!parent.isEmpty())
            openPersonaFolder(parent);
    });
    connect(m_actions->openHermesHome,
            &QAction::triggered,
            this,
            &MainWindow::openHermesHomeWithDialog);
    connect(m_actions->closeFolder, &QAction::triggered, this, &MainWindow::closeCurrent);
    // Enabled while the pane last focused has unsaved edits, or is
    // read-only, so that Ctrl+S there says why nothing is saved.
    connect(m_actions->save, &QAction::triggered, this, [this] {
        const int slot = currentEditor()->currentSlot();
        if (slot < 0) {
            if (!currentEditor()->setupPaneCurrent())
                return;
            if (documents()->setupFile()->dirty())
                documents()->saveSetupFile();
            else
                documents()->explainSetupFileNothingToSave();
            return;
        }
        if (!model()->slot(slot).dirty) {
            documents()->explainNothingToSave(slot);
            return;
        }
        documents()->save(slot);
    });
    connect(m_actions->saveAll, &QAction::triggered, this, [this] { documents()->saveAll(); });
    connect(m_actions->revert, &QAction::triggered, this, [this] {
        if (currentEditor()->currentSlot() >= 0)
            documents()->revert(currentEditor()->currentSlot());
        else if (currentEditor()->setupPaneCurrent())
            documents()->revertSetupFile();
    });
    connect(m_actions->exportSnapshot, &QAction::triggered, this, [this] {
        exporter()->exportSnapshot();
    });
    connect(m_actions->freeze, &QAction::triggered, this, [this] { freezer()->freeze(); });
    connect(m_actions->changeSnapshotsFolder, &QAction::triggered, this, [this] {
        freezer()->changeSnapshotsFolder();
    });
    connect(m_actions, &WindowActions::snapshotRequested, this, &MainWindow::compareWith);
    connect(m_actions->compareWithSnapshot, &QAction::triggered, this, [this] {
        QString start = freezer()->snapshotsFolder();
        if (start.isEmpty())
            start = QFileInfo(model()->directory()).dir().absolutePath();
        const QString soulPath = m_prompter->askSnapshotFile(start);
        if (!soulPath.isEmpty())
            compareWith(soulPath);
    });
    connect(m_actions->copySoul, &QAction::triggered, this, [this] {
        // What the preview shows: the soul, or what the chosen runtime injects.
        const QByteArray bytes = currentEditor()->shownBytes();
        copyToClipboard(bytes);
        const RuntimeProfile profile = previewPanel()->runtimeProfile();
        showMessage(profile.sectioned()
                        ? tr("Copied the soul (%1 bytes) to the clipboard").arg(bytes.size())
                        : tr("Copied what %1 injects (%2 bytes) to the clipboard")
                              .arg(profile.displayName())
                              .arg(bytes.size()),
                    5000);
    });
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->undo, &QAction::triggered, this, [this] {
        if (const int slot = currentEditor()->currentSlot(); slot >= 0)
            panes()->pane(slot)->editor()->undo();
        else if (currentEditor()->canUndoFinishSetup())
            currentEditor()->undoFinishSetup();
    });
    connect(m_actions->finishSetup, &QAction::triggered, this, [this] {
        currentEditor()->finishSetup();
    });
    connect(m_actions->redo, &QAction::triggered, this, [this] {
        if (const int slot = currentEditor()->currentSlot(); slot >= 0)
            panes()->pane(slot)->editor()->redo();
    });
    connect(m_actions, &WindowActions::recentRequested, this, &MainWindow::openRecent);
    connect(m_actions->clearRecent, &QAction::triggered, this, [this] {
        documents()->clearRecent();
    });
    connect(m_actions->find, &QAction::triggered, this, [this] { currentEditor()->find(); });
    connect(m_actions->showInvisibles, &QAction::toggled, this, [this](bool show) {
        for (const Open &o : m_open)
            o.editor->previewPanel()->invisiblesToggle()->setChecked(show);
    });
    connect(m_actions->showOnDisk, &QAction::toggled, this, [this](bool onDisk) {
        for (const Open &o : m_open)
            o.editor->previewPanel()->unsavedToggle()->setChecked(!onDisk);
    });
    connect(m_actions->focusPreview, &QAction::triggered, this, [this] {
        previewPanel()->preview()->setFocus(Qt::ShortcutFocusReason);
    });
    connect(m_actions->focusRuntimeFile, &QAction::triggered, this, [this] {
        if (!panes()->showRuntimeFilePane())
            showMessage(tr("The chosen runtime reads no file beside the seven."), 5000);
    });
    connect(m_actions->focusHistory, &QAction::triggered, this, [this] {
        if (m_history)
            m_history->focusCommits();
    });
    for (int k = 0; k < SlotCount; ++k) {
        connect(m_actions->jumpToSlot[size_t(k)], &QAction::triggered, this, [this, k] {
            panes()->showPane(k);
        });
    }
    connect(m_actions->nextAgent, &QAction::triggered, this, [this] {
        setCurrentIndex((m_current + 1) % sessionCount());
    });
    connect(m_actions->previousAgent, &QAction::triggered, this, [this] {
        setCurrentIndex((m_current + sessionCount() - 1) % sessionCount());
    });
    connect(m_actions->compareAgents, &QAction::triggered, this, [this] {
        QStringList names;
        for (int i = 0; i < sessionCount(); ++i)
            names.append(session(i)->agent().id);
        const int other = m_prompter->askAgent(tr("Compare %1 with").arg(names.value(m_current)),
                                               names,
                                               m_current);
        if (other >= 0)
            compareWithAgent(other);
    });
    connect(m_actions->copySlotToAgents, &QAction::triggered, this, [this] {
        const int slot = currentEditor()->currentSlot();
        if (slot < 0) {
            showMessage(tr("Click into the pane of the file to copy first."), 5000);
            return;
        }
        QStringList names;
        for (int i = 0; i < sessionCount(); ++i)
            names.append(session(i)->agent().id);
        const QList<int> targets = m_prompter->askAgents(
            tr("Copy %1 of %2 to").arg(slotName(slot), names.value(m_current)), names, m_current);
        copySlotToAgents(slot, targets);
    });
    connect(m_startView, &StartView::openRequested, this, &MainWindow::openWithDialog);
    connect(m_startView, &StartView::newPersonaRequested, this, &MainWindow::newPersona);
    connect(m_startView, &StartView::exampleRequested, this, [this] {
        openFolder(DocumentController::exampleDirectory());
    });
    connect(m_startView, &StartView::agentsRequested, this, [this] { openOpenClawAgents(); });
    connect(m_startView,
            &StartView::hermesHomeRequested,
            this,
            &MainWindow::openHermesHomeWithDialog);
    connect(m_startView, &StartView::recentRequested, this, &MainWindow::openRecent);
}

void MainWindow::showFolderState()
{
    const bool open = model()->isOpen();
    const bool roster = m_roster;
    m_stack->setCurrentWidget(open || roster ? static_cast<QWidget *>(m_body) : m_startView);
    m_sidebar->setVisible(roster);
    if (open) {
        showPage(currentEditor());
    } else if (roster) {
        const PersonaSession::Agent &agent = currentSession()->agent();
        m_missing->setText(
            tr("The workspace of agent \"%1\" is not there: %2\n\nOpenClaw creates it when the "
               "agent first runs. Create the folder, then choose the agent again.")
                .arg(agent.id, QDir::toNativeSeparators(agent.folder)));
        showPage(m_missing);
    }
    m_actions->setFolderOpen(open);
    // An agent without a workspace can still be closed.
    m_actions->closeFolder->setEnabled(open || roster);
    m_actions->setAgentCount(sessionCount());
    m_actions->setRecentSnapshots(freezer()->recent());
    // [*] is where Qt puts the modified mark while any pane has unsaved edits.
    const SlotLayout &layout = model()->layout();
    const QString name = roster && !currentSession()->agent().id.isEmpty()
                             ? currentSession()->agent().id
                         : layout.project.isEmpty()
                             ? QFileInfo(model()->directory()).fileName()
                             : tr("%1 in %2")
                                   .arg(QFileInfo(layout.directory).fileName(),
                                        QFileInfo(layout.project).fileName());
    setWindowTitle(open || roster ? tr("%1[*] — Soul Studio").arg(name) : tr("Soul Studio"));
    setWindowModified(std::any_of(m_open.begin(), m_open.end(), [](const Open &o) {
        return o.session->hasUnsaved();
    }));
    showEditState();
    showStatus();
}

void MainWindow::showPage(QWidget *page)
{
    // QStackedWidget turns updates off and on again for all of its pages at
    // every switch, each agent's hundreds of widgets (a sixth of the CPU
    // time of soulstudio-bench's agents_20). A page not shown keeps its
    // updates off, which Qt
    // then leaves alone, so a switch walks only the two pages it changes.
    // (Removing the current page makes the stack show another one itself.)
    page->setUpdatesEnabled(true);
    QWidget *before = m_editors->currentWidget();
    if (before == page)
        return;
    m_editors->setCurrentWidget(page);
    if (before)
        before->setUpdatesEnabled(false);
}

void MainWindow::showEditState()
{
    // A read-only pane (an offer of recovered text, undecodable bytes) keeps
    // its undo history but must not be changed through it.
    const int slot = currentEditor()->currentSlot();
    const QPlainTextEdit *editor = model()->isOpen() && slot >= 0 ? panes()->pane(slot)->editor()
                                                                  : nullptr;
    const bool editable = editor && !editor->isReadOnly() && editor->isEnabled();
    WindowActions::EditState state;
    state.canUndo = (editable && editor->document()->isUndoAvailable())
                    || currentEditor()->canUndoFinishSetup();
    state.canFinishSetup = model()->isOpen() && currentEditor()->canFinishSetup();
    state.canRedo = editable && editor->document()->isRedoAvailable();
    state.currentUnsaved = (editor && model()->slot(slot).dirty)
                           || (currentEditor()->setupPaneCurrent()
                               && documents()->setupFile()->dirty());
    // Recovered text waiting makes a pane read-only, the setup file's too.
    state.currentReadOnly = (editor && editor->isReadOnly())
                            || (currentEditor()->setupPaneCurrent()
                                && (documents()->setupFile()->hasRecovery()
                                    || !documents()->setupFile()->obstacles().isEmpty()));
    state.anyUnsaved = currentEditor()->session()->hasUnsaved();
    m_actions->setEditState(state);
}

void MainWindow::followShownRuntime(const RuntimeProfile &shown)
{
    const bool mapped = !shown.sectioned();
    // Left as the allocator has it until another runtime is first shown.
    if (mapped != largeBlocksMapped())
        mapLargeBlocks(mapped);
}

void MainWindow::showMessage(const QString &text, int ms)
{
    // Wrapped only when it does not fit: a wrapping label asks the bar for
    // the height of a narrow column, two lines for any sentence.
    const int room = statusBar()->width() - m_statusWatch->width() - m_statusRefresh->width()
                     - 4 * statusBar()->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing)
                     - 24;
    m_statusMessage->setWordWrap(m_statusMessage->fontMetrics().horizontalAdvance(text) > room);
    m_statusMessage->setText(text);
    m_statusMessage->show();
    m_statusDir->hide();
    m_messageTimer.start(ms);
}

void MainWindow::showStatus()
{
    const PersonaModel *shown = model();
    if (!shown->isOpen()) {
        m_statusDir->setText(m_roster ? QDir::toNativeSeparators(currentSession()->agent().folder)
                                      : tr("No folder open"));
        m_statusWatch->clear();
        m_statusRefresh->clear();
        return;
    }
    const SlotLayout &layout = shown->layout();
    m_statusDir->setText(layout.project.isEmpty()
                             ? QDir::toNativeSeparators(shown->directory())
                             : tr("%1, project %2")
                                   .arg(QDir::toNativeSeparators(layout.directory),
                                        QDir::toNativeSeparators(layout.project)));
    m_statusWatch->setText(shown->directoryLost() ? tr("folder missing")
                           : shown->isWatching()  ? tr("watching")
                                                  : tr("not watching"));
    m_statusRefresh->setText(
        tr("last refresh %1").arg(shown->lastRefresh().time().toString(QStringLiteral("HH:mm:ss"))));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!closeAll()) {
        event->ignore();
        return;
    }
    m_settings->setValue(GeometryKey, saveGeometry());
    m_settings->setValue(SplitterKey, currentEditor()->splitter()->saveState());
    m_settings->setValue(SidebarKey, m_body->saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()
        && QFileInfo(urls.first().toLocalFile()).isDir())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()) {
        event->acceptProposedAction();
        openFolder(urls.first().toLocalFile());
    }
}

} // namespace soul
