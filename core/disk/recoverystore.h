#pragma once

#include "result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

// Crash recovery: the unsaved buffers of one persona directory, kept where a
// crash cannot take them and where they never mix with the persona itself:
//
//   <AppDataLocation>/recovery/<SHA-1 of the absolute directory path>/
//       index.json        {"version", "directory", "slots": {name: entry}}
//       SOUL.md.<n>       the buffer bytes, exactly as they would be saved
//
// Every write is atomic (temporary file + rename). A buffer goes to a fresh
// file first and the index is switched to it second, so after a crash at any
// point the index names only complete buffers; files it does not name are
// removed on the next store() or clear().
namespace soul {

struct RecoveredSlot
{
    int slot = -1;
    QString fileName;      // "SOUL.md"
    QByteArray bytes;      // the unsaved buffer
    QByteArray diskSha256; // hex digest of the file when the buffer was stored; empty: absent
    QDateTime savedAt;     // UTC
};

// What one run last kept in the store for one file, so an unchanged buffer is
// not written again.
struct KeptBuffer
{
    QByteArray bytes;
    QByteArray diskSha256;
};

class RecoveryStore
{
public:
    // `dir` is the persona directory; it is made absolute. Nothing is read or
    // written until a call below. `project`, when given, is the project
    // folder of a runtime's layout (its home being `dir`): each home and
    // project pair keeps its own copies.
    explicit RecoveryStore(const QString &dir, const QString &project = {});

    QString directory() const { return m_dir; }
    // Where this directory's buffers go; empty when the system has no
    // writable application data location.
    QString storePath() const { return m_storePath; }
    // <AppDataLocation>/recovery, shared by all directories.
    static QString rootPath();

    // Keeps `bytes` as slot `slot`'s unsaved buffer, replacing the one kept
    // before. `diskSha256` is the digest of the file the buffer was edited
    // from (empty for a slot with no file), so a restore can tell whether the
    // file changed since. A failed folder sync is not reported (see .cpp).
    Status store(int slot, QByteArrayView bytes, const QByteArray &diskSha256);
    // Forgets slot `slot`'s buffer (it was saved or discarded).
    Status remove(int slot);
    // The same for any other document of the folder (OpenClaw's
    // BOOTSTRAP.md, a skill's skills/NAME/SKILL.md), kept under its path
    // relative to the folder in the same index; pending() leaves it out,
    // pendingFile() gives it. A path that leaves the folder is refused.
    Status storeFile(const QString &fileName, QByteArrayView bytes, const QByteArray &diskSha256);
    Status removeFile(const QString &fileName);
    std::optional<RecoveredSlot> pendingFile(const QString &fileName) const;
    // Forgets every buffer of the directory and its folder.
    Status clear();

    // The buffers kept for this directory, in slot order: what to offer for
    // restoring when the directory is opened again. Entries whose buffer file
    // is gone or unreadable are left out.
    QList<RecoveredSlot> pending() const;

private:
    QString m_dir;
    QString m_storePath;
};

} // namespace soul
