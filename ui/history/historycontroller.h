#pragma once

#include "history/historyjobs.h"
#include "history/historypanel.h"

#include <QDockWidget>
#include <QObject>
#include <QPointer>

class QAction;
class QMainWindow;
class QTabWidget;
class QSettings;

namespace soul {

class HistoryListModel;
class HistoryLoader;
class HistorySession;
class PersonaSession;
class RepositoryWatcher;

// The window's side of the persona's git history: the History dock and its
// panel, the actions (show it, Checkpoint, checkpoint after each save) and
// the budget its timeline draws. It shows the HistorySession of the persona
// the window shows (session/history/, which decides, reads and commits) and
// passes on what the user chose; it keeps no history of its own.
class HistoryController : public QObject
{
    Q_OBJECT

public:
    // `session` and `settings` must outlive the controller, or the session
    // be replaced (setSession()) before it goes.
    HistoryController(PersonaSession *session, QSettings *settings, QObject *parent = nullptr);
    ~HistoryController() override;

    // Follows another persona (the window's current session): its history,
    // its checkpoints, its panes' notes.
    void setSession(PersonaSession *session);
    HistorySession *session() const;

    // Puts the panel in a dock of `window` (hidden unless it was shown last
    // time) and wires the actions: `toggle` shows it, `checkpoint` makes a
    // checkpoint, `onSave` (checkable, remembered) checkpoints after saves.
    void attach(QMainWindow *window, QAction *toggle, QAction *checkpoint, QAction *onSave);

    HistoryPanel *panel() const { return m_panel; }
    // Adds `page` as a tab of the History dock after the persona's panel
    // (after attach()); the dock owns it.
    void addPage(QWidget *page, const QString &title);
    // Shows the History dock with `page` (a tab of it) in front.
    void showPage(QWidget *page);
    QTabWidget *tabs() const { return m_tabs; }
    // Shows the History dock (as its action does) and puts the keyboard
    // focus in the commit list.
    void focusCommits();
    // The session's list, loader and watcher (see HistorySession).
    HistoryListModel *rows() const;
    HistoryLoader *loader() const;
    RepositoryWatcher *repositoryWatcher() const;
    QDockWidget *dock() const { return m_dock; }

    // The context budget the timeline draws, in tokens.
    void setBudget(qint64 tokens);
    // The runtime a selected commit's soul is composed for (the preview's
    // choice).
    void setRuntimeProfile(const RuntimeProfile &profile);
    // Reads the history again (when the panel is shown).
    void refresh();

    // As HistorySession's, for the persona shown.
    bool checkpoint();
    bool checkpointQuietly();
    bool checkpointOnSave() const;
    void setCheckpointOnSave(bool on);
    bool createRepository();
    bool restoreFile(int row, int slot);
    bool restoreAll(int row);
    bool savedHere(int slot) const;
    QList<int> changedSinceCheckpoint() const;
    void diffWithCheckpoint(int slot);
    void compareWith(int row);
    void compareCommits(int older, int newer);

Q_SIGNALS:
    // The session shown says these (see HistorySession).
    void statusMessage(const QString &text);
    void checkpointNoteChanged(int slot, const QString &note);
    void checkpointMade(const QString &shortId, const QString &message);
    void compareRequested(const QString &soulPath);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void follow();
    void showStatus();
    void showChanged();
    bool listShown() const;

    PersonaSession *m_session = nullptr;
    QSettings *m_settings = nullptr;
    QPointer<HistoryPanel> m_panel;
    QPointer<QDockWidget> m_dock;
    QPointer<QTabWidget> m_tabs; // the persona's panel, then the pages added
    QAction *m_onSave = nullptr;
};

} // namespace soul
