#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QString>

// The one way Soul Studio replaces a file's content: slot saves, Save all,
// Save all elsewhere, new personas, exported snapshots and the recovery
// store all end here. Every system call is checked (through fileio.h, where
// tests make them fail), so a full disk can never pass for a save.
namespace soul {

// Whether a write may replace a file that is at its path. `Never` is for the
// writes that promise not to (Freeze, Save all elsewhere, an export without
// --force, a new persona): the rename itself refuses (renameNoReplace() in
// fileio.h), so a file another program creates after any earlier look at
// the path is kept, and the write fails with EEXIST.
enum class Overwrite { Allowed, Never };

// How a write ended. `error` is the errno of the call that failed (0 when
// the new bytes are in place) and `step` names that step in words ("writing
// it", "flushing it to the disk", ...). The file is then exactly as it was,
// and no temporary or backup file is left, except when `keptBackup` is set:
// a file written in place could not be put back, and its old bytes are in
// that file. A write that succeeded can still have `folderSyncError`: the
// new file is in place, but its folder could not be synced, so a power cut
// could undo the rename (writeWarningText() says so).
struct WriteOutcome
{
    int error = 0;
    QString step;
    QString keptBackup;
    int folderSyncError = 0;
    bool ok() const { return error == 0; }
};

// Replaces the content of `path` (a regular file or nothing; symbolic links
// are not followed here: pass the end of the chain) with `bytes`:
//
// * Normally: a new file beside it (O_EXCL, a hidden name), written in full,
//   fsync()ed and closed, each step checked, takes the old file's permission
//   bits (and owner, when allowed), then rename()s over it; the folder is
//   fsync()ed after the rename. A reader sees the old bytes or the new ones.
//   With Overwrite::Never, anything at `path` (a link too) fails the write
//   with EEXIST and stays as it is, up to the moment of the rename.
// * When the file has more than one hard link, a rename would leave the
//   other names with the old text. The file is written in place instead:
//   its old bytes are first copied to a backup beside it (fsync()ed), then
//   written over, truncated, fsync()ed; on any failure the old bytes are
//   written back and the backup removed. A crash in between leaves the
//   backup, named ".NAME.XXXXXX.bak".
WriteOutcome replaceFile(const QString &path,
                         QByteArrayView bytes,
                         Overwrite overwrite = Overwrite::Allowed);

// "No space left on device (while writing it). The disk is full: free some
// space, then try again" -- the cause and what to do, for a failed outcome.
QString writeFailureText(const WriteOutcome &outcome);

// For a write that succeeded with a `folderSyncError`: "PATH was written,
// but the disk did not confirm it (...), so a power cut or a system crash
// could still undo that. <what to do>." Empty for any other outcome.
// `shown` names the file as the user knows it.
QString writeWarningText(const QString &shown, const WriteOutcome &outcome);

// What to do about an errno a write can end in, as a clause: a read-only
// file system, a full disk or quota, a failing device, permissions...
QString writeErrorAdvice(int error);

// Follows the chain of symbolic links at `path` to the file the bytes really
// go to, which may not exist yet (a dangling link is saved by creating its
// target). Empty with `error` set for a loop ("it is a loop ...").
QString resolveLinks(const QString &path, QString *error);

// replaceFile() through `path`'s links, for files that are not slots (an
// exported snapshot, its manifest, the recovery store). Fails with a sentence
// naming the file, the cause and what to do; any old file there is then
// unchanged. A failed folder sync is a success with writeWarningText() as
// its warning. With Overwrite::Never, a link at `path` is not followed: it
// is a file that is there.
Status writeFileAtomically(const QString &path,
                           QByteArrayView bytes,
                           Overwrite overwrite = Overwrite::Allowed);

} // namespace soul
