#include "skillssession.h"

#include "compose/contract.h"
#include "disk/atomicwrite.h"
#include "disk/guardedread.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "registry/runtimeprofile.h"
#include "runtime/runtime.h"
#include "runtimepreview.h"
#include "tokens/tokenizer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QRegularExpression>
#include <QtConcurrent>

namespace soul {

namespace {

// A skill folder's name Soul Studio makes: 1 to 64 of letters, digits, '.',
// '_' and '-', not starting with '.' (OpenClaw and Hermes both take it).
QString skillNameProblem(const QString &name)
{
    static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$"));
    if (allowed.match(name).hasMatch())
        return {};
    return QStringLiteral("\"%1\" cannot name a skill: use 1 to 64 letters, digits, '.', '_' or "
                          "'-', not starting with '.'.")
        .arg(name);
}

// `text` as a YAML double-quoted scalar.
QString yamlQuoted(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            out += QLatin1Char(' ');
        else
            out += c;
    }
    return out + QLatin1Char('"');
}

// At most this many paths are watched; a larger skills tree is read again
// when the runtime or the buffers change, and on Refresh.
constexpr int MaxWatchedPaths = 2000;

} // namespace

struct SkillsSession::Job
{
    const Runtime *runtime = nullptr;
    SkillsRequest request;
    std::shared_ptr<const Tokenizer> tokenizer; // null: load it on the worker
};

struct SkillsSession::Output
{
    SkillsList list;
    QString error;
    qint64 tokens = -1;
    std::shared_ptr<const Tokenizer> tokenizer;
};

SkillsSession::SkillsSession(PersonaSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(DelayMs);
    connect(&m_timer, &QTimer::timeout, this, &SkillsSession::start);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &SkillsSession::schedule);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &SkillsSession::schedule);
    connect(session->runtimePreview(),
            &RuntimePreview::profileChanged,
            this,
            &SkillsSession::schedule);
    connect(session->model(), &PersonaModel::opened, this, &SkillsSession::schedule);
    connect(session->model(), &PersonaModel::closed, this, &SkillsSession::schedule);
    // Typing in a skill's pane: its unsaved text stands for the file.
    connect(session->model(), &PersonaModel::slotStateChanged, this, [this](int doc) {
        if (doc < SlotCount)
            return;
        const QHash<QString, QByteArray> now = allBuffers();
        if (now != m_documentBuffers) {
            m_documentBuffers = now;
            schedule();
        }
    });
    schedule();
}

SkillsSession::~SkillsSession() = default;

bool SkillsSession::available() const
{
    const Runtime *runtime = m_session->runtimeProfile().runtime;
    return runtime && runtime->listsSkills() && m_session->model()->isOpen();
}

void SkillsSession::setBuffers(const QHash<QString, QByteArray> &buffers)
{
    if (buffers == m_buffers)
        return;
    m_buffers = buffers;
    schedule();
}

void SkillsSession::schedule()
{
    m_timer.start();
}

void SkillsSession::refreshNow()
{
    m_timer.stop();
    start();
}

QHash<QString, QByteArray> SkillsSession::allBuffers() const
{
    QHash<QString, QByteArray> buffers = m_buffers;
    const PersonaModel *model = m_session->model();
    const QString folder = skillsFolder() + QLatin1Char('/');
    for (int doc = SlotCount; doc < model->documentCount(); ++doc) {
        const SlotState &state = model->slot(doc);
        const QString path = model->slotFilePath(doc);
        if (state.dirty && state.bufferPresent && path.startsWith(folder))
            buffers.insert(path, state.bufferBytes);
    }
    return buffers;
}

QString SkillsSession::skillsFolder() const
{
    const SlotLayout &layout = m_session->model()->layout();
    const QString root = layout.home.isEmpty() ? m_session->model()->directory() : layout.home;
    return root.isEmpty() ? QString() : QDir(root).filePath(QStringLiteral("skills"));
}

