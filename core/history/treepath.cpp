#include "treepath.h"

namespace soul::git {

namespace {

Result<Tree> lookupTree(git_repository *repo, const git_oid &id)
{
    git_tree *tree = nullptr;
    if (git_tree_lookup(&tree, repo, &id) != 0)
        return Result<Tree>::failure(QStringLiteral("tree %1 cannot be read (%2)")
                                         .arg(QString::fromLatin1(hex(id)), lastErrorText()));
    return Tree(tree);
}

// The target path a link entry holds.
Result<QByteArray> readLink(git_repository *repo, const git_oid &id)
{
    git_blob *blob = nullptr;
    if (git_blob_lookup(&blob, repo, &id) != 0)
        return Result<QByteArray>::failure(QStringLiteral("symbolic link %1 cannot be read (%2)")
                                               .arg(QString::fromLatin1(hex(id)), lastErrorText()));
    const Blob owned(blob);
    return QByteArray(static_cast<const char *>(git_blob_rawcontent(blob)),
                      qsizetype(git_blob_rawsize(blob)));
}

bool isLink(git_filemode_t mode)
{
    return mode == GIT_FILEMODE_LINK;
}

bool isFile(git_filemode_t mode)
{
    return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

} // namespace

QList<QByteArray> linkComponents(QByteArrayView target)
{
    QList<QByteArray> parts;
    for (const QByteArray &part : target.toByteArray().split('/')) {
        if (!part.isEmpty())
            parts.append(part);
    }
    // "notes/" must be a folder, as the kernel requires of a trailing slash.
    if (target.endsWith('/') && !parts.isEmpty())
        parts.append(QByteArray());
    return parts;
}

Result<PathTarget> followPath(git_repository *repo,
                              QList<git_oid> trees,
                              QList<QByteArray> components,
                              int &hops)
{
    using R = Result<PathTarget>;
    const PathTarget nowhere;
    while (!components.isEmpty()) {
        const QByteArray part = components.takeFirst();
        if (part.isEmpty() || part == ".")
            continue; // the folder itself: `trees` ends in a tree
        if (part == "..") {
            // Above the root is outside the repository: nothing a checkout
            // of it can be relied on to hold.
            if (trees.size() <= 1)
                return nowhere;
            trees.removeLast();
            continue;
        }
        Result<Tree> tree = lookupTree(repo, trees.last());
        if (!tree)
            return R::failure(tree.error());
        const git_tree_entry *entry = git_tree_entry_byname(tree->get(), part.constData());
        if (!entry)
            return nowhere;
        const git_filemode_t mode = git_tree_entry_filemode(entry);
        const git_oid id = *git_tree_entry_id(entry);
        const bool last = components.isEmpty();
        if (isLink(mode)) {
            if (++hops > MaxLinkHops)
                return nowhere;
            Result<QByteArray> target = readLink(repo, id);
            if (!target)
                return R::failure(target.error());
            // An absolute target points outside the tree, and an empty one
            // nowhere (the kernel says ENOENT).
            if (target->isEmpty() || target->startsWith('/'))
                return nowhere;
            // Relative to the folder that holds the link.
            components = linkComponents(*target) + components;
            continue;
        }
        if (mode == GIT_FILEMODE_TREE) {
            trees.append(id);
            if (last) {
                PathTarget folder;
                folder.kind = PathTarget::Kind::Directory;
                folder.id = id;
                folder.trees = trees;
                return folder;
            }
            continue;
        }
        if (mode == GIT_FILEMODE_COMMIT) {
            // A submodule: a folder in a checkout, whose files are not in
            // this repository's objects.
            if (!last)
                return nowhere;
            PathTarget folder;
            folder.kind = PathTarget::Kind::Directory;
            folder.id = id;
            return folder;
        }
        if (isFile(mode) && last) {
            PathTarget file;
            file.kind = PathTarget::Kind::File;
            file.id = id;
            return file;
        }
        // A file with more path after it ("SOUL.md/x" or "SOUL.md/"): ENOTDIR.
        return nowhere;
    }
    // The path named the folder it started in ("." or "x/..").
    PathTarget folder;
    folder.kind = PathTarget::Kind::Directory;
    folder.id = trees.last();
    folder.trees = trees;
    return folder;
}

bool TreeSlotEntry::sameAs(const TreeSlotEntry &other) const
{
    if (hasEntry != other.hasEntry || presence != other.presence)
        return false;
    if (hasEntry && (entryMode != other.entryMode || git_oid_cmp(&entryId, &other.entryId) != 0)) {
        return false;
    }
    return presence != SlotPresence::Present || git_oid_cmp(&blobId, &other.blobId) == 0;
}

Result<TreeSlotEntries> slotEntries(git_repository *repo,
                                    const git_oid &rootTree,
                                    const QList<QByteArray> &folder,
                                    QStringList *names,
                                    bool *memoryFolder)
{
    using R = Result<TreeSlotEntries>;
    TreeSlotEntries slots;
    int hops = 0;
    const Result<PathTarget> place = followPath(repo, {rootTree}, folder, hops);
    if (!place)
        return R::failure(place.error());
    if (place->kind != PathTarget::Kind::Directory || place->trees.isEmpty())
        return slots;
    Result<Tree> tree = lookupTree(repo, place->id);
    if (!tree)
        return R::failure(tree.error());
    if (names || memoryFolder) {
        const size_t count = git_tree_entrycount(tree->get());
        for (size_t i = 0; i < count; ++i) {
            const git_tree_entry *entry = git_tree_entry_byindex(tree->get(), i);
            const QString name = QString::fromUtf8(git_tree_entry_name(entry));
            if (names)
                names->append(name);
            if (memoryFolder && name == QLatin1String("memory"))
                *memoryFolder = git_tree_entry_filemode(entry) == GIT_FILEMODE_TREE;
        }
    }
    for (int slot = 0; slot < SlotCount; ++slot) {
        TreeSlotEntry &out = slots[size_t(slot)];
        const git_tree_entry *entry = git_tree_entry_byname(tree->get(),
                                                            BootstrapOrder[size_t(slot)]);
        if (!entry)
            continue;
        out.hasEntry = true;
        out.entryId = *git_tree_entry_id(entry);
        out.entryMode = git_tree_entry_filemode(entry);
        if (isFile(out.entryMode)) {
            out.presence = SlotPresence::Present;
            out.blobId = out.entryId;
        } else if (out.entryMode == GIT_FILEMODE_TREE || out.entryMode == GIT_FILEMODE_COMMIT) {
            out.presence = SlotPresence::Directory;
        } else if (isLink(out.entryMode)) {
            out.isSymlink = true;
            Result<QByteArray> target = readLink(repo, out.entryId);
            if (!target)
                return R::failure(target.error());
            out.linkTarget = *target;
            int linkHops = 1;
            Result<PathTarget> end = PathTarget();
            if (!target->isEmpty() && !target->startsWith('/'))
                end = followPath(repo, place->trees, linkComponents(*target), linkHops);
            if (!end)
                return R::failure(end.error());
            switch (end->kind) {
            case PathTarget::Kind::File:
                out.presence = SlotPresence::Present;
                out.blobId = end->id;
                break;
            case PathTarget::Kind::Directory:
                out.presence = SlotPresence::Directory;
                break;
            case PathTarget::Kind::Nowhere:
                out.presence = SlotPresence::DanglingLink;
                break;
            }
        }
    }
    return slots;
}

} // namespace soul::git
