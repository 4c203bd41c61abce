#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QString>

// Saving a slot: atomic (QSaveFile, commit checked), through symbolic links to
// their target, keeping the file's permissions; exactly the given bytes. A
// failure (read-only folder, disk full, ...) is a sentence naming the file and
// what to do, and the file on disk is then unchanged.
namespace soul {

Status saveSlotFile(const QString &path, QByteArrayView bytes);

} // namespace soul
