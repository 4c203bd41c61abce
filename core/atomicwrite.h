#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QString>

namespace soul {

// Writes `bytes` to `path` through a temporary file in the same directory and
// a rename, so a reader sees the old file or the new one, never a mix. Fails
// with a sentence naming the file and the cause; the old file is then kept.
Status writeFileAtomically(const QString &path, QByteArrayView bytes);

} // namespace soul
