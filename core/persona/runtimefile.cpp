#include "runtimefile.h"

#include "disk/atomicwrite.h"
#include "disk/slotreader.h"
#include "lint.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSignalBlocker>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace soul {

namespace {

// As often as the slots' copies (PersonaModel).
constexpr int RecoveryIntervalMs = 2500;

} // namespace

RuntimeFile::RuntimeFile(QObject *parent)
    : QObject(parent)
{
    // Another program writing or removing the file: a clean buffer follows.
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &RuntimeFile::reload);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &RuntimeFile::reload);
    // Every change of the buffer or the disk passes through changed(); the
    // timer is not restarted, so under steady typing the copy is at most one
    // interval old.
    m_recoveryTimer.setSingleShot(true);
    m_recoveryTimer.setInterval(RecoveryIntervalMs);
    connect(&m_recoveryTimer, &QTimer::timeout, this, &RuntimeFile::flushRecovery);
    connect(this, &RuntimeFile::changed, this, &RuntimeFile::scheduleRecovery);
}

RuntimeFile::~RuntimeFile()
{
    // Whoever listens may be half destroyed with us.
    const QSignalBlocker blocker(this);
    flushRecovery();
}

void RuntimeFile::setName(const QString &name)
{
    if (name.isEmpty() || name == m_name)
        return;
    m_name = name;
    open(m_dir, m_keepRecovery);
}

QString RuntimeFile::filePath() const
{
    return isOpen() ? QDir(m_dir).filePath(m_name) : QString();
}

RuntimeFile::DiskRead RuntimeFile::readDisk() const
{
    DiskRead result;
    if (!isOpen())
        return result;
    // Read as the slots are: a FIFO, a device or a folder by that name is
    // never opened (a FIFO would block the window until something writes
    // to it), and a file over WholeReadLimitBytes is not taken into a pane.
    // The runtime reads such a path from disk itself, by its own rule.
    SlotRead read = readPath(filePath(), ReadOptions(WholeReadLimitBytes));
    result.presence = read.presence;
    if (read.presence == SlotPresence::Present && read.complete) {
        result.bytes = std::move(read.bytes);
        return result;
    }
    result.notReadable = read.presence != SlotPresence::Missing;
    result.phrase = read.presence == SlotPresence::Present ? tr("is larger than 64 MiB")
                                                           : absenceReason(read);
    if (read.presence == SlotPresence::Present) {
        result.unread = tr("%1 is larger than 64 MiB, so it is not opened here. Edit it with "
                           "another tool, or shorten it.")
                            .arg(m_name);
    } else {
        // The sentence the slots' lints give such a path.
        result.unread = skippedPathText(m_name, read.presence, absenceReason(read));
    }
    return result;
}

void RuntimeFile::open(const QString &dir, bool keepRecovery)
{
    if (!m_watcher.files().isEmpty() || !m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.files() + m_watcher.directories());
    // A copy this run kept stays in the store: reopened, it is an offer.
    m_recoveryTimer.stop();
    m_recovery.reset();
    m_recoveryKept.reset();
    m_recovered.reset();
    m_recoveryFailing = false;
    m_dir = dir;
    m_keepRecovery = keepRecovery;
    if (isOpen())
        m_watcher.addPath(dir);
    m_removed.reset();
    DiskRead read = readDisk();
    m_disk = std::move(read.bytes);
    m_unread = read.unread;
    m_unreadPhrase = read.phrase;
    if (m_disk)
        m_watcher.addPath(filePath());
    takeDisk();
    if (isOpen() && keepRecovery) {
        m_recovery.emplace(m_dir);
        m_recovered = m_recovery->pendingFile(m_name);
        // Saved after all (or the same text arrived another way).
        if (m_recovered && m_recovered->bytes == m_disk) {
            m_recovered.reset();
            m_recovery->removeFile(m_name);
        }
    }
    Q_EMIT opened();
    Q_EMIT recoveryChanged();
    Q_EMIT changed();
}

