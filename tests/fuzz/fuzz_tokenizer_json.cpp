// Loading a Hugging Face tokenizer.json, for libFuzzer. The input is the
// file's bytes, then optionally a NUL and a text to encode with it (a sample
// text when there is none). A file that does not load says so in a sentence
// naming it; one that loads encodes the text into ids that decode, with the
// vocabulary as read here apart from the loader, to the text's bytes (after
// NFC when the file asks for it), less bytes the vocabulary has no token of
// their own for, which a byte-level BPE without an unknown token drops.
#include "fuzzsupport.h"

#include "tokens/tokenizer.h"

#include <QDir>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>

#include <array>
#include <cstdint>
#include <vector>

using namespace soul;

namespace {

// GPT-2's bytes_to_unicode: printable Latin-1 bytes stand for themselves, the
// others for U+0100 onwards in byte order.
const QHash<char16_t, uchar> &byteOfChar()
{
    static const QHash<char16_t, uchar> map = [] {
        QHash<char16_t, uchar> m;
        char16_t next = 0x100;
        for (int b = 0; b < 256; ++b) {
            const bool self = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
            m.insert(self ? char16_t(b) : next++, uchar(b));
        }
        return m;
    }();
    return map;
}

// The vocabulary's byte strings by id; `unique` is false when two tokens
// share an id (then ids cannot be decoded).
struct Vocabulary
{
    QHash<quint32, QByteArray> bytesOf;
    std::array<bool, 256> hasByte{};
    bool unique = true;
};

Vocabulary readVocabulary(const QByteArray &json)
{
    Vocabulary v;
    const QJsonObject vocab = QJsonDocument::fromJson(json)
                                  .object()
                                  .value(QLatin1String("model"))
                                  .toObject()
                                  .value(QLatin1String("vocab"))
                                  .toObject();
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
        QByteArray bytes;
        bool byteLevel = true;
        for (const QChar c : it.key()) {
            const auto found = byteOfChar().constFind(c.unicode());
            byteLevel = byteLevel && found != byteOfChar().constEnd();
            if (!byteLevel)
                break;
            bytes.append(char(*found));
        }
        if (!byteLevel)
            continue;
        const auto id = quint32(it.value().toInteger());
        if (v.bytesOf.contains(id))
            v.unique = false;
        v.bytesOf.insert(id, bytes);
        if (bytes.size() == 1)
            v.hasByte[uchar(bytes[0])] = true;
    }
    return v;
}

bool wantsNfc(const QByteArray &json)
{
    return QJsonDocument::fromJson(json)
               .object()
               .value(QLatin1String("normalizer"))
               .toObject()
               .value(QLatin1String("type"))
               .toString()
           == QLatin1String("NFC");
}

const QString &jsonPath()
{
    static const QString path = fuzz::scratchDir() + QStringLiteral("/tokenizer.json");
    return path;
}

const char SampleText[] = "Ava answers in short sentences, and never guesses.\n"
                          "## SOUL.md\n\nShe's 42; caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 "
                          "\xF0\x9F\xA6\x80  tabs\tand\r\nCRLF \xFF\xFE.";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype nul = input.indexOf('\0');
    const QByteArray json = nul < 0 ? input : input.left(nul);
    const QByteArray text = nul < 0 ? QByteArray(SampleText) : input.mid(nul + 1);
    fuzz::require(fuzz::writeFile(jsonPath(), json), "the scratch file is written");

    const auto loaded = Tokenizer::fromHuggingFaceJson(jsonPath());
    if (!loaded.ok()) {
        fuzz::require(loaded.error().contains(jsonPath()), "a refusal names the file");
        return 0;
    }
    const Tokenizer &tokenizer = *loaded.value();
    fuzz::require(tokenizer.name() == QLatin1String("tokenizer.json"), "named after its file");
    const std::vector<quint32> ids = tokenizer.encode(text);
    fuzz::require(tokenizer.count(text) == qint64(ids.size()), "count() is encode().size()");
    fuzz::require(tokenizer.encode(text) == ids, "encoding is deterministic");

    const Vocabulary vocabulary = readVocabulary(json);
    if (!vocabulary.unique)
        return 0;
    const QByteArray expected
        = wantsNfc(json)
              ? fuzz::referenceDecode(text).normalized(QString::NormalizationForm_C).toUtf8()
              : fuzz::referenceSanitize(text);
    QByteArray decoded;
    for (const quint32 id : ids) {
        const auto it = vocabulary.bytesOf.constFind(id);
        fuzz::require(it != vocabulary.bytesOf.constEnd(), "every id is in the vocabulary");
        decoded += *it;
    }
    // Equal, except that a byte without a token of its own may be missing
    // (one that a longer token holds is not: ignore_merges keeps a whole
    // piece that is in the vocabulary). Matching each byte as early as it
    // can be matched decides it: a skip could always move later.
    qsizetype next = 0;
    for (const char c : std::as_const(expected)) {
        if (next < decoded.size() && decoded[next] == c)
            ++next;
        else
            fuzz::require(!vocabulary.hasByte[uchar(c)], "the ids decode to the text's bytes");
    }
    fuzz::require(next == decoded.size(), "the ids decode to nothing but the text's bytes");
    return 0;
}
