#include "personahistory.h"

#include "history/guardedodb.h"
#include "history/repositoryfiles.h"
#include "historycounts.h"
#include "historyowner.h"
#include "persona/inspection.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTimeZone>

#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

QDateTime timeOf(const git_time &when)
{
    return QDateTime::fromSecsSinceEpoch(qint64(when.time), QTimeZone(when.offset * 60));
}

QString shortIdOf(const git_commit *commit)
{
    git::Buffer buffer;
    if (git_object_short_id(&buffer.buf, reinterpret_cast<const git_object *>(commit)) != 0)
        return QString::fromLatin1(git::hex(*git_commit_id(commit)).left(7));
    return QString::fromLatin1(buffer.bytes());
}

HistorySlots historySlots(const git::TreeSlotEntries &entries)
{
    HistorySlots slots;
    for (int slot = 0; slot < SlotCount; ++slot)
        slots[size_t(slot)] = historySlot(entries[size_t(slot)]);
    return slots;
}

bool sameSlots(const git::TreeSlotEntries &a, const git::TreeSlotEntries &b)
{
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (!a[size_t(slot)].sameAs(b[size_t(slot)]))
            return false;
    }
    return true;
}

// The commit's own facts, without its slots.
HistoryCommit describe(const git_commit *commit)
{
    HistoryCommit out;
    out.id = git::hex(*git_commit_id(commit));
    out.shortId = shortIdOf(commit);
    const git_signature *author = git_commit_author(commit);
    out.authorName = QString::fromUtf8(author->name);
    out.authorEmail = QString::fromUtf8(author->email);
    out.authorTime = timeOf(author->when);
    out.commitTime = timeOf(git_commit_committer(commit)->when);
    // git_commit_summary() takes a non-const commit only to cache its result.
    const char *summary = git_commit_summary(const_cast<git_commit *>(commit));
    out.summary = QString::fromUtf8(summary ? summary : "");
    out.message = QString::fromUtf8(git_commit_message(commit));
    out.parentCount = int(git_commit_parentcount(commit));
    return out;
}

QString repositoryStateText(int state)
{
    switch (state) {
    case GIT_REPOSITORY_STATE_MERGE:
        return QStringLiteral("a merge");
    case GIT_REPOSITORY_STATE_REVERT:
    case GIT_REPOSITORY_STATE_REVERT_SEQUENCE:
        return QStringLiteral("a revert");
    case GIT_REPOSITORY_STATE_CHERRYPICK:
    case GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE:
        return QStringLiteral("a cherry-pick");
    case GIT_REPOSITORY_STATE_BISECT:
        return QStringLiteral("a bisect");
    case GIT_REPOSITORY_STATE_REBASE:
    case GIT_REPOSITORY_STATE_REBASE_INTERACTIVE:
    case GIT_REPOSITORY_STATE_REBASE_MERGE:
        return QStringLiteral("a rebase");
    case GIT_REPOSITORY_STATE_APPLY_MAILBOX:
    case GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE:
        return QStringLiteral("git am");
    default:
        return QStringLiteral("another git operation");
    }
}

} // namespace

HistorySlot historySlot(const git::TreeSlotEntry &entry)
{
    HistorySlot slot;
    slot.presence = entry.presence;
    slot.isSymlink = entry.isSymlink;
    if (entry.presence == SlotPresence::Present)
        slot.blobId = git::hex(entry.blobId);
    if (entry.hasEntry) {
        slot.entryId = git::hex(entry.entryId);
        slot.entryMode = int(entry.entryMode);
    }
    return slot;
}

bool HistorySlot::operator==(const HistorySlot &other) const
{
    return presence == other.presence && isSymlink == other.isSymlink && blobId == other.blobId
           && entryId == other.entryId && entryMode == other.entryMode;
}

QString slotChangeName(SlotChange change)
{
    switch (change) {
    case SlotChange::Unchanged:
        return QStringLiteral("unchanged");
    case SlotChange::Added:
        return QStringLiteral("added");
    case SlotChange::Modified:
        return QStringLiteral("modified");
    case SlotChange::Removed:
        return QStringLiteral("removed");
    }
    return {};
}

