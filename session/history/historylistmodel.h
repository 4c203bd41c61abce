#pragma once

#include "history/personahistory.h"

#include <QAbstractTableModel>
#include <QList>

#include <optional>
#include <vector>

namespace soul {

// The commits that touched the persona's slot files, newest first (row 0),
// with their figures once counted: time, author, message, the soul's tokens
// and each changed slot's token change ("SOUL.md +42 · MEMORY.md −3").
class HistoryListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        TimeColumn,
        AuthorColumn,
        MessageColumn,
        TokensColumn,
        ChangesColumn,
        ColumnCount
    };

    explicit HistoryListModel(QObject *parent = nullptr);

    void clear();
    void appendCommits(const QList<HistoryCommit> &commits);
    // Figures for several rows; one dataChanged() for the span they cover.
    void setFigures(const QList<std::pair<int, SoulFigures>> &figures);

    const HistoryCommit &commit(int row) const { return m_rows.at(size_t(row)).commit; }
    const std::optional<SoulFigures> &figures(int row) const
    {
        return m_rows.at(size_t(row)).figures;
    }
    int count() const { return int(m_rows.size()); }
    // The row of the commit `id` (hex), or -1.
    int rowOf(const QByteArray &id) const;
    // How many rows have their figures.
    int measured() const { return m_measured; }

    // "SOUL.md +42 · MEMORY.md −3 tokens", or the changed files' names until counted.
    static QString changesText(const HistoryCommit &commit,
                               const std::optional<SoulFigures> &figures);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section,
                        Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        HistoryCommit commit;
        std::optional<SoulFigures> figures;
    };
    std::vector<Row> m_rows;
    int m_measured = 0;
};

} // namespace soul
