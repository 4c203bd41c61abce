#include "slotpane.h"

#include "counttext.h"
#include "diskchangedbar.h"
#include "elidedlabel.h"
#include "linkbar.h"
#include "markdownhighlighter.h"
#include "persona/inspection.h"
#include "persona/lint.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "preview/previewmarks.h"
#include "recoverybar.h"
#include "runtimemeter.h"
#include "sizemeter.h"
#include "text/documentchange.h"
#include "text/whenshown.h"

#include <QActionGroup>
#include <QDir>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBlockUserData>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>
#include <utility>

namespace soul {

namespace {

// Lints scan the whole buffer; waiting for a pause in typing keeps that off
// the keystroke path.
constexpr int LintDelayMs = 250;

// Buffers above this size load into their editor only once it is on screen.
constexpr qint64 DeferredLoadBytes = qint64(256) * 1024;

QString lintMark(LintLevel level)
{
    switch (level) {
    case LintLevel::Error:
        return QStringLiteral("✖");
    case LintLevel::Warning:
        return QStringLiteral("⚠");
    case LintLevel::Info:
        break;
    }
    return QStringLiteral("ℹ");
}

// Marks a block that continues the line of the block before it: the line
// break between them is a cut made for display, not a line break of the text.
// A block QTextDocument makes (Enter, paste, undo) starts without a mark, so
// every line break typed is a real one. When an edit removes a marked block
// (the cut went with a selection), `removed` says so.
class CutMark final : public QTextBlockUserData
{
public:
    explicit CutMark(std::shared_ptr<bool> removed)
        : m_removed(std::move(removed))
    {}
    ~CutMark() override { *m_removed = true; }
    CutMark(const CutMark &) = delete;
    CutMark &operator=(const CutMark &) = delete;

private:
    std::shared_ptr<bool> m_removed;
};

bool isCut(const QTextBlock &block)
{
    return block.isValid() && dynamic_cast<const CutMark *>(block.userData()) != nullptr;
}

// The length of the longest line of `text`, in UTF-16 code units.
qsizetype longestLine(const QString &text)
{
    qsizetype longest = 0;
    for (qsizetype start = 0; start <= text.size();) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        longest = qMax(longest, end - start);
        start = end + 1;
    }
    return longest;
}

} // namespace