SlotChange HistoryCommit::change(int slot) const
{
    const HistorySlot &was = before[size_t(slot)];
    const HistorySlot &now = slots[size_t(slot)];
    if (!was.present() && now.present())
        return SlotChange::Added;
    if (was.present() && !now.present())
        return SlotChange::Removed;
    return was == now ? SlotChange::Unchanged : SlotChange::Modified;
}

bool HistoryCommit::touchesSlots() const
{
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (slots[size_t(slot)] != before[size_t(slot)])
            return true;
    }
    return false;
}

SlotBuffers slotBuffers(const std::array<SlotRead, SlotCount> &reads)
{
    SlotBuffers buffers;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (reads[size_t(slot)].presence == SlotPresence::Present)
            buffers[size_t(slot)] = reads[size_t(slot)].bytes;
    }
    return buffers;
}

// ---- the owner's helpers ---------------------------------------------------

namespace {

// The symbolic refs `rev` leads through, when they loop ("HEAD ->
// refs/heads/a -> refs/heads/b -> refs/heads/a"), or empty.
QString symbolicRefLoop(git_repository *repo, const QString &rev)
{
    QStringList chain;
    QByteArray name = rev.toUtf8();
    // Longer chains than libgit2 follows are a loop in all but name.
    for (int step = 0; step < 16; ++step) {
        const QString text = QString::fromUtf8(name);
        if (chain.contains(text)) {
            chain.append(text);
            return chain.join(QStringLiteral(" -> "));
        }
        chain.append(text);
        git_reference *ref = nullptr;
        if (git_reference_lookup(&ref, repo, name.constData()) != 0) {
            git_error_clear();
            return {};
        }
        const git::Reference owned(ref);
        if (git_reference_type(ref) != GIT_REFERENCE_SYMBOLIC)
            return {};
        name = git_reference_symbolic_target(ref);
    }
    return chain.join(QStringLiteral(" -> "));
}

} // namespace

QByteArray PersonaHistory::Owner::slotPath(int slot) const
{
    QByteArray path = folderPath.toUtf8();
    if (!path.isEmpty())
        path += '/';
    return path + BootstrapOrder[size_t(slot)];
}

QString PersonaHistory::Owner::damaged(const QString &what, const QString &why) const
{
    if (why.contains(QLatin1String(git::TooLargeMark))) {
        return QStringLiteral("the repository at %1 holds an object too large to read: %2 cannot "
                              "be read (%3). Give a revision without it, or read it with git "
                              "itself.")
            .arg(repositoryText, what, why);
    }
    return QStringLiteral("the repository at %1 is damaged: %2 cannot be read (%3). Run 'git "
                          "fsck' there to see what is wrong.")
        .arg(repositoryText, what, why);
}

Result<git::TreeSlotEntries> PersonaHistory::Owner::slotsOf(const git_commit *commit) const
{
    const QByteArray key = git::raw(*git_commit_id(commit));
    const auto it = slotCache.constFind(key);
    if (it != slotCache.cend())
        return *it;
    Result<git::TreeSlotEntries> entries = git::slotEntries(get(),
                                                            *git_commit_tree_id(commit),
                                                            folder);
    if (!entries) {
        return Result<git::TreeSlotEntries>::failure(
            damaged(QStringLiteral("commit %1's files").arg(shortIdOf(commit)), entries.error()));
    }
    // A walk needs a commit's entries and its parent's: the cache is
    // emptied now and then, so a long history does not fill memory.
    if (slotCache.size() >= MaxCachedSlotEntries)
        slotCache.clear();
    slotCache.insert(key, *entries);
    return entries;
}

