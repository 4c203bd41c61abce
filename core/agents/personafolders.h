#pragma once

#include "result.h"

#include <QList>
#include <QString>
#include <QStringList>

// A folder of personas: toolnexus's agents home, a repository of personas.
// Each subfolder that holds at least one slot file (contract.h) is a
// persona; other subfolders, hidden ones and files are passed over.
namespace soul {

struct PersonaFolder
{
    QString name;          // the subfolder's name
    QString path;          // absolute
    QStringList slotFiles; // the slot files it holds, in the contract's order
};

// The personas under `parent`, by name. A `parent` that is not a folder, or
// cannot be listed, is a failure naming it.
Result<QList<PersonaFolder>> listPersonaFolders(const QString &parent);

} // namespace soul
