#include "personatestsession.h"

#include "compose/composer.h"
#include "history/commitreader.h"
#include "persona/snapshotfile.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"

#include <QFileInfo>
#include <QtConcurrent>

#include <utility>

namespace soul {

Result<QByteArray> snapshotSoulBytes(const QString &soulPath)
{
    const Result<QString> runtimeId = snapshotRuntimeId(soulPath);
    if (!runtimeId)
        return Result<QByteArray>::failure(runtimeId.error());
    if (runtimeId->isEmpty()) {
        const Result<LoadedSnapshot> snapshot = loadSnapshot(soulPath);
        if (!snapshot)
            return Result<QByteArray>::failure(snapshot.error());
        return snapshot->soul.soul;
    }
    const Result<RuntimeSnapshot> snapshot = loadRuntimeSnapshot(soulPath);
    if (!snapshot)
        return Result<QByteArray>::failure(snapshot.error());
    return snapshot->text.toUtf8();
}

Result<QByteArray> revisionSoulBytes(const QString &dir,
                                     const QString &rev,
                                     const QString &runtimeId)
{
    const Runtime *runtime = RuntimeRegistry::instance().find(runtimeId);
    if (runtime && !runtime->readsRevisions()) {
        return Result<QByteArray>::failure(
            QStringLiteral("%1 does not compose a commit of a persona's history: test against a "
                           "snapshot frozen with it instead, or choose a runtime that reads "
                           "commits.")
                .arg(runtime->displayName()));
    }
    // The same reading and composing as soulc's --rev and the History panel.
    const ComposeRule *rule = runtime ? runtime->sectionRule() : nullptr;
    const Result<SectionedSoul> soul = revisionSoul(dir,
                                                    rev,
                                                    rule ? *rule : ComposeRule::toolnexus());
    if (!soul)
        return Result<QByteArray>::failure(soul.error());
    return soul->soul;
}

PersonaTestsLoad loadPersonaTestsFile(const QString &path)
{
    PersonaTestsLoad load;
    load.path = path;
    const Result<QByteArray> bytes = readPersonaTestsBytes(path);
    if (!bytes) {
        load.error = QStringLiteral("%1 Write a %2 beside the persona, or choose another file.")
                         .arg(bytes.error(), QLatin1String(PersonaTestsFileName));
        return load;
    }
    load.readable = true;
    load.bytes = *bytes;
    Result<PersonaTestFile> parsed = parsePersonaTests(load.bytes, path);
    if (parsed)
        load.file = std::move(parsed).value();
    else
        load.error = parsed.error();
    return load;
}

PersonaTestSession::PersonaTestSession(QObject *parent)
    : QObject(parent)
{
    connect(&m_loader,
            &QFutureWatcher<PersonaTestsLoad>::finished,
            this,
            &PersonaTestSession::takeLoad);
    // An editor that saves by renaming a new file over the old one ends the
    // watch on the file: the folder's change brings it back.
    connect(&m_watcher,
            &QFileSystemWatcher::fileChanged,
            this,
            &PersonaTestSession::fileMayHaveChanged);
    connect(&m_watcher,
            &QFileSystemWatcher::directoryChanged,
            this,
            &PersonaTestSession::fileMayHaveChanged);
    for (SuiteRun *side : {&m_live, &m_against}) {
        connect(side, &SuiteRun::started, this, &PersonaTestSession::started);
        connect(side, &SuiteRun::caseChanged, this, &PersonaTestSession::caseChanged);
        connect(side, &SuiteRun::finished, this, &PersonaTestSession::runEnded);
    }
}

void PersonaTestSession::setTestsPath(const QString &path)
{
    stop();
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_path = path;
    m_hasRun = false;
    m_bytes.clear();
    // Nothing of the file before answers for this one while it is read,
    // and the hosts confirmed for it are not this one's.
    m_settings.keyEndpoints.clear();
    m_valid = false;
    m_readable = false;
    m_file = PersonaTestFile();
    m_error.clear();
    if (!path.isEmpty()) {
        m_watcher.addPath(QFileInfo(path).absolutePath());
        if (QFileInfo::exists(path))
            m_watcher.addPath(path);
    }
    readFile(Load::Chosen);
}

void PersonaTestSession::readFile(Load why)
{
    if (m_path.isEmpty()) {
        m_pendingLoad.reset();
        m_loading = m_loader.isRunning();
        m_valid = false;
        m_readable = false;
        m_file = PersonaTestFile();
        m_error.clear();
        Q_EMIT fileChanged();
        return;
    }
    if (m_loader.isRunning()) {
        // The file chosen anew outweighs a change on disk.
        if (!m_pendingLoad || why == Load::Chosen)
            m_pendingLoad = why;
        return;
    }
    m_runningLoad = why;
    m_loading = true;
    m_loader.setFuture(QtConcurrent::run(loadPersonaTestsFile, m_path));
}

void PersonaTestSession::takeLoad()
{
    PersonaTestsLoad load = m_loader.result();
    m_loading = false;
    if (m_path.isEmpty()) {
        if (std::exchange(m_runWhenRead, false))
            runEnded();
        return;
    }
    if (m_pendingLoad || load.path != m_path) {
        const Load next = m_pendingLoad.value_or(Load::Chosen);
        m_pendingLoad.reset();
        readFile(next);
        return;
    }
    const bool changed = m_runningLoad == Load::Changed;
    const bool same = changed && load.readable == m_readable && load.bytes == m_bytes;
    if (!same) {
        m_readable = load.readable;
        m_bytes = std::move(load.bytes);
        m_valid = load.file.has_value();
        m_error = std::move(load.error);
        m_file = m_valid ? std::move(*load.file) : PersonaTestFile();
        Q_EMIT fileChanged();
    }
    if (std::exchange(m_runWhenRead, false)) {
        if (const Status status = run(); !status)
            Q_EMIT runFailed(status.error());
        runEnded(); // when nothing started, the wait is over
        return;
    }
    if (!changed || same)
        return;
    if (!m_valid) {
        stop();
        return;
    }
    if (m_hasRun) {
        if (const Status status = run(); !status)
            Q_EMIT runFailed(status.error());
    }
}

void PersonaTestSession::fileMayHaveChanged()
{
    if (m_path.isEmpty())
        return;
    if (QFileInfo::exists(m_path) && !m_watcher.files().contains(m_path))
        m_watcher.addPath(m_path);
    readFile(Load::Changed);
}

void PersonaTestSession::setAgainst(const QByteArray &soul, const QString &label)
{
    m_againstSoul = soul;
    m_againstLabel = label;
}

void PersonaTestSession::clearAgainst()
{
    m_against.stop();
    m_againstSoul.clear();
    m_againstLabel.clear();
}

std::optional<QUrl> PersonaTestSession::unconfirmedKeyDestination() const
{
    return soul::unconfirmedKeyDestination(m_file, m_settings);
}

Status PersonaTestSession::run()
{
    if (m_loading) {
        m_runWhenRead = true;
        if (!m_wasRunning) {
            m_wasRunning = true;
            Q_EMIT runningChanged(true);
        }
        return {};
    }
    if (!m_valid)
        return Status::failure(
            m_error.isEmpty() ? QStringLiteral("Choose a persona tests file first.") : m_error);
    if (const QString problem = keyTextProblem(m_settings.apiKey); !problem.isEmpty())
        return Status::failure(problem);
    // Each host the file names, once: a no sends nothing.
    while (const std::optional<QUrl> unconfirmed = unconfirmedKeyDestination()) {
        if (!m_confirmKey || !m_confirmKey(*unconfirmed)) {
            return Status::failure(
                QStringLiteral("Nothing was sent: %1 sends requests to %2, which you did not "
                               "give, and the API key in OPENAI_API_KEY goes there only once you "
                               "confirm it. Run again and answer Yes, or type the endpoint "
                               "yourself.")
                    .arg(m_path, unconfirmed->toDisplayString()));
        }
        m_settings.keyEndpoints.append(*unconfirmed);
    }
    const QByteArray soul = m_soulSource ? m_soulSource() : QByteArray();
    const Status live = m_live.start(m_file, soul, m_settings);
    if (!live)
        return live;
    m_hasRun = true;
    if (hasAgainst()) {
        if (const Status other = m_against.start(m_file, m_againstSoul, m_settings); !other)
            return other;
    }
    if (!m_wasRunning && isRunning()) {
        m_wasRunning = true;
        Q_EMIT runningChanged(true);
    } else if (!isRunning()) {
        runEnded();
    }
    return {};
}

void PersonaTestSession::stop()
{
    m_live.stop();
    m_against.stop();
    if (std::exchange(m_runWhenRead, false))
        runEnded();
}

bool PersonaTestSession::isRunning() const
{
    return m_runWhenRead || m_live.isRunning() || m_against.isRunning();
}

void PersonaTestSession::runEnded()
{
    if (isRunning())
        return;
    m_wasRunning = false;
    Q_EMIT runningChanged(false);
}

PersonaTestSession::Difference PersonaTestSession::difference(int position) const
{
    Difference difference;
    if (!hasAgainst() || position < 0 || position >= m_live.cases().size()
        || position >= m_against.cases().size())
        return difference;
    const SuiteCase &a = m_live.cases().at(position);
    const SuiteCase &b = m_against.cases().at(position);
    if (a.state != SuiteCase::State::Done || b.state != SuiteCase::State::Done)
        return difference;
    difference.verdict = a.passedRuns() != b.passedRuns();
    difference.output = !a.runs.isEmpty() && !b.runs.isEmpty()
                        && a.runs.first().reply.content != b.runs.first().reply.content;
    return difference;
}

} // namespace soul