Result<git::Commit> PersonaHistory::Owner::resolve(const QString &rev) const
{
    using R = Result<git::Commit>;
    git_error_clear();
    git_object *object = nullptr;
    const int status = git_revparse_single(&object, get(), rev.toUtf8().constData());
    if (status != 0) {
        const git_error *error = git_error_last();
        const int kind = error ? error->klass : GIT_ERROR_NONE;
        const QString why = git::lastErrorText("git cannot read this kind of revision");
        // An empty repository (or a branch not yet born) names nothing yet.
        if (git_repository_head_unborn(get()) == 1) {
            return R::failure(QStringLiteral("'%2' names nothing: HEAD in the repository at %1 "
                                             "has no commit yet. Make the first with a "
                                             "checkpoint.")
                                  .arg(repositoryText, rev));
        }
        if (const QString loop = symbolicRefLoop(get(), rev); !loop.isEmpty()) {
            return R::failure(QStringLiteral("'%1' names no commit in the repository at %2: its "
                                             "symbolic refs form a loop (%3). Point %1 at a "
                                             "branch, e.g. 'git symbolic-ref %1 refs/heads/main'.")
                                  .arg(rev, repositoryText, loop));
        }
        if (status == GIT_EAMBIGUOUS)
            return R::failure(QStringLiteral("'%1' is ambiguous in the repository at %2: more than "
                                             "one object starts with it. Give more digits.")
                                  .arg(rev, repositoryText));
        // An object on the way that cannot be read, or that a name leads to
        // and the object store lacks, is the repository's fault, not the
        // revision's. (An id or prefix given that matches no object is the
        // revision's.)
        static const QRegularExpression objectName(QStringLiteral("^[0-9a-fA-F]{4,40}$"));
        const bool damagedObject = status != GIT_ENOTFOUND && status != GIT_EINVALIDSPEC
                                   && (kind == GIT_ERROR_ODB || kind == GIT_ERROR_ZLIB
                                       || kind == GIT_ERROR_OBJECT || kind == GIT_ERROR_OS);
        const bool missingObject = status == GIT_ENOTFOUND && kind == GIT_ERROR_ODB
                                   && !objectName.match(rev).hasMatch();
        if (damagedObject || missingObject)
            return R::failure(damaged(QStringLiteral("an object '%1' leads to").arg(rev), why));
        if (rev.startsWith(QLatin1String("@{-"))) {
            return R::failure(QStringLiteral("'%1' names no commit: the repository at %2 has no "
                                             "record of that many branches checked out before. "
                                             "Give a commit id, a tag, a branch or HEAD~N.")
                                  .arg(rev, repositoryText));
        }
        QString text = QStringLiteral("'%1' names no commit in the repository at %2 (%3). Give a "
                                      "commit id, a tag, a branch or HEAD~N.")
                           .arg(rev, repositoryText, why);
        if (!shallow.isEmpty()) {
            text += QStringLiteral(" The repository is a shallow clone, so commits older than its "
                                   "cut are not in it; 'git fetch --unshallow' fetches them.");
        }
        return R::failure(text);
    }
    const git::Object owned(object);
    git_object *peeled = nullptr;
    if (git_object_peel(&peeled, object, GIT_OBJECT_COMMIT) != 0) {
        return R::failure(
            QStringLiteral("'%1' names a %2 in the repository at %3, not a commit. "
                           "Give a commit id, a tag, a branch or HEAD~N.")
                .arg(rev,
                     QString::fromLatin1(git_object_type2string(git_object_type(object))),
                     repositoryText));
    }
    return git::Commit(reinterpret_cast<git_commit *>(peeled));
}

Result<QByteArray> PersonaHistory::Owner::readBlob(
    const git_oid &id, const QString &what, qint64 limit, qint64 *size, QByteArray *sha256) const
{
    git_blob *blob = nullptr;
    if (git_blob_lookup(&blob, get(), &id) != 0)
        return Result<QByteArray>::failure(damaged(what, git::lastErrorText()));
    const git::Blob owned(blob);
    const auto *data = static_cast<const char *>(git_blob_rawcontent(blob));
    const auto total = qint64(git_blob_rawsize(blob));
    if (size)
        *size = total;
    if (sha256) {
        *sha256 = QCryptographicHash::hash(QByteArrayView(data, qsizetype(total)),
                                           QCryptographicHash::Sha256)
                      .toHex();
    }
    const qint64 keep = limit < 0 ? total : qMin(limit, total);
    return QByteArray(data, qsizetype(keep));
}

