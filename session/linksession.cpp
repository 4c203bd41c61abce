#include "linksession.h"

#include "agentnames.h"
#include "compose/contract.h"
#include "documentcontroller.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "prompter.h"
#include "runtimepreview.h"
#include "workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QPointer>
#include <QRegularExpression>
#include <QtConcurrent>

#include <algorithm>
#include <utility>

namespace soul {

struct LinkSession::Loaded
{
    LinkGroups groups;
    QHash<QByteArray, QByteArray> texts;
    QList<LinkCandidate> candidates;
    QString problem;
};

LinkSession::LinkSession(Workspace *workspace, Prompter *prompter, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_prompter(prompter)
{
    m_handOn.setSingleShot(true);
    m_handOn.setInterval(HandOnDelayMs);
    connect(&m_handOn, &QTimer::timeout, this, &LinkSession::flush);
    m_changed.setSingleShot(true);
    m_changed.setInterval(100);
    connect(&m_changed, &QTimer::timeout, this, &LinkSession::changed);
    // soulc links, another window or an editor changed the groups.
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &LinkSession::reload);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &) {
        if (m_place && QFileInfo::exists(m_place->groupFile) != m_groups.exists)
            reload();
    });
}

void LinkSession::setPlace(std::optional<LinkPlace> place)
{
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_place = std::move(place);
    m_pending.clear();
    m_handOn.stop();
    m_groups = {};
    m_texts.clear();
    m_candidates.clear();
    m_problem.clear();
    m_ready = false;
    ++m_generation;
    if (m_place) {
        m_watcher.addPath(QFileInfo(m_place->groupFile).absolutePath());
        reload();
    }
    Q_EMIT changed();
}

