#include "soultokencounter.h"

#include "compose/composerule.h"
#include "tokens/tokenchunks.h"
#include "tokens/tokenizer.h"

#include <QFileInfo>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

namespace soul {

namespace {

qsizetype commonPrefix(QByteArrayView a, QByteArrayView b)
{
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    constexpr qsizetype Block = 4096;
    while (i + Block <= n && std::memcmp(a.data() + i, b.data() + i, Block) == 0)
        i += Block;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

qsizetype commonSuffix(QByteArrayView a, QByteArrayView b, qsizetype limit)
{
    qsizetype i = 0;
    const char *ea = a.data() + a.size();
    const char *eb = b.data() + b.size();
    constexpr qsizetype Block = 4096;
    while (i + Block <= limit && std::memcmp(ea - i - Block, eb - i - Block, Block) == 0)
        i += Block;
    while (i < limit && ea[-i - 1] == eb[-i - 1])
        ++i;
    return i;
}

} // namespace

struct SoulTokenCounter::Job
{
    int slot = -1;
    quint64 epoch = 0;
    // The view generations whose text this is; 0 for a view with other text.
    std::array<quint64, 2> generations{};
    QByteArray bytes;
    std::shared_ptr<const Tokenizer> tokenizer;
    bool chunked = false;
    std::function<void(int)> hook;
    std::atomic<bool> cancelled{false};
    Basis basis; // in: the previous count's; out: this one's
    bool complete = false;
    qint64 alone = -1;
    qint64 joined = -1;
};

SoulTokenCounter::SoulTokenCounter(const PersonaModel *model, QObject *parent)
    : QObject(parent)
    , m_model(model)
{
    // One thread stays for the window on a small machine.
    m_pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1));
    connect(model, &PersonaModel::opened, this, [this] { readAll(); });
    connect(model, &PersonaModel::closed, this, [this] { readAll(); });
    connect(model, &PersonaModel::sectionChanged, this, [this](int slot) {
        readSection(slot);
        // Whether a later section exists changes the shares of the others.
        Q_EMIT countsChanged();
    });
    readAll();
    // The default encoding, unless the owner chooses one before the event
    // loop runs (so a remembered choice does not load o200k_base as well).
    m_requestedName = builtinEncodings().constFirst();
    m_loading = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (m_loadTicket == 0)
                setEncoding(m_requestedName);
        },
        Qt::QueuedConnection);
}

SoulTokenCounter::~SoulTokenCounter()
{
    for (SlotState &s : m_slots) {
        if (s.job)
            s.job->cancelled = true;
    }
    // The workers post to this object; they finish before it goes.
    m_pool.waitForDone();
}

void SoulTokenCounter::setEncoding(const QString &name)
{
    requestTokenizer(name, QString());
}

void SoulTokenCounter::setTokenizerFile(const QString &path)
{
    requestTokenizer(QFileInfo(path).fileName(), path);
}

QString SoulTokenCounter::encodingName() const
{
    return m_loading ? m_requestedName : m_activeName;
}

QString SoulTokenCounter::tokenizerFile() const
{
    return m_loading ? m_requestedFile : m_activeFile;
}

void SoulTokenCounter::setWorkerHookForTesting(std::function<void(int)> hook)
{
    m_hook = std::move(hook);
}

void SoulTokenCounter::requestTokenizer(const QString &name, const QString &file)
{
    if (m_tokenizer && name == m_activeName && file == m_activeFile) {
        if (m_loading) { // back to the active one: the load under way is moot
            ++m_loadTicket;
            m_loading = false;
            Q_EMIT countsChanged();
        }
        return;
    }
    const quint64 ticket = ++m_loadTicket;
    m_requestedName = name;
    m_requestedFile = file;
    m_loading = true;
    Q_EMIT countsChanged();
    // Loading ranks takes a moment (decompressing and indexing them): never
    // on the GUI thread.
    m_pool.start([this, ticket, name, file] {
        std::shared_ptr<const Tokenizer> tokenizer;
        QString error;
        bool chunked = false;
        if (file.isEmpty()) {
            tokenizer = Tokenizer::builtin(name);
            chunked = true;
            if (!tokenizer || name.isEmpty()) {
                tokenizer.reset();
                error = tr("There is no built-in encoding named \"%1\"; choose %2.")
                            .arg(name, builtinEncodings().join(QStringLiteral(" or ")));
            }
        } else {
            Result<std::shared_ptr<const Tokenizer>> loaded = Tokenizer::fromHuggingFaceJson(file);
            if (loaded.ok())
                tokenizer = std::move(loaded).value();
            else
                error = loaded.error();
        }
        QMetaObject::invokeMethod(
            this,
            [this, ticket, tokenizer, chunked, error] {
                tokenizerLoaded(ticket, tokenizer, chunked, error);
            },
            Qt::QueuedConnection);
    });
}