// ---- opening ---------------------------------------------------------------

namespace {

// When libgit2 found no repository above `canonical`: the first .git on the
// way up that git would have stopped at, and why it is none (a .git file
// pointing nowhere, a .git folder without HEAD), or empty when there is no
// .git at all.
QString brokenGitEntry(const QString &canonical)
{
    for (QString folder = canonical; !folder.isEmpty();) {
        const QString entry = QDir(folder).filePath(QStringLiteral(".git"));
        const QFileInfo info(entry);
        if (info.isFile()) {
            QFile file(entry);
            QByteArray text;
            if (file.open(QIODevice::ReadOnly))
                text = file.read(4096).trimmed();
            if (!text.startsWith("gitdir:")) {
                return QStringLiteral("the file %1 is not a git link (it should read \"gitdir: "
                                      "PATH\"), so git finds no repository. Fix or remove it.")
                    .arg(entry);
            }
            const QString target = QFile::decodeName(text.mid(7).trimmed());
            return QStringLiteral("the file %1 points to %2, which is not a git repository. Fix "
                                  "the path in it, or remove it.")
                .arg(entry, QDir(folder).absoluteFilePath(target));
        }
        if (info.isDir()) {
            // libgit2 1.5 reports a repository of another user, with no
            // safe.directory configured, as no repository at all.
            struct stat st = {};
            if (::stat(QFile::encodeName(entry).constData(), &st) == 0 && st.st_uid != ::geteuid()) {
                return QStringLiteral("the git repository %1 belongs to another user, and git "
                                      "does not trust it. If you do, add it with 'git config "
                                      "--global --add safe.directory %2'.")
                    .arg(entry, folder);
            }
            return QStringLiteral("the folder %1 is not a git repository (git needs a HEAD file "
                                  "and an objects folder in it). Run 'git fsck' there, or remove "
                                  "it.")
                .arg(entry);
        }
        const QString up = QFileInfo(folder).path();
        if (up == folder)
            break;
        folder = up;
    }
    return {};
}

// The nearest folder from `canonical` up that holds a .git entry, or empty.
QString dotGitHolder(const QString &canonical)
{
    for (QString folder = canonical; !folder.isEmpty();) {
        struct stat st = {};
        if (::lstat(QFile::encodeName(QDir(folder).filePath(QStringLiteral(".git"))).constData(),
                    &st)
            == 0)
            return folder;
        const QString up = QFileInfo(folder).path();
        if (up == folder)
            break;
        folder = up;
    }
    return {};
}

bool hasConfiguredWorktree(git_repository *repo)
{
    git_config *config = nullptr;
    if (git_repository_config_snapshot(&config, repo) != 0) {
        git_error_clear();
        return false;
    }
    const git::Config owned(config);
    git_buf value = GIT_BUF_INIT;
    const bool set = git_config_get_string_buf(&value, config, "core.worktree") == 0;
    git_buf_dispose(&value);
    git_error_clear();
    return set;
}

} // namespace

PersonaHistory::~PersonaHistory() = default;