SlotPane::SlotPane(int slot, const PersonaModel *model, QWidget *parent)
    : QFrame(parent)
    , m_slot(slot)
    , m_model(model)
    , m_title(new QLabel(this))
    , m_role(new ElidedLabel(slot < SlotCount ? slotRole(slot) : QString(), this))
    , m_state(new QLabel(this))
    , m_dirty(new QLabel(this))
    , m_tokens(new QLabel(this))
    , m_meter(new SizeMeter(model->rule(), this))
    , m_lints(new QLabel(this))
    , m_readOnly(new QLabel(this))
    , m_absentNote(new QLabel(this))
    , m_longLineNote(new QLabel(this))
    , m_create(new QPushButton(tr("Create"), this))
    , m_save(new QPushButton(tr("Save"), this))
    , m_revert(new QPushButton(tr("Revert"), this))
    , m_editAnyway(new QPushButton(tr("Edit anyway"), this))
    , m_rename(new QPushButton(tr("Rename to %1").arg(model->slotLabel(slot)), this))
    , m_finish(new QPushButton(tr("Finish setup"), this))
    , m_restoreDeleted(new QPushButton(tr("Restore %1").arg(model->slotLabel(slot)), this))
    , m_diskBar(new DiskChangedBar(this))
    , m_recoveryBar(new RecoveryBar(this))
    , m_editor(new QPlainTextEdit(this))
    , m_runtimeMeter(new RuntimeMeter(this))
    , m_runtimeNote(new QLabel(this))
{
    const QString name = fileName();
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("slotPane_%1").arg(name));
    setFocusPolicy(Qt::StrongFocus);

    m_title->setObjectName(QStringLiteral("slotTitle"));
    m_title->setText(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()));
    m_title->setTextFormat(Qt::RichText);
    m_dirty->setToolTip(tr("Unsaved changes"));
    m_lints->setWordWrap(true);
    m_lints->hide(); // until the first lint pass finds something
    m_lints->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readOnly->setWordWrap(true);
    m_readOnly->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_absentNote->setWordWrap(true);
    m_absentNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_absentNote->setForegroundRole(QPalette::PlaceholderText);
    m_longLineNote->setWordWrap(true);
    m_longLineNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_longLineNote->hide();
    // The state is quieter than the name and the role; the notable states
    // also show as bars, notes or buttons.
    m_state->setForegroundRole(QPalette::PlaceholderText);
    m_meter->setAccessibleName(tr("%1 size against the %2 cap").arg(name, model->rule().capText()));
    m_runtimeMeter->setAccessibleName(tr("%1 size against the runtime's budgets").arg(name));
    m_runtimeMeter->hide();
    m_runtimeNote->setWordWrap(true);
    m_runtimeNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runtimeNote->setAccessibleName(tr("%1 under the runtime").arg(name));
    m_runtimeNote->hide();
    m_checkpointNote = new QLabel(this);
    m_checkpointNote->setObjectName(QStringLiteral("checkpointNote"));
    m_checkpointNote->setWordWrap(true);
    m_checkpointNote->setTextFormat(Qt::RichText);
    m_checkpointNote->setAccessibleName(tr("%1 against the last checkpoint").arg(name));
    m_checkpointNote->hide();
    connect(m_checkpointNote, &QLabel::linkActivated, this, [this] {
        Q_EMIT checkpointDiffRequested(m_slot);
    });
    m_sameNote = new QLabel(this);
    m_sameNote->setObjectName(QStringLiteral("sameNote"));
    m_sameNote->setWordWrap(true);
    m_sameNote->setTextFormat(Qt::PlainText); // agent ids are the user's text
    m_sameNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sameNote->setForegroundRole(QPalette::PlaceholderText);
    m_sameNote->setAccessibleName(tr("%1 in other agents").arg(name));
    m_sameNote->hide();
    m_linkBar = new LinkBar(this);
    connect(m_linkBar, &LinkBar::threeWayRequested, this, [this] {
        Q_EMIT linkThreeWayRequested(m_slot);
    });
    connect(m_linkBar, &LinkBar::adoptRequested, this, [this] {
        Q_EMIT linkAdoptRequested(m_slot);
    });
    connect(m_linkBar, &LinkBar::leaveRequested, this, [this] {
        Q_EMIT linkLeaveRequested(m_slot);
    });
    connect(m_linkBar, &LinkBar::finishRequested, this, [this] {
        Q_EMIT linkFinishRequested(m_slot);
    });

    // Hidden until the pane has files to choose from (setFileChoices()).
    m_fileChoice = new QPushButton(this);
    m_fileChoice->setObjectName(QStringLiteral("fileChoice"));
    m_fileChoice->setAutoDefault(false);
    m_fileChoice->setMenu(new QMenu(m_fileChoice));
    m_fileChoice->hide();

    auto *header = new QHBoxLayout;
    header->setSpacing(8);
    header->addWidget(m_title);
    header->addWidget(m_fileChoice);
    // In a narrow window the role gives way (elided), so the name, the state
    // and the buttons stay whole.
    header->addWidget(m_role);
    header->addWidget(m_state);
    header->addWidget(m_dirty);
    header->addStretch(1);
    header->addWidget(m_rename);
    header->addWidget(m_create);
    header->addWidget(m_editAnyway);
    header->addWidget(m_save);
    header->addWidget(m_revert);

    m_editor->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    // A width change makes QPlainTextDocumentLayout give every block a
    // QTextLayout (some 260 bytes each, kept until the text is replaced):
    // a scroll bar that came and went with the text would do that to every
    // 2 MiB pane on load.
    m_editor->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_editor->setAccessibleName(tr("%1 editor").arg(name));
    m_editor->setAccessibleDescription(m_role->text());
    m_editor->setTabChangesFocus(false);
    m_editor->setMinimumHeight(160);
    m_editor->installEventFilter(this);
    m_editor->viewport()->installEventFilter(this);
    auto *document = new QTextDocument(m_editor);
    document->setDefaultFont(m_editor->font());
    m_highlighter = new MarkdownHighlighter(document);
    m_editor->setDocument(document);
    m_highlighter->setViewport(m_editor->viewport());

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    // The tokens beside the bytes: the first line is full in a narrow window.
    auto *sizes = new QHBoxLayout;
    sizes->setSpacing(12);
    sizes->addWidget(m_meter);
    sizes->addWidget(m_tokens);
    sizes->addStretch(1);
    layout->addLayout(sizes);
    layout->addWidget(m_runtimeMeter);
    // Finish setup sits by the runtime's note on what the file means, not in
    // the header, which has no room left for it in a narrow pane.
    auto *runtimeRow = new QHBoxLayout;
    runtimeRow->setSpacing(8);
    runtimeRow->addWidget(m_runtimeNote, 1);
    runtimeRow->addWidget(m_finish, 0, Qt::AlignTop);
    runtimeRow->addWidget(m_restoreDeleted, 0, Qt::AlignTop);
    layout->addLayout(runtimeRow);
    layout->addWidget(m_lints);
    layout->addWidget(m_checkpointNote);
    layout->addWidget(m_sameNote);
    layout->addWidget(m_linkBar);
    layout->addWidget(m_readOnly);
    layout->addWidget(m_absentNote);
    layout->addWidget(m_longLineNote);
    layout->addWidget(m_diskBar);
    layout->addWidget(m_recoveryBar);
    layout->addWidget(m_editor, 1);

    for (QPushButton *b :
         {m_create, m_save, m_revert, m_editAnyway, m_rename, m_finish, m_restoreDeleted})
        b->setAutoDefault(false);
    // Only a document whose removal means something offers them
    // (setFinishable()).
    m_finish->hide();
    m_restoreDeleted->hide();
    m_finish->setToolTip(tr("Delete %1: the first run is done").arg(name));
    m_restoreDeleted->setToolTip(tr("Write %1 back as it was").arg(name));
    connect(m_finish, &QPushButton::clicked, this, [this] { Q_EMIT finishRequested(m_slot); });
    connect(m_restoreDeleted, &QPushButton::clicked, this, [this] {
        Q_EMIT restoreDeletedRequested(m_slot);
    });
    m_save->setAccessibleName(tr("Save %1").arg(name));
    m_revert->setAccessibleName(tr("Revert %1").arg(name));
    m_create->setAccessibleName(tr("Create %1").arg(name));

    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        const int revision = m_editor->document()->revision();
        if (m_loading || revision == m_lastRevision)
            return;
        m_lastRevision = revision;
        if (m_cutRemoved && *m_cutRemoved) {
            // Undo would bring the cut back as a line break of the text.
            *m_cutRemoved = false;
            m_editor->document()->clearUndoRedoStacks();
        }
        Q_EMIT textEdited(m_slot);
    });
    // Only what is on screen is marked, so the marks follow the scroll.
    connect(m_editor->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
        if (marksShown())
            refreshMarks();
    });
    // Scrolling within a wrapped block (a long line's pieces) moves the view
    // without a signal from the scroll bar.
    connect(m_editor, &QPlainTextEdit::updateRequest, this, [this](const QRect &, int dy) {
        if (dy != 0 && marksShown())
            refreshMarks();
    });
    connect(m_editor->document(), &QTextDocument::contentsChanged, this, [this] {
        m_cutsKnown = false;
        if (marksShown())
            refreshMarks();
    });
    connect(m_create, &QPushButton::clicked, this, [this] { Q_EMIT createRequested(m_slot); });
    connect(m_save, &QPushButton::clicked, this, [this] { Q_EMIT saveRequested(m_slot); });
    connect(m_rename, &QPushButton::clicked, this, [this] {
        Q_EMIT renameCaseVariantRequested(m_slot);
    });
    connect(m_revert, &QPushButton::clicked, this, [this] { Q_EMIT revertRequested(m_slot); });
    connect(m_editAnyway, &QPushButton::clicked, this, [this] {
        Q_EMIT editAnywayRequested(m_slot);
    });
    connect(m_diskBar, &DiskChangedBar::reloadRequested, this, [this] {
        Q_EMIT reloadRequested(m_slot);
    });
    connect(m_diskBar, &DiskChangedBar::keepMineRequested, this, [this] {
        Q_EMIT keepMineRequested(m_slot);
    });
    connect(m_diskBar, &DiskChangedBar::compareRequested, this, [this] {
        Q_EMIT compareRequested(m_slot);
    });
    connect(m_diskBar, &DiskChangedBar::saveRequested, this, [this] {
        Q_EMIT saveRequested(m_slot);
    });
    connect(m_diskBar, &DiskChangedBar::discardRequested, this, [this] {
        Q_EMIT discardRequested(m_slot);
    });
    connect(m_recoveryBar, &RecoveryBar::restoreRequested, this, [this] {
        Q_EMIT restoreRecoveryRequested(m_slot);
    });
    connect(m_recoveryBar, &RecoveryBar::compareRequested, this, [this] {
        Q_EMIT compareRecoveryRequested(m_slot);
    });
    connect(m_recoveryBar, &RecoveryBar::discardRequested, this, [this] {
        Q_EMIT discardRecoveryRequested(m_slot);
    });

    m_lintTimer.setSingleShot(true);
    m_lintTimer.setInterval(LintDelayMs);
    connect(&m_lintTimer, &QTimer::timeout, this, &SlotPane::refreshLints);
    m_follow = new WhenShown(this, [this] { followNow(); });
    m_tokensShown = new WhenShown(this, [this] { refreshTokens(); });
    m_stateShown = new WhenShown(this, [this] { refreshStateNow(); });
}