void RuntimeFile::close()
{
    if (m_recovery && !m_recovered)
        m_recovery->removeFile(m_name);
    open({});
}

QByteArray RuntimeFile::diskSha256() const
{
    return m_disk ? QCryptographicHash::hash(*m_disk, QCryptographicHash::Sha256).toHex()
                  : QByteArray();
}

bool RuntimeFile::recoveryPredatesDisk() const
{
    return m_recovered && m_recovered->diskSha256 != diskSha256();
}

void RuntimeFile::restoreRecovery()
{
    if (!m_recovered)
        return;
    const QByteArray bytes = m_recovered->bytes;
    // The store holds these bytes already; from here they are this run's copy.
    m_recoveryKept = KeptBuffer{bytes, m_recovered->diskSha256};
    m_recovered.reset();
    // The bytes bring their own BOM and line break; typing keeps them.
    takeBytes(bytes);
    Q_EMIT bufferReplaced();
    Q_EMIT recoveryChanged();
    Q_EMIT changed();
}

void RuntimeFile::discardRecovery()
{
    if (!m_recovered)
        return;
    m_recovered.reset();
    if (m_recovery)
        m_recovery->removeFile(m_name);
    m_recoveryKept.reset();
    Q_EMIT recoveryChanged();
    Q_EMIT changed();
}

void RuntimeFile::scheduleRecovery()
{
    if (!m_recovery)
        return;
    if (m_recovered && m_recovered->bytes == m_disk) {
        // The file now holds the recovered text: there is nothing to offer.
        m_recovered.reset();
        m_recovery->removeFile(m_name);
        Q_EMIT recoveryChanged();
    }
    if (!m_recoveryTimer.isActive())
        m_recoveryTimer.start();
}

void RuntimeFile::flushRecovery()
{
    m_recoveryTimer.stop();
    // An offer owns the file's entry until the user answers it.
    if (!m_recovery || m_recovered)
        return;
    const Status status
        = m_recovery->sync(m_name, m_recoveryKept, dirty() ? m_buffer : std::nullopt, diskSha256());
    if (!status && !m_recoveryFailing) {
        m_recoveryFailing = true;
        Q_EMIT recoveryFailed(status.error());
    } else if (status) {
        m_recoveryFailing = false;
    }
}

void RuntimeFile::takeDisk()
{
    m_conflict = ConflictState::None;
    takeBytes(m_disk);
}

void RuntimeFile::takeBytes(const std::optional<QByteArray> &bytes)
{
    m_buffer = bytes;
    m_obstacles.clear();
    if (bytes) {
        EditorText text = toEditorText(*bytes);
        m_format = text.format;
        m_obstacles = std::move(text.obstacles);
    }
}

QString RuntimeFile::paneText() const
{
    return m_buffer ? toEditorText(*m_buffer).text : QString();
}

void RuntimeFile::setBufferText(QStringView rawText)
{
    // Recovered text waits for the user's answer, and bytes a pane cannot
    // keep are not edited here: the pane is read-only.
    if (m_recovered || !m_obstacles.isEmpty())
        return;
    const QByteArray bytes = fromEditorText(rawText, m_format);
    if (m_buffer == bytes)
        return;
    m_buffer = bytes;
    Q_EMIT changed();
}

void RuntimeFile::setBufferBytes(const QByteArray &bytes)
{
    if (m_recovered || m_buffer == bytes)
        return;
    takeBytes(bytes);
    Q_EMIT bufferReplaced();
    Q_EMIT changed();
}

