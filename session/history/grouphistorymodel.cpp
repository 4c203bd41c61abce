#include "history/grouphistorymodel.h"

namespace soul {

GroupHistoryModel::GroupHistoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    setObjectName(QStringLiteral("groupHistoryRows"));
}

void GroupHistoryModel::setCommits(const QList<GroupFileCommit> &commits,
                                   const QByteArray &groupBlob)
{
    std::vector<GroupFileCommit> rows(commits.cbegin(), commits.cend());
    beginResetModel();
    m_rows = std::move(rows);
    m_groupBlob = groupBlob;
    endResetModel();
}

void GroupHistoryModel::clear()
{
    setCommits({}, {});
}

bool GroupHistoryModel::sameAsGroup(int row) const
{
    const GroupFileCommit &at = commit(row);
    return at.present && !m_groupBlob.isEmpty() && at.blobId == m_groupBlob;
}

int GroupHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count();
}

int GroupHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= count())
        return {};
    const GroupFileCommit &row = m_rows[size_t(index.row())];
    const HistoryCommit &commit = row.commit;
    if (role == CommitIdRole)
        return commit.id;
    if (role == Qt::ToolTipRole) {
        return tr("%1 of %2, by %3 <%4>\n%5")
            .arg(commit.shortId,
                 row.agent,
                 commit.authorName,
                 commit.authorEmail,
                 commit.message.trimmed());
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case AgentColumn:
        return row.agent;
    case TimeColumn:
        return commit.authorTime.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    case CommitColumn:
        return commit.shortId;
    case MessageColumn:
        return commit.summary;
    case TextColumn:
        if (!row.present)
            return tr("removed");
        if (m_groupBlob.isEmpty())
            return tr("not known");
        return sameAsGroup(index.row()) ? tr("the group's text") : tr("other text");
    default:
        return {};
    }
}

QVariant GroupHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AgentColumn:
        return tr("Agent");
    case TimeColumn:
        return tr("Date");
    case CommitColumn:
        return tr("Commit");
    case MessageColumn:
        return tr("Message");
    case TextColumn:
        return tr("File");
    default:
        return {};
    }
}

} // namespace soul