void SlotPane::reload()
{
    // A large text waits until its pane is on screen or takes the focus: a
    // 2 MiB document costs some 60 ms and 10 MiB, and of seven panes about
    // two are on screen. The model holds the text meanwhile; the editor stays
    // empty and read-only, so nothing typed or dropped there can replace it.
    if (m_model->sizeIn(m_slot, SoulView::Unsaved) > DeferredLoadBytes
        && m_editor->visibleRegion().isEmpty()) {
        if (!m_reloadPending) {
            m_reloadPending = true;
            m_editor->setReadOnly(true);
            if (!m_editor->document()->isEmpty())
                setEditorText(QString());
        }
        return;
    }
    load();
}

void SlotPane::load()
{
    if (std::exchange(m_reloadPending, false))
        refreshState(); // the editor was read-only while it waited
    const QString text = m_model->paneText(m_slot);
    if (!m_cutLongLines && documentChange(m_editor->document(), text).isEmpty())
        return;
    if (m_cutLongLines && text == this->text().replace(QChar::ParagraphSeparator, QLatin1Char('\n')))
        return;
    const QTextCursor old = m_editor->textCursor();
    const int anchor = old.anchor();
    const int position = old.position();
    const int vertical = m_editor->verticalScrollBar()->value();
    const int horizontal = m_editor->horizontalScrollBar()->value();
    setEditorText(text);
    const int end = m_editor->document()->characterCount() - 1;
    QTextCursor cursor(m_editor->document());
    cursor.setPosition(qBound(0, anchor, end));
    cursor.setPosition(qBound(0, position, end), QTextCursor::KeepAnchor);
    m_editor->setTextCursor(cursor);
    m_editor->verticalScrollBar()->setValue(vertical);
    m_editor->horizontalScrollBar()->setValue(horizontal);
}

