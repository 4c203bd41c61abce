#pragma once

#include <QObject>
#include <QTimer>

#include <vector>

namespace soul {

class PersonaEditor;
class PersonaSession;

// Says in each pane when other agents of the window hold the same bytes in
// that slot ("Same as in work, coach"), so a USER.md shared by three agents,
// or left stale in two of them, shows without comparing them by hand. The
// buffers are read (unsaved edits included), a little after the last change
// of any agent, and only while the window holds more than one.
class SameSlotNotes : public QObject
{
    Q_OBJECT

public:
    // Recomputed this long after the last change, so typing does not.
    static constexpr int DelayMs = 300;
    // At most this many agents are named; the tooltip names them all.
    static constexpr int NamesShown = 4;

    explicit SameSlotNotes(QObject *parent = nullptr);

    // Follows `session`, shown in `editor`, until remove(); both must
    // outlive that.
    void add(PersonaSession *session, PersonaEditor *editor);
    void remove(PersonaSession *session);
    // Recomputes every note now.
    void refresh();

private:
    struct Entry
    {
        PersonaSession *session = nullptr;
        PersonaEditor *editor = nullptr;
    };
    void schedule();

    std::vector<Entry> m_entries;
    QTimer m_timer;
};

} // namespace soul
