#pragma once

#include "compose/contract.h"

#include <QString>
#include <QStringList>

#include <array>

namespace soul {

// Where the files of the seven slots are. A persona folder holds them side
// by side (folder/NAME, the layout every runtime reads by default); a runtime
// with places of its own gives each slot its own path (Hermes: SOUL.md in its
// home, MEMORY.md and USER.md under home/memories, the project file that wins
// in the project folder). The persona model reads, watches and saves exactly
// these paths; nothing else is written.
struct SlotLayout
{
    // The folder the persona is known by: the one watched for being removed,
    // named in the window and by the recent list. The persona folder, or the
    // runtime's home.
    QString directory;
    // A runtime's home and project folder (RuntimeInput::home, ::project);
    // both empty for a persona folder.
    QString home;
    QString project;
    std::array<QString, SlotCount> paths; // absolute
    // How a pane names its file: "SOUL.md", "memories/MEMORY.md", "HERMES.md".
    std::array<QString, SlotCount> labels;
    // The name the runtime knows the file by (RuntimeInput::buffers and
    // RuntimeFileView::name): "MEMORY.md", "HERMES.md".
    std::array<QString, SlotCount> names;
    // Folders the runtime makes itself when they are missing (Hermes's
    // HOME/memories, absolute): saving a slot file into one that is not
    // there creates that folder, and no other.
    QStringList madeFolders;

    // folder/NAME for every slot.
    static SlotLayout folder(const QString &dir);
    bool isFolder() const { return home.isEmpty() && project.isEmpty(); }

    bool operator==(const SlotLayout &other) const
    {
        return directory == other.directory && home == other.home && project == other.project
               && paths == other.paths && labels == other.labels && names == other.names
               && madeFolders == other.madeFolders;
    }
    bool operator!=(const SlotLayout &other) const { return !(*this == other); }
};

} // namespace soul
