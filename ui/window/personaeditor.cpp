#include "personaeditor.h"

#include "directorylostbar.h"
#include "documentcontroller.h"
#include "findbar.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "personasession.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "preview/tokenbar.h"
#include "prompter.h"
#include "runtimepreview.h"
#include "slots/panestack.h"
#include "slots/recoverybar.h"
#include "slots/slotpane.h"

#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

namespace soul {

PersonaEditor::PersonaEditor(PersonaSession *session, QSettings *settings, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
{
    buildUi(settings);
    wireModel();
    wirePanes();
    wireTokens(settings);
    wireRuntime();
}

PersonaEditor::~PersonaEditor() = default;

void PersonaEditor::buildUi(QSettings *settings)
{
    Q_UNUSED(settings);
    m_lostBar = new DirectoryLostBar(this);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    auto *left = new QWidget(m_splitter);
    m_panes = new PaneStack(m_session->model(), left);
    m_findBar = new FindBar(left);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_panes, 1);
    leftLayout->addWidget(m_findBar);
    m_preview = new PreviewPanel(m_session->model(), m_session->runtimePreview(), m_splitter);
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_preview);
    // Half the width each: the preview's monospace lines wrap raggedly when
    // it is narrow. Equal sizes are scaled to the splitter's width once it
    // has one; they must be above both sides' minimum widths to stay equal.
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({10000, 10000});
    m_splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_lostBar);
    layout->addWidget(m_splitter, 1);
}

void PersonaEditor::reloadPanes()
{
    for (int k = 0; k < m_session->model()->documentCount(); ++k) {
        if (SlotPane *pane = m_panes->pane(k)) {
            pane->reload();
            pane->refreshState();
        }
    }
    m_preview->rebuild();
}

void PersonaEditor::offerProjectFiles()
{
    const PersonaModel *model = m_session->model();
    const int agents = slotIndex(u"AGENTS.md");
    m_panes->pane(agents)->setFileChoices(m_session->documents()->projectFiles(),
                                          model->isOpen() ? model->slotLabel(agents) : QString());
}

void PersonaEditor::wireModel()
{
    PersonaModel *model = m_session->model();
    DocumentController *documents = m_session->documents();
    connect(documents,
            &DocumentController::projectFilesListed,
            this,
            &PersonaEditor::offerProjectFiles);
    connect(model, &PersonaModel::opened, this, [this, model] {
        reloadPanes();
        offerProjectFiles();
        // Another window has this folder: its unsaved text is its own, and
        // this one's is not kept for recovery.
        if (!model->recoveryUnavailable().isEmpty())
            QTimer::singleShot(0, this, [this, model] {
                if (model->isOpen() && !model->recoveryUnavailable().isEmpty())
                    Q_EMIT message(model->recoveryUnavailable(), 30000);
            });
        // Recovered text waits for an answer: show the first offer and put
        // the keyboard on it.
        for (int k = 0; k < SlotCount; ++k) {
            if (model->hasRecovery(k)) {
                m_panes->showPane(k);
                m_panes->pane(k)->recoveryBar()->restoreButton()->setFocus(Qt::OtherFocusReason);
                break;
            }
        }
    });
    connect(model, &PersonaModel::closed, this, [this] {
        reloadPanes();
        offerProjectFiles();
        m_lostBar->hide();
        m_currentSlot = -1;
        m_setupUndoable = false;
        Q_EMIT editStateChanged();
    });
    // A document without a pane here (a skill no room shows) has no one to tell.
    connect(model, &PersonaModel::bufferReplaced, this, [this](int slot) {
        if (SlotPane *pane = m_panes->pane(slot))
            pane->follow();
    });
    connect(model, &PersonaModel::slotStateChanged, this, [this](int slot) {
        if (SlotPane *pane = m_panes->pane(slot))
            pane->refreshState();
        Q_EMIT editStateChanged(); // unsaved, or read-only, or editable again
    });
    connect(model, &PersonaModel::recoveryChanged, this, [this](int slot) {
        if (SlotPane *pane = m_panes->pane(slot))
            pane->refreshState();
        Q_EMIT editStateChanged();
    });
    connect(model, &PersonaModel::directoryLostChanged, this, [this, model](bool lost) {
        if (lost)
            m_lostBar->showFor(model->directory());
        else
            m_lostBar->hide();
        // Every header says whether its file's folder is there.
        for (int k = 0; k < model->documentCount(); ++k) {
            if (SlotPane *pane = m_panes->pane(k))
                pane->refreshState();
        }
    });
    connect(m_lostBar,
            &DirectoryLostBar::saveElsewhereRequested,
            documents,
            &DocumentController::saveAllElsewhere);
    connect(m_lostBar, &DirectoryLostBar::closeRequested, documents, &DocumentController::close);
}

