#include "agentssidebar.h"

#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
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

void AgentsSidebar::setSource(const QString &text)
{
    m_source->setText(text);
}

void AgentsSidebar::setRowCount(int rows)
{
    const QSignalBlocker quiet(m_list);
    while (m_list->count() > rows)
        delete m_list->takeItem(m_list->count() - 1);
    while (m_list->count() < rows)
        m_list->addItem(new QListWidgetItem(m_list));
}

void AgentsSidebar::setRow(int index, const Row &row)
{
    QListWidgetItem *item = m_list->item(index);
    if (!item)
        return;
    const QString text = row.detail.isEmpty() ? row.title
                                              : row.title + QLatin1Char('\n') + row.detail;
    if (item->text() != text)
        item->setText(text);
    item->setToolTip(row.toolTip);
    QFont font = item->font();
    font.setItalic(!row.available);
    item->setFont(font);
    item->setForeground(row.available ? palette().text() : palette().placeholderText());
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