void SlotPane::follow()
{
    m_follow->request();
}

void SlotPane::catchUp()
{
    m_follow->runIfDue();
    m_stateShown->runIfDue();
}

void SlotPane::followNow()
{
    // Not loaded yet: it loads the model's text when it is shown.
    if (m_reloadPending)
        return;
    QTextDocument *document = m_editor->document();
    if (document->isEmpty() && !document->isUndoAvailable()) {
        // Nothing to undo back to; a large text waits until it is shown.
        reload();
        return;
    }
    const QString text = m_model->paneText(m_slot);
    // Lines cut for display, or a long line arriving, take the loading path
    // that cuts them; the pane's undo history then starts again.
    if (m_cutLongLines || longestLine(text) > LongLineLength) {
        reload();
        return;
    }
    // Common prefix and suffix: a small change to a 2 MiB text edits a few
    // lines, where setPlainText() would lay out the document again and drop
    // the undo history.
    m_loading = true;
    if (replaceAsOneEdit(m_editor, text))
        m_lastRevision = document->revision();
    m_loading = false;
}

void SlotPane::setCheckpointNote(const QString &text)
{
    m_checkpointNote->setText(text);
    m_checkpointNote->setVisible(!text.isEmpty());
}

void SlotPane::setSameNote(const QString &text, const QString &toolTip)
{
    if (text == m_sameNote->text() && toolTip == m_sameNote->toolTip())
        return;
    m_sameNote->setText(text);
    m_sameNote->setToolTip(toolTip);
    m_sameNote->setAccessibleDescription(toolTip);
    m_sameNote->setVisible(!text.isEmpty());
}

void SlotPane::setFileChoices(const QStringList &labels, const QString &current)
{
    QMenu *menu = m_fileChoice->menu();
    if (labels != m_fileChoices) {
        m_fileChoices = labels;
        // This may run from an action's own triggered(): the old ones go later.
        for (QAction *old : menu->actions()) {
            menu->removeAction(old);
            old->deleteLater();
        }
        auto *group = new QActionGroup(menu);
        for (const QString &label : labels) {
            QAction *action = menu->addAction(label);
            action->setCheckable(true);
            action->setActionGroup(group);
            action->setToolTip(tr("Edit %1 in this pane").arg(label));
            connect(action, &QAction::triggered, this, [this, label] {
                Q_EMIT fileChosen(m_slot, label);
            });
        }
    }
    for (QAction *action : menu->actions())
        action->setChecked(action->text() == current);
    const bool offered = labels.size() >= 2;
    m_fileChoice->setVisible(offered);
    if (!offered)
        return;
    m_fileChoice->setText(tr("%1 files joined").arg(labels.size()));
    m_fileChoice->setToolTip(tr("Hermes joins %1 in its project context. Choose one to edit it "
                                "in this pane.")
                                 .arg(labels.join(QStringLiteral(", "))));
    m_fileChoice->setAccessibleName(tr("Files of the project context"));
    m_fileChoice->setAccessibleDescription(tr("%1 is shown").arg(current));
}

void SlotPane::setShowInvisibles(bool show)
{
    if (show == m_showInvisibles)
        return;
    m_showInvisibles = show;
    refreshMarks();
}

void SlotPane::refreshMarks()
{
    PreviewMarks marks;
    if (m_showInvisibles)
        marks.addInvisibles(m_editor);
    QList<QTextEdit::ExtraSelection> selections = marks.selections();
    addRuntimeMarks(selections);
    m_editor->setExtraSelections(selections);
}

