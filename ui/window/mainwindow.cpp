#include "mainwindow.h"

#include "agentssidebar.h"
#include "chat/chatroom.h"
#include "compare/comparedialog.h"
#include "comparecontroller.h"
#include "compose/utf8.h"
#include "dialogprompter.h"
#include "documentcontroller.h"
#include "exportcontroller.h"
#include "freedmemory.h"
#include "freezecontroller.h"
#include "heap.h"
#include "history/grouphistorycontroller.h"
#include "history/historycontroller.h"
#include "linkpanes.h"
#include "linksession.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "personaeditor.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "preview/tokenbar.h"
#include "prompter.h"
#include "roomhost.h"
#include "runtimepreview.h"
#include "sameslotnotes.h"
#include "skills/skillsroom.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "startview.h"
#include "tests/testsroom.h"
#include "windowactions.h"
#include "workspace.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>

// Resources of a static library are registered by hand, outside any namespace.
static void initSoulStudioResources()
{
    Q_INIT_RESOURCE(soulstudio);
}

namespace soul {

namespace {

const QString GeometryKey = QStringLiteral("window/geometry");
const QString SplitterKey = QStringLiteral("window/splitter");
const QString SidebarKey = QStringLiteral("window/sidebar");

// Puts `bytes` (UTF-8) on the clipboard: as text, and as the exact bytes.
void copyToClipboard(const QByteArray &bytes)
{
    auto *mime = new QMimeData;
    mime->setText(utf8::decode(bytes));
    mime->setData(QStringLiteral("text/plain;charset=utf-8"), bytes);
    QGuiApplication::clipboard()->setMimeData(mime);
}

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
{
    initSoulStudioResources();
    m_freedMemory = new FreedMemory(this);
    m_actions = new WindowActions(this);
    m_splitterState = m_settings->value(SplitterKey).toByteArray();
    setWindowIcon(QIcon(QStringLiteral(":/soulstudio/icons/soulstudio.svg")));
    setAcceptDrops(true);
    buildUi();
    m_sameNotes = new SameSlotNotes(this);
    m_workspace = new Workspace(m_prompter.get(), m_settings.get(), this);
    m_linkPanes = new LinkPanes(m_workspace, this);
    connect(m_linkPanes, &LinkPanes::message, this, &MainWindow::showMessage);
    // Save on a linked pane follows its group's state.
    connect(m_workspace->links(), &LinkSession::changed, this, &MainWindow::showEditState);
    m_sidebar->setModel(m_workspace->agents());
    wireWorkspace();
    showCurrent(m_workspace->currentIndex());
    m_history = new HistoryController(currentSession(), m_settings.get(), this);
    wireActions();
    wireHistory();
    wireRooms();
    showFolderState();
    // Roomy by default, but never larger than the screen it opens on; after
    // the first run, as the user left it.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1400, 900);
    resize(QSize(1400, 900).boundedTo(available * 0.92));
    restoreGeometry(m_settings->value(GeometryKey).toByteArray());
    m_body->restoreState(m_settings->value(SidebarKey).toByteArray());
}

MainWindow::~MainWindow() = default;

int MainWindow::sessionCount() const
{
    return m_workspace->count();
}

PersonaSession *MainWindow::session(int index) const
{
    return m_workspace->session(index);
}

PersonaEditor *MainWindow::editor(int index) const
{
    // Made when first asked for, with its folder read: a roster's editors
    // are built as their folders open, or when shown.
    m_workspace->session(index);
    return const_cast<MainWindow *>(this)->ensureEditor(index);
}

int MainWindow::currentIndex() const
{
    return m_workspace->currentIndex();
}

PersonaModel *MainWindow::model() const
{
    return currentSession()->model();
}

DocumentController *MainWindow::documents() const
{
    return currentSession()->documents();
}

ExportController *MainWindow::exporter() const
{
    return currentSession()->exporter();
}

FreezeController *MainWindow::freezer() const
{
    return currentSession()->freezer();
}

PaneStack *MainWindow::panes() const
{
    return currentEditor()->panes();
}

PreviewPanel *MainWindow::previewPanel() const
{
    return currentEditor()->previewPanel();
}

SoulTokenCounter *MainWindow::tokenCounter() const
{
    return currentSession()->tokens();
}

void MainWindow::wireWorkspace()
{
    for (int i = 0; i < m_workspace->count(); ++i)
        followSession(i);
    connect(m_workspace, &Workspace::sessionAdded, this, &MainWindow::followSession);
    // The editor is made before its folder opens: a text view whose width
    // changes after it took its text gives each of its lines a layout
    // (hundreds of MiB on a large soul).
    connect(m_workspace, &Workspace::sessionOpening, this, [this](int index) {
        ensureEditor(index);
    });
    connect(m_workspace,
            &Workspace::sessionRemoved,
            this,
            [this](int index, PersonaSession *session) {
                PersonaEditor *gone = m_editorOf.at(size_t(index));
                m_editorOf.erase(m_editorOf.begin() + index);
                m_actions->setAgentCount(sessionCount());
                if (!gone)
                    return;
                m_sameNotes->remove(session);
                m_linkPanes->remove(session);
                if (gone == m_shown) {
                    m_splitterState = gone->splitter()->saveState();
                    m_shown = nullptr;
                }
                m_editors->removeWidget(gone);
                gone->deleteLater();
            });
    connect(m_workspace, &Workspace::currentChanged, this, &MainWindow::showCurrent);
    connect(m_workspace, &Workspace::rosterChanged, this, &MainWindow::showFolderState);
    connect(m_workspace, &Workspace::message, this, &MainWindow::showMessage);
    connect(m_workspace, &Workspace::compareRequested, this, &MainWindow::compareWith);
    connect(m_sidebar, &AgentsSidebar::currentChanged, this, &MainWindow::setCurrentIndex);
}

void MainWindow::followSession(int index)
{
    PersonaSession *session = m_workspace->at(index);
    m_editorOf.insert(m_editorOf.begin() + index, nullptr);
    m_actions->setAgentCount(sessionCount());
    PersonaModel *model = session->model();
    const auto whenShown = [this, session](void (MainWindow::*shows)()) {
        return [this, session, shows] {
            if (session == currentSession())
                (this->*shows)();
        };
    };
    connect(model, &PersonaModel::opened, this, whenShown(&MainWindow::showFolderState));
    connect(model, &PersonaModel::closed, this, whenShown(&MainWindow::showFolderState));
    connect(model, &PersonaModel::watchingChanged, this, whenShown(&MainWindow::showStatus));
    connect(model, &PersonaModel::refreshed, this, whenShown(&MainWindow::showStatus));
    connect(model, &PersonaModel::directoryLostChanged, this, whenShown(&MainWindow::showStatus));
    const auto soulMoved = [this, session] {
        if (m_rooms && session == currentSession())
            m_rooms->soulMayHaveChanged();
    };
    connect(model, &PersonaModel::sectionChanged, this, soulMoved);
    connect(model, &PersonaModel::opened, this, soulMoved);
    connect(session->runtimePreview(), &RuntimePreview::compositionChanged, this, soulMoved);
    connect(session->runtimePreview(), &RuntimePreview::profileChanged, this, soulMoved);

    // Large texts were read, decoded and composed once, or replaced: what
    // that freed goes back to the system once the window is quiet.
    m_freedMemory->follow(session);

    connect(session->documents(), &DocumentController::recentChanged, this, [this, session] {
        m_startView->setRecent(session->documents()->recentPlaces());
        m_actions->setRecent(session->documents()->recentPlaces());
    });
    connect(session->freezer(), &FreezeController::recentChanged, this, [this, session] {
        if (session == currentSession())
            m_actions->setRecentSnapshots(session->freezer()->recent());
    });
    // The runtime the session chose: the text views' memory and the History
    // dock follow the one shown.
    connect(session->runtimePreview(),
            &RuntimePreview::profileChanged,
            this,
            [this, session](const RuntimeProfile &p) {
                if (session != currentSession())
                    return;
                followShownRuntime(p);
                if (m_history)
                    m_history->setRuntimeProfile(p);
            });
}

PersonaEditor *MainWindow::ensureEditor(int index)
{
    PersonaSession *session = m_workspace->at(index);
    if (!session)
        return nullptr;
    if (PersonaEditor *made = m_editorOf.at(size_t(index)))
        return made;
    auto *editor = new PersonaEditor(session, m_settings.get(), m_editors);
    m_editorOf[size_t(index)] = editor;
    m_editors->addWidget(editor);
    if (m_editors->currentWidget() != editor)
        editor->setUpdatesEnabled(false); // see showPage()
    m_sameNotes->add(session, editor);
    m_linkPanes->add(session, editor);
    if (!m_splitterState.isEmpty())
        editor->splitter()->restoreState(m_splitterState);
    connect(editor, &PersonaEditor::editStateChanged, this, [this, editor] {
        setWindowModified(m_workspace->hasUnsaved());
        if (editor == m_shown)
            showEditState();
    });
    connect(editor, &PersonaEditor::message, this, &MainWindow::showMessage);

    PreviewPanel *preview = editor->previewPanel();
    connect(preview->invisiblesToggle(),
            &QCheckBox::toggled,
            m_actions->showInvisibles,
            &QAction::setChecked);
    connect(preview->unsavedToggle(),
            &QCheckBox::toggled,
            m_actions->showOnDisk,
            [this](bool unsaved) { m_actions->showOnDisk->setChecked(!unsaved); });
    preview->invisiblesToggle()->setChecked(m_actions->showInvisibles->isChecked());
    preview->unsavedToggle()->setChecked(!m_actions->showOnDisk->isChecked());

    // The History dock follows the session shown.
    for (int k = 0; k < SlotCount; ++k) {
        connect(editor->panes()->pane(k),
                &SlotPane::checkpointDiffRequested,
                this,
                [this](int slot) { m_history->diffWithCheckpoint(slot); });
    }
    connect(preview->tokenBar()->budgetChooser(),
            &QComboBox::currentTextChanged,
            this,
            [this, editor] {
                if (m_history && editor == m_shown)
                    m_history->setBudget(editor->previewPanel()->tokenBar()->budget());
            });
    return editor;
}

void MainWindow::setCurrentIndex(int index)
{
    m_workspace->setCurrentIndex(index);
}

void MainWindow::showCurrent(int index)
{
    PersonaEditor *shown = editor(index);
    if (!shown)
        return;
    if (shown != m_shown) {
        if (m_shown)
            m_splitterState = m_shown->splitter()->saveState();
        m_shown = shown;
        showPage(shown);
        followShownRuntime(shown->previewPanel()->runtimeProfile());
        if (!m_splitterState.isEmpty())
            shown->splitter()->restoreState(m_splitterState);
        if (m_history) {
            m_history->setSession(currentSession());
            m_history->setRuntimeProfile(shown->previewPanel()->runtimeProfile());
            m_history->setBudget(shown->previewPanel()->tokenBar()->budget());
        }
        // A comparison was of the persona shown before: it ends, and its
        // snapshot's sections are let go.
        if (m_compare) {
            m_compare->controller()->close();
            m_compare->close();
            m_compare->deleteLater();
            m_compare = nullptr;
        }
    }
    m_sidebar->setCurrent(index);
    if (m_rooms)
        m_rooms->setSession(currentSession());
    showFolderState();
}

void MainWindow::setPrompter(std::unique_ptr<Prompter> prompter)
{
    m_prompter = std::move(prompter);
    m_workspace->setPrompter(m_prompter.get());
}

bool MainWindow::chooseRuntime(const QString &id)
{
    return currentSession()->runtimePreview()->chooseRuntime(id);
}

void MainWindow::start(const QString &dir)
{
    if (!dir.isEmpty())
        m_workspace->openFolder(dir);
    else
        m_workspace->openLast(); // else the start view shows
}

bool MainWindow::openOpenClawAgents(const QString &configFile)
{
    return m_workspace->openOpenClawAgents(configFile);
}

bool MainWindow::openPersonaFolder(const QString &parent)
{
    return m_workspace->openPersonaFolder(parent);
}

bool MainWindow::openHermesHome(const QString &home,
                                const QString &project,
                                const QString &projectFile)
{
    return m_workspace->openHome(home, project, projectFile);
}

QString MainWindow::lastHermesProject() const
{
    return m_workspace->lastHomeProject();
}

void MainWindow::compareWithAgent(int other)
{
    if (model()->isOpen())
        m_workspace->compareWithAgent(other, previewPanel()->preview()->view());
}

void MainWindow::copySlotToAgents(int slot, const QList<int> &targets)
{
    m_workspace->copySlotToAgents(slot, targets);
}

void MainWindow::wireHistory()
{
    m_history->attach(this,
                      m_actions->showHistory,
                      m_actions->checkpoint,
                      m_actions->checkpointOnSave);
    m_history->setBudget(previewPanel()->tokenBar()->budget());
    m_history->setRuntimeProfile(previewPanel()->runtimeProfile());
    connect(m_history, &HistoryController::statusMessage, this, [this](const QString &text) {
        showMessage(text, 8000);
    });
    connect(m_history, &HistoryController::compareRequested, this, &MainWindow::compareWith);
    connect(m_history,
            &HistoryController::checkpointNoteChanged,
            this,
            [this](int slot, const QString &note) { panes()->pane(slot)->setCheckpointNote(note); });

    m_groupHistory = new GroupHistoryController(m_workspace->groupHistory(), m_history, this);
    connect(m_groupHistory,
            &GroupHistoryController::statusMessage,
            this,
            [this](const QString &text) { showMessage(text, 10000); });
    connect(m_actions->linkHistory, &QAction::triggered, m_groupHistory, [this] {
        m_groupHistory->show();
    });
    connect(m_actions->linkCheckpoint, &QAction::triggered, m_groupHistory, [this] {
        m_groupHistory->checkpoint();
    });
    showEditState();
}

void MainWindow::wireRooms()
{
    m_rooms = new RoomHost(this, m_actions->roomsMenu, m_settings.get());
    new ChatRoom(m_rooms);
    new TestsRoom(m_rooms);
    auto *skills = new SkillsRoom(m_rooms);
    connect(skills, &SkillsRoom::openRequested, this, [this, skills](const QString &path) {
        if (PersonaEditor *editor = currentEditor(); editor && editor->openDocument(path))
            editor->setDocumentLints(skills->skillLints());
    });
    connect(skills,
            &SkillsRoom::skillLintsChanged,
            this,
            [this](const QHash<QString, QList<Lint>> &lints) {
                if (PersonaEditor *editor = currentEditor())
                    editor->setDocumentLints(lints);
            });
    m_rooms->setSession(currentSession());
}

void MainWindow::compareWith(const QString &soulPath)
{
    if (!m_compare) {
        PreviewPanel *preview = previewPanel();
        m_compare = new CompareDialog(currentSession()->compare(), this);
        // Opening a snapshot reads it once and frees what the model holds too.
        connect(m_compare->controller(),
                &CompareController::updated,
                m_freedMemory,
                &FreedMemory::releaseSoon,
                Qt::UniqueConnection);
        m_compare->controller()->setView(preview->unsavedToggle()->isChecked() ? SoulView::Unsaved
                                                                               : SoulView::OnDisk);
        CompareDialog *dialog = m_compare;
        connect(preview->unsavedToggle(), &QCheckBox::toggled, dialog, [dialog](bool unsaved) {
            dialog->controller()->setView(unsaved ? SoulView::Unsaved : SoulView::OnDisk);
        });
        // The diff marks invisibles when the preview does, and the other way.
        m_compare->invisiblesToggle()->setChecked(preview->invisiblesToggle()->isChecked());
        connect(preview->invisiblesToggle(),
                &QCheckBox::toggled,
                m_compare->invisiblesToggle(),
                &QCheckBox::setChecked);
        connect(m_compare->invisiblesToggle(),
                &QCheckBox::toggled,
                preview->invisiblesToggle(),
                &QCheckBox::setChecked);
        connect(m_compare, &CompareDialog::jumpRequested, this, &MainWindow::goToLine);
    }
    m_compare->compareWith(soulPath);
    m_compare->show();
    m_compare->raise();
}

void MainWindow::goToLine(int slot, qint64 line, qint64 column)
{
    activateWindow();
    currentEditor()->goToLine(slot, line, column);
}

void MainWindow::buildUi()
{
    m_actions->fillMenuBar(menuBar());

    m_stack = new QStackedWidget(this);
    m_startView = new StartView(m_stack);
    m_startView->setExampleAvailable(!DocumentController::exampleDirectory().isEmpty());

    m_body = new QSplitter(Qt::Horizontal, m_stack);
    m_sidebar = new AgentsSidebar(m_body);
    m_editors = new QStackedWidget(m_body);
    m_missing = new QLabel(m_editors);
    m_missing->setObjectName(QStringLiteral("missingWorkspace"));
    m_missing->setWordWrap(true);
    m_missing->setAlignment(Qt::AlignCenter);
    m_missing->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_missing->setMargin(24);
    m_editors->addWidget(m_missing);
    m_body->addWidget(m_sidebar);
    m_body->addWidget(m_editors);
    m_body->setStretchFactor(0, 0);
    m_body->setStretchFactor(1, 1);
    m_body->setSizes({240, 10000});
    m_body->setChildrenCollapsible(false);
    m_sidebar->hide();

    m_stack->addWidget(m_startView);
    m_stack->addWidget(m_body);
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

QStringList MainWindow::agentNames() const
{
    QStringList names;
    for (int i = 0; i < sessionCount(); ++i)
        names.append(m_workspace->at(i)->agent().id);
    return names;
}

void MainWindow::wireActions()
{
    m_startView->setRecent(documents()->recentPlaces());
    m_actions->setRecent(documents()->recentPlaces());
    connect(m_actions->open, &QAction::triggered, m_workspace, &Workspace::askAndOpenFolder);
    connect(m_actions->newPersona, &QAction::triggered, m_workspace, &Workspace::newPersona);
    connect(m_actions->openExample, &QAction::triggered, this, [this] {
        m_workspace->openFolder(DocumentController::exampleDirectory());
    });
    connect(m_actions->openAgents, &QAction::triggered, this, [this] { openOpenClawAgents(); });
    connect(m_actions->openPersonaFolder,
            &QAction::triggered,
            m_workspace,
            &Workspace::askAndOpenPersonaFolder);
    connect(m_actions->openHermesHome, &QAction::triggered, m_workspace, &Workspace::askAndOpenHome);
    connect(m_actions->closeFolder, &QAction::triggered, this, [this] {
        m_workspace->closeAt(currentIndex());
    });
    // Enabled while the pane last focused has unsaved edits, or is
    // read-only, so that Ctrl+S there says why nothing is saved.
    connect(m_actions->save, &QAction::triggered, this, [this] { currentEditor()->save(); });
    connect(m_actions->saveAll, &QAction::triggered, this, [this] { documents()->saveAll(); });
    connect(m_actions->revert, &QAction::triggered, this, [this] { currentEditor()->revert(); });
    connect(m_actions->exportSnapshot, &QAction::triggered, this, [this] {
        exporter()->exportSnapshot();
    });
    connect(m_actions->freeze, &QAction::triggered, this, [this] { freezer()->freeze(); });
    connect(m_actions->changeSnapshotsFolder, &QAction::triggered, this, [this] {
        freezer()->changeSnapshotsFolder();
    });
    connect(m_actions, &WindowActions::snapshotRequested, this, &MainWindow::compareWith);
    connect(m_actions->compareWithSnapshot, &QAction::triggered, this, [this] {
        QString start = freezer()->snapshotsFolder();
        if (start.isEmpty())
            start = QFileInfo(model()->directory()).dir().absolutePath();
        const QString soulPath = m_prompter->askSnapshotFile(start);
        if (!soulPath.isEmpty())
            compareWith(soulPath);
    });
    connect(m_actions->copySoul, &QAction::triggered, this, [this] {
        // What the preview shows: the soul, or what the chosen runtime injects.
        const QByteArray bytes = currentEditor()->shownBytes();
        copyToClipboard(bytes);
        const RuntimeProfile profile = previewPanel()->runtimeProfile();
        showMessage(profile.sectioned()
                        ? tr("Copied the soul (%1 bytes) to the clipboard").arg(bytes.size())
                        : tr("Copied what %1 injects (%2 bytes) to the clipboard")
                              .arg(profile.displayName())
                              .arg(bytes.size()),
                    5000);
    });
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->undo, &QAction::triggered, this, [this] { currentEditor()->undo(); });
    connect(m_actions->finishSetup, &QAction::triggered, this, [this] {
        currentEditor()->finishSetup();
    });
    connect(m_actions->redo, &QAction::triggered, this, [this] { currentEditor()->redo(); });
    connect(m_actions, &WindowActions::recentRequested, m_workspace, &Workspace::openRecent);
    connect(m_actions->clearRecent, &QAction::triggered, this, [this] {
        documents()->clearRecent();
    });
    connect(m_actions->find, &QAction::triggered, this, [this] { currentEditor()->find(); });
    connect(m_actions->showInvisibles, &QAction::toggled, this, [this](bool show) {
        for (PersonaEditor *editor : m_editorOf) {
            if (editor)
                editor->previewPanel()->invisiblesToggle()->setChecked(show);
        }
    });
    connect(m_actions->showOnDisk, &QAction::toggled, this, [this](bool onDisk) {
        for (PersonaEditor *editor : m_editorOf) {
            if (editor)
                editor->previewPanel()->unsavedToggle()->setChecked(!onDisk);
        }
    });
    connect(m_actions->focusPreview, &QAction::triggered, this, [this] {
        previewPanel()->preview()->setFocus(Qt::ShortcutFocusReason);
    });
    connect(m_actions->focusRuntimeFile, &QAction::triggered, this, [this] {
        if (!panes()->showDocumentPane())
            showMessage(tr("The chosen runtime reads no file beside the seven."), 5000);
    });
    connect(m_actions->focusHistory, &QAction::triggered, this, [this] {
        if (m_history)
            m_history->focusCommits();
    });
    for (int k = 0; k < SlotCount; ++k) {
        connect(m_actions->jumpToSlot[size_t(k)], &QAction::triggered, this, [this, k] {
            panes()->showPane(k);
        });
    }
    connect(m_actions->nextAgent, &QAction::triggered, this, [this] {
        setCurrentIndex((currentIndex() + 1) % sessionCount());
    });
    connect(m_actions->previousAgent, &QAction::triggered, this, [this] {
        setCurrentIndex((currentIndex() + sessionCount() - 1) % sessionCount());
    });
    connect(m_actions->compareAgents, &QAction::triggered, this, [this] {
        const QStringList names = agentNames();
        const int other
            = m_prompter->askAgent(tr("Compare %1 with").arg(names.value(currentIndex())),
                                   names,
                                   currentIndex());
        if (other >= 0)
            compareWithAgent(other);
    });
    connect(m_actions->copySlotToAgents, &QAction::triggered, this, [this] {
        const int slot = currentEditor()->currentSlot();
        if (slot < 0) {
            showMessage(tr("Click into the pane of the file to copy first."), 5000);
            return;
        }
        const QStringList names = agentNames();
        const QList<int> targets = m_prompter->askAgents(tr("Copy %1 of %2 to")
                                                             .arg(slotName(slot),
                                                                  names.value(currentIndex())),
                                                         names,
                                                         currentIndex());
        copySlotToAgents(slot, targets);
    });
    m_linkPanes->attach(m_actions,
                        [this] { return currentEditor() ? currentEditor()->currentSlot() : -1; });
    connect(m_startView, &StartView::openRequested, m_workspace, &Workspace::askAndOpenFolder);
    connect(m_startView, &StartView::newPersonaRequested, m_workspace, &Workspace::newPersona);
    connect(m_startView, &StartView::exampleRequested, this, [this] {
        m_workspace->openFolder(DocumentController::exampleDirectory());
    });
    connect(m_startView, &StartView::agentsRequested, this, [this] { openOpenClawAgents(); });
    connect(m_startView, &StartView::hermesHomeRequested, m_workspace, &Workspace::askAndOpenHome);
    connect(m_startView, &StartView::recentRequested, m_workspace, &Workspace::openRecent);
}

void MainWindow::showFolderState()
{
    const bool open = model()->isOpen();
    const bool roster = m_workspace->isRoster();
    m_stack->setCurrentWidget(open || roster ? static_cast<QWidget *>(m_body) : m_startView);
    m_sidebar->setVisible(roster);
    if (open) {
        showPage(currentEditor());
    } else if (roster) {
        m_missing->setText(m_workspace->missingNote());
        showPage(m_missing);
    }
    m_actions->setFolderOpen(open);
    // An agent without a workspace can still be closed.
    m_actions->closeFolder->setEnabled(open || roster);
    m_actions->setAgentCount(sessionCount());
    m_actions->setRecentSnapshots(freezer()->recent());
    // [*] is where Qt puts the modified mark while any pane has unsaved edits.
    setWindowTitle(open || roster ? tr("%1[*] — Soul Studio").arg(m_workspace->currentTitle())
                                  : tr("Soul Studio"));
    setWindowModified(m_workspace->hasUnsaved());
    showEditState();
    showStatus();
}

void MainWindow::showPage(QWidget *page)
{
    // QStackedWidget turns updates off and on again for all of its pages at
    // every switch, each agent's hundreds of widgets (a sixth of the CPU
    // time of soulstudio-bench's agents_20). A page not shown keeps its
    // updates off, which Qt
    // then leaves alone, so a switch walks only the two pages it changes.
    // (Removing the current page makes the stack show another one itself.)
    page->setUpdatesEnabled(true);
    QWidget *before = m_editors->currentWidget();
    if (before == page)
        return;
    // The focus goes to the page shown, where it was last in it, before the
    // page it leaves is hidden: hiding a page that holds the focus makes Qt
    // walk the window's focus chain, every agent's widgets, for the next one.
    QWidget *focused = QApplication::focusWidget();
    const bool focusLeaves = before && focused && before->isAncestorOf(focused);
    if (focusLeaves)
        focused->clearFocus();
    m_editors->setCurrentWidget(page);
    if (focusLeaves) {
        if (QWidget *last = page->focusWidget())
            last->setFocus(Qt::OtherFocusReason);
        else
            page->setFocus(Qt::OtherFocusReason);
    }
    if (before)
        before->setUpdatesEnabled(false);
}

void MainWindow::showEditState()
{
    m_actions->setEditState(currentEditor()->editState());
    // The linked file's history follows the pane last focused.
    if (m_groupHistory)
        m_groupHistory->follow(currentIndex(), currentEditor()->currentSlot());
}

void MainWindow::followShownRuntime(const RuntimeProfile &shown)
{
    const bool mapped = !shown.sectioned();
    // Left as the allocator has it until another runtime is first shown.
    if (mapped != largeBlocksMapped())
        mapLargeBlocks(mapped);
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
    const PersonaModel *shown = model();
    m_statusDir->setText(m_workspace->currentPlace());
    if (!shown->isOpen()) {
        m_statusWatch->clear();
        m_statusRefresh->clear();
        return;
    }
    m_statusWatch->setText(shown->directoryLost() ? tr("folder missing")
                           : shown->isWatching()  ? tr("watching")
                                                  : tr("not watching"));
    m_statusRefresh->setText(
        tr("last refresh %1").arg(shown->lastRefresh().time().toString(QStringLiteral("HH:mm:ss"))));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_workspace->closeAll()) {
        event->ignore();
        return;
    }
    m_settings->setValue(GeometryKey, saveGeometry());
    m_settings->setValue(SplitterKey, currentEditor()->splitter()->saveState());
    m_settings->setValue(SidebarKey, m_body->saveState());
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
        m_workspace->openFolder(urls.first().toLocalFile());
    }
}

} // namespace soul
