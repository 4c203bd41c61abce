#include "sameslotnotes.h"

#include "agentnames.h"
#include "persona/personamodel.h"
#include "personaeditor.h"
#include "personasession.h"
#include "slots/linkbar.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"

#include <QStringList>

#include <algorithm>

namespace soul {

SameSlotNotes::SameSlotNotes(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(DelayMs);
    connect(&m_timer, &QTimer::timeout, this, &SameSlotNotes::refresh);
}

void SameSlotNotes::add(PersonaSession *session, PersonaEditor *editor)
{
    m_entries.push_back({session, editor});
    PersonaModel *model = session->model();
    connect(model, &PersonaModel::opened, this, &SameSlotNotes::schedule);
    connect(model, &PersonaModel::closed, this, &SameSlotNotes::schedule);
    // Every change of a buffer is also a change of its slot's state.
    connect(model, &PersonaModel::slotStateChanged, this, &SameSlotNotes::schedule);
    // The agent's id is what the notes call it.
    connect(session, &PersonaSession::summaryChanged, this, &SameSlotNotes::schedule);
    schedule();
}

void SameSlotNotes::remove(PersonaSession *session)
{
    const auto gone = std::find_if(m_entries.begin(), m_entries.end(), [session](const Entry &e) {
        return e.session == session;
    });
    if (gone == m_entries.end())
        return;
    disconnect(session->model(), nullptr, this, nullptr);
    disconnect(session, nullptr, this, nullptr);
    m_entries.erase(gone);
    schedule();
}

void SameSlotNotes::schedule()
{
    m_timer.start();
}

void SameSlotNotes::refresh()
{
    m_timer.stop();
    const auto nameOf = [](const PersonaSession *s) {
        return s->agent().id.isEmpty() ? s->displayName() : s->agent().id;
    };
    for (int k = 0; k < SlotCount; ++k) {
        // Agents whose buffers of slot k are equal, in the window's order.
        // Buffers of different sizes differ, so bytes are compared only
        // where the sizes match, and against one buffer of each group: no
        // copy and no hash of every buffer at every change.
        std::vector<std::vector<size_t>> groups;
        std::vector<int> groupOf(m_entries.size(), -1);
        for (size_t i = 0; i < m_entries.size() && m_entries.size() > 1; ++i) {
            const PersonaModel *model = m_entries[i].session->model();
            if (!model->isOpen())
                continue;
            const SlotState &s = model->slot(k);
            // An empty file is the same everywhere and says nothing.
            if (!s.bufferPresent || s.bufferBytes.isEmpty())
                continue;
            const auto same = std::find_if(groups.begin(), groups.end(), [&](const auto &group) {
                return m_entries[group.front()].session->model()->slot(k).bufferBytes
                       == s.bufferBytes;
            });
            if (same == groups.end()) {
                groups.push_back({i});
                groupOf[i] = int(groups.size() - 1);
            } else {
                same->push_back(i);
                groupOf[i] = int(same - groups.begin());
            }
        }
        for (size_t i = 0; i < m_entries.size(); ++i) {
            QStringList others;
            if (groupOf[i] >= 0) {
                for (size_t j : groups[size_t(groupOf[i])]) {
                    if (j != i)
                        others.append(nameOf(m_entries[j].session));
                }
            }
            const QString text = others.isEmpty()
                                     ? QString()
                                     : tr("Same as in %1").arg(someAgents(others, NamesShown));
            const QString toolTip = others.isEmpty()
                                        ? QString()
                                        : tr("%1 is byte for byte the same in %2.")
                                              .arg(slotName(k), others.join(QStringLiteral(", ")));
            SlotPane *pane = m_entries[i].editor->panes()->pane(k);
            // A linked file's bar says more: with whom it is shared, and how.
            if (pane->linkBar()->kind() != LinkBar::Kind::None)
                pane->setSameNote({});
            else
                pane->setSameNote(text, toolTip);
        }
    }
}

} // namespace soul
