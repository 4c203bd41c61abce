#include "workspace.h"

#include "history/grouphistory.h"
#include "linksession.h"

#include "agentlistmodel.h"
#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "agents/personafolders.h"
#include "comparecontroller.h"
#include "disk/composedirectory.h"
#include "documentcontroller.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "prompter.h"
#include "recentplace.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"
#include "runtimepreview.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>

#include <algorithm>

namespace soul {

namespace {

const QString HomeProjectKey = QStringLiteral("home/lastProject");
// Where the last project was kept before homes were runtime-neutral.
const QString OldHomeProjectKey = QStringLiteral("hermes/lastProject");

// Rows are made while typing pauses; one turn of the event loop makes rows
// for this long at most, then lets the window run.
constexpr int SummaryPauseMs = 250;
constexpr qint64 SummaryTurnMs = 20;

} // namespace

Workspace::Workspace(Prompter *prompter, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_prompter(prompter)
    , m_settings(settings)
    , m_agents(new AgentListModel(this))
    , m_links(new LinkSession(this, prompter, this))
    , m_groupHistory(new GroupHistory(this, prompter, this))
{
    connect(m_links, &LinkSession::changed, this, &Workspace::scheduleAllSummaries);
    // The agent shown next holds every edit of its group.
    connect(this, &Workspace::currentChanged, m_links, &LinkSession::flush);
    connect(m_links, &LinkSession::message, this, &Workspace::message);
    m_openTimer.setSingleShot(true);
    m_openTimer.setInterval(0);
    connect(&m_openTimer, &QTimer::timeout, this, &Workspace::openNextWaiting);
    m_summaryTimer.setSingleShot(true);
    connect(&m_summaryTimer, &QTimer::timeout, this, &Workspace::showSummaries);
    addSession();
}

Workspace::~Workspace() = default;

void Workspace::setPrompter(Prompter *prompter)
{
    m_prompter = prompter;
    m_links->setPrompter(prompter);
    m_groupHistory->setPrompter(prompter);
    for (PersonaSession *s : m_sessions)
        s->setPrompter(prompter);
}

PersonaSession *Workspace::at(int index) const
{
    return index >= 0 && index < count() ? m_sessions.at(size_t(index)) : nullptr;
}

PersonaSession *Workspace::session(int index)
{
    PersonaSession *s = at(index);
    if (s && m_waiting.contains(s)) {
        m_waiting.removeOne(s);
        openSession(s);
        if (m_waiting.isEmpty())
            reportFailed();
    }
    return s;
}

int Workspace::indexOf(const PersonaSession *session) const
{
    const auto found = std::find(m_sessions.begin(), m_sessions.end(), session);
    return found == m_sessions.end() ? -1 : int(found - m_sessions.begin());
}

bool Workspace::isWaiting(int index) const
{
    const PersonaSession *s = at(index);
    return s && m_waiting.contains(s);
}

void Workspace::openWaiting()
{
    while (!m_waiting.isEmpty())
        session(indexOf(m_waiting.first()));
}

bool Workspace::hasUnsaved() const
{
    return std::any_of(m_sessions.begin(), m_sessions.end(), [](const PersonaSession *s) {
        return s->hasUnsaved();
    });
}

QString Workspace::currentTitle() const
{
    const PersonaSession *s = current();
    if (m_roster && !s->agent().id.isEmpty())
        return s->agent().id;
    if (!s->model()->isOpen())
        return m_roster ? s->displayName() : QString();
    const SlotLayout &layout = s->model()->layout();
    if (layout.project.isEmpty())
        return QFileInfo(s->model()->directory()).fileName();
    return tr("%1 in %2")
        .arg(QFileInfo(layout.directory).fileName(), QFileInfo(layout.project).fileName());
}

QString Workspace::currentPlace() const
{
    const PersonaSession *s = current();
    if (!s->model()->isOpen())
        return m_roster ? QDir::toNativeSeparators(s->agent().folder) : tr("No folder open");
    const SlotLayout &layout = s->model()->layout();
    if (layout.project.isEmpty())
        return QDir::toNativeSeparators(s->model()->directory());
    return tr("%1, project %2")
        .arg(QDir::toNativeSeparators(layout.directory), QDir::toNativeSeparators(layout.project));
}

QString Workspace::missingNote() const
{
    const PersonaSession::Agent &agent = current()->agent();
    return tr("The workspace of agent \"%1\" is not there: %2\n\nOpenClaw creates it when the "
              "agent first runs. Create the folder, then choose the agent again.")
        .arg(agent.id, QDir::toNativeSeparators(agent.folder));
}

int Workspace::addSession()
{
    auto *s = new PersonaSession(m_prompter, m_settings, this);
    m_sessions.push_back(s);
    const int index = count() - 1;
    // The sidebar follows what changes an agent's row.
    connect(s, &PersonaSession::summaryChanged, this, [this, s] { scheduleSummary(s); });
    connect(s->model(), &PersonaModel::slotStateChanged, this, [this, s] { scheduleSummary(s); });
    connect(s->tokens(), &SoulTokenCounter::countsChanged, this, [this, s] { scheduleSummary(s); });
    connect(s, &PersonaSession::statusMessage, this, [this, s](const QString &text) {
        Q_EMIT message(whose(s, text), 5000);
    });
    const auto recoveryFailed = [this, s](const QString &error) {
        Q_EMIT message(whose(s, error), 15000);
    };
    connect(s->model(), &PersonaModel::recoveryFailed, this, recoveryFailed);
    // Saving a linked file is its group's save.
    s->documents()->setGroupSave([this, s](int doc) { return m_links->savesGroup(indexOf(s), doc); },
                                 [this, s](int doc) { return m_links->save(indexOf(s), doc); });
    m_links->follow(s);
    m_agents->insertRow(index, AgentListModel::Row{s->agent().id, {}, {}, true, false, {}});
    Q_EMIT sessionAdded(index);
    return index;
}

void Workspace::removeSession(int index)
{
    if (index < 0 || index >= count() || count() == 1)
        return;
    PersonaSession *gone = m_sessions.at(size_t(index));
    m_sessions.erase(m_sessions.begin() + index);
    m_waiting.removeOne(gone);
    m_announced.remove(gone);
    m_summaryPending.remove(gone);
    m_agents->removeRowAt(index);
    if (m_current >= count())
        m_current = count() - 1;
    else if (m_current > index)
        --m_current;
    Q_EMIT sessionRemoved(index, gone);
    for (QObject *sender : std::initializer_list<QObject *>{gone, gone->model(), gone->tokens()})
        sender->disconnect(this);
    gone->deleteLater();
}

QString Workspace::whose(const PersonaSession *session, const QString &text) const
{
    // Another agent's sentence says whose it is.
    return session == current() || count() == 1 ? text
                                                : tr("%1: %2").arg(session->agent().id, text);
}

void Workspace::setCurrentIndex(int index)
{
    if (!at(index))
        return;
    // Current before its folder is read: a window shows the editor before
    // its panes take the text.
    m_current = index;
    PersonaSession *chosen = session(index);
    // An agent whose workspace was created since the roster was read opens now.
    if (m_roster && !chosen->model()->isOpen() && QFileInfo(chosen->agent().folder).isDir()) {
        Q_EMIT sessionOpening(index);
        if (const Status opened = chosen->model()->open(chosen->agent().folder); !opened)
            Q_EMIT message(opened.error(), 15000);
        scheduleSummary(chosen);
    }
    Q_EMIT currentChanged(index);
}

bool Workspace::openFolder(const QString &dir)
{
    if (dir.isEmpty())
        return false;
    if (count() == 1 && !m_roster)
        return current()->documents()->open(dir);
    // A roster is open: the folder joins it, or is shown when it is there.
    const QString absolute = QFileInfo(dir).absoluteFilePath();
    for (int i = 0; i < count(); ++i) {
        const PersonaModel *m = at(i)->model();
        if ((m->isOpen() && m->directory() == absolute)
            || QFileInfo(at(i)->agent().folder).absoluteFilePath() == absolute) {
            setCurrentIndex(i); // opens an agent's workspace made since
            return true;
        }
    }
    const int added = addSession();
    PersonaSession::Agent agent;
    agent.id = QFileInfo(absolute).fileName();
    agent.folder = absolute;
    at(added)->setAgent(agent);
    Q_EMIT sessionOpening(added);
    if (!at(added)->documents()->open(absolute)) {
        removeSession(added);
        return false;
    }
    setCurrentIndex(added);
    return true;
}

bool Workspace::askAndOpenFolder()
{
    const PersonaModel *model = current()->model();
    const QString start = model->isOpen() ? model->directory()
                                          : current()->documents()->lastDirectory();
    return openFolder(m_prompter->askOpenDirectory(start.isEmpty() ? QDir::homePath() : start));
}

bool Workspace::askAndOpenPersonaFolder()
{
    const PersonaModel *model = current()->model();
    const QString start = model->isOpen() ? QFileInfo(model->directory()).absolutePath()
                                          : QDir::homePath();
    const QString parent = m_prompter->askOpenDirectory(start);
    return !parent.isEmpty() && openPersonaFolder(parent);
}

bool Workspace::openRecent(const RecentPlace &place)
{
    if (!place.isHome())
        return openFolder(place.directory);
    const Runtime *runtime = place.runtime.isEmpty()
                                 ? nullptr
                                 : RuntimeRegistry::instance().find(place.runtime);
    return openHome(place.directory, place.project, place.projectFile, runtime);
}

bool Workspace::openLast()
{
    // What is gone since is not asked about: nothing opens instead.
    const RecentPlace last = current()->documents()->lastPlace();
    if (last.isEmpty() || !QFileInfo(last.directory).isDir()
        || (last.isHome() && !QFileInfo(last.project).isDir()))
        return false;
    return openRecent(last);
}

QString Workspace::lastHomeProject() const
{
    const QString last
        = m_settings->value(HomeProjectKey, m_settings->value(OldHomeProjectKey)).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::currentPath();
}

bool Workspace::openHome(const QString &home,
                         const QString &project,
                         const QString &projectFile,
                         const Runtime *runtime)
{
    if (!runtime)
        runtime = RuntimeRegistry::instance().homeRuntime();
    const Result<SlotLayout> layout = runtime ? runtime->homeLayout(home, project, projectFile)
                                              : Result<SlotLayout>::failure(
                                                  tr("No runtime reads a home of its own."));
    if (!layout) {
        m_prompter->showError(tr("Cannot open the home folder"), layout.error());
        return false;
    }
    if (m_roster || count() > 1) {
        // The home is one persona: the roster goes, as when its last agent closes.
        if (!closeAll())
            return false;
        leaveRoster();
    }
    if (!current()->documents()->openLayout(layout.value()))
        return false;
    m_settings->setValue(HomeProjectKey, layout.value().project);
    current()->runtimePreview()->chooseRuntime(runtime->id());
    Q_EMIT currentChanged(m_current);
    return true;
}

bool Workspace::askAndOpenHome()
{
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    const QString home = runtime ? runtime->homeDirectory() : QString();
    if (!runtime || !QFileInfo(home).isDir()) {
        m_prompter->showError(tr("Cannot open the home folder"),
                              tr("%1 is not a folder. Hermes keeps its home in $HERMES_HOME, "
                                 "else in ~/.hermes, and makes it when it first runs. Run Hermes "
                                 "once, set HERMES_HOME, or start soulstudio with --hermes-home.")
                                  .arg(QDir::toNativeSeparators(home)));
        return false;
    }
    const QString project = m_prompter->askHermesProject(home, lastHomeProject());
    return !project.isEmpty() && openHome(home, project, QString(), runtime);
}

bool Workspace::newPersona()
{
    if (count() == 1 && !m_roster)
        return current()->documents()->newPersona();
    const int added = addSession();
    if (!at(added)->documents()->newPersona()) {
        removeSession(added);
        return false;
    }
    PersonaSession::Agent agent;
    agent.id = at(added)->displayName();
    agent.folder = at(added)->directory();
    at(added)->setAgent(agent);
    setCurrentIndex(added);
    return true;
}

bool Workspace::closeAt(int index)
{
    m_links->flush();
    PersonaSession *s = session(index);
    if (!s || !s->documents()->close())
        return false;
    if (count() > 1) {
        removeSession(index);
        // The session shown is chosen again (another one when it was this).
        setCurrentIndex(m_current);
        scheduleAllSummaries();
        return true;
    }
    // The last of a roster closed: the workspace is empty again, and the
    // next folder opened is no agent.
    leaveRoster();
    Q_EMIT currentChanged(m_current);
    return true;
}

void Workspace::leaveRoster()
{
    m_waiting.clear();
    m_announced.clear();
    m_failed.clear();
    while (count() > 1)
        removeSession(count() - 1);
    current()->setAgent({});
    m_agents->setSource(QString());
    m_links->setPlace(std::nullopt);
    if (m_roster) {
        m_roster = false;
        Q_EMIT rosterChanged(false);
    }
}

bool Workspace::closeAll()
{
    m_links->flush();
    QStringList names;
    for (const PersonaSession *s : m_sessions) {
        if (!s->hasUnsaved())
            continue;
        for (const QString &name : s->documents()->unsavedFiles())
            names.append(count() == 1 ? name : tr("%1: %2").arg(s->agent().id, name));
    }
    if (!names.isEmpty()) {
        switch (m_prompter->askUnsaved(names)) {
        case Prompter::UnsavedAnswer::Cancel:
            return false;
        case Prompter::UnsavedAnswer::SaveAll:
            for (PersonaSession *s : m_sessions) {
                if (s->hasUnsaved() && !s->documents()->saveAll())
                    return false;
            }
            break;
        case Prompter::UnsavedAnswer::Discard:
            break;
        }
    }
    // Folders not read yet need no closing.
    m_waiting.clear();
    m_announced.clear();
    m_failed.clear();
    for (PersonaSession *s : m_sessions) {
        if (s->model()->isOpen())
            s->model()->close();
    }
    return true;
}

bool Workspace::openOpenClawAgents(const QString &configFile)
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
    m_links->setPlace(openClawPlace(roster.value()));
    return true;
}

bool Workspace::openPersonaFolder(const QString &parent)
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
    if (const Result<LinkPlace> place = personaFoldersPlace(parent))
        m_links->setPlace(*place);
    else
        m_links->setPlace(std::nullopt);
    return true;
}

