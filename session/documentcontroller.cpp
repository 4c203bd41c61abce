#include "documentcontroller.h"

#include "compose/contract.h"
#include "diff/linediff.h"
#include "disk/slotlayout.h"
#include "disk/slotsaver.h"
#include "persona/editortext.h"
#include "persona/personamodel.h"
#include "prompter.h"
#include "recentplace.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

namespace soul {

namespace {

const QString LastKey = QStringLiteral("lastDirectory");
// Set when the last place open was a runtime's home (lastDirectory) run in it
// (the key's name is kept from earlier versions).
const QString LastProjectKey = QStringLiteral("lastHermesProject");
// And the project pane's file then.
const QString LastProjectFileKey = QStringLiteral("lastHermesProjectFile");
// The runtime whose home was open last; absent: the registry's homeRuntime().
const QString LastRuntimeKey = QStringLiteral("lastHomeRuntime");
constexpr int RecentMax = 10;

// A diff compares what the panes would show, line by line.
QStringList paneLines(const QByteArray &bytes)
{
    return toEditorText(bytes).text.split(QLatin1Char('\n'));
}

} // namespace

DocumentController::DocumentController(PersonaModel *model,
                                       Prompter *prompter,
                                       QSettings *settings,
                                       QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_prompter(prompter)
    , m_settings(settings)
{
    m_follow.setSingleShot(true);
    m_follow.setInterval(0);
    connect(&m_follow, &QTimer::timeout, this, &DocumentController::followProjectFile);
    // A save or a change on disk may make another project file win; typing
    // leaves the pane unsaved, and the pane says so instead (the preview's note).
    connect(m_model, &PersonaModel::slotStateChanged, this, [this] {
        if (m_model->isOpen() && !m_model->layout().home.isEmpty() && !m_model->hasUnsaved())
            m_follow.start();
    });
    // A rival project file made while nothing else changes.
    connect(&m_projectFolders, &QFileSystemWatcher::directoryChanged, this, [this] {
        watchProjectFolders();
        m_follow.start();
        Q_EMIT projectFilesChanged();
    });
    connect(m_model, &PersonaModel::opened, this, &DocumentController::watchProjectFolders);
    connect(m_model, &PersonaModel::closed, this, &DocumentController::watchProjectFolders);
    connect(m_model, &PersonaModel::opened, this, &DocumentController::listProjectFiles);
    connect(m_model, &PersonaModel::closed, this, &DocumentController::listProjectFiles);
}

void DocumentController::setSetupFile(const QString &name)
{
    // A runtime's own file is in a persona folder, not in a layout's places
    // (the model reads a document only there); its recovery copies go with
    // the slots', under the same folder lock.
    if (!name.isEmpty())
        m_setupDocument = m_model->addDocument(name);
}

bool DocumentController::open(const QString &dir)
{
    if (dir.isEmpty())
        return false;
    const QString absolute = QFileInfo(dir).absoluteFilePath();
    // The folder itself, not a runtime's layout that starts there.
    if (m_model->isOpen() && absolute == m_model->directory() && m_model->layout().isFolder())
        return true;
    if (!replaceWith(SlotLayout::folder(absolute)))
        return false;
    remember(RecentPlace::folder(absolute));
    reportOpened(QDir::toNativeSeparators(absolute));
    return true;
}

bool DocumentController::openLayout(const SlotLayout &layout)
{
    if (m_model->isOpen() && m_model->layout() == layout)
        return true;
    if (!replaceWith(layout))
        return false;
    if (!layout.home.isEmpty() && !layout.project.isEmpty())
        rememberHome(layout);
    reportOpened(layout.project.isEmpty() ? QDir::toNativeSeparators(layout.directory)
                                          : tr("%1 with the project %2")
                                                .arg(QDir::toNativeSeparators(layout.directory),
                                                     QDir::toNativeSeparators(layout.project)));
    return true;
}

bool DocumentController::replaceWith(const SlotLayout &layout)
{
    if (!close())
        return false;
    if (Status opened = m_model->open(layout); !opened) {
        m_prompter->showError(tr("Cannot open the folder"), opened.error());
        return false;
    }
    return true;
}

void DocumentController::followProjectFile()
{
    listProjectFiles();
    const SlotLayout layout = m_model->layout();
    // Recovered text waits for the user's answer in this layout's panes.
    if (!m_model->isOpen() || layout.home.isEmpty() || !unsavedFiles().isEmpty()
        || !recoveredFiles().isEmpty())
        return;
    const auto agents = size_t(slotIndex(u"AGENTS.md"));
    // The file shown stays while it is one of the block's.
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    if (!runtime)
        return;
    const Result<SlotLayout> now = runtime->homeLayout(layout.home,
                                                       layout.project,
                                                       layout.labels.at(agents));
    // By the files only: a path written another way must not reopen it again and again.
    if (!now || now.value().paths == layout.paths)
        return;
    if (!replaceWith(now.value()))
        return;
    rememberHome(now.value());
    Q_EMIT statusMessage(
        tr("%1 now reads %2 instead of %3 for the project context; the pane "
           "shows %2.")
            .arg(runtime->shortName(), now.value().labels.at(agents), layout.labels.at(agents)));
}

void DocumentController::listProjectFiles()
{
    const SlotLayout &layout = m_model->layout();
    QStringList files;
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    if (runtime && m_model->isOpen() && !layout.home.isEmpty() && !layout.project.isEmpty()) {
        if (const Result<QStringList> read = runtime->homeProjectFiles(layout.home, layout.project))
            files = read.value();
    }
    if (files == m_projectFiles)
        return;
    m_projectFiles = files;
    Q_EMIT projectFilesListed();
}

bool DocumentController::showProjectFile(const QString &label)
{
    const SlotLayout layout = m_model->layout();
    if (!m_model->isOpen() || layout.home.isEmpty() || layout.project.isEmpty())
        return false;
    const auto agents = size_t(slotIndex(u"AGENTS.md"));
    const QString shown = layout.labels.at(agents);
    if (label == shown)
        return true;
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    if (!runtime)
        return false;
    if (!m_projectFiles.contains(label)) {
        Q_EMIT statusMessage(tr("%1 is not part of %2's project context now, so the project "
                                "pane stays at %3.")
                                 .arg(label, runtime->shortName(), shown));
        return false;
    }
    // Another file in the pane means closing this one's buffer: never with
    // text that would go.
    if (const QStringList unsaved = unsavedFiles(); !unsaved.isEmpty()) {
        Q_EMIT statusMessage(tr("The project pane stays at %1: there are unsaved changes in %2. "
                                "Save or revert them first, then choose %3 again.")
                                 .arg(shown, unsaved.join(QStringLiteral(", ")), label));
        return false;
    }
    if (const QStringList recovered = recoveredFiles(); !recovered.isEmpty()) {
        Q_EMIT statusMessage(tr("The project pane stays at %1 while the recovered text of %2 "
                                "waits: restore or discard it first, then choose %3 again.")
                                 .arg(shown, recovered.join(QStringLiteral(", ")), label));
        return false;
    }
    const Result<SlotLayout> chosen = runtime->homeLayout(layout.home, layout.project, label);
    if (!chosen) {
        m_prompter->showError(tr("Cannot show %1").arg(label), chosen.error());
        return false;
    }
    if (chosen.value().labels.at(agents) != label) {
        // Emptied or removed since the list was read.
        listProjectFiles();
        Q_EMIT statusMessage(tr("%1 is not part of %2's project context any more, so the "
                                "project pane stays at %3.")
                                 .arg(label, runtime->shortName(), shown));
        return false;
    }
    if (!replaceWith(chosen.value()))
        return false;
    rememberHome(chosen.value());
    Q_EMIT statusMessage(tr("The project pane shows %1, one of the files %2 joins in the "
                            "project context.")
                             .arg(label, runtime->shortName()));
    return true;
}

void DocumentController::watchProjectFolders()
{
    const SlotLayout &layout = m_model->layout();
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    const QStringList folders = runtime && m_model->isOpen() && !layout.home.isEmpty()
                                        && !layout.project.isEmpty()
                                    ? runtime->homeProjectFolders(layout.project)
                                    : QStringList();
    QStringList watched = m_projectFolders.directories();
    QStringList wanted = folders;
    watched.sort();
    wanted.sort();
    if (watched == wanted)
        return;
    if (!m_projectFolders.directories().isEmpty())
        m_projectFolders.removePaths(m_projectFolders.directories());
    if (!folders.isEmpty())
        m_projectFolders.addPaths(folders);
}

void DocumentController::reportOpened(const QString &what)
{
    const QStringList recovered = recoveredFiles();
    if (recovered.isEmpty()) {
        Q_EMIT statusMessage(tr("Opened %1").arg(what));
    } else {
        Q_EMIT statusMessage(tr("Opened %1. Unsaved text of %2 was recovered; its pane offers to "
                                "restore, compare or discard it.")
                                 .arg(what, recovered.join(QStringLiteral(", "))));
    }
}

bool DocumentController::openWithDialog()
{
    const QString start = m_model->isOpen() ? m_model->directory() : lastDirectory();
    const QString dir = m_prompter->askOpenDirectory(start.isEmpty() ? QDir::homePath() : start);
    return dir.isEmpty() ? false : open(dir);
}

bool DocumentController::close()
{
    if (!m_model->isOpen())
        return true;
    if (const QStringList names = unsavedFiles(); !names.isEmpty()) {
        switch (m_prompter->askUnsaved(names)) {
        case Prompter::UnsavedAnswer::Cancel:
            return false;
        case Prompter::UnsavedAnswer::SaveAll:
            if (!saveAll())
                return false;
            break;
        case Prompter::UnsavedAnswer::Discard:
            break;
        }
    }
    m_model->close();
    return true;
}

QStringList DocumentController::unsavedFiles() const
{
    QStringList names;
    if (!m_model->isOpen())
        return names;
    for (int k : m_model->unsavedDocuments())
        names.append(m_model->slotLabel(k));
    return names;
}

QStringList DocumentController::recoveredFiles() const
{
    QStringList names;
    if (!m_model->isOpen())
        return names;
    for (int k = 0; k < m_model->documentCount(); ++k) {
        if (m_model->hasRecovery(k))
            names.append(m_model->slotLabel(k));
    }
    return names;
}

void DocumentController::setGroupSave(std::function<bool(int)> claims, std::function<bool(int)> save)
{
    m_groupClaims = std::move(claims);
    m_groupSave = std::move(save);
}

bool DocumentController::save(int slot)
{
    if (!confirmChangedBytes(slot))
        return false;
    if (savesGroup(slot))
        return m_groupSave(slot);
    if (!saveFile(
            m_model->slotLabel(slot),
            [this, slot](SaveMode mode) { return m_model->save(slot, mode); },
            [this, slot] { compare(slot); }))
        return false;
    // A slot's file: what a checkpoint commits.
    if (slot < SlotCount)
        Q_EMIT slotSaved(slot);
    return true;
}

bool DocumentController::saveFile(const QString &name,
                                  const std::function<SaveResult(SaveMode)> &save,
                                  const std::function<void()> &compare)
{
    SaveResult saved = save(SaveMode::CheckDisk);
    while (saved.isStale()) {
        switch (m_prompter->askStaleSave(name, saved.error(), saved.staleReason())) {
        case Prompter::StaleAnswer::Compare:
            compare();
            continue; // and ask again
        case Prompter::StaleAnswer::Cancel:
            Q_EMIT statusMessage(
                (saved.staleReason() == StaleReason::DeletedOnDisk
                     ? tr("Did not save %1: it was deleted on disk. Your text is still unsaved.")
                     : tr("Did not save %1: it changed on disk. Your text is still unsaved."))
                    .arg(name));
            return false;
        case Prompter::StaleAnswer::Overwrite:
            saved = save(SaveMode::Overwrite);
            break;
        }
    }
    // Saved, and the pane is clean; that the disk did not confirm it may
    // still matter (a failing device), so it is said, not logged.
    return reportWrite(saved,
                       tr("Could not save %1").arg(name),
                       tr("Saved %1, not confirmed by the disk").arg(name),
                       tr("Saved %1").arg(name));
}

bool DocumentController::saveAll()
{
    const QList<int> dirty = m_model->unsavedDocuments();
    for (int k : dirty) {
        if (!save(k))
            return false;
    }
    if (!dirty.isEmpty())
        Q_EMIT statusMessage(tr("Saved all"));
    return true;
}

bool DocumentController::reportWrite(const Status &written,
                                     const QString &failed,
                                     const QString &unconfirmed,
                                     const QString &done)
{
    if (!written) {
        m_prompter->showError(failed, written.error());
        return false;
    }
    if (!written.warning().isEmpty())
        m_prompter->showError(unconfirmed, written.warning());
    Q_EMIT statusMessage(done);
    return true;
}

bool DocumentController::finishSetup()
{
    const int doc = m_setupDocument;
    if (doc < 0 || !m_model->isDocumentOpen(doc) || !m_model->slot(doc).diskPresent())
        return false;
    if (!m_prompter->askFinishSetup(m_model->slotFilePath(doc)))
        return false;
    const Status done = m_model->deleteFile(doc);
    if (!done) {
        m_prompter->showError(tr("Could not finish setup"), done.error());
        return false;
    }
    Q_EMIT statusMessage(tr("Deleted %1: setup is finished (Restore %1 or Undo brings it back)")
                             .arg(m_model->slotLabel(doc)));
    return true;
}

bool DocumentController::restoreSetupFile()
{
    if (m_setupDocument < 0)
        return false;
    const QString name = m_model->slotLabel(m_setupDocument);
    return reportWrite(m_model->restoreDeleted(m_setupDocument),
                       tr("Could not restore %1").arg(name),
                       tr("Restored %1, not confirmed by the disk").arg(name),
                       tr("Restored %1").arg(name));
}

bool DocumentController::saveAllElsewhere()
{
    if (!m_model->isOpen())
        return false;
    // The lost folder's parent is usually where the renamed one went.
    const QString parent = QFileInfo(m_model->directory()).absolutePath();
    const QString dir = m_prompter->askSaveAllDirectory(
        QFileInfo(parent).isDir() ? parent : QDir::homePath());
    if (dir.isEmpty())
        return false;
    // Every document goes, the runtime's own file too, unsaved text and all,
    // and never over a file that is there (PersonaModel::saveAllTo()).
    const Status saved = m_model->saveAllTo(dir);
    if (!saved) {
        m_prompter->showError(tr("Could not save elsewhere"), saved.error());
        return false;
    }
    const QString &warning = saved.warning();
    if (!warning.isEmpty())
        m_prompter->showError(tr("Saved elsewhere, not confirmed by the disk"), warning);
    remember(RecentPlace::folder(m_model->directory()));
    Q_EMIT statusMessage(
        tr("Saved every pane into %1").arg(QDir::toNativeSeparators(m_model->directory())));
    return true;
}

bool DocumentController::revert(int slot)
{
    const SlotState &s = m_model->slot(slot);
    // Without a file the pane folds away: nothing is left to undo in. A pane
    // with lines cut for display loads the text again, which starts its undo
    // history anew (a line counts as long in bytes here, at least as many as
    // its characters, so this asks at least whenever the pane would cut).
    const bool paneReloads = hasLineLongerThan(s.bufferBytes, LongLineLength)
                             || hasLineLongerThan(s.diskBytes, LongLineLength);
    if (!mayDrop(m_model->slotLabel(slot),
                 s.dirty && s.bufferPresent && (!s.diskPresent() || paneReloads)))
        return false;
    m_model->revert(slot);
    return true;
}

bool DocumentController::mayDrop(const QString &name, bool forGood)
{
    return !forGood || m_prompter->askDropUnsaved(name);
}

void DocumentController::explainNothingToSave(int slot)
{
    const SlotState &s = m_model->slot(slot);
    explainNothingToSave(m_model->slotLabel(slot),
                         m_model->hasRecovery(slot),
                         s.readOnly ? std::optional(s.readOnlyReason) : std::nullopt);
}

void DocumentController::explainNothingToSave(const QString &name,
                                              bool recovered,
                                              const std::optional<QString> &readOnlyReason)
{
    if (recovered) {
        Q_EMIT statusMessage(tr("%1 is read-only until you restore or discard its recovered "
                                "text, on the bar above it.")
                                 .arg(name));
    } else if (readOnlyReason) {
        Q_EMIT statusMessage(
            tr("%1 is read-only, so there is nothing to save: %2").arg(name, *readOnlyReason));
    } else {
        Q_EMIT statusMessage(tr("%1 has no unsaved changes.").arg(name));
    }
}

bool DocumentController::renameCaseVariant(int slot)
{
    const QString variant = m_model->caseVariant(slot);
    if (Status renamed = m_model->renameCaseVariant(slot); !renamed) {
        m_prompter->showError(tr("Could not rename"), renamed.error());
        return false;
    }
    Q_EMIT statusMessage(tr("Renamed %1 to %2").arg(variant, slotName(slot)));
    return true;
}

bool DocumentController::confirmChangedBytes(int slot)
{
    const SlotState &s = m_model->slot(slot);
    if (!s.dirty || !s.editingAnyway())
        return true;
    if (m_prompter->askSaveChangedBytes(m_model->slotLabel(slot), s.obstacles))
        return true;
    Q_EMIT statusMessage(tr("%1 was not saved; its edits are kept.").arg(m_model->slotLabel(slot)));
    return false;
}

void DocumentController::create(int slot)
{
    m_model->createSlot(slot, slotTemplate(slot));
}

void DocumentController::compare(int slot)
{
    const SlotState &s = m_model->slot(slot);
    showEditsCompare(m_model->slotLabel(slot),
                     s.diskPresent() ? std::optional(s.diskBytes) : std::nullopt,
                     s.bufferPresent ? std::optional(s.bufferBytes) : std::nullopt);
}

void DocumentController::showEditsCompare(const QString &name,
                                          const std::optional<QByteArray> &disk,
                                          const std::optional<QByteArray> &buffer)
{
    m_prompter->showCompare(tr("%1: on disk against your edits").arg(name),
                            lineDiff(tr("%1 (on disk)").arg(name),
                                     disk ? paneLines(*disk) : QStringList(),
                                     tr("%1 (your edits)").arg(name),
                                     buffer ? paneLines(*buffer) : QStringList()));
}

void DocumentController::compareRecovery(int slot)
{
    const std::optional<RecoveredSlot> recovered = m_model->recovery(slot);
    if (!recovered)
        return;
    const SlotState &s = m_model->slot(slot);
    showRecoveryCompare(m_model->slotLabel(slot),
                        s.diskPresent() ? std::optional(s.diskBytes) : std::nullopt,
                        recovered->bytes);
}

void DocumentController::showRecoveryCompare(const QString &name,
                                             const std::optional<QByteArray> &disk,
                                             const QByteArray &recovered)
{
    m_prompter->showCompare(tr("%1: on disk against the recovered text").arg(name),
                            lineDiff(tr("%1 (on disk)").arg(name),
                                     disk ? paneLines(*disk) : QStringList(),
                                     tr("%1 (recovered)").arg(name),
                                     paneLines(recovered)));
}

bool DocumentController::newPersona()
{
    const Prompter::NewPersona answer = m_prompter->askNewPersona(QDir::homePath());
    if (answer.directory.isEmpty())
        return false;
    return createPersona(answer.directory, answer.slots);
}

bool DocumentController::createPersona(const QString &dir, const QList<int> &slots)
{
    const QDir folder(dir);
    if (!folder.exists() && !QDir().mkpath(dir)) {
        m_prompter->showError(tr("New persona"),
                              tr("Could not create the folder %1. Check that its parent folder "
                                 "is writable.")
                                  .arg(QDir::toNativeSeparators(dir)));
        return false;
    }
    for (int k : slots) {
        if (QFileInfo::exists(folder.filePath(slotName(k)))) {
            m_prompter->showError(tr("New persona"),
                                  tr("%1 already holds %2. Pick an empty folder, or open this "
                                     "one instead.")
                                      .arg(QDir::toNativeSeparators(dir), slotName(k)));
            return false;
        }
    }
    QString warnings;
    for (int k : slots) {
        // Never: a file another program puts there after the look above stays.
        const Status s = saveSlotFile(folder.filePath(slotName(k)),
                                      slotTemplate(k),
                                      Overwrite::Never);
        if (!s) {
            m_prompter->showError(tr("New persona"), s.error());
            return false;
        }
        warnings = joinedWarnings(warnings, s.warning());
    }
    if (!warnings.isEmpty())
        m_prompter->showError(tr("New persona, not confirmed by the disk"), warnings);
    return open(dir);
}

QList<RecentPlace> DocumentController::recentPlaces() const
{
    return readRecentPlaces(*m_settings);
}

void DocumentController::clearRecent()
{
    writeRecentPlaces(*m_settings, {});
    Q_EMIT recentChanged();
}

RecentPlace DocumentController::lastPlace() const
{
    return {m_settings->value(LastKey).toString(),
            m_settings->value(LastProjectKey).toString(),
            m_settings->value(LastProjectFileKey).toString(),
            m_settings->value(LastRuntimeKey).toString()};
}

QString DocumentController::lastDirectory() const
{
    return m_settings->value(LastKey).toString();
}

QString DocumentController::exampleDirectory()
{
    const QStringList candidates = {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/soulstudio/examples/ava"),
        QStringLiteral(SOULSTUDIO_EXAMPLES_DIR "/ava"),
    };
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isDir())
            return QDir::cleanPath(candidate);
    }
    return {};
}

