#pragma once

#include "result.h"
#include "runtime/runtimeskills.h"

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace soul {

class PersonaSession;
class Tokenizer;

// The skills the shown persona's runtime lists in its prompt (OpenClaw's
// skills list, Hermes's skills index), kept up to date for the Skills room:
// read again on a worker when the runtime or its settings change, when a
// skills folder or a SKILL.md changes on disk, and after a pause in typing
// in a SKILL.md (setBuffers()). One read at a time; a result whose inputs
// changed while it ran is dropped and read again. It also makes, renames
// and removes skills, never over a file that is there and never a file the
// author has unsaved text in.
class SkillsSession : public QObject
{
    Q_OBJECT

public:
    explicit SkillsSession(PersonaSession *session, QObject *parent = nullptr);
    ~SkillsSession() override;

    // The shown runtime lists skills (Runtime::listsSkills()).
    bool available() const;
    // The last list read, its read failure (a config OpenClaw refuses...),
    // and the exact tokens of its text (-1 while counting or unknown).
    const SkillsList &list() const { return m_list; }
    const QString &error() const { return m_error; }
    qint64 promptTokens() const { return m_promptTokens; }
    // A read is waiting for its pause or running.
    bool busy() const { return m_timer.isActive() || m_running; }
    // Lists read so far (for tests and the benchmark).
    quint64 generation() const { return m_shown; }

    // Unsaved texts of skill files, by absolute path: they stand for the
    // files, as the runtime would read them once saved. The persona model's
    // documents under skillsFolder() give them as they are typed; more may
    // be given here (tests, texts of no document).
    void setBuffers(const QHash<QString, QByteArray> &buffers);
    const QHash<QString, QByteArray> &buffers() const { return m_buffers; }
    // Reads again after the pause, or at once.
    void schedule();
    void refreshNow();

    // Where a new skill of the persona goes: <workspace>/skills (OpenClaw),
    // <home>/skills (Hermes).
    QString skillsFolder() const;
    // Makes skills/NAME/SKILL.md with a frontmatter naming it; returns its
    // path. Refused with a sentence for a name that is not a folder name
    // or a skill that is there already.
    Result<QString> createSkill(const QString &name, const QString &description);
    // Renames the skill whose file is `skillFile` to `name`: its folder,
    // and its frontmatter's name when that was the folder's name. Refused
    // while `skillFile` has unsaved text (buffers()), or when NAME is taken.
    Result<QString> renameSkill(const QString &skillFile, const QString &name);
    // Moves the skill's folder to the trash (nothing is deleted for good)
    // and returns where it went. Refused while it has unsaved text, or for
    // a skill outside skillsFolder() (a bundled or shared one).
    Result<QString> removeSkill(const QString &skillFile);

    static constexpr int DelayMs = 150;

Q_SIGNALS:
    // A new list (or failure) is shown.
    void changed();

private:
    struct Job;
    struct Output;
    void start();
    void finished(quint64 generation, const std::shared_ptr<Output> &output);
    void watch();
    // The model's unsaved skill documents, with setBuffers()'s.
    QHash<QString, QByteArray> allBuffers() const;

    PersonaSession *m_session;
    QHash<QString, QByteArray> m_buffers;
    QHash<QString, QByteArray> m_documentBuffers; // the model's, as last read
    SkillsList m_list;
    QString m_error;
    qint64 m_promptTokens = -1;
    QTimer m_timer;
    QFileSystemWatcher m_watcher;
    bool m_running = false;
    bool m_again = false;
    quint64 m_requested = 0;
    quint64 m_shown = 0;
    std::shared_ptr<const Tokenizer> m_tokenizer;
};

} // namespace soul
