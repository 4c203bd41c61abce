#pragma once

#include "contract.h"

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <array>

namespace soul {

// Watches one persona directory and its seven slot paths, and reports a slot
// only when what a reader would get from it changed: its content (by SHA-256)
// or its presence. Our own saves (announce them with expectContent()) and a
// `touch` are not changes.
//
// It stays correct through edits in place, atomic saves (temp file + rename,
// which drops a path watch: the path is re-armed), delete, create, delete and
// re-create, bursts of writes (coalesced) and slow writers (a file is read
// only once its size and time have settled). The directory itself being
// removed or renamed is reported once, and its return too.
class DirectoryWatcher : public QObject
{
    Q_OBJECT

public:
    explicit DirectoryWatcher(QObject *parent = nullptr);

    // Starts watching `dir` (stops watching the previous one). The current
    // content of each slot becomes the baseline: nothing is reported for it.
    void setDirectory(const QString &dir);
    void clear();
    QString directory() const { return m_dir; }

    // True while the directory exists and is being watched.
    bool isWatching() const;

    // The slot's content is now `sha256` (hex; empty for absent): call it
    // right after saving, so the save does not come back as a change.
    void expectContent(int slot, const QByteArray &sha256);

    // How long a burst must be quiet before slots are read. Default 40 ms.
    void setSettleInterval(int ms);

Q_SIGNALS:
    // Slot `slot`'s content or presence differs from what was last reported
    // or expected. `sha256` is the new content's hex digest, empty when the
    // slot is now absent.
    void slotChanged(int slot, const QByteArray &sha256);
    void directoryLost();
    void directoryRestored();
    void watchingChanged(bool watching);

private:
    // Implementation is free; these are suggestions.
    QString m_dir;
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    std::array<QByteArray, SlotCount> m_known;
    bool m_lost = false;
};

} // namespace soul