void SlotPane::setRuntimeView(const RuntimePaneView &view)
{
    const SlotState &s = m_model->slot(m_slot);
    const bool present = s.bufferPresent || s.diskPresent();
    // A keystroke in another pane gives this one the same view again (under
    // Hermes, every run after the pause): its marks, meters and note stand,
    // and the editor is not repainted for nothing.
    if (view == m_runtimeView && present == m_runtimePresent)
        return;
    m_runtimePresent = present;
    if (!(view.hintSettings == m_runtimeView.hintSettings))
        m_lintTimer.start();
    m_runtimeView = view;
    m_runtimeMeter->setVisible(view.active && view.loaded && present);
    m_runtimeMeter->setFigures(view.used, view.budget, view.totalUsed, view.totalBudget);
    m_runtimeMeter->setTokens(view.tokens, view.totalTokens, view.encoding);
    m_runtimeNote->setText(view.note);
    // A file the runtime never reads says so even when it is not there.
    m_runtimeNote->setVisible(view.active && (present || !view.loaded) && !view.note.isEmpty());
    m_meter->setVisible(!view.active && present && inSoul());
    refreshTokens(); // toolnexus's count gives way to the runtime meter's
    refreshMarks();
}

void SlotPane::addRuntimeMarks(QList<QTextEdit::ExtraSelection> &selections) const
{
    // A pane still loading shows nothing yet; its marks come with its text.
    if (!m_runtimeView.active || m_reloadPending)
        return;
    const KeptRange &dropped = m_runtimeView.dropped;
    if (dropped.length == 0 && m_runtimeView.digestLines.isEmpty())
        return;
    // Only the blocks on screen, so a large pane costs what it shows.
    const QRect view = m_editor->viewport()->rect();
    const int first = m_editor->cursorForPosition(view.topLeft()).block().position();
    const QTextBlock lastBlock = m_editor->cursorForPosition(view.bottomRight()).block();
    const int last = lastBlock.position() + lastBlock.length();
    QTextDocument *document = m_editor->document();
    const int end = document->characterCount() - 1;
    // The ranges are positions of the pane's text; with long lines cut, each
    // cut before a position puts it one further on screen. A range that
    // spans cuts marks every piece, breaks between them included.
    const std::vector<qsizetype> *cuts = m_cutLongLines ? &cutPositions() : nullptr;
    const auto onScreen = [cuts](qsizetype position, bool atEnd) {
        if (!cuts)
            return position;
        const auto before = atEnd ? std::lower_bound(cuts->begin(), cuts->end(), position)
                                  : std::upper_bound(cuts->begin(), cuts->end(), position);
        return position + qsizetype(before - cuts->begin());
    };
    const auto add = [&](qsizetype start, qsizetype length, const QTextCharFormat &format) {
        const qsizetype top = qMin(last, end);
        const int from = int(qBound<qsizetype>(first, onScreen(start, false), top));
        const int to = int(qBound<qsizetype>(first, onScreen(start + length, true), top));
        if (to <= from)
            return;
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(document);
        selection.cursor.setPosition(from);
        selection.cursor.setPosition(to, QTextCursor::KeepAnchor);
        selection.format = format;
        selections.append(selection);
    };
    QTextCharFormat shaded;
    shaded.setBackground(QColor(0x80, 0x80, 0x80, 0x50));
    shaded.setForeground(palette().color(QPalette::PlaceholderText));
    shaded.setToolTip(tr("Not injected: the agent never reads these lines"));
    shaded.setProperty(RuntimeMarkProperty, int(DroppedMark));
    add(dropped.start, dropped.length, shaded);
    QTextCharFormat digest;
    digest.setBackground(m_runtimeView.markWarns ? QColor(0xd0, 0x30, 0x30, 0x50)
                                                 : QColor(0x3c, 0xa0, 0x50, 0x40));
    digest.setToolTip(m_runtimeView.markNote);
    digest.setProperty(RuntimeMarkProperty, int(DigestMark));
    for (const KeptRange &line : m_runtimeView.digestLines) {
        if (onScreen(line.start + line.length, true) >= first && onScreen(line.start, false) <= last)
            add(line.start, line.length, digest);
    }
}

const std::vector<qsizetype> &SlotPane::cutPositions() const
{
    // Edits move the cuts; walking the blocks again costs one step a block
    // (about a thousand for a line of 1,000,000 characters), and only panes
    // that cut lines and show a runtime's marks take it.
    if (m_cutsKnown)
        return m_cutPositions;
    const QTextDocument *document = m_editor->document();
    m_cutPositions.clear();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (isCut(block))
            m_cutPositions.push_back(block.position() - qsizetype(m_cutPositions.size()) - 1);
    }
    m_cutsKnown = true;
    return m_cutPositions;
}

