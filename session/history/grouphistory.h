#pragma once

#include "links/grouphistory.h"
#include "result.h"

#include <QByteArray>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>

namespace soul {

class GroupHistoryModel;
class Prompter;
class Workspace;

// What a read of a group's history hands back: the members' commits of the
// file, and git's id of the group's text they are compared with.
struct GroupHistoryLoad
{
    GroupFileLog log;
    QByteArray groupBlob; // empty when the group's text is not kept
};

// A link group's git history in the window, without a window: the commits
// of every member's repository that changed the linked file of the pane
// last focused, in one list (GroupHistoryModel), read on a worker while it
// is shown; the file's text at a selected commit, read on a worker too; and
// a checkpoint of the whole group (every member's repository that changed,
// one message). Owned by the Workspace; the History dock shows it.
class GroupHistory : public QObject
{
    Q_OBJECT

public:
    enum class State {
        NoFile,  // the pane last focused holds no linked file
        Loading, // the members' logs are being read
        Ready,   // commits listed
        Empty,   // no member has a commit of the file
        Failed,  // the file's history cannot be read (see statusText())
    };

    // `workspace` and `prompter` must outlive it (or the prompter be replaced).
    GroupHistory(Workspace *workspace, Prompter *prompter, QObject *parent = nullptr);
    ~GroupHistory() override;

    void setPrompter(Prompter *prompter) { m_prompter = prompter; }
    GroupHistoryModel *rows() const { return m_rows; }

    // Follows the linked file of session `index`'s document `doc` (the pane
    // last focused; -1: none). A group not followed before is read again
    // when shown.
    void follow(int index, int doc);
    // Whether the list is shown: the logs are read only then.
    void setShown(bool shown);
    bool isShown() const { return m_shown; }
    // Reads the logs again (when shown).
    void refresh();

    State state() const { return m_state; }
    // What the list is: "USER.md of the group "house": ava, coach, writer",
    // or why there is none.
    QString statusText() const { return m_statusText; }
    // A sentence for each member whose commits are not listed (no
    // repository, one that cannot be read) or not all listed.
    QStringList memberNotes() const { return m_memberNotes; }
    QString groupName() const { return m_group; }
    // Whether the workspace holds a place with link groups at all.
    bool hasGroups() const;
    QString file() const { return m_file; }

    // Reads the file as commit `row` has it, on a worker: textRead() or
    // textFailed().
    void selectRow(int row);

    // Commits every member of the group of session `index`'s document `doc`
    // whose slot files changed, with one message asked for once; says in
    // statusMessage() which members got a commit and which had nothing to
    // commit. False when there is no group there, when cancelled, or when
    // no commit was made.
    bool checkpoint(int index, int doc);

Q_SIGNALS:
    void stateChanged();
    // The place or its groups changed (hasGroups() may say otherwise now).
    void groupsChanged();
    void textRead(int row, const QByteArray &text);
    void textFailed(int row, const QString &error);
    void statusMessage(const QString &text);

private:
    void load();
    void loaded();
    void setState(State state, const QString &text);

    Workspace *m_workspace = nullptr;
    Prompter *m_prompter = nullptr;
    GroupHistoryModel *m_rows = nullptr;
    QFutureWatcher<GroupHistoryLoad> m_logWatcher;
    QFutureWatcher<Result<QByteArray>> m_textWatcher;
    State m_state = State::NoFile;
    QString m_statusText;
    QStringList m_memberNotes;
    int m_index = -1; // the session and document followed
    int m_doc = -1;
    QString m_group; // the group followed; empty: none
    QString m_file;  // its file
    QString m_key;   // what the list was read for: group, file, members, digest
    bool m_shown = false;
    bool m_stale = true; // the list does not show the group followed
    int m_textRow = -1;  // the row whose text is being read
    QByteArray m_textCommit;
};

} // namespace soul
