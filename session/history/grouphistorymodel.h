#pragma once

#include "links/grouphistory.h"

#include <QAbstractTableModel>
#include <QByteArray>
#include <QList>

#include <vector>

namespace soul {

// A link group's file across its members' repositories (readGroupFileLog()),
// newest first: the agent, the date, the short id, the summary, and whether
// the file at that commit is the group's text now.
class GroupHistoryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { AgentColumn, TimeColumn, CommitColumn, MessageColumn, TextColumn, ColumnCount };
    // The commit's full id (hex), in any column.
    static constexpr int CommitIdRole = Qt::UserRole + 1;

    explicit GroupHistoryModel(QObject *parent = nullptr);

    // The rows of `commits`; `groupBlob` is git's id of the group's text now
    // (empty: not known, every row then says so).
    void setCommits(const QList<GroupFileCommit> &commits, const QByteArray &groupBlob);
    void clear();

    int count() const { return int(m_rows.size()); }
    const GroupFileCommit &commit(int row) const { return m_rows.at(size_t(row)); }
    // Whether the file at commit `row` holds the group's text now.
    bool sameAsGroup(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section,
                        Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<GroupFileCommit> m_rows;
    QByteArray m_groupBlob;
};

} // namespace soul
