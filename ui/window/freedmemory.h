#pragma once

#include <QObject>
#include <QTimer>

namespace soul {

class PersonaSession;

// Gives the system back heap memory the program has freed. glibc keeps what
// large, short-lived buffers leave free for reuse, and returns only what lies
// at the top of the heap: opening, freezing or comparing a large persona
// frees tens of MiB (whole texts decoded, composed or read once) that would
// otherwise stay with the process, and the next large operation would start
// from there. Asked for after such work; done once the window has been quiet
// for a moment, so typing never waits for it.
class FreedMemory : public QObject
{
    Q_OBJECT

public:
    explicit FreedMemory(QObject *parent = nullptr);

    // Returns freed memory after QuietMs without another request.
    void releaseSoon();
    // Asks releaseSoon() after `session`'s large work: a folder opened, a
    // buffer replaced, a freeze or an export written or failed.
    void follow(const PersonaSession *session);
    // Returns freed memory now; true when the system got some back (false
    // where the C library cannot say, or has nothing to return).
    static bool releaseNow();
    // How many times it ran (tests).
    int releases() const { return m_releases; }

    static constexpr int QuietMs = 1000;

Q_SIGNALS:
    void released();

private:
    QTimer m_timer;
    int m_releases = 0;
};

} // namespace soul
