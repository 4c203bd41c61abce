#pragma once

#include "personasession.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

#include <vector>

class QSettings;

namespace soul {

class AgentListModel;
class GroupHistory;
class LinkSession;
class Prompter;
class Runtime;
struct RecentPlace;
enum class SoulView;

// What a window holds, without a widget: its persona sessions, the one
// shown, and the rows of a roster's sidebar (agents()). One folder opened
// is one session; a roster (OpenClaw's agents, a folder of personas) is a
// session per agent. It decides what opening a folder, a roster or a
// runtime's home does to the sessions held, and asks about unsaved text
// through the Prompter before any session is closed. There is always at
// least one session (empty while nothing is open).
//
// A roster's sessions exist as soon as it opens, but their folders are read
// one per turn of the event loop, the shown one first, so the window shows
// before every agent is read. session() reads a waiting folder at once, so
// a caller never sees one half opened; sessionOpening() comes just before.
class Workspace : public QObject
{
    Q_OBJECT

public:
    // `prompter` and `settings` must outlive the workspace, or be replaced
    // (setPrompter()) before they go.
    Workspace(Prompter *prompter, QSettings *settings, QObject *parent = nullptr);
    ~Workspace() override;

    void setPrompter(Prompter *prompter);

    int count() const { return int(m_sessions.size()); }
    // Session `index`, its folder read first when it still waits; null out of range.
    PersonaSession *session(int index);
    // Session `index` as it is (its folder may still wait); null out of range.
    PersonaSession *at(int index) const;
    int indexOf(const PersonaSession *session) const;
    int currentIndex() const { return m_current; }
    PersonaSession *current() const { return at(m_current); }
    // Chooses session `index` (read first when it waits; an agent whose
    // workspace was made since the roster was read is opened now) and emits
    // currentChanged(), also when it was current already.
    void setCurrentIndex(int index);
    // The workspace holds a roster, shown as a list of agents.
    bool isRoster() const { return m_roster; }
    // Session `index`'s folder is still to be read.
    bool isWaiting(int index) const;
    // Reads every waiting folder now.
    void openWaiting();
    // A session's unsaved text, in any of them.
    bool hasUnsaved() const;
    // What a title calls the current session: the agent in a roster, else
    // the folder ("ava"), or the home in its project ("hermes in shop");
    // empty while nothing is open and no roster is held.
    QString currentTitle() const;
    // Where the current session is, for a status line: its folder, a home
    // with its project, a missing agent's folder, or that none is open.
    QString currentPlace() const;
    // Why the current agent shows no panes: its workspace folder is missing.
    QString missingNote() const;
    // One row per session, in order; their text is made while a roster is held.
    AgentListModel *agents() const { return m_agents; }
    // The link groups of the roster held (none while no roster is).
    LinkSession *links() const { return m_links; }
    // The history of a linked file across the members' repositories.
    GroupHistory *groupHistory() const { return m_groupHistory; }

    // Opens `dir` in the one session, or, while a roster is held, shows the
    // agent of that folder or adds it as another one. False when it was not
    // opened (cancelled, or said why).
    bool openFolder(const QString &dir);
    // A folder asked for through the Prompter, from the one open or the
    // last one opened.
    bool askAndOpenFolder();
    // A folder of personas asked for, from beside the one open.
    bool askAndOpenPersonaFolder();
    // The place `place` (a folder, or a runtime's home with its project).
    bool openRecent(const RecentPlace &place);
    // The last place opened, when it is still there; false otherwise.
    bool openLast();
    // The home `home` of the runtime that reads one (null: the registry's
    // homeRuntime()), run in the project folder `project`: the panes are the
    // files the runtime reads (Runtime::homeLayout()), and its runtime is
    // chosen. A roster is closed first (asking once about unsaved text).
    // False when cancelled, or when a folder cannot be read (said in a
    // sentence naming it). The project is remembered (lastHomeProject()).
    bool openHome(const QString &home,
                  const QString &project,
                  const QString &projectFile = QString(),
                  const Runtime *runtime = nullptr);
    // The home of the runtime that reads one (the registry's homeRuntime()),
    // with a project asked for through the Prompter. False when that home is
    // not a folder (said in a sentence naming it) or when cancelled.
    bool askAndOpenHome();
    // The project a home is offered first with: the last one opened while it
    // exists, else the current directory.
    QString lastHomeProject() const;
    // One session per agent of OpenClaw's roster read from `configFile`, or
    // from the config OpenClaw would read. Asks once about unsaved text first.
    // False when cancelled, or when the config cannot be read.
    bool openOpenClawAgents(const QString &configFile = QString());
    // One session per persona under `parent` (each subfolder with slot files).
    bool openPersonaFolder(const QString &parent);
    // A new persona (asked for through the Prompter): in the one session, or
    // as another agent of a roster.
    bool newPersona();

    // Closes session `index` (asking about its unsaved text): a roster drops
    // that agent; the last one leaves the workspace empty. False when cancelled.
    bool closeAt(int index);
    // Asks once about every session's unsaved text, then closes every
    // folder (the sessions stay). False when cancelled or a save failed;
    // nothing is closed then.
    bool closeAll();

    // Compares the current persona's soul, as `view` says, with session
    // `other`'s: emits compareRequested() with the snapshot written for it.
    void compareWithAgent(int other, SoulView view);
    // The current session's slot `slot` into the buffers of `targets`, as an
    // unsaved edit in each; nothing is written. Says what was done.
    void copySlotToAgents(int slot, const QList<int> &targets);

Q_SIGNALS:
    // Session `index` was added (its signals may be followed now).
    void sessionAdded(int index);
    // Session `session`, which was at `index`, left the list; it is deleted
    // once control returns to the event loop.
    void sessionRemoved(int index, soul::PersonaSession *session);
    // Session `index`'s folder is read next (a view made before the folder
    // opens takes its text as it is read).
    void sessionOpening(int index);
    void currentChanged(int index);
    // The workspace began or stopped holding a roster.
    void rosterChanged(bool roster);
    // A sentence for the status bar, for `ms` milliseconds.
    void message(const QString &text, int ms);
    // Another agent's soul was written to `soulPath` to compare with.
    void compareRequested(const QString &soulPath);

private:
    int addSession();
    void removeSession(int index);
    // Replaces the sessions with one per `agents` entry.
    void openRoster(const QList<PersonaSession::Agent> &agents, const QString &source);
    // Back to one empty session that is no agent.
    void leaveRoster();
    bool openSession(PersonaSession *session);
    void openNextWaiting();
    void reportFailed();
    void scheduleSummary(PersonaSession *session);
    void scheduleAllSummaries();
    void showSummaries();
    // "work: SOUL.md saved" while several sessions are held.
    QString whose(const PersonaSession *session, const QString &text) const;

    Prompter *m_prompter = nullptr;
    QSettings *m_settings = nullptr;
    std::vector<PersonaSession *> m_sessions;
    int m_current = 0;
    bool m_roster = false;
    AgentListModel *m_agents = nullptr;
    LinkSession *m_links = nullptr;
    GroupHistory *m_groupHistory = nullptr;
    QList<PersonaSession *> m_waiting;  // folders still to read, in turn
    QSet<PersonaSession *> m_announced; // waiting ones whose sessionOpening() came
    QStringList m_failed;               // agents whose folder could not be read
    QTimer m_openTimer;
    QTimer m_summaryTimer;
    QSet<PersonaSession *> m_summaryPending;
};

} // namespace soul
