#include "personatestsession.h"

#include "compose/composer.h"
#include "history/commitreader.h"
#include "persona/snapshotfile.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"

#include <QFile>
#include <QFileInfo>

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

PersonaTestSession::PersonaTestSession(QObject *parent)
    : QObject(parent)
{
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
    if (!path.isEmpty()) {
        m_watcher.addPath(QFileInfo(path).absolutePath());
        if (QFileInfo::exists(path))
            m_watcher.addPath(path);
    }
    readFile();
}

void PersonaTestSession::readFile()
{
    m_valid = false;
    m_file = PersonaTestFile();
    if (m_path.isEmpty()) {
        m_error.clear();
        Q_EMIT fileChanged();
        return;
    }
    QFile file(m_path);
    m_readable = file.open(QIODevice::ReadOnly);
    if (!m_readable) {
        m_bytes.clear();
        m_error = QStringLiteral("Cannot read the persona tests %1: %2. Write a %3 beside the "
                                 "persona, or choose another file.")
                      .arg(m_path, file.errorString(), QLatin1String(PersonaTestsFileName));
        Q_EMIT fileChanged();
        return;
    }
    m_bytes = file.readAll();
    Result<PersonaTestFile> parsed = parsePersonaTests(m_bytes, m_path);
    m_valid = parsed.ok();
    m_error = parsed ? QString() : parsed.error();
    if (parsed)
        m_file = std::move(parsed).value();
    Q_EMIT fileChanged();
}

void PersonaTestSession::fileMayHaveChanged()
{
    if (m_path.isEmpty())
        return;
    if (QFileInfo::exists(m_path) && !m_watcher.files().contains(m_path))
        m_watcher.addPath(m_path);
    QFile file(m_path);
    const bool readable = file.open(QIODevice::ReadOnly);
    if (readable == m_readable && (readable ? file.readAll() : QByteArray()) == m_bytes)
        return;
    readFile();
    if (!m_valid) {
        stop();
        return;
    }
    if (m_hasRun) {
        if (const Status status = run(); !status)
            Q_EMIT runFailed(status.error());
    }
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

Status PersonaTestSession::run()
{
    if (!m_valid)
        return Status::failure(
            m_error.isEmpty() ? QStringLiteral("Choose a persona tests file first.") : m_error);
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
}

bool PersonaTestSession::isRunning() const
{
    return m_live.isRunning() || m_against.isRunning();
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