void PersonaEditor::wirePanes()
{
    DocumentController *documents = m_session->documents();
    for (int k = 0; k < SlotCount; ++k)
        wirePane(m_panes->pane(k));
    // Refused (unsaved text), the menu checks the file shown again.
    connect(m_panes->pane(slotIndex(u"AGENTS.md")),
            &SlotPane::fileChosen,
            documents,
            [this, documents](int, const QString &label) {
                documents->showProjectFile(label);
                offerProjectFiles();
            });
    connect(m_preview->preview(), &SoulPreview::paneRequested, m_panes, &PaneStack::showPane);
    connect(m_preview->invisiblesToggle(),
            &QCheckBox::toggled,
            this,
            &PersonaEditor::setShowInvisibles);
}

void PersonaEditor::wirePane(SlotPane *pane)
{
    PersonaModel *model = m_session->model();
    DocumentController *documents = m_session->documents();
    const int k = pane->slot();
    {
        connect(pane, &SlotPane::textEdited, model, [model, pane](int slot) {
            model->setBufferText(slot, pane->text());
        });
        connect(pane, &SlotPane::createRequested, documents, &DocumentController::create);
        connect(pane, &SlotPane::saveRequested, documents, &DocumentController::save);
        // Revert, Reload and Discard are one operation: the file's text
        // back, asking first when the edits would be gone for good.
        connect(pane, &SlotPane::revertRequested, documents, &DocumentController::revert);
        connect(pane, &SlotPane::reloadRequested, documents, &DocumentController::revert);
        connect(pane, &SlotPane::discardRequested, documents, &DocumentController::revert);
        connect(pane, &SlotPane::editAnywayRequested, model, &PersonaModel::editAnyway);
        connect(pane, &SlotPane::keepMineRequested, model, &PersonaModel::keepMine);
        connect(pane, &SlotPane::compareRequested, documents, &DocumentController::compare);
        connect(pane,
                &SlotPane::renameCaseVariantRequested,
                documents,
                &DocumentController::renameCaseVariant);
        connect(pane, &SlotPane::restoreRecoveryRequested, model, &PersonaModel::restoreRecovery);
        connect(pane,
                &SlotPane::compareRecoveryRequested,
                documents,
                &DocumentController::compareRecovery);
        connect(pane, &SlotPane::discardRecoveryRequested, model, &PersonaModel::discardRecovery);
        const auto link = [this](LinkAction action) {
            return [this, action](int doc) { Q_EMIT linkRequested(doc, action); };
        };
        connect(pane, &SlotPane::linkThreeWayRequested, this, link(LinkAction::ThreeWay));
        connect(pane, &SlotPane::linkAdoptRequested, this, link(LinkAction::Adopt));
        connect(pane, &SlotPane::linkLeaveRequested, this, link(LinkAction::Leave));
        connect(pane, &SlotPane::linkFinishRequested, this, link(LinkAction::Finish));
        connect(pane, &SlotPane::focused, this, [this, pane](int slot) {
            m_currentSlot = slot;
            m_setupUndoable = false; // its own editor undoes typing now
            m_findBar->setTarget(pane->editor());
            Q_EMIT editStateChanged();
        });
        QPlainTextEdit *editor = pane->editor();
        for (auto available : {&QPlainTextEdit::undoAvailable, &QPlainTextEdit::redoAvailable}) {
            connect(editor, available, this, [this, k] {
                if (k == m_currentSlot)
                    Q_EMIT editStateChanged();
            });
        }
    }
}

void PersonaEditor::wireTokens(QSettings *settings)
{
    SoulTokenCounter *tokens = m_session->tokens();
    for (int k = 0; k < SlotCount; ++k)
        m_panes->pane(k)->setTokenCounter(tokens);
    m_preview->setTokenCounter(tokens);
    // The remembered encoding is chosen before the default one would load.
    m_preview->tokenBar()->setSettings(settings);
    connect(m_preview->tokenBar(), &TokenBar::tokenizerFileRequested, this, [this, tokens] {
        const QString file = m_session->prompter()->askTokenizerFile(
            QFileInfo(tokens->tokenizerFile()).absolutePath());
        if (!file.isEmpty())
            tokens->setTokenizerFile(file);
    });
    connect(tokens, &SoulTokenCounter::tokenizerFailed, this, [this](const QString &error) {
        m_session->prompter()->showError(tr("Tokenizer"), error);
    });
}