void SkillsSession::start()
{
    if (m_running) {
        m_again = true;
        return;
    }
    const quint64 generation = ++m_requested;
    if (!available()) {
        m_list = {};
        m_error.clear();
        m_promptTokens = -1;
        m_shown = generation;
        watch();
        Q_EMIT changed();
        return;
    }
    Job job;
    job.runtime = m_session->runtimeProfile().runtime;
    const SlotLayout &layout = m_session->model()->layout();
    job.request.input.home = layout.home;
    job.request.input.project = layout.project;
    job.request.input.dir = layout.home.isEmpty() ? m_session->model()->directory()
                                                  : layout.project;
    job.request.input.buffers = allBuffers();
    job.request.agentId = m_session->agent().id;
    job.request.workingDirectory = QDir::currentPath();
    job.request.accountHome = QDir::homePath();
    job.tokenizer = m_tokenizer;
    m_running = true;
    QPointer<SkillsSession> self(this);
    auto *watcher = new QFutureWatcher<std::shared_ptr<Output>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<Output>>::finished, this, [=] {
        watcher->deleteLater();
        if (self)
            finished(generation, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([job] {
        auto output = std::make_shared<Output>();
        const Result<SkillsList> list = job.runtime->skills(job.request);
        if (!list) {
            output->error = list.error();
            return output;
        }
        output->list = *list;
        output->tokenizer = job.tokenizer ? job.tokenizer : Tokenizer::builtin(QString());
        if (output->tokenizer)
            output->tokens = output->tokenizer->count(output->list.prompt.toUtf8());
        return output;
    }));
}

void SkillsSession::finished(quint64 generation, const std::shared_ptr<Output> &output)
{
    m_running = false;
    if (output->tokenizer)
        m_tokenizer = output->tokenizer;
    if (m_again || generation != m_requested) {
        m_again = false;
        start();
        return;
    }
    m_list = output->list;
    m_error = output->error;
    m_promptTokens = output->tokens;
    m_shown = generation;
    watch();
    Q_EMIT changed();
}

void SkillsSession::watch()
{
    QStringList paths;
    const QString folder = skillsFolder();
    if (available() && !folder.isEmpty()) {
        const QString root = QFileInfo(folder).absolutePath();
        paths << root << folder;
        for (const SkillItem &skill : std::as_const(m_list.skills)) {
            if (paths.size() + 2 > MaxWatchedPaths)
                break;
            if (!skill.filePath.startsWith(root + QLatin1Char('/')))
                continue;
            paths << QFileInfo(skill.filePath).absolutePath() << skill.filePath;
        }
    }
    const QStringList watched = m_watcher.files() + m_watcher.directories();
    if (!watched.isEmpty())
        m_watcher.removePaths(watched);
    QStringList present;
    for (const QString &path : std::as_const(paths)) {
        if (QFileInfo::exists(path) && !present.contains(path))
            present << path;
    }
    if (!present.isEmpty())
        m_watcher.addPaths(present);
}

Result<QString> SkillsSession::createSkill(const QString &name, const QString &description)
{
    if (const QString why = skillNameProblem(name); !why.isEmpty())
        return Result<QString>::failure(why);
    const QString folder = skillsFolder();
    if (folder.isEmpty())
        return Result<QString>::failure(QStringLiteral("No persona is open."));
    const QString skillFolder = QDir(folder).filePath(name);
    if (QFileInfo::exists(skillFolder) || QFileInfo(skillFolder).isSymLink()) {
        return Result<QString>::failure(
            QStringLiteral("%1 is there already. Choose another name, or open that skill.")
                .arg(skillFolder));
    }
    if (!QDir().mkpath(skillFolder)) {
        return Result<QString>::failure(
            QStringLiteral("Could not make the folder %1. Check that you may write there.")
                .arg(skillFolder));
    }
    const QString file = QDir(skillFolder).filePath(QStringLiteral("SKILL.md"));
    const QString text = QStringLiteral("---\nname: %1\ndescription: %2\n---\n\n# %1\n\n")
                             .arg(name, yamlQuoted(description.trimmed()));
    const Status written = writeFileAtomically(file, text.toUtf8(), Overwrite::Never);
    if (!written) {
        QDir().rmdir(skillFolder);
        return Result<QString>::failure(written.error());
    }
    refreshNow();
    return file;
}

Result<QString> SkillsSession::renameSkill(const QString &skillFile, const QString &name)
{
    if (const QString why = skillNameProblem(name); !why.isEmpty())
        return Result<QString>::failure(why);
    const QString folder = skillsFolder();
    const QString oldFolder = QFileInfo(skillFile).absolutePath();
    if (folder.isEmpty() || QFileInfo(oldFolder).absolutePath() != QDir::cleanPath(folder)) {
        return Result<QString>::failure(
            QStringLiteral("%1 is not one of this persona's skills (in %2); rename it where it "
                           "comes from.")
                .arg(skillFile, folder));
    }
    if (allBuffers().contains(skillFile)) {
        return Result<QString>::failure(
            QStringLiteral("%1 has unsaved text. Save or revert it, then rename the skill.")
                .arg(skillFile));
    }
    const QString oldName = QFileInfo(oldFolder).fileName();
    const QString newFolder = QDir(folder).filePath(name);
    if (QFileInfo::exists(newFolder) || QFileInfo(newFolder).isSymLink()) {
        return Result<QString>::failure(
            QStringLiteral("%1 is there already. Choose another name.").arg(newFolder));
    }
    // The frontmatter's name follows the folder when it was the folder's.
    const QString newFile = QDir(newFolder).filePath(QStringLiteral("SKILL.md"));
    const Result<QByteArray> bytes = readGuardedFile(skillFile,
                                                     {QStringLiteral("The skill file"),
                                                      QStringLiteral("a Markdown file"),
                                                      QStringLiteral("Soul Studio"),
                                                      qint64(16) << 20});
    if (!bytes)
        return Result<QString>::failure(bytes.error());
    if (!QDir().rename(oldFolder, newFolder)) {
        return Result<QString>::failure(
            QStringLiteral("Could not rename %1 to %2. Check that you may write there.")
                .arg(oldFolder, newFolder));
    }
    const QByteArray &text = *bytes;
    const QRegularExpression nameLine(QStringLiteral("^name:[ \\t]*[\"']?%1[\"']?[ \\t]*(\\r?)$")
                                          .arg(QRegularExpression::escape(oldName)),
                                      QRegularExpression::MultilineOption);
    QString decoded = QString::fromUtf8(text);
    const QRegularExpressionMatch match = nameLine.match(decoded);
    const bool inFrontmatter = decoded.startsWith(QLatin1String("---")) && match.hasMatch()
                               && decoded.indexOf(QLatin1String("\n---"), 3)
                                      > match.capturedStart();
    if (inFrontmatter && QByteArrayView(text).isValidUtf8()) {
        decoded.replace(match.capturedStart(),
                        match.capturedLength(),
                        QStringLiteral("name: %1%2").arg(name, match.captured(1)));
        const Status written = writeFileAtomically(newFile, decoded.toUtf8());
        if (!written) {
            refreshNow();
            return Result<QString>::failure(
                QStringLiteral("The skill's folder is now %1, but its name in %2 could not be "
                               "changed: %3")
                    .arg(newFolder, newFile, written.error()));
        }
    }
    refreshNow();
    return newFile;
}

Result<QString> SkillsSession::removeSkill(const QString &skillFile)
{
    const QString folder = skillsFolder();
    const QString skillFolder = QFileInfo(skillFile).absolutePath();
    if (folder.isEmpty() || QFileInfo(skillFolder).absolutePath() != QDir::cleanPath(folder)) {
        return Result<QString>::failure(
            QStringLiteral("%1 is not one of this persona's skills (in %2); it is not removed.")
                .arg(skillFile, folder));
    }
    if (allBuffers().contains(skillFile)) {
        return Result<QString>::failure(
            QStringLiteral("%1 has unsaved text. Save or revert it, then remove the skill.")
                .arg(skillFile));
    }
    QString trashed;
    if (!QFile::moveToTrash(skillFolder, &trashed)) {
        return Result<QString>::failure(
            QStringLiteral("Could not move %1 to the trash; nothing was removed. Remove it with "
                           "your file manager.")
                .arg(skillFolder));
    }
    refreshNow();
    return trashed;
}

} // namespace soul
