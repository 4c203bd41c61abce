#include "comparecontroller.h"

#include "personasession.h"

#include "compose/composer.h"
#include "compose/utf8.h"
#include "diff/diffhtml.h"
#include "persona/editortext.h"
#include "persona/inspection.h"
#include "persona/personamodel.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"
#include "persona/soultokencounter.h"
#include "tokens/soultokens.h"
#include "tokens/tokenizer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QLocale>
#include <QMetaObject>
#include <QMutex>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>

#include <atomic>
#include <optional>

#include <time.h>

namespace soul {

// What the worker and the window share. The controller may go away while a
// comparison runs: the worker then finds no receiver and drops its result.
struct CompareController::Shared
{
    QMutex mutex; // one comparison at a time; guards the rest but `latest`
    std::unique_ptr<LivePrefix> prefix;
    // The snapshot just opened: the worker counts its tokens (seconds for a
    // large one) and makes `prefix` of it, so opening never blocks typing.
    std::optional<LiveSections> opened;
    TokenEncoding encoding;
    CompareController *receiver = nullptr;
    std::atomic<quint64> latest{0}; // the newest generation asked for
    quint64 opens = 0;              // snapshots opened; close() leaves one opened after it alone
};

namespace {

// The worker's own CPU time: on a busy machine its wall time is mostly
// waiting for a core.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

QString number(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

} // namespace

// What a comparison of a runtime's text sends back from the worker.
struct CompareController::RuntimeOutcome
{
    QString error; // the runtime could not read the persona
    RuntimeTextComparison comparison;
    QString text; // the runtime's text of the persona
};

CompareController::CompareController(const PersonaModel *model,
                                     const SoulTokenCounter *tokens,
                                     QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_tokens(tokens)
    , m_shared(std::make_shared<Shared>())
{
    m_shared->receiver = this;
    m_pool.setMaxThreadCount(1);
    // The diff waits for a pause in typing: the prefix line is what each key
    // changes at once, the diff of a long section costs more and is read
    // when the author stops.
    m_diffTimer.setSingleShot(true);
    m_diffTimer.setInterval(DiffDelayMs);
    connect(&m_diffTimer, &QTimer::timeout, this, &CompareController::startDiff);
    connect(m_model, &PersonaModel::sectionChanged, this, &CompareController::refresh);
    // A document beside the slots (BOOTSTRAP.md): only a runtime's text reads it.
    connect(m_model, &PersonaModel::slotStateChanged, this, [this](int doc) {
        if (doc >= SlotCount && m_runtime && m_runtime->files().contains(m_model->slotLabel(doc)))
            refresh();
    });
}

CompareController::~CompareController()
{
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->receiver = nullptr;
    }
    m_pool.clear();
    m_pool.waitForDone();
}

bool CompareController::open(const QString &soulPath)
{
    if (m_cache.rules.isEmpty()) {
        // The built-in table, with the author's own rules laid over it; read
        // by the first comparison, not by every session.
        const QString userRules = QDir(QStandardPaths::writableLocation(
                                           QStandardPaths::AppConfigLocation))
                                      .filePath(QStringLiteral("cache-rules.json"));
        Result<CacheTable> table = cacheTableWithOverrides(userRules);
        m_cache = table ? table.value() : builtinCacheTable();
    }
    m_path = soulPath;
    m_error.clear();
    m_hasResult = false;
    m_diffHtml.clear();
    reset();
    // A snapshot of what a runtime injects is compared with that runtime's
    // text; one whose manifest cannot be read fails below, as a soul.
    if (const Result<QString> runtimeId = snapshotRuntimeId(soulPath);
        runtimeId && !runtimeId->isEmpty()) {
        return openRuntime(soulPath);
    }
    // The sections the model holds now: those the snapshot has unchanged
    // are not read into arrays of their own.
    KnownSections known;
    for (int slot = 0; slot < SlotCount; ++slot) {
        for (const SoulView view : {SoulView::Unsaved, SoulView::OnDisk}) {
            if (const std::optional<QByteArray> section = m_model->section(slot, view))
                known[size_t(slot)].append(*section);
        }
    }
    Result<SnapshotSections> loaded = loadSnapshotSections(soulPath, known);
    if (!loaded) {
        m_error = loaded.error();
        Q_EMIT updated();
        return false;
    }
    Result<TokenEncoding> encoding = tokenEncoding({});
    if (!encoding) {
        m_error = encoding.error();
        Q_EMIT updated();
        return false;
    }
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->opens = ++m_opens;
        m_shared->prefix.reset();
        m_shared->opened = std::move(loaded).value().sections;
        m_shared->encoding = encoding.value();
    }
    refresh();
    return true;
}

bool CompareController::openRuntime(const QString &soulPath)
{
    Result<RuntimeSnapshot> loaded = loadRuntimeSnapshot(soulPath);
    Result<const Runtime *> runtime = loaded ? snapshotRuntime(*loaded)
                                             : Result<const Runtime *>(nullptr);
    Result<TokenEncoding> encoding = tokenEncoding({});
    const QString error = !loaded     ? loaded.error()
                          : !runtime  ? runtime.error()
                          : !encoding ? encoding.error()
                                      : QString();
    if (!error.isEmpty()) {
        m_error = error;
        Q_EMIT updated();
        return false;
    }
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->opens = ++m_opens;
        // A soul compared before is let go.
        m_shared->prefix.reset();
        m_shared->opened.reset();
        m_shared->encoding = encoding.value();
    }
    m_runtime = runtime.value();
    m_runtimeSnapshot = std::make_shared<const RuntimeSnapshot>(std::move(loaded).value());
    // Filled by the first comparison, read by the next ones: all on the
    // one worker thread.
    m_runtimeSnapshotIds = std::make_shared<std::vector<quint32>>();
    // Results of what was compared before this are not of this snapshot.
    m_openedAt = m_generation + 1;
    refresh();
    return true;
}

