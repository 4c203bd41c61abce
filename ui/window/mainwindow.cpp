#include "mainwindow.h"

#include "compare/comparecontroller.h"
#include "compare/comparedialog.h"
#include "compare/freezecontroller.h"
#include "dialogprompter.h"
#include "directorylostbar.h"
#include "documentcontroller.h"
#include "export/exportcontroller.h"
#include "findbar.h"
#include "freedmemory.h"
#include "history/historycontroller.h"
#include "personamodel.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "preview/tokenbar.h"
#include "runtimeregistry.h"
#include "slots/panestack.h"
#include "slots/recoverybar.h"
#include "slots/slotpane.h"
#include "soultokencounter.h"
#include "startview.h"
#include "windowactions.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTextBlock>
#include <QVBoxLayout>

// Resources of a static library are registered by hand, outside any namespace.
static void initSoulStudioResources()
{
    Q_INIT_RESOURCE(soulstudio);
}

namespace soul {

namespace {

const QString GeometryKey = QStringLiteral("window/geometry");
const QString SplitterKey = QStringLiteral("window/splitter");

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : MainWindow(Options(), parent)
{}

MainWindow::MainWindow(const Options &options, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(options.settingsFile.isEmpty()
                     ? std::make_unique<QSettings>()
                     : std::make_unique<QSettings>(options.settingsFile, QSettings::IniFormat))
    , m_prompter(std::make_unique<DialogPrompter>(this))
    , m_model(new PersonaModel(this))
    , m_tokens(new SoulTokenCounter(m_model, this))
    , m_runtimeMemory(m_settings.get())
{
    initSoulStudioResources();
    m_documents = new DocumentController(m_model, m_prompter.get(), m_settings.get(), this);
    m_export = new ExportController(m_model, m_documents, m_prompter.get(), this);
    m_freeze = new FreezeController(m_model, m_documents, m_prompter.get(), m_settings.get(), this);
    m_freedMemory = new FreedMemory(this);
    m_history = new HistoryController(m_model,
                                      m_documents,
                                      m_tokens,
                                      m_prompter.get(),
                                      m_settings.get(),
                                      this);
    m_actions = new WindowActions(this);
    setWindowIcon(QIcon(QStringLiteral(":/soulstudio/icons/soulstudio.svg")));
    setAcceptDrops(true);
    buildUi();
    wireModel();
    wirePanes();
    wireActions();
    wireTokens();
    wireRuntime();
    wireHistory();
    showFolderState();
    // Roomy by default, but never larger than the screen it opens on; after
    // the first run, as the user left it.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1400, 900);
    resize(QSize(1400, 900).boundedTo(available * 0.92));
    restoreGeometry(m_settings->value(GeometryKey).toByteArray());
    m_splitter->restoreState(m_settings->value(SplitterKey).toByteArray());
}

MainWindow::~MainWindow() = default;

void MainWindow::wireRuntime()
{
    connect(m_preview, &PreviewPanel::runtimeUpdated, this, [this] {
        for (int k = 0; k < SlotCount; ++k)
            m_panes->pane(k)->setRuntimeView(m_preview->runtimePaneView(k));
    });
    // Each runtime's last settings, so switching back finds them, and the
    // panes' hint about OpenClaw follows its settings under every runtime.
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes())
        m_preview->setRuntimeSettings(runtime->id(), m_runtimeMemory.settingsOf(*runtime));
    connect(m_preview,
            &PreviewPanel::runtimeProfileChosen,
            this,
            [this](const RuntimeProfile &chosen) {
                m_runtimeMemory.remember(m_model->directory(), chosen);
            });
    // Freeze and Export take what the chosen runtime injects.
    connect(m_preview, &PreviewPanel::runtimeProfileApplied, this, [this](const RuntimeProfile &p) {
        m_export->setRuntimeProfile(p);
        m_freeze->setRuntimeProfile(p);
        m_history->setRuntimeProfile(p);
    });
    // A folder opens with the runtime chosen for it last time.
    connect(m_model, &PersonaModel::opened, this, [this](const QString &dir) {
        const RuntimeProfile profile = m_runtimeMemory.profileFor(dir);
        if (profile != m_preview->runtimeProfile())
            m_preview->setRuntimeProfile(profile);
    });
    m_preview->setRuntimeProfile(m_runtimeMemory.profileFor(QString()));
}

bool MainWindow::chooseRuntime(const QString &id)
{
    const Runtime *runtime = RuntimeRegistry::instance().find(id);
    if (!runtime)
        return false;
    const RuntimeProfile profile = RuntimeProfile::of(runtime, m_preview->settingsFor(id));
    m_preview->setRuntimeProfile(profile);
    m_runtimeMemory.remember(m_model->directory(), profile);
    return true;
}

void MainWindow::setPrompter(std::unique_ptr<Prompter> prompter)
{
    m_prompter = std::move(prompter);
    m_documents->setPrompter(m_prompter.get());
    m_export->setPrompter(m_prompter.get());
    m_freeze->setPrompter(m_prompter.get());
    m_history->setPrompter(m_prompter.get());
}

void MainWindow::wireHistory()
{
    m_history->attach(this,
                      m_actions->showHistory,
                      m_actions->checkpoint,
                      m_actions->checkpointOnSave);
    m_history->setBudget(m_preview->tokenBar()->budget());
    connect(m_preview->tokenBar()->budgetChooser(),
            &QComboBox::currentTextChanged,
            m_history,
            [this] { m_history->setBudget(m_preview->tokenBar()->budget()); });
    connect(m_history, &HistoryController::statusMessage, this, [this](const QString &text) {
        showMessage(text, 8000);
    });
    connect(m_history, &HistoryController::compareRequested, this, &MainWindow::compareWith);
    connect(m_history,
            &HistoryController::checkpointNoteChanged,
            m_panes,
            [this](int slot, const QString &note) { m_panes->pane(slot)->setCheckpointNote(note); });
    for (int k = 0; k < SlotCount; ++k) {
        connect(m_panes->pane(k),
                &SlotPane::checkpointDiffRequested,
                m_history,
                &HistoryController::diffWithCheckpoint);
    }
}

void MainWindow::compareWith(const QString &soulPath)
{
    if (!m_compare) {
        m_compare = new CompareDialog(m_model, this);
        // Opening a snapshot reads it once and frees what the model holds too.
        connect(m_compare->controller(),
                &CompareController::updated,
                m_freedMemory,
                &FreedMemory::releaseSoon);
        m_compare->controller()->setView(
            m_preview->unsavedToggle()->isChecked() ? SoulView::Unsaved : SoulView::OnDisk);
        connect(m_preview->unsavedToggle(), &QCheckBox::toggled, m_compare, [this](bool unsaved) {
            m_compare->controller()->setView(unsaved ? SoulView::Unsaved : SoulView::OnDisk);
        });
        // The diff marks invisibles when the preview does, and the other way.
        m_compare->invisiblesToggle()->setChecked(m_preview->invisiblesToggle()->isChecked());
        connect(m_preview->invisiblesToggle(),
                &QCheckBox::toggled,
                m_compare->invisiblesToggle(),
                &QCheckBox::setChecked);
        connect(m_compare->invisiblesToggle(),
                &QCheckBox::toggled,
                m_preview->invisiblesToggle(),
                &QCheckBox::setChecked);
        connect(m_compare, &CompareDialog::jumpRequested, this, &MainWindow::goToLine);
    }
    m_compare->compareWith(soulPath);
    m_compare->show();
    m_compare->raise();
}

void MainWindow::goToLine(int slot, qint64 line, qint64 column)
{
    if (!m_model->isOpen() || slot < 0 || slot >= SlotCount)
        return;
    activateWindow();
    // Focusing the editor loads a large pane's text first.
    m_panes->showPane(slot);
    QPlainTextEdit *editor = m_panes->pane(slot)->editor();
    const QTextCursor cursor = m_panes->pane(slot)->cursorAt(line, column);
    if (cursor.isNull())
        return;
    editor->setTextCursor(cursor);
    editor->centerCursor();
    editor->setFocus(Qt::OtherFocusReason);
}

void MainWindow::start(const QString &dir)
{
    if (!dir.isEmpty()) {
        m_documents->open(dir);
        return;
    }
    const QString last = m_documents->lastDirectory();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        m_documents->open(last);
}

void MainWindow::buildUi()
{
    m_actions->fillMenuBar(menuBar());

    m_stack = new QStackedWidget(this);
    m_startView = new StartView(m_stack);
    m_startView->setExampleAvailable(!DocumentController::exampleDirectory().isEmpty());
    m_startView->setRecent(m_documents->recentDirectories());
    m_actions->setRecent(m_documents->recentDirectories());

    m_editorView = new QWidget(m_stack);
    m_lostBar = new DirectoryLostBar(m_editorView);

    auto *splitter = new QSplitter(Qt::Horizontal, m_editorView);
    m_splitter = splitter;
    auto *left = new QWidget(splitter);
    m_panes = new PaneStack(m_model, left);
    m_findBar = new FindBar(left);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_panes, 1);
    leftLayout->addWidget(m_findBar);
    m_preview = new PreviewPanel(m_model, splitter);
    splitter->addWidget(left);
    splitter->addWidget(m_preview);
    // Half the width each: the preview's monospace lines wrap raggedly when
    // it is narrow. Equal sizes are scaled to the splitter's width once it
    // has one; they must be above both sides' minimum widths to stay equal.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({10000, 10000});
    splitter->setChildrenCollapsible(false);

