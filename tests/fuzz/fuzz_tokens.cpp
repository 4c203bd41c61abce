// The byte-pair encoder of both built-in encodings on arbitrary text, for
// libFuzzer. The ids are decoded with a table made here from the rank files
// (not with the encoder's own), and must give back the text's bytes as the
// compose rule decodes them; count() must agree with encode(); and no token
// may span a line feed followed by an ASCII letter, the boundary that counting
// in chunks and the live comparison rely on.
#include "fuzzsupport.h"

#include "tokens/tokenizer.h"

#include <QFile>

#include <cstdint>
#include <vector>

using namespace soul;

namespace {

struct Encoding
{
    std::shared_ptr<const Tokenizer> tokenizer;
    std::vector<QByteArray> bytesOf; // by id
};

// The rank file embedded in the program, "BASE64 RANK" a line, read with
// QByteArray::fromBase64 rather than the encoder's own parser.
Encoding load(const char *name)
{
    Encoding e;
    e.tokenizer = Tokenizer::builtin(QString::fromLatin1(name));
    fuzz::require(e.tokenizer != nullptr, "the built-in encoding loads");
    QFile file(QStringLiteral(":/tokenizers/%1.tiktoken").arg(QLatin1String(name)));
    fuzz::require(file.open(QIODevice::ReadOnly), "the rank file is embedded");
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.isEmpty())
            continue;
        const qsizetype space = line.indexOf(' ');
        bool ok = false;
        const qulonglong rank = line.mid(space + 1).toULongLong(&ok);
        fuzz::require(space > 0 && ok && rank < 1000000, "a rank line is \"BASE64 RANK\"");
        if (e.bytesOf.size() <= rank)
            e.bytesOf.resize(size_t(rank) + 1);
        e.bytesOf[size_t(rank)] = QByteArray::fromBase64(line.left(space));
    }
    return e;
}

const std::vector<Encoding> &encodings()
{
    static const std::vector<Encoding> all = {load("o200k_base"), load("cl100k_base")};
    return all;
}

QByteArray decoded(const Encoding &e, const std::vector<quint32> &ids)
{
    QByteArray out;
    for (const quint32 id : ids) {
        fuzz::require(id < e.bytesOf.size() && !e.bytesOf[id].isEmpty(),
                      "every id is a token of the encoding");
        out += e.bytesOf[id];
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    encodings();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    const QByteArray expected = fuzz::referenceSanitize(text);
    // The first line feed followed by an ASCII letter, if any: the text is
    // encoded in two parts there too.
    qsizetype cut = -1;
    for (qsizetype i = 0; i + 1 < text.size() && cut < 0; ++i) {
        const char next = text[i + 1];
        if (text[i] == '\n' && ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z')))
            cut = i + 1;
    }
    for (const Encoding &e : encodings()) {
        const std::vector<quint32> ids = e.tokenizer->encode(text);
        fuzz::require(decoded(e, ids) == expected, "the ids decode to the text's bytes");
        fuzz::require(e.tokenizer->count(text) == qint64(ids.size()), "count() is encode().size()");
        fuzz::require(expected.isEmpty() == ids.empty(), "only empty text has no tokens");
        if (cut > 0) {
            std::vector<quint32> parts = e.tokenizer->encode(text.first(cut));
            const std::vector<quint32> rest = e.tokenizer->encode(text.sliced(cut));
            parts.insert(parts.end(), rest.begin(), rest.end());
            fuzz::require(parts == ids, "no token spans a line feed before an ASCII letter");
        }
    }
    return 0;
}