void PersonaEditor::wireRuntime()
{
    const RuntimePreview *runtime = m_session->runtimePreview();
    // The panes show what the runtime keeps of their files.
    connect(runtime, &RuntimePreview::compositionChanged, this, [this, runtime] {
        for (int k = 0; k < SlotCount; ++k)
            m_panes->pane(k)->setRuntimeView(runtime->paneView(k));
        if (m_setupPane)
            m_setupPane->setRuntimeView(runtime->runtimeFileView());
    });
    const auto follow = [this](const RuntimeProfile &p) {
        ensureSetupPane();
        // The panes follow the runtime: what it reads, in its order, first.
        m_panes->setOrder(p.runtime->files());
        offerSetupRecovery();
        Q_EMIT editStateChanged(); // Finish setup needs a runtime that reads the file
    };
    connect(runtime, &RuntimePreview::profileChanged, this, follow);
    follow(runtime->profile());
}

void PersonaEditor::ensureSetupPane()
{
    const int doc = m_session->documents()->setupDocument();
    if (m_setupPane || doc < 0)
        return;
    const PersonaModel *model = m_session->model();
    // A document of the model like the slots: the same pane, the same requests.
    m_setupPane = m_panes->addDocumentPane(doc, model->slotLabel(doc));
    m_setupPane->setRole(tr("first-run instructions"));
    m_setupPane->setFinishable(true);
    wirePane(m_setupPane);
    connect(m_setupPane, &SlotPane::finishRequested, this, &PersonaEditor::finishSetup);
    connect(m_setupPane, &SlotPane::restoreDeletedRequested, this, &PersonaEditor::undoFinishSetup);
    m_setupPane->setShowInvisibles(m_panes->pane(0)->showInvisibles());
    m_setupPane->reload();
    m_setupPane->refreshState();
}

bool PersonaEditor::openDocument(const QString &path)
{
    PersonaModel *model = m_session->model();
    const QString relative = QDir(model->directory()).relativeFilePath(path);
    const int doc = model->isOpen() ? model->addDocument(relative) : -1;
    if (doc < 0) {
        Q_EMIT message(tr("%1 is not a file of the persona folder %2, so it is not opened here.")
                           .arg(QDir::toNativeSeparators(path),
                                QDir::toNativeSeparators(model->directory())),
                       8000);
        return false;
    }
    SlotPane *pane = m_panes->pane(doc);
    if (!pane) {
        // A document like the slots: the same pane, the same requests.
        pane = m_panes->addDocumentPane(doc, relative, false);
        pane->setRole(tr("skill"));
        wirePane(pane);
        pane->setShowInvisibles(m_panes->pane(0)->showInvisibles());
        pane->reload();
        pane->refreshState();
        // Once the stack has grown to hold it.
        QTimer::singleShot(0, m_panes, [this, doc] { m_panes->showPane(doc); });
        return true;
    }
    m_panes->showPane(doc);
    return true;
}

void PersonaEditor::setDocumentLints(const QHash<QString, QList<Lint>> &lints)
{
    const PersonaModel *model = m_session->model();
    for (int doc = SlotCount; doc < model->documentCount(); ++doc) {
        if (SlotPane *pane = m_panes->pane(doc); pane && pane != m_setupPane)
            pane->setDocumentLints(lints.value(model->slotFilePath(doc)));
    }
}

void PersonaEditor::offerSetupRecovery()
{
    const PersonaModel *model = m_session->model();
    if (!m_setupPane || !model->hasRecovery(m_setupPane->slot())
        || !m_setupPane->isVisibleTo(m_panes->widget()))
        return;
    // A slot's offer, shown when the folder opened, keeps the keyboard.
    for (int k = 0; k < SlotCount; ++k) {
        if (model->hasRecovery(k))
            return;
    }
    // As a slot's offer: the pane in view, the keyboard on Restore. Once
    // the new order is laid out.
    QTimer::singleShot(0, m_setupPane, [this] {
        QPushButton *restore = m_setupPane->recoveryBar()->restoreButton();
        if (!restore->isVisible())
            return;
        m_panes->ensureWidgetVisible(m_setupPane->recoveryBar());
        restore->setFocus(Qt::OtherFocusReason);
    });
}

