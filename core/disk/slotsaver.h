#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QString>

// Saving a slot: atomic (QSaveFile, commit checked), through symbolic links to
// their target, keeping the file's permissions; exactly the given bytes. A
// failure (read-only folder, disk full, ...) is a sentence naming the file and
// what to do, and the file on disk is then unchanged.
namespace soul {

// Writes `bytes` to `path` through a temporary file beside the real target and
// a rename, so a reader sees the old content or the new, never a mix.
//
// * A symbolic link stays a link: the end of its chain is written (a dangling
//   link's target is created, when its folder exists). A loop of links fails.
// * An existing file keeps its permission bits (not its owner, should another
//   user own it); a new file gets 0666 less the umask.
// * A read-only existing file, a folder, FIFO or device at the path, a missing
//   folder, a read-only folder and a full disk each fail with a sentence that
//   names the file; the file on disk is then as it was, and no temporary file
//   is left behind.
Status saveSlotFile(const QString &path, QByteArrayView bytes);

} // namespace soul
