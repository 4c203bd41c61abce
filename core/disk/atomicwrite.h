#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QString>

class QSaveFile;

namespace soul {

// Writes `bytes` to `path` through a temporary file in the same directory and
// a rename, so a reader sees the old file or the new one, never a mix. Fails
// with a sentence naming the file and the cause; the old file is then kept.
Status writeFileAtomically(const QString &path, QByteArrayView bytes);

// Writes all of `bytes` to `file`, which is open, and commits it. Returns the
// cause in the system's words when that fails ("No space left on device"),
// after removing the temporary file, so the target is as it was; returns an
// empty string on success.
QString writeAndCommit(QSaveFile &file, QByteArrayView bytes);

} // namespace soul
