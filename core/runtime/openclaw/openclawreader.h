#pragma once

#include "openclawrule.h"

#include <QString>

// Reading a persona folder the way OpenClaw 2026.9 does: which entries take
// part, and for each its text, a MISSING entry or an UNREADABLE line. Links
// are never followed, a FIFO is never opened, and a file over 2 MiB is not
// read at all.
namespace soul {

// OpenClaw's own guard: a file of more bytes than this is refused whole.
inline constexpr qint64 OpenClawMaxFileBytes = 2097152;

// `dir` as OpenClaw makes a workspace path: whitespace trimmed, a leading ~
// expanded to $HOME, made absolute against the current directory, `.` and
// `..` segments and a trailing slash removed. Symbolic links in it are kept.
QString openClawDirectoryPath(const QString &dir);

// The entries of `dir` in OpenClaw's order. `dir` is used as given for the
// file system and made into openClawDirectoryPath() for the text.
OpenClawInput readOpenClawDirectory(const QString &dir);
// The same, except that the files named in `checkOnly` are checked (listed,
// not a link, a regular file, not hard-linked, at most 2 MiB, opened) but not
// read: one that passes is a Content entry with an empty text. For callers
// that have those files' text already (editor buffers) and need only to know
// whether OpenClaw would refuse them; this saves reading and holding it twice.
OpenClawInput readOpenClawDirectory(const QString &dir, const QStringList &checkOnly);

// An entry OpenClaw refuses for `reason`: its "[UNREADABLE: reason]" line.
OpenClawEntry openClawUnreadable(const QString &name, const QString &reason);

// One file at `path`, with OpenClaw's checks in their order (a missing path,
// a link, not a regular file, hard-linked, over 2 MiB, a read error).
// With `read` false the checks end at the open, and the entry's text is empty.
OpenClawEntry readOpenClawFile(const QString &path, const QString &name, bool read = true);

} // namespace soul
