#pragma once

#include "prompter.h"

#include <QPointer>
#include <QWidget>

namespace soul {

// Prompter with real dialogs, modal to `parent`.
class DialogPrompter final : public Prompter
{
public:
    explicit DialogPrompter(QWidget *parent);

    UnsavedAnswer askUnsaved(const QStringList &files) override;
    ExportAnswer askExportWithUnsaved(const QStringList &files) override;
    QString askExportPath(const QString &suggested) override;
    QString askOpenDirectory(const QString &start) override;
    QString askSnapshotsFolder(const QString &start) override;
    QString askSnapshotFile(const QString &start) override;
    QString askSaveAllDirectory(const QString &start) override;
    NewPersona askNewPersona(const QString &start) override;
    StaleAnswer askStaleSave(const QString &file, const QString &why, StaleReason reason) override;
    void showError(const QString &title, const QString &text) override;
    void showCompare(const QString &title, const QString &diff) override;
    bool askSaveChangedBytes(const QString &file, const QStringList &changes) override;
    bool askReplaceExport(const QStringList &paths) override;
    bool askDropUnsaved(const QString &file) override;
    bool askFinishSetup(const QString &file) override;
    QString askHermesProject(const QString &home, const QString &start) override;
    QString askTokenizerFile(const QString &start) override;
    bool askCreateRepository(const QString &dir, const QString &why) override;
    QString askCheckpointMessage(const QString &suggested, const QString &note) override;
    int askAgent(const QString &question, const QStringList &names, int current) override;
    QList<int> askAgents(const QString &question, const QStringList &names, int current) override;
    DivergedAnswer askDivergedCopy(const ThreeWayTexts &texts) override;
    LinkedChangeAnswer askLinkedCopyChanged(const QString &file,
                                            const QString &agent,
                                            const QString &why) override;
    QString askLinkName(const QString &file,
                        const QStringList &agents,
                        const QString &suggested) override;

private:
    QPointer<QWidget> m_parent;
};

} // namespace soul
