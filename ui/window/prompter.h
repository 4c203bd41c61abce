#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace soul {

// Every question the window asks a person. The window's logic only talks to
// this interface, so tests answer with a double and nothing ever blocks on a
// modal dialog; DialogPrompter is the real one.
class Prompter
{
public:
    virtual ~Prompter() = default;

    enum class UnsavedAnswer { SaveAll, Discard, Cancel };
    // Closing or quitting with unsaved panes; `files` are their names.
    virtual UnsavedAnswer askUnsaved(const QStringList &files) = 0;

    enum class ExportAnswer { SaveAllAndExport, ExportOnDisk, Cancel };
    virtual ExportAnswer askExportWithUnsaved(const QStringList &files) = 0;

    // Where to write the snapshot; empty when cancelled.
    virtual QString askExportPath(const QString &suggested) = 0;

    // A persona folder to open; empty when cancelled.
    virtual QString askOpenDirectory(const QString &start) = 0;

    // A folder to save every pane into when the open one was lost; empty
    // when cancelled.
    virtual QString askSaveAllDirectory(const QString &start) = 0;

    struct NewPersona
    {
        QString directory; // empty when cancelled
        QList<int> slots;
    };
    virtual NewPersona askNewPersona(const QString &start) = 0;

    // A sentence that needs the user's attention (a failed save, export, ...).
    virtual void showError(const QString &title, const QString &text) = 0;

    // Shows a diff of a slot on disk against its buffer.
    virtual void showCompare(const QString &title, const QString &diff) = 0;

    // A Hugging Face tokenizer.json to count with; empty when cancelled.
    virtual QString askTokenizerFile(const QString &start)
    {
        Q_UNUSED(start);
        return {};
    }
};

} // namespace soul
