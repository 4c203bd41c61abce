#pragma once

#include "disk/atomicwrite.h"
#include "persona/personamodel.h"
#include "registry/runtimeprofile.h"

#include <QObject>

namespace soul {

class DocumentController;
class Prompter;
class SnapshotJobs;

// Export snapshot. It uses the core's bytes, never a widget's
// text: the export is takeSnapshot() of the folder, byte-identical to
// `soulc compose` and with the manifest of `soulc export`, written on a worker
// from the files as the model last read them (hashed again to be sure they
// still are), so a large persona's export does not stop the window.
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
    // starts writing the soul and its manifest (exportTo()). Nothing is saved
    // or written before the last answer. False when cancelled.
    bool exportSnapshot();
    // The question about unsaved files (DocumentController::unsavedFiles())
    // that every export asks last: false
    // when cancelled or when Save all failed; true to go on and write what
    // is on disk (saved just now, or as it was).
    static bool settleUnsaved(DocumentController *documents, Prompter *prompter);
    // Why `what` ("Export", "Freeze") of `profile` cannot be made from the
    // files `model` has open: a runtime's home (Hermes's) keeps them in
    // places only that runtime reads (memories/, the project), and every
    // other runtime would read the home as a flat folder. Empty when it can.
    static QString refusal(const PersonaModel *model,
                           const RuntimeProfile &profile,
                           const QString &what);
    // Writes the snapshot of what is on disk to `path` without asking, on
    // the worker; exported() follows, or the failure is shown. With
    // Overwrite::Never, a soul or manifest that is there (or appears before
    // its rename) fails the export and is kept.
    void exportTo(const QString &path, Overwrite overwrite);
    // An export is being written.
    bool busy() const;
    // Export writes what `profile`'s runtime injects (toolnexus: the soul).
    void setRuntimeProfile(const RuntimeProfile &profile) { m_profile = profile; }

Q_SIGNALS:
    void statusMessage(const QString &text);
    // The snapshot asked for is written: `soulPath` and its manifest.
    void exported(const QString &soulPath);
    // Writing it failed; the error has been shown.
    void failed(const QString &error);

private:
    PersonaModel *m_model = nullptr;
    DocumentController *m_documents = nullptr;
    Prompter *m_prompter = nullptr;
    SnapshotJobs *m_jobs = nullptr;
    RuntimeProfile m_profile;
};

} // namespace soul