void SlotPane::setEditorText(const QString &text)
{
    const qsizetype longest = longestLine(text);
    m_cutLongLines = longest > LongLineLength;

    // Long lines are cut into pieces of CutLength, each its own block, so
    // that laying out or editing one costs what a short line costs. The
    // blocks after the cuts are marked; text() leaves those breaks out.
    QString shown;
    std::vector<int> cutBlocks;
    if (m_cutLongLines) {
        shown.reserve(text.size() + text.size() / CutLength + 1);
        int block = 0;
        for (qsizetype start = 0; start <= text.size();) {
            qsizetype end = text.indexOf(QLatin1Char('\n'), start);
            if (end < 0)
                end = text.size();
            qsizetype from = start;
            while (end - from > LongLineLength) {
                qsizetype cut = from + CutLength;
                if (text.at(cut).isLowSurrogate())
                    --cut; // never between the halves of a pair
                shown.append(QStringView(text).sliced(from, cut - from));
                shown.append(QLatin1Char('\n'));
                cutBlocks.push_back(++block);
                from = cut;
            }
            shown.append(QStringView(text).sliced(from, end - from));
            if (end < text.size())
                shown.append(QLatin1Char('\n'));
            ++block;
            start = end + 1;
        }
    }

    QTextDocument *document = m_editor->document();
    m_loading = true;
    // The document's own setPlainText: QPlainTextEdit's also sets the char
    // format of the whole text again, a second pass over every block.
    document->setPlainText(m_cutLongLines ? shown : text);
    if (m_cutLongLines) {
        auto removed = std::make_shared<bool>(false);
        QTextBlock block = document->begin();
        int number = 0;
        for (const int cut : cutBlocks) {
            while (number < cut) {
                block = block.next();
                ++number;
            }
            block.setUserData(new CutMark(removed));
        }
        m_cutRemoved = removed;
    } else {
        m_cutRemoved.reset();
    }
    m_lastRevision = document->revision();
    m_cutsKnown = false; // the cut marks were set after the text went in
    m_loading = false;
    // The marks drawn while the text went in knew nothing of its cuts.
    if (marksShown())
        refreshMarks();

    m_longLineNote->setVisible(m_cutLongLines);
    if (m_cutLongLines) {
        m_longLineNote->setText(
            tr("%1 has a line of %2 characters. Laid out whole, a line that long would stall the "
               "window, so this pane shows lines over %3 characters cut into pieces of %4. The "
               "cuts are only on screen: saving writes every line whole, as it was typed. "
               "Deleting a selection across a cut cannot be undone.")
                .arg(fileName(),
                     formatCount(longest),
                     formatCount(LongLineLength),
                     formatCount(CutLength)));
    }
}

QString SlotPane::text() const
{
    const QTextDocument *document = m_editor->document();
    if (!m_cutLongLines)
        return document->toRawText();
    QString out;
    out.reserve(document->characterCount());
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block != document->begin() && !isCut(block))
            out.append(QChar::ParagraphSeparator);
        out.append(block.text());
    }
    return out;
}

QTextCursor SlotPane::cursorAt(qint64 line, qint64 column) const
{
    QTextDocument *document = m_editor->document();
    QTextBlock block;
    if (!m_cutLongLines) {
        block = document->findBlockByNumber(int(qMax<qint64>(0, line - 1)));
    } else {
        // A line of the text starts at each block that is not a cut.
        qint64 n = 1;
        for (block = document->begin(); block.isValid(); block = block.next()) {
            if (block != document->begin() && !isCut(block))
                ++n;
            if (n >= line)
                break;
        }
    }
    if (!block.isValid())
        return {};
    // The column runs on through the pieces of a cut line.
    column = qMax<qint64>(0, column);
    while (column >= block.length() - 1 && isCut(block.next())) {
        column -= block.length() - 1;
        block = block.next();
    }
    QTextCursor cursor(block);
    cursor.setPosition(block.position() + int(qMin<qint64>(column, block.length() - 1)));
    return cursor;
}

