#include "slotpane.h"

#include "diskchangedbar.h"
#include "elidedlabel.h"
#include "inspection.h"
#include "lint.h"
#include "markdownhighlighter.h"
#include "personamodel.h"
#include "recoverybar.h"
#include "sizemeter.h"
#include "soultokencounter.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QVBoxLayout>

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

} // namespace

SlotPane::SlotPane(int slot, const PersonaModel *model, QWidget *parent)
    : QFrame(parent)
    , m_slot(slot)
    , m_model(model)
    , m_title(new QLabel(this))
    , m_role(new ElidedLabel(slotRole(slot), this))
    , m_state(new QLabel(this))
    , m_dirty(new QLabel(this))
    , m_tokens(new QLabel(this))
    , m_meter(new SizeMeter(this))
    , m_lints(new QLabel(this))
    , m_readOnly(new QLabel(this))
    , m_absentNote(new QLabel(this))
    , m_create(new QPushButton(tr("Create"), this))
    , m_save(new QPushButton(tr("Save"), this))
    , m_revert(new QPushButton(tr("Revert"), this))
    , m_editAnyway(new QPushButton(tr("Edit anyway"), this))
    , m_diskBar(new DiskChangedBar(this))
    , m_recoveryBar(new RecoveryBar(this))
    , m_editor(new QPlainTextEdit(this))
{
    const QString name = slotName(slot);
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("slotPane_%1").arg(name));
    setFocusPolicy(Qt::StrongFocus);

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
    // The state is quieter than the name and the role; the notable states
    // also show as bars, notes or buttons.
    m_state->setForegroundRole(QPalette::PlaceholderText);
    m_meter->setAccessibleName(tr("%1 size against the 2 MiB cap").arg(name));

    auto *header = new QHBoxLayout;
    header->setSpacing(8);
    header->addWidget(m_title);
    // In a narrow window the role gives way (elided), so the name, the state
    // and the buttons stay whole.
    header->addWidget(m_role);
    header->addWidget(m_state);
    header->addWidget(m_dirty);
    header->addStretch(1);
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
    m_editor->setAccessibleDescription(slotRole(slot));
    m_editor->setTabChangesFocus(false);
    m_editor->setMinimumHeight(160);
    m_editor->installEventFilter(this);
    m_editor->viewport()->installEventFilter(this);
    auto *document = new QTextDocument(m_editor);
    document->setDefaultFont(m_editor->font());
    m_highlighter = new MarkdownHighlighter(document);
    m_editor->setDocument(document);

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
    layout->addWidget(m_lints);
    layout->addWidget(m_readOnly);
    layout->addWidget(m_absentNote);
    layout->addWidget(m_diskBar);
    layout->addWidget(m_recoveryBar);
    layout->addWidget(m_editor, 1);

    for (QPushButton *b : {m_create, m_save, m_revert, m_editAnyway})
        b->setAutoDefault(false);
    m_save->setAccessibleName(tr("Save %1").arg(name));
    m_revert->setAccessibleName(tr("Revert %1").arg(name));
    m_create->setAccessibleName(tr("Create %1").arg(name));

    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        const int revision = m_editor->document()->revision();
        if (m_loading || revision == m_lastRevision)
            return;
        m_lastRevision = revision;
        Q_EMIT textEdited(m_slot);
    });
    connect(m_create, &QPushButton::clicked, this, [this] { Q_EMIT createRequested(m_slot); });
    connect(m_save, &QPushButton::clicked, this, [this] { Q_EMIT saveRequested(m_slot); });
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
            if (!m_editor->document()->isEmpty()) {
                m_loading = true;
                m_editor->document()->clear();
                m_lastRevision = m_editor->document()->revision();
                m_loading = false;
            }
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
    if (text
        == m_editor->document()->toRawText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'))) {
        return;
    }
    const QTextCursor old = m_editor->textCursor();
    const int anchor = old.anchor();
    const int position = old.position();
    const int vertical = m_editor->verticalScrollBar()->value();
    const int horizontal = m_editor->horizontalScrollBar()->value();
    m_loading = true;
    // The document's own setPlainText: QPlainTextEdit's also sets the char
    // format of the whole text again, a second pass over every block.
    m_editor->document()->setPlainText(text);
    m_lastRevision = m_editor->document()->revision();
    m_loading = false;
    const int end = m_editor->document()->characterCount() - 1;
    QTextCursor cursor(m_editor->document());
    cursor.setPosition(qBound(0, anchor, end));
    cursor.setPosition(qBound(0, position, end), QTextCursor::KeepAnchor);
    m_editor->setTextCursor(cursor);
    m_editor->verticalScrollBar()->setValue(vertical);
    m_editor->horizontalScrollBar()->setValue(horizontal);
}

