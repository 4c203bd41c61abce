#include "tokenchunks.h"

#include "tokenizer.h"

#include <algorithm>

namespace soul {

namespace {

// A chunk is at least this long (unless the text is shorter): a count has a
// fixed cost, and a keystroke recounts one chunk.
constexpr qsizetype MinChunkBytes = qsizetype(16) * 1024;
// A cut is taken at a cut point whose preceding bytes hash to 0 modulo this,
// so the cuts follow the text: an edit moves only the cuts near it.
constexpr quint32 CutSelectivity = 8;
// Long text without a chosen cut point is cut at the next one after this.
constexpr qsizetype MaxChunkBytes = qsizetype(128) * 1024;
constexpr qsizetype CutHashBytes = 16;

bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

quint32 cutHash(QByteArrayView text, qsizetype at)
{
    quint32 h = 2166136261u;
    for (qsizetype i = std::max<qsizetype>(0, at - CutHashBytes); i < at; ++i)
        h = (h ^ quint8(text[i])) * 16777619u;
    return h;
}

} // namespace

std::vector<qsizetype> tokenCutPoints(QByteArrayView utf8)
{
    std::vector<qsizetype> cuts;
    qsizetype start = 0;
    qsizetype i = MinChunkBytes - 1;
    while (i + 1 < utf8.size()) {
        i = utf8.indexOf('\n', i);
        if (i < 0 || i + 1 >= utf8.size())
            break;
        const qsizetype at = i + 1;
        if (isAsciiLetter(utf8[at])
            && (cutHash(utf8, at) % CutSelectivity == 0 || at - start >= MaxChunkBytes)) {
            cuts.push_back(at);
            start = at;
            i = start + MinChunkBytes - 1;
            continue;
        }
        ++i;
    }
    return cuts;
}

ChunkedTokenCount::Key ChunkedTokenCount::keyOf(QByteArrayView chunk)
{
    // Two independent hashes and the length: texts that differ share all
    // three only by chance, about once in 2^128 pairs.
    return {qHash(chunk, size_t(0x9e3779b97f4a7c15ULL)),
            qHash(chunk, size_t(0xc2b2ae3d27d4eb4fULL)),
            chunk.size()};
}

qint64 ChunkedTokenCount::count(const std::shared_ptr<const Tokenizer> &tokenizer,
                                QByteArrayView utf8)
{
    if (!tokenizer)
        return -1;
    if (tokenizer != m_tokenizer) {
        m_tokenizer = tokenizer;
        m_current.clear();
        m_previous.clear();
    }
    if (!tokenizer->splitsAtLines()) {
        ++m_counted;
        return tokenizer->count(utf8);
    }
    qint64 sum = 0;
    qsizetype begin = 0;
    const auto add = [&](qsizetype end) {
        const QByteArrayView chunk = utf8.sliced(begin, end - begin);
        const Key key = keyOf(chunk);
        auto found = m_current.constFind(key);
        if (found == m_current.cend()) {
            const auto before = m_previous.constFind(key);
            qint64 tokens = 0;
            if (before != m_previous.cend()) {
                tokens = *before;
            } else {
                tokens = tokenizer->count(chunk);
                ++m_counted;
            }
            found = m_current.insert(key, tokens);
        }
        sum += *found;
        begin = end;
    };
    for (const qsizetype cut : tokenCutPoints(utf8))
        add(cut);
    add(utf8.size());
    return sum;
}

void ChunkedTokenCount::nextRound()
{
    m_previous = std::move(m_current);
    m_current.clear();
}

} // namespace soul