void SoulTokenCounter::tokenizerLoaded(quint64 ticket,
                                       std::shared_ptr<const Tokenizer> tokenizer,
                                       bool chunked,
                                       const QString &error)
{
    if (ticket != m_loadTicket)
        return; // a newer choice is loading
    m_loading = false;
    if (!tokenizer) {
        Q_EMIT tokenizerFailed(error);
        // Nothing counted yet (a remembered file that went away): the default.
        if (!m_tokenizer && builtinEncodings().constFirst() != m_requestedName)
            setEncoding(builtinEncodings().constFirst());
        Q_EMIT countsChanged();
        return;
    }
    m_tokenizer = std::move(tokenizer);
    m_chunked = chunked;
    m_activeName = m_requestedName;
    m_activeFile = m_requestedFile;
    ++m_epoch;
    for (SlotState &s : m_slots) {
        if (s.job)
            s.job->cancelled = true;
        s.basis = Basis();
        for (ViewState &v : s.views) {
            v.exact = false;
            ++v.generation;
        }
    }
    for (int k = 0; k < SlotCount; ++k)
        schedule(k);
    Q_EMIT encodingChanged(m_activeName);
    Q_EMIT countsChanged();
}

void SoulTokenCounter::readAll()
{
    for (int k = 0; k < SlotCount; ++k)
        readSection(k);
    Q_EMIT countsChanged();
}

void SoulTokenCounter::readSection(int slot)
{
    SlotState &s = m_slots.at(size_t(slot));
    for (const SoulView view : {SoulView::Unsaved, SoulView::OnDisk}) {
        ViewState &v = s.views.at(size_t(view));
        std::optional<QByteArray> bytes = m_model->isOpen() ? m_model->section(slot, view)
                                                            : std::nullopt;
        if (bytes == v.bytes)
            continue;
        v.bytes = std::move(bytes);
        ++v.generation;
        v.exact = false;
    }
    cancelIfUnneeded(slot);
    schedule(slot);
}

void SoulTokenCounter::cancelIfUnneeded(int slot)
{
    SlotState &s = m_slots.at(size_t(slot));
    if (!s.job)
        return;
    for (size_t v = 0; v < s.views.size(); ++v) {
        if (s.job->generations.at(v) == s.views.at(v).generation)
            return;
    }
    s.job->cancelled = true;
}

void SoulTokenCounter::schedule(int slot)
{
    SlotState &s = m_slots.at(size_t(slot));
    if (s.job || !m_tokenizer)
        return;
    // The unsaved view first: it is what the author is typing into.
    for (ViewState &v : s.views) {
        if (v.exact)
            continue;
        if (!v.bytes) {
            v.alone = v.joined = 0;
            v.exact = true;
            continue;
        }
        // The other view counted the same text (a clean slot, a save).
        const auto same = std::find_if(s.views.begin(), s.views.end(), [&v](const ViewState &w) {
            return w.exact && w.bytes == v.bytes;
        });
        if (same != s.views.end()) {
            v.alone = same->alone;
            v.joined = same->joined;
            v.exact = true;
            continue;
        }
        auto job = std::make_shared<Job>();
        job->slot = slot;
        job->epoch = m_epoch;
        job->bytes = *v.bytes;
        for (size_t w = 0; w < s.views.size(); ++w) {
            const ViewState &other = s.views.at(w);
            if (!other.exact && other.bytes == v.bytes)
                job->generations.at(w) = other.generation;
        }
        job->tokenizer = m_tokenizer;
        job->chunked = m_chunked;
        job->hook = m_hook;
        job->basis = std::move(s.basis);
        s.basis = Basis();
        s.job = job;
        m_pool.start([this, job] {
            runJob(*job);
            QMetaObject::invokeMethod(
                this, [this, job] { jobDone(job); }, Qt::QueuedConnection);
        });
        return;
    }
}

