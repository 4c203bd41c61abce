#include "freezecontroller.h"

#include "documentcontroller.h"
#include "exportcontroller.h"
#include "persona/freeze.h"
#include "persona/personamodel.h"
#include "prompter.h"
#include "snapshotjobs.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace soul {

namespace {

const QString FolderKey = QStringLiteral("snapshots/folder");

} // namespace

FreezeController::FreezeController(PersonaModel *model,
                                   DocumentController *documents,
                                   Prompter *prompter,
                                   QSettings *settings,
                                   QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_documents(documents)
    , m_prompter(prompter)
    , m_settings(settings)
    , m_jobs(new SnapshotJobs(this))
{}

bool FreezeController::busy() const
{
    return m_jobs->busy();
}

QString FreezeController::snapshotsFolder() const
{
    return m_settings->value(FolderKey).toString();
}

bool FreezeController::changeSnapshotsFolder()
{
    // Beside the persona folder by default, not inside it: a snapshot is not
    // a slot. The author may still choose any folder.
    QString start = snapshotsFolder();
    if (start.isEmpty() && m_model->isOpen())
        start = QFileInfo(m_model->directory()).dir().absolutePath();
    const QString chosen = m_prompter->askSnapshotsFolder(start);
    if (chosen.isEmpty())
        return false;
    m_settings->setValue(FolderKey, QDir::cleanPath(QFileInfo(chosen).absoluteFilePath()));
    Q_EMIT recentChanged();
    return true;
}

bool FreezeController::freeze()
{
    if (!m_model->isOpen())
        return false;
    if (const QString refused = ExportController::refusal(m_model, m_profile, tr("Freeze"));
        !refused.isEmpty()) {
        m_prompter->showError(tr("Cannot freeze"), refused);
        return false;
    }
    if (snapshotsFolder().isEmpty() && !changeSnapshotsFolder())
        return false;
    if (!ExportController::settleUnsaved(m_documents, m_prompter))
        return false;
    Q_EMIT statusMessage(tr("Freezing the soul…"));
    // The moment of the request names the snapshot, not when the worker gets to it.
    m_jobs->run(
        [dir = m_model->directory(),
         folder = snapshotsFolder(),
         at = QDateTime::currentDateTimeUtc(),
         held = m_model->heldReads(),
         profile = m_profile,
         home = m_model->layout().home,
         project = m_model->layout().project] {
            return freezeSnapshot(dir,
                                  folder,
                                  at,
                                  held,
                                  profile.runtime,
                                  profile.settings,
                                  home,
                                  project);
        },
        [this](const Result<QString> &written) {
            if (!written) {
                Q_EMIT statusMessage(tr("Freeze failed"));
                m_prompter->showError(tr("Freeze failed"), written.error());
                Q_EMIT failed(written.error());
                return;
            }
            if (!written.warning().isEmpty()) {
                m_prompter->showError(tr("Frozen, not confirmed by the disk"), written.warning());
            }
            Q_EMIT statusMessage(
                tr("Froze the soul to %1").arg(QDir::toNativeSeparators(written.value())));
            Q_EMIT recentChanged();
            Q_EMIT frozen(written.value());
        });
    return true;
}

QStringList FreezeController::recent() const
{
    if (!m_model->isOpen() || snapshotsFolder().isEmpty())
        return {};
    return recentSnapshots(snapshotsFolder(), QFileInfo(m_model->directory()).fileName());
}

} // namespace soul
