#include "hermesreader.h"

#include "disk/slotreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace soul {

namespace {

// Why the folder `dir` cannot be listed and entered, as the system says it;
// empty when it can.
QString enterProblem(const QString &dir)
{
    if (::access(QFile::encodeName(dir).constData(), R_OK | X_OK) == 0)
        return {};
    return QString::fromLocal8Bit(std::strerror(errno));
}

// Why `path` is no folder to read: "is not a directory", or what keeps it
// from being looked at (a loop of links, a folder on the way that cannot be
// entered), which "not a directory" would hide.
QString notFolderReason(const QString &path)
{
    const SlotRead probe = readPath(path, ReadOptions(0));
    if (probe.presence == SlotPresence::DanglingLink || probe.presence == SlotPresence::Unreadable)
        return absenceReason(probe);
    return QStringLiteral("is not a directory");
}

// The project files of one directory of the chain.
HermesProjectDirectory readProjectDirectory(const QString &path, bool project)
{
    HermesProjectDirectory dir;
    dir.path = path;
    QStringList names = hermesChainFileNames();
    if (project)
        names += hermesProjectFileNames();
    for (const QString &name : std::as_const(names)) {
        HermesFile file = readHermesFile(QDir(path).filePath(name));
        if (file.state != HermesFile::State::Missing)
            dir.files.append({name, std::move(file)});
    }
    return dir;
}

// pathlib orders paths by their names' code points; QString compares UTF-16
// units, which differs for characters past U+FFFF.
bool codePointLess(const QString &a, const QString &b)
{
    const QList<uint> x = a.toUcs4();
    const QList<uint> y = b.toUcs4();
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
}

// The nearest of `dir` and its parents holding a .git (any kind, a link
// followed), as _find_git_root; empty when none does.
QString gitRoot(const QString &dir)
{
    QDir d(dir);
    for (;;) {
        if (QFileInfo::exists(d.filePath(QStringLiteral(".git"))))
            return d.path();
        if (d.isRoot() || !d.cdUp())
            return {};
    }
}

// `resolved` and its parents up to its .git root, the root first.
QStringList projectChain(const QString &resolved)
{
    QStringList chain = {resolved};
    const QString root = gitRoot(resolved);
    if (!root.isEmpty() && root != resolved) {
        QString at = QFileInfo(resolved).path();
        while (at.size() >= root.size()) {
            chain.prepend(at);
            if (at == root)
                break;
            at = QFileInfo(at).path();
        }
    }
    return chain;
}

// A file whose text (or BLOCKED line) is in the project-context block.
bool isProjectBlockFile(const HermesFileReport &file)
{
    return file.used && file.block == HermesBlock::ProjectContext;
}

QStringList projectBlockFiles(const HermesComposition &composed)
{
    QStringList labels;
    for (const HermesFileReport &f : composed.files) {
        if (isProjectBlockFile(f))
            labels.append(f.name);
    }
    return labels;
}

Result<HermesInput> readProject(HermesInput input, const QString &project)
{
    const QFileInfo info(project);
    if (!info.isDir())
        return Result<HermesInput>::failure(
            QStringLiteral("%1 %2. Give the folder Hermes runs in (its project).")
                .arg(project, notFolderReason(project)));
    // Path.resolve(): absolute, every link resolved.
    const QString resolved = info.canonicalFilePath();
    if (resolved.isEmpty())
        return Result<HermesInput>::failure(
            QStringLiteral("cannot resolve %1. Check that it exists and can be entered.")
                .arg(project));
    const QStringList chain = projectChain(resolved);
    for (qsizetype i = 0; i < chain.size(); ++i)
        input.chain.append(readProjectDirectory(chain.at(i), i == chain.size() - 1));
    const QDir rules(QDir(resolved).filePath(QStringLiteral(".cursor/rules")));
    if (QFileInfo(rules.path()).isDir()) {
        // Every entry whose name ends in .mdc, hidden ones and folders included,
        // as pathlib's glob("*.mdc") lists them.
        QStringList names = rules.entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                            | QDir::NoDotAndDotDot);
        names.erase(std::remove_if(names.begin(),
                                   names.end(),
                                   [](const QString &n) {
                                       return !n.endsWith(QLatin1String(".mdc"));
                                   }),
                    names.end());
        std::sort(names.begin(), names.end(), codePointLess);
        for (const QString &name : std::as_const(names))
            input.cursorRules.append(
                {QStringLiteral(".cursor/rules/") + name, readHermesFile(rules.filePath(name))});
    }
    return input;
}

} // namespace

