#include "exportcontroller.h"

#include "documentcontroller.h"
#include "persona/snapshot.h"
#include "prompter.h"
#include "snapshotjobs.h"

#include <QDir>
#include <QFileInfo>

namespace soul {

ExportController::ExportController(PersonaModel *model,
                                   DocumentController *documents,
                                   Prompter *prompter,
                                   QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_documents(documents)
    , m_prompter(prompter)
    , m_jobs(new SnapshotJobs(this))
{}

bool ExportController::busy() const
{
    return m_jobs->busy();
}

QString ExportController::refusal(const PersonaModel *model,
                                  const RuntimeProfile &profile,
                                  const QString &what)
{
    const SlotLayout &layout = model->layout();
    if (layout.isFolder() || profile.runtime->readsHome())
        return {};
    return tr("%1 with %2 reads a persona folder, and %3 is Hermes's home: %2 would take it for "
              "a flat folder and miss memories/ and the project file in %4. Choose Hermes in "
              "the preview to %5 what Hermes injects, or open a persona folder.")
        .arg(what,
             profile.displayName(),
             QDir::toNativeSeparators(layout.directory),
             QDir::toNativeSeparators(layout.project),
             what.toLower());
}

bool ExportController::exportSnapshot()
{
    if (!m_model->isOpen())
        return false;
    if (const QString refused = refusal(m_model, m_profile, tr("Export")); !refused.isEmpty()) {
        m_prompter->showError(tr("Cannot export"), refused);
        return false;
    }
    // The destination first: cancelling the file dialog must leave every
    // pane and every file as it was, so nothing is saved before it.
    const QFileInfo dir(m_model->directory());
    // Beside the persona folder, not inside it: the snapshot is not a slot.
    const QString suggested = dir.dir().filePath(dir.fileName() + QStringLiteral(".soul.md"));
    const QString path = m_prompter->askExportPath(suggested);
    if (path.isEmpty())
        return false;
    // One question for both files, naming each one that would be replaced.
    QStringList existing;
    for (const QString &file : {path, manifestPathFor(path)}) {
        const QFileInfo info(file);
        if (info.exists() || info.isSymLink())
            existing.append(info.absoluteFilePath());
    }
    if (!existing.isEmpty() && !m_prompter->askReplaceExport(existing))
        return false;
    if (!settleUnsaved(m_documents, m_prompter))
        return false;
    // Replacing is what the user agreed to, if asked; a file that appears
    // without a question is kept.
    exportTo(path, existing.isEmpty() ? Overwrite::Never : Overwrite::Allowed);
    return true;
}

bool ExportController::settleUnsaved(DocumentController *documents, Prompter *prompter)
{
    // Every unsaved file, the runtime's own among them: its text on disk
    // is what the runtime reads.
    const QStringList names = documents->unsavedFiles();
    if (names.isEmpty())
        return true;
    switch (prompter->askExportWithUnsaved(names)) {
    case Prompter::ExportAnswer::Cancel:
        return false;
    case Prompter::ExportAnswer::SaveAllAndExport:
        return documents->saveAll();
    case Prompter::ExportAnswer::ExportOnDisk:
        return true;
    }
    return false;
}

void ExportController::exportTo(const QString &path, Overwrite overwrite)
{
    if (const QString refused = refusal(m_model, m_profile, tr("Export")); !refused.isEmpty()) {
        m_prompter->showError(tr("Export failed"), refused);
        Q_EMIT failed(refused);
        return;
    }
    Q_EMIT statusMessage(tr("Exporting the snapshot…"));
    m_jobs->run(
        [dir = m_model->directory(),
         path,
         overwrite,
         held = m_model->heldReads(),
         profile = m_profile,
         home = m_model->layout().home,
         project = m_model->layout().project]() -> Result<QString> {
            RuntimeInput input;
            input.dir = dir;
            input.home = home;
            input.project = project;
            Result<Snapshot> snapshot = profile.sectioned()
                                            ? takeSnapshot(dir, profile.rule, nullptr, held)
                                            : takeRuntimeSnapshot(input,
                                                                  *profile.runtime,
                                                                  profile.settings);
            if (!snapshot)
                return Result<QString>::failure(snapshot.error());
            const Status s = writeSnapshot(snapshot.value(), path, overwrite == Overwrite::Allowed);
            if (!s)
                return Result<QString>::failure(s.error());
            Result<QString> written(path);
            written.addWarning(s.warning());
            return written;
        },
        [this](const Result<QString> &written) {
            if (!written) {
                Q_EMIT statusMessage(tr("Export failed"));
                m_prompter->showError(tr("Export failed"), written.error());
                Q_EMIT failed(written.error());
                return;
            }
            if (!written.warning().isEmpty())
                m_prompter->showError(tr("Exported, not confirmed by the disk"), written.warning());
            Q_EMIT statusMessage(
                tr("Exported the snapshot to %1 and %2")
                    .arg(QDir::toNativeSeparators(written.value()),
                         QDir::toNativeSeparators(manifestPathFor(written.value()))));
            Q_EMIT exported(written.value());
        });
}

} // namespace soul
