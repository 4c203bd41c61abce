#pragma once

#include <QByteArrayView>
#include <QHash>

#include <memory>
#include <vector>

namespace soul {

class Tokenizer;

// Where a text may be cut so that the counts of its chunks add up to the
// count of the text: right after a line feed followed by an ASCII letter,
// where no piece of the built-in encodings reaches across (the engine cuts
// long texts there too; Tokenizer::splitsAtLines()). The cuts are chosen by
// the bytes before them, not by their place, so an edit moves only the cuts
// near it; chunks are 16 KiB to about 128 KiB long.
std::vector<qsizetype> tokenCutPoints(QByteArrayView utf8);

// Exact token counts of texts that mostly repeat texts counted before (a
// runtime's text, run again after each pause in typing): each text is
// counted by chunks cut at tokenCutPoints(), and a chunk counted in this
// round or the one before is not counted again. A tokenizer that does not
// split at lines counts every text whole.
//
// Not thread-safe: one thread counts with it at a time.
class ChunkedTokenCount
{
public:
    // Counts with `tokenizer`; another tokenizer than the last one's forgets
    // every chunk.
    qint64 count(const std::shared_ptr<const Tokenizer> &tokenizer, QByteArrayView utf8);
    // Starts a round: chunks not met since the last call are forgotten.
    void nextRound();

    // For tests: chunks counted by the tokenizer, not found, so far.
    qint64 chunksCounted() const { return m_counted; }

private:
    struct Key
    {
        size_t first = 0;
        size_t second = 0;
        qsizetype size = 0;
        bool operator==(const Key &other) const
        {
            return first == other.first && second == other.second && size == other.size;
        }
    };
    friend size_t qHash(const Key &key, size_t seed) noexcept
    {
        return qHashMulti(seed, key.first, key.second, key.size);
    }
    static Key keyOf(QByteArrayView chunk);

    std::shared_ptr<const Tokenizer> m_tokenizer;
    QHash<Key, qint64> m_current;
    QHash<Key, qint64> m_previous;
    qint64 m_counted = 0;
};

} // namespace soul