void CompareController::reset()
{
    m_runtime = nullptr;
    m_runtimeSnapshot.reset();
    m_runtimeSnapshotIds.reset();
    m_runtimeResult = {};
    m_comparedText.clear();
    m_liveError.clear();
}

RuntimeSettings CompareController::runtimeSettings() const
{
    return m_runtimeSnapshot ? m_runtimeSnapshot->settings : RuntimeSettings();
}

QList<RuntimeFileStatus> CompareController::fileStatuses() const
{
    if (!m_hasResult)
        return {};
    if (m_runtime)
        return m_runtimeResult.files;
    QList<RuntimeFileStatus> out;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SectionStatus status = m_result.status[size_t(slot)];
        if (status != SectionStatus::Absent)
            out.append(RuntimeFileStatus{slotName(slot), status, true});
    }
    return out;
}

RuntimeInput CompareController::runtimeInput() const
{
    // As the preview reads the persona (RuntimePreview): the panes' buffers
    // stand for their files in the unsaved view; the rest is read from disk.
    RuntimeInput input;
    input.dir = m_model->directory();
    const SlotLayout &layout = m_model->layout();
    input.home = layout.home;
    input.project = layout.project;
    if (m_view != SoulView::Unsaved)
        return input;
    for (int k = 0; k < SlotCount; ++k) {
        const SlotState &state = m_model->slot(k);
        if (state.bufferPresent)
            input.buffers.insert(layout.names.at(size_t(k)), state.bufferBytes);
    }
    // The runtime's own files among the model's other documents
    // (BOOTSTRAP.md), unsaved text included.
    const QStringList files = m_runtime->files();
    for (const QString &name : files) {
        const int doc = m_model->documentIndex(name);
        if (doc >= 0 && m_model->isDocumentOpen(doc) && m_model->slot(doc).bufferPresent)
            input.buffers.insert(name, m_model->slot(doc).bufferBytes);
    }
    return input;
}

void CompareController::startRuntime()
{
    m_running = true;
    m_pending = false;
    const quint64 generation = m_generation;
    std::shared_ptr<Shared> shared = m_shared;
    m_pool.start([shared,
                  generation,
                  input = runtimeInput(),
                  runtime = m_runtime,
                  snapshot = m_runtimeSnapshot,
                  snapshotIds = m_runtimeSnapshotIds,
                  encoding = m_shared->encoding] {
        const double cpuStart = threadCpuMs();
        RuntimeOutcome outcome;
        {
            QMutexLocker lock(&shared->mutex);
            if (!shared->receiver)
                return;
        }
        // Composed with the settings the snapshot records, not the preview's.
        const Result<RuntimeComposition> composed = runtime->compose(input, snapshot->settings);
        if (composed) {
            outcome.comparison = compareRuntimeText(*snapshot,
                                                    runtimeTextOf(*runtime,
                                                                  snapshot->settings,
                                                                  *composed,
                                                                  input.dir),
                                                    encoding,
                                                    snapshotIds.get());
            outcome.text = composed->text;
        } else {
            outcome.error = composed.error();
        }
        QMutexLocker lock(&shared->mutex);
        if (!shared->receiver)
            return;
        QMetaObject::invokeMethod(
            shared->receiver,
            [receiver = shared->receiver, generation, outcome, ms = threadCpuMs() - cpuStart] {
                receiver->runtimeFinished(generation, outcome, ms);
            },
            Qt::QueuedConnection);
    });
}

