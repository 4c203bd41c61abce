#pragma once

#include "compose/contract.h"
#include "recentplace.h"

#include <QObject>
#include <QStringList>

#include <array>

class QAction;
class QMenu;
class QMenuBar;
class QWidget;

namespace soul {

// Every command of the window as a QAction with its shortcut, created here so
// the main window only places them in menus and wires them.
class WindowActions : public QObject
{
    Q_OBJECT

public:
    // The actions are added to `window`, so their shortcuts work everywhere in it.
    explicit WindowActions(QWidget *window);

    void fillMenuBar(QMenuBar *bar) const;
    // Enables what needs an open folder.
    void setFolderOpen(bool open);
    // Enables what needs more than one persona in the window.
    void setAgentCount(int count);
    // Fills File > Open Recent; its entries emit recentRequested().
    void setRecent(const QList<RecentPlace> &places);
    // Fills File > Compare with Snapshot with this persona's recent
    // snapshots; its entries emit snapshotRequested().
    void setRecentSnapshots(const QStringList &souls);
    // Undo, Redo, Save and Revert follow the pane last focused; Save All
    // any unsaved pane. Call after setFolderOpen().
    struct EditState
    {
        bool canUndo = false;
        bool canRedo = false;
        bool currentUnsaved = false;
        bool currentReadOnly = false; // Save then says why nothing is saved
        bool currentLinked = false;   // a linked file: Save is its group's save
        bool anyUnsaved = false;
        bool canFinishSetup = false; // the chosen runtime's setup file is there
    };
    void setEditState(const EditState &state);

    QAction *open = nullptr;
    QAction *newPersona = nullptr;
    QAction *openExample = nullptr;
    QAction *openAgents = nullptr;        // OpenClaw's agents, from its config
    QAction *openPersonaFolder = nullptr; // every persona under a folder
    QAction *openHermesHome = nullptr;    // Hermes's home, run in a project folder
    QAction *nextAgent = nullptr;
    QAction *previousAgent = nullptr;
    QAction *compareAgents = nullptr;
    QAction *copySlotToAgents = nullptr;
    // A linked file (a link group's) in the pane last focused.
    QAction *linkThreeWay = nullptr;
    QAction *linkAdopt = nullptr;
    QAction *linkLeave = nullptr;
    QAction *linkFinish = nullptr;
    QAction *linkIdentical = nullptr;  // identical files of several agents into groups
    QAction *linkHistory = nullptr;    // the linked file's commits in every member
    QAction *linkCheckpoint = nullptr; // a checkpoint of every member of the group
    QAction *closeFolder = nullptr;
    QAction *save = nullptr;
    QAction *saveAll = nullptr;
    QAction *revert = nullptr;
    QAction *exportSnapshot = nullptr;
    QAction *freeze = nullptr;
    QAction *changeSnapshotsFolder = nullptr;
    QAction *compareWithSnapshot = nullptr;
    QAction *checkpoint = nullptr;
    QAction *checkpointOnSave = nullptr; // checkable
    QAction *showHistory = nullptr;      // checkable
    QMenu *compareMenu = nullptr;        // owned by the window
    QAction *copySoul = nullptr;
    QAction *quit = nullptr;
    QAction *undo = nullptr;
    QAction *redo = nullptr;
    QAction *find = nullptr;
    QAction *finishSetup = nullptr; // deletes the runtime's setup file (OpenClaw's BOOTSTRAP.md)
    QAction *showInvisibles = nullptr;
    QAction *showOnDisk = nullptr;
    QAction *focusPreview = nullptr;
    QAction *focusRuntimeFile = nullptr; // the runtime's own file (BOOTSTRAP.md)
    QAction *focusHistory = nullptr;     // the History panel's commit list
    std::array<QAction *, SlotCount> jumpToSlot{};
    QAction *clearRecent = nullptr;
    QMenu *recentMenu = nullptr; // owned by the window
    QMenu *roomsMenu = nullptr;  // the rooms' entries (Chat, Tests); owned by the window

Q_SIGNALS:
    void recentRequested(const soul::RecentPlace &place);
    void snapshotRequested(const QString &soulPath);
};

} // namespace soul
