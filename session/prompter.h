#pragma once

#include "linktexts.h"
#include "persona/personamodel.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace soul {

// Every question the window asks a person. The window's logic only talks to
// this interface, so tests answer with a double and nothing ever blocks on a
// modal dialog; DialogPrompter is the real one.
class Prompter
{
public:
    virtual ~Prompter() = default;

    // What askDivergedCopy() answers.
    enum class DivergedAnswer { Close, Adopt, Leave };

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

    enum class StaleAnswer { Overwrite, Compare, Cancel };
    // Saving `file` would replace a change another program made, or create
    // again a file it deleted (`reason` says which, and `why` in a sentence).
    // Asked once per file, again after Compare. A double that does not answer
    // it never overwrites.
    virtual StaleAnswer askStaleSave(const QString &file, const QString &why, StaleReason reason)
    {
        Q_UNUSED(file);
        Q_UNUSED(why);
        Q_UNUSED(reason);
        return StaleAnswer::Cancel;
    }

    // A sentence that needs the user's attention (a failed save, export, ...).
    virtual void showError(const QString &title, const QString &text) = 0;

    // Shows a diff of a slot on disk against its buffer.
    virtual void showCompare(const QString &title, const QString &diff) = 0;

    // The questions below refuse by default: a prompter that cannot ask
    // leaves every file as it is.

    // Saving `file`, opened with Edit anyway, also changes bytes the user did
    // not edit; `changes` says which, a sentence each. True to save.
    virtual bool askSaveChangedBytes(const QString &file, const QStringList &changes)
    {
        Q_UNUSED(file);
        Q_UNUSED(changes);
        return false;
    }

    // The export would replace `paths` (the soul, the manifest or both),
    // which exist. True to replace them.
    virtual bool askReplaceExport(const QStringList &paths)
    {
        Q_UNUSED(paths);
        return false;
    }

    // The folder Freeze writes snapshots into; empty when cancelled.
    virtual QString askSnapshotsFolder(const QString &start)
    {
        Q_UNUSED(start);
        return {};
    }

    // A frozen or exported soul (its manifest beside it) to compare the
    // persona with; empty when cancelled.
    virtual QString askSnapshotFile(const QString &start)
    {
        Q_UNUSED(start);
        return {};
    }

    // Dropping the unsaved text of `file` cannot be undone (it has no file on
    // disk to go back to, or its pane cuts long lines and loads the text
    // anew). True to drop it.
    virtual bool askDropUnsaved(const QString &file)
    {
        Q_UNUSED(file);
        return false;
    }

    // Finishing setup deletes `file` (OpenClaw's BOOTSTRAP.md), so the
    // runtime no longer treats the workspace as pending its first run; its
    // text can be restored. True to delete it.
    virtual bool askFinishSetup(const QString &file)
    {
        Q_UNUSED(file);
        return false;
    }

    // The project folder Hermes runs in, for its home `home`: the folder
    // whose HERMES.md, AGENTS.md, CLAUDE.md or .cursorrules it reads. Empty
    // when cancelled.
    virtual QString askHermesProject(const QString &home, const QString &start)
    {
        Q_UNUSED(home);
        Q_UNUSED(start);
        return {};
    }

    // A Hugging Face tokenizer.json to count with; empty when cancelled.
    virtual QString askTokenizerFile(const QString &start)
    {
        Q_UNUSED(start);
        return {};
    }

    // `dir` is in no git repository: true to make it one (git init) so its
    // history can start. `why` says what asked.
    virtual bool askCreateRepository(const QString &dir, const QString &why)
    {
        Q_UNUSED(dir);
        Q_UNUSED(why);
        return false;
    }

    // The message of a checkpoint, prefilled with `suggested` (what changed);
    // `note` says what it leaves out (unsaved panes). A null string when
    // cancelled.
    virtual QString askCheckpointMessage(const QString &suggested, const QString &note)
    {
        Q_UNUSED(suggested);
        Q_UNUSED(note);
        return {};
    }

    // One of the agents `names` (the window's, in its order; `current` is
    // the one shown, not offered), asked as `question`. -1 when cancelled.
    virtual int askAgent(const QString &question, const QStringList &names, int current)
    {
        Q_UNUSED(question);
        Q_UNUSED(names);
        Q_UNUSED(current);
        return -1;
    }

    // Some of the agents `names`, as askAgent(); empty when cancelled.
    virtual QList<int> askAgents(const QString &question, const QStringList &names, int current)
    {
        Q_UNUSED(question);
        Q_UNUSED(names);
        Q_UNUSED(current);
        return {};
    }

    // A member's copy of a linked file differs from the group's text: the
    // three texts shown, Adopt / Leave / Close asked.
    virtual DivergedAnswer askDivergedCopy(const ThreeWayTexts &texts)
    {
        Q_UNUSED(texts);
        return DivergedAnswer::Close;
    }
};

} // namespace soul