void CompareController::runtimeFinished(quint64 generation,
                                        const RuntimeOutcome &outcome,
                                        double workMs)
{
    m_running = false;
    // Closed since, or another snapshot opened: the result is of a
    // comparison nobody looks at, and the one waiting runs now.
    if (m_path.isEmpty() || !m_runtime || generation < m_openedAt) {
        if (m_pending)
            start();
        return;
    }
    m_workMs = workMs;
    LiveComparison result;
    result.prefix = outcome.comparison.prefix;
    m_result = result;
    m_runtimeResult = outcome.comparison;
    m_comparedText = outcome.text;
    m_hasResult = outcome.error.isEmpty();
    m_resultGeneration = generation;
    // The persona cannot be read as the runtime reads it (its folder is
    // gone): error() says so until a change lets it be read again.
    m_liveError = outcome.error;
    if (!m_liveError.isEmpty())
        m_diffHtml.clear();
    if (m_pending)
        start();
    else if (m_hasResult)
        m_diffTimer.start();
    Q_EMIT updated();
}

Result<QString> CompareController::writeAgentSnapshot(const PersonaSession &theirs, SoulView view)
{
    const PersonaModel *from = theirs.model();
    if (!from->isOpen()) {
        return Result<QString>::failure(
            tr("%1 has no workspace folder to compare with.").arg(theirs.agent().id));
    }
    // Read as a snapshot of the folder would be, from the bytes the model
    // holds: the buffer where the view takes unsaved edits, else the file.
    std::array<SlotRead, SlotCount> reads;
    for (int k = 0; k < SlotCount; ++k) {
        const SlotState &s = from->slot(k);
        SlotRead &read = reads.at(size_t(k));
        read.slot = k;
        read.path = QDir(from->directory()).filePath(slotName(k));
        const bool unsaved = view == SoulView::Unsaved && s.bufferPresent;
        if (!unsaved && !s.diskPresent()) {
            read.presence = s.presence;
            continue;
        }
        read.presence = SlotPresence::Present;
        read.bytes = unsaved ? s.bufferBytes : s.diskBytes;
        read.size = read.bytes.size();
        read.complete = unsaved || s.diskComplete;
        read.sha256 = QCryptographicHash::hash(read.bytes, QCryptographicHash::Sha256).toHex();
    }
    Snapshot snapshot;
    snapshot.inspection = inspectReads(from->directory(), reads, {}, false, from->rule());
    snapshot.createdAt = QDateTime::currentDateTimeUtc();
    if (const std::shared_ptr<const Tokenizer> tokenizer = m_tokens->tokenizer())
        snapshot.tokens = countSoulTokens(snapshot.inspection.composition, *tokenizer);
    if (!m_agentSnapshots || !m_agentSnapshots->isValid())
        m_agentSnapshots = std::make_unique<QTemporaryDir>();
    if (!m_agentSnapshots->isValid()) {
        return Result<QString>::failure(
            tr("Cannot make a temporary folder for %1's soul (%2). Check the space in %3.")
                .arg(theirs.agent().id.isEmpty() ? theirs.displayName() : theirs.agent().id,
                     m_agentSnapshots->errorString(),
                     QDir::toNativeSeparators(QDir::tempPath())));
    }
    const QString soulPath = m_agentSnapshots->filePath(
        QStringLiteral("%1.soul.md")
            .arg(theirs.agent().id.isEmpty() ? theirs.displayName() : theirs.agent().id));
    if (const Status written = writeSnapshot(snapshot, soulPath, true); !written)
        return Result<QString>::failure(written.error());
    return soulPath;
}

bool CompareController::openAgent(const PersonaSession &theirs)
{
    const Result<QString> soulPath = writeAgentSnapshot(theirs, m_view);
    if (!soulPath) {
        close();
        m_error = soulPath.error();
        Q_EMIT updated();
        return false;
    }
    return open(soulPath.value());
}

void CompareController::close()
{
    m_path.clear();
    m_error.clear();
    m_hasResult = false;
    m_result = {};
    m_diffHtml.clear();
    reset();
    m_pending = false;
    m_diffTimer.stop();
    // A newer generation: what the worker still sends is dropped.
    ++m_generation;
    m_shared->latest.store(m_generation);
    std::shared_ptr<Shared> shared = m_shared;
    m_pool.start([shared, opens = m_opens] {
        QMutexLocker lock(&shared->mutex);
        if (shared->opens != opens)
            return; // opened again since
        shared->prefix.reset();
        shared->opened.reset();
    });
}

