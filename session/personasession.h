#pragma once

#include "registry/runtimeprofile.h"

#include <QObject>
#include <QString>

class QSettings;

namespace soul {

class CompareController;
class DocumentController;
class ExportController;
class FreezeController;
class HistorySession;
class PersonaModel;
class Prompter;
class RuntimePreview;
class SoulTokenCounter;

// One persona at work, without a widget: its model (files, buffers, watcher,
// recovery copies), its live token counts, the runtime its soul is read for
// with what that runtime makes of it (RuntimePreview), and the controllers that open, save, export, freeze and compare it. A window shows
// one session at a time and may hold several; everything here is tested
// without a window (tests/session/).
class PersonaSession : public QObject
{
    Q_OBJECT

public:
    // `prompter` answers the session's questions and `settings` keeps what
    // it remembers (recent folders, the snapshots folder); both must outlive
    // the session, or be replaced before they go.
    PersonaSession(Prompter *prompter, QSettings *settings, QObject *parent = nullptr);
    ~PersonaSession() override;

    PersonaModel *model() const { return m_model; }
    SoulTokenCounter *tokens() const { return m_tokens; }
    DocumentController *documents() const { return m_documents; }
    ExportController *exporter() const { return m_export; }
    FreezeController *freezer() const { return m_freeze; }
    // Compares this persona with a snapshot or another agent; idle until asked.
    CompareController *compare() const { return m_compare; }
    // The persona's git history: idle until a window follows it.
    HistorySession *history() const { return m_history; }

    void setPrompter(Prompter *prompter);
    Prompter *prompter() const { return m_prompter; }

    // The chosen runtime, its settings (remembered per folder in the
    // session's settings) and its composition of the persona. Freeze and
    // Export write its text (toolnexus: the soul).
    RuntimePreview *runtimePreview() const { return m_runtime; }
    // Chooses `profile` as the user would (RuntimePreview::choose()).
    void setRuntimeProfile(const RuntimeProfile &profile);
    const RuntimeProfile &runtimeProfile() const;

    // The open folder, absolute; empty while none is open.
    QString directory() const;
    // What a list of sessions calls this one: the folder's name.
    QString displayName() const;
    // Some pane holds text that is not saved.
    bool hasUnsaved() const;
    // An export or a freeze is being written.
    bool busy() const;

    // Which agent this persona is, when the window holds a roster.
    struct Agent
    {
        QString id;     // OpenClaw's agent id, or the subfolder's name
        QString folder; // absolute; it may not exist
        bool isDefault = false;
        // The OpenClaw profile with this agent's own budgets; any other
        // runtime (the default, toolnexus): OpenClaw's defaults.
        RuntimeProfile openClaw;
        // Where each budget came from, one line each; empty: OpenClaw's defaults.
        QString budgetNote;
    };
    void setAgent(const Agent &agent);
    const Agent &agent() const { return m_agent; }

    // What a list of agents shows of this one, from the buffers (unsaved
    // edits included).
    struct Summary
    {
        QString identityName; // IDENTITY.md's "Name:", or empty
        qint64 tokens = -1;   // the soul's tokens; -1 while counting
        qint64 injected = 0;  // characters OpenClaw injects ...
        qint64 budget = -1;   // ... against the agent's total budget
        int lints = 0;        // warnings and errors of the slot files
        bool unsaved = false;
    };
    Summary summary() const;
    // The name in `identity` (IDENTITY.md's bytes): the text after the first
    // "Name:" line, markup removed; empty when there is none.
    static QString identityName(const QByteArray &identity);

Q_SIGNALS:
    // The folder was opened, closed, or its unsaved state changed: a list
    // of sessions shows this one again.
    void summaryChanged();
    // A sentence for the status bar, from any of the controllers.
    void statusMessage(const QString &text);

private:
    Prompter *m_prompter = nullptr;
    PersonaModel *m_model = nullptr;
    SoulTokenCounter *m_tokens = nullptr;
    DocumentController *m_documents = nullptr;
    ExportController *m_export = nullptr;
    FreezeController *m_freeze = nullptr;
    CompareController *m_compare = nullptr;
    HistorySession *m_history = nullptr;
    RuntimePreview *m_runtime = nullptr;
    Agent m_agent;
    bool m_lastUnsaved = false;
};

} // namespace soul
