#pragma once

#include "compose/contract.h"
#include "slotreader.h"

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <array>
#include <optional>
#include <vector>

namespace soul {

// Watches one persona directory and its seven slot paths, and reports a slot
// only when what a reader would get from it changed: its content (by SHA-256)
// or its presence (including why it is absent: missing, a FIFO, a folder...).
// Our own saves (announce them with expectContent()) and a `touch` are not
// changes.
//
// It stays correct through edits in place, atomic saves (temp file + rename,
// which drops a path watch: the path is re-armed), delete, create, delete and
// re-create, bursts of writes (coalesced) and slow writers (a file is read
// only once its size and time have not moved for one settle interval). The
// directory itself being removed or renamed is reported once, and its return
// too; while it is gone, no slot is reported, and on its return each slot
// that differs from what was last reported is.
//
// Events come from QFileSystemWatcher (inotify); a poll every few settle
// intervals stat()s the directory and the slots to catch what sends no event
// here: a parent folder renamed, a file appearing at the far end of a slot's
// symbolic link. Files are hashed by streaming, never kept whole; a file over
// WholeReadLimitBytes is not hashed whole either: its first `readLimit` bytes
// (the compose rule's readLimit(), all the agent can get) are, with its size, time and inode standing for the rest (knownContent() is
// then empty). A FIFO or device at a slot path is never opened. Everything runs on the thread the
// watcher lives on.
class DirectoryWatcher : public QObject
{
    Q_OBJECT

public:
    // `readLimit`: the bytes of a file over WholeReadLimitBytes that stand
    // for its content, the compose rule's readLimit().
    explicit DirectoryWatcher(qint64 readLimit, QObject *parent = nullptr);
    qint64 readLimit() const { return m_readLimit; }

    // Starts watching `dir` (stops watching the previous one). The current
    // content of each slot becomes the baseline: nothing is reported for it.
    // A `dir` that does not exist yet is polled for; directoryRestored() then
    // says it appeared.
    void setDirectory(const QString &dir);
    // The same, with the digests of slots just read whole by the caller
    // (SlotRead with sha256): a slot whose file still has the stat() of that
    // read takes its digest instead of being read and hashed again.
    void setDirectory(const QString &dir,
                      const std::array<std::optional<SlotRead>, SlotCount> &read);
    // The same for slot files anywhere (a SlotLayout's `paths`, absolute):
    // `dir` is the folder watched for being removed, and the folders holding
    // the paths are watched too. A path whose folder does not exist is still
    // polled, so a file made there later is seen.
    // Any number of files: the seven slots first, then the documents a
    // persona model adds (BOOTSTRAP.md, skills/NAME/SKILL.md). A file's
    // number in slotChanged() is its place in `paths`.
    void setFiles(const QString &dir,
                  const std::vector<QString> &paths,
                  const std::vector<std::optional<SlotRead>> &read);
    // Watches one more file while a directory is watched, `read` (as
    // setFiles()'s) its baseline; returns its number, -1 when nothing is
    // watched (the file is then not added).
    int addFile(const QString &path, const std::optional<SlotRead> &read = std::nullopt);
    int fileCount() const { return int(m_paths.size()); }
    // Stops watching: the same as setDirectory(QString()).
    void clear();
    QString directory() const { return m_dir; }

    // True while the directory exists and is being watched.
    bool isWatching() const;

    // The slot's content is now `sha256` (hex; empty for absent): call it
    // right after saving, so the save does not come back as a change.
    void expectContent(int slot, const QByteArray &sha256);

    // While slotChanged(slot) is being emitted: the read that found the
    // change, as the persona model reads a slot (the whole file and its
    // digest, or the first readLimit() bytes of a file over
    // WholeReadLimitBytes), so the receiver need not read and hash the file a
    // second time. Empty after one take, and outside the signal.
    std::optional<SlotRead> takeChangedRead(int slot);

    // The digest last reported, expected or found at setDirectory() (empty
    // for absent, and for a file over WholeReadLimitBytes).
    QByteArray knownContent(int slot) const;

    // How long a burst must be quiet before slots are read. Default 40 ms.
    // The poll (and, while the directory is lost, the check for its return)
    // runs every five settle intervals, at least 50 ms and at most 1 s apart.
    void setSettleInterval(int ms);
    int settleInterval() const { return m_settle.interval(); }

Q_SIGNALS:
    // Slot `slot`'s content or presence differs from what was last reported
    // or expected. `sha256` is the new content's hex digest, empty when the
    // slot is now absent.
    void slotChanged(int slot, const QByteArray &sha256);
    void directoryLost();
    void directoryRestored();
    void watchingChanged(bool watching);

private:
    // What stat() says about a path: enough to tell that a writer is still
    // at work, or that the path now names another file.
    struct Probe
    {
        bool exists = false;
        bool regular = false;
        bool directory = false;
        quint64 device = 0;
        quint64 inode = 0;
        qint64 size = -1;
        qint64 mtimeNs = 0;
        qint64 ctimeNs = 0;
        bool operator==(const Probe &other) const;
        bool operator!=(const Probe &other) const { return !(*this == other); }
    };

    struct Slot
    {
        // Digest of the content, or "!" and the reason it is absent.
        QByteArray known;
        // Set by an event; the slot is read once it has settled.
        bool dirty = false;
        // Set by an event on the file itself: its content may have changed
        // without its size or times showing it (same size, same time tick).
        bool mustHash = false;
        // The probe when the slot was last marked dirty or found moving.
        Probe pending;
        // The file the path watch is on, when there is one.
        std::optional<Probe> watched;
        // The file as it was when `known` was taken from its content.
        std::optional<Probe> hashed;
        // The read behind a change being reported; see takeChangedRead().
        std::optional<SlotRead> changedRead;
    };

    struct KeyedRead
    {
        SlotRead read; // bytes empty unless kept
        QByteArray key;
    };

    static Probe probe(const QString &path);
    QString slotFile(int slot) const;
    QByteArray currentKey(int slot) const;
    KeyedRead readCurrent(int slot, bool keepBytes) const;
    SlotRead readSlotFile(int slot, const ReadOptions &options) const;

    void markDirty(int slot, bool mustHash);
    void markAllDirty();
    void scan();
    void poll();
    void restore();
    void armSlot(int slot, const Probe &now);
    // What the file is now, `done` a read of it the caller just made.
    void takeBaseline(int slot, const std::optional<SlotRead> &done);
    void updatePollInterval();
    void armAll();
    void disarm();
    void enterLost(bool announce);
    void setWatching(bool watching);

    QString m_dir;
    std::vector<QString> m_paths;
    qint64 m_readLimit = 0;
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QTimer m_poll;
    std::vector<Slot> m_slots;
    Probe m_dirProbe;
    bool m_lost = false;
    bool m_watching = false;
    // Bumped by setDirectory() and clear(), so a scan whose signal handler
    // switched directories stops instead of reporting stale slots.
    quint64 m_generation = 0;
};

} // namespace soul