void CompareController::setShowInvisibles(bool show)
{
    if (show == m_showInvisibles)
        return;
    m_showInvisibles = show;
    refresh();
}

void CompareController::setView(SoulView view)
{
    if (view == m_view)
        return;
    m_view = view;
    refresh();
}

LiveSections CompareController::liveSections(const PersonaModel *model, SoulView view)
{
    LiveSections live;
    for (int k = 0; k < SlotCount; ++k) {
        live.section[size_t(k)] = model->section(k, view);
        if (!live.section[size_t(k)])
            continue;
        live.truncated[size_t(k)] = model->truncated(k, view);
        const SlotState &state = model->slot(k);
        const bool buffer = view == SoulView::Unsaved && state.bufferPresent;
        live.bodyFirstLine[size_t(k)] = bodyFirstLine(buffer ? state.bufferBytes : state.diskBytes);
    }
    return live;
}

void CompareController::refresh()
{
    if (!m_error.isEmpty() || m_path.isEmpty())
        return;
    ++m_generation;
    m_shared->latest.store(m_generation);
    if (m_running) {
        // The running comparison finishes; only the newest edit runs next.
        m_pending = true;
        return;
    }
    start();
}

void CompareController::start()
{
    if (m_runtime) {
        startRuntime();
        return;
    }
    m_running = true;
    m_pending = false;
    const quint64 generation = m_generation;
    // The sections are shared copies: taking them costs no bytes, and the
    // worker reads them while the model goes on.
    const LiveSections live = liveSections(m_model, m_view);
    std::shared_ptr<Shared> shared = m_shared;
    m_pool.start([shared, live, generation] {
        const double cpuStart = threadCpuMs();
        LiveComparison result;
        {
            QMutexLocker lock(&shared->mutex);
            if (shared->opened) {
                shared->prefix = std::make_unique<LivePrefix>(std::move(*shared->opened),
                                                              shared->encoding);
                shared->opened.reset();
            }
            if (!shared->receiver)
                return;
            if (!shared->prefix) {
                // A runtime's text was opened since, and let the soul go:
                // its comparison, waiting for this one, runs now.
                QMetaObject::invokeMethod(
                    shared->receiver,
                    [receiver = shared->receiver] {
                        receiver->m_running = false;
                        if (receiver->m_pending)
                            receiver->start();
                    },
                    Qt::QueuedConnection);
                return;
            }
            result = shared->prefix->compare(live);
            QMetaObject::invokeMethod(
                shared->receiver,
                [receiver = shared->receiver, generation, result, ms = threadCpuMs() - cpuStart] {
                    receiver->finished(generation, result, ms);
                },
                Qt::QueuedConnection);
        }
    });
}

void CompareController::startDiff()
{
    // A newer comparison runs or waits; its end starts the timer again.
    if (!current())
        return;
    const quint64 generation = m_generation;
    const bool invisibles = m_showInvisibles;
    std::shared_ptr<Shared> shared = m_shared;
    if (m_runtime) {
        // The whole texts: a runtime's text is at most a few hundred KB
        // under its budgets, and not laid out by the slots.
        m_pool.start([shared,
                      generation,
                      invisibles,
                      snapshot = m_runtimeSnapshot,
                      live = m_comparedText,
                      title = tr("What %1 injects").arg(m_runtime->displayName())] {
            if (shared->latest.load() != generation)
                return;
            const QString html = textDiffHtml(title,
                                              runtimeTextDiff(snapshot->text,
                                                              QStringLiteral("snapshot"),
                                                              live,
                                                              QStringLiteral("live")),
                                              invisibles);
            sendDiff(shared, generation, html);
        });
        return;
    }
    const LiveSections live = liveSections(m_model, m_view);
    const std::array<SectionStatus, SlotCount> status = m_result.status;
    m_pool.start([shared, live, status, generation, invisibles] {
        LiveSections a;
        {
            QMutexLocker lock(&shared->mutex);
            if (!shared->receiver || !shared->prefix)
                return;
            a = shared->prefix->snapshot();
        }
        // Outside the lock, so the prefix line of a next edit does not wait
        // for it; skipped once superseded.
        if (shared->latest.load() != generation)
            return;
        const QString html = sectionsDiffHtml(a, live, status, invisibles);
        sendDiff(shared, generation, html);
    });
}