QByteArray DocumentController::slotTemplate(int slot)
{
    QFile file(QStringLiteral(":/soulstudio/templates/%1").arg(slotName(slot)));
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray("# ") + slotName(slot).toUtf8() + "\n";
    return file.readAll();
}

void DocumentController::rememberHome(const SlotLayout &layout)
{
    const Runtime *runtime = RuntimeRegistry::instance().homeRuntime();
    remember(RecentPlace::home(layout.home,
                               layout.project,
                               layout.labels.at(size_t(slotIndex(u"AGENTS.md"))),
                               runtime ? runtime->id() : QString()));
}

void DocumentController::remember(const RecentPlace &place)
{
    QList<RecentPlace> recent = recentPlaces();
    recent.removeAll(place);
    recent.prepend(place);
    while (recent.size() > RecentMax)
        recent.removeLast();
    writeRecentPlaces(*m_settings, recent);
    m_settings->setValue(LastKey, place.directory);
    if (place.isHome())
        m_settings->setValue(LastProjectKey, place.project);
    else
        m_settings->remove(LastProjectKey);
    if (!place.runtime.isEmpty())
        m_settings->setValue(LastRuntimeKey, place.runtime);
    else
        m_settings->remove(LastRuntimeKey);
    if (!place.projectFile.isEmpty())
        m_settings->setValue(LastProjectFileKey, place.projectFile);
    else
        m_settings->remove(LastProjectFileKey);
    Q_EMIT recentChanged();
}

} // namespace soul
