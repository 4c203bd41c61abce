#pragma once

#include <git2.h>

#include <QByteArray>
#include <QList>
#include <QMutex>
#include <QSet>
#include <QString>

#include <memory>
#include <optional>

class QFile;

// The delta chains of packed objects, checked before libgit2 reads them.
// libgit2 makes a deltified object by inflating its base whole, then each
// delta on the way up: the size the object itself declares says nothing of
// its bases, so a delta of a few bytes can make libgit2 inflate a base of
// gigabytes. Here every entry on the chain (the base's header, each delta's
// own size and the size it makes) is read from the pack and held to a cap
// first, and a chain longer than git ever writes, or one that loops, is
// refused. Internal to core/history; the guarded object database owns one
// per pack reader.
namespace soul::git {

// git's pack.depth cannot be set higher: no pack git writes has a longer chain
// of deltas.
inline constexpr int MaxDeltaDepth = 4095;

class PackChains
{
public:
    // `indexes`: pack index files (*.idx) already found sound by the guarded
    // object database; each pack is the *.pack beside its index. An index
    // that cannot be mapped is skipped (libgit2 then says what is wrong).
    explicit PackChains(const QStringList &indexes);
    ~PackChains();
    PackChains(const PackChains &) = delete;
    PackChains &operator=(const PackChains &) = delete;

    struct Problem
    {
        QString text;          // a sentence naming the object and the pack
        bool tooLarge = false; // sound as far as read, but larger than the cap
    };

    // std::nullopt when `id` is in none of the packs, or when every entry on
    // its chain declares at most `cap` bytes; else why it is not read.
    // Safe to call from several threads.
    std::optional<Problem> check(const git_oid &id, qint64 cap) const;

private:
    struct Pack;
    std::optional<Problem> checkIn(Pack &pack, const git_oid &id, qint64 offset, qint64 cap) const;

    QList<std::shared_ptr<Pack>> m_packs;
    mutable QMutex m_mutex; // guards each pack's cache of sound offsets
};

} // namespace soul::git
