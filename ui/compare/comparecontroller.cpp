#include "comparecontroller.h"

#include "composer.h"
#include "editortext.h"
#include "linediff.h"
#include "preview/previewmarks.h"
#include "preview/soulpreview.h"
#include "snapshotfile.h"
#include "utf8.h"

#include <QDir>
#include <QLocale>
#include <QMetaObject>
#include <QMutex>
#include <QPointer>
#include <QStandardPaths>
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

// One line of a unified diff as HTML: its mark (the first character), then
// its text with the changed `words` in class `wordClass` and, when
// `invisibles`, what the preview marks as invisible in class "inv".
QString lineHtml(const QString &line,
                 const QList<TextRange> &words,
                 const QString &wordClass,
                 bool invisibles)
{
    const qsizetype n = line.size();
    // Per UTF-16 unit: 1 within a changed word, 2 within an invisible.
    std::vector<unsigned char> kind(size_t(n), 0);
    for (const TextRange &r : words) {
        for (qsizetype i = r.start; i < qMin(n, r.start + r.length); ++i)
            kind[size_t(i)] |= 1;
    }
    if (invisibles && n > 0) {
        for (const QPair<int, int> &r : PreviewMarks::invisibleRanges(QStringView(line).mid(1))) {
            for (qsizetype i = r.first + 1; i < qMin(n, qsizetype(r.first) + 1 + r.second); ++i)
                kind[size_t(i)] |= 2;
        }
    }
    QString out;
    for (qsizetype at = 0; at < n;) {
        qsizetype end = at + 1;
        while (end < n && kind[size_t(end)] == kind[size_t(at)])
            ++end;
        QString text = line.mid(at, end - at).toHtmlEscaped();
        if (kind[size_t(at)] & 2)
            text = QStringLiteral("<span class=\"inv\">%1</span>").arg(text);
        if (kind[size_t(at)] & 1)
            text = QStringLiteral("<span class=\"%1\">%2</span>").arg(wordClass, text);
        out += text;
        at = end;
    }
    return out;
}

// A unified diff's lines as HTML, with the words that changed within a
// removed line and the added line that replaced it marked, and invisibles
// marked as the preview marks them.
QString diffToHtml(const QString &diff, bool invisibles)
{
    const QStringList lines = diff.split(QLatin1Char('\n'));
    QString html;
    auto span = [](const QString &cls, const QString &text) {
        return QStringLiteral("<span class=\"%1\">%2</span>").arg(cls, text);
    };
    for (qsizetype i = 0; i < lines.size();) {
        const QString &line = lines[i];
        if (!line.startsWith(QLatin1Char('-')) || line.startsWith(QStringLiteral("---"))) {
            const bool header = line.startsWith(QStringLiteral("@@"))
                                || line.startsWith(QStringLiteral("+++"))
                                || line.startsWith(QStringLiteral("---"));
            const QString cls = line.startsWith(QStringLiteral("@@")) ? QStringLiteral("hunk")
                                : line.startsWith(QLatin1Char('+')) && !header
                                    ? QStringLiteral("add")
                                    : QStringLiteral("ctx");
            html += span(cls, header ? line.toHtmlEscaped() : lineHtml(line, {}, {}, invisibles))
                    + QLatin1Char('\n');
            ++i;
            continue;
        }
        // A run of removed lines and the run of added lines after it: the
        // n-th of each are compared word by word.
        qsizetype removedEnd = i;
        while (removedEnd < lines.size() && lines[removedEnd].startsWith(QLatin1Char('-')))
            ++removedEnd;
        qsizetype addedEnd = removedEnd;
        while (addedEnd < lines.size() && lines[addedEnd].startsWith(QLatin1Char('+')))
            ++addedEnd;
        const qsizetype pairs = qMin(removedEnd - i, addedEnd - removedEnd);
        for (qsizetype k = i; k < removedEnd; ++k) {
            QList<TextRange> words;
            if (k - i < pairs) {
                words = changedWords(QStringView(lines[k]).mid(1),
                                     QStringView(lines[removedEnd + (k - i)]).mid(1))
                            .removed;
                for (TextRange &r : words)
                    r.start += 1;
            }
            html += span(QStringLiteral("del"),
                         lineHtml(lines[k], words, QStringLiteral("delw"), invisibles))
                    + QLatin1Char('\n');
        }
        for (qsizetype k = removedEnd; k < addedEnd; ++k) {
            QList<TextRange> words;
            if (k - removedEnd < pairs) {
                words = changedWords(QStringView(lines[i + (k - removedEnd)]).mid(1),
                                     QStringView(lines[k]).mid(1))
                            .added;
                for (TextRange &r : words)
                    r.start += 1;
            }
            html += span(QStringLiteral("add"),
                         lineHtml(lines[k], words, QStringLiteral("addw"), invisibles))
                    + QLatin1Char('\n');
        }
        i = addedEnd;
    }
    return html;
}