HermesFile readHermesFile(const QString &path)
{
    // Through the slot reader: a FIFO is never opened, and no more is read
    // than HermesReadLimitBytes and one byte to tell a larger file.
    const SlotRead read = readPath(path, ReadOptions(HermesReadLimitBytes + 1));
    HermesFile file;
    switch (read.presence) {
    case SlotPresence::Missing:
    case SlotPresence::DanglingLink:
        // Path.exists() is false for a dangling link and for a loop of links.
        return {};
    case SlotPresence::Directory:
        file.state = HermesFile::State::NotAFile;
        file.reason = QStringLiteral("a directory");
        return file;
    case SlotPresence::NotRegularFile:
        file.state = HermesFile::State::NotAFile;
        file.reason = read.kindText;
        return file;
    case SlotPresence::Unreadable:
        // A folder on the way that cannot be entered too: not "missing".
        file.state = HermesFile::State::Unreadable;
        file.reason = read.errorText;
        return file;
    case SlotPresence::Present:
        break;
    }
    if (read.bytes.size() > HermesReadLimitBytes) {
        file.state = HermesFile::State::Unreadable;
        file.reason = QStringLiteral("it is larger than %1 bytes, more than Soul Studio reads "
                                     "of a file for Hermes")
                          .arg(HermesReadLimitBytes);
        return file;
    }
    return hermesFileFromBytes(read.bytes);
}

QString hermesAbsolutePath(const QString &path)
{
    return QDir::cleanPath(QDir::current().absoluteFilePath(path));
}

Result<HermesInput> readHermesHome(const QString &home, const QString &project)
{
    if (!QFileInfo(home).isDir())
        return Result<HermesInput>::failure(
            QStringLiteral("%1 %2. Give Hermes's home folder (HERMES_HOME, usually ~/.hermes).")
                .arg(home, notFolderReason(home)));
    // Each file in a home that cannot be entered would look missing.
    if (const QString why = enterProblem(home); !why.isEmpty())
        return Result<HermesInput>::failure(
            QStringLiteral("Hermes's home %1 cannot be read (%2). Give yourself read and search "
                           "permission on it (chmod u+rx), then try again.")
                .arg(home, why));
    HermesInput input;
    input.homePath = hermesAbsolutePath(home);
    const QDir dir(home);
    input.soul = readHermesFile(dir.filePath(QStringLiteral("SOUL.md")));
    input.memory = readHermesFile(dir.filePath(QStringLiteral("memories/MEMORY.md")));
    input.user = readHermesFile(dir.filePath(QStringLiteral("memories/USER.md")));
    return readProject(std::move(input), project);
}

HermesInput hermesInputFromFiles(const QString &home,
                                 const QString &project,
                                 const QHash<QString, QByteArray> &files)
{
    const auto file = [&files](const QString &name) {
        const auto bytes = files.constFind(name);
        return bytes == files.cend() ? HermesFile() : hermesFileFromBytes(*bytes);
    };
    HermesInput input;
    input.homePath = hermesAbsolutePath(home);
    input.soul = file(QStringLiteral("SOUL.md"));
    input.memory = file(QStringLiteral("MEMORY.md"));
    input.user = file(QStringLiteral("USER.md"));
    // The project alone: no folder above it is read.
    HermesProjectDirectory dir;
    const QString resolved = QFileInfo(project).canonicalFilePath();
    dir.path = resolved.isEmpty() ? hermesAbsolutePath(project) : resolved;
    for (const QString &name : hermesChainFileNames() + hermesProjectFileNames()) {
        if (files.contains(name))
            dir.files.append({name, file(name)});
    }
    input.chain.append(dir);
    const QString rules = QStringLiteral(".cursor/rules/");
    QStringList names;
    for (auto it = files.cbegin(); it != files.cend(); ++it) {
        if (it.key().startsWith(rules) && it.key().endsWith(QLatin1String(".mdc"))
            && !it.key().mid(rules.size()).contains(QLatin1Char('/')))
            names.append(it.key().mid(rules.size()));
    }
    std::sort(names.begin(), names.end(), codePointLess);
    for (const QString &name : std::as_const(names))
        input.cursorRules.append({rules + name, file(rules + name)});
    return input;
}