void LinkSession::reload()
{
    if (!m_place)
        return;
    const quint64 generation = ++m_generation;
    const LinkPlace place = *m_place;
    QPointer<LinkSession> self(this);
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [=] {
        watcher->deleteLater();
        if (self)
            loaded(generation, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([place] {
        Loaded out;
        Result<LinkGroups> groups = readLinkGroups(place);
        if (!groups) {
            out.problem = groups.error();
            return out;
        }
        out.groups = *groups;
        for (const LinkGroup &g : std::as_const(out.groups.groups)) {
            for (const QByteArray &sha : {g.sha256, g.pendingFrom}) {
                if (sha.isEmpty() || out.texts.contains(sha))
                    continue;
                if (std::optional<QByteArray> text = groupText(place, sha))
                    out.texts.insert(sha, *text);
            }
        }
        out.candidates = linkCandidates(place, out.groups);
        return out;
    }));
}

void LinkSession::loaded(quint64 generation, const Loaded &result)
{
    if (generation != m_generation)
        return;
    m_ready = true;
    m_problem = result.problem;
    m_groups = result.problem.isEmpty() ? result.groups : LinkGroups();
    m_texts = result.texts;
    m_candidates = result.candidates;
    if (m_place && QFileInfo::exists(m_place->groupFile)
        && !m_watcher.files().contains(m_place->groupFile))
        m_watcher.addPath(m_place->groupFile);
    if (!m_problem.isEmpty())
        Q_EMIT message(m_problem, 15000);
    // A group's file that is no slot gets a document in each member, so its
    // copy is read and watched like the slots.
    for (const LinkGroup &g : std::as_const(m_groups.groups)) {
        if (slotIndex(g.file) >= 0)
            continue;
        for (const QString &agent : g.members) {
            const int index = sessionOf(agent);
            if (const PersonaSession *s = m_workspace->at(index); s && s->model()->isOpen())
                documentOf(index, g.file, true);
        }
    }
    Q_EMIT changed();
}

void LinkSession::follow(PersonaSession *session)
{
    PersonaModel *model = session->model();
    connect(model, &PersonaModel::bufferEdited, this, [this, session](int doc) {
        handOn(session, doc);
    });
    connect(model, &PersonaModel::slotStateChanged, this, &LinkSession::scheduleChanged);
    // How the member's runtime cuts its copy.
    connect(session->runtimePreview(),
            &RuntimePreview::compositionChanged,
            this,
            &LinkSession::scheduleChanged);
    connect(model, &PersonaModel::opened, this, [this, session] {
        const int index = m_workspace->indexOf(session);
        for (const LinkGroup &g : std::as_const(m_groups.groups)) {
            if (slotIndex(g.file) < 0 && g.members.contains(agentName(index)))
                documentOf(index, g.file, true);
        }
        scheduleChanged();
    });
}

void LinkSession::scheduleChanged()
{
    if (m_place)
        m_changed.start();
}

int LinkSession::sessionOf(const QString &agent) const
{
    for (int i = 0; i < m_workspace->count(); ++i) {
        if (m_workspace->at(i)->agent().id == agent)
            return i;
    }
    return -1;
}

QString LinkSession::agentName(int index) const
{
    const PersonaSession *s = m_workspace->at(index);
    return s ? s->agent().id : QString();
}

LinkGroup *LinkSession::groupNamed(const QString &name)
{
    for (LinkGroup &g : m_groups.groups) {
        if (g.name == name)
            return &g;
    }
    return nullptr;
}

int LinkSession::documentOf(int index, const QString &file, bool add) const
{
    if (const int slot = slotIndex(file); slot >= 0)
        return slot;
    PersonaSession *s = m_workspace->at(index);
    if (!s || !s->model()->isOpen())
        return -1;
    const int known = s->model()->documentIndex(file);
    return known >= 0 || !add ? known : s->model()->addDocument(file);
}

const LinkGroup *LinkSession::groupOf(int index, int doc) const
{
    const PersonaSession *s = m_workspace->at(index);
    if (!s || !m_place || doc < 0 || s->agent().id.isEmpty())
        return nullptr;
    const QString file
        = doc < SlotCount
              ? slotName(doc)
              : QDir::cleanPath(
                  QDir(s->model()->directory()).relativeFilePath(s->model()->slotFilePath(doc)));
    for (const LinkGroup &g : m_groups.groups) {
        if (g.file == file && g.members.contains(s->agent().id))
            return &g;
    }
    return nullptr;
}

LinkSession::CopyNow LinkSession::stateOf(const LinkGroup &group, int index) const
{
    const PersonaSession *s = m_workspace->at(index);
    if (!s || !s->model()->isOpen())
        return CopyNow::NoFolder;
    const int doc = documentOf(index, group.file, false);
    if (doc < 0)
        return CopyNow::Missing;
    const SlotState &state = s->model()->slot(doc);
    if (!state.diskPresent())
        return CopyNow::Missing;
    if (state.diskSha256 == group.sha256)
        return CopyNow::Same;
    if (!group.pendingFrom.isEmpty() && state.diskSha256 == group.pendingFrom)
        return CopyNow::Behind;
    return CopyNow::Differs;
}

bool LinkSession::savesGroup(int index, int doc) const
{
    const LinkGroup *group = groupOf(index, doc);
    if (!group)
        return false;
    const CopyNow mine = stateOf(*group, index);
    if (mine != CopyNow::Differs && mine != CopyNow::Missing)
        return true;
    const PersonaModel *model = m_workspace->at(index)->model();
    for (const QString &agent : group->members) {
        const int other = sessionOf(agent);
        if (other == index)
            continue;
        const CopyNow theirs = stateOf(*group, other);
        const int d = documentOf(other, group->file, false);
        if ((theirs == CopyNow::Same || theirs == CopyNow::Behind) && d >= 0
            && m_workspace->at(other)->model()->slot(d).bufferBytes == model->slot(doc).bufferBytes)
            return true;
    }
    return false;
}

QList<LinkSession::Member> LinkSession::members(const LinkGroup &group) const
{
    QList<Member> out;
    for (const QString &agent : group.members) {
        Member m;
        m.agent = agent;
        m.session = sessionOf(agent);
        m.state = stateOf(group, m.session);
        if (const PersonaSession *s = m_workspace->at(m.session);
            s && m.state != CopyNow::NoFolder) {
            const int doc = documentOf(m.session, group.file, false);
            m.unsaved = doc >= 0 && s->model()->slot(doc).dirty;
            if (doc >= 0 && doc < SlotCount) {
                const RuntimePaneView &view = s->runtimePreview()->paneView(doc);
                if (view.active && view.loaded && !view.whole && !view.note.isEmpty())
                    m.cut = view.note;
            }
        }
        out.append(m);
    }
    return out;
}

QString LinkSession::note(
    int index, int doc, NoteKind *kind, QString *toolTip, MembersMemo *memo) const
{
    *kind = NoteKind::None;
    toolTip->clear();
    const LinkGroup *group = groupOf(index, doc);
    if (!group)
        return {};
    const QString me = agentName(index);
    QList<Member> found;
    if (!memo)
        found = members(*group);
    else if (const auto known = memo->constFind(group->name); known != memo->cend())
        found = *known;
    else
        found = *memo->insert(group->name, members(*group));
    const QList<Member> &all = found;
    QStringList others;
    QStringList diverged;
    QStringList behind;
    QStringList cuts;
    QStringList lines;
    for (const Member &m : all) {
        if (m.agent != me)
            others.append(m.agent);
        QString state;
        switch (m.state) {
        case CopyNow::Same:
            state = m.unsaved ? tr("the group's text, with unsaved edits") : tr("the group's text");
            break;
        case CopyNow::Differs:
            state = tr("its own text (it went its own way)");
            diverged.append(m.agent);
            break;
        case CopyNow::Behind:
            state = tr("the text before the last save, which stopped part way");
            behind.append(m.agent);
            break;
        case CopyNow::Missing:
            state = tr("no file");
            diverged.append(m.agent);
            break;
        case CopyNow::NoFolder:
            state = tr("no workspace folder");
            break;
        }
        lines.append(tr("%1: %2").arg(m.agent, state));
        if (!m.cut.isEmpty()) {
            cuts.append(m.agent);
            lines.append(tr("    %1").arg(m.cut));
        }
    }
    *toolTip = tr("%1 is linked in the group \"%2\" (%3): one text for every member, every "
                  "copy written on save.\n%4")
                   .arg(group->file,
                        group->name,
                        QDir::toNativeSeparators(m_groups.path),
                        lines.join(QLatin1Char('\n')));
    const CopyNow mine = stateOf(*group, index);
    QString text;
    if (mine == CopyNow::Behind) {
        *kind = NoteKind::Behind;
        text = tr("The last save of the group \"%1\" stopped part way: this copy still holds the "
                  "old text. Finish writes the group's text to %2.")
                   .arg(group->name, someAgents(behind));
    } else if (mine == CopyNow::Differs || mine == CopyNow::Missing) {
        *kind = NoteKind::Diverged;
        text = mine == CopyNow::Missing
                   ? tr("Linked in \"%1\" with %2, but this copy is missing. Adopt or leave the "
                        "group, or save to write the group's text here.")
                         .arg(group->name, someAgents(others))
                   : tr("This copy went its own way: it differs from the text the group \"%1\" "
                        "last wrote (shared with %2).")
                         .arg(group->name, someAgents(others));
    } else {
        *kind = NoteKind::Shared;
        text = tr("Shared in \"%1\" with %2: typing here edits every copy; Save writes them all.")
                   .arg(group->name, someAgents(others));
        if (!diverged.isEmpty())
            text += QLatin1Char(' ') + tr("Went its own way in %1.").arg(someAgents(diverged));
        if (!behind.isEmpty())
            text += QLatin1Char(' ') + tr("Still the old text in %1.").arg(someAgents(behind));
    }
    if (!cuts.isEmpty())
        text += QLatin1Char(' ')
                + tr("Cut by the runtime in %1 (its own limits).").arg(someAgents(cuts));
    return text;
}

QString LinkSession::rosterNote(int index) const
{
    QStringList own;
    QStringList behind;
    const QString me = agentName(index);
    for (const LinkGroup &g : m_groups.groups) {
        if (!g.members.contains(me))
            continue;
        const CopyNow state = stateOf(g, index);
        if (state == CopyNow::Differs || state == CopyNow::Missing)
            own.append(g.file);
        else if (state == CopyNow::Behind)
            behind.append(g.file);
    }
    QStringList parts;
    if (!own.isEmpty())
        parts.append(tr("%1 differs from its group").arg(own.join(QStringLiteral(", "))));
    if (!behind.isEmpty())
        parts.append(tr("%1 waits for a save to finish").arg(someAgents(behind)));
    return parts.join(QStringLiteral("; "));
}

void LinkSession::handOn(PersonaSession *from, int doc)
{
    if (m_handingOn)
        return;
    const int index = m_workspace->indexOf(from);
    const LinkGroup *group = groupOf(index, doc);
    if (!group)
        return;
    // A copy that went its own way is edited alone until it is adopted or
    // leaves the group.
    if (const CopyNow now = stateOf(*group, index);
        now == CopyNow::Differs || now == CopyNow::Missing)
        return;
    // The other members' panes are not shown: they take the text after a
    // pause in the typing, once for many keys.
    m_pending.insert(group->name, Pending{from, doc});
    m_handOn.start();
}

void LinkSession::flush()
{
    m_handOn.stop();
    const QHash<QString, Pending> pending = std::exchange(m_pending, {});
    for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
        if (!it->from)
            continue;
        const int index = m_workspace->indexOf(it->from);
        const LinkGroup *group = groupOf(index, it->doc);
        if (!group || group->name != it.key())
            continue;
        if (const CopyNow now = stateOf(*group, index);
            now == CopyNow::Differs || now == CopyNow::Missing)
            continue;
        const QStringList refused = spread(*group,
                                           it->from->model()->slot(it->doc).bufferBytes,
                                           index);
        if (!refused.isEmpty())
            Q_EMIT message(tr("%1 did not follow in %2")
                               .arg(group->file, refused.join(QStringLiteral("; "))),
                           8000);
    }
}

