#pragma once

#include "registry/runtimeprofile.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QSettings;

namespace soul {

class DocumentController;
class PersonaModel;
class Prompter;
class SnapshotJobs;

// Freeze: an export, in one step, into the snapshots folder the author chose
// once (asked the first time, then remembered), named by persona and time;
// and the list of this persona's snapshots there.
class FreezeController : public QObject
{
    Q_OBJECT

public:
    FreezeController(PersonaModel *model,
                     DocumentController *documents,
                     Prompter *prompter,
                     QSettings *settings,
                     QObject *parent = nullptr);

    void setPrompter(Prompter *prompter) { m_prompter = prompter; }
    // Freeze writes what `profile`'s runtime injects (toolnexus: the soul).
    void setRuntimeProfile(const RuntimeProfile &profile) { m_profile = profile; }

    // Empty until the author chose one.
    QString snapshotsFolder() const;
    // Asks for the folder; false when cancelled.
    bool changeSnapshotsFolder();

    // As Export asks: the destination first (the snapshots folder, only when
    // none was chosen yet), then about unsaved panes; nothing is saved or
    // written before the last answer. Then the snapshot is written on a
    // worker from the files as the model last read them (only hashed again,
    // to be sure they still are), and frozen() follows, or the failure is
    // shown. False when cancelled.
    bool freeze();
    // A freeze is being written.
    bool busy() const;

    // This persona's snapshots in the snapshots folder, newest first.
    QStringList recent() const;

Q_SIGNALS:
    void statusMessage(const QString &text);
    // The folder or its snapshots changed: the File menu lists them again.
    void recentChanged();
    // The snapshot asked for by freeze() is written: `soulPath` and its manifest.
    void frozen(const QString &soulPath);
    // Writing it failed; the error has been shown.
    void failed(const QString &error);

private:
    PersonaModel *m_model = nullptr;
    DocumentController *m_documents = nullptr;
    Prompter *m_prompter = nullptr;
    QSettings *m_settings = nullptr;
    SnapshotJobs *m_jobs = nullptr;
    RuntimeProfile m_profile;
};

} // namespace soul
