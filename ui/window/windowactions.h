#pragma once

#include "contract.h"

#include <QObject>

#include <array>

class QAction;
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

    QAction *open = nullptr;
    QAction *newPersona = nullptr;
    QAction *openExample = nullptr;
    QAction *closeFolder = nullptr;
    QAction *save = nullptr;
    QAction *saveAll = nullptr;
    QAction *revert = nullptr;
    QAction *exportSnapshot = nullptr;
    QAction *copySoul = nullptr;
    QAction *quit = nullptr;
    QAction *find = nullptr;
    QAction *showInvisibles = nullptr;
    QAction *showOnDisk = nullptr;
    QAction *focusPreview = nullptr;
    std::array<QAction *, SlotCount> jumpToSlot{};
};

} // namespace soul