QStringList LinkSession::spread(const LinkGroup &group,
                                const QByteArray &bytes,
                                int except,
                                const QSet<int> &overwritten)
{
    QStringList refused;
    m_handingOn = true;
    for (const QString &agent : group.members) {
        const int index = sessionOf(agent);
        if (index == except)
            continue;
        // A copy that went its own way keeps its text until the author
        // chooses (adopt, leave, or overwrite it on save).
        const CopyNow now = stateOf(group, index);
        if ((now == CopyNow::Differs || now == CopyNow::Missing) && !overwritten.contains(index))
            continue;
        PersonaSession *s = m_workspace->session(index);
        if (!s || !s->model()->isOpen())
            continue; // no workspace: nothing to hold the text
        const int doc = documentOf(index, group.file, true);
        if (doc < 0) {
            refused.append(tr("%1: the file cannot be opened there").arg(agent));
            continue;
        }
        const SlotState &state = s->model()->slot(doc);
        if (state.bufferPresent && state.bufferBytes == bytes)
            continue;
        if (const Status replaced = s->model()->replaceBuffer(doc, bytes); !replaced)
            refused.append(tr("%1: %2").arg(agent, replaced.error()));
    }
    m_handingOn = false;
    scheduleChanged();
    return refused;
}

std::optional<QByteArray> LinkSession::keptText(const LinkGroup &group) const
{
    const auto found = m_texts.constFind(group.sha256);
    if (found == m_texts.cend())
        return std::nullopt;
    return *found;
}

