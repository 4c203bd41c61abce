#include "tokenizer.h"

#include "bytepairmodel.h"
#include "compose/utf8.h"
#include "huggingfacejson.h"
#include "pretokenizer.h"
#include "tiktokenfile.h"

#include <QFile>
#include <QFileInfo>

#include <cstring>
#include <mutex>

namespace soul {

using tokens::BytePairModel;
using tokens::Pretokenizer;
using tokens::RankTable;

namespace {

// The encodings' own patterns, as tiktoken defines them.
const char16_t O200kPattern[]
    = uR"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
      uR"(|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?)"
      uR"(|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
const char16_t Cl100kPattern[]
    = uR"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*)"
      uR"(|\s*[\r\n]+|\s+(?!\S)|\s+)";

const char O200kName[] = "o200k_base";
const char Cl100kName[] = "cl100k_base";

// Long texts are split into chunks of about this size, so memory holds one
// chunk's UTF-16 copy rather than the whole text's.
constexpr qsizetype ChunkBytes = qsizetype(1) << 20;

// Where a chunk may end: right after a line feed followed by an ASCII letter.
// With both built-in patterns, no piece reaches across that point (the pieces
// that hold a line feed end at it, and none of them looks past it to decide),
// so the chunks' pieces are the whole text's.
qsizetype chunkEnd(QByteArrayView text, qsizetype from)
{
    if (text.size() - from <= ChunkBytes)
        return text.size();
    for (qsizetype i = from + ChunkBytes; i + 1 < text.size(); ++i) {
        i = text.indexOf('\n', i);
        if (i < 0 || i + 1 >= text.size())
            break;
        const char next = text[i + 1];
        if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))
            return i + 1;
    }
    return text.size();
}

// The ids of pieces seen before in the same call, for pieces that take more
// than one token. Direct-mapped: a collision replaces the older entry.
class PieceCache
{
public:
    static constexpr qsizetype MaxPieceBytes = 256;

    // Sized for a text of `textBytes`: a short text (a line, a small file)
    // has few pieces, and clearing a table for thousands of them would cost
    // it more than its whole count.
    explicit PieceCache(qsizetype textBytes)
    {
        while (m_size < MaxSize && qsizetype(m_size) * 4 < textBytes)
            m_size *= 2;
    }

    // The cached ids of `piece`, or nullptr.
    const quint32 *find(QByteArrayView piece, quint64 hash, qsizetype *count) const
    {
        if (m_entries.empty())
            return nullptr;
        const Entry &e = m_entries[hash & (m_size - 1)];
        if (e.hash != hash || e.size != piece.size() || e.data == nullptr
            || std::memcmp(e.data, piece.data(), size_t(piece.size())) != 0)
            return nullptr;
        *count = e.count;
        return m_pool.data() + e.start;
    }

    std::vector<quint32> &pool() { return m_pool; }

    // Remembers pool()[start, end) as the ids of `piece`, whose bytes must
    // outlive the cache.
    void store(QByteArrayView piece, quint64 hash, qsizetype start)
    {
        // Allocated on first use: most short texts never need it.
        if (m_entries.empty())
            m_entries.resize(m_size);
        if (m_pool.size() > PoolLimit) {
            // Keep memory bounded on texts with very many distinct pieces.
            std::vector<quint32> ids(m_pool.begin() + start, m_pool.end());
            m_pool.assign(ids.begin(), ids.end());
            std::fill(m_entries.begin(), m_entries.end(), Entry{});
            start = 0;
        }
        m_entries[hash & (m_size - 1)]
            = Entry{hash, piece.data(), piece.size(), start, qsizetype(m_pool.size()) - start};
    }

private:
    static constexpr quint64 MinSize = 64;
    static constexpr quint64 MaxSize = 1 << 14;
    static constexpr size_t PoolLimit = size_t(1) << 20;
    struct Entry
    {
        quint64 hash = 0;
        const char *data = nullptr;
        qsizetype size = 0;
        qsizetype start = 0;
        qsizetype count = 0;
    };
    quint64 m_size = MinSize; // a power of two
    std::vector<Entry> m_entries;
    std::vector<quint32> m_pool;
};

struct IdSink
{
    std::vector<quint32> ids;
    void one(quint32 id) { ids.push_back(id); }
    void many(const quint32 *p, qsizetype n) { ids.insert(ids.end(), p, p + n); }
};

struct CountSink
{
    qint64 count = 0;
    void one(quint32) { ++count; }
    void many(const quint32 *, qsizetype n) { count += n; }
};

// Per call: the merge buffers and the piece cache.
struct Work
{
    explicit Work(qsizetype textBytes)
        : cache(textBytes)
    {}

    BytePairModel::Scratch scratch;
    PieceCache cache;
};

