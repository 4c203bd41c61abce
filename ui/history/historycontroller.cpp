#include "historycontroller.h"

#include "documentcontroller.h"
#include "editortext.h"
#include "history/historycounts.h"
#include "historylistmodel.h"
#include "historyloader.h"
#include "historypanel.h"
#include "historytimeline.h"
#include "linediff.h"
#include "personamodel.h"
#include "prompter.h"
#include "repositorywatcher.h"
#include "runtimeregistry.h"
#include "soultokencounter.h"

#include <QAction>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>
#include <QtConcurrent>

namespace soul {

namespace {

const QString OnSaveKey = QStringLiteral("history/checkpointOnSave");
const QString VisibleKey = QStringLiteral("history/visible");

} // namespace

HistoryController::HistoryController(PersonaModel *model,
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
    setObjectName(QStringLiteral("historyController"));
    m_onSaveTimer.setSingleShot(true);
    m_onSaveTimer.setInterval(0);
    connect(&m_onSaveTimer, &QTimer::timeout, this, [this] { checkpointQuietly(); });
    connectSession();
    // A commit made outside the window (git commit in a shell, the agent),
    // a branch switched, a reset: the list and the panes' notes follow.
    connect(m_repository, &RepositoryWatcher::headChanged, this, [this] {
        // The commit the author was looking at stays selected, if HEAD
        // still reaches it.
        if (m_panel && m_panel->selectedRow() >= 0)
            m_reselect = m_rows->commit(m_panel->selectedRow()).id;
        readHeadFiles();
        refresh();
    });
    connect(m_rows,
            &QAbstractItemModel::rowsInserted,
            this,
            [this](const QModelIndex &, int first, int last) {
                if (m_reselect.isEmpty() || !m_panel)
                    return;
                for (int row = first; row <= last; ++row) {
                    if (m_rows->commit(row).id == m_reselect) {
                        m_reselect.clear();
                        m_panel->selectRow(row);
                        return;
                    }
                }
            });
    connect(m_loader, &HistoryLoader::finished, this, [this] { m_reselect.clear(); });
    connect(m_loader, &HistoryLoader::statusChanged, this, &HistoryController::showStatus);
    connect(m_loader, &HistoryLoader::figuresChanged, this, &HistoryController::showStatus);
    connect(m_rows, &QAbstractItemModel::rowsInserted, this, &HistoryController::showStatus);
    m_changedTimer.setSingleShot(true);
    m_changedTimer.setInterval(200);
    connect(&m_changedTimer, &QTimer::timeout, this, &HistoryController::showChanged);
    // HEAD's files are read again after each load of the list.
    connect(m_loader, &HistoryLoader::finished, this, &HistoryController::readHeadFiles);
    connect(&m_headWatcher, &QFutureWatcher<HeadFiles>::finished, this, [this] {
        if (m_headWatcher.isCanceled())
            return;
        m_head = m_headWatcher.result();
        showChanged();
    });
    connect(&m_snapshotWatcher, &QFutureWatcher<CommitSnapshot>::finished, this, [this] {
        if (m_snapshotWatcher.isCanceled())
            return;
        const CommitSnapshot written = m_snapshotWatcher.result();
        if (!written.error.isEmpty())
            m_prompter->showError(tr("Could not compare"), written.error);
        else
            Q_EMIT compareRequested(written.soulPath);
    });
    connect(&m_diffWatcher, &QFutureWatcher<CommitsDiff>::finished, this, [this] {
        if (m_diffWatcher.isCanceled())
            return;
        const CommitsDiff diff = m_diffWatcher.result();
        if (!diff.error.isEmpty())
            m_prompter->showError(tr("Could not compare"), diff.error);
        else
            m_prompter->showCompare(m_diffTitle, diff.diff);
    });
    connect(&m_soulWatcher, &QFutureWatcher<CommitSoul>::finished, this, [this] {
        if (!m_panel || m_soulWatcher.isCanceled())
            return;
        const CommitSoul soul = m_soulWatcher.result();
        if (!soul.error.isEmpty())
            m_panel->showSoulError(soul.error);
        else
            m_panel->showSoul(soul);
    });
}

HistoryController::~HistoryController() = default;

void HistoryController::connectSession()
{
    connect(m_model, &PersonaModel::opened, this, [this] {
        m_stale = true;
        load();
        m_repository->watch(m_model->directory());
    });
    connect(m_model, &PersonaModel::closed, this, [this] {
        m_repository->stop();
        m_soulWatcher.cancel();
        m_headWatcher.cancel();
        m_head = HeadFiles{};
        m_head.none = true;
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
    // Saves are recorded for every persona of the window (see the window's
    // sessions); this one's may also make a checkpoint.
    connect(m_documents, &DocumentController::slotSaved, this, [this] {
        if (checkpointOnSave())
            m_onSaveTimer.start();
    });
    // The panes say which files differ from the last checkpoint, with the
    // panel shown or not: HEAD's files are read on open and after each
    // checkpoint or reload, the disk is compared after each change.
    connect(m_model, &PersonaModel::slotStateChanged, this, [this] { m_changedTimer.start(); });
    connect(m_model, &PersonaModel::opened, this, &HistoryController::readHeadFiles);
}

void HistoryController::setSession(PersonaModel *model,
                                   DocumentController *documents,
                                   SoulTokenCounter *tokens)
{
    if (model == m_model)
        return;
    for (QObject *before : {static_cast<QObject *>(m_model),
                            static_cast<QObject *>(m_documents),
                            static_cast<QObject *>(m_tokens)})
        disconnect(before, nullptr, this, nullptr);
    // Nothing asked for the persona shown before arrives for this one.
    m_soulWatcher.cancel();
    m_headWatcher.cancel();
    m_snapshotWatcher.cancel();
    m_diffWatcher.cancel();
    m_onSaveTimer.stop();
    m_changedTimer.stop();
    m_model = model;
    m_documents = documents;
    m_tokens = tokens;
    connectSession();
    m_head = HeadFiles{};
    m_head.none = true;
    m_changed.clear();
    // The new persona's panes are told their notes afresh, even empty ones.
    m_notes.fill(QStringLiteral("\n"));
    m_stale = true;
    m_reselect.clear();
    if (m_model->isOpen()) {
        m_repository->watch(m_model->directory());
        load();
        readHeadFiles();
    } else {
        m_repository->stop();
        m_loader->clear();
    }
    showStatus();
}

QString HistoryController::layoutRefusal() const
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

void HistoryController::readHeadFiles()
{
    // A runtime's home: HEAD's files by slot name are not the panes' files.
    if (!m_model->isOpen() || !layoutRefusal().isEmpty()
        || !insideRepository(m_model->directory())) {
        m_head = HeadFiles{};
        m_head.none = true;
        showChanged();
        return;
    }
    m_headWatcher.setFuture(QtConcurrent::run(readHead, m_model->directory()));
}

void HistoryController::showChanged()
{
    m_changed.clear();
    if (m_model->isOpen() && m_head.error.isEmpty() && !m_head.none) {
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
    if (!m_panel)
        return;
    QList<HistoryPanel::Changed> changed;
    for (int k : m_changed)
        changed.append({k, savedHere(k)});
    m_panel->showChanged(changed, m_head.revision.commit.shortId);
}

void HistoryController::diffWithCheckpoint(int slot)
{
    if (!m_model->isOpen() || m_head.none || !m_head.error.isEmpty())
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

void HistoryController::compareCommits(int older, int newer)
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

void HistoryController::compareWith(int row)
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

void HistoryController::focusCommits()
{
    if (m_dock->isHidden()) {
        m_dock->show();
        m_settings->setValue(VisibleKey, true);
    }
    m_dock->raise(); // in front of a dock it is tabbed with
    m_panel->focusCommits();
}

void HistoryController::attach(QMainWindow *window,
                               QAction *toggle,
                               QAction *checkpointAction,
                               QAction *onSave)
{
    m_dock = new QDockWidget(tr("History"), window);
    m_dock->setObjectName(QStringLiteral("historyDock"));
    m_panel = new HistoryPanel(m_rows, m_dock);
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    m_dock->setVisible(m_settings->value(VisibleKey, false).toBool());
    m_panel->timeline()->setCapBytes(m_model->rule().capBytes);

    toggle->setCheckable(true);
    toggle->setChecked(m_dock->isVisible());
    connect(toggle, &QAction::toggled, m_dock, &QDockWidget::setVisible);
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this, toggle](bool visible) {
        // A dock tabbed behind another one is not visible but still open.
        toggle->setChecked(!m_dock->isHidden());
        if (visible)
            load();
    });
    // Remembered when the user shows or hides it (the menu, its key, the
    // dock's close button), not when the window hides it on the way out:
    // by then the settings may be gone.
    connect(toggle, &QAction::triggered, this, [this](bool checked) {
        m_settings->setValue(VisibleKey, checked);
    });
    m_dock->installEventFilter(this);
    connect(checkpointAction, &QAction::triggered, this, [this] { checkpoint(); });
    m_onSave = onSave;
    onSave->setCheckable(true);
    onSave->setChecked(checkpointOnSave());
    connect(onSave, &QAction::toggled, this, &HistoryController::setCheckpointOnSave);

    connect(m_panel, &HistoryPanel::createRepositoryRequested, this, [this] { createRepository(); });
    connect(m_panel, &HistoryPanel::refreshRequested, this, &HistoryController::refresh);
    connect(m_panel, &HistoryPanel::checkpointRequested, this, [this] { checkpoint(); });
    connect(m_panel, &HistoryPanel::rowSelected, this, &HistoryController::showSoulOf);
    connect(m_panel, &HistoryPanel::restoreFileRequested, this, [this](int row, int slot) {
        restoreFile(row, slot);
    });
    connect(m_panel, &HistoryPanel::restoreAllRequested, this, [this](int row) { restoreAll(row); });
    connect(m_panel, &HistoryPanel::compareRequested, this, &HistoryController::compareWith);
    connect(m_panel, &HistoryPanel::compareTwoRequested, this, &HistoryController::compareCommits);
    connect(m_panel, &HistoryPanel::diffRequested, this, &HistoryController::diffWithCheckpoint);
    showStatus();
}

bool HistoryController::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_dock && event->type() == QEvent::Close)
        m_settings->setValue(VisibleKey, false);
    return QObject::eventFilter(watched, event);
}

void HistoryController::setBudget(qint64 tokens)
{
    if (m_panel)
        m_panel->timeline()->setBudget(tokens);
}

QString HistoryController::encoding() const
{
    // HistoryCounts counts with a built-in encoding; a tokenizer.json's
    // history is counted in o200k_base.
    const QString name = m_tokens->encodingName();
    if (name == QLatin1String("o200k_base") || name == QLatin1String("cl100k_base"))
        return name;
    return QStringLiteral("o200k_base");
}

void HistoryController::refresh()
{
    m_stale = true;
    load();
}

void HistoryController::load()
{
    // Read only while shown: a hidden panel costs nothing.
    if (!m_model->isOpen() || !m_panel || !m_panel->isVisible() || !m_stale)
        return;
    m_stale = false;
    if (!layoutRefusal().isEmpty()) {
        m_loader->clear();
        showStatus();
        return;
    }
    m_soulWatcher.cancel();
    m_panel->showSoulError({});
    m_loadedEncoding = encoding();
    m_loader->load(m_model->directory(), m_loadedEncoding, m_model->rule());
}

void HistoryController::showStatus()
{
    if (!m_panel)
        return;
    if (const QString refused = layoutRefusal(); !refused.isEmpty())
        m_panel->showStatus(HistoryStatus::Failed, refused, {});
    else
        m_panel->showStatus(m_loader->status(), m_loader->errorText(), m_loader->busyText());
    m_panel->showProgress(m_rows->measured(), m_rows->count());
    m_panel->setRestoreEnabled(m_model->isOpen());
}

void HistoryController::showSoulOf(int row)
{
    if (row < 0 || row >= m_rows->count() || !m_model->isOpen())
        return;
    m_soulWatcher.cancel();
    if (m_profile.sectioned()) {
        m_soulWatcher.setFuture(QtConcurrent::run(composeCommit,
                                                  m_model->directory(),
                                                  m_rows->commit(row).id,
                                                  m_model->rule()));
    } else {
        m_soulWatcher.setFuture(QtConcurrent::run(composeCommitAs,
                                                  m_model->directory(),
                                                  m_rows->commit(row).id,
                                                  m_profile));
    }
}

void HistoryController::setRuntimeProfile(const RuntimeProfile &profile)
{
    if (profile == m_profile)
        return;
    m_profile = profile;
    if (m_panel && m_panel->selectedRow() >= 0)
        showSoulOf(m_panel->selectedRow());
}

bool HistoryController::checkpointOnSave() const
{
    return m_settings->value(OnSaveKey, false).toBool();
}

void HistoryController::setCheckpointOnSave(bool on)
{
    m_settings->setValue(OnSaveKey, on);
    if (m_onSave && m_onSave->isChecked() != on)
        m_onSave->setChecked(on);
}

bool HistoryController::createRepository()
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
    m_repository->watch(m_model->directory());
    return true;
}

