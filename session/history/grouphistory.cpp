#include "history/grouphistory.h"

#include "history/commitreader.h"
#include "history/grouphistorymodel.h"
#include "history/historyloader.h"
#include "history/historysession.h"
#include "linksession.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "prompter.h"
#include "workspace.h"

#include <QDir>
#include <QtConcurrent>

namespace soul {

GroupHistory::GroupHistory(Workspace *workspace, Prompter *prompter, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_prompter(prompter)
    , m_rows(new GroupHistoryModel(this))
{
    setObjectName(QStringLiteral("groupHistory"));
    connect(&m_logWatcher, &QFutureWatcher<GroupHistoryLoad>::finished, this, &GroupHistory::loaded);
    connect(&m_textWatcher, &QFutureWatcher<Result<QByteArray>>::finished, this, [this] {
        const Result<QByteArray> text = m_textWatcher.result();
        const int row = m_textRow;
        // The list was read again meanwhile: the row may be another commit.
        if (row < 0 || row >= m_rows->count() || m_rows->commit(row).commit.id != m_textCommit)
            return;
        if (text)
            Q_EMIT textRead(row, *text);
        else
            Q_EMIT textFailed(row, text.error());
    });
    // A group saved (a new text), a member added or gone: the list follows.
    connect(m_workspace->links(), &LinkSession::changed, this, [this] {
        follow(m_index, m_doc);
        Q_EMIT groupsChanged();
    });
}

GroupHistory::~GroupHistory()
{
    // The workers hold only values: they are not waited for.
    m_logWatcher.future().cancel();
}

void GroupHistory::follow(int index, int doc)
{
    m_index = index;
    m_doc = doc;
    const LinkSession *links = m_workspace->links();
    const LinkGroup *group = index >= 0 && doc >= 0 ? links->groupOf(index, doc) : nullptr;
    if (!group) {
        if (m_state == State::NoFile && m_group.isEmpty() && !m_statusText.isEmpty())
            return;
        m_logWatcher.future().cancel();
        m_logWatcher.setFuture(QFuture<GroupHistoryLoad>());
        m_group.clear();
        m_file.clear();
        m_key.clear();
        m_memberNotes.clear();
        m_rows->clear();
        m_stale = true;
        setState(State::NoFile,
                 tr("Click into the pane of a linked file (a file a link group shares) to see "
                    "its commits in every member's repository."));
        return;
    }
    const std::optional<QByteArray> text = links->keptText(*group);
    const QString key = group->name + QLatin1Char('\n') + group->file + QLatin1Char('\n')
                        + group->members.join(QLatin1Char(',')) + QLatin1Char('\n')
                        + QString::fromLatin1(group->sha256)
                        + (text ? QStringLiteral("\nkept") : QString());
    if (key == m_key)
        return;
    m_key = key;
    m_group = group->name;
    m_file = group->file;
    m_stale = true;
    load();
}

bool GroupHistory::hasGroups() const
{
    const LinkSession *links = m_workspace->links();
    return links->place() && !links->groups().groups.isEmpty();
}

void GroupHistory::setShown(bool shown)
{
    m_shown = shown;
    load();
}

void GroupHistory::refresh()
{
    m_stale = true;
    load();
}

void GroupHistory::load()
{
    if (!m_shown || !m_stale || m_group.isEmpty())
        return;
    const LinkSession *links = m_workspace->links();
    const LinkGroup *group = links->groups().group(m_group);
    if (!group || !links->place())
        return;
    m_stale = false;
    m_rows->clear();
    m_memberNotes.clear();
    setState(State::Loading,
             tr("Reading the commits of %1 in %2…")
                 .arg(group->file, group->members.join(QStringLiteral(", "))));
    const LinkPlace place = *links->place();
    const LinkGroup copy = *group;
    const std::optional<QByteArray> text = links->keptText(*group);
    m_logWatcher.future().cancel();
    m_logWatcher.setFuture(
        QtConcurrent::run([place, copy, text](QPromise<GroupHistoryLoad> &promise) {
            GroupHistoryLoad out;
            out.log = readGroupFileLog(place, copy, [&promise] { return promise.isCanceled(); });
            if (text)
                out.groupBlob = gitBlobId(*text);
            promise.addResult(out);
        }));
}

void GroupHistory::loaded()
{
    const QFuture<GroupHistoryLoad> future = m_logWatcher.future();
    if (future.isCanceled() || future.resultCount() == 0)
        return;
    const GroupHistoryLoad load = future.result();
    if (load.log.file != m_file)
        return;
    m_rows->setCommits(load.log.commits, load.groupBlob);
    QStringList notes;
    for (const GroupMemberLog &member : load.log.members) {
        if (!member.problem.isEmpty())
            notes.append(member.problem);
        else if (member.cut)
            notes.append(tr("%1 has more commits of %2; the newest %3 are listed.")
                             .arg(member.agent, m_file)
                             .arg(MaxGroupFileCommits));
    }
    m_memberNotes = notes;
    const LinkGroup *group = m_workspace->links()->groups().group(m_group);
    const QString members = group ? group->members.join(QStringLiteral(", ")) : QString();
    if (!load.log.problem.isEmpty()) {
        setState(State::Failed, load.log.problem);
    } else if (load.log.commits.isEmpty()) {
        setState(State::Empty, tr("No commit of %1 changed %2.").arg(members, m_file));
    } else {
        const qsizetype count = load.log.commits.size();
        setState(State::Ready,
                 tr("%1 of the group \"%2\" in %3: %4, newest first.")
                     .arg(m_file,
                          m_group,
                          members,
                          count == 1 ? tr("1 commit") : tr("%1 commits").arg(count)));
    }
}

void GroupHistory::setState(State state, const QString &text)
{
    m_state = state;
    m_statusText = text;
    Q_EMIT stateChanged();
}

void GroupHistory::selectRow(int row)
{
    if (row < 0 || row >= m_rows->count())
        return;
    const GroupFileCommit &at = m_rows->commit(row);
    m_textRow = row;
    m_textCommit = at.commit.id;
    m_textWatcher.setFuture(QtConcurrent::run(readGroupFileAt, at.folder, m_file, at.commit.id));
}

bool GroupHistory::checkpoint(int index, int doc)
{
    LinkSession *links = m_workspace->links();
    const LinkGroup *found = index >= 0 && doc >= 0 ? links->groupOf(index, doc) : nullptr;
    if (!found || !links->place()) {
        Q_EMIT statusMessage(tr("Click into the pane of a linked file first: its group is "
                                "checkpointed."));
        return false;
    }
    const LinkGroup group = *found;
    const LinkPlace place = *links->place();
    if (const QString problem = groupCheckpointProblem(group); !problem.isEmpty()) {
        m_prompter->showError(tr("Checkpoint failed"), problem);
        return false;
    }
    // What the commits leave out: text not yet saved, members without a
    // repository.
    QStringList unsaved;
    QStringList noRepository;
    const QList<LinkSession::Member> members = links->members(group);
    for (const LinkSession::Member &member : members) {
        if (member.unsaved)
            unsaved.append(member.agent);
        const LinkAgent *agent = place.agent(member.agent);
        if (agent && !insideRepository(agent->folder))
            noRepository.append(member.agent);
    }
    QStringList note;
    note.append(tr("Every member of \"%1\" (%2) whose slot files changed gets a commit with "
                   "this message.")
                    .arg(group.name, group.members.join(QStringLiteral(", "))));
    if (!unsaved.isEmpty()) {
        note.append(tr("Unsaved edits of %1 in %2 are not part of it: a checkpoint commits the "
                       "files as they are on disk.")
                        .arg(group.file, unsaved.join(QStringLiteral(", "))));
    }
    if (!noRepository.isEmpty()) {
        note.append(tr("%1 has no git repository and gets no commit.")
                        .arg(noRepository.join(QStringLiteral(", "))));
    }
    const QString message = m_prompter->askCheckpointMessage(groupCheckpointMessage(group),
                                                             note.join(QLatin1Char(' ')));
    if (message.isNull())
        return false;

    PersonaSession *shown = m_workspace->session(index);
    HistorySession *history = shown->history();
    const std::shared_ptr<HistoryCounts> counts
        = history->loader()->counts()->get(history->encoding(), shown->model()->rule());
    QStringList committed;
    QStringList nothing;
    QStringList failed;
    QStringList withoutRepository;
    for (const MemberCheckpoint &member : checkpointGroup(place, group, message, *counts, false)) {
        if (!member.ok()) {
            // The question said so already; the status bar keeps it short.
            if (noRepository.contains(member.agent))
                withoutRepository.append(member.agent);
            else
                failed.append(tr("%1 (%2)").arg(member.agent, member.error));
            continue;
        }
        if (member.made.nothingToCommit) {
            nothing.append(member.agent);
            continue;
        }
        committed.append(tr("%1 (%2)").arg(member.agent, member.made.shortId));
        for (const LinkSession::Member &inWindow : members) {
            if (inWindow.agent == member.agent && inWindow.session >= 0) {
                if (PersonaSession *session = m_workspace->at(inWindow.session))
                    session->history()->checkpointMadeHere(member.made);
            }
        }
    }
    QStringList said;
    if (!committed.isEmpty())
        said.append(tr("committed in %1").arg(committed.join(QStringLiteral(", "))));
    if (!nothing.isEmpty())
        said.append(tr("nothing to commit in %1").arg(nothing.join(QStringLiteral(", "))));
    if (!withoutRepository.isEmpty()) {
        said.append(tr("no repository in %1").arg(withoutRepository.join(QStringLiteral(", "))));
    }
    if (!failed.isEmpty())
        said.append(tr("no commit in %1").arg(failed.join(QStringLiteral("; "))));
    Q_EMIT statusMessage(
        tr("Checkpoint of the group \"%1\": %2.").arg(group.name, said.join(QStringLiteral("; "))));
    refresh();
    return !committed.isEmpty();
}

} // namespace soul