Result<std::unique_ptr<PersonaHistory>> PersonaHistory::open(const QString &dir)
{
    using R = Result<std::unique_ptr<PersonaHistory>>;
    if (const QString problem = checkDirectory(dir); !problem.isEmpty())
        return R::failure(problem);
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    // Before libgit2, which would wait forever on a FIFO in a ref's place.
    if (const QString problem = git::checkRepositoryFiles(canonical); !problem.isEmpty())
        return R::failure(QStringLiteral("%1: %2").arg(dir, problem));
    auto owner = std::make_unique<Owner>();
    git_repository *repo = nullptr;
    const int status = git::openRepository(&repo, QFile::encodeName(canonical), 0);
    if (status == GIT_ENOTFOUND) {
        if (const QString broken = brokenGitEntry(canonical); !broken.isEmpty())
            return R::failure(QStringLiteral("%1: %2").arg(dir, broken));
        return R::failure(QStringLiteral("%1 is not in a git repository, so it has no history. "
                                         "Run 'git init' in it to start one.")
                              .arg(dir));
    }
    if (status == GIT_EOWNER) {
        return R::failure(QStringLiteral("%1: the git repository that holds it belongs to another "
                                         "user, and git does not trust it (%2). If you do, add it "
                                         "with 'git config --global --add safe.directory PATH'.")
                              .arg(dir, git::lastErrorText()));
    }
    if (status != 0) {
        return R::failure(QStringLiteral("%1: cannot open the git repository that holds it (%2).")
                              .arg(dir, git::lastErrorText()));
    }
    owner->repo.reset(repo);
    if (const QString why = git::installGuardedObjectDatabase(repo); !why.isEmpty()) {
        return R::failure(QStringLiteral("%1: cannot read the objects of the git repository that "
                                         "holds it (%2).")
                              .arg(dir, why));
    }
    owner->shallow = git::shallowCommits(repo);
    const char *workdir = git_repository_workdir(repo);
    if (git_repository_is_bare(repo) || !workdir) {
        return R::failure(QStringLiteral("%1 is in the bare repository %2, which has no working "
                                         "files. Give a folder of a repository's working tree.")
                              .arg(dir, QFile::decodeName(git_repository_path(repo))));
    }
    QString root = QFileInfo(QFile::decodeName(workdir)).canonicalFilePath();
    if (const QString holder = dotGitHolder(canonical);
        !holder.isEmpty() && root != holder && hasConfiguredWorktree(repo)) {
        return R::failure(QStringLiteral("%1: the git repository %2 sets core.worktree to %3, so "
                                         "git's working tree is %3, not %4 that holds the "
                                         "repository, and the persona's files are not where its "
                                         "commits have them. If the setting is not meant, remove "
                                         "it with 'git -C %4 config --unset core.worktree'.")
                              .arg(dir,
                                   QDir::cleanPath(QFile::decodeName(git_repository_path(repo))),
                                   root.isEmpty() ? QFile::decodeName(workdir) : root,
                                   holder));
    }
    QString relative = QDir(root).relativeFilePath(canonical);
    if (relative == QLatin1String("."))
        relative.clear();
    if (relative.startsWith(QLatin1String("../")) || relative == QLatin1String("..")
        || relative == QLatin1String(".git") || relative.startsWith(QLatin1String(".git/"))) {
        return R::failure(QStringLiteral("%1 is inside the repository's own .git folder, not its "
                                         "working tree. Give the persona's folder.")
                              .arg(dir));
    }
    owner->workdir = root.endsWith(QLatin1Char('/')) ? root : root + QLatin1Char('/');
    owner->folderPath = relative;
    if (!relative.isEmpty()) {
        for (const QString &part : relative.split(QLatin1Char('/')))
            owner->folder.append(part.toUtf8());
    }
    owner->folderText = dir;
    owner->repositoryText = QDir::cleanPath(root);

    std::unique_ptr<PersonaHistory> history(new PersonaHistory);
    history->m_directory = QFileInfo(dir).absoluteFilePath();
    history->m_workdir = owner->repositoryText;
    history->m_folderPath = relative;
    history->m_owner = std::move(owner);
    return R(std::move(history));
}

Status PersonaHistory::initRepository(const QString &dir)
{
    if (const QString problem = checkDirectory(dir); !problem.isEmpty())
        return Status::failure(problem);
    const git::Library library;
    git_repository *repo = nullptr;
    if (git_repository_init(&repo, QFile::encodeName(dir).constData(), 0) != 0) {
        return Status::failure(QStringLiteral("%1: cannot make a git repository there (%2). Check "
                                              "that the folder is writable.")
                                   .arg(dir, git::lastErrorText()));
    }
    git_repository_free(repo);
    return {};
}

QString PersonaHistory::folderText() const
{
    return m_owner->folderText;
}

bool PersonaHistory::isShallow() const
{
    return !m_owner->shallow.isEmpty();
}