bool HistoryController::checkpoint()
{
    return makeCheckpoint(Asking::Yes);
}

bool HistoryController::checkpointQuietly()
{
    return makeCheckpoint(Asking::No);
}

bool HistoryController::makeCheckpoint(Asking asking)
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
    // A checkpoint commits the folder's slot files by their names; a
    // runtime's layout keeps them elsewhere (Hermes's memories/, a project).
    if (!m_model->layout().isFolder())
        return fail(tr("checkpoints are made of persona folders, and %1 keeps its files in "
                       "other places too (%2). Use git in those folders directly.")
                        .arg(QDir::toNativeSeparators(dir),
                             QDir::toNativeSeparators(m_model->layout().project)));
    if (!insideRepository(dir)) {
        if (asking == Asking::No)
            return fail(tr("%1 is in no git repository; make a checkpoint from the File menu "
                           "to create one.")
                            .arg(QDir::toNativeSeparators(dir)));
        if (!m_prompter->askCreateRepository(dir, tr("A checkpoint is a git commit.")))
            return false;
        if (!createRepository())
            return false;
    }
    Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened)
        return fail(opened.error());
    PersonaHistory &history = **opened;
    if (const QString busy = history.busyState(); !busy.isEmpty())
        return fail(busy);
    const std::shared_ptr<HistoryCounts> counts = m_loader->counts()->get(encoding(),
                                                                          m_model->rule());
    const Result<CheckpointPlan> plan = history.planCheckpoint(*counts);
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
    // The plan's message, a part a slot, each saying whether this window
    // wrote the file or something else did.
    QStringList parts = plan->message.split(QStringLiteral("; "));
    if (parts.size() == plan->slots.size()) {
        for (qsizetype i = 0; i < parts.size(); ++i) {
            // A file added or removed says so already.
            const CheckpointSlot &planned = plan->slots.at(i);
            if (planned.change == SlotChange::Modified && !savedHere(planned.slot))
                parts[i] += tr(" (changed outside Soul Studio)");
        }
    }
    QString message = parts.join(QStringLiteral("; "));
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
    const Result<Checkpoint> made = history.checkpoint(message, *counts);
    if (!made)
        return fail(made.error());
    if (made->nothingToCommit) {
        Q_EMIT statusMessage(tr("Nothing to checkpoint: the slot files are as the last commit "
                                "has them."));
        return false;
    }
    const QString summary = made->message.section(QLatin1Char('\n'), 0, 0);
    Q_EMIT statusMessage(tr("Checkpoint %1: %2").arg(made->shortId, summary));
    Q_EMIT checkpointMade(made->shortId, made->message);
    m_repository->headMovedHere(made->id);
    readHeadFiles();
    refresh();
    return true;
}

