#include "history/grouphistorypanel.h"

#include "history/grouphistorymodel.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace soul {

GroupHistoryPanel::GroupHistoryPanel(GroupHistoryModel *rows, QWidget *parent)
    : QWidget(parent)
    , m_rows(rows)
{
    setObjectName(QStringLiteral("groupHistoryPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto *top = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("groupHistoryStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(m_status, 1);
    auto *refresh = new QToolButton(this);
    refresh->setText(tr("Refresh"));
    refresh->setToolTip(tr("Read the members' histories again (after a commit made elsewhere)"));
    connect(refresh, &QToolButton::clicked, this, &GroupHistoryPanel::refreshRequested);
    top->addWidget(refresh);
    m_checkpoint = new QPushButton(tr("Checkpoint the Group…"), this);
    m_checkpoint->setObjectName(QStringLiteral("groupHistoryCheckpoint"));
    m_checkpoint->setToolTip(tr("Commit every member whose slot files changed, with one message "
                                "(Ctrl+Alt+G)"));
    connect(m_checkpoint, &QPushButton::clicked, this, &GroupHistoryPanel::checkpointRequested);
    top->addWidget(m_checkpoint);
    layout->addLayout(top);

    m_notes = new QLabel(this);
    m_notes->setObjectName(QStringLiteral("groupHistoryNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->hide();
    layout->addWidget(m_notes);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_list = new QTreeView(splitter);
    m_list->setObjectName(QStringLiteral("groupHistoryList"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setModel(rows);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(GroupHistoryModel::MessageColumn, QHeaderView::Stretch);
    connect(m_list->selectionModel(),
            &QItemSelectionModel::currentRowChanged,
            this,
            &GroupHistoryPanel::selectionChanged);
    // A reset (the list read again) leaves nothing selected.
    connect(rows, &QAbstractItemModel::modelReset, this, &GroupHistoryPanel::selectionChanged);

    auto *textBox = new QWidget(splitter);
    auto *textLayout = new QVBoxLayout(textBox);
    textLayout->setContentsMargins(0, 0, 0, 0);
    m_textTitle = new QLabel(textBox);
    m_textTitle->setObjectName(QStringLiteral("groupHistoryTextTitle"));
    m_textTitle->setWordWrap(true);
    textLayout->addWidget(m_textTitle);
    m_text = new QPlainTextEdit(textBox);
    m_text->setObjectName(QStringLiteral("groupHistoryText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setAccessibleName(tr("The linked file at the selected commit"));
    textLayout->addWidget(m_text, 1);

    splitter->addWidget(m_list);
    splitter->addWidget(textBox);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    layout->addWidget(splitter, 1);

    showState({}, {}, false);
    selectionChanged();
}

QSize GroupHistoryPanel::sizeHint() const
{
    return {520, 700};
}

void GroupHistoryPanel::showState(const QString &text, const QStringList &memberNotes, bool hasGroup)
{
    m_status->setText(text);
    m_notes->setText(memberNotes.join(QLatin1Char('\n')));
    m_notes->setVisible(!memberNotes.isEmpty());
    m_checkpoint->setEnabled(hasGroup);
}

void GroupHistoryPanel::selectRow(int row)
{
    if (row < 0 || row >= m_rows->count())
        return;
    m_list->setCurrentIndex(m_rows->index(row, 0));
}

int GroupHistoryPanel::selectedRow() const
{
    const QModelIndex current = m_list->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void GroupHistoryPanel::selectionChanged()
{
    const int row = selectedRow();
    m_text->clear();
    if (row < 0) {
        m_textTitle->setText(tr("Select a commit to see the file as it was."));
        return;
    }
    const GroupFileCommit &at = m_rows->commit(row);
    m_textTitle->setText(tr("Reading %1's commit %2…").arg(at.agent, at.commit.shortId));
    Q_EMIT rowSelected(row);
}

void GroupHistoryPanel::showText(int row, const QByteArray &text)
{
    if (row != selectedRow())
        return; // another commit was selected meanwhile
    const GroupFileCommit &at = m_rows->commit(row);
    const QString when = at.commit.authorTime.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    if (!at.present) {
        m_textTitle->setText(tr("%1's commit %2 (%3) removed the file: %4")
                                 .arg(at.agent, at.commit.shortId, when, at.commit.summary));
        m_text->clear();
        return;
    }
    m_textTitle->setText(
        tr("The file in %1's commit %2 (%3), read only%4: %5")
            .arg(at.agent,
                 at.commit.shortId,
                 when,
                 m_rows->sameAsGroup(row) ? tr(", the group's text now") : QString(),
                 at.commit.summary));
    m_text->setPlainText(QString::fromUtf8(text));
}

void GroupHistoryPanel::showTextError(int row, const QString &error)
{
    if (row != selectedRow())
        return;
    m_textTitle->setText(error);
    m_text->clear();
}

void GroupHistoryPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    Q_EMIT shownChanged(true);
}

void GroupHistoryPanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    Q_EMIT shownChanged(false);
}

} // namespace soul
