#pragma once

#include "compose/contract.h"
#include "disk/slotreader.h"
#include "gitobjects.h"
#include "result.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

#include <array>

// Finding a persona's slot files in one commit's tree, as a checkout of that
// commit would show them on disk: each path is walked entry by entry, and a
// symbolic link (in git, a blob holding the target path) is followed the way
// the kernel follows it, within the same tree. Internal to core/history.
namespace soul::git {

// The most links one lookup follows, as Linux's MAXSYMLINKS: a loop of links
// ends here and leads nowhere.
inline constexpr int MaxLinkHops = 40;

// Where a path leads in the tree.
struct PathTarget
{
    enum class Kind {
        File,      // a blob (mode 100644 or 100755): `id` is the blob
        Directory, // a tree, or a submodule (a checkout shows it as a folder)
        Nowhere,   // no such entry, a file used as a folder, or a link that
                   // leads out of the tree (absolute, above its root) or in a loop
    };
    Kind kind = Kind::Nowhere;
    git_oid id{};
    // For a Directory that is a tree: the trees from the root down to it, so
    // ".." inside it climbs the way the path came (the kernel's physical walk).
    QList<git_oid> trees;
};

// Follows `components` (the parts of a relative path, "." and ".." allowed;
// an empty part, as a trailing slash leaves, requires a folder) from the
// folder at the end of `trees`, which starts at the root tree. `hops` counts
// the links followed so far. Fails only when an object cannot be read.
Result<PathTarget> followPath(git_repository *repo,
                              QList<git_oid> trees,
                              QList<QByteArray> components,
                              int &hops);

// The parts of a link's target path, a trailing slash kept as an empty last
// part.
QList<QByteArray> linkComponents(QByteArrayView target);

// One slot of a persona folder in one commit's tree.
struct TreeSlotEntry
{
    SlotPresence presence = SlotPresence::Missing; // Present, Missing, DanglingLink or Directory
    bool isSymlink = false;                        // the slot's own entry is a link
    bool hasEntry = false;                         // the folder has an entry of this name
    git_oid entryId{};                             // that entry's object (the link blob for a link)
    git_filemode_t entryMode = GIT_FILEMODE_UNREADABLE;
    git_oid blobId{};      // the blob composed (a link's target), when Present
    QByteArray linkTarget; // what a link entry holds

    bool sameAs(const TreeSlotEntry &other) const;
};
using TreeSlotEntries = std::array<TreeSlotEntry, SlotCount>;

// The persona folder at `folder` (path parts from the repository's root;
// empty for the root itself) in the tree `rootTree`: each slot's entry and
// what it leads to. A folder that is not there (or not a folder) has every
// slot Missing. `names`, when given, receives the names of the folder's
// entries and `memoryFolder` whether a "memory" entry is a folder (for the
// lints about names beside the slots).
Result<TreeSlotEntries> slotEntries(git_repository *repo,
                                    const git_oid &rootTree,
                                    const QList<QByteArray> &folder,
                                    QStringList *names = nullptr,
                                    bool *memoryFolder = nullptr);

} // namespace soul::git
