#include "windowactions.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QWidget>

namespace soul {

WindowActions::WindowActions(QWidget *window)
    : QObject(window)
{
    // Each action is named after its member, so scripts and tests find it in
    // the window by name (findChild<QAction *>("save")).
    auto make = [window](const char *name, const QString &text, const QKeySequence &shortcut) {
        auto *action = new QAction(text, window);
        action->setObjectName(QLatin1String(name));
        action->setShortcut(shortcut);
        action->setShortcutContext(Qt::WindowShortcut);
        window->addAction(action);
        return action;
    };
    open = make("open", tr("&Open Folder…"), QKeySequence::Open);
    newPersona = make("newPersona", tr("&New Persona…"), QKeySequence::New);
    openExample = make("openExample", tr("Open the E&xample"), {});
    openAgents = make("openAgents",
                      tr("Open OpenClaw's A&gents"),
                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openPersonaFolder = make("openPersonaFolder", tr("Open a Fo&lder of Personas…"), {});
    openHermesHome = make("openHermesHome", tr("Open Hermes Ho&me…"), {});
    nextAgent = make("nextAgent", tr("&Next Agent"), QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    previousAgent = make("previousAgent",
                         tr("Pre&vious Agent"),
                         QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    compareAgents = make("compareAgents", tr("Compare with &Agent…"), {});
    copySlotToAgents = make("copySlotToAgents", tr("Copy This File to A&gents…"), {});
    linkThreeWay = make("linkThreeWay",
                        tr("Compare &Three Ways…"),
                        QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_3));
    linkAdopt = make("linkAdopt",
                     tr("&Adopt This Copy into the Group"),
                     QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_A));
    linkLeave = make("linkLeave",
                     tr("&Leave the Group"),
                     QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_L));
    linkFinish = make("linkFinish",
                      tr("&Finish the Group's Save"),
                      QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_F));
    linkIdentical = make("linkIdentical",
                         tr("Link &Identical Files…"),
                         QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I));
    linkHistory = make("linkHistory",
                       tr("Linked File &History"),
                       QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_H));
    linkCheckpoint = make("linkCheckpoint",
                          tr("&Checkpoint the Group…"),
                          QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_G));
    closeFolder = make("closeFolder", tr("&Close Folder"), QKeySequence(Qt::CTRL | Qt::Key_W));
    save = make("save", tr("&Save"), QKeySequence(Qt::CTRL | Qt::Key_S));
    saveAll = make("saveAll", tr("Save &All"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    revert = make("revert", tr("Re&vert"), {});
    exportSnapshot = make("exportSnapshot",
                          tr("&Export Snapshot…"),
                          QKeySequence(Qt::CTRL | Qt::Key_E));
    freeze = make("freeze", tr("&Freeze Snapshot"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    changeSnapshotsFolder = make("changeSnapshotsFolder", tr("Change Snaps&hots Folder…"), {});
    compareWithSnapshot = make("compareWithSnapshot", tr("Compare with Snapshot &File…"), {});
    compareMenu = new QMenu(tr("Compare &with Snapshot"), window);
    compareMenu->setObjectName(QStringLiteral("compareMenu"));
    checkpoint = make("checkpoint",
                      tr("Check&point…"),
                      QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    checkpointOnSave = make("checkpointOnSave", tr("Checkpoint on Ever&y Save"), {});
    checkpointOnSave->setCheckable(true);
    showHistory = make("showHistory", tr("&History"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_H));
    showHistory->setCheckable(true);
    copySoul = make("copySoul", tr("&Copy Soul"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    quit = make("quit", tr("&Quit"), QKeySequence::Quit);
    // The editors handle these keys themselves while they have the focus; the
    // actions are for the menu, and say what the keys do.
    undo = make("undo", tr("&Undo"), QKeySequence::Undo);
    redo = make("redo", tr("&Redo"), QKeySequence::Redo);
    find = make("find", tr("&Find…"), QKeySequence::Find);
    finishSetup = make("finishSetup", tr("Finish &Setup…"), {});
    showInvisibles = make("showInvisibles",
                          tr("Show &Invisibles"),
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    showInvisibles->setCheckable(true);
    showOnDisk = make("showOnDisk",
                      tr("Preview What Is on &Disk"),
                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    showOnDisk->setCheckable(true);
    focusPreview = make("focusPreview", tr("Go to &Preview"), QKeySequence(Qt::CTRL | Qt::Key_0));
    focusRuntimeFile = make("focusRuntimeFile",
                            tr("Go to the &Runtime's Own File"),
                            QKeySequence(Qt::CTRL | Qt::Key_8));
    focusHistory = make("focusHistory",
                        tr("Go to History &Commits"),
                        QKeySequence(Qt::CTRL | Qt::Key_9));
    for (int k = 0; k < SlotCount; ++k) {
        QAction *jump = make("jumpToSlot",
                             tr("Go to %1").arg(slotName(k)),
                             QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + k)));
        jump->setObjectName(jump->objectName() + QString::number(k)); // jumpToSlot0 ...
        jumpToSlot[size_t(k)] = jump;
    }
    roomsMenu = new QMenu(tr("Tr&y"), window);
    roomsMenu->setObjectName(QStringLiteral("roomsMenu"));
    recentMenu = new QMenu(tr("Open &Recent"), window);
    recentMenu->setObjectName(QStringLiteral("recentMenu"));
    clearRecent = new QAction(tr("&Clear List"), this);
    clearRecent->setObjectName(QStringLiteral("clearRecent"));
    setRecent({});
    setRecentSnapshots({});
    setFolderOpen(false);
    setAgentCount(0);
    setEditState({});
}

void WindowActions::fillMenuBar(QMenuBar *bar) const
{
    QMenu *file = bar->addMenu(tr("&File"));
    file->addActions({open});
    file->addMenu(recentMenu);
    file->addActions({newPersona, openExample});
    file->addSeparator();
    file->addActions({openAgents, openPersonaFolder, openHermesHome});
    file->addSeparator();
    file->addActions({save, saveAll, revert});
    file->addSeparator();
    file->addAction(exportSnapshot);
    file->addAction(freeze);
    file->addMenu(compareMenu);
    file->addAction(changeSnapshotsFolder);
    file->addSeparator();
    file->addActions({checkpoint, checkpointOnSave});
    file->addSeparator();
    file->addActions({closeFolder, quit});

    QMenu *edit = bar->addMenu(tr("&Edit"));
    edit->addActions({undo, redo});
    edit->addSeparator();
    edit->addAction(find);
    edit->addSeparator();
    edit->addAction(copySoul);
    edit->addAction(copySlotToAgents);
    QMenu *links = edit->addMenu(tr("Lin&ked Files"));
    links->setObjectName(QStringLiteral("linksMenu"));
    links->addActions({linkThreeWay, linkAdopt, linkLeave, linkFinish});
    links->addSeparator();
    links->addActions({linkHistory, linkCheckpoint});
    links->addSeparator();
    links->addAction(linkIdentical);
    edit->addSeparator();
    edit->addAction(finishSetup);

    bar->addMenu(roomsMenu);

    QMenu *view = bar->addMenu(tr("&View"));
    view->addActions({showOnDisk, showInvisibles, focusPreview, showHistory, focusHistory});
    view->addSeparator();
    view->addActions({nextAgent, previousAgent, compareAgents});
    view->addSeparator();
    for (QAction *jump : jumpToSlot)
        view->addAction(jump);
    view->addAction(focusRuntimeFile);
}

void WindowActions::setRecent(const QList<RecentPlace> &places)
{
    recentMenu->clear();
    for (const RecentPlace &place : places) {
        QAction *entry = recentMenu->addAction(place.label());
        connect(entry, &QAction::triggered, this, [this, place] { Q_EMIT recentRequested(place); });
    }
    if (!places.isEmpty())
        recentMenu->addSeparator();
    recentMenu->addAction(clearRecent);
    clearRecent->setEnabled(!places.isEmpty());
    recentMenu->setEnabled(!places.isEmpty());
}

void WindowActions::setRecentSnapshots(const QStringList &souls)
{
    compareMenu->clear();
    for (const QString &soul : souls) {
        QAction *entry = compareMenu->addAction(QFileInfo(soul).fileName());
        entry->setToolTip(QDir::toNativeSeparators(soul));
        connect(entry, &QAction::triggered, this, [this, soul] { Q_EMIT snapshotRequested(soul); });
    }
    if (!souls.isEmpty())
        compareMenu->addSeparator();
    compareMenu->addAction(compareWithSnapshot);
}

void WindowActions::setEditState(const EditState &state)
{
    undo->setEnabled(state.canUndo);
    redo->setEnabled(state.canRedo);
    save->setEnabled(state.currentUnsaved || state.currentReadOnly || state.currentLinked);
    revert->setEnabled(state.currentUnsaved);
    saveAll->setEnabled(state.anyUnsaved);
    finishSetup->setEnabled(state.canFinishSetup);
}

void WindowActions::setAgentCount(int count)
{
    for (QAction *action : {nextAgent,
                            previousAgent,
                            compareAgents,
                            copySlotToAgents,
                            linkThreeWay,
                            linkAdopt,
                            linkLeave,
                            linkFinish,
                            linkIdentical,
                            linkHistory,
                            linkCheckpoint})
        action->setEnabled(count > 1);
}

void WindowActions::setFolderOpen(bool isOpen)
{
    for (QAction *action : {closeFolder,
                            save,
                            saveAll,
                            revert,
                            exportSnapshot,
                            copySoul,
                            find,
                            focusPreview,
                            freeze,
                            compareWithSnapshot,
                            checkpoint})
        action->setEnabled(isOpen);
    for (QAction *jump : jumpToSlot)
        jump->setEnabled(isOpen);
}

} // namespace soul