QString hermesHomeDirectory()
{
    // hermes_constants.get_hermes_home(): the variable when it is set and not empty.
    const QString set = qEnvironmentVariable("HERMES_HOME");
    if (!set.isEmpty())
        return set;
    return QDir::home().filePath(QStringLiteral(".hermes"));
}

Result<QStringList> hermesProjectFiles(const QString &home, const QString &project)
{
    const Result<HermesInput> input = readHermesHome(home, project);
    if (!input)
        return Result<QStringList>::failure(input.error());
    return projectBlockFiles(composeHermes(input.value()));
}

Result<SlotLayout> hermesHomeLayout(const QString &home,
                                    const QString &project,
                                    const QString &preferred)
{
    const Result<HermesInput> input = readHermesHome(home, project);
    if (!input)
        return Result<SlotLayout>::failure(input.error());
    SlotLayout layout;
    layout.directory = hermesAbsolutePath(home);
    layout.home = layout.directory;
    layout.project = hermesAbsolutePath(project);
    const QDir homeDir(layout.home);
    const QDir projectDir(layout.project);
    const auto place = [&layout](const char *slot, const QString &path, const QString &label) {
        const auto k = size_t(slotIndex(QString::fromLatin1(slot)));
        layout.paths[k] = path;
        layout.labels[k] = label;
        layout.names[k] = QFileInfo(label).fileName();
    };
    place("SOUL.md", homeDir.filePath(QStringLiteral("SOUL.md")), QStringLiteral("SOUL.md"));
    place("MEMORY.md",
          homeDir.filePath(QStringLiteral("memories/MEMORY.md")),
          QStringLiteral("memories/MEMORY.md"));
    place("USER.md",
          homeDir.filePath(QStringLiteral("memories/USER.md")),
          QStringLiteral("memories/USER.md"));
    // Hermes's memory tool makes memories/ on its first write (mkdir(parents=True)).
    layout.madeFolders = {homeDir.filePath(QStringLiteral("memories"))};
    for (const char *never : {"IDENTITY.md", "TOOLS.md", "HEARTBEAT.md"})
        place(never, projectDir.filePath(QLatin1String(never)), QLatin1String(never));
    // Which file wins depends on the texts only, not on the cap.
    const HermesComposition composed = composeHermes(input.value());
    const auto agents = size_t(slotIndex(u"AGENTS.md"));
    layout.paths[agents] = projectDir.filePath(QStringLiteral("AGENTS.md"));
    layout.labels[agents] = QStringLiteral("AGENTS.md");
    // The first file of the block, or the one asked for while it is in it.
    bool placed = false;
    for (const HermesFileReport &f : composed.files) {
        if (!isProjectBlockFile(f) || (placed && f.name != preferred))
            continue;
        layout.paths[agents] = f.path;
        layout.labels[agents] = f.name;
        if (f.name == preferred || preferred.isEmpty())
            break;
        placed = true;
    }
    // The runtime knows a project file by its label ("../AGENTS.md" above the project).
    layout.names[agents] = layout.labels[agents];
    return layout;
}

QStringList hermesProjectFolders(const QString &project)
{
    const QString resolved = QFileInfo(project).canonicalFilePath();
    if (resolved.isEmpty())
        return {};
    QStringList folders = projectChain(resolved);
    const QString rules = QDir(resolved).filePath(QStringLiteral(".cursor/rules"));
    if (QFileInfo(rules).isDir())
        folders.append(rules);
    return folders;
}

Result<HermesInput> readHermesFlat(const QString &dir)
{
    if (!QFileInfo(dir).isDir())
        return Result<HermesInput>::failure(
            QStringLiteral("%1 %2. Give a persona folder.").arg(dir, notFolderReason(dir)));
    if (const QString why = enterProblem(dir); !why.isEmpty())
        return Result<HermesInput>::failure(
            QStringLiteral("The persona folder %1 cannot be read (%2). Give yourself read and "
                           "search permission on it (chmod u+rx), then try again.")
                .arg(dir, why));
    HermesInput input;
    input.homePath = hermesAbsolutePath(dir);
    const QDir d(dir);
    input.soul = readHermesFile(d.filePath(QStringLiteral("SOUL.md")));
    input.memory = readHermesFile(d.filePath(QStringLiteral("MEMORY.md")));
    input.user = readHermesFile(d.filePath(QStringLiteral("USER.md")));
    return readProject(std::move(input), dir);
}

} // namespace soul
