#include "freezecontroller.h"

#include "export/exportcontroller.h"
#include "freeze.h"
#include "personamodel.h"
#include "window/documentcontroller.h"
#include "window/prompter.h"

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
{}

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

QString FreezeController::freeze()
{
    if (!m_model->isOpen())
        return {};
    if (snapshotsFolder().isEmpty() && !changeSnapshotsFolder())
        return {};
    if (!ExportController::settleUnsaved(m_model, m_documents, m_prompter))
        return {};
    const Result<QString> frozen = freezeSnapshot(m_model->directory(), snapshotsFolder());
    if (!frozen) {
        m_prompter->showError(tr("Freeze failed"), frozen.error());
        return {};
    }
    Q_EMIT statusMessage(tr("Froze the soul to %1").arg(QDir::toNativeSeparators(frozen.value())));
    Q_EMIT recentChanged();
    return frozen.value();
}

QStringList FreezeController::recent() const
{
    if (!m_model->isOpen() || snapshotsFolder().isEmpty())
        return {};
    return recentSnapshots(snapshotsFolder(), QFileInfo(m_model->directory()).fileName());
}

} // namespace soul
