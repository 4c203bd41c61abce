#pragma once

#include "personamodel.h"

#include <QObject>

namespace soul {

class DocumentController;
class Prompter;

// Export snapshot and Copy soul. Both use the core's bytes, never a widget's
// text: the export is takeSnapshot() of the folder, byte-identical to
// `soulc compose` and with the manifest of `soulc export`.
class ExportController : public QObject
{
    Q_OBJECT

public:
    ExportController(PersonaModel *model,
                     DocumentController *documents,
                     Prompter *prompter,
                     QObject *parent = nullptr);

    void setPrompter(Prompter *prompter) { m_prompter = prompter; }

    // Asks for a path, then (in one question) whether to replace the soul
    // and the manifest that exist there, then about unsaved panes; then
    // writes the soul and its manifest. Nothing is saved or written before
    // the last answer. False when cancelled or failed (the failure is shown).
    bool exportSnapshot();
    // The question about unsaved panes that every export asks last: false
    // when cancelled or when Save all failed; true to go on and write what
    // is on disk (saved just now, or as it was).
    static bool settleUnsaved(PersonaModel *model,
                              DocumentController *documents,
                              Prompter *prompter);
    // Writes the snapshot of what is on disk to `path` without asking.
    Status exportTo(const QString &path);
    // Puts the exact soul of `view` on the clipboard.
    void copySoul(SoulView view);

Q_SIGNALS:
    void statusMessage(const QString &text);

private:
    PersonaModel *m_model = nullptr;
    DocumentController *m_documents = nullptr;
    Prompter *m_prompter = nullptr;
};

} // namespace soul
