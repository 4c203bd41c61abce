#pragma once

#include "gitobjects.h"
#include "personahistory.h"
#include "treepath.h"

#include <QHash>
#include <QSet>

// What a PersonaHistory owns, and the helpers personahistory.cpp and
// checkpoint.cpp share. Internal to core/history.
namespace soul {

struct PersonaHistory::Owner
{
    git::Library library; // first: outlives the repository
    git::Repository repo;
    QString workdir;          // the working tree's root, canonical, with a trailing '/'
    QList<QByteArray> folder; // the persona folder's path parts from the root
    QString folderPath;       // the same as text: "" or "agents/ava"
    QString folderText;       // how sentences name the folder
    QString repositoryText;   // how sentences name the repository
    // The raw ids of the commits a shallow clone is cut at: read as roots.
    QSet<QByteArray> shallow;
    // Each commit's slot entries, as log() and measure() found them.
    mutable QHash<QByteArray, git::TreeSlotEntries> slotCache; // at most MaxCachedSlotEntries
    static constexpr qsizetype MaxCachedSlotEntries = 4096;

    git_repository *get() const { return repo.get(); }

    // "agents/ava/SOUL.md": slot `slot`'s path from the repository's root.
    QByteArray slotPath(int slot) const;

    // The slot entries of the commit whose tree is `tree` (cached by commit).
    Result<git::TreeSlotEntries> slotsOf(const git_commit *commit) const;

    // The commit `rev` names, or a sentence.
    Result<git::Commit> resolve(const QString &rev) const;

    // A blob's bytes (at most `limit`, -1 for all) and its whole size.
    Result<QByteArray> readBlob(const git_oid &id,
                                const QString &what,
                                qint64 limit,
                                qint64 *size = nullptr,
                                QByteArray *sha256 = nullptr) const;

    // "the repository at /x is damaged: WHAT cannot be read (...)".
    QString damaged(const QString &what, const QString &why) const;
};

HistorySlot historySlot(const git::TreeSlotEntry &entry);

} // namespace soul
