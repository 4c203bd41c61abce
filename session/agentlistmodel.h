#pragma once

#include <QAbstractListModel>
#include <QString>

#include <vector>

namespace soul {

class PersonaSession;

// The rows a roster's sidebar shows, one per session of the Workspace, in
// its order: the agent, its identity's name, tokens, what OpenClaw injects
// against the agent's budget, lints, and a mark while it has unsaved text.
// The Workspace fills it; a view only reads it.
class AgentListModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role {
        TitleRole = Qt::UserRole + 1, // QString: "work — Ava (default) ●"
        DetailRole,                   // QString: "1,234 tokens · OpenClaw 900/60,000"
        AvailableRole,                // bool: false while the workspace folder is missing
        UnsavedRole,                  // bool: some pane holds unsaved text
        LinksRole,                    // QString: "USER.md differs from its group"; empty when none
    };

    struct Row
    {
        QString title;
        QString detail;
        QString toolTip; // the folder, where each budget came from
        bool available = true;
        bool unsaved = false;
        QString links; // the linked files that went their own way, or wait

        bool operator==(const Row &other) const
        {
            return title == other.title && detail == other.detail && toolTip == other.toolTip
                   && available == other.available && unsaved == other.unsaved
                   && links == other.links;
        }
    };

    explicit AgentListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    const Row &row(int index) const { return m_rows.at(size_t(index)); }

    // Where the list came from ("OpenClaw's agents, from ~/.openclaw/openclaw.json").
    QString source() const { return m_source; }
    void setSource(const QString &text);

    void insertRow(int index, const Row &row);
    void removeRowAt(int index);
    // Emits dataChanged only when the row reads differently.
    void setRow(int index, const Row &row);
    void setRows(std::vector<Row> rows);

    // What `session` shows as a row: `waiting` while its folder is still to
    // be read (Workspace::isWaiting()). Reads the session's summary (a lint
    // and a compose of its persona) unless it waits or has no folder.
    static Row describe(const PersonaSession &session, bool waiting);

Q_SIGNALS:
    void sourceChanged(const QString &text);

private:
    std::vector<Row> m_rows;
    QString m_source;
};

} // namespace soul
