#pragma once

#include "runtimepaneview.h"

#include <QFrame>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace soul {

class DiskChangedBar;
class RecoveryBar;
class RuntimeFile;
class RuntimeMeter;

// The pane of a file the chosen runtime reads beside the seven slots
// (OpenClaw's BOOTSTRAP.md): its text, its meter under the runtime, Save,
// and "Finish setup", which deletes the file (OpenClaw treats the workspace
// as pending while it exists) and then offers to restore it. It shows the
// file's state and emits what the user asks for; the window wires those.
class RuntimeFilePane : public QFrame
{
    Q_OBJECT

public:
    explicit RuntimeFilePane(const RuntimeFile *file, QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QLabel *stateLabel() const { return m_state; }
    RuntimeMeter *runtimeMeter() const { return m_meter; }
    QLabel *runtimeNote() const { return m_note; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *revertButton() const { return m_revert; }
    QPushButton *finishButton() const { return m_finish; }
    QPushButton *restoreButton() const { return m_restore; }
    // The slots' bar, for text a previous run left unsaved.
    RecoveryBar *recoveryBar() const { return m_recoveryBar; }
    // The slots' bar, for unsaved text whose file changed on disk.
    DiskChangedBar *diskBar() const { return m_diskBar; }
    // Why a path by the file's name is not read, and what to do.
    QLabel *unreadNote() const { return m_unreadNote; }

    // The editor's text, as RuntimeFile::setBufferText() takes it.
    QString text() const;
    // Loads the file's buffer anew (a folder was opened), undo history and all.
    void reload();
    // Takes the file's new buffer (a revert, a reload, a restore) as one
    // undoable edit of the range that differs, as SlotPane::follow().
    void follow();
    // Header, buttons and editor follow the file's state.
    void refreshState();
    void setRuntimeView(const RuntimePaneView &view);

Q_SIGNALS:
    // The editor took the keyboard focus.
    void focused();
    void textEdited();
    void saveRequested();
    void revertRequested();
    // The disk-changed bar's answers, as SlotPane's.
    void reloadRequested();
    void keepMineRequested();
    void compareRequested();
    void discardRequested();
    void finishRequested();
    void restoreRequested();
    void restoreRecoveryRequested();
    void compareRecoveryRequested();
    void discardRecoveryRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    const RuntimeFile *m_file = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_role = nullptr;
    RuntimeMeter *m_meter = nullptr;
    QLabel *m_note = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_revert = nullptr;
    QPushButton *m_finish = nullptr;
    QPushButton *m_restore = nullptr;
    RecoveryBar *m_recoveryBar = nullptr;
    DiskChangedBar *m_diskBar = nullptr;
    QLabel *m_unreadNote = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    bool m_loading = false;
};

} // namespace soul
