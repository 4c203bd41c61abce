#include "huggingfacejson.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>

#include <array>

namespace soul::tokens {

namespace {

// The pattern of a ByteLevel pre-tokenizer with use_regex (GPT-2's).
const char16_t Gpt2Pattern[]
    = uR"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

std::array<char16_t, 256> makeByteLevelAlphabet()
{
    std::array<char16_t, 256> chars{};
    char16_t next = 256;
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
        chars[size_t(b)] = printable ? char16_t(b) : next++;
    }
    return chars;
}

const std::array<char16_t, 256> &byteLevelAlphabet()
{
    static const std::array<char16_t, 256> chars = makeByteLevelAlphabet();
    return chars;
}

// Byte-level text back to bytes; false when a character is not in the alphabet.
bool fromByteLevel(const QString &text, QByteArray &out, const QHash<char16_t, uchar> &bytes)
{
    out.clear();
    out.reserve(text.size());
    for (const QChar c : text) {
        const auto it = bytes.constFind(c.unicode());
        if (it == bytes.constEnd())
            return false;
        out.append(char(*it));
    }
    return true;
}

QString typeOf(const QJsonValue &v)
{
    return v.toObject().value(QLatin1String("type")).toString();
}

} // namespace

char16_t byteLevelChar(uchar b)
{
    return byteLevelAlphabet()[b];
}

