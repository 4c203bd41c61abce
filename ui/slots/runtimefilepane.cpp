#include "runtimefilepane.h"

#include "diskchangedbar.h"
#include "markdownhighlighter.h"
#include "persona/runtimefile.h"
#include "recoverybar.h"
#include "runtimemeter.h"
#include "text/documentchange.h"

#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

namespace soul {

RuntimeFilePane::RuntimeFilePane(const RuntimeFile *file, QWidget *parent)
    : QFrame(parent)
    , m_file(file)
    , m_title(new QLabel(this))
    , m_state(new QLabel(this))
    , m_role(new QLabel(this))
    , m_meter(new RuntimeMeter(this))
    , m_note(new QLabel(this))
    , m_save(new QPushButton(tr("Save"), this))
    , m_revert(new QPushButton(tr("Revert"), this))
    , m_finish(new QPushButton(tr("Finish setup"), this))
    , m_restore(new QPushButton(tr("Restore %1").arg(file->name()), this))
    , m_recoveryBar(new RecoveryBar(this))
    , m_diskBar(new DiskChangedBar(this))
    , m_unreadNote(new QLabel(this))
    , m_editor(new QPlainTextEdit(this))
{
    const QString &name = file->name();
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("runtimeFilePane_%1").arg(name));
    m_title->setText(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()));
    m_title->setTextFormat(Qt::RichText);
    m_state->setForegroundRole(QPalette::PlaceholderText);
    // Its role, as a slot's: the runtime's lint says what its presence means.
    m_role->setText(tr("first-run instructions"));
    m_meter->setAccessibleName(tr("%1 size against the runtime's budgets").arg(name));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setAccessibleName(tr("%1 under the runtime").arg(name));
    m_note->hide();
    m_unreadNote->setWordWrap(true);
    m_unreadNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_unreadNote->setForegroundRole(QPalette::PlaceholderText);
    m_unreadNote->hide();
    m_save->setAccessibleName(tr("Save %1").arg(name));
    m_revert->setAccessibleName(tr("Revert %1").arg(name));
    m_revert->setToolTip(tr("Drop the unsaved edits and take the file's text again"));
    m_finish->setToolTip(tr("Delete %1: the first run is done").arg(name));
    m_restore->setToolTip(tr("Write %1 back as it was").arg(name));
    for (QPushButton *b : {m_save, m_revert, m_finish, m_restore})
        b->setAutoDefault(false);
    m_editor->setAccessibleName(tr("%1 editor").arg(name));
    m_editor->setMinimumHeight(160);
    m_editor->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn); // as the slot panes'
    m_editor->installEventFilter(this);
    auto *document = new QTextDocument(m_editor);
    document->setDefaultFont(m_editor->font());
    auto *highlighter = new MarkdownHighlighter(document);
    m_editor->setDocument(document);
    highlighter->setViewport(m_editor->viewport());

    auto *header = new QHBoxLayout;
    header->setSpacing(8);
    header->addWidget(m_title);
    header->addWidget(m_role);
    header->addWidget(m_state);
    header->addStretch(1);
    header->addWidget(m_save);
    header->addWidget(m_revert);
    header->addWidget(m_finish);
    header->addWidget(m_restore);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addWidget(m_meter);
    layout->addWidget(m_note);
    layout->addWidget(m_unreadNote);
    layout->addWidget(m_diskBar);
    layout->addWidget(m_recoveryBar);
    layout->addWidget(m_editor, 1);

    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_loading)
            Q_EMIT textEdited();
    });
    connect(m_save, &QPushButton::clicked, this, &RuntimeFilePane::saveRequested);
    connect(m_revert, &QPushButton::clicked, this, &RuntimeFilePane::revertRequested);
    connect(m_finish, &QPushButton::clicked, this, &RuntimeFilePane::finishRequested);
    connect(m_restore, &QPushButton::clicked, this, &RuntimeFilePane::restoreRequested);
    connect(m_diskBar, &DiskChangedBar::reloadRequested, this, &RuntimeFilePane::reloadRequested);
    connect(m_diskBar,
            &DiskChangedBar::keepMineRequested,
            this,
            &RuntimeFilePane::keepMineRequested);
    connect(m_diskBar, &DiskChangedBar::compareRequested, this, &RuntimeFilePane::compareRequested);
    connect(m_diskBar, &DiskChangedBar::saveRequested, this, &RuntimeFilePane::saveRequested);
    connect(m_diskBar, &DiskChangedBar::discardRequested, this, &RuntimeFilePane::discardRequested);
    connect(m_recoveryBar,
            &RecoveryBar::restoreRequested,
            this,
            &RuntimeFilePane::restoreRecoveryRequested);
    connect(m_recoveryBar,
            &RecoveryBar::compareRequested,
            this,
            &RuntimeFilePane::compareRecoveryRequested);
    connect(m_recoveryBar,
            &RecoveryBar::discardRequested,
            this,
            &RuntimeFilePane::discardRecoveryRequested);
    reload();
}