bool PersonaHistory::hasCommits() const
{
    return git_repository_head_unborn(m_owner->get()) == 0;
}

QString PersonaHistory::busyState() const
{
    const int state = git_repository_state(m_owner->get());
    if (state == GIT_REPOSITORY_STATE_NONE)
        return {};
    return QStringLiteral("the repository at %1 is in the middle of %2, so its history is read "
                          "only here. Finish or abort it with git first.")
        .arg(m_owner->repositoryText, repositoryStateText(state));
}

HeadPlace PersonaHistory::headPlace() const
{
    git_repository *repo = m_owner->get();
    HeadPlace place;
    place.busy = busyState();
    const QString gitDir = QDir::cleanPath(QFile::decodeName(git_repository_path(repo)));
    const QString commonDir = QDir::cleanPath(QFile::decodeName(git_repository_commondir(repo)));
    git_oid id;
    if (git_reference_name_to_id(&id, repo, "HEAD") == 0)
        place.headId = git::hex(id);
    git_reference *head = nullptr;
    if (git_reference_lookup(&head, repo, "HEAD") == 0) {
        const git::Reference owned(head);
        if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC)
            place.branch = QString::fromUtf8(git_reference_symbolic_target(head));
    }
    git_error_clear();

    // git writes a ref as NAME.lock and renames it over NAME: the folder
    // that holds it sees the rename. The files are watched too, for a
    // program that writes one in place.
    place.watchFolders = {gitDir};
    if (commonDir != gitDir)
        place.watchFolders.append(commonDir);
    const auto addFile = [&place](const QString &path) {
        if (QFileInfo(path).isFile())
            place.watchFiles.append(path);
    };
    addFile(QDir(gitDir).filePath(QStringLiteral("HEAD")));
    addFile(QDir(commonDir).filePath(QStringLiteral("packed-refs")));
    if (place.branch.startsWith(QLatin1String("refs/"))) {
        const QString ref = QDir(commonDir).filePath(place.branch);
        addFile(ref);
        // Each folder from refs/ down to the branch's that exists: a branch
        // "team/ava" whose folder does not exist yet appears in the last one.
        const QStringList parts = place.branch.split(QLatin1Char('/'));
        QString folder = commonDir;
        for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
            folder = QDir(folder).filePath(parts.at(i));
            if (!QFileInfo(folder).isDir())
                break;
            place.watchFolders.append(folder);
        }
    }
    return place;
}

// ---- reading ---------------------------------------------------------------

Status PersonaHistory::log(const std::function<bool(const HistoryCommit &)> &visit) const
{
    Owner &o = *m_owner;
    if (git_repository_head_unborn(o.get()) == 1)
        return {};
    git_revwalk *walk = nullptr;
    if (git_revwalk_new(&walk, o.get()) != 0)
        return Status::failure(o.damaged(QStringLiteral("the history"), git::lastErrorText()));
    const git::Revwalk ownedWalk(walk);
    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
    if (git_revwalk_push_head(walk) != 0)
        return Status::failure(o.damaged(QStringLiteral("HEAD"), git::lastErrorText()));
    const git::TreeSlotEntries none;
    git_oid id;
    for (;;) {
        const int next = git_revwalk_next(&id, walk);
        if (next == GIT_ITEROVER)
            break;
        if (next != 0)
            return Status::failure(o.damaged(QStringLiteral("the history"), git::lastErrorText()));
        git_commit *commit = nullptr;
        if (git_commit_lookup(&commit, o.get(), &id) != 0) {
            return Status::failure(
                o.damaged(QStringLiteral("commit %1").arg(QString::fromLatin1(git::hex(id))),
                          git::lastErrorText()));
        }
        const git::Commit owned(commit);
        git_commit *parent = nullptr;
        git::Commit ownedParent;
        if (git_commit_parentcount(commit) > 0) {
            if (git_commit_parent(&parent, commit, 0) != 0) {
                return Status::failure(
                    o.damaged(QStringLiteral("the parent of commit %1").arg(shortIdOf(commit)),
                              git::lastErrorText()));
            }
            ownedParent.reset(parent);
            // The same tree: nothing changed, links included.
            if (git_oid_equal(git_commit_tree_id(commit), git_commit_tree_id(parent)))
                continue;
        }
        const Result<git::TreeSlotEntries> now = o.slotsOf(commit);
        if (!now)
            return Status::failure(now.error());
        Result<git::TreeSlotEntries> was = none;
        if (parent)
            was = o.slotsOf(parent);
        if (!was)
            return Status::failure(was.error());
        if (sameSlots(*now, *was))
            continue;
        HistoryCommit out = describe(commit);
        out.cut = o.shallow.contains(git::raw(id));
        out.slots = historySlots(*now);
        out.before = historySlots(*was);
        if (visit && !visit(out))
            break;
    }
    return {};
}