Result<HuggingFaceModel> parseHuggingFaceJson(const QByteArray &json, const QString &path)
{
    using R = Result<HuggingFaceModel>;
    const auto fail = [&path](const QString &why) {
        return R::failure(QStringLiteral("%1: %2").arg(path, why));
    };
    const QString outOfScope = QStringLiteral(
        "%1; only byte-level BPE tokenizers (Llama 3, Qwen 2/3, DeepSeek and the like) are "
        "supported, SentencePiece, WordPiece and Unigram models are out of scope. Choose "
        "another tokenizer.json or a built-in encoding.");

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return fail(QStringLiteral("not a tokenizer.json (%1 at byte %2).")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    const QJsonObject root = doc.object();
    const QJsonObject model = root.value(QLatin1String("model")).toObject();
    if (model.isEmpty())
        return fail(QStringLiteral("not a tokenizer.json (it has no \"model\")."));

    const QString modelType = model.value(QLatin1String("type")).toString();
    if (!modelType.isEmpty() && modelType != QLatin1String("BPE"))
        return fail(outOfScope.arg(QStringLiteral("a %1 model").arg(modelType)));
    if (model.value(QLatin1String("byte_fallback")).toBool())
        return fail(
            outOfScope.arg(QStringLiteral("a SentencePiece-style BPE model (byte fallback)")));
    const QString preType = typeOf(root.value(QLatin1String("pre_tokenizer")));
    if (preType == QLatin1String("Metaspace"))
        return fail(outOfScope.arg(QStringLiteral("a SentencePiece-style model (Metaspace)")));
    if (!model.value(QLatin1String("dropout")).isNull()
        && !model.value(QLatin1String("dropout")).isUndefined())
        return fail(outOfScope.arg(QStringLiteral("a BPE model with dropout")));
    for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        const QJsonValue v = model.value(QLatin1String(key));
        if (!v.isNull() && !v.isUndefined() && !v.toString().isEmpty())
            return fail(
                outOfScope.arg(QStringLiteral("a BPE model with a %1").arg(QLatin1String(key))));
    }

    bool nfc = false;
    const QJsonValue normalizer = root.value(QLatin1String("normalizer"));
    if (!normalizer.isNull() && !normalizer.isUndefined()) {
        if (typeOf(normalizer) != QLatin1String("NFC"))
            return fail(outOfScope.arg(QStringLiteral("a %1 normalizer").arg(typeOf(normalizer))));
        nfc = true;
    }

    // The pre-tokenizer: Split steps, then ByteLevel.
    QJsonArray steps;
    if (preType == QLatin1String("Sequence"))
        steps = root.value(QLatin1String("pre_tokenizer"))
                    .toObject()
                    .value(QLatin1String("pretokenizers"))
                    .toArray();
    else if (!preType.isEmpty())
        steps.append(root.value(QLatin1String("pre_tokenizer")));
    QStringList patterns;
    bool byteLevel = false;
    for (const QJsonValue &step : std::as_const(steps)) {
        const QJsonObject o = step.toObject();
        const QString type = o.value(QLatin1String("type")).toString();
        if (byteLevel)
            return fail(outOfScope.arg(QStringLiteral("a %1 step after ByteLevel").arg(type)));
        if (type == QLatin1String("Split")) {
            const QJsonObject pattern = o.value(QLatin1String("pattern")).toObject();
            const QString behavior = o.value(QLatin1String("behavior")).toString();
            if (behavior != QLatin1String("Isolated") || o.value(QLatin1String("invert")).toBool())
                return fail(outOfScope.arg(
                    QStringLiteral("a Split pre-tokenizer with the %1 behaviour").arg(behavior)));
            if (pattern.contains(QLatin1String("Regex")))
                patterns << pattern.value(QLatin1String("Regex")).toString();
            else
                patterns << QRegularExpression::escape(
                    pattern.value(QLatin1String("String")).toString());
        } else if (type == QLatin1String("ByteLevel")) {
            if (o.value(QLatin1String("add_prefix_space")).toBool())
                return fail(outOfScope.arg(
                    QStringLiteral("a ByteLevel pre-tokenizer that adds a prefix space")));
            if (o.value(QLatin1String("use_regex")).toBool(true))
                patterns << QString::fromUtf16(Gpt2Pattern);
            byteLevel = true;
        } else {
            return fail(outOfScope.arg(QStringLiteral("a %1 pre-tokenizer")
                                           .arg(type.isEmpty() ? QStringLiteral("missing") : type)));
        }
    }
    if (!byteLevel)
        return fail(
            outOfScope.arg(QStringLiteral("not a byte-level model (no ByteLevel pre-tokenizer)")));
    Result<Pretokenizer> pretokenizer = Pretokenizer::create(patterns, /*dropGaps=*/false);
    if (!pretokenizer.ok())
        return fail(
            QStringLiteral("its pre-tokenizer cannot be used: %1.").arg(pretokenizer.error()));

    // The vocabulary, in the byte-level alphabet.
    QHash<char16_t, uchar> bytes;
    for (int b = 0; b < 256; ++b)
        bytes.insert(byteLevelChar(uchar(b)), uchar(b));
    const QJsonObject vocab = model.value(QLatin1String("vocab")).toObject();
    if (vocab.isEmpty())
        return fail(QStringLiteral("its model has no vocabulary."));
    RankTable table;
    table.reserve(vocab.size(), vocab.size() * 8);
    QByteArray token;
    for (auto it = vocab.constBegin(); it != vocab.constEnd(); ++it) {
        // Tokens outside the byte alphabet (special tokens) cannot come out
        // of byte-level merging; they are skipped.
        if (!fromByteLevel(it.key(), token, bytes))
            continue;
        const qint64 id = it.value().toInteger(-1);
        if (id < 0 || id >= qint64(RankTable::NoId))
            return fail(
                QStringLiteral("the vocabulary entry \"%1\" has no valid id.").arg(it.key()));
        table.insert(token, quint32(id));
    }

    const QJsonArray merges = model.value(QLatin1String("merges")).toArray();
    PairTable pairs;
    pairs.reserve(merges.size());
    QByteArray left;
    QByteArray right;
    for (qsizetype rank = 0; rank < merges.size(); ++rank) {
        const QJsonValue m = merges.at(rank);
        QString a;
        QString b;
        if (m.isArray()) {
            a = m.toArray().at(0).toString();
            b = m.toArray().at(1).toString();
        } else {
            const QString s = m.toString();
            const qsizetype space = s.indexOf(u' ', 1);
            if (space > 0) {
                a = s.left(space);
                b = s.mid(space + 1);
            }
        }
        if (a.isEmpty() || b.isEmpty() || !fromByteLevel(a, left, bytes)
            || !fromByteLevel(b, right, bytes))
            return fail(QStringLiteral("merge %1 is not a pair of byte-level tokens.").arg(rank));
        const quint32 leftId = table.find(left);
        const quint32 rightId = table.find(right);
        const quint32 mergedId = table.find(left + right);
        if (leftId == RankTable::NoId || rightId == RankTable::NoId || mergedId == RankTable::NoId)
            return fail(QStringLiteral("merge %1 (\"%2\" \"%3\") uses a token that is not in the "
                                       "vocabulary.")
                            .arg(rank)
                            .arg(a, b));
        pairs.insert(leftId, rightId, PairTable::Merge{quint32(rank), mergedId});
    }
    const bool ignoreMerges = model.value(QLatin1String("ignore_merges")).toBool();
    return HuggingFaceModel{BytePairModel::fromMerges(std::move(table),
                                                      std::move(pairs),
                                                      ignoreMerges),
                            std::move(pretokenizer).value(),
                            nfc};
}

} // namespace soul::tokens