bool RuntimeFilePane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_editor && event->type() == QEvent::FocusIn)
        Q_EMIT focused();
    return QFrame::eventFilter(watched, event);
}

QString RuntimeFilePane::text() const
{
    return m_editor->document()->toRawText();
}

void RuntimeFilePane::reload()
{
    m_loading = true;
    m_editor->setPlainText(m_file->paneText());
    m_loading = false;
    refreshState();
}

void RuntimeFilePane::follow()
{
    m_loading = true;
    replaceAsOneEdit(m_editor, m_file->paneText());
    m_loading = false;
    refreshState();
}

void RuntimeFilePane::refreshState()
{
    const bool present = m_file->buffer().has_value();
    const bool dirty = m_file->isOpen() && m_file->dirty();
    QString state;
    if (!m_file->isOpen())
        state = QString();
    else if (m_file->conflict() == ConflictState::DeletedOnDisk)
        state = tr("deleted on disk");
    else if (m_file->conflict() == ConflictState::NotReadableOnDisk)
        state = tr("not a regular file on disk");
    else if (!present && m_file->removed())
        state = tr("deleted: setup is finished");
    else if (!present && !m_file->unreadReason().isEmpty())
        state = tr("skipped"); // as a slot's; the note says why
    else if (!present)
        state = tr("not in the folder");
    else if (dirty)
        state = tr("unsaved");
    else
        state = tr("present");
    m_state->setText(state);
    m_title->setToolTip(QDir::toNativeSeparators(m_file->filePath()));
    m_save->setVisible(present);
    m_save->setEnabled(dirty);
    m_revert->setVisible(present);
    m_revert->setEnabled(dirty);
    m_finish->setVisible(m_file->diskPresent());
    m_finish->setEnabled(!dirty);
    m_restore->setVisible(!m_file->diskPresent() && m_file->removed().has_value());
    // Without the file there is nothing to edit: the pane folds to its header.
    m_editor->setVisible(present);
    // As a slot's read-only note: what editing would change.
    const QString note = !m_file->unreadReason().isEmpty() || m_file->obstacles().isEmpty()
                             ? m_file->unreadReason()
                             : tr("Read-only: %1 Edit it with another tool.")
                                   .arg(m_file->obstacles().join(QLatin1Char(' ')));
    m_unreadNote->setText(note);
    m_unreadNote->setVisible(m_file->isOpen() && !note.isEmpty());
    m_diskBar->showConflict(m_file->name(), m_file->conflict(), m_file->unreadPhrase());
    // Recovered text waits for the user's answer; typing meanwhile would be lost.
    if (m_file->hasRecovery()) {
        m_recoveryBar->showFor(m_file->name(),
                               m_file->recovery()->savedAt,
                               m_file->recoveryPredatesDisk());
    } else {
        m_recoveryBar->hide();
    }
    m_editor->setReadOnly(m_file->hasRecovery() || !m_file->obstacles().isEmpty());
}

void RuntimeFilePane::setRuntimeView(const RuntimePaneView &view)
{
    const bool present = m_file->buffer().has_value();
    m_meter->setVisible(view.active && view.loaded && present);
    m_meter->setFigures(view.used, view.budget, view.totalUsed, view.totalBudget);
    m_meter->setTokens(view.tokens, view.totalTokens, view.encoding);
    m_note->setText(view.note);
    m_note->setVisible(view.active && present && !view.note.isEmpty());
}

} // namespace soul