bool PersonaEditor::setupPaneCurrent() const
{
    return m_setupPane && m_currentSlot == m_setupPane->slot();
}

bool PersonaEditor::canFinishSetup() const
{
    if (!m_setupPane || !m_setupPane->isVisibleTo(m_panes->widget()))
        return false;
    const SlotState &s = m_session->model()->slot(m_setupPane->slot());
    // A file not read whole could not be written back by Undo.
    return s.diskPresent() && s.diskComplete && !s.dirty;
}

void PersonaEditor::finishSetup()
{
    if (!canFinishSetup() || !m_session->documents()->finishSetup())
        return;
    // Undo now means "put the file back", until a pane is focused.
    m_currentSlot = m_setupPane->slot();
    m_setupUndoable = true;
    Q_EMIT editStateChanged();
}

void PersonaEditor::save()
{
    DocumentController *documents = m_session->documents();
    if (m_currentSlot < 0)
        return;
    if (!m_session->model()->slot(m_currentSlot).dirty && !documents->savesGroup(m_currentSlot)) {
        documents->explainNothingToSave(m_currentSlot);
        return;
    }
    documents->save(m_currentSlot);
}

void PersonaEditor::revert()
{
    if (m_currentSlot >= 0)
        m_session->documents()->revert(m_currentSlot);
}

void PersonaEditor::undo()
{
    if (canUndoFinishSetup()) {
        undoFinishSetup();
    } else if (m_currentSlot >= 0) {
        SlotPane *pane = m_panes->pane(m_currentSlot);
        pane->catchUp(); // a pane hidden since (BOOTSTRAP.md under another runtime)
        pane->editor()->undo();
    }
}

void PersonaEditor::redo()
{
    if (m_currentSlot >= 0) {
        SlotPane *pane = m_panes->pane(m_currentSlot);
        pane->catchUp();
        pane->editor()->redo();
    }
}

WindowActions::EditState PersonaEditor::editState() const
{
    // A read-only pane (an offer of recovered text, undecodable bytes) keeps
    // its undo history but must not be changed through it.
    const PersonaModel *model = m_session->model();
    const int slot = m_currentSlot;
    const QPlainTextEdit *editor = model->isOpen() && slot >= 0 ? m_panes->pane(slot)->editor()
                                                                : nullptr;
    const bool editable = editor && !editor->isReadOnly() && editor->isEnabled();
    WindowActions::EditState state;
    state.canUndo = (editable && editor->document()->isUndoAvailable()) || canUndoFinishSetup();
    state.canFinishSetup = model->isOpen() && canFinishSetup();
    state.canRedo = editable && editor->document()->isRedoAvailable();
    state.currentUnsaved = editor && model->slot(slot).dirty;
    // Recovered text waiting makes a pane read-only.
    state.currentReadOnly = editor && editor->isReadOnly();
    state.currentLinked = editor && m_session->documents()->savesGroup(slot);
    state.anyUnsaved = m_session->hasUnsaved();
    return state;
}

bool PersonaEditor::canUndoFinishSetup() const
{
    if (!m_setupUndoable || !m_setupPane)
        return false;
    const int doc = m_setupPane->slot();
    const PersonaModel *model = m_session->model();
    return model->deletedBytes(doc).has_value() && !model->slot(doc).diskPresent();
}

void PersonaEditor::undoFinishSetup()
{
    m_setupUndoable = false;
    m_session->documents()->restoreSetupFile();
    Q_EMIT editStateChanged();
}

void PersonaEditor::goToLine(int slot, qint64 line, qint64 column)
{
    if (!m_session->model()->isOpen() || slot < 0 || slot >= SlotCount)
        return;
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

void PersonaEditor::find()
{
    if (!m_findBar->target())
        m_findBar->setTarget(m_panes->pane(0)->editor());
    m_findBar->activate();
}

QByteArray PersonaEditor::shownBytes() const
{
    const RuntimePreview *runtime = m_session->runtimePreview();
    if (runtime->profile().sectioned())
        return m_session->model()->soul(m_preview->preview()->view());
    return runtime->composition().text.toUtf8();
}

void PersonaEditor::setShowInvisibles(bool show)
{
    for (int k = 0; k < m_session->model()->documentCount(); ++k) {
        if (SlotPane *pane = m_panes->pane(k))
            pane->setShowInvisibles(show);
    }
}

} // namespace soul