Result<QList<HistoryCommit>> PersonaHistory::log() const
{
    QList<HistoryCommit> commits;
    const Status status = log([&commits](const HistoryCommit &commit) {
        commits.append(commit);
        return true;
    });
    if (!status)
        return Result<QList<HistoryCommit>>::failure(status.error());
    return commits;
}

Result<HistoryCommit> PersonaHistory::commit(const QString &rev) const
{
    using R = Result<HistoryCommit>;
    const Owner &o = *m_owner;
    const Result<git::Commit> commit = o.resolve(rev);
    if (!commit)
        return R::failure(commit.error());
    const Result<git::TreeSlotEntries> now = o.slotsOf(commit->get());
    if (!now)
        return R::failure(now.error());
    HistoryCommit out = describe(commit->get());
    out.cut = o.shallow.contains(git::raw(*git_commit_id(commit->get())));
    out.slots = historySlots(*now);
    if (git_commit_parentcount(commit->get()) > 0) {
        git_commit *parent = nullptr;
        if (git_commit_parent(&parent, commit->get(), 0) != 0) {
            return R::failure(o.damaged(QStringLiteral("the parent of commit %1").arg(out.shortId),
                                        git::lastErrorText()));
        }
        const git::Commit ownedParent(parent);
        const Result<git::TreeSlotEntries> was = o.slotsOf(parent);
        if (!was)
            return R::failure(was.error());
        out.before = historySlots(*was);
    }
    return out;
}

