#include "history/historypanel.h"

#include "counttext.h"
#include "history/historylistmodel.h"
#include "history/historytimeline.h"

#include <QApplication>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>

#include <algorithm>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace soul {

HistoryPanel::HistoryPanel(HistoryListModel *rows, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("historyPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto *top = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("historyStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(m_status, 1);
    auto *refresh = new QToolButton(this);
    refresh->setText(tr("Refresh"));
    refresh->setToolTip(tr("Read the history again (after a commit made elsewhere)"));
    connect(refresh, &QToolButton::clicked, this, &HistoryPanel::refreshRequested);
    top->addWidget(refresh);
    m_checkpoint = new QPushButton(tr("Checkpoint…"), this);
    m_checkpoint->setObjectName(QStringLiteral("historyCheckpoint"));
    m_checkpoint->setToolTip(tr("Commit the slot files as they are on disk (Ctrl+Alt+S)"));
    connect(m_checkpoint, &QPushButton::clicked, this, &HistoryPanel::checkpointRequested);
    top->addWidget(m_checkpoint);
    layout->addLayout(top);
    m_changed = new QLabel(this);
    m_changed->setObjectName(QStringLiteral("historyChanged"));
    m_changed->setWordWrap(true);
    m_changed->setTextFormat(Qt::RichText);
    m_changed->hide();
    connect(m_changed, &QLabel::linkActivated, this, [this](const QString &link) {
        Q_EMIT diffRequested(link.section(QLatin1Char(':'), 1).toInt());
    });
    layout->addWidget(m_changed);

    m_pages = new QStackedWidget(this);
    layout->addWidget(m_pages, 1);

    // A sentence, and Create Repository when there is none.
    auto *messagePage = new QWidget(m_pages);
    auto *messageLayout = new QVBoxLayout(messagePage);
    m_message = new QLabel(messagePage);
    m_message->setObjectName(QStringLiteral("historyMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_create = new QPushButton(tr("Create Repository"), messagePage);
    m_create->setObjectName(QStringLiteral("historyCreateRepository"));
    connect(m_create, &QPushButton::clicked, this, &HistoryPanel::createRepositoryRequested);
    messageLayout->addStretch(1);
    messageLayout->addWidget(m_message);
    messageLayout->addWidget(m_create, 0, Qt::AlignHCenter);
    messageLayout->addStretch(2);
    m_pages->addWidget(messagePage);

    // The timeline, the list and the soul at the selected commit.
    auto *splitter = new QSplitter(Qt::Vertical, m_pages);
    m_timeline = new HistoryTimeline(rows, splitter);
    connect(m_timeline, &HistoryTimeline::rowClicked, this, &HistoryPanel::selectRow);
    m_list = new QTreeView(splitter);
    m_list->setObjectName(QStringLiteral("historyList"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true); // 2,000 rows lay out at once
    m_list->setAlternatingRowColors(true);
    // Two rows (Ctrl+click) can be compared with each other.
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->header()->setStretchLastSection(true);
    setRows(rows);

    auto *soulBox = new QWidget(splitter);
    auto *soulLayout = new QVBoxLayout(soulBox);
    soulLayout->setContentsMargins(0, 0, 0, 0);
    m_soulTitle = new QLabel(tr("Select a commit to see the soul as it was."), soulBox);
    m_soulTitle->setObjectName(QStringLiteral("historySoulTitle"));
    m_soulTitle->setWordWrap(true);
    soulLayout->addWidget(m_soulTitle);
    m_notes = new QLabel(soulBox);
    m_notes->setObjectName(QStringLiteral("historyNotes"));
    m_notes->setWordWrap(true);
    m_notes->hide();
    soulLayout->addWidget(m_notes);
    m_soul = new QPlainTextEdit(soulBox);
    m_soul->setObjectName(QStringLiteral("historySoul"));
    m_soul->setReadOnly(true);
    m_soul->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_soul->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_soul->setAccessibleName(tr("The soul at the selected commit"));
    soulLayout->addWidget(m_soul, 1);
    auto *actions = new QHBoxLayout;
    m_file = new QComboBox(soulBox);
    m_file->setObjectName(QStringLiteral("historyFile"));
    m_file->setToolTip(tr("The file to restore"));
    m_restoreFile = new QPushButton(tr("Restore File"), soulBox);
    m_restoreFile->setObjectName(QStringLiteral("historyRestoreFile"));
    m_restoreFile->setToolTip(
        tr("Put this file as it was into its pane, unsaved: Ctrl+Z there takes it back"));
    m_restoreAll = new QPushButton(tr("Restore Persona"), soulBox);
    m_restoreAll->setObjectName(QStringLiteral("historyRestoreAll"));
    m_restoreAll->setToolTip(
        tr("Put every file as it was into the panes, unsaved; nothing is written until you save"));
    m_compare = new QPushButton(tr("Compare with Live"), soulBox);
    m_compare->setObjectName(QStringLiteral("historyCompare"));
    m_compareTwo = new QPushButton(tr("Compare These Two"), soulBox);
    m_compareTwo->setObjectName(QStringLiteral("historyCompareTwo"));
    m_compareTwo->setToolTip(tr("Select two commits (Ctrl+click) to see what changed between "
                                "them, the older against the newer"));
    m_compareTwo->setEnabled(false);
    connect(m_compareTwo, &QPushButton::clicked, this, [this] {
        const QList<int> chosen = selectedRows();
        if (chosen.size() == 2)
            Q_EMIT compareTwoRequested(chosen.at(1), chosen.at(0));
    });
    connect(m_restoreFile, &QPushButton::clicked, this, [this] {
        if (selectedRow() >= 0 && m_file->currentIndex() >= 0)
            Q_EMIT restoreFileRequested(selectedRow(), m_file->currentData().toInt());
    });
    connect(m_restoreAll, &QPushButton::clicked, this, [this] {
        if (selectedRow() >= 0)
            Q_EMIT restoreAllRequested(selectedRow());
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (selectedRow() >= 0)
            Q_EMIT compareRequested(selectedRow());
    });
    actions->addWidget(m_file, 1);
    actions->addWidget(m_restoreFile);
    actions->addWidget(m_restoreAll);
    actions->addWidget(m_compare);
    actions->addWidget(m_compareTwo);
    soulLayout->addLayout(actions);

    splitter->addWidget(m_timeline);
    splitter->addWidget(m_list);
    splitter->addWidget(soulBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    splitter->setChildrenCollapsible(false);
    m_pages->addWidget(splitter);

    showStatus(HistoryStatus::Closed, {}, {});
    showSoulError({});
}

QSize HistoryPanel::sizeHint() const
{
    return {520, 700};
}

void HistoryPanel::showStatus(HistoryStatus status, const QString &error, const QString &busy)
{
    m_shown = status;
    m_busy = busy;
    m_create->setVisible(status == HistoryStatus::NoRepository);
    m_checkpoint->setEnabled(status != HistoryStatus::Closed && status != HistoryStatus::Failed
                             && busy.isEmpty());
    switch (status) {
    case HistoryStatus::Closed:
        m_message->setText(tr("Open a persona folder to see its history."));
        break;
    case HistoryStatus::Loading:
        m_message->setText(tr("Reading the history…"));
        break;
    case HistoryStatus::NoRepository:
        m_message->setText(
            tr("This folder is in no git repository, so it has no history yet. Create one "
               "here (as OpenClaw does for a new workspace), then make a checkpoint to keep "
               "this version of the soul."));
        break;
    case HistoryStatus::Empty:
        m_message->setText(
            tr("The repository has no commit of the slot files yet. Make a checkpoint "
               "(File > Checkpoint, Ctrl+Alt+S) to keep this version of the soul."));
        break;
    case HistoryStatus::Failed:
        m_message->setText(error);
        break;
    case HistoryStatus::Ready:
        break;
    }
    m_pages->setCurrentIndex(status == HistoryStatus::Ready ? 1 : 0);
    if (!busy.isEmpty())
        m_status->setText(tr("Read only: %1").arg(busy));
    else if (status != HistoryStatus::Ready)
        m_status->clear();
    setRestoreEnabled(m_restoreEnabled);
    focusWhenListed();
}

void HistoryPanel::focusWhenListed()
{
    if (!m_focusWhenListed || m_shown == HistoryStatus::Loading
        || (m_shown == HistoryStatus::Ready && m_list->model()->rowCount() == 0))
        return;
    m_focusWhenListed = false;
    const QWidget *focus = QApplication::focusWidget();
    if (focus && isAncestorOf(focus))
        focusCommits();
}

void HistoryPanel::showProgress(int measured, int total)
{
    if (!m_busy.isEmpty() || m_shown != HistoryStatus::Ready)
        return;
    QString text = tr("%1 %2 touched the slot files")
                       .arg(formatCount(total), total == 1 ? tr("commit") : tr("commits"));
    if (measured < total)
        text += tr("; counting tokens (%1 of %2)").arg(formatCount(measured), formatCount(total));
    m_status->setText(text);
}

void HistoryPanel::setRestoreEnabled(bool enabled)
{
    m_restoreEnabled = enabled;
    const bool chosen = selectedRow() >= 0 && m_file->count() > 0;
    m_restoreFile->setEnabled(enabled && chosen);
    m_restoreAll->setEnabled(enabled && selectedRow() >= 0);
    m_compare->setEnabled(enabled && selectedRow() >= 0);
}

void HistoryPanel::focusCommits()
{
    m_focusWhenListed = m_shown == HistoryStatus::Loading
                        || (m_shown == HistoryStatus::Ready && m_list->model()->rowCount() == 0);
    // While the list is read, the panel holds the focus until it is filled.
    if (!m_focusWhenListed && m_pages->currentIndex() == 1) {
        m_list->setFocus(Qt::ShortcutFocusReason);
        // With nothing selected, the newest commit is, so the keys act from
        // a row the user sees.
        if (selectedRow() < 0 && m_list->model()->rowCount() > 0)
            selectRow(0);
    } else if (!m_focusWhenListed && m_create->isVisible()) {
        m_create->setFocus(Qt::ShortcutFocusReason);
    } else {
        m_pages->setFocus(Qt::ShortcutFocusReason);
    }
}

void HistoryPanel::selectRow(int row)
{
    if (row < 0 || row >= m_rows->count())
        return;
    m_list->setCurrentIndex(m_rows->index(row, 0));
    m_list->scrollTo(m_rows->index(row, 0));
}

int HistoryPanel::selectedRow() const
{
    const QModelIndex current = m_list->currentIndex();
    if (current.isValid() && m_list->selectionModel()->isRowSelected(current.row(), {}))
        return current.row();
    const QList<int> rows = selectedRows();
    return rows.isEmpty() ? -1 : rows.first();
}

QList<int> HistoryPanel::selectedRows() const
{
    QList<int> rows;
    const QModelIndexList selected = m_list->selectionModel()->selectedRows();
    for (const QModelIndex &index : selected)
        rows.append(index.row());
    std::sort(rows.begin(), rows.end());
    return rows;
}

void HistoryPanel::setRows(HistoryListModel *rows)
{
    if (rows == m_rows)
        return;
    const bool replacing = m_rows != nullptr;
    if (replacing)
        disconnect(m_rows, nullptr, this, nullptr);
    m_rows = rows;
    m_timeline->setRows(rows);
    // The view makes a selection model for each model; the old one goes.
    QItemSelectionModel *before = m_list->selectionModel();
    m_list->setModel(rows);
    if (before)
        before->deleteLater();
    m_list->header()->setSectionResizeMode(HistoryListModel::TimeColumn,
                                           QHeaderView::ResizeToContents);
    m_list->setColumnWidth(HistoryListModel::AuthorColumn, 90);
    m_list->setColumnWidth(HistoryListModel::MessageColumn, 160);
    m_list->setColumnWidth(HistoryListModel::TokensColumn, 56);
    connect(m_list->selectionModel(),
            &QItemSelectionModel::selectionChanged,
            this,
            &HistoryPanel::selectionChanged);
    connect(rows, &QAbstractItemModel::rowsInserted, this, &HistoryPanel::focusWhenListed);
    connect(rows, &QAbstractItemModel::modelReset, this, &HistoryPanel::focusWhenListed);
    if (replacing)
        selectionChanged(); // nothing is selected in the new list
}

void HistoryPanel::selectionChanged()
{
    m_compareTwo->setEnabled(selectedRows().size() == 2);
    const int row = selectedRow();
    m_timeline->setSelectedRow(row);
    if (row < 0) {
        showSoulError({});
        return;
    }
    const HistoryCommit &commit = m_rows->commit(row);
    m_soulTitle->setText(tr("Reading the soul at %1…").arg(commit.shortId));
    Q_EMIT rowSelected(row);
}

void HistoryPanel::showSoul(const CommitSoul &soul)
{
    const int row = m_rows->rowOf(soul.commitId);
    if (row < 0 || row != selectedRow())
        return; // another commit was selected meanwhile
    const HistoryCommit &commit = m_rows->commit(row);
    m_soulTitle->setText(tr("The soul at %1 (%2) as %3 composes it, read only: %4")
                             .arg(commit.shortId,
                                  commit.authorTime.toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                                  soul.runtimeName,
                                  commit.summary));
    m_notes->setText(soul.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!soul.notes.isEmpty());
    m_soul->setPlainText(QString::fromUtf8(soul.soul));
    fillFiles(soul);
    setRestoreEnabled(m_restoreEnabled);
}

void HistoryPanel::fillFiles(const CommitSoul &soul)
{
    const int previous = m_file->currentData().isValid() ? m_file->currentData().toInt() : -1;
    m_file->clear();
    for (int k = 0; k < SlotCount; ++k) {
        if (soul.present[size_t(k)])
            m_file->addItem(slotName(k), k);
    }
    // The file chosen before, else the first one this commit changed.
    int again = m_file->findData(previous);
    const int row = m_rows->rowOf(soul.commitId);
    for (int k = 0; again < 0 && row >= 0 && k < SlotCount; ++k) {
        if (m_rows->commit(row).change(k) != SlotChange::Unchanged)
            again = m_file->findData(k);
    }
    if (again >= 0)
        m_file->setCurrentIndex(again);
}

void HistoryPanel::showSoulError(const QString &error)
{
    m_soulTitle->setText(error.isEmpty() ? tr("Select a commit to see the soul as it was.") : error);
    m_notes->hide();
    m_soul->clear();
    m_file->clear();
    setRestoreEnabled(m_restoreEnabled);
}

void HistoryPanel::showChanged(const QList<Changed> &changed, const QString &checkpoint)
{
    if (changed.isEmpty()) {
        m_changed->hide();
        m_changed->clear();
        return;
    }
    QStringList parts;
    for (const Changed &c : changed) {
        parts.append(
            QStringLiteral("<a href=\"slot:%1\">%2</a> (%3)")
                .arg(c.slot)
                .arg(slotName(c.slot).toHtmlEscaped(),
                     c.savedHere ? tr("saved in Soul Studio") : tr("changed outside Soul Studio")));
    }
    m_changed->setText(tr("Changed since the last checkpoint (%1): %2. Click a name for the "
                          "diff.")
                           .arg(checkpoint, parts.join(QStringLiteral(", "))));
    m_changed->show();
}

} // namespace soul
