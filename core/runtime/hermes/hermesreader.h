#pragma once

#include "disk/slotlayout.h"
#include "hermesrule.h"
#include "result.h"

#include <QByteArray>
#include <QHash>
#include <QString>

// Reading the files Hermes Agent 0.21.3 reads, from disk, as it reads them:
// a path that does not exist (a dangling link included) is missing, a link
// to a file is followed, a directory or other non-regular file is never
// opened, and a file is decoded strictly (hermesFileFromBytes).
namespace soul {

// The most of one file read for Hermes. Hermes reads a file whole (SOUL.md
// and project files within a 5 s timeout, memories without one), but keeps at
// most a cap of 500,000 characters of SOUL.md or a project file, and a memory
// of megabytes is no memory the model can use. A larger file is Unreadable,
// with a reason saying so, after reading this much and one byte more: a 2 GiB
// sparse file costs no more than a 4 MiB one.
inline constexpr qint64 HermesReadLimitBytes = qint64(4) * 1024 * 1024;

// One file at `path`. A path that a folder on the way keeps from being
// looked at (no permission) is Unreadable, not Missing.
HermesFile readHermesFile(const QString &path);

// `path` as os.path.abspath makes it: absolute against the current
// directory, `.` and `..` segments and a trailing slash removed, links kept.
QString hermesAbsolutePath(const QString &path);

// A Hermes home (HOME/SOUL.md, HOME/memories/MEMORY.md and USER.md) with the
// project directory the session runs in: its .git root found as Hermes finds
// it, and the project files of every directory from that root down.
// Fails, with a sentence, when either is not a directory, or when the home
// cannot be listed and entered.
Result<HermesInput> readHermesHome(const QString &home, const QString &project);

// What Hermes reads when `files` (name -> bytes; project files by their
// names in `project`, rules as ".cursor/rules/NAME.mdc") are every file
// there is: the persona files of `home` (SOUL.md, MEMORY.md, USER.md) and
// the project files of `project` alone, no folder above it. A name not in
// `files` is missing; nothing is read from disk.
HermesInput hermesInputFromFiles(const QString &home,
                                 const QString &project,
                                 const QHash<QString, QByteArray> &files);

// Hermes's home as Hermes finds it: $HERMES_HOME when set, else ~/.hermes.
// The folder may not exist.
QString hermesHomeDirectory();

// The panes of a Hermes home run in `project`, at the files Hermes reads:
// SOUL.md at HOME/SOUL.md, MEMORY.md and USER.md at HOME/memories/, the
// AGENTS.md pane at the project file that wins now (HERMES.md, AGENTS.md,
// CLAUDE.md, .cursorrules... as readHermesHome and composeHermes find it; the
// project's AGENTS.md when none has text), and IDENTITY.md, TOOLS.md and
// HEARTBEAT.md, which Hermes never reads, in the project. The layout's
// directory is the home. When `preferred` is the label of one of the files
// that make the project-context block ("../AGENTS.md", ".cursor/rules/b.mdc";
// hermesProjectFiles), the AGENTS.md pane is that file instead of the first.
// Fails, with a sentence, as readHermesHome does.
Result<SlotLayout> hermesHomeLayout(const QString &home,
                                    const QString &project,
                                    const QString &preferred = QString());

// The labels of the files whose text makes Hermes's project-context block
// when it runs in `project`, in the block's order: the AGENTS chain from the
// .git root down ("../AGENTS.md", "AGENTS.md"), or .cursorrules and the
// .cursor/rules/*.mdc with text; one file for HERMES.md or CLAUDE.md, none
// when no file has text. Fails, with a sentence, as readHermesHome does.
Result<QStringList> hermesProjectFiles(const QString &home, const QString &project);

// The folders Hermes searches for project files when it runs in `project`:
// the project, its parents up to the .git root, and its .cursor/rules when
// that is a folder. A file made or removed in one may change which wins.
QStringList hermesProjectFolders(const QString &project);

// A flat persona folder: its SOUL.md, MEMORY.md and USER.md are read as a
// home's (the home's path is the folder's), and the folder is the project.
Result<HermesInput> readHermesFlat(const QString &dir);

} // namespace soul
