#include "comparecontroller.h"

#include "composer.h"
#include "linediff.h"
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

#include <time.h>

namespace soul {

// What the worker and the window share. The controller may go away while a
// comparison runs: the worker then finds no receiver and drops its result.
struct CompareController::Shared
{
    QMutex mutex; // one comparison at a time; guards `prefix` and `receiver`
    std::unique_ptr<LivePrefix> prefix;
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

// A unified diff's lines as HTML, with the words that changed within a
// removed line and the added line that replaced it marked.
QString diffToHtml(const QString &diff)
{
    const QStringList lines = diff.split(QLatin1Char('\n'));
    QString html;
    auto span = [](const QString &cls, const QString &text) {
        return QStringLiteral("<span class=\"%1\">%2</span>").arg(cls, text);
    };
    auto marked = [&](const QString &line, const QList<TextRange> &ranges, const QString &cls) {
        QString out;
        qsizetype at = 0;
        for (const TextRange &r : ranges) {
            out += line.mid(at, r.start - at).toHtmlEscaped();
            out += span(cls, line.mid(r.start, r.length).toHtmlEscaped());
            at = r.start + r.length;
        }
        out += line.mid(at).toHtmlEscaped();
        return out;
    };
    for (qsizetype i = 0; i < lines.size();) {
        const QString &line = lines[i];
        if (!line.startsWith(QLatin1Char('-')) || line.startsWith(QStringLiteral("---"))) {
            const QString cls = line.startsWith(QStringLiteral("@@")) ? QStringLiteral("hunk")
                                : line.startsWith(QLatin1Char('+'))
                                        && !line.startsWith(QStringLiteral("+++"))
                                    ? QStringLiteral("add")
                                    : QStringLiteral("ctx");
            html += span(cls, line.toHtmlEscaped()) + QLatin1Char('\n');
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
            html += span(QStringLiteral("del"), marked(lines[k], words, QStringLiteral("delw")))
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
            html += span(QStringLiteral("add"), marked(lines[k], words, QStringLiteral("addw")))
                    + QLatin1Char('\n');
        }
        i = addedEnd;
    }
    return html;
}

QString sectionsDiffHtml(const SectionedSoul &a,
                         const SectionedSoul &b,
                         const std::array<SectionStatus, SlotCount> &status)
{
    QString html = QStringLiteral(
        "<style>pre{margin:0} .hunk{color:#6a5acd} .del{background:#fde8e8} "
        ".add{background:#e6f6e6} .delw{background:#f4a8a8} .addw{background:#9fdc9f} "
        ".ctx{color:#444} h3{margin:8px 0 2px 0}</style>");
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SectionStatus s = status[size_t(slot)];
        if (s == SectionStatus::Absent || s == SectionStatus::Unchanged)
            continue;
        const QString name = slotName(slot);
        html += QStringLiteral("<h3>%1 — %2</h3>").arg(name.toHtmlEscaped(), sectionStatusName(s));
        if (s != SectionStatus::Changed)
            continue;
        const QStringList before = utf8::decode(a.body(slot).toByteArray()).split(QLatin1Char('\n'));
        const QStringList after = utf8::decode(b.body(slot).toByteArray()).split(QLatin1Char('\n'));
        const QString diff = lineDiff(QStringLiteral("snapshot/") + name,
                                      before,
                                      QStringLiteral("live/") + name,
                                      after);
        html += QStringLiteral("<pre>") + diffToHtml(diff) + QStringLiteral("</pre>");
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
    Result<LoadedSnapshot> loaded = loadSnapshot(soulPath);
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
        m_shared->prefix = std::make_unique<LivePrefix>(loaded.value().soul, encoding.value());
    }
    refresh();
    return true;
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
    const QString label = m_model->directory();
    std::shared_ptr<Shared> shared = m_shared;
    m_pool.start([shared, live, label, generation] {
        const double cpuStart = threadCpuMs();
        SectionedSoul a;
        SectionedSoul b;
        LiveComparison result;
        {
            QMutexLocker lock(&shared->mutex);
            if (!shared->receiver || !shared->prefix)
                return;
            b = joinSections(live, label);
            result = shared->prefix->compare(b);
            a = shared->prefix->snapshot();
            QMetaObject::invokeMethod(
                shared->receiver,
                [receiver = shared->receiver, generation, result, ms = threadCpuMs() - cpuStart] {
                    receiver->finished(generation, result, ms);
                },
                Qt::QueuedConnection);
        }
        // The diff after the numbers, outside the lock, so the prefix line
        // of the next edit does not wait for it; skipped once superseded.
        if (shared->latest.load() != generation)
            return;
        const QString html = sectionsDiffHtml(a, b, result.status);
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
    Q_EMIT updated();
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