QByteArray readResource(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace

Tokenizer::Tokenizer(QString name,
                     std::unique_ptr<tokens::BytePairModel> model,
                     std::unique_ptr<tokens::Pretokenizer> pretokenizer,
                     bool nfc,
                     bool chunkAtLines)
    : m_name(std::move(name))
    , m_model(std::move(model))
    , m_pretokenizer(std::move(pretokenizer))
    , m_nfc(nfc)
    , m_chunkAtLines(chunkAtLines)
{}

Tokenizer::~Tokenizer() = default;

QStringList builtinEncodings()
{
    return {QLatin1String(O200kName), QLatin1String(Cl100kName)};
}

std::shared_ptr<const Tokenizer> Tokenizer::loadBuiltin(const QString &name)
{
    const QString origin = QStringLiteral(":/tokenizers/%1.tiktoken").arg(name);
    const QByteArray file = readResource(origin);
    Result<RankTable> ranks = tokens::parseTiktokenRanks(file, origin);
    // The files are part of the program; a damaged one is a build defect.
    Q_ASSERT_X(ranks.ok() && ranks->size() > 0, "Tokenizer", "the built-in rank file is missing");
    if (!ranks.ok() || ranks->size() == 0)
        return nullptr;
    const bool o200k = name == QLatin1String(O200kName);
    Result<Pretokenizer> pretokenizer
        = Pretokenizer::create({QString::fromUtf16(o200k ? O200kPattern : Cl100kPattern)},
                               /*dropGaps=*/true);
    if (!pretokenizer.ok())
        return nullptr;
    return std::shared_ptr<const Tokenizer>(
        new Tokenizer(name,
                      std::make_unique<BytePairModel>(
                          BytePairModel::fromRanks(std::move(ranks).value())),
                      std::make_unique<Pretokenizer>(std::move(pretokenizer).value()),
                      false,
                      true));
}

std::shared_ptr<const Tokenizer> Tokenizer::builtin(QStringView encodingName)
{
    // Function-local statics: loaded on first use, once, thread-safe.
    if (encodingName.isEmpty() || encodingName == QLatin1String(O200kName)) {
        static const std::shared_ptr<const Tokenizer> o200k = loadBuiltin(QLatin1String(O200kName));
        return o200k;
    }
    if (encodingName == QLatin1String(Cl100kName)) {
        static const std::shared_ptr<const Tokenizer> cl100k = loadBuiltin(
            QLatin1String(Cl100kName));
        return cl100k;
    }
    return nullptr;
}

Result<std::shared_ptr<const Tokenizer>> Tokenizer::fromHuggingFaceJson(const QString &path)
{
    using R = Result<std::shared_ptr<const Tokenizer>>;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return R::failure(QStringLiteral("Cannot read %1: %2.").arg(path, file.errorString()));
    Result<tokens::HuggingFaceModel> loaded = tokens::parseHuggingFaceJson(file.readAll(), path);
    if (!loaded.ok())
        return R::failure(loaded.error());
    tokens::HuggingFaceModel model = std::move(loaded).value();
    return std::shared_ptr<const Tokenizer>(
        new Tokenizer(QFileInfo(path).fileName(),
                      std::make_unique<BytePairModel>(std::move(model.model)),
                      std::make_unique<Pretokenizer>(std::move(model.pretokenizer)),
                      model.nfc,
                      false));
}

QString Tokenizer::name() const
{
    return m_name;
}

template<typename Sink>
void Tokenizer::run(QByteArrayView utf8, Sink &sink) const
{
    // Valid input is used in place; invalid input is replaced once, as the
    // compose rule decodes it.
    QByteArray sanitized;
    QByteArrayView valid = utf8;
    if (!utf8::isValid(utf8)) {
        sanitized = utf8::sanitize(utf8);
        valid = sanitized;
    }
    Work work(valid.size());
    const BytePairModel &model = *m_model;
    const auto piece = [&](QByteArrayView p) {
        const quint32 whole = model.wholeToken(p);
        if (whole != RankTable::NoId) {
            sink.one(whole);
            return;
        }
        const quint64 hash = RankTable::hash(p.data(), p.size());
        qsizetype cached = 0;
        if (const quint32 *ids = work.cache.find(p, hash, &cached)) {
            sink.many(ids, cached);
            return;
        }
        std::vector<quint32> &pool = work.cache.pool();
        const auto start = qsizetype(pool.size());
        model.mergeInto(p, work.scratch, pool);
        sink.many(pool.data() + start, qsizetype(pool.size()) - start);
        if (p.size() <= PieceCache::MaxPieceBytes)
            work.cache.store(p, hash, start);
        else
            pool.resize(size_t(start));
    };
    if (m_nfc) {
        const QByteArray normalized
            = utf8::decode(valid).normalized(QString::NormalizationForm_C).toUtf8();
        const QString text = utf8::decode(normalized);
        m_pretokenizer->split(normalized, text, piece);
        return;
    }
    qsizetype from = 0;
    while (from < valid.size()) {
        const qsizetype end = m_chunkAtLines ? chunkEnd(valid, from) : valid.size();
        const QByteArrayView chunk = valid.sliced(from, end - from);
        m_pretokenizer->split(chunk, utf8::decode(chunk), piece);
        from = end;
    }
}

std::vector<quint32> Tokenizer::encode(QByteArrayView utf8) const
{
    IdSink sink;
    run(utf8, sink);
    return std::move(sink.ids);
}

qint64 Tokenizer::count(QByteArrayView utf8) const
{
    CountSink sink;
    run(utf8, sink);
    return sink.count;
}

} // namespace soul
