#pragma once

#include "result.h"

#include <QByteArray>
#include <QString>

// The one read of a whole file that someone else may have written: a
// config, an included file, a persona tests file, a transcript. Links are
// followed to a regular file; a FIFO is never opened, a device or socket
// never read; and no more than the cap is read, so /dev/zero or a sparse
// file of gigabytes is refused at once instead of read until memory runs
// out. Every failure is a sentence naming the file and what to do.
namespace soul {

struct GuardedFile
{
    QString what;       // "The OpenClaw config", "The persona tests"
    QString kind;       // what to name instead of a folder or a FIFO: "a JSON5 file"
    QString limitOwner; // whose cap it is: "Soul Studio", "OpenClaw"
    qint64 maxBytes = 0;
};

Result<QByteArray> readGuardedFile(const QString &path, const GuardedFile &file);

} // namespace soul