QString HistoryController::savedKey(int slot) const
{
    return savedKey(m_model, slot);
}

QString HistoryController::savedKey(const PersonaModel *model, int slot)
{
    // By folder, so two personas do not share records; hashed, since a path
    // is not a settings key.
    const QByteArray folder = QCryptographicHash::hash(model->directory().toUtf8(),
                                                       QCryptographicHash::Sha1)
                                  .toHex()
                                  .left(16);
    return QStringLiteral("history/saved/%1/%2").arg(QLatin1String(folder), slotName(slot));
}

void HistoryController::rememberSaved(const PersonaModel *model, int slot)
{
    if (model->isOpen())
        m_settings->setValue(savedKey(model, slot), model->slot(slot).diskSha256);
}

bool HistoryController::savedHere(int slot) const
{
    if (!m_model->isOpen())
        return false;
    const QByteArray disk = m_model->slot(slot).diskSha256;
    return !disk.isEmpty() && m_settings->value(savedKey(slot)).toByteArray() == disk;
}

bool HistoryController::restoreBytes(const PersonaRevision &revision,
                                     int slot,
                                     QStringList &problems)
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

bool HistoryController::restoreFile(int row, int slot)
{
    if (!m_model->isOpen() || row < 0 || row >= m_rows->count() || slot < 0 || slot >= SlotCount)
        return false;
    const HistoryCommit &commit = m_rows->commit(row);
    const Result<PersonaRevision> revision = readCommit(m_model->directory(), commit.id, -1);
    if (!revision) {
        m_prompter->showError(tr("Could not restore %1").arg(slotName(slot)), revision.error());
        return false;
    }
    QStringList problems;
    if (!restoreBytes(*revision, slot, problems)) {
        m_prompter->showError(tr("Could not restore %1").arg(slotName(slot)),
                              problems.join(QLatin1Char(' ')));
        return false;
    }
    Q_EMIT statusMessage(tr("%1 is as it was at %2, unsaved: Ctrl+Z in its pane takes it back, "
                            "and nothing is written until you save.")
                             .arg(slotName(slot), commit.shortId));
    return true;
}

bool HistoryController::restoreAll(int row)
{
    if (!m_model->isOpen() || row < 0 || row >= m_rows->count())
        return false;
    const HistoryCommit &commit = m_rows->commit(row);
    const Result<PersonaRevision> revision = readCommit(m_model->directory(), commit.id, -1);
    if (!revision) {
        m_prompter->showError(tr("Could not restore the persona"), revision.error());
        return false;
    }
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
    QString text = tr("Restored %1 as at %2, unsaved: Ctrl+Z in a pane takes its file back, and "
                      "nothing is written until you save.")
                       .arg(restored.join(QStringLiteral(", ")), commit.shortId);
    if (!problems.isEmpty())
        text += QLatin1Char(' ') + problems.join(QLatin1Char(' '));
    if (restored.isEmpty()) {
        m_prompter->showError(tr("Could not restore the persona"), problems.join(QLatin1Char(' ')));
        return false;
    }
    Q_EMIT statusMessage(text);
    return true;
}

} // namespace soul
