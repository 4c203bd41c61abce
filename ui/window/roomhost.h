#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

class QAction;
class QDockWidget;
class QKeySequence;
class QMainWindow;
class QMenu;
class QSettings;

namespace soul {

class PersonaSession;

// The text the shown persona's model gets now: the soul, or what the chosen
// runtime injects, from the buffers, unsaved edits included (the bytes Copy
// Soul gives while the preview shows unsaved edits).
struct LiveSoul
{
    QByteArray bytes;
    QString runtimeId;   // the chosen runtime's id
    QString runtimeName; // its name for people
    QString directory;   // the persona's folder, absolute; empty while none is open
    // The SHA-256 of bytes, in hex.
    QString sha256() const;
};

// What a room of the window (a dock such as Chat or Tests) sees of it: the
// session shown, its live soul, the settings, and a place for its dock and
// its key. A room is wired with one line, `new XRoom(host)`, and never
// reaches into the window's other widgets.
class RoomHost : public QObject
{
    Q_OBJECT

public:
    RoomHost(QMainWindow *window, QMenu *menu, QSettings *settings);

    QMainWindow *window() const { return m_window; }
    QSettings *settings() const { return m_settings; }
    // The session shown; nullptr while the start view is.
    PersonaSession *session() const { return m_session; }
    // Composes the live soul when the runtime's last result is not the
    // buffers' text: ask when the soul is needed, not to learn the folder.
    LiveSoul liveSoul() const;
    // The shown persona's folder, absolute; empty while none is open.
    QString directory() const;

    // Puts `dock` in the window's right area, hidden until asked, tabbed with
    // the rooms added before it (each gets the area's whole height; its key
    // brings its tab to the front), and a checkable entry named `text` with
    // `key` in the rooms' menu that shows and focuses it. Whether it was open
    // is remembered under its object name.
    QAction *addDock(QDockWidget *dock, const QString &text, const QKeySequence &key);

    // For the window: what it shows changed.
    void setSession(PersonaSession *session);
    // The live soul may have changed; told to the rooms once the changes
    // pause and the runtime has shown its result for them (so a room that
    // asks for the soul then gets the shown text, not one composed here).
    void soulMayHaveChanged();

Q_SIGNALS:
    void sessionChanged(soul::PersonaSession *session);
    // The live soul may have changed (at most a few times a second while
    // typing); nothing is composed or hashed to say it.
    void liveSoulChanged();

private:
    QMainWindow *m_window;
    QMenu *m_menu;
    QSettings *m_settings;
    QDockWidget *m_lastDock = nullptr;
    PersonaSession *m_session = nullptr;
    QTimer m_soulPause;
};

} // namespace soul
