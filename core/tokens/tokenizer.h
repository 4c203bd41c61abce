#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <memory>
#include <vector>

// Exact token counts for the tokenizers persona authors pay in: OpenAI's
// o200k_base (the default) and cl100k_base, bundled, and a byte-level BPE
// tokenizer.json of Hugging Face (Llama 3, Qwen 2/3, DeepSeek) that the user
// picks.
//
// Text is counted as the compose rule decodes it: lossy UTF-8 by maximal
// subparts, a leading BOM kept (and counted) as U+FEFF, CR LF kept. Counting
// uses "ordinary" semantics: text that looks like a special token
// ("<|endoftext|>") is plain text, as tiktoken's encode_ordinary treats it;
// a tokenizer.json's added tokens are not split out either, and no
// beginning-of-text token is added.
//
// A Tokenizer is immutable and safe to use from any number of threads.
namespace soul {

namespace tokens {
class BytePairModel;
class Pretokenizer;
} // namespace tokens

class Tokenizer
{
public:
    // "o200k_base" (also for an empty name) or "cl100k_base"; nullptr for any
    // other name. The ranks load on first use, once per encoding, and are
    // shared by every caller for the life of the process.
    static std::shared_ptr<const Tokenizer> builtin(QStringView encodingName);
    // A Hugging Face tokenizer.json of a byte-level BPE model. Any other model
    // (SentencePiece, WordPiece, Unigram) is refused with a sentence naming
    // the file.
    static Result<std::shared_ptr<const Tokenizer>> fromHuggingFaceJson(const QString &path);

    // The encoding's name, or the tokenizer.json's file name.
    QString name() const;
    std::vector<quint32> encode(QByteArrayView utf8) const;
    qint64 count(QByteArrayView utf8) const;
    // Whether no token crosses the point right after a line feed that is
    // followed by an ASCII letter, so that counts of a text cut there add up
    // to the text's: true for the built-in encodings (their patterns end
    // every piece that holds a line feed at it), false for a tokenizer.json.
    bool splitsAtLines() const { return m_chunkAtLines; }

    ~Tokenizer();
    Tokenizer(const Tokenizer &) = delete;
    Tokenizer &operator=(const Tokenizer &) = delete;

private:
    Tokenizer(QString name,
              std::unique_ptr<tokens::BytePairModel> model,
              std::unique_ptr<tokens::Pretokenizer> pretokenizer,
              bool nfc,
              bool chunkAtLines);
    static std::shared_ptr<const Tokenizer> loadBuiltin(const QString &name);
    template<typename Sink>
    void run(QByteArrayView utf8, Sink &sink) const;

    QString m_name;
    std::unique_ptr<tokens::BytePairModel> m_model;
    std::unique_ptr<tokens::Pretokenizer> m_pretokenizer;
    bool m_nfc = false;
    bool m_chunkAtLines = false;
};

// The names builtin() accepts, the default first.
QStringList builtinEncodings();

} // namespace soul