QString sectionsDiffHtml(const LiveSections &a,
                         const LiveSections &b,
                         const std::array<SectionStatus, SlotCount> &status,
                         bool invisibles)
{
    QString html = QStringLiteral(
        "<style>pre{margin:0} .hunk{color:#6a5acd} .del{background:#fde8e8} "
        ".add{background:#e6f6e6} .delw{background:#f4a8a8} .addw{background:#9fdc9f} "
        ".ctx{color:#444} h3{margin:8px 0 2px 0} "
        // The colours of the preview's invisible marks.
        ".inv{background:#ffc8c8; color:#a00000}</style>");
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SectionStatus s = status[size_t(slot)];
        if (s == SectionStatus::Absent || s == SectionStatus::Unchanged)
            continue;
        const QString name = slotName(slot);
        html += QStringLiteral("<h3>%1 — %2</h3>").arg(name.toHtmlEscaped(), sectionStatusName(s));
        if (s != SectionStatus::Changed)
            continue;
        // Diffed as bytes, without copying or decoding the sections: only
        // the lines between the ends both share are looked at, and only the
        // diff is decoded, to text as the preview shows it.
        const QByteArrayView bodyA
            = QByteArrayView(*a.section[size_t(slot)]).sliced(sectionHeadLength(slot));
        const QByteArrayView bodyB
            = QByteArrayView(*b.section[size_t(slot)]).sliced(sectionHeadLength(slot));
        SectionedSoul before;
        before.label = QStringLiteral("snapshot/") + name;
        before.soul = QByteArray::fromRawData(bodyA.data(), bodyA.size());
        SectionedSoul after;
        after.label = QStringLiteral("live/") + name;
        after.soul = QByteArray::fromRawData(bodyB.data(), bodyB.size());
        // A body never ends in a line break (the join follows it): the diff
        // need not say so.
        QString diff = utf8::decode(unifiedSoulDiff(before, after))
                           .replace(QStringLiteral("\n\\ No newline at end of file\n"),
                                    QStringLiteral("\n"));
        diff = SoulPreview::displayText(std::move(diff), invisibles);
        if (diff.endsWith(QLatin1Char('\n')))
            diff.chop(1);
        html += QStringLiteral("<pre>") + diffToHtml(diff, invisibles) + QStringLiteral("</pre>");
    }
    return html;
}

} // namespace

CompareController::CompareController(const PersonaModel *model, QObject *parent)
    : QObject(parent)
    , m_model(model)
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
    // The built-in table, with the author's own rules laid over it.
    const QString userRules = QDir(QStandardPaths::writableLocation(
                                       QStandardPaths::AppConfigLocation))
                                  .filePath(QStringLiteral("cache-rules.json"));
    Result<CacheTable> table = cacheTableWithOverrides(userRules);
    m_cache = table ? table.value() : builtinCacheTable();
    connect(m_model, &PersonaModel::sectionChanged, this, &CompareController::refresh);
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
    m_path = soulPath;
    m_error.clear();
    m_hasResult = false;
    m_diffHtml.clear();
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
        m_shared->prefix.reset();
        m_shared->opened = std::move(loaded).value().sections;
        m_shared->encoding = encoding.value();
    }
    refresh();
    return true;
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
            if (!shared->receiver || !shared->prefix)
                return;
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
    const LiveSections live = liveSections(m_model, m_view);
    const std::array<SectionStatus, SlotCount> status = m_result.status;
    const bool invisibles = m_showInvisibles;
    std::shared_ptr<Shared> shared = m_shared;
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
    });
}

void CompareController::finished(quint64 generation, const LiveComparison &result, double workMs)
{
    m_workMs = workMs;
    m_running = false;
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
        return tr("all %1 tokens are unchanged (100%); the soul is the snapshot's")
            .arg(number(p.totalTokens));
    }
    QString text = tr("the first %1 of %2 tokens are unchanged (%3%)")
                       .arg(number(p.tokens), number(p.totalTokens))
                       .arg(p.percent());
    if (m_result.firstChange) {
        text += tr("; the first change is in %1, line %2")
                    .arg(m_result.firstChange->file, number(m_result.firstChange->line));
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