void Workspace::openRoster(const QList<PersonaSession::Agent> &agents, const QString &source)
{
    // Every session closed: the first one stays and takes the first agent.
    m_waiting.clear();
    m_announced.clear();
    m_failed.clear();
    while (count() > 1)
        removeSession(count() - 1);
    m_agents->setSource(source);
    const bool wasRoster = m_roster;
    m_roster = true;
    for (qsizetype i = 0; i < agents.size(); ++i) {
        const int index = i == 0 ? 0 : addSession();
        PersonaSession *s = at(index);
        s->setAgent(agents.at(i));
        const QString &folder = agents.at(i).folder;
        if (!QFileInfo(folder).isDir())
            continue; // no workspace: the window says so in its place
        // Read in turn, but a folder that cannot be read is said now.
        if (const QString problem = checkDirectory(folder); !problem.isEmpty())
            m_failed.append(tr("%1: %2").arg(agents.at(i).id, problem));
        else
            m_waiting.append(s);
    }
    if (!wasRoster)
        Q_EMIT rosterChanged(true);
    // The default agent first on screen, else the first; the others' folders
    // are read one per turn of the event loop.
    int shown = 0;
    for (qsizetype i = 0; i < agents.size(); ++i) {
        if (agents.at(i).isDefault)
            shown = int(i);
    }
    std::vector<AgentListModel::Row> rows;
    for (int i = 0; i < count(); ++i)
        rows.push_back(AgentListModel::describe(*at(i), isWaiting(i)));
    m_agents->setRows(std::move(rows));
    setCurrentIndex(shown);
    scheduleAllSummaries();
    if (!m_waiting.isEmpty())
        m_openTimer.start();
    reportFailed();
    Q_EMIT message(tr("Opened %n personas", nullptr, int(agents.size())), 5000);
}

