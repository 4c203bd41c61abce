#pragma once

#include "prompter.h"

namespace soul::guitest {

// A prompter for tests that ask nothing: closing with unsaved text drops it,
// every other question is cancelled, errors and comparisons are not shown.
// A test that answers or records some questions derives from it and
// overrides only those.
class QuietPrompter : public Prompter
{
public:
    UnsavedAnswer askUnsaved(const QStringList &) override { return UnsavedAnswer::Discard; }
    ExportAnswer askExportWithUnsaved(const QStringList &) override { return ExportAnswer::Cancel; }
    QString askExportPath(const QString &) override { return {}; }
    QString askOpenDirectory(const QString &) override { return {}; }
    QString askSaveAllDirectory(const QString &) override { return {}; }
    NewPersona askNewPersona(const QString &) override { return {}; }
    void showError(const QString &, const QString &) override {}
    void showCompare(const QString &, const QString &) override {}
};

} // namespace soul::guitest
