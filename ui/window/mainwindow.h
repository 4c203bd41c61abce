#pragma once

#include "personasession.h"

#include <QMainWindow>
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
class GroupHistoryController;
class HistoryController;
class PaneStack;
class PersonaEditor;
class PersonaModel;
class PreviewPanel;
class RoomHost;
class Prompter;
struct RecentPlace;
class LinkPanes;
class SameSlotNotes;
class SoulTokenCounter;
class StartView;
class WindowActions;
class Workspace;

// The window: menus, the start view, the agents sidebar and an editor stack
// that shows the Workspace's persona sessions, one at a time, each in its
// PersonaEditor (as a text editor keeps its documents). What opening or
// closing does to the sessions is the Workspace's (session/); the window
// wires its signals to what it shows.
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
    Workspace *workspace() const { return m_workspace; }
    int sessionCount() const;
    // Session `index`, its folder read first when it still waits its turn.
    PersonaSession *session(int index) const;
    // Session `index`'s editor, made when first asked for.
    PersonaEditor *editor(int index) const;
    int currentIndex() const;
    PersonaSession *currentSession() const { return session(currentIndex()); }
    PersonaEditor *currentEditor() const { return editor(currentIndex()); }
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
    // The History dock's page of a linked file across members.
    GroupHistoryController *groupHistory() const { return m_groupHistory; }
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
    void buildUi();
    void wireWorkspace();
    void wireActions();
    // The History dock, its actions and the budget its timeline draws.
    void wireHistory();
    void wireRooms();
    // Follows the signals of the workspace's session `index`, just added.
    void followSession(int index);
    // Session `index`'s editor, made and wired on first use.
    PersonaEditor *ensureEditor(int index);
    // Shows the workspace's current session, `index`: its panes keep their
    // text, undo, scroll and cursor.
    void showCurrent(int index);
    QStringList agentNames() const;
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
    Workspace *m_workspace = nullptr;
    // The workspace's sessions' editors, in its order; null until first used.
    std::vector<PersonaEditor *> m_editorOf;
    PersonaEditor *m_shown = nullptr;
    FreedMemory *m_freedMemory = nullptr;
    HistoryController *m_history = nullptr;
    GroupHistoryController *m_groupHistory = nullptr;
    CompareDialog *m_compare = nullptr;
    RoomHost *m_rooms = nullptr;
    WindowActions *m_actions = nullptr;
    QStackedWidget *m_stack = nullptr;
    StartView *m_startView = nullptr;
    QSplitter *m_body = nullptr;
    AgentsSidebar *m_sidebar = nullptr;
    SameSlotNotes *m_sameNotes = nullptr; // "Same as in work, coach" in the panes
    LinkPanes *m_linkPanes = nullptr;     // the link groups' bars in the panes
    QStackedWidget *m_editors = nullptr;
    QLabel *m_missing = nullptr; // stands in for an agent without a workspace
    QLabel *m_statusDir = nullptr;
    QLabel *m_statusWatch = nullptr;
    QLabel *m_statusRefresh = nullptr;
    QLabel *m_statusMessage = nullptr;
    QTimer m_messageTimer;
    QByteArray m_splitterState;
};

} // namespace soul