    auto *editorLayout = new QVBoxLayout(m_editorView);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(m_lostBar);
    editorLayout->addWidget(splitter, 1);

    m_stack->addWidget(m_startView);
    m_stack->addWidget(m_editorView);
    setCentralWidget(m_stack);

    m_statusDir = new QLabel(this);
    m_statusWatch = new QLabel(this);
    m_statusRefresh = new QLabel(this);
    // QStatusBar::showMessage() cuts a sentence at the bar's width; this
    // label wraps it instead, and the bar grows a line while it is shown.
    m_statusMessage = new QLabel(this);
    m_statusMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusMessage->setAccessibleName(tr("Status message"));
    m_statusMessage->hide();
    m_messageTimer.setSingleShot(true);
    connect(&m_messageTimer, &QTimer::timeout, this, [this] {
        m_statusMessage->hide();
        m_statusMessage->clear();
        m_statusDir->show();
    });
    statusBar()->addWidget(m_statusMessage, 1);
    statusBar()->addWidget(m_statusDir, 1);
    statusBar()->addPermanentWidget(m_statusWatch);
    statusBar()->addPermanentWidget(m_statusRefresh);
}

void MainWindow::wireModel()
{
    // Large texts were read, decoded and composed once, or replaced: what
    // that freed goes back to the system once the window is quiet.
    connect(m_model, &PersonaModel::opened, m_freedMemory, &FreedMemory::releaseSoon);
    connect(m_model, &PersonaModel::bufferReplaced, m_freedMemory, &FreedMemory::releaseSoon);
    connect(m_freeze, &FreezeController::frozen, m_freedMemory, &FreedMemory::releaseSoon);
    connect(m_freeze, &FreezeController::failed, m_freedMemory, &FreedMemory::releaseSoon);
    connect(m_export, &ExportController::exported, m_freedMemory, &FreedMemory::releaseSoon);
    connect(m_export, &ExportController::failed, m_freedMemory, &FreedMemory::releaseSoon);
    connect(m_model, &PersonaModel::opened, this, [this] {
        // Shown first, so the panes and the preview have their widths before
        // they take the text: a text view whose width changes afterwards
        // gives each of its lines a layout (hundreds of MiB on a large soul).
        showFolderState();
        for (int k = 0; k < SlotCount; ++k) {
            m_panes->pane(k)->reload();
            m_panes->pane(k)->refreshState();
        }
        m_preview->rebuild();
        // Another window has this folder: its unsaved text is its own, and
        // this one's is not kept for recovery.
        if (!m_model->recoveryUnavailable().isEmpty())
            QTimer::singleShot(0, this, [this] {
                if (m_model->isOpen() && !m_model->recoveryUnavailable().isEmpty())
                    showMessage(m_model->recoveryUnavailable(), 30000);
            });
        // Recovered text waits for an answer: show the first offer and put
        // the keyboard on it.
        for (int k = 0; k < SlotCount; ++k) {
            if (m_model->hasRecovery(k)) {
                m_panes->showPane(k);
                m_panes->pane(k)->recoveryBar()->restoreButton()->setFocus(Qt::OtherFocusReason);
                break;
            }
        }
    });
    connect(m_model, &PersonaModel::closed, this, [this] {
        for (int k = 0; k < SlotCount; ++k) {
            m_panes->pane(k)->reload();
            m_panes->pane(k)->refreshState();
        }
        m_preview->rebuild();
        m_currentSlot = -1;
        showFolderState();
    });
    connect(m_model, &PersonaModel::bufferReplaced, this, [this](int slot) {
        m_panes->pane(slot)->follow();
    });
    connect(m_model, &PersonaModel::slotStateChanged, this, [this](int slot) {
        m_panes->pane(slot)->refreshState();
        setWindowModified(m_model->hasUnsaved());
        showEditState(); // unsaved, or read-only, or editable again
    });
    connect(m_model, &PersonaModel::recoveryChanged, this, [this](int slot) {
        m_panes->pane(slot)->refreshState();
        showEditState();
    });
    connect(m_model, &PersonaModel::recoveryFailed, this, [this](const QString &error) {
        showMessage(error, 15000);
    });
    connect(m_model, &PersonaModel::directoryLostChanged, this, [this](bool lost) {
        if (lost)
            m_lostBar->showFor(m_model->directory());
        else
            m_lostBar->hide();
        // Every header says whether its file's folder is there.
        for (int k = 0; k < SlotCount; ++k)
            m_panes->pane(k)->refreshState();
        showStatus();
    });
    connect(m_lostBar,
            &DirectoryLostBar::saveElsewhereRequested,
            m_documents,
            &DocumentController::saveAllElsewhere);
    connect(m_lostBar, &DirectoryLostBar::closeRequested, m_documents, &DocumentController::close);
    connect(m_model, &PersonaModel::watchingChanged, this, [this] { showStatus(); });
    connect(m_model, &PersonaModel::refreshed, this, [this] { showStatus(); });
    connect(m_documents, &DocumentController::recentChanged, this, [this] {
        m_startView->setRecent(m_documents->recentDirectories());
        m_actions->setRecent(m_documents->recentDirectories());
    });
    connect(m_documents, &DocumentController::statusMessage, this, [this](const QString &text) {
        showMessage(text, 5000);
    });
    connect(m_export, &ExportController::statusMessage, this, [this](const QString &text) {
        showMessage(text, 5000);
    });
    connect(m_freeze, &FreezeController::statusMessage, this, [this](const QString &text) {
        showMessage(text, 5000);
    });
    connect(m_freeze, &FreezeController::recentChanged, this, [this] {
        m_actions->setRecentSnapshots(m_freeze->recent());
    });
}

void MainWindow::wirePanes()
{
    for (int k = 0; k < SlotCount; ++k) {
        SlotPane *pane = m_panes->pane(k);
        connect(pane, &SlotPane::textEdited, m_model, [this, pane](int slot) {
            m_model->setBufferText(slot, pane->text());
        });
        connect(pane, &SlotPane::createRequested, m_documents, &DocumentController::create);
        connect(pane, &SlotPane::saveRequested, m_documents, &DocumentController::save);
        connect(pane, &SlotPane::revertRequested, m_documents, &DocumentController::revert);
        connect(pane, &SlotPane::editAnywayRequested, m_model, &PersonaModel::editAnyway);
        connect(pane, &SlotPane::reloadRequested, m_documents, &DocumentController::revert);
        connect(pane, &SlotPane::keepMineRequested, m_model, &PersonaModel::keepMine);
        connect(pane, &SlotPane::compareRequested, m_documents, &DocumentController::compare);
        connect(pane, &SlotPane::discardRequested, m_documents, &DocumentController::revert);
        connect(pane,
                &SlotPane::renameCaseVariantRequested,
                m_documents,
                &DocumentController::renameCaseVariant);
        connect(pane, &SlotPane::restoreRecoveryRequested, m_model, &PersonaModel::restoreRecovery);
        connect(pane,
                &SlotPane::compareRecoveryRequested,
                m_documents,
                &DocumentController::compareRecovery);
        connect(pane, &SlotPane::discardRecoveryRequested, m_model, &PersonaModel::discardRecovery);
        connect(pane, &SlotPane::focused, this, [this, pane](int slot) {
            m_currentSlot = slot;
            m_findBar->setTarget(pane->editor());
            showEditState();
        });
        QPlainTextEdit *editor = pane->editor();
        for (auto available : {&QPlainTextEdit::undoAvailable, &QPlainTextEdit::redoAvailable}) {
            connect(editor, available, this, [this, k] {
                if (k == m_currentSlot)
                    showEditState();
            });
        }
    }
    connect(m_preview->preview(), &SoulPreview::paneRequested, m_panes, &PaneStack::showPane);
}

void MainWindow::wireActions()
{
    connect(m_actions->open, &QAction::triggered, m_documents, &DocumentController::openWithDialog);
    connect(m_actions->newPersona,
            &QAction::triggered,
            m_documents,
            &DocumentController::newPersona);
    connect(m_actions->openExample, &QAction::triggered, m_documents, [this] {
        m_documents->open(DocumentController::exampleDirectory());
    });
    connect(m_actions->closeFolder, &QAction::triggered, m_documents, &DocumentController::close);
    // Enabled while the pane last focused has unsaved edits, or is
    // read-only, so that Ctrl+S there says why nothing is saved.
    connect(m_actions->save, &QAction::triggered, this, [this] {
        if (m_currentSlot < 0)
            return;
        if (!m_model->slot(m_currentSlot).dirty) {
            m_documents->explainNothingToSave(m_currentSlot);
            return;
        }
        m_documents->save(m_currentSlot);
    });
    connect(m_actions->saveAll, &QAction::triggered, m_documents, &DocumentController::saveAll);
    connect(m_actions->revert, &QAction::triggered, this, [this] {
        if (m_currentSlot >= 0)
            m_documents->revert(m_currentSlot);
    });
    connect(m_actions->exportSnapshot,
            &QAction::triggered,
            m_export,
            &ExportController::exportSnapshot);
    connect(m_actions->freeze, &QAction::triggered, m_freeze, &FreezeController::freeze);
    connect(m_actions->changeSnapshotsFolder,
            &QAction::triggered,
            m_freeze,
            &FreezeController::changeSnapshotsFolder);
    connect(m_actions, &WindowActions::snapshotRequested, this, &MainWindow::compareWith);
    connect(m_actions->compareWithSnapshot, &QAction::triggered, this, [this] {
        QString start = m_freeze->snapshotsFolder();
        if (start.isEmpty())
            start = QFileInfo(m_model->directory()).dir().absolutePath();
        const QString soulPath = m_prompter->askSnapshotFile(start);
        if (!soulPath.isEmpty())
            compareWith(soulPath);
    });
    connect(m_actions->copySoul, &QAction::triggered, m_export, [this] {
        // What the preview shows: the soul, or what the chosen runtime injects.
        if (m_preview->runtimeProfile().sectioned())
            m_export->copySoul(m_preview->preview()->view());
        else
            m_export->copyText(m_preview->runtimeBytes(), m_preview->runtimeProfile().displayName());
    });
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->undo, &QAction::triggered, this, [this] {
        if (m_currentSlot >= 0)
            m_panes->pane(m_currentSlot)->editor()->undo();
    });
    connect(m_actions->redo, &QAction::triggered, this, [this] {
        if (m_currentSlot >= 0)
            m_panes->pane(m_currentSlot)->editor()->redo();
    });
    connect(m_actions, &WindowActions::recentRequested, m_documents, [this](const QString &dir) {
        m_documents->open(dir);
    });
    connect(m_actions->clearRecent,
            &QAction::triggered,
            m_documents,
            &DocumentController::clearRecent);
    connect(m_actions->find, &QAction::triggered, this, [this] {
        if (!m_findBar->target())
            m_findBar->setTarget(m_panes->pane(0)->editor());
        m_findBar->activate();
    });
    connect(m_actions->showInvisibles,
            &QAction::toggled,
            m_preview->invisiblesToggle(),
            &QCheckBox::setChecked);
    connect(m_preview->invisiblesToggle(),
            &QCheckBox::toggled,
            m_actions->showInvisibles,
            &QAction::setChecked);
    connect(m_preview->invisiblesToggle(), &QCheckBox::toggled, m_panes, [this](bool show) {
        for (int k = 0; k < SlotCount; ++k)
            m_panes->pane(k)->setShowInvisibles(show);
    });
    connect(m_actions->showOnDisk,
            &QAction::toggled,
            m_preview->unsavedToggle(),
            [this](bool onDisk) { m_preview->unsavedToggle()->setChecked(!onDisk); });
    connect(m_preview->unsavedToggle(),
            &QCheckBox::toggled,
            m_actions->showOnDisk,
            [this](bool unsaved) { m_actions->showOnDisk->setChecked(!unsaved); });
    connect(m_actions->focusPreview, &QAction::triggered, m_preview->preview(), [this] {
        m_preview->preview()->setFocus(Qt::ShortcutFocusReason);
    });
    for (int k = 0; k < SlotCount; ++k) {
        connect(m_actions->jumpToSlot[size_t(k)], &QAction::triggered, m_panes, [this, k] {
            m_panes->showPane(k);
        });
    }
    connect(m_startView,
            &StartView::openRequested,
            m_documents,
            &DocumentController::openWithDialog);
    connect(m_startView,
            &StartView::newPersonaRequested,
            m_documents,
            &DocumentController::newPersona);
    connect(m_startView, &StartView::exampleRequested, m_documents, [this] {
        m_documents->open(DocumentController::exampleDirectory());
    });
    connect(m_startView, &StartView::recentRequested, m_documents, [this](const QString &dir) {
        m_documents->open(dir);
    });
}

