#include "personamodel.h"

#include "disk/atomicwrite.h"
#include "disk/directorywatcher.h"
#include "disk/slotsaver.h"
#include "inspection.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLockFile>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <unistd.h>

#include <thread>
#include <utility>

namespace soul {

namespace {

// Often enough that a crash loses only the last seconds of typing, seldom
// enough that writing copies never competes with typing.
constexpr int DefaultRecoveryIntervalMs = 2500;
// How long a close, an open or a discarded offer waits for the recovery
// copies on their way before touching the store itself.
constexpr int RecoveryWaitMs = 5000;
// A kept copy whose write failed: it matches no buffer, so the next change
// writes (or removes) it again.
const QByteArray UnknownCopy = QByteArrayLiteral("unknown");

// Every recovery copy of the program is written on this one thread, in the
// order asked: two models never write one store's index at once, and a
// model's copies land in the order its buffers changed.
class RecoveryThread : public QThreadPool
{
public:
    RecoveryThread() { setMaxThreadCount(1); }
};
QThreadPool *recoveryThread()
{
    static RecoveryThread thread;
    return &thread;
}

// The copies on their way are on disk, or RecoveryWaitMs passed.
bool waitForRecoveryWrites()
{
    return recoveryThread()->waitForDone(RecoveryWaitMs);
}

QByteArray sha256Hex(QByteArrayView bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

// The buffer takes what is on disk, and with it the file's format and whether
// the file can be edited in a pane at all.
void takeDisk(SlotState &state, QString *paneText)
{
    if (paneText)
        *paneText = QString();
    state.bufferPresent = state.diskPresent();
    state.bufferBytes = state.bufferPresent ? state.diskBytes : QByteArray();
    state.dirty = false;
    state.conflict = ConflictState::None;
    state.readOnly = false;
    state.readOnlyReason.clear();
    state.canEditAnyway = false;
    state.format = TextFormat();
    state.obstacles.clear();
    if (!state.diskPresent())
        return;
    if (!state.diskComplete) {
        state.readOnly = true;
        state.readOnlyReason = PersonaModel::tr(
            "This file is larger than 64 MiB, so it opens read-only and is "
            "not read whole. Edit it with another tool.");
        return;
    }
    EditorText text = toEditorText(state.diskBytes);
    if (paneText)
        *paneText = std::move(text.text);
    state.format = text.format;
    state.obstacles = text.obstacles;
    if (!text.roundTrips()) {
        state.readOnly = true;
        state.canEditAnyway = true;
        state.readOnlyReason = text.obstacles.join(QLatin1Char(' '));
    }
}

bool sameDisk(const SlotState &a, const SlotState &b)
{
    return a.presence == b.presence && a.absenceReason == b.absenceReason
           && a.diskSize == b.diskSize && a.diskSha256 == b.diskSha256
           && a.diskBytes == b.diskBytes;
}

} // namespace

PersonaModel::PersonaModel(QObject *parent)
    : PersonaModel(ComposeRule::toolnexus(), parent)
{}

PersonaModel::PersonaModel(ComposeRule rule, QObject *parent)
    : QObject(parent)
    , m_rule(std::move(rule))
    , m_watcher(new DirectoryWatcher(m_rule.readLimit(), this))
{
    resetDocuments();
    connect(m_watcher, &DirectoryWatcher::slotChanged, this, [this](int slot, const QByteArray &) {
        // While the folder is gone every buffer stays as it is; the
        // slots are read again when it comes back.
        if (!m_directoryLost)
            applyDiskChange(slot, m_watcher->takeChangedRead(slot));
    });
    connect(m_watcher, &DirectoryWatcher::directoryLost, this, [this] {
        m_directoryLost = true;
        Q_EMIT directoryLostChanged(true);
    });
    connect(m_watcher, &DirectoryWatcher::directoryRestored, this, [this] {
        m_directoryLost = false;
        for (int k = 0; k < documentCount(); ++k)
            applyDiskChange(k);
        Q_EMIT directoryLostChanged(false);
    });
    connect(m_watcher, &DirectoryWatcher::watchingChanged, this, &PersonaModel::watchingChanged);

    // Every change of a slot's buffer, disk or dirty state passes through
    // slotStateChanged, so the recovery copy follows all of them from here.
    // The timer is not restarted by later changes: under steady typing the
    // copy is still at most one interval old.
    m_recoveryTimer.setSingleShot(true);
    m_recoveryTimer.setInterval(DefaultRecoveryIntervalMs);
    connect(&m_recoveryTimer, &QTimer::timeout, this, &PersonaModel::writeRecovery);
    connect(this, &PersonaModel::slotStateChanged, this, &PersonaModel::scheduleRecovery);
}

// Ending without close() is ending without the user's answer about unsaved
// buffers: they are kept for recovery, up to the last change.
PersonaModel::~PersonaModel()
{
    // Whoever listens may be half destroyed with us; a failure here has
    // nobody left to tell.
    const QSignalBlocker blocker(this);
    flushRecovery();
}

Status PersonaModel::open(const QString &dir)
{
    const QString problem = checkDirectory(dir);
    if (!problem.isEmpty())
        return Status::failure(problem);
    openChecked(SlotLayout::folder(dir));
    return {};
}

Status PersonaModel::open(const SlotLayout &layout)
{
    QStringList dirs = {layout.directory};
    if (!layout.project.isEmpty())
        dirs.append(layout.project);
    for (const QString &dir : std::as_const(dirs)) {
        const QString problem = checkDirectory(dir);
        if (!problem.isEmpty())
            return Status::failure(problem);
    }
    openChecked(layout);
    return {};
}

void PersonaModel::openChecked(SlotLayout layout)
{
    close();
    m_layout = std::move(layout);
    m_dir = QFileInfo(m_layout.directory).absoluteFilePath();
    m_layout.directory = m_dir;
    m_directoryLost = false;
    // The watcher's baseline is this read: the files are not hashed twice.
    // Reading, hashing and decoding a slot touch only its own state, so a
    // second thread takes every other file while this one takes the rest:
    // seven files of 2 MiB open in about half the time on two cores.
    std::array<std::optional<SlotRead>, SlotCount> reads;
    std::atomic<int> next{0};
    auto readSlots = [&] {
        for (int k = next++; k < SlotCount; k = next++) {
            SlotState &state = m_slots[size_t(k)];
            state = SlotState();
            readFromDisk(k, state, &reads[size_t(k)]);
            takeDisk(state, &m_paneTextCache[size_t(k)]);
        }
    };
    if (QThread::idealThreadCount() > 1) {
        std::thread helper(readSlots);
        readSlots();
        helper.join();
    } else {
        readSlots();
    }
    std::vector<QString> paths(m_layout.paths.begin(), m_layout.paths.end());
    std::vector<std::optional<SlotRead>> watched(reads.begin(), reads.end());
    // The added documents after the slots, numbered as the watcher numbers them.
    for (int k = SlotCount; k < documentCount() && m_layout.isFolder(); ++k) {
        SlotState &state = m_slots[size_t(k)];
        state = SlotState();
        watched.emplace_back();
        readFromDisk(k, state, &watched.back());
        takeDisk(state, &m_paneTextCache[size_t(k)]);
        paths.push_back(slotFilePath(k));
    }
    for (int k = 0; k < SlotCount; ++k) {
        recomputeOnDisk(k);
        recomputeUnsaved(k);
    }
    openRecovery();
    m_watcher->setFiles(m_dir, paths, watched);
    touchRefresh();
    Q_EMIT opened(m_dir);
}

void PersonaModel::close()
{
    if (m_dir.isEmpty())
        return;
    m_watcher->clear();
    m_recoveryTimer.stop();
    if (m_recovery) {
        // Closing is the user's answer about unsaved text: the copies go.
        // An added document's copy that a previous run left and nobody
        // answered yet stays (its pane may show only under a runtime that
        // reads the file), and the next open offers it again. Failing to
        // remove one only leaves a copy that the next open offers again.
        // The lock goes after the removals, on the recovery thread; a slow
        // disk leaves them on their way, in order.
        std::vector<RecoveryWrite> removals;
        for (int k = 0; k < documentCount(); ++k) {
            if (k < SlotCount || !m_recovered[size_t(k)])
                removals.push_back({recoveryKey(k), std::nullopt, {}});
        }
        postRecovery(std::move(removals), std::exchange(m_recoveryLock, {}));
        waitForRecoveryWrites();
        m_recovery.reset();
    }
    ++m_recoveryGeneration;
    m_recoveryLock.reset();
    m_recoveryUnavailable.clear();
    m_recoveryFailing = false;
    m_dir.clear();
    m_layout = SlotLayout();
    m_directoryLost = false;
    resetDocuments();
    Q_EMIT closed();
}

void PersonaModel::resetDocuments()
{
    const auto count = size_t(SlotCount + m_documents.size());
    m_slots.assign(count, SlotState());
    m_sections.assign(count, Sections());
    m_paneTextCache.assign(count, QString());
    m_deleted.assign(count, std::nullopt);
    m_recoveryDue.assign(count, false);
    m_recoveryKept.assign(count, std::nullopt);
    m_recovered.assign(count, std::nullopt);
}

int PersonaModel::documentIndex(const QString &relativePath) const
{
    const qsizetype at = m_documents.indexOf(QDir::cleanPath(relativePath));
    return at < 0 ? -1 : SlotCount + int(at);
}

int PersonaModel::addDocument(const QString &relativePath)
{
    const QString path = QDir::cleanPath(relativePath);
    if (relativePath.isEmpty() || QDir::isAbsolutePath(path) || path == QLatin1String("..")
        || path.startsWith(QLatin1String("../")) || path == QLatin1String("."))
        return -1;
    if (slotIndex(path) >= 0)
        return -1;
    if (const int known = documentIndex(path); known >= 0)
        return known;
    m_documents.append(path);
    const int k = documentCount();
    m_slots.emplace_back();
    m_sections.emplace_back();
    m_paneTextCache.emplace_back();
    m_deleted.emplace_back();
    m_recoveryDue.push_back(false);
    m_recoveryKept.emplace_back();
    m_recovered.emplace_back();
    if (!isDocumentOpen(k))
        return k;
    SlotState &state = m_slots[size_t(k)];
    std::optional<SlotRead> read;
    readFromDisk(k, state, &read);
    takeDisk(state, &m_paneTextCache[size_t(k)]);
    m_watcher->addFile(slotFilePath(k), read);
    if (m_recovery)
        offerRecovered(k, m_recovery->pendingFile(recoveryKey(k)));
    Q_EMIT bufferReplaced(k);
    Q_EMIT slotStateChanged(k);
    if (m_recovered[size_t(k)])
        Q_EMIT recoveryChanged(k);
    return k;
}

bool PersonaModel::isDocumentOpen(int slot) const
{
    if (!isOpen() || slot < 0 || slot >= documentCount())
        return false;
    return slot < SlotCount || m_layout.isFolder();
}

QString PersonaModel::recoveryKey(int slot) const
{
    return slot < SlotCount ? slotName(slot) : m_documents.at(slot - SlotCount);
}

bool PersonaModel::isWatching() const
{
    return m_watcher->isWatching();
}

QString PersonaModel::paneText(int slot) const
{
    const SlotState &state = m_slots.at(size_t(slot));
    QString cached = std::exchange(m_paneTextCache[size_t(slot)], QString());
    if (!state.bufferPresent || (state.readOnly && !state.canEditAnyway))
        return {};
    if (!cached.isNull())
        return cached;
    return toEditorText(state.bufferBytes).text;
}

bool PersonaModel::hasUnsaved() const
{
    for (const SlotState &state : m_slots) {
        if (state.dirty)
            return true;
    }
    return false;
}

QList<int> PersonaModel::unsavedDocuments() const
{
    QList<int> documents;
    for (int k = 0; k < documentCount(); ++k) {
        if (m_slots[size_t(k)].dirty)
            documents.append(k);
    }
    return documents;
}

QList<int> PersonaModel::unsavedSlots() const
{
    QList<int> slots;
    for (int k = 0; k < SlotCount; ++k) {
        if (m_slots[size_t(k)].dirty)
            slots.append(k);
    }
    return slots;
}

void PersonaModel::setBufferText(int slot, QStringView rawText)
{
    const SlotState &state = m_slots.at(size_t(slot));
    if (!state.bufferPresent || state.readOnly || hasRecovery(slot))
        return;
    QByteArray bytes = fromEditorText(rawText, state.format);
    if (bytes == state.bufferBytes)
        return;
    setBuffer(slot, bytes, true);
    Q_EMIT bufferEdited(slot);
}

void PersonaModel::createSlot(int slot, const QByteArray &bytes)
{
    SlotState &state = m_slots.at(size_t(slot));
    if (state.bufferPresent)
        return;
    state.format = TextFormat();
    state.obstacles.clear();
    state.readOnly = false;
    state.readOnlyReason.clear();
    state.canEditAnyway = false;
    setBuffer(slot, bytes, true);
    Q_EMIT bufferReplaced(slot);
}

void PersonaModel::setBuffer(int slot, const QByteArray &bytes, bool present)
{
    SlotState &state = m_slots.at(size_t(slot));
    if (state.bufferPresent == present && state.bufferBytes == bytes)
        return;
    m_paneTextCache[size_t(slot)] = QString();
    state.bufferPresent = present;
    state.bufferBytes = present ? bytes : QByteArray();
    const bool sameAsDisk = present ? (state.diskPresent() && state.diskComplete
                                       && state.bufferBytes == state.diskBytes)
                                    : !state.diskPresent();
    state.dirty = !sameAsDisk;
    if (!state.dirty)
        state.conflict = ConflictState::None;
    recomputeUnsaved(slot);
    Q_EMIT slotStateChanged(slot);
    if (slot < SlotCount)
        Q_EMIT sectionChanged(slot);
}

SaveResult PersonaModel::save(int slot, SaveMode mode)
{
    SlotState &state = m_slots.at(size_t(slot));
    if (!isOpen())
        return Status::failure(tr("No persona folder is open."));
    if (!state.dirty)
        return {};
    if (!isDocumentOpen(slot))
        return Status::failure(tr("%1 is saved only in a persona folder.").arg(slotLabel(slot)));
    const QString path = slotFilePath(slot);
    if (m_directoryLost) {
        // Writing would recreate a lone file where the folder was; the user
        // decides where the persona goes instead.
        return Status::failure(
            tr("Could not save %1: its folder was removed or renamed. Use \"Save all "
               "elsewhere\" on the red bar, or put the folder back.")
                .arg(QDir::toNativeSeparators(path)));
    }
    if (!state.bufferPresent) {
        // A buffer the user discarded while the file stayed on disk cannot be
        // "saved": there is nothing to write and we never delete a slot.
        revert(slot);
        return {};
    }
    if (state.readOnly && !state.canEditAnyway)
        return Status::failure(tr("%1 is read-only here: %2").arg(path, state.readOnlyReason));
    if (mode == SaveMode::CheckDisk) {
        const StaleReason stale = staleness(slot);
        if (stale != StaleReason::None) {
            // Show what is there now: the bar, and the bytes Compare shows.
            if (state.conflict == ConflictState::None)
                applyDiskChange(slot);
            if (!state.dirty)
                return {}; // the file now holds exactly the buffer
            return SaveResult::stale(stale, staleText(slot, stale));
        }
    }
    if (Status made = makeRuntimeFolder(path); !made)
        return made;
    const Status saved = saveSlotFile(path, state.bufferBytes);
    if (!saved)
        return saved;

    const QByteArray digest = sha256Hex(state.bufferBytes);
    m_watcher->expectContent(slot, digest);
    m_deleted[size_t(slot)].reset(); // a file is there again: nothing to restore
    state.presence = SlotPresence::Present;
    state.absenceReason.clear();
    state.diskBytes = state.bufferBytes;
    state.diskSize = state.diskBytes.size();
    state.diskComplete = true;
    state.diskSha256 = digest;
    state.obstacles.clear();
    state.dirty = false;
    state.conflict = ConflictState::None;
    state.readOnly = false;
    state.readOnlyReason.clear();
    state.canEditAnyway = false;
    recomputeOnDisk(slot);
    recomputeUnsaved(slot);
    touchRefresh();
    Q_EMIT slotStateChanged(slot);
    if (slot < SlotCount)
        Q_EMIT sectionChanged(slot);
    return saved; // with its warning, if any
}

SaveResult PersonaModel::saveAll(SaveMode mode)
{
    QString warnings;
    for (int k = 0; k < documentCount(); ++k) {
        SaveResult s = save(k, mode);
        if (!s)
            return s;
        warnings = joinedWarnings(warnings, s.warning());
    }
    return Status::withWarning(warnings);
}

StaleReason PersonaModel::staleness(int slot) const
{
    const SlotState &state = m_slots.at(size_t(slot));
    if (!isDocumentOpen(slot))
        return StaleReason::None;
    if (const StaleReason known = staleReasonOf(state.conflict); known != StaleReason::None)
        return known;
    // The model's digest is the one record of what the buffer came from;
    // the file is hashed once here, streamed, to compare with it.
    ReadOptions options(0);
    options.sha256 = true;
    const SlotRead now = readSlotFile(slot, options);
    return staleReasonOf(state.diskPresent(), now.presence, now.sha256 == state.diskSha256);
}

ConflictState conflictWithDisk(SlotPresence now, const QString &reason)
{
    if (now == SlotPresence::Present)
        return ConflictState::ChangedOnDisk;
    // "Deleted" would offer to write the buffer there again, which a FIFO
    // or a directory in the way does not allow.
    const bool gone = now == SlotPresence::Missing
                      || (now == SlotPresence::DanglingLink
                          && reason != QLatin1String(LinkLoopReason));
    return gone ? ConflictState::DeletedOnDisk : ConflictState::NotReadableOnDisk;
}

StaleReason staleReasonOf(ConflictState conflict)
{
    switch (conflict) {
    case ConflictState::ChangedOnDisk:
        return StaleReason::ChangedOnDisk;
    case ConflictState::DeletedOnDisk:
        return StaleReason::DeletedOnDisk;
    case ConflictState::NotReadableOnDisk: // what is there now decides
    case ConflictState::None:
        break;
    }
    return StaleReason::None;
}

StaleReason staleReasonOf(bool wasPresent, SlotPresence now, bool sameBytes)
{
    const bool presentNow = now == SlotPresence::Present;
    if (!wasPresent)
        return presentNow ? StaleReason::CreatedOnDisk : StaleReason::None;
    if (!presentNow)
        return now == SlotPresence::Missing || now == SlotPresence::DanglingLink
                   ? StaleReason::DeletedOnDisk
                   : StaleReason::ChangedOnDisk;
    return sameBytes ? StaleReason::None : StaleReason::ChangedOnDisk;
}

QString PersonaModel::staleText(int slot, StaleReason reason) const
{
    return staleSaveText(QDir::toNativeSeparators(slotFilePath(slot)), reason);
}

QString staleSaveText(const QString &path, StaleReason reason)
{
    switch (reason) {
    case StaleReason::DeletedOnDisk:
        return PersonaModel::tr(
                   "%1 was deleted on disk since you opened it. Saving would create it again; "
                   "nothing was written.")
            .arg(path);
    case StaleReason::CreatedOnDisk:
        return PersonaModel::tr(
                   "%1 was created on disk by another program since you started it here. "
                   "Saving would replace that file; nothing was written.")
            .arg(path);
    case StaleReason::ChangedOnDisk:
    case StaleReason::None:
        break;
    }
    return PersonaModel::tr(
               "%1 was changed on disk by another program since you opened it. Saving would "
               "replace that change; nothing was written.")
        .arg(path);
}

Status PersonaModel::saveAllTo(const QString &dir)
{
    if (!isOpen())
        return Status::failure(tr("No persona folder is open."));
    const QString target = QFileInfo(dir).absoluteFilePath();
    const QString shown = QDir::toNativeSeparators(target);
    // The slots' names, then the added documents that have text to take.
    const auto targetOf = [&](int k) {
        return k < SlotCount ? slotPath(target, k) : QDir(target).filePath(recoveryKey(k));
    };
    for (int k = 0; k < documentCount(); ++k) {
        if (k >= SlotCount && (!isDocumentOpen(k) || !m_slots[size_t(k)].bufferPresent))
            continue;
        const QFileInfo existing(targetOf(k));
        if (existing.exists() || existing.isSymLink()) {
            return Status::failure(
                tr("%1 already exists, and saving elsewhere never overwrites a file. Pick an "
                   "empty folder, or one without persona files.")
                    .arg(QDir::toNativeSeparators(existing.filePath())));
        }
        const SlotState &state = m_slots[size_t(k)];
        if (state.bufferPresent && !state.diskComplete && !state.dirty) {
            return Status::failure(
                tr("%1 is larger than 64 MiB and was not read whole, so it cannot be saved "
                   "elsewhere. Copy that file with another tool.")
                    .arg(slotLabel(k)));
        }
    }
    if (!QFileInfo(target).isDir() && !QDir().mkpath(target)) {
        return Status::failure(
            tr("Could not create the folder %1. Check that its parent folder is writable.")
                .arg(shown));
    }
    QString warnings;
    for (int k = 0; k < documentCount(); ++k) {
        const SlotState &state = m_slots[size_t(k)];
        if (!state.bufferPresent || !isDocumentOpen(k))
            continue;
        const QString to = targetOf(k);
        if (k >= SlotCount && !QDir().mkpath(QFileInfo(to).absolutePath())) {
            return Status::failure(
                tr("Could not create the folder %1. Check that its parent folder is writable.")
                    .arg(QDir::toNativeSeparators(QFileInfo(to).absolutePath())));
        }
        // Never: a slot file another program puts there after the look above
        // stays, and the save stops.
        const Status saved = saveSlotFile(to, state.bufferBytes, Overwrite::Never);
        if (!saved)
            return saved;
        warnings = joinedWarnings(warnings, saved.warning());
    }
    // Every buffer is now a file of `target`, so opening it drops nothing.
    Status opened = open(target);
    opened.addWarning(warnings);
    return opened;
}

void PersonaModel::revert(int slot)
{
    SlotState &state = m_slots.at(size_t(slot));
    takeDisk(state, &m_paneTextCache[size_t(slot)]);
    recomputeUnsaved(slot);
    Q_EMIT bufferReplaced(slot);
    Q_EMIT slotStateChanged(slot);
    if (slot < SlotCount)
        Q_EMIT sectionChanged(slot);
}

void PersonaModel::keepMine(int slot)
{
    SlotState &state = m_slots.at(size_t(slot));
    if (state.conflict == ConflictState::None)
        return;
    state.conflict = ConflictState::None;
    Q_EMIT slotStateChanged(slot);
}

Status PersonaModel::makeRuntimeFolder(const QString &path) const
{
    const QString folder = QFileInfo(path).absolutePath();
    // An added document's folder inside the persona folder (skills/NAME) is
    // made for it; the persona folder itself never is.
    if (m_documents.contains(QDir(m_dir).relativeFilePath(path)) && !QFileInfo(folder).isDir()
        && QFileInfo(m_dir).isDir()) {
        if (QDir().mkpath(folder))
            return {};
        return Status::failure(tr("Could not save %1: the folder %2 could not be created. Check "
                                  "that %3 is writable.")
                                   .arg(QDir::toNativeSeparators(path),
                                        QDir::toNativeSeparators(folder),
                                        QDir::toNativeSeparators(m_dir)));
    }
    if (!m_layout.madeFolders.contains(folder) || QFileInfo(folder).isDir())
        return {};
    // mkdir, not mkpath: the folder above it was there when this opened,
    // and nothing else is made if it is gone.
    if (QDir().mkdir(folder))
        return {};
    return Status::failure(
        tr("Could not save %1: the folder %2 is missing and could not be created. Check that "
           "%3 exists and is writable, or run the runtime once so that it makes the folder.")
            .arg(QDir::toNativeSeparators(path),
                 QDir::toNativeSeparators(folder),
                 QDir::toNativeSeparators(QFileInfo(folder).absolutePath())));
}

QString PersonaModel::slotFilePath(int slot) const
{
    if (slot < SlotCount)
        return m_layout.paths.at(size_t(slot));
    return isDocumentOpen(slot) ? QDir(m_dir).filePath(recoveryKey(slot)) : QString();
}

QString PersonaModel::slotLabel(int slot) const
{
    if (slot >= SlotCount)
        return recoveryKey(slot);
    return isOpen() ? m_layout.labels.at(size_t(slot)) : slotName(slot);
}

SlotRead PersonaModel::readSlotFile(int slot, const ReadOptions &options) const
{
    SlotRead read = readPath(slotFilePath(slot), options);
    read.slot = slot;
    return read;
}

QString PersonaModel::caseVariant(int slot) const
{
    // A runtime's own layout names its files itself; another case is
    // another file there, not a misspelt slot.
    if (!isOpen() || !m_layout.isFolder() || slot >= SlotCount)
        return {};
    const QString name = slotName(slot);
    const QStringList entries = QDir(m_dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                          | QDir::NoDotAndDotDot,
                                                      QDir::Name);
    for (const QString &entry : entries) {
        if (entry != name && entry.compare(name, Qt::CaseInsensitive) == 0)
            return entry;
    }
    return {};
}

Status PersonaModel::renameCaseVariant(int slot)
{
    const QString name = slotName(slot);
    const QString variant = caseVariant(slot);
    if (variant.isEmpty()) {
        return Status::failure(
            tr("There is no file named like %1 in other letter case any more.").arg(name));
    }
    const QString from = QDir(m_dir).filePath(variant);
    const QString to = slotFilePath(slot);
    // link() never replaces what is there, so a file that appeared at the
    // new name since the check stays as it is; then the old name goes.
    const QByteArray nativeFrom = QFile::encodeName(from);
    const QByteArray nativeTo = QFile::encodeName(to);
    if (::link(nativeFrom.constData(), nativeTo.constData()) != 0) {
        const int error = errno;
        if (error == EEXIST) {
            return Status::failure(tr("Could not rename %1 to %2: %2 exists now. Merge the two "
                                      "files by hand.")
                                       .arg(variant, name));
        }
        return Status::failure(
            tr("Could not rename %1 to %2 (%3). Rename it with another tool.")
                .arg(variant, name, QString::fromLocal8Bit(std::strerror(error))));
    }
    if (::unlink(nativeFrom.constData()) != 0) {
        const int error = errno;
        applyDiskChange(slot);
        return Status::failure(
            tr("%1 now also has the name %2, but the old name could not be "
               "removed (%3). Delete %1 by hand.")
                .arg(variant, name, QString::fromLocal8Bit(std::strerror(error))));
    }
    applyDiskChange(slot);
    return {};
}

void PersonaModel::editAnyway(int slot)
{
    SlotState &state = m_slots.at(size_t(slot));
    if (!state.readOnly || !state.canEditAnyway)
        return;
    state.readOnly = false;
    state.readOnlyReason.clear();
    state.canEditAnyway = false;
    Q_EMIT slotStateChanged(slot);
}

std::optional<QByteArray> PersonaModel::section(int slot, SoulView view) const
{
    const Sections &s = m_sections.at(size_t(slot));
    return view == SoulView::Unsaved ? s.unsaved : s.onDisk;
}

bool PersonaModel::truncated(int slot, SoulView view) const
{
    const Sections &s = m_sections.at(size_t(slot));
    return view == SoulView::Unsaved ? s.unsavedTruncated : s.onDiskTruncated;
}

qint64 PersonaModel::sizeIn(int slot, SoulView view) const
{
    const SlotState &state = m_slots.at(size_t(slot));
    if (view == SoulView::Unsaved) {
        if (!state.bufferPresent)
            return -1;
        // A clean buffer of a file not read whole holds only its first bytes;
        // the file is as large as the disk says.
        if (!state.dirty && state.diskPresent() && !state.diskComplete)
            return qMax<qint64>(state.diskSize, state.bufferBytes.size());
        return state.bufferBytes.size();
    }
    return state.diskPresent() ? state.diskSize : -1;
}

QByteArray PersonaModel::soul(SoulView view) const
{
    QByteArray out;
    out.reserve(soulSize(view));
    for (const int k : m_rule.order) {
        const std::optional<QByteArray> s = section(k, view);
        if (!s)
            continue;
        if (!out.isEmpty())
            out.append(m_rule.sectionJoin);
        out.append(*s);
    }
    return out;
}

QStringList PersonaModel::found(SoulView view) const
{
    QStringList names;
    for (const int k : m_rule.order) {
        if (section(k, view))
            names.append(slotName(k));
    }
    return names;
}

qint64 PersonaModel::soulSize(SoulView view) const
{
    qint64 size = 0;
    int count = 0;
    for (const int k : m_rule.order) {
        if (const std::optional<QByteArray> s = section(k, view)) {
            size += s->size();
            ++count;
        }
    }
    return count > 0 ? size + qint64(count - 1) * m_rule.sectionJoin.size() : 0;
}

HeldReads PersonaModel::heldReads() const
{
    HeldReads held;
    for (int k = 0; k < SlotCount; ++k) {
        const SlotState &state = m_slots.at(size_t(k));
        if (state.diskPresent() && !state.diskSha256.isEmpty())
            held[size_t(k)]
                = HeldRead{state.diskSha256, state.diskSize, state.diskBytes, state.diskComplete};
    }
    return held;
}

void PersonaModel::readFromDisk(int slot,
                                SlotState &state,
                                std::optional<SlotRead> *kept,
                                std::optional<SlotRead> given) const
{
    const QString path = slotFilePath(slot);
    SlotRead read;
    if (path.isEmpty()) {
        // An added document outside a persona folder: as a file not there.
        read.slot = slot;
    } else if (given) {
        // The watcher's read that found the change: the same read as below.
        read = std::move(*given);
        if (read.presence == SlotPresence::Present && !read.complete)
            read.bytes.truncate(m_rule.readLimit());
    } else if (const QFileInfo info(path); info.isFile() && info.size() > WholeReadLimitBytes) {
        // Only what the agent can get is read; the rest is never loaded.
        read = readSlotFile(slot, ReadOptions(m_rule.readLimit()));
    } else {
        ReadOptions options(WholeReadLimitBytes + 1);
        options.sha256 = true;
        read = readSlotFile(slot, options);
        if (read.presence == SlotPresence::Present && !read.complete) {
            // It grew past the limit while we read it.
            read.bytes.truncate(m_rule.readLimit());
        }
    }
    state.presence = read.presence;
    state.absenceReason = absenceReason(read);
    state.diskSize = read.presence == SlotPresence::Present ? read.size : -1;
    state.diskBytes = read.bytes;
    state.diskComplete = read.complete;
    state.diskSha256 = read.sha256;
    if (kept) {
        read.bytes.clear();
        *kept = std::move(read);
    }
}

void PersonaModel::applyDiskChange(int slot, std::optional<SlotRead> given)
{
    if (!isDocumentOpen(slot))
        return;
    SlotState &state = m_slots.at(size_t(slot));
    SlotState fresh = state;
    readFromDisk(slot, fresh, nullptr, std::move(given));
    if (sameDisk(state, fresh))
        return;
    if (fresh.diskPresent())
        m_deleted[size_t(slot)].reset(); // a file is there again: nothing to restore

    if (!state.dirty) {
        // A clean pane follows the disk silently.
        takeDisk(fresh, &m_paneTextCache[size_t(slot)]);
        state = std::move(fresh);
        recomputeOnDisk(slot);
        recomputeUnsaved(slot);
        touchRefresh();
        Q_EMIT bufferReplaced(slot);
        Q_EMIT slotStateChanged(slot);
        if (slot < SlotCount)
            Q_EMIT sectionChanged(slot);
        return;
    }

    // A dirty pane keeps its edits; the format stays the one the buffer was
    // made with, so the bytes it saves do not change under the user.
    state.presence = fresh.presence;
    state.absenceReason = fresh.absenceReason;
    state.diskSize = fresh.diskSize;
    state.diskBytes = fresh.diskBytes;
    state.diskComplete = fresh.diskComplete;
    state.diskSha256 = fresh.diskSha256;
    const bool sameAsBuffer = state.bufferPresent && state.diskPresent() && state.diskComplete
                              && state.bufferBytes == state.diskBytes;
    if (sameAsBuffer) {
        state.dirty = false;
        state.conflict = ConflictState::None;
    } else {
        state.conflict = conflictWithDisk(state.presence, state.absenceReason);
    }
    recomputeOnDisk(slot);
    recomputeUnsaved(slot);
    touchRefresh();
    Q_EMIT slotStateChanged(slot);
    if (slot < SlotCount)
        Q_EMIT sectionChanged(slot);
}

void PersonaModel::recomputeUnsaved(int slot)
{
    if (slot >= SlotCount)
        return; // an added document never enters the soul
    const SlotState &state = m_slots.at(size_t(slot));
    Sections &s = m_sections.at(size_t(slot));
    if (!state.bufferPresent) {
        s.unsaved.reset();
        s.unsavedTruncated = false;
    } else if (!state.dirty && state.diskPresent() && s.onDisk) {
        s.unsaved = s.onDisk;
        s.unsavedTruncated = s.onDiskTruncated;
    } else {
        bool cut = false;
        s.unsaved = composeSection(slot, state.bufferBytes, &cut, m_rule);
        s.unsavedTruncated = cut;
    }
}

void PersonaModel::recomputeOnDisk(int slot)
{
    if (slot >= SlotCount)
        return;
    const SlotState &state = m_slots.at(size_t(slot));
    Sections &s = m_sections.at(size_t(slot));
    if (!state.diskPresent()) {
        s.onDisk.reset();
        s.onDiskTruncated = false;
        return;
    }
    bool cut = false;
    s.onDisk = composeSection(slot, state.diskBytes, &cut, m_rule);
    s.onDiskTruncated = cut;
}

void PersonaModel::touchRefresh()
{
    m_lastRefresh = QDateTime::currentDateTime();
    Q_EMIT refreshed(m_lastRefresh);
}

bool PersonaModel::recoveryPredatesDisk(int slot) const
{
    const std::optional<RecoveredSlot> &offer = m_recovered.at(size_t(slot));
    return offer && offer->diskSha256 != m_slots.at(size_t(slot)).diskSha256;
}

void PersonaModel::restoreRecovery(int slot)
{
    std::optional<RecoveredSlot> &offer = m_recovered.at(size_t(slot));
    if (!offer)
        return;
    const QByteArray bytes = offer->bytes;
    // The store holds these bytes already; from here they are this run's
    // copy, replaced or removed as the buffer changes.
    m_recoveryKept.at(size_t(slot)) = KeptBuffer{bytes, offer->diskSha256};
    offer.reset();
    takeBytes(slot, bytes);
    Q_EMIT bufferReplaced(slot);
    Q_EMIT recoveryChanged(slot);
    // setBuffer() reports nothing when the buffer already held these bytes.
    Q_EMIT slotStateChanged(slot);
}

void PersonaModel::takeBytes(int slot, const QByteArray &bytes)
{
    // The bytes bring their own line break and BOM; the pane writes them back
    // in that format, not in the file's.
    SlotState &state = m_slots.at(size_t(slot));
    EditorText text = toEditorText(bytes);
    state.format = text.format;
    state.obstacles = text.obstacles;
    state.readOnly = !text.roundTrips();
    state.canEditAnyway = state.readOnly;
    state.readOnlyReason = text.obstacles.join(QLatin1Char(' '));
    setBuffer(slot, bytes, true);
    m_paneTextCache[size_t(slot)] = std::move(text.text);
}

Status PersonaModel::replaceBuffer(int slot, const QByteArray &bytes)
{
    if (!isOpen())
        return Status::failure(tr("No persona folder is open."));
    if (hasRecovery(slot)) {
        return Status::failure(
            tr("%1 was not restored: its pane offers text recovered from an earlier run. "
               "Restore or discard that first.")
                .arg(slotLabel(slot)));
    }
    takeBytes(slot, bytes);
    Q_EMIT bufferReplaced(slot);
    Q_EMIT slotStateChanged(slot);
    return {};
}

void PersonaModel::discardRecovery(int slot)
{
    std::optional<RecoveredSlot> &offer = m_recovered.at(size_t(slot));
    if (!offer)
        return;
    offer.reset();
    removeRecovery(slot);
    m_recoveryKept.at(size_t(slot)).reset();
    Q_EMIT recoveryChanged(slot);
    Q_EMIT slotStateChanged(slot);
}

void PersonaModel::scheduleRecovery(int slot)
{
    if (!m_recovery) {
        if (!m_recoveryUnavailable.isEmpty() && !m_recoveryFailing
            && m_slots.at(size_t(slot)).dirty) {
            m_recoveryFailing = true;
            Q_EMIT recoveryFailed(m_recoveryUnavailable);
        }
        return;
    }
    std::optional<RecoveredSlot> &offer = m_recovered.at(size_t(slot));
    const SlotState &state = m_slots.at(size_t(slot));
    if (offer && state.diskPresent() && state.diskComplete && offer->bytes == state.diskBytes) {
        // The file now holds the recovered text: there is nothing to offer.
        offer.reset();
        removeRecovery(slot);
        Q_EMIT recoveryChanged(slot);
    }
    m_recoveryDue.at(size_t(slot)) = true;
    // A slot made clean (saved, reverted, typed back) keeps no copy: it goes
    // without waiting for the pause (the recovery thread removes it), so a
    // crash after a save leaves nothing to offer, however the file changes
    // after it.
    if (!state.dirty && m_recoveryKept.at(size_t(slot))) {
        writeRecovery();
        return;
    }
    if (!m_recoveryTimer.isActive())
        m_recoveryTimer.start();
}

void PersonaModel::flushRecovery()
{
    writeRecovery();
    waitForRecoveryWrites();
}

void PersonaModel::writeRecovery()
{
    m_recoveryTimer.stop();
    if (!m_recovery)
        return;
    std::vector<RecoveryWrite> writes;
    for (int k = 0; k < documentCount(); ++k) {
        if (!m_recoveryDue[size_t(k)])
            continue;
        m_recoveryDue[size_t(k)] = false;
        // An offer owns the slot's entry until the user answers it.
        if (m_recovered[size_t(k)])
            continue;
        const SlotState &state = m_slots[size_t(k)];
        // What the store is to hold from here: written ahead of the disk,
        // and marked unknown again if the write fails.
        std::optional<KeptBuffer> &kept = m_recoveryKept[size_t(k)];
        if (state.dirty && state.bufferPresent) {
            if (kept && kept->bytes == state.bufferBytes && kept->diskSha256 == state.diskSha256)
                continue;
            kept = KeptBuffer{state.bufferBytes, state.diskSha256};
            writes.push_back({recoveryKey(k), state.bufferBytes, state.diskSha256});
        } else if (kept) {
            kept.reset();
            writes.push_back({recoveryKey(k), std::nullopt, {}});
        }
    }
    if (writes.empty())
        return;
    postRecovery(std::move(writes));
}

void PersonaModel::postRecovery(std::vector<RecoveryWrite> writes, std::shared_ptr<QLockFile> lock)
{
    if (!m_recovery)
        return;
    using Written = std::pair<QStringList, QString>; // the keys that failed, the first error
    // The store is two paths: the thread has its own copy, and nothing of
    // this model, which may be gone when the copies are written. The watcher
    // is the model's: destroyed with it, it hears nothing more.
    auto *watcher = new QFutureWatcher<Written>(this);
    connect(watcher,
            &QFutureWatcherBase::finished,
            this,
            [this, watcher, generation = m_recoveryGeneration] {
                const Written written = watcher->result();
                watcher->deleteLater();
                recoveryWritten(generation, written.first, written.second);
            });
    watcher->setFuture(
        QtConcurrent::run(recoveryThread(),
                          [store = *m_recovery,
                           writes = std::move(writes),
                           lock = std::move(lock)]() mutable {
                              QStringList failed;
                              QString error;
                              for (const RecoveryWrite &write : writes) {
                                  const Status status = write.unsaved
                                                            ? store.storeFile(write.key,
                                                                              *write.unsaved,
                                                                              write.diskSha256)
                                                            : store.removeFile(write.key);
                                  if (!status) {
                                      failed.append(write.key);
                                      if (error.isEmpty())
                                          error = status.error();
                                  }
                              }
                              lock.reset();
                              return Written{failed, error};
                          }));
}

void PersonaModel::recoveryWritten(quint64 generation,
                                   const QStringList &failedKeys,
                                   const QString &error)
{
    if (generation != m_recoveryGeneration || !m_recovery)
        return;
    if (failedKeys.isEmpty()) {
        m_recoveryFailing = false;
        return;
    }
    for (int k = 0; k < documentCount(); ++k) {
        if (failedKeys.contains(recoveryKey(k)))
            m_recoveryKept[size_t(k)] = KeptBuffer{UnknownCopy, UnknownCopy};
    }
    if (!m_recoveryFailing) {
        m_recoveryFailing = true;
        Q_EMIT recoveryFailed(error);
    }
}

void PersonaModel::removeRecovery(int slot)
{
    if (!m_recovery)
        return;
    postRecovery({{recoveryKey(slot), std::nullopt, {}}});
    waitForRecoveryWrites();
}

void PersonaModel::openRecovery()
{
    // A copy on its way (this folder's, closed a moment ago) lands first.
    waitForRecoveryWrites();
    // A layout's files depend on its project too: each project has copies of its own.
    auto store = std::make_unique<RecoveryStore>(m_dir, m_layout.project);
    if (!store->storePath().isEmpty() && QDir().mkpath(RecoveryStore::rootPath())) {
        // A second window on the folder would take the first one's live
        // copies for a crash's leftovers, and wipe them when it closes.
        auto lock = std::make_unique<QLockFile>(store->storePath() + QStringLiteral(".lock"));
        // Stale only when its owner is gone, however long that one has run.
        lock->setStaleLockTime(0);
        if (!lock->tryLock(0) && lock->error() == QLockFile::LockFailedError) {
            m_recoveryUnavailable = tr("Another Soul Studio window has %1 open, so unsaved text "
                                       "here is not kept for crash recovery. Close the other "
                                       "window, or save often.")
                                        .arg(m_dir);
            return;
        }
        m_recoveryLock = std::move(lock);
    }
    // Without a lock (no data folder, or one we may not write) the store
    // reports its own failure on the first write.
    m_recovery = std::move(store);
    const QList<RecoveredSlot> pending = m_recovery->pending();
    for (const RecoveredSlot &recovered : pending)
        offerRecovered(recovered.slot, recovered);
    for (int k = SlotCount; k < documentCount(); ++k) {
        if (isDocumentOpen(k))
            offerRecovered(k, m_recovery->pendingFile(recoveryKey(k)));
    }
}

void PersonaModel::offerRecovered(int slot, std::optional<RecoveredSlot> recovered)
{
    if (!recovered || !m_recovery)
        return;
    const SlotState &state = m_slots.at(size_t(slot));
    if (state.diskPresent() && state.diskComplete && recovered->bytes == state.diskBytes) {
        // Saved after all (or the same text arrived another way).
        removeRecovery(slot);
        return;
    }
    recovered->slot = slot;
    m_recovered.at(size_t(slot)) = std::move(recovered);
}

Status PersonaModel::deleteFile(int slot)
{
    const QString label = slotLabel(slot);
    const SlotState &state = m_slots.at(size_t(slot));
    if (slot < SlotCount)
        return Status::failure(tr("%1 is a persona file; it is never deleted here.").arg(label));
    if (!isDocumentOpen(slot) || !state.diskPresent())
        return Status::failure(
            tr("%1 is not in the folder: there is nothing to delete.").arg(label));
    if (state.dirty)
        return Status::failure(
            tr("%1 has unsaved edits: save or drop them first, then finish setup.").arg(label));
    if (!state.diskComplete)
        return Status::failure(
            tr("%1 is larger than 64 MiB and was not read whole, so it is not deleted here: it "
               "could not be restored. Delete it with another tool.")
                .arg(label));
    const QString path = slotFilePath(slot);
    if (::unlink(QFile::encodeName(path).constData()) != 0) {
        const int error = errno;
        return Status::failure(tr("Could not delete %1, so setup is not finished and the file "
                                  "is kept: %2. %3.")
                                   .arg(QDir::toNativeSeparators(path),
                                        QString::fromLocal8Bit(std::strerror(error)),
                                        writeErrorAdvice(error)));
    }
    const QByteArray bytes = state.diskBytes;
    m_watcher->expectContent(slot, QByteArray());
    applyDiskChange(slot);
    m_deleted[size_t(slot)] = bytes;
    Q_EMIT slotStateChanged(slot);
    return {};
}

Status PersonaModel::restoreDeleted(int slot)
{
    const std::optional<QByteArray> bytes = m_deleted.at(size_t(slot));
    if (!isDocumentOpen(slot) || !bytes)
        return Status::failure(tr("There is no deleted %1 to restore.").arg(slotLabel(slot)));
    Status written = writeFileAtomically(slotFilePath(slot), *bytes, Overwrite::Never);
    if (!written)
        return written;
    m_watcher->expectContent(slot, sha256Hex(*bytes));
    m_deleted[size_t(slot)].reset();
    applyDiskChange(slot);
    return written;
}

} // namespace soul
