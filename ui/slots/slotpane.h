#pragma once

#include "compose/contract.h"
#include "persona/editortext.h"
#include "runtime/lintitem.h"
#include "runtimepaneview.h"

#include <QFrame>
#include <QTextEdit>
#include <QTimer>

#include <memory>
#include <vector>

class QKeyEvent;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace soul {

class LinkBar;

class DiskChangedBar;
class ElidedLabel;
class MarkdownHighlighter;
class PersonaModel;
class RecoveryBar;
class RuntimeMeter;
class SizeMeter;
class SoulTokenCounter;
class WhenShown;

// One slot: a header (file name, role, state, dirty mark, lints, size meter),
// the changed-on-disk bar and the editor. It reads the model's state to show
// it and emits what the user asks for; the window wires those to the model.
class SlotPane : public QFrame
{
    Q_OBJECT

public:
    SlotPane(int slot, const PersonaModel *model, QWidget *parent = nullptr);

    int slot() const { return m_slot; }
    QPlainTextEdit *editor() const { return m_editor; }
    DiskChangedBar *diskBar() const { return m_diskBar; }
    RecoveryBar *recoveryBar() const { return m_recoveryBar; }
    SizeMeter *sizeMeter() const { return m_meter; }
    QPushButton *createButton() const { return m_create; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *revertButton() const { return m_revert; }
    QPushButton *editAnywayButton() const { return m_editAnyway; }
    // A document beside the slots (PersonaModel::addDocument()) whose removal
    // means something (OpenClaw's BOOTSTRAP.md: setup is done) offers
    // "Finish setup" while its file is there, and "Restore NAME" once
    // finishing removed it. Off by default.
    void setFinishable(bool finishable);
    QPushButton *finishButton() const { return m_finish; }
    QPushButton *restoreDeletedButton() const { return m_restoreDeleted; }
    // The role shown beside the name; a slot's own by default, none for
    // another document.
    void setRole(const QString &role);
    // For a document beside the slots: what its runtime says of it (a
    // skill's lints from the skills list), shown with the pane's own lints.
    void setDocumentLints(const QList<Lint> &lints);
    // Whether the pane's document is one of the seven slots, part of the
    // soul (sections, tokens, the cap, the slot lints).
    bool inSoul() const { return m_slot < SlotCount; }
    // Offered when the slot's file is missing but one named like it in other
    // letter case ("soul.md") is there.
    QPushButton *renameButton() const { return m_rename; }
    QLabel *stateLabel() const { return m_state; }
    // "● unsaved" while the buffer differs from the file; empty otherwise.
    QLabel *dirtyLabel() const { return m_dirty; }
    ElidedLabel *roleLabel() const { return m_role; }
    QLabel *lintLabel() const { return m_lints; }
    // Why a slot without a file takes no part, and what to do about it.
    QLabel *absentNote() const { return m_absentNote; }
    QLabel *readOnlyNote() const { return m_readOnly; }
    // What the pane does about lines too long to lay out, when it has any.
    QLabel *longLineNote() const { return m_longLineNote; }

    // The pane's text as the model takes it (QTextDocument::toRawText() with
    // the cuts of long lines taken out again). See SlotPane::load().
    QString text() const;
    // A cursor at `column` (UTF-16 units) of line `line` (1-based) of text(),
    // past the cuts of long lines; null when there is no such line.
    QTextCursor cursorAt(qint64 line, qint64 column) const;
    // True while long lines are shown cut into pieces.
    bool cutsLongLines() const { return m_cutLongLines; }
    // Lines longer than soul::LongLineLength (editortext.h) are shown cut
    // into pieces of CutLength.
    static constexpr int LongLineLength = soul::LongLineLength;
    static constexpr int CutLength = 1024;
    // The section's exact tokens, greyed while a count is pending.
    QLabel *tokensLabel() const { return m_tokens; }
    // The counter whose counts the header shows; not owned.
    void setTokenCounter(const SoulTokenCounter *counter);

    // Tall enough to edit in, short enough that two or three panes fit at
    // once. A slot without a buffer has no editor and folds to its header.
    static constexpr int EditingHeight = 300;

    // Loads the model's buffer text, keeping the cursor and the scroll. A
    // large buffer is loaded once the editor is on screen or focused; until
    // then the editor is empty and read-only (see reloadPending()).
    void reload();
    bool reloadPending() const { return m_reloadPending; }
    // Takes the model's new buffer text (a revert, a reload, a clean pane
    // following the disk) as one undoable edit of the range that differs,
    // keeping the undo history, the cursor and the scroll: Ctrl+Z gives the
    // previous text back, and the model takes it as an edit. A pane not
    // shown takes it when it is next shown.
    void follow();
    // Takes now what waits for the pane to be shown (the model's text, its
    // state): before an undo or a redo reaches a pane that is not shown.
    void catchUp();
    // Marks tabs, trailing and non-ASCII spaces and U+FEFF on screen.
    void setShowInvisibles(bool show);
    bool showInvisibles() const { return m_showInvisibles; }
    // Work is still due after a pause in typing (the lints).
    bool settling() const { return m_lintTimer.isActive(); }
    // Shows the model's state for this slot in the header and bars; a pane
    // not shown does when it is next shown.
    void refreshState();

    // What a runtime other than toolnexus keeps of this file: the dropped
    // middle shaded, the policy digest's lines marked, the meter against its
    // budgets and a note when it does not load the file. Inactive: as before.
    void setRuntimeView(const RuntimePaneView &view);
    const RuntimePaneView &runtimeView() const { return m_runtimeView; }
    RuntimeMeter *runtimeMeter() const { return m_runtimeMeter; }
    QLabel *runtimeNote() const { return m_runtimeNote; }
    // The note that the file differs from the last checkpoint and who wrote
    // it, with a link to the diff (checkpointDiffRequested()); empty hides it.
    void setCheckpointNote(const QString &text);
    QLabel *checkpointNote() const { return m_checkpointNote; }
    // The note that other agents in the window hold the same bytes of this
    // file ("Same as in work, coach"); empty hides it.
    void setSameNote(const QString &text, const QString &toolTip = {});
    // The bar of a file linked in a group (LinkBar::Kind::None hides it).
    LinkBar *linkBar() const { return m_linkBar; }
    QLabel *sameNote() const { return m_sameNote; }
    // The files the pane can show instead of its own, `current` among them
    // (a Hermes home's project pane: the files of the project-context
    // block). With two or more, the header offers them in a menu, the
    // current one checked; with fewer it offers nothing.
    void setFileChoices(const QStringList &labels, const QString &current);
    QPushButton *fileChoiceButton() const { return m_fileChoice; }

    // The format property that tells the runtime's marks from other marks.
    enum RuntimeMark { DroppedMark = 1, DigestMark = 2 };
    static constexpr int RuntimeMarkProperty = 0x100000 + 71; // QTextFormat::UserProperty + 71

Q_SIGNALS:
    // The user changed the text; read it with editor()->document()->toRawText().
    void textEdited(int slot);
    void createRequested(int slot);
    void saveRequested(int slot);
    void revertRequested(int slot);
    void editAnywayRequested(int slot);
    void renameCaseVariantRequested(int slot);
    void reloadRequested(int slot);
    void keepMineRequested(int slot);
    void compareRequested(int slot);
    void discardRequested(int slot);
    void restoreRecoveryRequested(int slot);
    void compareRecoveryRequested(int slot);
    void discardRecoveryRequested(int slot);
    void focused(int slot);
    // The link in the checkpoint note: the file against the last checkpoint.
    void checkpointDiffRequested(int slot);
    // Another file of setFileChoices() was chosen for the pane.
    void fileChosen(int slot, const QString &label);
    // setFinishable()'s buttons.
    void finishRequested(int slot);
    void restoreDeletedRequested(int slot);
    // The link bar's buttons.
    void linkThreeWayRequested(int slot);
    void linkAdoptRequested(int slot);
    void linkLeaveRequested(int slot);
    void linkFinishRequested(int slot);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The name a sentence gives the file: the slot's, or the document's
    // path in the folder.
    QString fileName() const;
    void refreshLints();
    void refreshTokens();
    void followNow();
    void refreshStateNow();
    void load();
    void refreshMarks();
    // The runtime's marks for the blocks on screen.
    void addRuntimeMarks(QList<QTextEdit::ExtraSelection> &selections) const;
    bool marksShown() const { return m_showInvisibles || m_runtimeView.active; }
    // Where the cuts of long lines are, as positions of text(): the first
    // character of each piece after a cut, in order.
    const std::vector<qsizetype> &cutPositions() const;
    // Loads `text` into the editor, cutting long lines for display.
    void setEditorText(const QString &text);
    // Backspace or Delete next to a cut deletes the character beyond it.
    bool skipCut(QKeyEvent *event);

    int m_slot = -1;
    const PersonaModel *m_model = nullptr;
    WhenShown *m_follow = nullptr;
    WhenShown *m_tokensShown = nullptr;
    WhenShown *m_stateShown = nullptr;
    bool m_loading = false;
    bool m_reloadPending = false;
    bool m_showInvisibles = false;
    bool m_cutLongLines = false;
    // Set when an edit removed a cut (the blocks' marks go with them).
    std::shared_ptr<bool> m_cutRemoved;
    mutable std::vector<qsizetype> m_cutPositions;
    mutable bool m_cutsKnown = false;
    int m_lastRevision = -1;
    QLabel *m_title = nullptr;
    ElidedLabel *m_role = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_dirty = nullptr;
    QLabel *m_tokens = nullptr;
    const SoulTokenCounter *m_counter = nullptr;
    SizeMeter *m_meter = nullptr;
    QLabel *m_lints = nullptr;
    QLabel *m_readOnly = nullptr;
    QLabel *m_absentNote = nullptr;
    QLabel *m_longLineNote = nullptr;
    QPushButton *m_create = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_revert = nullptr;
    QPushButton *m_editAnyway = nullptr;
    QPushButton *m_rename = nullptr;
    QPushButton *m_finish = nullptr;
    QPushButton *m_restoreDeleted = nullptr;
    bool m_finishable = false;
    DiskChangedBar *m_diskBar = nullptr;
    RecoveryBar *m_recoveryBar = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    MarkdownHighlighter *m_highlighter = nullptr;
    QTimer m_lintTimer;
    QList<Lint> m_documentLints;
    RuntimeMeter *m_runtimeMeter = nullptr;
    QLabel *m_runtimeNote = nullptr;
    QLabel *m_checkpointNote = nullptr;
    LinkBar *m_linkBar = nullptr;
    QLabel *m_sameNote = nullptr;
    QPushButton *m_fileChoice = nullptr;
    QStringList m_fileChoices;
    RuntimePaneView m_runtimeView;
    // Whether the file was there when m_runtimeView was shown.
    bool m_runtimePresent = false;
};

} // namespace soul