void MainWindow::wireTokens()
{
    for (int k = 0; k < SlotCount; ++k)
        m_panes->pane(k)->setTokenCounter(m_tokens);
    m_preview->setTokenCounter(m_tokens);
    // The remembered encoding is chosen before the default one would load.
    m_preview->tokenBar()->setSettings(m_settings.get());
    connect(m_preview->tokenBar(), &TokenBar::tokenizerFileRequested, this, [this] {
        const QString file = m_prompter->askTokenizerFile(
            QFileInfo(m_tokens->tokenizerFile()).absolutePath());
        if (!file.isEmpty())
            m_tokens->setTokenizerFile(file);
    });
    connect(m_tokens, &SoulTokenCounter::tokenizerFailed, this, [this](const QString &error) {
        m_prompter->showError(tr("Tokenizer"), error);
    });
}

void MainWindow::showFolderState()
{
    const bool open = m_model->isOpen();
    m_stack->setCurrentWidget(open ? m_editorView : m_startView);
    m_actions->setFolderOpen(open);
    m_actions->setRecentSnapshots(m_freeze->recent());
    if (!open)
        m_lostBar->hide();
    // [*] is where Qt puts the modified mark while any pane has unsaved edits.
    setWindowTitle(open ? tr("%1[*] — Soul Studio").arg(QFileInfo(m_model->directory()).fileName())
                        : tr("Soul Studio"));
    setWindowModified(m_model->hasUnsaved());
    showEditState();
    showStatus();
}

