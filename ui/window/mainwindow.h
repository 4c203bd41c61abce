#pragma once

#include "personasession.h"

#include <QMainWindow>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

class QLabel;
class QSettings;
class QSplitter;
class QStackedWidget;

namespace soul {

class AgentsSidebar;
class CompareDialog;
class DocumentController;
class ExportController;
class FreezeController;
class FreedMemory;
class HistoryController;
class PaneStack;
class PersonaEditor;
class PersonaModel;
class PreviewPanel;
class RoomHost;
class Prompter;
struct RecentPlace;
class SameSlotNotes;
class SoulTokenCounter;
class StartView;
class WindowActions;

// The window: menus, the start view, the agents sidebar and the list of
// persona sessions it holds, one shown at a time in its PersonaEditor (as a
// text editor keeps its documents). One folder opened is one session; a
// roster (OpenClaw's agents, a folder of personas) is a session per agent.
// The decisions live in the sessions (session/), the editors and the actions.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    struct Options
    {
        // Where the recent list lives; empty for the user's settings.
        QString settingsFile;
    };

    explicit MainWindow(const Options &options, QWidget *parent = nullptr);
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Replaces the dialogs (tests answer through a double).
    void setPrompter(std::unique_ptr<Prompter> prompter);

    // Opens `dir`, or without one the place open last (a folder, or Hermes's
    // home with its project), else the start view.
    void start(const QString &dir);
    // Previews what the runtime `id` injects, with its last settings, and
    // remembers the choice for the open folder. False for an unknown id.
    bool chooseRuntime(const QString &id);

    // One session per agent of OpenClaw's roster, read from `configFile`, or
    // from the config OpenClaw would read. Asks once about unsaved text
    // first. False when cancelled, or when the config cannot be read (said
    // in a sentence naming the file).
    bool openOpenClawAgents(const QString &configFile = {});
    // One session per persona under `parent` (each subfolder with slot files).
    bool openPersonaFolder(const QString &parent);
    // Hermes's home `home` run in the project folder `project`: the panes are
    // the files Hermes reads, at their paths (hermesHomeLayout), and the
    // preview is Hermes's. Asks once about unsaved text first (a roster is
    // closed). False when cancelled, or when a folder cannot be read (said
    // in a sentence naming it). The project is remembered for next time.
    // `projectFile`: the project pane's file, by its label, while it is one
    // of the files of Hermes's project-context block (else the first).
    bool openHermesHome(const QString &home,
                        const QString &project,
                        const QString &projectFile = QString());
    // The project Open Hermes Home offers first: the last one opened while
    // it exists, else the current directory.
    QString lastHermesProject() const;

    // The sessions the window holds, and the one shown.
    int sessionCount() const { return int(m_open.size()); }
    PersonaSession *session(int index) const;
    PersonaEditor *editor(int index) const;
    int currentIndex() const { return m_current; }
    PersonaSession *currentSession() const { return session(m_current); }
    PersonaEditor *currentEditor() const { return editor(m_current); }
    // Shows session `index`: its panes keep their text, undo, scroll and cursor.
    void setCurrentIndex(int index);
    AgentsSidebar *sidebar() const { return m_sidebar; }

    // Compares the current persona's soul with session `other`'s, as the
    // preview's switch says (unsaved edits, or what is on disk).
    void compareWithAgent(int other);
    // The current pane's file into the panes of `targets`, as an unsaved,
    // undoable edit in each; nothing is written.
    void copySlotToAgents(int slot, const QList<int> &targets);

    // The current session's parts.
    PersonaModel *model() const;
    DocumentController *documents() const;
    ExportController *exporter() const;
    FreezeController *freezer() const;
    HistoryController *history() const { return m_history; }
    // The compare dialog, once a comparison was asked for.
    CompareDialog *compareDialog() const { return m_compare; }
    // Opens the compare dialog on the snapshot at `soulPath`.
    void compareWith(const QString &soulPath);
    // Shows `line` (1-based) of slot `slot`'s pane, focused, the cursor on it.
    void goToLine(int slot, qint64 line, qint64 column = 0);
    PaneStack *panes() const;
    PreviewPanel *previewPanel() const;
    SoulTokenCounter *tokenCounter() const;
    // The status bar's message line; it wraps, so a long sentence is whole.
    QLabel *statusMessage() const { return m_statusMessage; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    struct Open
    {
        PersonaSession *session = nullptr;
        PersonaEditor *editor = nullptr;
    };

    void buildUi();
    void wireActions();
    // The History dock, its actions and the budget its timeline draws.
    void wireHistory();
    void wireRooms();
    // A new session and its editor, wired to the window, at the end of the list.
    int addSession();
    void removeSession(int index);
    // Opens `dir` in this window: in the one session, or as another one.
    void openFolder(const QString &dir);
    // A folder or Hermes's home with its project, from the recent list.
    void openRecent(const RecentPlace &place);
    void openWithDialog();
    // Hermes's home ($HERMES_HOME, else ~/.hermes) with a project asked for.
    void openHermesHomeWithDialog();
    void newPersona();
    // Closes the current folder (Ctrl+W): a roster drops that agent.
    void closeCurrent();
    // Asks once about every session's unsaved text, then closes them all.
    // False when cancelled or a save failed; nothing is closed then.
    bool closeAll();
    // Replaces the sessions with one per `agents` entry, opened.
    void openRoster(const QList<PersonaSession::Agent> &agents, const QString &source);
    void scheduleSummary(PersonaSession *session);
    void showSummaries();
    void showFolderState();
    void showStatus();
    // Shows `page` of the editors' stack (an editor, or the missing-workspace note).
    void showPage(QWidget *page);
    // The actions that depend on the pane last focused.
    void showEditState();
    // A sentence in the status bar for `ms` milliseconds.
    void showMessage(const QString &text, int ms);
    // Large blocks get mappings of their own while the persona shown has
    // another runtime's text rebuilt at each keystroke (mapLargeBlocks()).
    void followShownRuntime(const RuntimeProfile &shown);

    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<Prompter> m_prompter;
    std::vector<Open> m_open;
    int m_current = 0;
    FreedMemory *m_freedMemory = nullptr;
    HistoryController *m_history = nullptr;
    CompareDialog *m_compare = nullptr;
    RoomHost *m_rooms = nullptr;
    WindowActions *m_actions = nullptr;
    QStackedWidget *m_stack = nullptr;
    StartView *m_startView = nullptr;
    QSplitter *m_body = nullptr;
    AgentsSidebar *m_sidebar = nullptr;
    SameSlotNotes *m_sameNotes = nullptr; // "Same as in work, coach" in the panes
    QStackedWidget *m_editors = nullptr;
    QLabel *m_missing = nullptr; // stands in for an agent without a workspace
    QLabel *m_statusDir = nullptr;
    QLabel *m_statusWatch = nullptr;
    QLabel *m_statusRefresh = nullptr;
    QLabel *m_statusMessage = nullptr;
    QTimer m_messageTimer;
    QTimer m_summaryTimer;
    QSet<PersonaSession *> m_summaryPending;
    QByteArray m_splitterState;
    bool m_roster = false; // the window holds a roster, shown in the sidebar
};

} // namespace soul