bool Workspace::openSession(PersonaSession *s)
{
    if (!m_announced.remove(s))
        Q_EMIT sessionOpening(indexOf(s));
    const Status opened = s->model()->open(s->agent().folder);
    if (!opened)
        m_failed.append(tr("%1: %2").arg(s->agent().id, opened.error()));
    scheduleSummary(s);
    return bool(opened);
}

void Workspace::openNextWaiting()
{
    if (m_waiting.isEmpty())
        return;
    // Two turns per folder: what sessionOpening() makes (an editor), then
    // the reading, so that neither waits for the other.
    PersonaSession *next = m_waiting.first();
    if (!m_announced.contains(next)) {
        m_announced.insert(next);
        Q_EMIT sessionOpening(indexOf(next));
    } else {
        session(indexOf(next));
    }
    if (!m_waiting.isEmpty())
        m_openTimer.start();
}

void Workspace::reportFailed()
{
    if (m_failed.isEmpty())
        return;
    const QString failed = m_failed.join(QLatin1Char('\n'));
    m_failed.clear();
    m_prompter->showError(tr("Some agents could not be opened"), failed);
}

void Workspace::scheduleSummary(PersonaSession *session)
{
    // Only a roster has rows, and a row costs a lint and an OpenClaw compose
    // of the persona: made once typing pauses.
    if (!m_roster)
        return;
    m_summaryPending.insert(session);
    m_summaryTimer.start(SummaryPauseMs);
}