void MainWindow::showEditState()
{
    // A read-only pane (an offer of recovered text, undecodable bytes) keeps
    // its undo history but must not be changed through it.
    const QPlainTextEdit *editor = m_model->isOpen() && m_currentSlot >= 0
                                       ? m_panes->pane(m_currentSlot)->editor()
                                       : nullptr;
    const bool editable = editor && !editor->isReadOnly() && editor->isEnabled();
    WindowActions::EditState state;
    state.canUndo = editable && editor->document()->isUndoAvailable();
    state.canRedo = editable && editor->document()->isRedoAvailable();
    state.currentUnsaved = editor && m_model->slot(m_currentSlot).dirty;
    state.currentReadOnly = editor && editor->isReadOnly();
    state.anyUnsaved = m_model->isOpen() && m_model->hasUnsaved();
    m_actions->setEditState(state);
}

void MainWindow::showMessage(const QString &text, int ms)
{
    // Wrapped only when it does not fit: a wrapping label asks the bar for
    // the height of a narrow column, two lines for any sentence.
    const int room = statusBar()->width() - m_statusWatch->width() - m_statusRefresh->width()
                     - 4 * statusBar()->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing)
                     - 24;
    m_statusMessage->setWordWrap(m_statusMessage->fontMetrics().horizontalAdvance(text) > room);
    m_statusMessage->setText(text);
    m_statusMessage->show();
    m_statusDir->hide();
    m_messageTimer.start(ms);
}

void MainWindow::showStatus()
{
    if (!m_model->isOpen()) {
        m_statusDir->setText(tr("No folder open"));
        m_statusWatch->clear();
        m_statusRefresh->clear();
        return;
    }
    m_statusDir->setText(QDir::toNativeSeparators(m_model->directory()));
    m_statusWatch->setText(m_model->directoryLost() ? tr("folder missing")
                           : m_model->isWatching()  ? tr("watching")
                                                    : tr("not watching"));
    m_statusRefresh->setText(
        tr("last refresh %1")
            .arg(m_model->lastRefresh().time().toString(QStringLiteral("HH:mm:ss"))));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_documents->close()) {
        event->ignore();
        return;
    }
    m_settings->setValue(GeometryKey, saveGeometry());
    m_settings->setValue(SplitterKey, m_splitter->saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()
        && QFileInfo(urls.first().toLocalFile()).isDir())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile()) {
        event->acceptProposedAction();
        m_documents->open(urls.first().toLocalFile());
    }
}

} // namespace soul