QByteArray LinkSession::liveText(const LinkGroup &group, int preferred) const
{
    const auto bufferOf = [&](int index) -> std::optional<QByteArray> {
        const PersonaSession *s = m_workspace->at(index);
        const int doc = documentOf(index, group.file, false);
        if (!s || !s->model()->isOpen() || doc < 0 || !s->model()->slot(doc).bufferPresent)
            return std::nullopt;
        return s->model()->slot(doc).bufferBytes;
    };
    if (std::optional<QByteArray> mine = bufferOf(preferred))
        return *mine;
    for (const QString &agent : group.members) {
        if (std::optional<QByteArray> theirs = bufferOf(sessionOf(agent)))
            return *theirs;
    }
    return m_texts.value(group.sha256);
}

bool LinkSession::save(int index, int doc)
{
    flush();
    const LinkGroup *found = groupOf(index, doc);
    if (!found || !m_place)
        return false;
    const QString name = found->name;
    const QString file = found->file;
    // Every member's buffer holds the group's text (a member read since the
    // last edit has not had it yet).
    QByteArray text = liveText(*found, index);
    if (const QStringList refused = spread(*found, text, -1); !refused.isEmpty()) {
        m_prompter->showError(tr("Could not save %1").arg(file),
                              tr("Not every copy of the group \"%1\" can take its text, so "
                                 "nothing was written:\n%2")
                                  .arg(name, refused.join(QLatin1Char('\n'))));
        return false;
    }
    // Every copy changed on disk since it was read is asked about before
    // anything is written.
    QHash<int, SaveMode> modes;
    QSet<int> overwritten;
    for (bool again = true; again;) {
        again = false;
        const LinkGroup *group = groupNamed(name);
        if (!group)
            return false;
        // The group file may be read again while a question is open.
        const QStringList members = group->members;
        for (const QString &agent : members) {
            const int i = sessionOf(agent);
            PersonaSession *s = m_workspace->session(i);
            if (!s || !s->model()->isOpen() || modes.value(i) == SaveMode::Overwrite)
                continue;
            const int d = documentOf(i, file, true);
            const StaleReason stale = s->model()->staleness(d);
            const CopyNow now = stateOf(*group, i);
            QString why;
            const SlotState &copy = s->model()->slot(d);
            // A copy that holds the text already (an adopted one) is not asked about.
            const bool holdsText = copy.diskPresent() && copy.diskComplete
                                   && copy.diskBytes == text;
            if (stale != StaleReason::None)
                why = staleSaveText(s->model()->slotFilePath(d), stale);
            else if (now == CopyNow::Differs && !holdsText)
                why = tr("%1's copy went its own way: it is not the text the group last wrote.")
                          .arg(agent);
            else if (now == CopyNow::Missing)
                why = tr("%1 has no copy of %2 (it was deleted, or never written).").arg(agent, file);
            if (why.isEmpty())
                continue;
            const Prompter::LinkedChangeAnswer answer = m_prompter->askLinkedCopyChanged(file,
                                                                                         agent,
                                                                                         why);
            group = groupNamed(name);
            if (!group || group->members != members || group->file != file) {
                m_prompter->showError(tr("Did not save %1").arg(file),
                                      tr("The group \"%1\" changed in %2 while you were asked. "
                                         "Nothing was written; save again.")
                                          .arg(name, QDir::toNativeSeparators(m_groups.path)));
                return false;
            }
            switch (answer) {
            case Prompter::LinkedChangeAnswer::Overwrite:
                modes.insert(i, SaveMode::Overwrite);
                overwritten.insert(i);
                spread(*group, text, -1, overwritten);
                break;
            case Prompter::LinkedChangeAnswer::TakeTheirs: {
                // The copy as it is now (the pane may not have seen the change yet).
                const Result<QList<LinkCopy>> copies = readCopies(*m_place, *group);
                std::optional<QByteArray> taken;
                if (copies) {
                    for (const LinkCopy &c : *copies) {
                        if (c.agent == agent && c.state != CopyState::Missing)
                            taken = c.bytes;
                    }
                }
                if (!taken) {
                    m_prompter->showError(tr("Could not take %1's %2").arg(agent, file),
                                          (copies ? tr("It has no copy to take.") : copies.error())
                                              + QLatin1Char(' ') + tr("Nothing was written."));
                    return false;
                }
                text = *taken;
                // Its copy holds the text already; the others are asked again.
                modes.clear();
                overwritten = {i};
                modes.insert(i, SaveMode::Overwrite);
                spread(*group, text, -1, overwritten);
                again = true;
                break;
            }
            case Prompter::LinkedChangeAnswer::Compare:
                Q_EMIT compareRequested(i, d);
                Q_EMIT message(tr("Nothing was written: compare %1's %2, then save again.")
                                   .arg(agent, file),
                               10000);
                return false;
            case Prompter::LinkedChangeAnswer::Cancel:
                Q_EMIT message(tr("Did not save %1: %2's copy changed on disk. Nothing was "
                                  "written; your text is still unsaved.")
                                   .arg(file, agent),
                               10000);
                return false;
            }
            if (again)
                break;
        }
    }
    bool unsaved = false;
    for (const QString &agent : groupNamed(name)->members) {
        const int i = sessionOf(agent);
        const int d = documentOf(i, file, false);
        if (const PersonaSession *s = m_workspace->at(i); s && d >= 0 && s->model()->isOpen())
            unsaved = unsaved || s->model()->slot(d).dirty;
    }
    if (!unsaved) {
        Q_EMIT message(tr("%1 has no unsaved changes in any copy of the group \"%2\".")
                           .arg(file, name),
                       5000);
        return true;
    }
    // The group records its new text (and the one it replaces) before any
    // copy is written, so a save killed part way is finished by the next.
    const Result<QByteArray> kept = keepGroupText(*m_place, text);
    if (!kept) {
        m_prompter->showError(tr("Could not save %1").arg(file),
                              tr("%1 Nothing was written.").arg(kept.error()));
        return false;
    }
    LinkGroup *group = groupNamed(name);
    if (!group)
        return false;
    m_texts.insert(*kept, text);
    if (group->sha256 != *kept) {
        // The text the copies hold now, unless a stopped save left some
        // with an older one (they are still to be finished).
        bool behind = false;
        for (const QString &agent : group->members)
            behind = behind || stateOf(*group, sessionOf(agent)) == CopyNow::Behind;
        if (group->pendingFrom.isEmpty() || !behind)
            group->pendingFrom = group->sha256;
        group->sha256 = *kept;
        if (const Status written = writeLinkGroups(m_groups); !written) {
            m_prompter->showError(tr("Could not save %1").arg(file),
                                  tr("%1 Nothing was written.").arg(written.error()));
            reload();
            return false;
        }
    }
    QStringList written;
    QStringList failed;
    for (const QString &agent : group->members) {
        const int i = sessionOf(agent);
        PersonaSession *s = m_workspace->session(i);
        if (!s || !s->model()->isOpen()) {
            failed.append(tr("%1: it has no workspace folder open").arg(agent));
            continue;
        }
        const int d = documentOf(i, file, true);
        const SaveResult saved = s->model()->save(d, modes.value(i, SaveMode::CheckDisk));
        if (!saved)
            failed.append(tr("%1: %2").arg(agent, saved.error()));
        else {
            written.append(agent);
            if (d < SlotCount)
                Q_EMIT s->documents()->slotSaved(d);
        }
    }
    if (!failed.isEmpty()) {
        m_prompter->showError(
            tr("Could not save every copy of %1").arg(file),
            tr("The group \"%1\"'s new text is in %2; it is not in:\n%3\n\nEvery copy holds "
               "either the old text or the new one. Fix what stopped it and choose Finish on "
               "the pane's bar (or save again) to write the rest.")
                .arg(name,
                     written.isEmpty() ? tr("no copy") : written.join(QStringLiteral(", ")),
                     failed.join(QLatin1Char('\n'))));
        scheduleChanged();
        return false;
    }
    if (!group->pendingFrom.isEmpty()) {
        group->pendingFrom.clear();
        if (const Status done = writeLinkGroups(m_groups); !done)
            Q_EMIT message(done.error(), 10000);
        pruneGroupTexts(*m_place, m_groups);
    }
    Q_EMIT message(tr("Saved %1 in %2 agents of the group \"%3\"")
                       .arg(file, QLocale().toString(group->members.size()), name),
                   8000);
    scheduleChanged();
    return true;
}

