#include "history/repositorywatcher.h"

#include "history/commitreader.h"

#include <QtConcurrent>

namespace soul {

namespace {

// HEAD and what to watch of `dir`'s repository; nothing when it has none or
// cannot be opened (the panel says why when it loads).
HeadPlace readHeadPlace(const QString &dir)
{
    if (!insideRepository(dir))
        return {};
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened)
        return {};
    return (*opened)->headPlace();
}

} // namespace

RepositoryWatcher::RepositoryWatcher(QObject *parent)
    : QObject(parent)
{
    // A commit from a shell is a dozen renames and writes in a few
    // milliseconds; one read after they settle.
    m_settle.setSingleShot(true);
    m_settle.setInterval(150);
    connect(&m_settle, &QTimer::timeout, this, &RepositoryWatcher::read);
    connect(&m_files, &QFileSystemWatcher::fileChanged, &m_settle, qOverload<>(&QTimer::start));
    connect(&m_files, &QFileSystemWatcher::directoryChanged, &m_settle, qOverload<>(&QTimer::start));
    connect(&m_reader, &QFutureWatcher<HeadPlace>::finished, this, &RepositoryWatcher::take);
}

// The reader holds only values: it is not waited for.
RepositoryWatcher::~RepositoryWatcher() = default;

void RepositoryWatcher::watch(const QString &dir)
{
    stop();
    m_dir = dir;
    read();
}

void RepositoryWatcher::stop()
{
    m_dir.clear();
    m_settle.stop();
    m_knowsHead = false;
    m_readAgain = false;
    m_known = HeadPlace();
    const QStringList watched = watchedPaths();
    if (!watched.isEmpty())
        m_files.removePaths(watched);
}

void RepositoryWatcher::headMovedHere(const QByteArray &id)
{
    if (m_knowsHead)
        m_known.headId = id;
}

QStringList RepositoryWatcher::watchedPaths() const
{
    return m_files.files() + m_files.directories();
}

void RepositoryWatcher::read()
{
    if (m_dir.isEmpty())
        return;
    if (m_reader.isRunning()) {
        m_readAgain = true;
        return;
    }
    m_reader.setFuture(QtConcurrent::run(readHeadPlace, m_dir));
}

void RepositoryWatcher::take()
{
    if (m_dir.isEmpty() || m_reader.isCanceled())
        return;
    if (m_readAgain) {
        // What was read may be from before the last change.
        m_readAgain = false;
        read();
        return;
    }
    const HeadPlace place = m_reader.result();
    // A file git replaced by a rename is a new file, whose old watch ended
    // with it: the files are watched afresh. The folders stay watched
    // throughout, so a change made while HEAD was read is not missed.
    if (!m_files.files().isEmpty())
        m_files.removePaths(m_files.files());
    QStringList gone;
    for (const QString &folder : m_files.directories()) {
        if (!place.watchFolders.contains(folder))
            gone.append(folder);
    }
    if (!gone.isEmpty())
        m_files.removePaths(gone);
    QStringList added = place.watchFiles;
    for (const QString &folder : place.watchFolders) {
        if (!m_files.directories().contains(folder))
            added.append(folder);
    }
    if (!added.isEmpty())
        m_files.addPaths(added);
    const bool changed = m_knowsHead && !m_known.sameHead(place);
    m_known = place;
    m_knowsHead = true;
    if (changed)
        Q_EMIT headChanged();
}

} // namespace soul
