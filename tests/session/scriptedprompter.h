#pragma once

#include "prompter.h"

#include <QStringList>

// The session tests' answers to a session's questions.
namespace soul::test {

// Answers what the tests ask and records what the session asked.
class ScriptedPrompter : public Prompter
{
public:
    UnsavedAnswer unsavedAnswer = UnsavedAnswer::Cancel;
    QStringList askedUnsaved;
    QString snapshotsFolder;
    QStringList errors;

    UnsavedAnswer askUnsaved(const QStringList &files) override
    {
        askedUnsaved = files;
        return unsavedAnswer;
    }
    ExportAnswer askExportWithUnsaved(const QStringList &) override
    {
        return ExportAnswer::ExportOnDisk;
    }
    QString askExportPath(const QString &) override { return {}; }
    QString askOpenDirectory(const QString &) override { return {}; }
    QString askSaveAllDirectory(const QString &) override { return {}; }
    NewPersona askNewPersona(const QString &) override { return {}; }
    void showError(const QString &title, const QString &text) override
    {
        errors.append(title + QStringLiteral(": ") + text);
    }
    void showCompare(const QString &, const QString &) override {}
    QString askSnapshotsFolder(const QString &) override { return snapshotsFolder; }
};

} // namespace soul::test
