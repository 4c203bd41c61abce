#include "history/repositoryfiles.h"

#include "disk/slotreader.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QSet>

#include <sys/stat.h>

namespace soul::git {

namespace {

constexpr qint64 MaxLinkBytes = 4096;              // a .git file, commondir: one path
constexpr qint64 MaxConfigBytes = qint64(4) << 20; // read for its include paths
constexpr qint64 MaxListBytes = qint64(1) << 16;   // objects/info/alternates, as the reader
constexpr int MaxIncludeDepth = 10;                // as git
constexpr int MaxAlternateDepth = 5;               // as git
constexpr qint64 MaxWalked = 500000;               // entries looked at under refs/, logs/, ...

// The files git keeps beside HEAD in a git folder (a worktree's own, or the
// common one), that libgit2 may open while the history reads or writes.
constexpr const char *GitDirFiles[] = {"HEAD",
                                       "index",
                                       "commondir",
                                       "gitdir",
                                       "config.worktree",
                                       "ORIG_HEAD",
                                       "FETCH_HEAD",
                                       "MERGE_HEAD",
                                       "CHERRY_PICK_HEAD",
                                       "REVERT_HEAD",
                                       "BISECT_LOG",
                                       "packed-refs",
                                       "shallow"};

// The folders whose every file libgit2 may open: refs and their logs, and
// what objects/ keeps besides the loose objects (which the guarded object
// database opens without blocking).
constexpr const char *GitDirFolders[] = {"refs", "logs", "info", "objects/info", "objects/pack"};

bool isDirectory(const QString &path)
{
    struct stat st = {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The value of a config line "path = VALUE", unquoted, or empty.
QString includePath(QByteArrayView line)
{
    const qsizetype equals = line.indexOf('=');
    if (equals < 0 || line.first(equals).trimmed().toByteArray().toLower() != "path")
        return {};
    const QByteArrayView raw = line.sliced(equals + 1).trimmed();
    QByteArray value;
    bool quoted = false;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const char c = raw.at(i);
        if (c == '"') {
            quoted = !quoted;
        } else if (c == '\\' && i + 1 < raw.size()) {
            const char next = raw.at(++i);
            value.append(next == 't' ? '\t' : next == 'n' ? '\n' : next);
        } else if ((c == '#' || c == ';') && !quoted) {
            break;
        } else {
            value.append(c);
        }
    }
    return QFile::decodeName(value.trimmed());
}

class Checker
{
public:
    QString problem;
    QString gitDirText; // the repository's git folder, once found

    // `path`, which `what` describes ("its file", ...): missing, a folder
    // or a regular file (after links) is fine; anything else is the problem.
    bool file(const QString &path, const QString &what)
    {
        struct stat st = {};
        if (::stat(QFile::encodeName(path).constData(), &st) != 0 || S_ISREG(st.st_mode)
            || S_ISDIR(st.st_mode))
            return true;
        refuse(path, what, fileKindText(st.st_mode));
        return false;
    }

    // The first `limit` bytes of `path`, through the slot reader's guard;
    // empty when it is missing or no file (then said, if it is a FIFO, ...).
    QByteArray read(const QString &path, qint64 limit, const QString &what)
    {
        const SlotRead read = readPath(path, ReadOptions(limit));
        if (read.presence == SlotPresence::NotRegularFile) {
            refuse(path, what, read.kindText);
            return {};
        }
        return read.presence == SlotPresence::Present ? read.bytes : QByteArray();
    }

    // Every entry under `folder` (not following linked folders).
    bool tree(const QString &folder, const QString &what)
    {
        if (!isDirectory(folder))
            return file(folder, what);
        QDirIterator it(folder,
                        QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            if (++m_walked > MaxWalked)
                return true;
            if (!file(it.next(), what))
                return false;
        }
        return true;
    }

    // A config file and, as git would, every file it includes (whatever the
    // condition of an includeIf: a FIFO there is refused all the same).
    bool config(const QString &path, int depth, const QString &what)
    {
        const QByteArray text = read(path, MaxConfigBytes, what);
        if (!problem.isEmpty())
            return false;
        if (depth >= MaxIncludeDepth)
            return true;
        bool including = false;
        for (const QByteArray &rawLine : text.split('\n')) {
            QByteArrayView line = QByteArrayView(rawLine).trimmed();
            if (line.startsWith('[')) {
                const qsizetype end = line.indexOf(']');
                QByteArray section = line.sliced(1, end < 0 ? line.size() - 1 : end - 1)
                                         .trimmed()
                                         .toByteArray()
                                         .toLower();
                including = section == "include" || section.startsWith("includeif");
                if (end < 0)
                    continue;
                line = line.sliced(end + 1).trimmed(); // "[include] path = x" on one line
            }
            if (!including || line.isEmpty())
                continue;
            QString target = includePath(line);
            if (target.isEmpty())
                continue;
            if (target.startsWith(QLatin1String("~/")))
                target = QDir::homePath() + target.mid(1);
            target = QFileInfo(path).dir().absoluteFilePath(target);
            if (!config(QDir::cleanPath(target),
                        depth + 1,
                        QStringLiteral("a file that its config includes,")))
                return false;
        }
        return true;
    }

    // objects/info and objects/pack of `objectsDir`, and of the alternates
    // it lists.
    bool objects(const QString &objectsDir, int depth)
    {
        const QString canonical = QFileInfo(objectsDir).canonicalFilePath();
        if (canonical.isEmpty() || m_objectDirs.contains(canonical))
            return true;
        m_objectDirs.insert(canonical);
        const QString what = depth == 0 ? QStringLiteral("its file")
                                        : QStringLiteral("a file of an alternate object store,");
        for (const char *folder : {"info", "pack"}) {
            if (!tree(canonical + QLatin1Char('/') + QLatin1String(folder), what))
                return false;
        }
        if (depth >= MaxAlternateDepth)
            return true;
        const QString list = canonical + QStringLiteral("/info/alternates");
        const QByteArray text = read(list, MaxListBytes, what);
        if (!problem.isEmpty())
            return false;
        for (QByteArray line : text.split('\n')) {
            line = line.trimmed();
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const QString path = QDir(canonical).absoluteFilePath(QFile::decodeName(line));
            if (!objects(QDir::cleanPath(path), depth + 1))
                return false;
        }
        return true;
    }

    // A git folder's own files; with `common`, the shared ones too.
    bool gitDir(const QString &dir, bool common)
    {
        const QString what = QStringLiteral("its file");
        for (const char *name : GitDirFiles) {
            if (!file(dir + QLatin1Char('/') + QLatin1String(name), what))
                return false;
        }
        for (const char *name : GitDirFolders) {
            if (!tree(dir + QLatin1Char('/') + QLatin1String(name), what))
                return false;
        }
        if (!config(dir + QStringLiteral("/config.worktree"), 0, what))
            return false;
        if (!common)
            return true;
        if (!config(dir + QStringLiteral("/config"), 0, what))
            return false;
        return objects(dir + QStringLiteral("/objects"), 0);
    }

private:
    qint64 m_walked = 0;
    QSet<QString> m_objectDirs;

    void refuse(const QString &path, const QString &what, const QString &kind)
    {
        problem = QStringLiteral("the git repository %1 cannot be opened: %2 %3 is %4, not a "
                                 "regular file, and reading it could wait forever. Remove it, or "
                                 "put back the file git keeps there, then try again.")
                      .arg(gitDirText.isEmpty() ? path : gitDirText, what, path, kind);
    }
};

// What a .git file ("gitdir: PATH") in `folder` points to, or empty.
QString linkedGitDir(Checker &checker, const QString &entry)
{
    const QByteArray text
        = checker.read(entry, MaxLinkBytes, QStringLiteral("the git link")).trimmed();
    if (!text.startsWith("gitdir:"))
        return {};
    const QString target = QFile::decodeName(text.mid(7).trimmed());
    return QDir::cleanPath(QFileInfo(entry).dir().absoluteFilePath(target));
}

// Whether `folder` is itself a git folder, as libgit2 tells one: HEAD, and
// objects and refs folders.
bool looksLikeGitDir(const QString &folder)
{
    return QFileInfo::exists(folder + QStringLiteral("/HEAD"))
           && isDirectory(folder + QStringLiteral("/objects"))
           && isDirectory(folder + QStringLiteral("/refs"));
}

// The git folder libgit2 would open for `canonical`, or empty.
QString findGitDir(Checker &checker, const QString &canonical)
{
    struct stat start = {};
    if (::stat(QFile::encodeName(canonical).constData(), &start) != 0)
        return {};
    for (QString folder = canonical; !folder.isEmpty();) {
        struct stat here = {};
        // libgit2 does not search across file systems.
        if (::stat(QFile::encodeName(folder).constData(), &here) != 0 || here.st_dev != start.st_dev)
            return {};
        if (looksLikeGitDir(folder))
            return folder;
        const QString entry = QDir(folder).filePath(QStringLiteral(".git"));
        struct stat st = {};
        if (::stat(QFile::encodeName(entry).constData(), &st) == 0) {
            if (S_ISDIR(st.st_mode))
                return entry;
            if (!S_ISREG(st.st_mode)) {
                checker.file(entry, QStringLiteral("the git entry"));
                return {};
            }
            return linkedGitDir(checker, entry);
        }
        const QString up = QFileInfo(folder).path();
        if (up == folder)
            break;
        folder = up;
    }
    return {};
}

int safeDirectoryEntry(const git_config_entry *entry, void *payload)
{
    auto *everyDirectory = static_cast<bool *>(payload);
    const QByteArray value(entry->value);
    if (value.isEmpty())
        *everyDirectory = false; // an empty value empties the list, as in git
    else if (value == "*")
        *everyDirectory = true;
    return 0;
}

// Whether the user's or the system's git config (never a repository's own)
// lists safe.directory '*'.
bool trustsEveryDirectory()
{
    git_config *config = nullptr;
    if (git_config_open_default(&config) != 0) {
        git_error_clear();
        return false;
    }
    bool everyDirectory = false;
    git_config_get_multivar_foreach(config,
                                    "safe.directory",
                                    nullptr,
                                    &safeDirectoryEntry,
                                    &everyDirectory);
    git_config_free(config);
    git_error_clear();
    return everyDirectory;
}

} // namespace

int openRepository(git_repository **out, const QByteArray &path, unsigned int flags)
{
    // Owner validation is one switch for the whole process: every open
    // through here waits while it is off for one of them.
    static QMutex mutex;
    const QMutexLocker locker(&mutex);
    const int status = git_repository_open_ext(out, path.constData(), flags, nullptr);
    if (status != GIT_EOWNER || !trustsEveryDirectory())
        return status;
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
    const int trusted = git_repository_open_ext(out, path.constData(), flags, nullptr);
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 1);
    return trusted;
}

QString checkRepositoryFiles(const QString &canonical)
{
    Checker checker;
    const QString gitDir = findGitDir(checker, canonical);
    if (gitDir.isEmpty() || !checker.problem.isEmpty())
        return checker.problem;
    checker.gitDirText = gitDir;
    const QByteArray common = checker
                                  .read(gitDir + QStringLiteral("/commondir"),
                                        MaxLinkBytes,
                                        QStringLiteral("its file"))
                                  .trimmed();
    if (!checker.problem.isEmpty())
        return checker.problem;
    if (common.isEmpty()) {
        checker.gitDir(gitDir, true);
        return checker.problem;
    }
    const QString commonDir = QDir::cleanPath(
        QDir(gitDir).absoluteFilePath(QFile::decodeName(common)));
    if (checker.gitDir(gitDir, false))
        checker.gitDir(commonDir, true);
    return checker.problem;
}

} // namespace soul::git
