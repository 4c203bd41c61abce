#include "historycounts.h"

#include "compose/composer.h"
#include "personahistory.h"
#include "tokens/tokenizer.h"

#include <QMutexLocker>

namespace soul {

HistoryCounts::HistoryCounts(std::shared_ptr<const Tokenizer> tokenizer, ComposeRule rule)
    : m_tokenizer(std::move(tokenizer))
    , m_rule(std::move(rule))
{}

namespace {

// Pieces longer than this are counted without keeping them: the cache is for
// the lines of prose a history repeats, not for whole files without a line
// break.
constexpr qsizetype MaxKeptPiece = qsizetype(16) * 1024;

// Whether a line feed followed by `c` is a point no piece of the built-in
// encodings crosses. Tokenizer::splitsAtLines() promises it for an ASCII
// letter; it holds for any visible ASCII character but '/': the pieces that
// take a line feed take only more white space after it (and o200k's
// punctuation piece, '/' too), and no piece starts with a line feed and goes
// on into a visible character. Markdown lines start with "- ", "#", "*",
// digits: cutting there too lets a list be counted item by item.
bool startsPiece(char c)
{
    return c > ' ' && c < 0x7F && c != '/';
}

} // namespace

qint64 HistoryCounts::countPiece(QByteArrayView piece) const
{
    const bool keep = piece.size() <= MaxKeptPiece;
    const QByteArray key = keep ? piece.toByteArray() : QByteArray();
    if (keep) {
        const QMutexLocker locker(&m_mutex);
        const auto it = m_pieces.constFind(key);
        if (it != m_pieces.cend())
            return *it;
    }
    const qint64 tokens = m_tokenizer->count(piece);
    ++m_piecesCounted;
    if (keep) {
        const QMutexLocker locker(&m_mutex);
        // Each key costs its bytes and a node: a piece counts for a line.
        const qint64 cost = key.size() + 64;
        if (m_pieceBytes + cost > MaxCachedPieceBytes) {
            m_pieces.clear();
            m_pieceBytes = 0;
        }
        if (!m_pieces.contains(key)) {
            m_pieces.insert(key, tokens);
            m_pieceBytes += cost;
        }
    }
    return tokens;
}

// The tokens of `text`, summed over its pieces cut right after each line feed
// that startsPiece() allows; `lastPiece` receives the last one.
qint64 HistoryCounts::countByLines(QByteArrayView text, QByteArrayView *lastPiece) const
{
    qint64 tokens = 0;
    qsizetype begin = 0;
    for (qsizetype i = text.indexOf('\n'); i >= 0 && i + 1 < text.size();
         i = text.indexOf('\n', i + 1)) {
        if (!startsPiece(text[i + 1]))
            continue;
        tokens += countPiece(text.sliced(begin, i + 1 - begin));
        begin = i + 1;
    }
    *lastPiece = text.sliced(begin);
    return tokens + countPiece(*lastPiece);
}

HistoryCounts::Section HistoryCounts::countSection(int slot, QByteArrayView bytes) const
{
    Section section;
    QByteArray text = composeSection(slot, bytes, &section.truncated, m_rule);
    section.bytes = text.size();
    if (m_tokenizer->splitsAtLines()) {
        QByteArrayView last;
        section.tokens = countByLines(text, &last);
        // The join can merge only with the last piece (".\n\n" is one token).
        section.shareTokens = section.tokens - countPiece(last)
                              + countPiece(last.toByteArray() + m_rule.sectionJoin);
    } else {
        section.tokens = m_tokenizer->count(text);
        text.append(m_rule.sectionJoin);
        section.shareTokens = m_tokenizer->count(text);
    }
    ++m_counted;
    return section;
}

QByteArray HistoryCounts::key(int slot, const QByteArray &blobId)
{
    return QByteArray::number(slot) + ':' + blobId;
}

std::optional<HistoryCounts::Section> HistoryCounts::find(int slot, const QByteArray &blobId) const
{
    const QMutexLocker locker(&m_mutex);
    const auto it = m_sections.constFind(key(slot, blobId));
    if (it == m_sections.cend())
        return std::nullopt;
    return *it;
}

void HistoryCounts::insert(int slot, const QByteArray &blobId, const Section &section)
{
    const QMutexLocker locker(&m_mutex);
    if (m_sections.size() >= MaxCachedSections)
        m_sections.clear();
    m_sections.insert(key(slot, blobId), section);
}

void HistoryCounts::addSoul(SoulFigures &figures,
                            const std::array<std::optional<Section>, SlotCount> &sections) const
{
    figures.soulBytes = 0;
    figures.soulTokens = 0;
    const Section *previous = nullptr;
    for (const int slot : m_rule.order) {
        const std::optional<Section> &section = sections[size_t(slot)];
        if (!section)
            continue;
        figures.sectionBytes[size_t(slot)] = section->bytes;
        figures.sectionTokens[size_t(slot)] = section->tokens;
        if (previous) {
            figures.soulBytes += m_rule.sectionJoin.size();
            figures.soulTokens += previous->shareTokens;
        }
        figures.soulBytes += section->bytes;
        previous = &*section;
    }
    if (previous)
        figures.soulTokens += previous->tokens;
}

} // namespace soul
