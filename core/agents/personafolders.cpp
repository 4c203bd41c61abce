#include "personafolders.h"

#include "compose/contract.h"

#include <QDir>
#include <QFileInfo>

namespace soul {

Result<QList<PersonaFolder>> listPersonaFolders(const QString &parent)
{
    const QFileInfo info(parent);
    if (!info.isDir()) {
        return Result<QList<PersonaFolder>>::failure(
            QStringLiteral("%1 is not a folder. Name the folder that holds the persona folders.")
                .arg(parent));
    }
    QDir dir(info.absoluteFilePath());
    if (!dir.isReadable()) {
        return Result<QList<PersonaFolder>>::failure(
            QStringLiteral("%1 cannot be listed. Check that you may read it.").arg(parent));
    }
    // Links to folders count: a persona kept elsewhere and linked in is one.
    const QStringList names = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QList<PersonaFolder> folders;
    for (const QString &name : names) {
        PersonaFolder folder;
        folder.name = name;
        folder.path = QDir::cleanPath(dir.absoluteFilePath(name));
        const QDir persona(folder.path);
        for (const QString &slot : bootstrapOrder()) {
            if (QFileInfo(persona.filePath(slot)).isFile())
                folder.slotFiles.append(slot);
        }
        if (!folder.slotFiles.isEmpty())
            folders.append(folder);
    }
    return folders;
}

} // namespace soul