void SlotPane::refreshState()
{
    const SlotState &s = m_model->slot(m_slot);
    const QString name = slotName(m_slot);
    QString state;
    if (m_model->directoryLost())
        state = tr("folder missing");
    else if (s.conflict == ConflictState::DeletedOnDisk)
        state = tr("deleted on disk");
    else if (s.diskPresent())
        state = s.readOnly ? tr("read-only") : tr("present");
    else if (s.bufferPresent)
        state = tr("new, not saved yet");
    else if (s.presence == SlotPresence::Missing)
        state = tr("absent");
    else
        state = tr("skipped");
    m_state->setText(state);
    // A slot without a buffer has nothing to edit: it folds to its header and
    // says what the agent gets instead (a skipped path says why in its lint).
    const bool missing = !s.bufferPresent && s.presence == SlotPresence::Missing;
    if (missing) {
        m_absentNote->setText(tr("There is no %1, so the soul has no %1 section. Create starts "
                                 "it from a template.")
                                  .arg(name));
    }
    m_absentNote->setVisible(missing);
    m_dirty->setText(s.dirty ? tr("● unsaved") : QString());
    m_dirty->setAccessibleName(s.dirty ? tr("%1 has unsaved changes").arg(name) : QString());

    const bool hasBuffer = s.bufferPresent;
    m_create->setVisible(!hasBuffer && s.presence == SlotPresence::Missing);
    m_editAnyway->setVisible(s.readOnly && s.canEditAnyway);
    m_save->setEnabled(s.dirty);
    m_revert->setEnabled(s.dirty);
    m_save->setVisible(hasBuffer);
    m_revert->setVisible(hasBuffer);
    m_editor->setEnabled(hasBuffer);
    m_editor->setVisible(hasBuffer);
    m_meter->setVisible(hasBuffer || s.diskPresent());
    setMinimumHeight(hasBuffer ? EditingHeight : 0);
    // An offer of recovered text is answered before the pane takes edits.
    const bool offered = m_model->hasRecovery(m_slot);
    m_editor->setReadOnly(!hasBuffer || s.readOnly || offered || m_reloadPending);
    m_readOnly->setVisible(s.readOnly);
    if (s.readOnly) {
        m_readOnly->setText(
            s.canEditAnyway
                ? tr("Read-only: %1 Choose Edit anyway to edit and save it with those changes.")
                      .arg(s.readOnlyReason)
                : tr("Read-only: %1").arg(s.readOnlyReason));
    }
    m_editAnyway->setToolTip(s.readOnlyReason);

    switch (s.conflict) {
    case ConflictState::None:
        m_diskBar->hide();
        break;
    case ConflictState::ChangedOnDisk:
        m_diskBar->showFor(name, DiskChangedBar::Kind::Changed);
        break;
    case ConflictState::DeletedOnDisk:
        m_diskBar->showFor(name, DiskChangedBar::Kind::Deleted);
        break;
    }

    if (offered) {
        m_recoveryBar->showFor(name,
                               m_model->recovery(m_slot)->savedAt,
                               m_model->recoveryPredatesDisk(m_slot));
    } else {
        m_recoveryBar->hide();
    }

    m_meter->setBytes(m_model->sizeIn(m_slot, SoulView::Unsaved));
    refreshTokens();
    setAccessibleName(tr("%1, %2, %3").arg(name, slotRole(m_slot), state));
    m_lintTimer.start();
}

bool SlotPane::eventFilter(QObject *watched, QEvent *event)
{
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
    return QFrame::eventFilter(watched, event);
}

void SlotPane::setTokenCounter(const SoulTokenCounter *counter)
{
    m_counter = counter;
    connect(counter, &SoulTokenCounter::countsChanged, this, &SlotPane::refreshTokens);
    m_tokens->setAccessibleName(tr("%1 tokens").arg(slotName(m_slot)));
    refreshTokens();
}

void SlotPane::refreshTokens()
{
    const bool inSoul = m_model->isOpen() && m_model->section(m_slot, SoulView::Unsaved);
    m_tokens->setVisible(m_counter && inSoul);
    if (!m_counter || !inSoul)
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
    if (s.bufferPresent && (s.diskComplete || s.dirty || !s.diskPresent())) {
        const QList<Lint> lints = lintSlot(factsOfBytes(m_slot, s.bufferBytes));
        for (const Lint &lint : lints)
            lines.append(lintMark(lint.level) + QLatin1Char(' ') + lint.message);
    } else if (!s.bufferPresent && s.presence != SlotPresence::Missing) {
        SlotFacts skipped;
        skipped.slot = m_slot;
        skipped.name = slotName(m_slot);
        skipped.presence = s.presence;
        skipped.absenceReason = s.absenceReason;
        for (const Lint &lint : lintSlot(skipped))
            lines.append(lintMark(lint.level) + QLatin1Char(' ') + lint.message);
    } else if (s.diskPresent() && !s.diskComplete) {
        lines.append(lintMark(LintLevel::Warning) + QLatin1Char(' ')
                     + tr("%1 is truncated: the agent gets the first 2 MiB.").arg(slotName(m_slot)));
    }
    m_lints->setText(lines.join(QLatin1Char('\n')));
    m_lints->setVisible(!lines.isEmpty());
    m_lints->setAccessibleName(tr("%1 lints").arg(slotName(m_slot)));
}

} // namespace soul
