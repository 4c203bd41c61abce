#include "history/historylistmodel.h"

#include "counttext.h"
#include "history/commitreader.h"

#include <QLocale>

namespace soul {

HistoryListModel::HistoryListModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

void HistoryListModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_measured = 0;
    endResetModel();
}

void HistoryListModel::appendCommits(const QList<HistoryCommit> &commits)
{
    if (commits.isEmpty())
        return;
    const int first = count();
    beginInsertRows({}, first, first + int(commits.size()) - 1);
    m_rows.reserve(m_rows.size() + size_t(commits.size()));
    for (const HistoryCommit &commit : commits)
        m_rows.push_back(Row{commit, std::nullopt});
    endInsertRows();
}

void HistoryListModel::setFigures(const QList<std::pair<int, SoulFigures>> &figures)
{
    int low = count();
    int high = -1;
    for (const auto &[row, value] : figures) {
        if (row < 0 || row >= count())
            continue;
        std::optional<SoulFigures> &slot = m_rows[size_t(row)].figures;
        if (!slot)
            ++m_measured;
        slot = value;
        low = std::min(low, row);
        high = std::max(high, row);
    }
    if (high >= low)
        Q_EMIT dataChanged(index(low, 0), index(high, ColumnCount - 1));
}

int HistoryListModel::rowOf(const QByteArray &id) const
{
    for (int row = 0; row < count(); ++row) {
        if (m_rows[size_t(row)].commit.id == id)
            return row;
    }
    return -1;
}

QString HistoryListModel::changesText(const HistoryCommit &commit,
                                      const std::optional<SoulFigures> &figures)
{
    QStringList parts;
    for (const ChangedSlot &changed : changedSlots(commit, figures ? &*figures : nullptr)) {
        if (!figures) {
            parts.append(slotName(changed.slot));
            continue;
        }
        const qint64 delta = changed.tokenChange;
        QString sign = delta > 0   ? QStringLiteral("+")
                       : delta < 0 ? QStringLiteral("\u2212")
                                   : QStringLiteral("\u00b1");
        QString text = slotName(changed.slot) + QLatin1Char(' ') + sign
                       + formatCount(delta < 0 ? -delta : delta);
        if (changed.change == SlotChange::Added || changed.change == SlotChange::Removed)
            text += QLatin1String(" (") + slotChangeName(changed.change) + QLatin1Char(')');
        parts.append(text);
    }
    QString joined = parts.join(QStringLiteral(" \u00b7 "));
    if (figures && !parts.isEmpty())
        joined += QObject::tr(" tokens");
    return joined;
}

int HistoryListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count();
}

int HistoryListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= count())
        return {};
    const Row &row = m_rows[size_t(index.row())];
    const HistoryCommit &commit = row.commit;
    if (role == Qt::ToolTipRole) {
        return tr("%1 by %2 <%3>\n%4")
            .arg(commit.shortId, commit.authorName, commit.authorEmail, commit.message.trimmed());
    }
    if (role == Qt::TextAlignmentRole && index.column() == TokensColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return commit.authorTime.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    case AuthorColumn:
        return commit.authorName;
    case MessageColumn:
        return commit.summary;
    case TokensColumn:
        return row.figures ? formatCount(row.figures->soulTokens) : QStringLiteral("…");
    case ChangesColumn:
        return changesText(commit, row.figures);
    default:
        return {};
    }
}

QVariant HistoryListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case AuthorColumn:
        return tr("Author");
    case MessageColumn:
        return tr("Message");
    case TokensColumn:
        return tr("Tokens");
    case ChangesColumn:
        return tr("Changes");
    default:
        return {};
    }
}

} // namespace soul