bool LinkSession::finish(int index, int doc)
{
    flush();
    const LinkGroup *group = groupOf(index, doc);
    if (!group)
        return false;
    // The copies that hold the new text are clean; the rest take it.
    const QByteArray text = m_texts.value(group->sha256);
    if (text.isNull() && !group->sha256.isEmpty()) {
        m_prompter->showError(tr("Could not finish %1").arg(group->file),
                              tr("The group's text is not kept in %1; save the pane's text to "
                                 "write every copy.")
                                  .arg(QDir::toNativeSeparators(m_place->textStore())));
        return false;
    }
    spread(*group, text, -1);
    return save(index, doc);
}

bool LinkSession::adopt(int index, int doc)
{
    flush();
    const LinkGroup *group = groupOf(index, doc);
    PersonaSession *s = m_workspace->session(index);
    if (!group || !s)
        return false;
    const SlotState &state = s->model()->slot(doc);
    if (!state.diskPresent() || !state.diskComplete) {
        m_prompter->showError(tr("Could not adopt %1").arg(group->file),
                              tr("%1's copy cannot be read whole, so it cannot become the "
                                 "group's text.")
                                  .arg(agentName(index)));
        return false;
    }
    const QString file = group->file;
    const QString name = group->name;
    const QStringList refused = spread(*group, state.diskBytes, index);
    if (state.dirty)
        s->model()->replaceBuffer(doc, state.diskBytes);
    if (!refused.isEmpty()) {
        m_prompter->showError(tr("Could not adopt %1").arg(file), refused.join(QLatin1Char('\n')));
        return false;
    }
    Q_EMIT message(tr("%1's %2 is the group \"%3\"'s text in every pane, unsaved: Save (Ctrl+S) "
                      "writes it to every copy; Ctrl+Z in a pane takes it back there.")
                       .arg(agentName(index), file, name),
                   12000);
    Q_EMIT changed();
    return true;
}

