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
    auto make = [window](const QString &text, const QKeySequence &shortcut) {
        auto *action = new QAction(text, window);
        action->setShortcut(shortcut);
        action->setShortcutContext(Qt::WindowShortcut);
        window->addAction(action);
        return action;
    };
    open = make(tr("&Open Folder…"), QKeySequence::Open);
    newPersona = make(tr("&New Persona…"), QKeySequence::New);
    openExample = make(tr("Open the E&xample"), {});
    closeFolder = make(tr("&Close Folder"), QKeySequence(Qt::CTRL | Qt::Key_W));
    save = make(tr("&Save"), QKeySequence(Qt::CTRL | Qt::Key_S));
    saveAll = make(tr("Save &All"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    revert = make(tr("Re&vert"), {});
    exportSnapshot = make(tr("&Export Snapshot…"), QKeySequence(Qt::CTRL | Qt::Key_E));
    freeze = make(tr("&Freeze Snapshot"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    changeSnapshotsFolder = make(tr("Change Snaps&hots Folder…"), {});
    compareWithSnapshot = make(tr("Compare with Snapshot &File…"), {});
    compareMenu = new QMenu(tr("Compare &with Snapshot"), window);
    copySoul = make(tr("&Copy Soul"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    quit = make(tr("&Quit"), QKeySequence::Quit);
    // The editors handle these keys themselves while they have the focus; the
    // actions are for the menu, and say what the keys do.
    undo = make(tr("&Undo"), QKeySequence::Undo);
    redo = make(tr("&Redo"), QKeySequence::Redo);
    find = make(tr("&Find…"), QKeySequence::Find);
    showInvisibles = make(tr("Show &Invisibles"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    showInvisibles->setCheckable(true);
    showOnDisk = make(tr("Preview What Is on &Disk"),
                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    showOnDisk->setCheckable(true);
    focusPreview = make(tr("Go to &Preview"), QKeySequence(Qt::CTRL | Qt::Key_0));
    for (int k = 0; k < SlotCount; ++k) {
        jumpToSlot[size_t(k)] = make(tr("Go to %1").arg(slotName(k)),
                                     QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + k)));
    }
    recentMenu = new QMenu(tr("Open &Recent"), window);
    clearRecent = new QAction(tr("&Clear List"), this);
    setRecent({});
    setRecentSnapshots({});
    setFolderOpen(false);
    setEditState({});
}

void WindowActions::fillMenuBar(QMenuBar *bar) const
{
    QMenu *file = bar->addMenu(tr("&File"));
    file->addActions({open});
    file->addMenu(recentMenu);
    file->addActions({newPersona, openExample});
    file->addSeparator();
    file->addActions({save, saveAll, revert});
    file->addSeparator();
    file->addAction(exportSnapshot);
    file->addAction(freeze);
    file->addMenu(compareMenu);
    file->addAction(changeSnapshotsFolder);
    file->addSeparator();
    file->addActions({closeFolder, quit});

    QMenu *edit = bar->addMenu(tr("&Edit"));
    edit->addActions({undo, redo});
    edit->addSeparator();
    edit->addAction(find);
    edit->addSeparator();
    edit->addAction(copySoul);

    QMenu *view = bar->addMenu(tr("&View"));
    view->addActions({showOnDisk, showInvisibles, focusPreview});
    view->addSeparator();
    for (QAction *jump : jumpToSlot)
        view->addAction(jump);
}

void WindowActions::setRecent(const QStringList &dirs)
{
    recentMenu->clear();
    for (const QString &dir : dirs) {
        // The folder's name first: the part that tells recent folders apart.
        QAction *entry = recentMenu->addAction(
            tr("%1  (%2)").arg(QFileInfo(dir).fileName(), QDir::toNativeSeparators(dir)));
        connect(entry, &QAction::triggered, this, [this, dir] { Q_EMIT recentRequested(dir); });
    }
    if (!dirs.isEmpty())
        recentMenu->addSeparator();
    recentMenu->addAction(clearRecent);
    clearRecent->setEnabled(!dirs.isEmpty());
    recentMenu->setEnabled(!dirs.isEmpty());
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
    save->setEnabled(state.currentUnsaved || state.currentReadOnly);
    revert->setEnabled(state.currentUnsaved);
    saveAll->setEnabled(state.anyUnsaved);
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
                            compareWithSnapshot})
        action->setEnabled(isOpen);
    for (QAction *jump : jumpToSlot)
        jump->setEnabled(isOpen);
}

} // namespace soul
