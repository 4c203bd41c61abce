#pragma once

#include "links/linkgroups.h"

#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <optional>

namespace soul {

class PersonaSession;
class Prompter;
class Workspace;

// The link groups of the roster a workspace holds (links/linkgroups.h): one
// file shared by several agents, each keeping a real copy. The session
// reads the group file and the groups' texts on a worker, hands every edit
// of a member's pane on to the other members' buffers (so each agent's
// preview, tokens and budgets follow at once), saves a group as one act
// (every copy checked against the bytes it was read as, then written through
// the atomic writer), and says which copies went their own way.
class LinkSession : public QObject
{
    Q_OBJECT

public:
    // `workspace` and `prompter` must outlive the session (or the prompter
    // be replaced first).
    LinkSession(Workspace *workspace, Prompter *prompter, QObject *parent = nullptr);

    void setPrompter(Prompter *prompter) { m_prompter = prompter; }

    // The place whose groups apply (a roster was opened), or none.
    void setPlace(std::optional<LinkPlace> place);
    const std::optional<LinkPlace> &place() const { return m_place; }
    // Reads the group file and the groups' texts again, on a worker.
    void reload();
    // The group file was read (or there is none).
    bool isReady() const { return m_ready; }
    // Why the group file cannot be used, naming it and the line; empty when it can.
    QString problem() const { return m_problem; }
    const LinkGroups &groups() const { return m_groups; }
    // Identical files in several agents and in no group, found when the
    // groups were read.
    const QList<LinkCandidate> &candidates() const { return m_candidates; }

    // The text `group` last wrote to its members, as kept by digest; nullopt
    // while it is not read (or not kept).
    std::optional<QByteArray> keptText(const LinkGroup &group) const;

    // Follows the edits of `session`'s panes (a session of the workspace).
    void follow(PersonaSession *session);
    // An edit reaches the other members' buffers this long after the last
    // keystroke (their panes are not shown), or at once on flush().
    static constexpr int HandOnDelayMs = 300;
    // Hands every edit still waiting on to the other members now: before a
    // save, a switch to another agent, a close, and each action here.
    void flush();

    // The group session `index`'s document `doc` is a member of; null when none.
    const LinkGroup *groupOf(int index, int doc) const;
    // The document of `file` in session `index`'s model; -1 when it has none
    // (added to the model first when `add`).
    int documentOf(int index, const QString &file, bool add) const;

    enum class CopyNow {
        Same,     // the copy on disk holds the group's text
        Differs,  // it holds other bytes: it went its own way
        Behind,   // it holds the text a save that stopped part way replaced
        Missing,  // there is no file
        NoFolder, // the agent has no workspace folder open
    };
    struct Member
    {
        QString agent;
        int session = -1; // -1: not in the window
        CopyNow state = CopyNow::Missing;
        bool unsaved = false; // its pane holds text not yet written
        QString cut;          // how the agent's runtime cuts its copy; empty: whole
    };
    QList<Member> members(const LinkGroup &group) const;
    // The state of session `index`'s copy of `group`.
    CopyNow stateOf(const LinkGroup &group, int index) const;
    // The pane's note for session `index`'s document `doc`; `kind` says what
    // the note is (None when the document is in no group). Notes asked for in
    // one pass over every pane may share `memo`: each group's members are
    // then found once, not once per member.
    enum class NoteKind { None, Shared, Diverged, Behind };
    using MembersMemo = QHash<QString, QList<Member>>;
    QString note(
        int index, int doc, NoteKind *kind, QString *toolTip, MembersMemo *memo = nullptr) const;
    // What the agents list says of session `index`: its copies that went
    // their own way, or wait for a save to finish; empty when none.
    QString rosterNote(int index) const;

    // True when saving session `index`'s document `doc` is a group's save.
    // A copy that went its own way saves alone, unless its pane holds the
    // group's text (it was adopted).
    bool savesGroup(int index, int doc) const;
    // Saves the group of session `index`'s document `doc`: every copy that
    // changed on disk since it was read is asked about first (overwrite, take
    // theirs into the group, compare; nothing is written until every one is
    // answered), then the group's text is recorded and every copy written.
    // A copy that fails leaves the others written; the note then says which
    // hold the new text and finish() writes the rest. False when cancelled
    // or a copy failed.
    bool save(int index, int doc);
    // Writes the group's text to the copies a stopped save left behind.
    bool finish(int index, int doc);
    // The three texts of a copy that went its own way, asked about: Adopt
    // puts this copy's text in every member's pane (unsaved), Leave takes the
    // agent out of the group.
    void resolve(int index, int doc);
    bool adopt(int index, int doc);
    bool leave(int index, int doc);
    // Makes a group of `candidate`'s file, its name asked for. False when
    // cancelled or refused (said).
    bool link(const LinkCandidate &candidate);

Q_SIGNALS:
    // Groups, texts or a copy's state changed: notes are shown again.
    void changed();
    void message(const QString &text, int ms);
    // The compare view of session `index`'s document `doc` against its disk.
    void compareRequested(int index, int doc);

private:
    struct Loaded;
    void loaded(quint64 generation, const Loaded &result);
    void handOn(PersonaSession *from, int doc);
    int sessionOf(const QString &agent) const;
    LinkGroup *groupNamed(const QString &name);
    // Puts `bytes` in every member's buffer of `group` but `except`'s and
    // those of copies that went their own way (unless in `overwritten`).
    QStringList spread(const LinkGroup &group,
                       const QByteArray &bytes,
                       int except,
                       const QSet<int> &overwritten = {});
    QByteArray liveText(const LinkGroup &group, int preferred) const;
    QString agentName(int index) const;
    void scheduleChanged();

    Workspace *m_workspace = nullptr;
    Prompter *m_prompter = nullptr;
    std::optional<LinkPlace> m_place;
    LinkGroups m_groups;
    QHash<QByteArray, QByteArray> m_texts; // the groups' texts by digest
    QList<LinkCandidate> m_candidates;
    QString m_problem;
    bool m_ready = false;
    bool m_handingOn = false;
    struct Pending
    {
        QPointer<PersonaSession> from;
        int doc = -1;
    };
    QHash<QString, Pending> m_pending; // by group name
    QTimer m_handOn;
    quint64 m_generation = 0;
    QFileSystemWatcher m_watcher;
    QTimer m_changed;
};

} // namespace soul