void Workspace::scheduleAllSummaries()
{
    for (PersonaSession *s : m_sessions)
        scheduleSummary(s);
}

void Workspace::showSummaries()
{
    if (!m_roster) {
        m_summaryPending.clear(); // the roster closed while its rows waited
        return;
    }
    QElapsedTimer turn;
    turn.start();
    for (int i = 0; i < count() && !m_summaryPending.isEmpty(); ++i) {
        PersonaSession *s = at(i);
        if (!m_summaryPending.contains(s))
            continue;
        if (turn.elapsed() >= SummaryTurnMs) {
            // The rest in the next turn: the window runs in between.
            m_summaryTimer.start(0);
            return;
        }
        m_summaryPending.remove(s);
        AgentListModel::Row row = AgentListModel::describe(*s, isWaiting(i));
        row.links = m_links->rosterNote(i);
        m_agents->setRow(i, row);
    }
    m_summaryPending.clear();
}

void Workspace::compareWithAgent(int other, SoulView view)
{
    m_links->flush();
    PersonaSession *theirs = session(other);
    if (!theirs || other == m_current || !current()->model()->isOpen())
        return;
    if (!theirs->model()->isOpen()) {
        Q_EMIT message(tr("%1 has no workspace folder to compare with.").arg(theirs->agent().id),
                       8000);
        return;
    }
    // The other agent's soul as the view says, frozen into a snapshot the
    // compare dialog reads like any other.
    const Result<QString> soulPath = current()->compare()->writeAgentSnapshot(*theirs, view);
    if (!soulPath) {
        m_prompter->showError(tr("Could not compare"), soulPath.error());
        return;
    }
    Q_EMIT compareRequested(soulPath.value());
}

void Workspace::copySlotToAgents(int slot, const QList<int> &targets)
{
    m_links->flush();
    const PersonaModel *model = current()->model();
    if (slot < 0 || slot >= SlotCount || !model->isOpen())
        return;
    const SlotState &source = model->slot(slot);
    if (!source.bufferPresent) {
        Q_EMIT message(tr("%1 has no text here to copy.").arg(slotName(slot)), 8000);
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
        Q_EMIT message(tr("Copied %1 to %2, unsaved: save each agent to write it (Ctrl+Z undoes "
                          "it there).")
                           .arg(slotName(slot), copied.join(QStringLiteral(", "))),
                       8000);
}

} // namespace soul
