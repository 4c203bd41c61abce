#pragma once

#include "disk/recoverystore.h"
#include "editortext.h"
#include "personamodel.h"
#include "result.h"

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>

namespace soul {

// A file a runtime reads beside the seven slots (OpenClaw's BOOTSTRAP.md):
// what is on disk, its editor buffer and whether that is unsaved; a
// QFileSystemWatcher on the folder reads it again when it changes there. It is
// written only by save() and restore(), both through writeFileAtomically(),
// and removed only by finish(). The seven slots, and so toolnexus's soul,
// never see it. Its unsaved text is kept for crash recovery beside the
// slots' (RecoveryStore::storeFile()), and offered back as theirs are.
class RuntimeFile : public QObject
{
    Q_OBJECT

public:
    explicit RuntimeFile(QObject *parent = nullptr);

    // The file's name in the folder; empty until a runtime names one. A
    // later empty name keeps the file (and any unsaved text) as it is.
    const QString &name() const { return m_name; }
    void setName(const QString &name);
    // Reads the file in `dir`; nothing open when `dir` is empty. With
    // `keepRecovery`, unsaved text is kept in the folder's RecoveryStore and
    // a copy a previous run left there is offered (recovery()); without it
    // (another window has the folder open) nothing is kept.
    void open(const QString &dir, bool keepRecovery = false);
    // Closing is the user's answer about unsaved text: this run's copy is
    // removed. A copy a previous run left and nobody answered yet (its pane
    // is shown only under a runtime that reads the file) stays, and the next
    // open offers it again.
    void close();
    bool isOpen() const { return !m_dir.isEmpty() && !m_name.isEmpty(); }
    QString filePath() const;

    bool diskPresent() const { return m_disk.has_value(); }
    // The file's bytes as last read; nullopt when it is not in the folder.
    const std::optional<QByteArray> &diskBytes() const { return m_disk; }
    // The buffer: the bytes a save would write; nullopt when the file is
    // absent and nothing was typed.
    const std::optional<QByteArray> &buffer() const { return m_buffer; }
    bool dirty() const { return isOpen() && m_buffer != m_disk; }
    // The text removed by finish(), which restore() writes back; nullopt
    // when there is none.
    const std::optional<QByteArray> &removed() const { return m_removed; }

    // The text a pane loads (editortext.h: no BOM, '\n' line breaks).
    QString paneText() const;
    // Typing: the pane's text as QTextDocument::toRawText() gives it; the
    // buffer keeps the file's BOM and line break.
    void setBufferText(QStringView rawText);
    // The buffer becomes `bytes`, BOM and line breaks as they are (text that
    // could not be written elsewhere comes back to the pane unchanged).
    void setBufferBytes(const QByteArray &bytes);
    // Why the buffer's bytes cannot pass through a pane unchanged (invalid
    // UTF-8, NUL, ...: editortext.h), a sentence each. While there are any,
    // typing is ignored and the pane is read-only, as a slot's, so a save
    // never changes bytes the user did not edit. Empty when they pass.
    const QStringList &obstacles() const { return m_obstacles; }
    // Why a path by the file's name is not read (a FIFO, a folder, a file
    // over 64 MiB...) and what to do, as a sentence; empty when it is read
    // or simply not there.
    const QString &unreadReason() const { return m_unread; }
    // The same as a phrase ("is a FIFO, not a regular file"), absenceReason().
    const QString &unreadPhrase() const { return m_unreadPhrase; }
    // As a slot's (PersonaModel): the disk changed under unsaved text. The
    // text stays; the user reloads, keeps it, compares or saves over it.
    ConflictState conflict() const { return m_conflict; }
    // Keep my edits: forgets the conflict, so a save writes over the disk.
    void keepMine();
    // Whether a save now would replace a change made on disk since it was read.
    StaleReason staleness() const;
    // Writes the buffer. With CheckDisk, a stale save writes nothing and
    // says why (SaveResult::isStale(), staleSaveText()); the file then shows
    // the conflict, its disk bytes read again for comparing, as a slot's.
    SaveResult save(SaveMode mode = SaveMode::CheckDisk);
    // Reads the file again; the buffer follows the disk unless it is unsaved.
    void reload();
    // Drops the unsaved text: the buffer takes the disk's bytes (none when
    // the file is not there).
    void revert();
    // Deletes the file (after the user confirmed); its text is kept for
    // restore(). Fails with a sentence naming the file, deleting nothing,
    // while the buffer is unsaved.
    Status finish();
    // Writes the text finish() removed back, byte for byte. Fails with a
    // sentence naming the file, writing nothing, when a file is there again.
    Status restore();

    // Crash recovery, as PersonaModel's for a slot: text a previous run left
    // unsaved, offered until the user restores or discards it. Meanwhile the
    // buffer follows the disk and typing is ignored.
    bool hasRecovery() const { return m_recovered.has_value(); }
    const std::optional<RecoveredSlot> &recovery() const { return m_recovered; }
    // The file is no longer the one the recovered text was edited from.
    bool recoveryPredatesDisk() const;
    // The buffer takes the recovered text, byte for byte, unsaved.
    void restoreRecovery();
    void discardRecovery();
    void setRecoveryInterval(int ms) { m_recoveryTimer.setInterval(ms); }
    // Writes the copy now rather than at the end of the interval.
    void flushRecovery();

Q_SIGNALS:
    void recoveryChanged();
    // Keeping unsaved text for recovery failed; `error` says why. Sent once
    // until a copy is kept again.
    void recoveryFailed(const QString &error);
    // The buffer or the disk changed: panes and previews follow.
    void changed();
    // A folder was opened (or closed): the pane loads the buffer anew.
    void opened();
    // The buffer was replaced from outside the pane (reload, revert,
    // restore): the pane takes it as an edit the user can undo.
    void bufferReplaced();

public:
    // Ending without close() keeps the unsaved text for recovery.
    ~RuntimeFile() override;

private:
    struct DiskRead
    {
        std::optional<QByteArray> bytes; // nullopt: not read
        QString unread;                  // why a path there is not read
        QString phrase;                  // the same as absenceReason() says it
        bool notReadable = false;        // something is there, not read
        SlotPresence presence = SlotPresence::Missing;
    };
    DiskRead readDisk() const;
    void scheduleRecovery();
    QByteArray diskSha256() const;
    // The buffer takes the disk's bytes, and their BOM and line break.
    void takeDisk();
    // The buffer becomes `bytes`, with the format and obstacles they bring
    // (absent: the format stays).
    void takeBytes(const std::optional<QByteArray> &bytes);

    QString m_name;
    QString m_dir;
    std::optional<QByteArray> m_disk;
    std::optional<QByteArray> m_buffer;
    std::optional<QByteArray> m_removed;
    QString m_unread;
    QString m_unreadPhrase;
    ConflictState m_conflict = ConflictState::None;
    TextFormat m_format;
    QStringList m_obstacles;
    QFileSystemWatcher m_watcher;
    bool m_keepRecovery = false;
    std::optional<RecoveryStore> m_recovery; // the folder's, while keeping is allowed
    std::optional<KeptBuffer> m_recoveryKept;
    std::optional<RecoveredSlot> m_recovered;
    QTimer m_recoveryTimer;
    bool m_recoveryFailing = false;
};

} // namespace soul