void RuntimeFile::reload()
{
    if (!isOpen())
        return;
    DiskRead read = readDisk();
    const std::optional<QByteArray> &now = read.bytes;
    if (now && !m_watcher.files().contains(filePath()))
        m_watcher.addPath(filePath());
    const bool unreadChanged = read.unread != m_unread;
    m_unread = read.unread;
    m_unreadPhrase = read.phrase;
    if (now == m_disk) {
        if (unreadChanged)
            Q_EMIT changed();
        return;
    }
    const bool follow = !dirty();
    m_disk = now;
    if (follow) {
        takeDisk();
        if (m_disk)
            m_removed.reset(); // a file is there again: nothing to restore
        Q_EMIT bufferReplaced();
    } else if (dirty()) {
        // Unsaved text is kept; the user settles it (keepMine(), revert(),
        // save()), as a slot's. A file too large to open is no text to
        // compare with: not read.
        m_conflict = !m_disk && read.presence == SlotPresence::Present
                         ? ConflictState::NotReadableOnDisk
                         : conflictWithDisk(read.presence, read.phrase);
    } else {
        m_conflict = ConflictState::None; // the disk now holds the text
    }
    Q_EMIT changed();
}

void RuntimeFile::keepMine()
{
    if (m_conflict == ConflictState::None)
        return;
    m_conflict = ConflictState::None;
    Q_EMIT changed();
}

StaleReason RuntimeFile::staleness() const
{
    if (const StaleReason known = staleReasonOf(m_conflict); known != StaleReason::None)
        return known;
    // The watcher may not have told us yet.
    const DiskRead now = readDisk();
    return staleReasonOf(m_disk.has_value(), now.presence, now.bytes == m_disk);
}

void RuntimeFile::revert()
{
    if (!dirty())
        return;
    takeDisk();
    Q_EMIT bufferReplaced();
    Q_EMIT changed();
}

SaveResult RuntimeFile::save(SaveMode mode)
{
    if (!isOpen() || !m_buffer)
        return Status::failure(tr("Nothing to save for %1.").arg(m_name));
    if (mode == SaveMode::CheckDisk) {
        if (const StaleReason reason = staleness(); reason != StaleReason::None) {
            // As a slot's save (PersonaModel::save()): show what is there
            // now, the bar and the bytes Compare shows, before the watcher
            // says so.
            if (m_conflict == ConflictState::None)
                reload();
            if (!dirty())
                return {}; // the file now holds exactly the buffer
            return SaveResult::stale(reason,
                                     staleSaveText(QDir::toNativeSeparators(filePath()), reason));
        }
    }
    Status written = writeFileAtomically(filePath(), *m_buffer);
    if (!written)
        return written;
    m_disk = m_buffer;
    m_unread.clear();
    m_unreadPhrase.clear();
    m_conflict = ConflictState::None;
    m_removed.reset();
    if (!m_watcher.files().contains(filePath()))
        m_watcher.addPath(filePath());
    Q_EMIT changed();
    return written;
}

Status RuntimeFile::finish()
{
    if (!isOpen() || !m_disk)
        return Status::failure(
            tr("%1 is not in the folder: there is nothing to delete.").arg(m_name));
    if (dirty())
        return Status::failure(tr("%1 has unsaved edits: save or drop them first, then finish "
                                  "setup.")
                                   .arg(m_name));
    const QString path = filePath();
    if (::unlink(QFile::encodeName(path).constData()) != 0) {
        const int error = errno;
        return Status::failure(tr("Could not delete %1, so setup is not finished and the file "
                                  "is kept: %2. %3.")
                                   .arg(QDir::toNativeSeparators(path),
                                        QString::fromLocal8Bit(std::strerror(error)),
                                        writeErrorAdvice(error)));
    }
    m_removed = m_disk;
    m_disk.reset();
    m_buffer.reset();
    Q_EMIT bufferReplaced();
    Q_EMIT changed();
    return {};
}

Status RuntimeFile::restore()
{
    if (!isOpen() || !m_removed)
        return Status::failure(tr("There is no deleted %1 to restore.").arg(m_name));
    Status written = writeFileAtomically(filePath(), *m_removed, Overwrite::Never);
    if (!written)
        return written;
    m_disk = m_removed;
    m_removed.reset();
    takeDisk();
    Q_EMIT bufferReplaced();
    Q_EMIT changed();
    return written;
}

} // namespace soul
