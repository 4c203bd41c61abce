#pragma once

#include "atomicwrite.h"
#include "result.h"

#include <QByteArrayView>
#include <QString>

// Saving a slot: through replaceFile() (atomicwrite.h), every system call
// checked; through symbolic links to their target; keeping the file's
// permissions and its hard links; exactly the given bytes. A failure
// (read-only file or file system, disk full, failing device, ...) is a
// sentence naming the file, the cause and what to do, and the file on disk
// is then unchanged.
namespace soul {

// Writes `bytes` to `path` through a temporary file beside the real target and
// a rename, so a reader sees the old content or the new, never a mix.
//
// * A symbolic link stays a link: the end of its chain is written (a dangling
//   link's target is created, when its folder exists). A loop of links fails.
// * A file with more than one hard link keeps them: it is written in place
//   after a backup copy (see replaceFile()), so every name shows the new text.
// * An existing file keeps its permission bits (and its owner, where the
//   system allows); a new file gets 0666 less the umask.
// * A read-only existing file, a read-only file system, a folder, FIFO or
//   device at the path, a missing folder, a read-only folder, a full disk and
//   a failing device each fail with a sentence that names the file; the file
//   on disk is then as it was, and no temporary file is left behind.
// * With Overwrite::Never (saving into another folder, a new persona's
//   templates), anything at `path`, a link too, fails the save and is kept,
//   even when it appears a moment before the rename.
// * The file saved but its folder not synced is a success with a warning
//   naming the file (writeWarningText()).
Status saveSlotFile(const QString &path,
                    QByteArrayView bytes,
                    Overwrite overwrite = Overwrite::Allowed);

} // namespace soul
