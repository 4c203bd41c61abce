#include "windowactions.h"

#include <QAction>
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
    openExample = make(tr("Open the &Example"), {});
    closeFolder = make(tr("&Close Folder"), QKeySequence(Qt::CTRL | Qt::Key_W));
    save = make(tr("&Save"), QKeySequence(Qt::CTRL | Qt::Key_S));
    saveAll = make(tr("Save &All"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    revert = make(tr("&Revert"), {});
    exportSnapshot = make(tr("&Export Snapshot…"), QKeySequence(Qt::CTRL | Qt::Key_E));
    copySoul = make(tr("&Copy Soul"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    quit = make(tr("&Quit"), QKeySequence::Quit);
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
    setFolderOpen(false);
}

void WindowActions::fillMenuBar(QMenuBar *bar) const
{
    QMenu *file = bar->addMenu(tr("&File"));
    file->addActions({open, newPersona, openExample});
    file->addSeparator();
    file->addActions({save, saveAll, revert});
    file->addSeparator();
    file->addActions({exportSnapshot, copySoul});
    file->addSeparator();
    file->addActions({closeFolder, quit});

    QMenu *edit = bar->addMenu(tr("&Edit"));
    edit->addAction(find);

    QMenu *view = bar->addMenu(tr("&View"));
    view->addActions({showOnDisk, showInvisibles, focusPreview});
    view->addSeparator();
    for (QAction *jump : jumpToSlot)
        view->addAction(jump);
}

void WindowActions::setFolderOpen(bool isOpen)
{
    for (QAction *action :
         {closeFolder, save, saveAll, revert, exportSnapshot, copySoul, find, focusPreview})
        action->setEnabled(isOpen);
    for (QAction *jump : jumpToSlot)
        jump->setEnabled(isOpen);
}

} // namespace soul
