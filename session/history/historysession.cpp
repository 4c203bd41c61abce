#include "history/historysession.h"

#include "diff/linediff.h"
#include "documentcontroller.h"
#include "history/commitreader.h"
#include "history/historycounts.h"
#include "history/historylistmodel.h"
#include "history/historyloader.h"
#include "history/repositorywatcher.h"
#include "persona/editortext.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "prompter.h"
#include "registry/runtimeregistry.h"

#include <QCryptographicHash>
#include <QDir>
#include <QSettings>
#include <QTemporaryDir>
#include <QtConcurrent>

namespace soul {

namespace {

const QString OnSaveKey = QStringLiteral("history/checkpointOnSave");

} // namespace

HistorySession::HistorySession(PersonaModel *model,
                               DocumentController *documents,
                               SoulTokenCounter *tokens,
                               Prompter *prompter,
                               QSettings *settings,
                               QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_documents(documents)
    , m_tokens(tokens)
    , m_prompter(prompter)
    , m_settings(settings)
    , m_rows(new HistoryListModel(this))
    , m_loader(new HistoryLoader(m_rows, this))
    , m_repository(new RepositoryWatcher(this))
{
    setObjectName(QStringLiteral("historySession"));
    forgetHead();
    m_onSaveTimer.setSingleShot(true);
    m_onSaveTimer.setInterval(0);
    connect(&m_onSaveTimer, &QTimer::timeout, this, [this] { checkpointQuietly(); });
    m_changedTimer.setSingleShot(true);
    m_changedTimer.setInterval(200);
    connect(&m_changedTimer, &QTimer::timeout, this, &HistorySession::showChanged);

    connect(m_model, &PersonaModel::opened, this, [this] {
        m_stale = true;
        if (!m_followed)
            return;
        load();
        m_repository->watch(m_model->directory());
        readHeadFiles();
    });
    connect(m_model, &PersonaModel::closed, this, [this] {
        m_repository->stop();
        m_soulWatcher.cancel();
        m_headWatcher.cancel();
        forgetHead();
        showChanged();
        m_loader->clear();
        m_stale = true;
    });
    connect(m_tokens, &SoulTokenCounter::encodingChanged, this, [this] {
        // The first tokenizer's arrival after an open changes nothing here.
        if (encoding() == m_loadedEncoding)
            return;
        m_stale = true;
        load();
    });
    // Every save is recorded, followed or not, so the notes know what this
    // program wrote; the persona followed may also make a checkpoint.
    connect(m_documents, &DocumentController::slotSaved, this, &HistorySession::rememberSaved);
    connect(m_documents, &DocumentController::slotSaved, this, [this] {
        if (m_followed && checkpointOnSave())
            m_onSaveTimer.start();
    });
    // The panes say which files differ from the last checkpoint: HEAD's
    // files are read on open and after each checkpoint or reload, the disk
    // is compared after each change.
    connect(m_model, &PersonaModel::slotStateChanged, this, [this] {
        if (m_followed)
            m_changedTimer.start();
    });

    // A commit made outside the window (git commit in a shell, the agent),
    // a branch switched, a reset: the list and the panes' notes follow. The
    // commit selected stays selected, if HEAD still reaches it.
    connect(m_repository, &RepositoryWatcher::headChanged, this, [this] {
        m_reselect = m_selected;
        readHeadFiles();
        refresh();
    });
    connect(m_rows,
            &QAbstractItemModel::rowsInserted,
            this,
            [this](const QModelIndex &, int first, int last) {
                if (m_reselect.isEmpty())
                    return;
                for (int row = first; row <= last; ++row) {
                    if (m_rows->commit(row).id == m_reselect) {
                        m_reselect.clear();
                        Q_EMIT reselectRequested(row);
                        return;
                    }
                }
            });
    connect(m_loader, &HistoryLoader::finished, this, [this] { m_reselect.clear(); });
    connect(m_loader, &HistoryLoader::statusChanged, this, &HistorySession::statusChanged);
    connect(m_loader, &HistoryLoader::figuresChanged, this, &HistorySession::statusChanged);
    connect(m_rows, &QAbstractItemModel::rowsInserted, this, &HistorySession::statusChanged);
    // HEAD's files are read again after each load of the list.
    connect(m_loader, &HistoryLoader::finished, this, &HistorySession::readHeadFiles);

    connect(&m_headWatcher, &QFutureWatcher<Result<HeadFiles>>::finished, this, [this] {
        if (m_headWatcher.isCanceled())
            return;
        const Result<HeadFiles> head = m_headWatcher.result();
        forgetHead();
        if (head && !head->none) {
            m_head = *head;
            m_headRead = true;
        }
        showChanged();
    });
    connect(&m_snapshotWatcher, &QFutureWatcher<Result<QString>>::finished, this, [this] {
        if (m_snapshotWatcher.isCanceled())
            return;
        const Result<QString> written = m_snapshotWatcher.result();
        if (!written)
            m_prompter->showError(tr("Could not compare"), written.error());
        else
            Q_EMIT compareRequested(*written);
    });
    connect(&m_diffWatcher, &QFutureWatcher<Result<QString>>::finished, this, [this] {
        if (m_diffWatcher.isCanceled())
            return;
        const Result<QString> diff = m_diffWatcher.result();
        if (!diff)
            m_prompter->showError(tr("Could not compare"), diff.error());
        else
            m_prompter->showCompare(m_diffTitle, *diff);
    });
    connect(&m_soulWatcher, &QFutureWatcher<Result<CommitSoul>>::finished, this, [this] {
        if (m_soulWatcher.isCanceled())
            return;
        const Result<CommitSoul> soul = m_soulWatcher.result();
        if (!soul)
            Q_EMIT soulFailed(soul.error());
        else
            Q_EMIT soulRead(*soul);
    });
}

// The workers hold only values and shared counts: they are not waited for.
HistorySession::~HistorySession() = default;

void HistorySession::forgetHead()
{
    m_head = HeadFiles{};
    m_head.none = true;
    m_headRead = false;
}

void HistorySession::setFollowed(bool followed)
{
    if (followed == m_followed)
        return;
    m_followed = followed;
    // Nothing asked for before arrives now.
    m_soulWatcher.cancel();
    m_headWatcher.cancel();
    m_snapshotWatcher.cancel();
    m_diffWatcher.cancel();
    m_onSaveTimer.stop();
    m_changedTimer.stop();
    forgetHead();
    m_changed.clear();
    m_stale = true;
    m_reselect.clear();
    if (!followed) {
        m_repository->stop();
        return;
    }
    // The panes are told their notes afresh, even empty ones.
    m_notes.fill(QStringLiteral("\n"));
    if (m_model->isOpen()) {
        m_repository->watch(m_model->directory());
        load();
        readHeadFiles();
    } else {
        m_repository->stop();
        m_loader->clear();
    }
    showChanged();
    Q_EMIT statusChanged();
}

void HistorySession::setListShown(bool shown)
{
    m_listShown = shown;
    if (shown)
        load();
}

QString HistorySession::encoding() const
{
    // HistoryCounts counts with a built-in encoding; a tokenizer.json's
    // history is counted in o200k_base.
    const QString name = m_tokens->encodingName();
    if (name == QLatin1String("o200k_base") || name == QLatin1String("cl100k_base"))
        return name;
    return QStringLiteral("o200k_base");
}

void HistorySession::refresh()
{
    m_stale = true;
    load();
}

void HistorySession::load()
{
    // Read only while shown: a hidden list costs nothing.
    if (!m_followed || !m_listShown || !m_model->isOpen() || !m_stale)
        return;
    m_stale = false;
    if (!layoutRefusal().isEmpty()) {
        m_loader->clear();
        Q_EMIT statusChanged();
        return;
    }
    m_soulWatcher.cancel();
    m_selected.clear();
    Q_EMIT soulFailed({});
    m_loadedEncoding = encoding();
    m_loader->load(m_model->directory(), m_loadedEncoding, m_model->rule());
}

HistoryStatus HistorySession::status() const
{
    return layoutRefusal().isEmpty() ? m_loader->status() : HistoryStatus::Failed;
}

QString HistorySession::errorText() const
{
    const QString refused = layoutRefusal();
    return refused.isEmpty() ? m_loader->errorText() : refused;
}

QString HistorySession::busyText() const
{
    return layoutRefusal().isEmpty() ? m_loader->busyText() : QString();
}

QString HistorySession::layoutRefusal() const
{
    const SlotLayout &layout = m_model->layout();
    if (!m_model->isOpen() || layout.isFolder())
        return {};
    // The history is a folder's commits of its slot files by name: in a
    // runtime's home they would be the wrong files, whichever runtime is chosen.
    return tr("The history is of persona folders, and %1 is Hermes's home: its memories are in "
              "memories/ and its project file in %2, which the history would not find. Use git "
              "in those folders directly.")
        .arg(QDir::toNativeSeparators(layout.directory), QDir::toNativeSeparators(layout.project));
}

void HistorySession::readHeadFiles()
{
    if (!m_followed)
        return;
    // A runtime's home: HEAD's files by slot name are not the panes' files.
    if (!m_model->isOpen() || !layoutRefusal().isEmpty()
        || !insideRepository(m_model->directory())) {
        forgetHead();
        showChanged();
        return;
    }
    m_headWatcher.setFuture(QtConcurrent::run(readHead, m_model->directory()));
}

QString HistorySession::checkpointShortId() const
{
    return m_head.revision.commit.shortId;
}

void HistorySession::showChanged()
{
    m_changed.clear();
    if (m_model->isOpen() && m_headRead) {
        for (int k = 0; k < SlotCount; ++k) {
            const SlotRead &head = m_head.revision.reads[size_t(k)];
            const SlotState &disk = m_model->slot(k);
            const bool inHead = head.presence == SlotPresence::Present;
            if (inHead != disk.diskPresent() || (inHead && head.bytes != disk.diskBytes))
                m_changed.append(k);
        }
    }
    for (int k = 0; k < SlotCount; ++k) {
        QString note;
        if (m_changed.contains(k)) {
            note = tr("Changed since the last checkpoint (%1), %2. <a href=\"diff\">Show the "
                      "diff</a>")
                       .arg(m_head.revision.commit.shortId,
                            savedHere(k) ? tr("saved in Soul Studio")
                                         : tr("by something other than Soul Studio"));
        }
        if (note != m_notes[size_t(k)]) {
            m_notes[size_t(k)] = note;
            Q_EMIT checkpointNoteChanged(k, note);
        }
    }
    Q_EMIT changedSinceCheckpointChanged();
}

void HistorySession::diffWithCheckpoint(int slot)
{
    if (!m_model->isOpen() || !m_headRead || slot < 0 || slot >= SlotCount)
        return;
    const auto lines = [](const QByteArray &bytes) {
        return toEditorText(bytes).text.split(QLatin1Char('\n'));
    };
    const SlotRead &head = m_head.revision.reads[size_t(slot)];
    const SlotState &disk = m_model->slot(slot);
    const QString name = slotName(slot);
    m_prompter
        ->showCompare(tr("%1: the last checkpoint against the file on disk").arg(name),
                      lineDiff(tr("%1 (checkpoint %2)").arg(name, m_head.revision.commit.shortId),
                               head.presence == SlotPresence::Present ? lines(head.bytes)
                                                                      : QStringList(),
                               savedHere(slot)
                                   ? tr("%1 (on disk, saved in Soul Studio)").arg(name)
                                   : tr("%1 (on disk, changed outside Soul Studio)").arg(name),
                               disk.diskPresent() ? lines(disk.diskBytes) : QStringList()));
}

void HistorySession::selectRow(int row)
{
    if (row < 0 || row >= m_rows->count() || !m_model->isOpen())
        return;
    m_selected = m_rows->commit(row).id;
    m_soulWatcher.cancel();
    if (m_profile.sectioned()) {
        m_soulWatcher.setFuture(
            QtConcurrent::run(composeCommit, m_model->directory(), m_selected, m_model->rule()));
    } else {
        m_soulWatcher.setFuture(
            QtConcurrent::run(composeCommitAs, m_model->directory(), m_selected, m_profile));
    }
}

void HistorySession::setRuntimeProfile(const RuntimeProfile &profile)
{
    if (profile == m_profile)
        return;
    m_profile = profile;
    if (const int row = m_rows->rowOf(m_selected); row >= 0 && m_followed)
        selectRow(row);
}

void HistorySession::compareCommits(int older, int newer)
{
    if (!m_model->isOpen() || older < 0 || older >= m_rows->count() || newer < 0
        || newer >= m_rows->count())
        return;
    m_diffTitle = tr("The soul at %1 against %2, as %3 composes it")
                      .arg(m_rows->commit(older).shortId,
                           m_rows->commit(newer).shortId,
                           m_profile.sectioned()
                               ? RuntimeRegistry::instance().defaultRuntime()->displayName()
                               : m_profile.displayName());
    m_diffWatcher.cancel();
    m_diffWatcher.setFuture(QtConcurrent::run(diffCommits,
                                              m_model->directory(),
                                              m_rows->commit(older).id,
                                              m_rows->commit(newer).id,
                                              m_profile,
                                              m_model->rule(),
                                              encoding()));
}

void HistorySession::compareWith(int row)
{
    if (!m_model->isOpen() || row < 0 || row >= m_rows->count())
        return;
    if (!m_snapshots || !m_snapshots->isValid())
        m_snapshots = std::make_unique<QTemporaryDir>();
    if (!m_snapshots->isValid()) {
        m_prompter->showError(tr("Could not compare"),
                              tr("No temporary folder could be made for the commit's soul (%1).")
                                  .arg(m_snapshots->errorString()));
        return;
    }
    Q_EMIT statusMessage(tr("Reading %1 to compare…").arg(m_rows->commit(row).shortId));
    m_snapshotWatcher.setFuture(QtConcurrent::run(writeCommitSnapshot,
                                                  m_model->directory(),
                                                  m_rows->commit(row).id,
                                                  m_model->rule(),
                                                  encoding(),
                                                  m_snapshots->path()));
}

bool HistorySession::checkpointOnSave() const
{
    return m_settings->value(OnSaveKey, false).toBool();
}

void HistorySession::setCheckpointOnSave(bool on)
{
    m_settings->setValue(OnSaveKey, on);
}

bool HistorySession::createRepository()
{
    if (!m_model->isOpen())
        return false;
    const Status made = PersonaHistory::initRepository(m_model->directory());
    if (!made) {
        m_prompter->showError(tr("Could not create a repository"), made.error());
        return false;
    }
    Q_EMIT statusMessage(tr("Created a git repository in %1. Make a checkpoint to keep this "
                            "version of the soul.")
                             .arg(QDir::toNativeSeparators(m_model->directory())));
    refresh();
    if (m_followed)
        m_repository->watch(m_model->directory());
    return true;
}

bool HistorySession::checkpoint()
{
    return makeCheckpoint(Asking::Yes);
}

bool HistorySession::checkpointQuietly()
{
    return makeCheckpoint(Asking::No);
}

Result<CheckpointPlan> HistorySession::planCheckpoint() const
{
    if (!m_model->isOpen())
        return Result<CheckpointPlan>::failure(tr("No persona folder is open."));
    const QString dir = m_model->directory();
    // A checkpoint commits the folder's slot files by their names; a
    // runtime's layout keeps them elsewhere (Hermes's memories/, a project).
    if (!m_model->layout().isFolder()) {
        return Result<CheckpointPlan>::failure(
            tr("checkpoints are made of persona folders, and %1 keeps its files in "
               "other places too (%2). Use git in those folders directly.")
                .arg(QDir::toNativeSeparators(dir),
                     QDir::toNativeSeparators(m_model->layout().project)));
    }
    if (!insideRepository(dir)) {
        return Result<CheckpointPlan>::failure(
            tr("%1 is in no git repository; make a checkpoint from the File menu to create one.")
                .arg(QDir::toNativeSeparators(dir)));
    }
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened)
        return Result<CheckpointPlan>::failure(opened.error());
    const PersonaHistory &history = **opened;
    if (const QString busy = history.busyState(); !busy.isEmpty())
        return Result<CheckpointPlan>::failure(busy);
    const std::shared_ptr<HistoryCounts> counts = m_loader->counts()->get(encoding(),
                                                                          m_model->rule());
    return history.planCheckpoint(*counts);
}

QString HistorySession::checkpointMessage(const CheckpointPlan &plan) const
{
    // The plan's message, a part a slot, each saying whether this program
    // wrote the file or something else did.
    QStringList parts = plan.message.split(QStringLiteral("; "));
    if (parts.size() == plan.slots.size()) {
        for (qsizetype i = 0; i < parts.size(); ++i) {
            // A file added or removed says so already.
            const CheckpointSlot &planned = plan.slots.at(i);
            if (planned.change == SlotChange::Modified && !savedHere(planned.slot))
                parts[i] += tr(" (changed outside Soul Studio)");
        }
    }
    return parts.join(QStringLiteral("; "));
}

Result<Checkpoint> HistorySession::commitCheckpoint(const QString &message)
{
    if (!m_model->isOpen())
        return Result<Checkpoint>::failure(tr("No persona folder is open."));
    const std::shared_ptr<HistoryCounts> counts = m_loader->counts()->get(encoding(),
                                                                          m_model->rule());
    Result<Checkpoint> made = checkpointFolder(m_model->directory(), message, *counts);
    if (!made || made->nothingToCommit)
        return made;
    checkpointMadeHere(*made);
    return made;
}

void HistorySession::checkpointMadeHere(const Checkpoint &made)
{
    Q_EMIT checkpointMade(made.shortId, made.message);
    m_repository->headMovedHere(made.id);
    readHeadFiles();
    refresh();
}

bool HistorySession::makeCheckpoint(Asking asking)
{
    if (!m_model->isOpen())
        return false;
    const QString dir = m_model->directory();
    const auto fail = [&](const QString &error) {
        if (asking == Asking::Yes)
            m_prompter->showError(tr("Checkpoint failed"), error);
        else
            Q_EMIT statusMessage(tr("No checkpoint after the save: %1").arg(error));
        return false;
    };
    if (asking == Asking::Yes && m_model->layout().isFolder() && !insideRepository(dir)) {
        if (!m_prompter->askCreateRepository(dir, tr("A checkpoint is a git commit.")))
            return false;
        if (!createRepository())
            return false;
    }
    const Result<CheckpointPlan> plan = planCheckpoint();
    if (!plan)
        return fail(plan.error());
    if (plan->isEmpty()) {
        if (asking == Asking::Yes) {
            Q_EMIT statusMessage(tr("Nothing to checkpoint: the slot files of %1 are as the last "
                                    "commit has them.")
                                     .arg(QDir(dir).dirName()));
        }
        return false;
    }
    QString message = checkpointMessage(*plan);
    if (asking == Asking::Yes) {
        QString note;
        const QList<int> unsaved = m_model->unsavedSlots();
        if (!unsaved.isEmpty()) {
            QStringList names;
            for (int k : unsaved)
                names.append(slotName(k));
            note = tr("Unsaved edits in %1 are not part of it: a checkpoint commits the files "
                      "as they are on disk.")
                       .arg(names.join(QStringLiteral(", ")));
        }
        message = m_prompter->askCheckpointMessage(message, note);
        if (message.isNull())
            return false;
    }
    const Result<Checkpoint> made = commitCheckpoint(message);
    if (!made)
        return fail(made.error());
    if (made->nothingToCommit) {
        Q_EMIT statusMessage(tr("Nothing to checkpoint: the slot files are as the last commit "
                                "has them."));
        return false;
    }
    const QString summary = made->message.section(QLatin1Char('\n'), 0, 0);
    Q_EMIT statusMessage(tr("Checkpoint %1: %2").arg(made->shortId, summary));
    return true;
}

QString HistorySession::savedKey(int slot) const
{
    // By folder, so two personas do not share records; hashed, since a path
    // is not a settings key.
    const QByteArray folder = QCryptographicHash::hash(m_model->directory().toUtf8(),
                                                       QCryptographicHash::Sha1)
                                  .toHex()
                                  .left(16);
    return QStringLiteral("history/saved/%1/%2").arg(QLatin1String(folder), slotName(slot));
}

void HistorySession::rememberSaved(int slot)
{
    if (m_model->isOpen())
        m_settings->setValue(savedKey(slot), m_model->slot(slot).diskSha256);
}

bool HistorySession::savedHere(int slot) const
{
    if (!m_model->isOpen())
        return false;
    const QByteArray disk = m_model->slot(slot).diskSha256;
    return !disk.isEmpty() && m_settings->value(savedKey(slot)).toByteArray() == disk;
}

bool HistorySession::restoreBytes(const PersonaRevision &revision, int slot, QStringList &problems)
{
    const SlotRead &read = revision.reads[size_t(slot)];
    if (read.presence != SlotPresence::Present) {
        problems.append(tr("%1 did not exist at %2; it is left as it is.")
                            .arg(slotName(slot), revision.commit.shortId));
        return false;
    }
    const Status replaced = m_model->replaceBuffer(slot, read.bytes);
    if (!replaced) {
        problems.append(replaced.error());
        return false;
    }
    return true;
}

Result<PersonaRevision> HistorySession::readToRestore(const HistoryCommit &commit,
                                                      const QString &title) const
{
    Result<PersonaRevision> revision = readCommit(m_model->directory(),
                                                  QString::fromLatin1(commit.id),
                                                  ReadOptions(-1));
    if (!revision)
        m_prompter->showError(title, revision.error());
    return revision;
}

Status HistorySession::restoreFile(int row, int slot)
{
    if (!m_model->isOpen() || row < 0 || row >= m_rows->count() || slot < 0 || slot >= SlotCount)
        return Status::failure(tr("There is no such commit or file to restore."));
    const HistoryCommit &commit = m_rows->commit(row);
    const QString title = tr("Could not restore %1").arg(slotName(slot));
    const Result<PersonaRevision> revision = readToRestore(commit, title);
    if (!revision)
        return Status::failure(revision.error());
    QStringList problems;
    if (!restoreBytes(*revision, slot, problems)) {
        const QString error = problems.join(QLatin1Char(' '));
        m_prompter->showError(title, error);
        return Status::failure(error);
    }
    Q_EMIT statusMessage(tr("%1 is as it was at %2, unsaved: Ctrl+Z in its pane takes it back, "
                            "and nothing is written until you save.")
                             .arg(slotName(slot), commit.shortId));
    return {};
}

Status HistorySession::restoreAll(int row)
{
    if (!m_model->isOpen() || row < 0 || row >= m_rows->count())
        return Status::failure(tr("There is no such commit to restore."));
    const HistoryCommit &commit = m_rows->commit(row);
    const QString title = tr("Could not restore the persona");
    const Result<PersonaRevision> revision = readToRestore(commit, title);
    if (!revision)
        return Status::failure(revision.error());
    QStringList problems;
    QStringList restored;
    for (int k = 0; k < SlotCount; ++k) {
        // A file the commit did not have is kept, unless it had a buffer
        // there: never delete here.
        if (revision->reads[size_t(k)].presence != SlotPresence::Present
            && !m_model->slot(k).bufferPresent)
            continue;
        if (restoreBytes(*revision, k, problems))
            restored.append(slotName(k));
    }
    if (restored.isEmpty()) {
        const QString error = problems.join(QLatin1Char(' '));
        m_prompter->showError(title, error);
        return Status::failure(error);
    }
    QString text = tr("Restored %1 as at %2, unsaved: Ctrl+Z in a pane takes its file back, and "
                      "nothing is written until you save.")
                       .arg(restored.join(QStringLiteral(", ")), commit.shortId);
    if (!problems.isEmpty())
        text += QLatin1Char(' ') + problems.join(QLatin1Char(' '));
    Q_EMIT statusMessage(text);
    return {};
}

} // namespace soul