void SoulTokenCounter::runJob(Job &job)
{
    const QByteArrayView text = job.bytes;
    const Basis &old = job.basis;
    Basis next;
    next.bytes = job.bytes;

    qsizetype begin = 0;
    for (const qsizetype cut : job.chunked ? tokenCutPoints(text) : std::vector<qsizetype>()) {
        next.chunks.push_back({begin, cut, -1});
        begin = cut;
    }
    next.chunks.push_back({begin, text.size(), -1});

    // Chunks inside the unchanged start or end of the text, cut where the
    // previous count cut them, keep their counts.
    const QByteArrayView before = old.bytes;
    const qsizetype prefix = commonPrefix(before, text);
    const qsizetype suffix = commonSuffix(before,
                                          text,
                                          std::min(before.size(), text.size()) - prefix);
    const qsizetype shift = before.size() - text.size();
    const auto reuse = [&old](qsizetype b, qsizetype e) -> qint64 {
        const auto it = std::lower_bound(old.chunks.begin(),
                                         old.chunks.end(),
                                         b,
                                         [](const Chunk &c, qsizetype at) { return c.begin < at; });
        return it != old.chunks.end() && it->begin == b && it->end == e ? it->tokens : -1;
    };
    for (Chunk &c : next.chunks) {
        if (c.end <= prefix)
            c.tokens = reuse(c.begin, c.end);
        else if (c.begin >= text.size() - suffix)
            c.tokens = reuse(c.begin + shift, c.end + shift);
    }
    // The last chunk followed by the join, when the last chunk is the same.
    const Chunk &lastChunk = next.chunks.back();
    if (!old.chunks.empty() && old.chunks.back().begin == lastChunk.begin + shift
        && (lastChunk.begin >= text.size() - suffix || (prefix == text.size() && shift == 0)))
        next.lastJoined = old.lastJoined;

    if (job.hook)
        job.hook(job.slot);

    const Tokenizer &tokenizer = *job.tokenizer;
    bool complete = true;
    for (Chunk &c : next.chunks) {
        if (c.tokens >= 0)
            continue;
        if (job.cancelled) {
            complete = false;
            break;
        }
        c.tokens = tokenizer.count(text.sliced(c.begin, c.end - c.begin));
    }
    if (complete && next.lastJoined < 0 && !job.cancelled) {
        QByteArray tail = text.sliced(lastChunk.begin).toByteArray();
        tail += ComposeRule::toolnexus().sectionJoin;
        next.lastJoined = tokenizer.count(tail);
    }
    complete = complete && next.lastJoined >= 0;
    if (complete) {
        qint64 sum = 0;
        for (const Chunk &c : next.chunks)
            sum += c.tokens;
        job.alone = sum;
        job.joined = sum - lastChunk.tokens + next.lastJoined;
    }
    job.complete = complete;
    job.basis = std::move(next);
}

void SoulTokenCounter::jobDone(const std::shared_ptr<Job> &job)
{
    SlotState &s = m_slots.at(size_t(job->slot));
    if (s.job == job)
        s.job.reset();
    if (job->epoch != m_epoch) {
        schedule(job->slot);
        return;
    }
    // Even a stopped count leaves what it knew for the next one.
    s.basis = std::move(job->basis);
    if (job->complete) {
        for (size_t w = 0; w < s.views.size(); ++w) {
            ViewState &v = s.views.at(w);
            if (job->generations.at(w) != v.generation)
                continue; // that view's text changed meanwhile
            v.alone = job->alone;
            v.joined = job->joined;
            v.exact = true;
        }
    }
    schedule(job->slot);
    Q_EMIT countsChanged();
}

bool SoulTokenCounter::followed(int slot, SoulView view) const
{
    for (int k = slot + 1; k < SlotCount; ++k) {
        if (m_slots.at(size_t(k)).views.at(size_t(view)).bytes)
            return true;
    }
    return false;
}

SoulTokenCounter::Count SoulTokenCounter::sectionTokens(int slot, SoulView view) const
{
    const ViewState &v = m_slots.at(size_t(slot)).views.at(size_t(view));
    if (!v.bytes)
        return {0, true};
    Count count;
    count.tokens = followed(slot, view) ? v.joined : v.alone;
    count.exact = v.exact && !m_loading && count.tokens >= 0;
    return count;
}

SoulTokenCounter::Count SoulTokenCounter::soulTokens(SoulView view) const
{
    Count total{0, !m_loading};
    for (int k = 0; k < SlotCount; ++k) {
        const Count c = sectionTokens(k, view);
        if (c.tokens < 0) {
            total.tokens = -1;
            total.exact = false;
            break;
        }
        total.tokens += c.tokens;
        total.exact = total.exact && c.exact;
    }
    return total;
}

bool SoulTokenCounter::isSettled() const
{
    return soulTokens(SoulView::Unsaved).exact && soulTokens(SoulView::OnDisk).exact;
}

} // namespace soul