Result<PersonaRevision> PersonaHistory::readRevision(const QString &rev,
                                                     const ReadOptions &options) const
{
    using R = Result<PersonaRevision>;
    const Owner &o = *m_owner;
    const Result<git::Commit> commit = o.resolve(rev);
    if (!commit)
        return R::failure(commit.error());
    PersonaRevision out;
    out.rev = rev;
    Result<HistoryCommit> described = this->commit(
        QString::fromLatin1(git::hex(*git_commit_id(commit->get()))));
    if (!described)
        return R::failure(described.error());
    out.commit = *described;

    int hops = 0;
    const Result<git::PathTarget> folder
        = git::followPath(o.get(), {*git_commit_tree_id(commit->get())}, o.folder, hops);
    if (!folder)
        return R::failure(
            o.damaged(QStringLiteral("commit %1's files").arg(out.commit.shortId), folder.error()));
    out.folderMissing = folder->kind != git::PathTarget::Kind::Directory || folder->trees.isEmpty();
    const Result<git::TreeSlotEntries> entries = git::slotEntries(o.get(),
                                                                  *git_commit_tree_id(commit->get()),
                                                                  o.folder,
                                                                  &out.entryNames,
                                                                  &out.memoryFolder);
    if (!entries)
        return R::failure(o.damaged(QStringLiteral("commit %1's files").arg(out.commit.shortId),
                                    entries.error()));
    for (int slot = 0; slot < SlotCount; ++slot) {
        const git::TreeSlotEntry &entry = (*entries)[size_t(slot)];
        SlotRead &read = out.reads[size_t(slot)];
        read.slot = slot;
        read.path = out.commit.shortId + QLatin1Char(':') + QString::fromUtf8(o.slotPath(slot));
        read.presence = entry.presence;
        read.isSymlink = entry.isSymlink;
        if (entry.presence != SlotPresence::Present)
            continue;
        const QString what = QStringLiteral("%1 at commit %2 (blob %3)")
                                 .arg(slotName(slot),
                                      out.commit.shortId,
                                      QString::fromLatin1(git::hex(entry.blobId)));
        Result<QByteArray> bytes = o.readBlob(entry.blobId,
                                              what,
                                              options.limit,
                                              &read.size,
                                              options.sha256 ? &read.sha256 : nullptr);
        if (!bytes)
            return R::failure(bytes.error());
        read.bytes = std::move(bytes).value();
        read.complete = read.bytes.size() == read.size;
        read.statSize = read.size;

        // Would a checkout write other bytes (a filter from .gitattributes or
        // core.autocrlf)? Only said, never applied: the soul is the blob's.
        git_blob *blob = nullptr;
        if (git_blob_lookup(&blob, o.get(), &entry.blobId) != 0)
            continue;
        const git::Blob ownedBlob(blob);
        git_filter_list *filters = nullptr;
        if (git_filter_list_load(&filters,
                                 o.get(),
                                 blob,
                                 o.slotPath(slot).constData(),
                                 GIT_FILTER_TO_WORKTREE,
                                 GIT_FILTER_DEFAULT)
                == 0
            && filters) {
            const git::FilterList ownedFilters(filters);
            git::Buffer filtered;
            if (git_filter_list_apply_to_blob(&filtered.buf, filters, blob) == 0) {
                out.checkoutConverts[size_t(slot)]
                    = QByteArrayView(filtered.buf.ptr, qsizetype(filtered.buf.size))
                      != QByteArrayView(static_cast<const char *>(git_blob_rawcontent(blob)),
                                        qsizetype(git_blob_rawsize(blob)));
            }
        }
    }
    return out;
}

Result<SoulFigures> PersonaHistory::measure(const HistoryCommit &commit, HistoryCounts &counts) const
{
    using R = Result<SoulFigures>;
    const Owner &o = *m_owner;
    using Sections = std::array<std::optional<HistoryCounts::Section>, SlotCount>;
    // Looked up, or read and counted once.
    const auto sectionsOf = [&](const HistorySlots &slots, Sections &out) -> QString {
        for (int slot = 0; slot < SlotCount; ++slot) {
            const HistorySlot &s = slots[size_t(slot)];
            if (!s.present() || !counts.rule().composes(slot))
                continue;
            if (std::optional<HistoryCounts::Section> known = counts.find(slot, s.blobId)) {
                out[size_t(slot)] = known;
                continue;
            }
            git_oid id;
            if (git_oid_fromstr(&id, s.blobId.constData()) != 0)
                return QStringLiteral("%1: %2 is not a blob id.")
                    .arg(slotName(slot), QString::fromLatin1(s.blobId));
            const Result<QByteArray> bytes = o.readBlob(id,
                                                        QStringLiteral("%1 at commit %2 (blob %3)")
                                                            .arg(slotName(slot),
                                                                 commit.shortId,
                                                                 QString::fromLatin1(s.blobId)),
                                                        counts.rule().readLimit());
            if (!bytes)
                return bytes.error();
            const HistoryCounts::Section section = counts.countSection(slot, *bytes);
            counts.insert(slot, s.blobId, section);
            out[size_t(slot)] = section;
        }
        return {};
    };
    Sections now;
    Sections was;
    if (const QString error = sectionsOf(commit.slots, now); !error.isEmpty())
        return R::failure(error);
    if (const QString error = sectionsOf(commit.before, was); !error.isEmpty())
        return R::failure(error);
    SoulFigures figures;
    counts.addSoul(figures, now);
    for (int slot = 0; slot < SlotCount; ++slot) {
        const qint64 after = now[size_t(slot)] ? now[size_t(slot)]->tokens : 0;
        const qint64 before = was[size_t(slot)] ? was[size_t(slot)]->tokens : 0;
        figures.tokenChange[size_t(slot)] = after - before;
    }
    return figures;
}

} // namespace soul
