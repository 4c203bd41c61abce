#include "slotlayout.h"

#include "slotreader.h"

#include <QFileInfo>

namespace soul {

SlotLayout SlotLayout::folder(const QString &dir)
{
    SlotLayout layout;
    layout.directory = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
    for (int k = 0; k < SlotCount; ++k) {
        layout.paths[size_t(k)] = layout.directory.isEmpty() ? QString()
                                                             : slotPath(layout.directory, k);
        layout.labels[size_t(k)] = slotName(k);
        layout.names[size_t(k)] = slotName(k);
    }
    return layout;
}

} // namespace soul
