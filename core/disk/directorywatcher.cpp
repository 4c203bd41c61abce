#include "directorywatcher.h"

#include "slotreader.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

namespace soul {

namespace {

constexpr int DefaultSettleMs = 40;
constexpr int MinPollMs = 50;
constexpr int MaxPollMs = 1000;

qint64 nanoseconds(const struct timespec &t)
{
    return qint64(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// The key of an absent slot: "!" and why it is absent, so that a slot going
// from missing to a FIFO is a change too.
QByteArray absentKey(SlotPresence presence)
{
    return QByteArrayLiteral("!") + QByteArray::number(int(presence));
}

// The key of a file over WholeReadLimitBytes, which is not digested whole.
const QByteArray LargeKeyPrefix = QByteArrayLiteral("~");

} // namespace

bool DirectoryWatcher::Probe::operator==(const Probe &other) const
{
    return exists == other.exists && regular == other.regular && directory == other.directory
           && device == other.device && inode == other.inode && size == other.size
           && mtimeNs == other.mtimeNs && ctimeNs == other.ctimeNs;
}

DirectoryWatcher::DirectoryWatcher(qint64 readLimit, QObject *parent)
    : QObject(parent)
    , m_readLimit(readLimit)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(DefaultSettleMs);
    updatePollInterval();

    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &) {
        // A directory event does not say which entry changed: every slot is
        // looked at, but only files whose stat() moved are hashed again.
        markAllDirty();
        m_settle.start();
    });
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this](const QString &path) {
        for (int slot = 0; slot < fileCount(); ++slot) {
            if (slotFile(slot) == path)
                markDirty(slot, true);
        }
        m_settle.start();
    });
    connect(&m_settle, &QTimer::timeout, this, &DirectoryWatcher::scan);
    connect(&m_poll, &QTimer::timeout, this, &DirectoryWatcher::poll);
}

void DirectoryWatcher::setDirectory(const QString &dir)
{
    setDirectory(dir, {});
}

void DirectoryWatcher::setDirectory(const QString &dir,
                                    const std::array<std::optional<SlotRead>, SlotCount> &read)
{
    std::vector<QString> paths;
    const QString absolute = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
    for (int slot = 0; slot < SlotCount && !absolute.isEmpty(); ++slot)
        paths.push_back(slotPath(absolute, slot));
    setFiles(absolute, paths, std::vector<std::optional<SlotRead>>(read.begin(), read.end()));
}

void DirectoryWatcher::setFiles(const QString &dir,
                                const std::vector<QString> &paths,
                                const std::vector<std::optional<SlotRead>> &read)
{
    ++m_generation;
    disarm();
    m_settle.stop();
    m_poll.stop();
    m_slots.clear();
    m_paths.clear();
    m_dir = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
    m_lost = false;
    if (m_dir.isEmpty()) {
        setWatching(false);
        return;
    }
    m_paths = paths;
    m_slots.resize(m_paths.size());

    m_dirProbe = probe(m_dir);
    if (!m_dirProbe.directory) {
        for (Slot &slot : m_slots)
            slot.known = absentKey(SlotPresence::Missing);
        enterLost(false);
        return;
    }
    for (int slot = 0; slot < fileCount(); ++slot)
        takeBaseline(slot, size_t(slot) < read.size() ? read[size_t(slot)] : std::nullopt);
    armAll();
    m_poll.start();
    setWatching(true);
}

int DirectoryWatcher::addFile(const QString &path, const std::optional<SlotRead> &read)
{
    if (m_dir.isEmpty())
        return -1;
    m_paths.push_back(path);
    m_slots.emplace_back();
    const int slot = fileCount() - 1;
    if (m_lost) {
        // Read when the folder is back, as every other file.
        m_slots.back().known = absentKey(SlotPresence::Missing);
        return slot;
    }
    takeBaseline(slot, read);
    armAll();
    return slot;
}

void DirectoryWatcher::takeBaseline(int slot, const std::optional<SlotRead> &done)
{
    const Probe now = probe(slotFile(slot));
    const bool same = done && done->presence == SlotPresence::Present && done->complete
                      && !done->sha256.isEmpty() && now.regular && now.size <= WholeReadLimitBytes
                      && now.device == done->device && now.inode == done->inode
                      && now.size == done->statSize && now.mtimeNs == done->mtimeNs
                      && now.ctimeNs == done->ctimeNs;
    m_slots[size_t(slot)].known = same ? done->sha256 : currentKey(slot);
    m_slots[size_t(slot)].hashed = now;
}

void DirectoryWatcher::clear()
{
    setDirectory(QString());
}

bool DirectoryWatcher::isWatching() const
{
    return m_watching;
}

void DirectoryWatcher::expectContent(int slot, const QByteArray &sha256)
{
    if (slot < 0 || slot >= fileCount())
        return;
    m_slots[size_t(slot)].known = sha256.isEmpty() ? absentKey(SlotPresence::Missing) : sha256;
    // The saved file is another inode: hash it once more when its events
    // arrive, even should its stat() match the probe taken before the save.
    m_slots[size_t(slot)].hashed.reset();
}