bool LinkSession::leave(int index, int doc)
{
    flush();
    const LinkGroup *group = groupOf(index, doc);
    if (!group || !m_place)
        return false;
    const QString me = agentName(index);
    const QString name = group->name;
    LinkGroups next = m_groups;
    for (LinkGroup &g : next.groups) {
        if (g.name == name)
            g.members.removeAll(me);
    }
    const LinkGroup *left = next.group(name);
    const bool dissolved = left && left->members.size() < 2;
    if (dissolved) {
        next.groups.erase(std::remove_if(next.groups.begin(),
                                         next.groups.end(),
                                         [&](const LinkGroup &g) { return g.name == name; }),
                          next.groups.end());
    }
    if (const Status written = writeLinkGroups(next); !written) {
        m_prompter->showError(tr("Could not leave the group \"%1\"").arg(name), written.error());
        return false;
    }
    m_groups = next;
    pruneGroupTexts(*m_place, m_groups);
    Q_EMIT message(dissolved ? tr("%1 left the group \"%2\" and keeps its own file; one member "
                                  "was left, so the group is gone.")
                                   .arg(me, name)
                             : tr("%1 left the group \"%2\" and keeps its own file.").arg(me, name),
                   10000);
    Q_EMIT changed();
    return true;
}

void LinkSession::resolve(int index, int doc)
{
    flush();
    const LinkGroup *group = groupOf(index, doc);
    const PersonaSession *s = m_workspace->at(index);
    if (!group || !s)
        return;
    ThreeWayTexts texts;
    texts.file = group->file;
    texts.agent = agentName(index);
    texts.group = group->name;
    for (const QString &agent : group->members) {
        if (agent != texts.agent)
            texts.others.append(agent);
    }
    texts.lastGroup = m_texts.value(group->sha256);
    texts.thisCopy = s->model()->slot(doc).diskBytes;
    // The group now: another member's pane (each holds the group's text).
    QByteArray now;
    for (const QString &agent : texts.others) {
        const int i = sessionOf(agent);
        const int d = documentOf(i, group->file, false);
        if (const PersonaSession *o = m_workspace->at(i);
            o && d >= 0 && o->model()->isOpen() && o->model()->slot(d).bufferPresent) {
            now = o->model()->slot(d).bufferBytes;
            break;
        }
    }
    texts.groupNow = now.isNull() ? texts.lastGroup : now;
    switch (m_prompter->askDivergedCopy(texts)) {
    case Prompter::DivergedAnswer::Adopt:
        adopt(index, doc);
        break;
    case Prompter::DivergedAnswer::Leave:
        leave(index, doc);
        break;
    case Prompter::DivergedAnswer::Close:
        break;
    }
}

