#pragma once

#include <git2.h>

#include <QByteArray>
#include <QString>

// The files of a git repository that libgit2 and the history read or write,
// checked before libgit2 opens the repository. libgit2 opens them blocking,
// so a FIFO (or a device, or a socket) in the place of HEAD, a ref, the
// config or a file it includes, the index, a reflog, the shallow list or the
// list of alternates would stop the window or soulc for good. Each is looked
// at with stat() (read through the slot reader's guard where its content
// matters), never opened blocking. Internal to core/history.
namespace soul::git {

// The repository that holds the folder `canonical` (a canonical path), as
// libgit2 would find it going up from there; then its files. Returns an
// empty string when none is a FIFO, device or socket (missing files are no
// problem: libgit2 says what it misses), or a sentence naming the first such
// file and what to do.
QString checkRepositoryFiles(const QString &canonical);

// git_repository_open_ext(), trusting a repository of another user as git
// 2.39 does: libgit2 1.5 takes a safe.directory of '*' for a path, where
// git trusts every repository. Returns libgit2's status.
int openRepository(git_repository **out, const QByteArray &path, unsigned int flags);

} // namespace soul::git
