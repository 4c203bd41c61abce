#pragma once

#include "runtime/lintitem.h"
#include "windowactions.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QSettings;
class QSplitter;

namespace soul {

class DirectoryLostBar;
class FindBar;
class PaneStack;
class PersonaSession;
class PreviewPanel;
class SlotPane;

// What the window shows of one persona session: its slot panes, the find
// bar, the preview with the runtime chooser and the folder-lost bar. It is
// the one receiver of its panes' requests (save, revert, reload, discard,
// recovery, compare) and passes them to the session's model and document
// controller; it keeps its own panes' text, undo history, scroll and
// cursor while another session is shown.
class PersonaEditor : public QWidget
{
    Q_OBJECT

public:
    // What a pane's link bar asks for (linkRequested()).
    enum class LinkAction { ThreeWay, Adopt, Leave, Finish };

    // `session` and `settings` must outlive the editor.
    PersonaEditor(PersonaSession *session, QSettings *settings, QWidget *parent = nullptr);
    ~PersonaEditor() override;

    PersonaSession *session() const { return m_session; }
    PaneStack *panes() const { return m_panes; }
    PreviewPanel *previewPanel() const { return m_preview; }
    FindBar *findBar() const { return m_findBar; }
    QSplitter *splitter() const { return m_splitter; }

    // The pane last focused, or -1.
    int currentSlot() const { return m_currentSlot; }
    // Shows `line` (1-based) of slot `slot`'s pane, focused, the cursor on it.
    void goToLine(int slot, qint64 line, qint64 column = 0);
    // Opens the find bar on the pane last focused (the first pane at first).
    void find();
    // The exact bytes the preview shows: the soul, or what the chosen
    // runtime injects.
    QByteArray shownBytes() const;
    // Shows or hides invisible characters in the panes.
    void setShowInvisibles(bool show);

    // The pane of the chosen runtime's setup file (OpenClaw's BOOTSTRAP.md),
    // a document of the model shown as a slot is, made when a runtime first
    // names one; null before.
    SlotPane *setupPane() const { return m_setupPane; }
    // The setup file is there to finish setup with (DocumentController::
    // finishSetup()), and the chosen runtime reads it.
    bool canFinishSetup() const;
    void finishSetup();
    // The last thing done here was finishing setup, so Undo restores the
    // file (until a slot pane is focused).
    bool canUndoFinishSetup() const;
    // The setup file's pane was focused last (currentSlot() is then its
    // document): Save and Undo act on it.
    bool setupPaneCurrent() const;
    void undoFinishSetup();

    // Opens the persona's file `path` (a skill's SKILL.md) as a document in
    // a pane after the slots, and puts the keyboard in it; false, with a
    // message, for a file outside the persona's folder.
    bool openDocument(const QString &path);
    // What the runtime says of each document beside the slots, by absolute
    // path (a skill's lints): shown in its pane.
    void setDocumentLints(const QHash<QString, QList<Lint>> &lints);

    // Edit menu's commands on the pane last focused (a slot's, or the setup
    // file's): Save explains why nothing is saved when it is clean.
    void save();
    void revert();
    void undo();
    void redo();
    // What the Edit menu offers for the pane last focused.
    WindowActions::EditState editState() const;

Q_SIGNALS:
    // The pane last focused, its undo state or its unsaved state changed.
    void editStateChanged();
    // A sentence for the status bar, shown for `ms` milliseconds.
    void message(const QString &text, int ms);
    // A button of a pane's link bar (LinkBar) was pressed, for document `doc`.
    void linkRequested(int doc, soul::PersonaEditor::LinkAction action);

private:
    void buildUi(QSettings *settings);
    void wireModel();
    void wirePanes();
    // Passes the requests of `pane` (a slot's, or another document's) to
    // the model and the document controller.
    void wirePane(SlotPane *pane);
    void wireTokens(QSettings *settings);
    void wireRuntime();
    void reloadPanes();
    // The project pane offers the files of Hermes's project-context block.
    void offerProjectFiles();
    // Makes the setup file's pane once the session's runtime names the file.
    void ensureSetupPane();
    // Text recovered for the setup file: its pane in view, the keyboard on Restore.
    void offerSetupRecovery();

    PersonaSession *m_session = nullptr;
    DirectoryLostBar *m_lostBar = nullptr;
    QSplitter *m_splitter = nullptr;
    PaneStack *m_panes = nullptr;
    FindBar *m_findBar = nullptr;
    PreviewPanel *m_preview = nullptr;
    int m_currentSlot = -1;
    SlotPane *m_setupPane = nullptr;
    bool m_setupUndoable = false;
};

} // namespace soul