bool LinkSession::link(const LinkCandidate &candidate)
{
    flush();
    if (!m_place)
        return false;
    QString suggested = QFileInfo(candidate.file).completeBaseName().toLower();
    if (candidate.file.startsWith(QLatin1String("skills/")))
        suggested = candidate.file.section(QLatin1Char('/'), 1, 1);
    suggested = QStringLiteral("shared-%1").arg(suggested);
    for (int n = 2; m_groups.group(suggested); ++n)
        suggested = QStringLiteral("shared-%1-%2")
                        .arg(QFileInfo(candidate.file).completeBaseName().toLower())
                        .arg(n);
    const QString name = m_prompter->askLinkName(candidate.file, candidate.agents, suggested);
    if (name.isEmpty())
        return false;
    LinkGroups next = m_groups;
    if (const Status added = addGroup(*m_place, next, name, candidate.file, candidate.agents, {});
        !added) {
        m_prompter->showError(tr("Could not link %1").arg(candidate.file), added.error());
        return false;
    }
    m_groups = next; // the next link builds on this one before the file is read again
    Q_EMIT message(tr("%1 of %2 is one group now, \"%3\": typing in one edits them all.")
                       .arg(candidate.file, candidate.agents.join(QStringLiteral(", ")), name),
                   10000);
    reload();
    return true;
}

} // namespace soul
