#pragma once

#include "history/personahistory.h"

#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

namespace soul {

// Tells the window when the persona's repository moved HEAD without it: a
// commit made with `git commit` in a shell (by the author, or by the agent),
// a branch switched, a reset, a merge begun or ended. It watches the files
// and folders git rewrites for that (HEAD, the branch's ref, packed-refs,
// and the folders that hold them) with QFileSystemWatcher, so nothing is
// polled; a burst of changes (a commit writes objects, the index, the ref,
// the reflogs) is read once, a moment after it ends, on a worker.
class RepositoryWatcher : public QObject
{
    Q_OBJECT

public:
    explicit RepositoryWatcher(QObject *parent = nullptr);
    ~RepositoryWatcher() override;

    // Watches the repository that holds `dir` (none: watches nothing until
    // the next watch()). HEAD as it is now is not a change.
    void watch(const QString &dir);
    void stop();

    // HEAD is at `id` because this window moved it (a checkpoint): not a
    // change to report.
    void headMovedHere(const QByteArray &id);

    // The paths watched now (files, then folders).
    QStringList watchedPaths() const;
    // Whether a change is waiting to be read, or being read.
    bool isReading() const { return m_settle.isActive() || m_reader.isRunning(); }

Q_SIGNALS:
    // HEAD points elsewhere, or the repository began or ended a merge.
    void headChanged();

private:
    void read();
    void take();

    QFileSystemWatcher m_files;
    QTimer m_settle;
    QFutureWatcher<HeadPlace> m_reader;
    QString m_dir;
    HeadPlace m_known;
    bool m_knowsHead = false; // m_known is HEAD as last read
    bool m_readAgain = false; // a change came while a read ran
};

} // namespace soul