bool SlotPane::skipCut(QKeyEvent *event)
{
    if (!m_cutLongLines || m_editor->isReadOnly()
        || (event->modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier)
        return false;
    QTextCursor cursor = m_editor->textCursor();
    if (cursor.hasSelection())
        return false;
    if (event->key() == Qt::Key_Backspace && cursor.atBlockStart() && isCut(cursor.block())) {
        cursor.movePosition(QTextCursor::PreviousCharacter);
        cursor.deletePreviousChar();
    } else if (event->key() == Qt::Key_Delete && cursor.atBlockEnd()
               && isCut(cursor.block().next())) {
        cursor.movePosition(QTextCursor::NextCharacter);
        cursor.deleteChar();
    } else {
        return false;
    }
    m_editor->setTextCursor(cursor);
    return true;
}

void SlotPane::refreshState()
{
    m_stateShown->request();
}

void SlotPane::refreshStateNow()
{
    const SlotState &s = m_model->slot(m_slot);
    // The file's name, or where a runtime's layout puts it ("memories/MEMORY.md").
    const QString name = m_model->slotLabel(m_slot);
    const QString title = QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped());
    if (m_title->text() != title)
        m_title->setText(title);
    m_title->setToolTip(QDir::toNativeSeparators(m_model->slotFilePath(m_slot)));
    QString state;
    if (m_model->directoryLost())
        state = tr("folder missing");
    else if (s.conflict == ConflictState::DeletedOnDisk)
        state = tr("deleted on disk");
    else if (s.conflict == ConflictState::NotReadableOnDisk)
        state = tr("not a regular file on disk");
    else if (s.diskPresent())
        state = s.readOnly ? tr("read-only") : tr("present");
    else if (s.bufferPresent)
        state = tr("new, not saved yet");
    else if (m_finishable && m_model->deletedBytes(m_slot))
        state = tr("deleted: setup is finished");
    else if (s.presence == SlotPresence::Missing)
        state = inSoul() ? tr("absent") : tr("not in the folder");
    else
        state = tr("skipped");
    m_state->setText(state);
    // A slot without a buffer has nothing to edit: it folds to its header and
    // says what the agent gets instead (a skipped path says why in its lint).
    const bool missing = !s.bufferPresent && s.presence == SlotPresence::Missing;
    const QString variant = missing ? m_model->caseVariant(m_slot) : QString();
    if (!variant.isEmpty()) {
        m_absentNote->setText(tr("There is no %1, so the soul has no %1 section. %2 is there but "
                                 "is not read: names are case-sensitive. Rename it to %1 to "
                                 "use it.")
                                  .arg(name, variant));
    } else if (missing && inSoul()) {
        m_absentNote->setText(tr("There is no %1, so the soul has no %1 section. Create starts "
                                 "it from a template.")
                                  .arg(name));
    }
    // A document beside the slots just folds: its header says it is not there.
    m_absentNote->setVisible(missing && inSoul());
    m_rename->setVisible(!variant.isEmpty());
    m_rename->setToolTip(variant.isEmpty() ? QString() : tr("Rename %1 to %2").arg(variant, name));
    m_dirty->setText(s.dirty ? tr("● unsaved") : QString());
    m_dirty->setAccessibleName(s.dirty ? tr("%1 has unsaved changes").arg(name) : QString());

    const bool hasBuffer = s.bufferPresent;
    // With a wrong-case file there, Rename is the answer, not a template.
    m_create->setVisible(!hasBuffer && s.presence == SlotPresence::Missing && variant.isEmpty()
                         && inSoul());
    m_editAnyway->setVisible(s.readOnly && s.canEditAnyway);
    m_save->setEnabled(s.dirty);
    m_revert->setEnabled(s.dirty || s.editingAnyway());
    m_save->setVisible(hasBuffer);
    m_revert->setVisible(hasBuffer);
    m_editor->setEnabled(hasBuffer);
    m_editor->setVisible(hasBuffer);
    m_meter->setVisible((hasBuffer || s.diskPresent()) && !m_runtimeView.active && inSoul());
    m_finish->setVisible(m_finishable && s.diskPresent() && s.diskComplete);
    m_finish->setEnabled(!s.dirty);
    m_restoreDeleted->setVisible(m_finishable && !s.diskPresent()
                                 && m_model->deletedBytes(m_slot).has_value());
    setMinimumHeight(hasBuffer ? EditingHeight : 0);
    // An offer of recovered text is answered before the pane takes edits.
    const bool offered = m_model->hasRecovery(m_slot);
    m_editor->setReadOnly(!hasBuffer || s.readOnly || offered || m_reloadPending);
    // After Edit anyway the note stays, until a save or a revert, so the
    // changes a save makes beyond the user's own are never a surprise.
    const bool anyway = s.editingAnyway();
    m_readOnly->setVisible(s.readOnly || anyway);
    if (anyway) {
        m_readOnly->setText(tr("Editing anyway: saving will also change bytes you did not edit. "
                               "%1 The first save asks before it writes; Revert goes back to "
                               "the file.")
                                .arg(s.obstacles.join(QLatin1Char(' '))));
    } else if (s.readOnly) {
        m_readOnly->setText(
            s.canEditAnyway
                ? tr("Read-only: %1 Choose Edit anyway to edit and save it with those changes.")
                      .arg(s.readOnlyReason)
                : tr("Read-only: %1").arg(s.readOnlyReason));
    }
    m_editAnyway->setToolTip(s.readOnlyReason);

    m_diskBar->showConflict(name, s.conflict, s.absenceReason);

    if (offered) {
        m_recoveryBar->showFor(name,
                               m_model->recovery(m_slot)->savedAt,
                               m_model->recoveryPredatesDisk(m_slot));
    } else {
        m_recoveryBar->hide();
    }

    m_meter->setBytes(m_model->sizeIn(m_slot, SoulView::Unsaved));
    refreshTokens();
    setAccessibleName(tr("%1, %2, %3").arg(name, m_role->text(), state));
    m_lintTimer.start();
}

bool SlotPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::KeyPress
        && skipCut(static_cast<QKeyEvent *>(event)))
        return true;
    if (m_reloadPending) {
        // Loaded before the first key can reach it.
        if (watched == m_editor && event->type() == QEvent::FocusIn)
            load();
        // Scrolled into view: loaded right after this paint, not inside it.
        else if (watched == m_editor->viewport() && event->type() == QEvent::Paint)
            QTimer::singleShot(0, this, [this] {
                if (m_reloadPending)
                    load();
            });
    }
    if (watched == m_editor && event->type() == QEvent::FocusIn)
        Q_EMIT focused(m_slot);
    if (watched == m_editor->viewport() && event->type() == QEvent::Resize && marksShown())
        refreshMarks();
    return QFrame::eventFilter(watched, event);
}

