#pragma once

#include <git2.h>

#include <QByteArray>
#include <QSet>
#include <QString>

// The object database a PersonaHistory reads through. libgit2's own reader
// of loose objects trusts their headers and can corrupt memory or spin on a
// damaged object (libgit2 1.5); this one gives the repository an object
// database whose loose objects are read by inflateLooseObject() (bounded by
// their declared size, refused with a sentence when damaged, checked against
// their id), packs by libgit2's pack reader, and writes (a checkpoint's
// objects) by libgit2's loose writer. Alternates listed in
// objects/info/alternates are read the same way. Internal to core/history.
namespace soul::git {

// In the error text of an object that is larger than any object read
// (MaxObjectSize): such an object may be sound, so it is not called damaged.
inline constexpr char TooLargeMark[] = "is too large to read";

// Replaces `repo`'s object database. Returns an empty string, or why it could
// not (libgit2's words).
QString installGuardedObjectDatabase(git_repository *repo);

// The raw ids of the commits a shallow clone is cut at (its shallow file):
// they are read without their parents, as git reads them.
QSet<QByteArray> shallowCommits(git_repository *repo);

} // namespace soul::git