void CompareController::sendDiff(const std::shared_ptr<Shared> &shared,
                                 quint64 generation,
                                 const QString &html)
{
    QMutexLocker lock(&shared->mutex);
    if (!shared->receiver)
        return;
    QMetaObject::invokeMethod(
        shared->receiver,
        [receiver = shared->receiver, generation, html] {
            if (generation != receiver->m_generation)
                return;
            receiver->m_diffHtml = html;
            Q_EMIT receiver->diffUpdated();
        },
        Qt::QueuedConnection);
}

void CompareController::finished(quint64 generation, const LiveComparison &result, double workMs)
{
    m_running = false;
    // Closed since: the result is of a comparison nobody looks at. A
    // runtime's text opened since waits for it: it runs now.
    if (m_path.isEmpty())
        return;
    if (m_runtime) {
        if (m_pending)
            start();
        return;
    }
    m_workMs = workMs;
    m_result = result;
    m_hasResult = true;
    m_resultGeneration = generation;
    // The newest edit waited for this one: compare it now. The result shown
    // meanwhile is older than the text, and newer than the one before.
    if (m_pending)
        start();
    else
        m_diffTimer.start();
    Q_EMIT updated();
}

QPair<qint64, qint64> CompareController::firstChangePlace() const
{
    if (!m_hasResult || !m_result.firstChange)
        return {0, 0};
    const FirstChange &change = *m_result.firstChange;
    if (m_result.status[size_t(change.slot)] != SectionStatus::Changed)
        return {change.line, 0};
    const SlotState &state = m_model->slot(change.slot);
    const bool buffer = m_view == SoulView::Unsaved && state.bufferPresent;
    const QByteArray &raw = buffer ? state.bufferBytes : state.diskBytes;
    qsizetype lineStart = 0;
    for (qint64 line = 1; line < change.line && lineStart >= 0; ++line) {
        lineStart = raw.indexOf('\n', lineStart);
        if (lineStart >= 0)
            ++lineStart;
    }
    if (lineStart < 0)
        return {change.line, 0};
    qsizetype lineEnd = raw.indexOf('\n', lineStart);
    if (lineEnd < 0)
        lineEnd = raw.size();
    const QByteArrayView line = QByteArrayView(raw).sliced(lineStart, lineEnd - lineStart);
    qsizetype bytes = change.column;
    if (change.line == bodyFirstLine(raw)) {
        // The body starts after the white space it is trimmed of.
        const QByteArrayView valid = line.first(utf8::validPrefixLength(line));
        bytes += valid.size() - utf8::trimmedStart(valid).size();
    }
    // The column counts the soul's bytes, where each invalid sequence of the
    // file is a three-byte U+FFFD.
    bytes = utf8::rawOffset(line, bytes);
    // In the pane's own lines and columns: it breaks lines at CRs too, and
    // in the on-disk view it may hold unsaved text.
    const QByteArray &shown = state.bufferPresent ? state.bufferBytes : state.diskBytes;
    const TextPlace place = placeInEditor(raw, lineStart + bytes, shown);
    return {place.line, place.column};
}

QString CompareController::prefixSentence() const
{
    if (!m_hasResult)
        return {};
    const StablePrefix &p = m_result.prefix;
    if (p.identical) {
        if (m_runtime) {
            return tr("all %1 tokens are unchanged (100%); what %2 injects is the snapshot's")
                .arg(number(p.totalTokens), m_runtime->displayName());
        }
        return tr("all %1 tokens are unchanged (100%); the soul is the snapshot's")
            .arg(number(p.totalTokens));
    }
    QString text = tr("the first %1 of %2 tokens are unchanged (%3%)")
                       .arg(number(p.tokens), number(p.totalTokens))
                       .arg(p.percent());
    if (m_result.firstChange) {
        text += tr("; the first change is in %1, line %2")
                    .arg(m_result.firstChange->file, number(m_result.firstChange->line));
    } else if (m_runtime && !m_runtimeResult.firstChangeFile.isEmpty()) {
        text += tr("; the first change is in %1").arg(m_runtimeResult.firstChangeFile);
    }
    return text;
}

QStringList CompareController::reuseSentences() const
{
    if (!m_hasResult)
        return {};
    QStringList out;
    for (const CacheReuse &r :
         cacheReuse(m_cache, m_result.prefix.tokens, m_result.prefix.totalTokens)) {
        out.append(tr("%1 (%2): %3").arg(r.rule.provider, r.rule.models, r.reason));
    }
    return out;
}

} // namespace soul
