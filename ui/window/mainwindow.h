#pragma once

#include "preview/runtimememory.h"

#include <QMainWindow>
#include <QTimer>

#include <memory>

class QLabel;
class QSettings;
class QSplitter;
class QStackedWidget;

namespace soul {

class CompareDialog;
class DirectoryLostBar;
class DocumentController;
class ExportController;
class FindBar;
class FreezeController;
class FreedMemory;
class HistoryController;
class PaneStack;
class PersonaModel;
class PreviewPanel;
class Prompter;
class SoulTokenCounter;
class StartView;
class WindowActions;

// Assembles the window and wires its parts; the decisions live in the model
// (core), the document controller, the export controller and the actions.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    struct Options
    {
        // Where the recent list lives; empty for the user's settings.
        QString settingsFile;
    };

    explicit MainWindow(const Options &options, QWidget *parent = nullptr);
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Replaces the dialogs (tests answer through a double).
    void setPrompter(std::unique_ptr<Prompter> prompter);

    // Opens `dir`, or without one the last folder, else the start view.
    void start(const QString &dir);
    // Previews what the runtime `id` injects, with its last settings, and
    // remembers the choice for the open folder. False for an unknown id.
    bool chooseRuntime(const QString &id);

    PersonaModel *model() const { return m_model; }
    DocumentController *documents() const { return m_documents; }
    ExportController *exporter() const { return m_export; }
    FreezeController *freezer() const { return m_freeze; }
    HistoryController *history() const { return m_history; }
    // The compare dialog, once a comparison was asked for.
    CompareDialog *compareDialog() const { return m_compare; }
    // Opens the compare dialog on the snapshot at `soulPath`.
    void compareWith(const QString &soulPath);
    // Shows `line` (1-based) of slot `slot`'s pane, focused, the cursor on it.
    void goToLine(int slot, qint64 line, qint64 column = 0);
    PaneStack *panes() const { return m_panes; }
    PreviewPanel *previewPanel() const { return m_preview; }
    SoulTokenCounter *tokenCounter() const { return m_tokens; }
    // The status bar's message line; it wraps, so a long sentence is whole.
    QLabel *statusMessage() const { return m_statusMessage; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildUi();
    void wireModel();
    void wirePanes();
    // The preview's runtime, remembered, and its marks in the panes.
    void wireRuntime();
    void wireActions();
    void wireTokens();
    // The History dock, its actions and the budget its timeline draws.
    void wireHistory();
    void showFolderState();
    void showStatus();
    // The actions that depend on the pane last focused.
    void showEditState();
    // A sentence in the status bar for `ms` milliseconds.
    void showMessage(const QString &text, int ms);

    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<Prompter> m_prompter;
    PersonaModel *m_model = nullptr;
    SoulTokenCounter *m_tokens = nullptr;
    RuntimeMemory m_runtimeMemory;
    DocumentController *m_documents = nullptr;
    ExportController *m_export = nullptr;
    FreezeController *m_freeze = nullptr;
    FreedMemory *m_freedMemory = nullptr;
    HistoryController *m_history = nullptr;
    CompareDialog *m_compare = nullptr;
    WindowActions *m_actions = nullptr;
    QStackedWidget *m_stack = nullptr;
    StartView *m_startView = nullptr;
    QWidget *m_editorView = nullptr;
    PaneStack *m_panes = nullptr;
    PreviewPanel *m_preview = nullptr;
    QSplitter *m_splitter = nullptr;
    FindBar *m_findBar = nullptr;
    DirectoryLostBar *m_lostBar = nullptr;
    QLabel *m_statusDir = nullptr;
    QLabel *m_statusWatch = nullptr;
    QLabel *m_statusRefresh = nullptr;
    QLabel *m_statusMessage = nullptr;
    QTimer m_messageTimer;
    int m_currentSlot = -1;
};

} // namespace soul