QByteArray DirectoryWatcher::knownContent(int slot) const
{
    if (slot < 0 || slot >= fileCount() || m_slots[size_t(slot)].known.startsWith('!')
        || m_slots[size_t(slot)].known.startsWith(LargeKeyPrefix))
        return {};
    return m_slots[size_t(slot)].known;
}

void DirectoryWatcher::setSettleInterval(int ms)
{
    m_settle.setInterval(qMax(0, ms));
    updatePollInterval();
}

void DirectoryWatcher::updatePollInterval()
{
    m_poll.setInterval(qBound(MinPollMs, m_settle.interval() * 5, MaxPollMs));
}

DirectoryWatcher::Probe DirectoryWatcher::probe(const QString &path)
{
    Probe p;
    struct stat info
    {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return p;
    p.exists = true;
    p.regular = S_ISREG(info.st_mode);
    p.directory = S_ISDIR(info.st_mode);
    p.device = quint64(info.st_dev);
    p.inode = quint64(info.st_ino);
    p.size = qint64(info.st_size);
    p.mtimeNs = nanoseconds(info.st_mtim);
    p.ctimeNs = nanoseconds(info.st_ctim);
    return p;
}

QString DirectoryWatcher::slotFile(int slot) const
{
    return m_paths[size_t(slot)];
}

SlotRead DirectoryWatcher::readSlotFile(int slot, const ReadOptions &options) const
{
    SlotRead read = readPath(slotFile(slot), options);
    read.slot = slot;
    return read;
}

QByteArray DirectoryWatcher::currentKey(int slot) const
{
    return readCurrent(slot, false).key;
}

DirectoryWatcher::KeyedRead DirectoryWatcher::readCurrent(int slot, bool keepBytes) const
{
    const QString path = slotFile(slot);
    const Probe before = probe(path);
    KeyedRead out;
    if (before.regular && before.size > WholeReadLimitBytes) {
        // Digesting 1 GiB on every change would stall the thread for seconds.
        // Nobody reads past the cap of a file this large, so its first
        // m_readLimit bytes stand for the content, and the size, the time
        // and the inode for the rest.
        out.read = readSlotFile(slot, ReadOptions(m_readLimit));
        if (out.read.presence != SlotPresence::Present) {
            out.key = absentKey(out.read.presence);
            return out;
        }
        const Probe after = probe(path);
        out.key = LargeKeyPrefix
                  + QCryptographicHash::hash(out.read.bytes, QCryptographicHash::Sha256).toHex()
                  + ':' + QByteArray::number(after.size) + ':' + QByteArray::number(after.mtimeNs)
                  + ':' + QByteArray::number(after.inode);
    } else {
        // The whole file streams through the digest; with `keepBytes` it is
        // also kept, as the persona model reads it, so a receiver of
        // slotChanged takes this read instead of reading and hashing again.
        ReadOptions options(keepBytes ? WholeReadLimitBytes + 1 : 0);
        options.sha256 = true;
        out.read = readSlotFile(slot, options);
        out.key = out.read.presence == SlotPresence::Present ? out.read.sha256
                                                             : absentKey(out.read.presence);
    }
    if (!keepBytes)
        out.read.bytes.clear();
    return out;
}

std::optional<SlotRead> DirectoryWatcher::takeChangedRead(int slot)
{
    if (slot < 0 || slot >= fileCount())
        return std::nullopt;
    std::optional<SlotRead> read = std::move(m_slots[size_t(slot)].changedRead);
    m_slots[size_t(slot)].changedRead.reset();
    return read;
}

void DirectoryWatcher::markDirty(int slot, bool mustHash)
{
    if (m_lost || m_dir.isEmpty())
        return;
    Slot &s = m_slots[size_t(slot)];
    s.dirty = true;
    s.mustHash = s.mustHash || mustHash;
    s.pending = probe(slotFile(slot));
    // Watch a new file at once, so a slow writer's next chunks are events.
    armSlot(slot, s.pending);
}

void DirectoryWatcher::markAllDirty()
{
    for (int slot = 0; slot < fileCount(); ++slot)
        markDirty(slot, false);
}

void DirectoryWatcher::scan()
{
    if (m_lost || m_dir.isEmpty())
        return;
    const quint64 generation = m_generation;

    const Probe dirNow = probe(m_dir);
    if (!dirNow.directory) {
        enterLost(true);
        return;
    }
    if (dirNow.device != m_dirProbe.device || dirNow.inode != m_dirProbe.inode) {
        // Another directory now has the path (renamed away, another put in
        // its place): the old one is lost, the path is back at once.
        enterLost(true);
        if (generation == m_generation)
            restore();
        return;
    }

    QList<int> changed;
    bool moving = false;
    for (int slot = 0; slot < fileCount(); ++slot) {
        Slot &s = m_slots[size_t(slot)];
        if (!s.dirty)
            continue;
        const Probe now = probe(slotFile(slot));
        armSlot(slot, now);
        if (now != s.pending) {
            // Still being written: wait for one more quiet interval.
            s.pending = now;
            moving = true;
            continue;
        }
        s.dirty = false;
        const bool unchanged = now.regular && !s.mustHash && s.hashed && *s.hashed == now;
        s.mustHash = false;
        if (unchanged)
            continue;
        KeyedRead current = readCurrent(slot, true);
        s.hashed = now;
        if (current.key != s.known) {
            s.known = current.key;
            s.changedRead = std::move(current.read);
            changed.append(slot);
        }
    }
    if (moving)
        m_settle.start();

    for (const int slot : std::as_const(changed)) {
        Q_EMIT slotChanged(slot, knownContent(slot));
        if (generation != m_generation)
            return;
        // Only for the receivers of this one signal: the bytes are not kept.
        m_slots[size_t(slot)].changedRead.reset();
    }
}

void DirectoryWatcher::poll()
{
    if (m_dir.isEmpty())
        return;
    const Probe dirNow = probe(m_dir);
    if (m_lost) {
        if (dirNow.directory)
            restore();
        return;
    }
    // A parent folder renamed or removed sends no event for this directory.
    if (!dirNow.directory || dirNow.device != m_dirProbe.device
        || dirNow.inode != m_dirProbe.inode) {
        scan();
        return;
    }
    // Nor does a file appearing at the far end of a symbolic link, or a
    // change on a file system without inotify: a cheap stat() of each slot
    // catches what events missed.
    bool moved = false;
    for (int slot = 0; slot < fileCount(); ++slot) {
        const Slot &s = m_slots[size_t(slot)];
        if (s.dirty)
            continue;
        const Probe now = probe(slotFile(slot));
        if (!s.hashed || *s.hashed != now) {
            markDirty(slot, false);
            moved = true;
        }
    }
    if (moved && !m_settle.isActive())
        m_settle.start();
}

void DirectoryWatcher::restore()
{
    m_lost = false;
    m_dirProbe = probe(m_dir);
    for (Slot &s : m_slots) {
        s.hashed.reset();
        s.watched.reset();
    }
    armAll();
    m_poll.start();
    const quint64 generation = m_generation;
    setWatching(true);
    if (generation != m_generation)
        return;
    Q_EMIT directoryRestored();
    if (generation != m_generation)
        return;
    // Compare every slot with what was last reported, once things settle.
    for (int slot = 0; slot < fileCount(); ++slot)
        markDirty(slot, true);
    m_settle.start();
}

void DirectoryWatcher::armSlot(int slot, const Probe &now)
{
    Slot &s = m_slots[size_t(slot)];
    const QString path = slotFile(slot);
    const bool inWatcher = m_watcher.files().contains(path);
    if (now.regular) {
        // An atomic save replaces the inode the watch was on; QFileSystemWatcher
        // drops a path whose file was deleted. Either way, watch it again.
        const bool sameFile = s.watched && s.watched->device == now.device
                              && s.watched->inode == now.inode;
        if (inWatcher && sameFile)
            return;
        if (inWatcher)
            m_watcher.removePath(path);
        if (m_watcher.addPath(path))
            s.watched = now;
        else
            s.watched.reset();
    } else {
        // A FIFO, device or folder is never watched as a file; the directory
        // watch sees it go.
        if (inWatcher)
            m_watcher.removePath(path);
        s.watched.reset();
    }
}

void DirectoryWatcher::armAll()
{
    // The folder, and each other folder a slot file is in (a layout's).
    QStringList dirs = {m_dir};
    for (const QString &path : m_paths) {
        const QString parent = QFileInfo(path).absolutePath();
        if (!dirs.contains(parent) && QFileInfo(parent).isDir())
            dirs.append(parent);
    }
    for (const QString &d : std::as_const(dirs)) {
        if (!m_watcher.directories().contains(d))
            m_watcher.addPath(d);
    }
    for (int slot = 0; slot < fileCount(); ++slot)
        armSlot(slot, probe(slotFile(slot)));
}

void DirectoryWatcher::disarm()
{
    const QStringList files = m_watcher.files();
    const QStringList dirs = m_watcher.directories();
    if (!files.isEmpty())
        m_watcher.removePaths(files);
    if (!dirs.isEmpty())
        m_watcher.removePaths(dirs);
    for (Slot &s : m_slots)
        s.watched.reset();
}

void DirectoryWatcher::enterLost(bool announce)
{
    disarm();
    m_lost = true;
    m_settle.stop();
    for (Slot &s : m_slots) {
        s.dirty = false;
        s.mustHash = false;
    }
    m_poll.start();
    const quint64 generation = m_generation;
    setWatching(false);
    if (announce && generation == m_generation)
        Q_EMIT directoryLost();
}

void DirectoryWatcher::setWatching(bool watching)
{
    if (m_watching == watching)
        return;
    m_watching = watching;
    Q_EMIT watchingChanged(watching);
}

} // namespace soul
