#include "agentssidebar.h"

#include "agentlistmodel.h"

#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QStyle>
#include <QVBoxLayout>

namespace soul {

AgentsSidebar::AgentsSidebar(QWidget *parent)
    : QWidget(parent)
    , m_source(new QLabel(this))
    , m_list(new QListWidget(this))
{
    setObjectName(QStringLiteral("agentsSidebar"));
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_list->setAccessibleName(tr("Agents"));
    m_list->setObjectName(QStringLiteral("agentsList"));
    m_list->setWordWrap(true);
    m_list->setUniformItemSizes(true);
    m_list->setTextElideMode(Qt::ElideRight);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 0, 4);
    layout->addWidget(m_source);
    layout->addWidget(m_list, 1);
    connect(m_list, &QListWidget::currentRowChanged, this, &AgentsSidebar::currentChanged);
}

void AgentsSidebar::setModel(AgentListModel *model)
{
    m_model = model;
    const auto all = [this] {
        const QSignalBlocker quiet(m_list);
        const int rows = m_model->rowCount();
        while (m_list->count() > rows)
            delete m_list->takeItem(m_list->count() - 1);
        while (m_list->count() < rows)
            m_list->addItem(new QListWidgetItem(m_list));
        showRows(0, rows - 1);
    };
    connect(model, &QAbstractItemModel::modelReset, this, all);
    connect(model, &QAbstractItemModel::rowsInserted, this, all);
    connect(model, &QAbstractItemModel::rowsRemoved, this, all);
    connect(model,
            &QAbstractItemModel::dataChanged,
            this,
            [this](const QModelIndex &first, const QModelIndex &last) {
                showRows(first.row(), last.row());
            });
    connect(model, &AgentListModel::sourceChanged, m_source, &QLabel::setText);
    m_source->setText(model->source());
    all();
}

void AgentsSidebar::showRows(int first, int last)
{
    for (int i = first; i <= last; ++i) {
        QListWidgetItem *item = m_list->item(i);
        if (!item)
            continue;
        const QModelIndex at = m_model->index(i);
        const QString text = at.data(Qt::DisplayRole).toString();
        if (item->text() != text)
            item->setText(text);
        item->setToolTip(at.data(Qt::ToolTipRole).toString());
        const bool available = at.data(AgentListModel::AvailableRole).toBool();
        QFont font = item->font();
        font.setItalic(!available);
        item->setFont(font);
        item->setForeground(available ? palette().text() : palette().placeholderText());
        // A linked file that went its own way, or waits for a save to finish.
        const bool linkNote = !at.data(AgentListModel::LinksRole).toString().isEmpty();
        if (linkNote != !item->icon().isNull())
            item->setIcon(linkNote ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
    }
}

void AgentsSidebar::setCurrent(int index)
{
    const QSignalBlocker quiet(m_list);
    m_list->setCurrentRow(index);
}

int AgentsSidebar::current() const
{
    return m_list->currentRow();
}

} // namespace soul
