#include "agentlistmodel.h"

#include "personasession.h"

#include <QDir>
#include <QLocale>

namespace soul {

AgentListModel::AgentListModel(QObject *parent)
    : QAbstractListModel(parent)
{}

int AgentListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant AgentListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= rowCount())
        return {};
    const Row &r = row(index.row());
    switch (role) {
    case Qt::DisplayRole: {
        QString text = r.detail.isEmpty() ? r.title : r.title + QLatin1Char('\n') + r.detail;
        if (!r.links.isEmpty())
            text += QLatin1Char('\n') + r.links;
        return text;
    }
    case Qt::ToolTipRole:
        return r.toolTip;
    case TitleRole:
        return r.title;
    case DetailRole:
        return r.detail;
    case AvailableRole:
        return r.available;
    case UnsavedRole:
        return r.unsaved;
    case LinksRole:
        return r.links;
    default:
        return {};
    }
}

void AgentListModel::setSource(const QString &text)
{
    if (text == m_source)
        return;
    m_source = text;
    Q_EMIT sourceChanged(text);
}

void AgentListModel::insertRow(int index, const Row &row)
{
    index = qBound(0, index, rowCount());
    beginInsertRows(QModelIndex(), index, index);
    m_rows.insert(m_rows.begin() + index, row);
    endInsertRows();
}

void AgentListModel::removeRowAt(int index)
{
    if (index < 0 || index >= rowCount())
        return;
    beginRemoveRows(QModelIndex(), index, index);
    m_rows.erase(m_rows.begin() + index);
    endRemoveRows();
}

void AgentListModel::setRow(int index, const Row &row)
{
    if (index < 0 || index >= rowCount() || m_rows.at(size_t(index)) == row)
        return;
    m_rows[size_t(index)] = row;
    const QModelIndex at = this->index(index);
    Q_EMIT dataChanged(at, at);
}

void AgentListModel::setRows(std::vector<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

AgentListModel::Row AgentListModel::describe(const PersonaSession &session, bool waiting)
{
    const PersonaSession::Agent &agent = session.agent();
    const QString id = agent.id.isEmpty() ? session.displayName() : agent.id;
    Row row;
    if (waiting) {
        row.title = id;
        row.detail = tr("opening…");
        row.toolTip = QDir::toNativeSeparators(agent.folder);
        return row;
    }
    row.available = !session.directory().isEmpty();
    if (!row.available) {
        row.title = id;
        row.detail = tr("no workspace folder");
        row.toolTip = tr("%1 does not exist. OpenClaw creates it when the agent first runs.")
                          .arg(QDir::toNativeSeparators(agent.folder));
        return row;
    }
    const QLocale locale;
    const PersonaSession::Summary summary = session.summary();
    row.unsaved = summary.unsaved;
    row.title = summary.identityName.isEmpty() ? id : tr("%1 — %2").arg(id, summary.identityName);
    if (agent.isDefault)
        row.title += tr(" (default)");
    if (summary.unsaved)
        row.title += QStringLiteral(" ●");
    QStringList detail;
    detail.append(summary.tokens < 0 ? tr("… tokens")
                                     : tr("%1 tokens").arg(locale.toString(summary.tokens)));
    if (summary.budget > 0)
        detail.append(tr("OpenClaw %1/%2")
                          .arg(locale.toString(summary.injected), locale.toString(summary.budget)));
    if (summary.lints > 0)
        detail.append(tr("%n lint(s)", nullptr, summary.lints));
    row.detail = detail.join(QStringLiteral(" · "));
    row.toolTip = QDir::toNativeSeparators(session.directory());
    if (!agent.budgetNote.isEmpty())
        row.toolTip += QLatin1Char('\n') + agent.budgetNote;
    return row;
}

} // namespace soul