void SlotPane::setTokenCounter(const SoulTokenCounter *counter)
{
    m_counter = counter;
    connect(counter, &SoulTokenCounter::countsChanged, m_tokensShown, &WhenShown::request);
    m_tokens->setAccessibleName(tr("%1 tokens").arg(fileName()));
    refreshTokens();
}

void SlotPane::refreshTokens()
{
    const bool counted = inSoul() && m_model->isOpen()
                         && m_model->section(m_slot, SoulView::Unsaved);
    m_tokens->setVisible(m_counter && counted && !m_runtimeView.active);
    if (!m_counter || !counted || m_runtimeView.active)
        return;
    const SoulTokenCounter::Count count = m_counter->sectionTokens(m_slot, SoulView::Unsaved);
    const QString name = slotName(m_slot);
    // A pending count is greyed: it is the count before the last change.
    m_tokens->setForegroundRole(count.exact ? QPalette::WindowText : QPalette::PlaceholderText);
    if (count.tokens < 0) {
        m_tokens->setText(tr("counting…"));
        m_tokens->setToolTip(
            tr("Counting %1's tokens with %2…").arg(name, m_counter->encodingName()));
        return;
    }
    m_tokens->setText(tr("%1 tokens").arg(formatCount(count.tokens)));
    m_tokens->setToolTip(
        count.exact
            ? tr("%1 %2 tokens: the %3 section as the agent receives it (its \"## %3\" heading "
                 "included, and the blank line before the next section)")
                  .arg(formatCount(count.tokens), m_counter->encodingName(), name)
            : tr("Counting…; %1 %2 tokens before the last change")
                  .arg(formatCount(count.tokens), m_counter->encodingName()));
}

void SlotPane::refreshLints()
{
    const SlotState &s = m_model->slot(m_slot);
    QStringList lines;
    if (!inSoul()) {
        // A document beside the slots has no slot's rules; a path by its
        // name that is not read says why, as a slot's does.
        if (!s.bufferPresent && s.presence != SlotPresence::Missing)
            lines.append(lintMark(LintLevel::Warning) + QLatin1Char(' ')
                         + skippedPathText(fileName(), s.presence, s.absenceReason));
        for (const Lint &lint : std::as_const(m_documentLints))
            lines.append(lintMark(lint.level) + QLatin1Char(' ') + lint.message);
    } else if (s.bufferPresent && (s.diskComplete || s.dirty || !s.diskPresent())) {
        const ComposeRule &rule = m_model->rule();
        const QList<Lint> lints = lintSlot(factsOfBytes(m_slot, s.bufferBytes, rule),
                                           rule,
                                           m_runtimeView.hintSettings);
        for (const Lint &lint : lints)
            lines.append(lintMark(lint.level) + QLatin1Char(' ') + lint.message);
    } else if (!s.bufferPresent && s.presence != SlotPresence::Missing) {
        SlotFacts skipped;
        skipped.slot = m_slot;
        skipped.name = slotName(m_slot);
        skipped.presence = s.presence;
        skipped.absenceReason = s.absenceReason;
        for (const Lint &lint : lintSlot(skipped, m_model->rule(), m_runtimeView.hintSettings))
            lines.append(lintMark(lint.level) + QLatin1Char(' ') + lint.message);
    } else if (s.diskPresent() && !s.diskComplete) {
        lines.append(lintMark(LintLevel::Warning) + QLatin1Char(' ')
                     + tr("%1 is truncated: the agent gets the first %2.")
                           .arg(slotName(m_slot), m_model->rule().capText()));
    }
    m_lints->setText(lines.join(QLatin1Char('\n')));
    m_lints->setVisible(!lines.isEmpty());
    m_lints->setAccessibleName(tr("%1 lints").arg(fileName()));
}

QString SlotPane::fileName() const
{
    return inSoul() ? slotName(m_slot) : m_model->slotLabel(m_slot);
}

void SlotPane::setDocumentLints(const QList<Lint> &lints)
{
    if (m_documentLints.size() == lints.size()
        && std::equal(lints.cbegin(),
                      lints.cend(),
                      m_documentLints.cbegin(),
                      [](const Lint &a, const Lint &b) {
                          return a.level == b.level && a.message == b.message;
                      }))
        return;
    m_documentLints = lints;
    refreshLints();
}

void SlotPane::setFinishable(bool finishable)
{
    m_finishable = finishable;
    refreshState();
}

void SlotPane::setRole(const QString &role)
{
    m_role->setText(role);
    m_editor->setAccessibleDescription(role);
}

} // namespace soul
