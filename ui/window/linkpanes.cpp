#include "linkpanes.h"

#include "documentcontroller.h"
#include "linksession.h"
#include "persona/personamodel.h"
#include "personaeditor.h"
#include "personasession.h"
#include "slots/linkbar.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "windowactions.h"
#include "workspace.h"

#include <QAction>

#include <algorithm>

namespace soul {

LinkPanes::LinkPanes(Workspace *workspace, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
{
    connect(links(), &LinkSession::changed, this, [this] {
        refresh();
        showCandidates();
    });
    connect(m_workspace, &Workspace::rosterChanged, this, [this] { m_offered = false; });
    connect(links(), &LinkSession::compareRequested, this, [this](int index, int doc) {
        if (PersonaSession *s = m_workspace->session(index))
            s->documents()->compare(doc);
    });
}

LinkSession *LinkPanes::links() const
{
    return m_workspace->links();
}

void LinkPanes::add(PersonaSession *session, PersonaEditor *editor)
{
    m_entries.push_back({session, editor});
    connect(editor, &PersonaEditor::linkRequested, this, &LinkPanes::act);
    refresh();
}

void LinkPanes::remove(PersonaSession *session)
{
    m_entries.erase(std::remove_if(m_entries.begin(),
                                   m_entries.end(),
                                   [session](const Entry &e) { return e.session == session; }),
                    m_entries.end());
}

void LinkPanes::refresh()
{
    LinkSession::MembersMemo memo;
    for (const Entry &e : m_entries) {
        const int index = m_workspace->indexOf(e.session);
        const PaneStack *panes = e.editor->panes();
        for (int doc = 0; doc < e.session->model()->documentCount(); ++doc) {
            SlotPane *pane = panes->pane(doc);
            if (!pane)
                continue;
            LinkSession::NoteKind kind = LinkSession::NoteKind::None;
            QString tip;
            const QString text = links()->note(index, doc, &kind, &tip, &memo);
            pane->linkBar()->showNote(LinkBar::Kind(int(kind)), text, tip);
            if (kind != LinkSession::NoteKind::None)
                pane->setSameNote({}); // the bar names the other copies
        }
    }
}

void LinkPanes::showCandidates()
{
    if (m_offered || !links()->isReady() || links()->candidates().isEmpty())
        return;
    m_offered = true;
    const LinkCandidate &first = links()->candidates().constFirst();
    const qsizetype more = links()->candidates().size() - 1;
    QString text;
    if (more == 0)
        text = tr("%1 is the same in %2").arg(first.file, first.agents.join(QStringLiteral(", ")));
    else if (more == 1)
        text = tr("%1 and one other file are the same in several agents").arg(first.file);
    else
        text = tr("%1 and %2 other files are the same in several agents").arg(first.file).arg(more);
    Q_EMIT message(text + tr(": Link Identical Files (Ctrl+Alt+I) makes each one file, edited once."),
                   15000);
}

void LinkPanes::act(int doc, PersonaEditor::LinkAction action)
{
    const int index = m_workspace->currentIndex();
    if (!links()->groupOf(index, doc)) {
        Q_EMIT message(tr("This file is in no link group."), 5000);
        return;
    }
    switch (action) {
    case PersonaEditor::LinkAction::ThreeWay:
        links()->resolve(index, doc);
        break;
    case PersonaEditor::LinkAction::Adopt:
        links()->adopt(index, doc);
        break;
    case PersonaEditor::LinkAction::Leave:
        links()->leave(index, doc);
        break;
    case PersonaEditor::LinkAction::Finish:
        links()->finish(index, doc);
        break;
    }
}

void LinkPanes::attach(const WindowActions *actions, std::function<int()> currentDoc)
{
    const auto onLinkedFile = [this, currentDoc](PersonaEditor::LinkAction action) {
        return [this, currentDoc, action] {
            if (const int doc = currentDoc(); doc < 0)
                Q_EMIT message(tr("Click into the pane of the linked file first."), 5000);
            else
                act(doc, action);
        };
    };
    using Action = PersonaEditor::LinkAction;
    connect(actions->linkThreeWay, &QAction::triggered, this, onLinkedFile(Action::ThreeWay));
    connect(actions->linkAdopt, &QAction::triggered, this, onLinkedFile(Action::Adopt));
    connect(actions->linkLeave, &QAction::triggered, this, onLinkedFile(Action::Leave));
    connect(actions->linkFinish, &QAction::triggered, this, onLinkedFile(Action::Finish));
    connect(actions->linkIdentical, &QAction::triggered, this, &LinkPanes::linkIdentical);
}

void LinkPanes::linkIdentical()
{
    if (!links()->place()) {
        Q_EMIT message(tr("Link groups need several agents: open OpenClaw's agents or a folder "
                          "of personas."),
                       8000);
        return;
    }
    if (!links()->problem().isEmpty()) {
        Q_EMIT message(links()->problem(), 15000);
        return;
    }
    const QList<LinkCandidate> candidates = links()->candidates();
    if (candidates.isEmpty()) {
        Q_EMIT message(tr("No file is the same in several agents outside a group."), 8000);
        return;
    }
    for (const LinkCandidate &candidate : candidates) {
        if (!links()->link(candidate))
            break;
    }
}

} // namespace soul
