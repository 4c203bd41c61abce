#include "compose/composer.h"
#include "compose/contract.h"
#include "compose/utf8.h"
#include "tokens/bytepairmodel.h"
#include "tokens/huggingfacejson.h"
#include "tokens/tiktokenfile.h"
#include "tokens/tokenchunks.h"
#include "tokens/tokenizer.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QResource>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <algorithm>
#include <thread>

using namespace soul;

namespace {
// The numbers of today's toolnexus rule, whose exact output these tests check.
const qint64 CapBytes = ComposeRule::toolnexus().capBytes;
} // namespace

Q_DECLARE_METATYPE(std::vector<quint32>)

namespace {

QString dataDir()
{
    return QStringLiteral(SOUL_TEST_DATA_DIR);
}

std::shared_ptr<const Tokenizer> tokenizer(const QString &name)
{
    return Tokenizer::builtin(name);
}

// The SHA-256 of the ids as 32-bit little-endian numbers, as
// .ci/token-goldens.js hashes tiktoken's ids for the long pieces.
QByteArray idsSha256(const std::vector<quint32> &ids)
{
    QByteArray raw;
    raw.reserve(qsizetype(ids.size() * 4));
    for (const quint32 id : ids) {
        const quint32 le = qToLittleEndian(id);
        raw.append(reinterpret_cast<const char *>(&le), 4);
    }
    return QCryptographicHash::hash(raw, QCryptographicHash::Sha256).toHex();
}

// tests/data/tokenizers/tiktoken-goldens.json: what npm tiktoken gives for
// the texts of .ci/token-goldens.js, which wrote it (and CI checks it).
QJsonObject tiktokenGoldens()
{
    QFile file(dataDir() + QStringLiteral("/tokenizers/tiktoken-goldens.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// A text of the goldens: its segments' bytes, as the script describes them.
QByteArray bytesOf(const QJsonArray &segments)
{
    QByteArray out;
    for (const QJsonValue &value : segments) {
        const QJsonObject segment = value.toObject();
        if (segment.contains(QLatin1String("text"))) {
            out += segment.value(QLatin1String("text")).toString().toUtf8();
        } else if (segment.contains(QLatin1String("hex"))) {
            out += QByteArray::fromHex(segment.value(QLatin1String("hex")).toString().toLatin1());
        } else if (segment.contains(QLatin1String("repeat"))) {
            out += segment.value(QLatin1String("repeat"))
                       .toString()
                       .toUtf8()
                       .repeated(segment.value(QLatin1String("times")).toInt());
        } else if (segment.contains(QLatin1String("base64Sequence"))) {
            const int n = segment.value(QLatin1String("base64Sequence")).toInt();
            QByteArray raw;
            for (quint32 i = 0; i < quint32(n); ++i)
                raw.append(char(((i * 2654435761u) >> 13) & 255));
            out += raw.toBase64();
        } else {
            return {}; // an unknown segment: no row can match it
        }
    }
    return out;
}

std::vector<quint32> idsOf(const QJsonArray &array)
{
    std::vector<quint32> ids;
    for (const QJsonValue &id : array)
        ids.push_back(quint32(id.toInteger()));
    return ids;
}

std::vector<quint32> concat(std::vector<quint32> a, const std::vector<quint32> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// tiktoken's byte-pair merge written the plain quadratic way: every round,
// merge the leftmost pair of lowest rank. The engine must give the same ids.
std::vector<quint32> referenceMerge(const tokens::RankTable &ranks, QByteArrayView piece)
{
    std::vector<qsizetype> starts;
    for (qsizetype i = 0; i <= piece.size(); ++i)
        starts.push_back(i);
    for (;;) {
        quint32 best = tokens::RankTable::NoId;
        size_t at = 0;
        for (size_t i = 0; i + 2 < starts.size(); ++i) {
            const quint32 r = ranks.find(piece.sliced(starts[i], starts[i + 2] - starts[i]));
            if (r < best) {
                best = r;
                at = i;
            }
        }
        if (best == tokens::RankTable::NoId)
            break;
        starts.erase(starts.begin() + qsizetype(at) + 1);
    }
    std::vector<quint32> ids;
    for (size_t i = 0; i + 1 < starts.size(); ++i)
        ids.push_back(ranks.find(piece.sliced(starts[i], starts[i + 1] - starts[i])));
    return ids;
}

QByteArray readResource(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// A small byte-level BPE tokenizer.json: the 256 byte tokens (ids 0..255 in
// byte order) and a few merges.
QByteArray smallTokenizerJson(const QString &preTokenizer,
                              const QString &normalizer,
                              const QString &modelExtra = {})
{
    QString vocab;
    for (int b = 0; b < 256; ++b) {
        const QChar c(tokens::byteLevelChar(uchar(b)));
        QString key = c == u'"'    ? QStringLiteral("\\\"")
                      : c == u'\\' ? QStringLiteral("\\\\")
                                   : QString(c);
        vocab += QStringLiteral("\"%1\":%2,").arg(key).arg(b);
    }
    vocab += QStringLiteral("\"he\":256,\"ll\":257,\"hell\":258,\"hello\":259,\"\\u0120h\":260,"
                            "\"\\u0120hello\":261,\"lo\":262");
    const QString merges = QStringLiteral(
        "[\"l l\",\"h e\",\"he ll\",\"hell o\",\"\\u0120 h\",\"l o\"]");
    return QStringLiteral(
               "{\"version\":\"1.0\",\"added_tokens\":[],\"normalizer\":%1,"
               "\"pre_tokenizer\":%2,\"model\":{\"type\":\"BPE\",\"dropout\":null,"
               "\"unk_token\":null,\"byte_fallback\":false%3,\"vocab\":{%4},\"merges\":%5}}")
        .arg(normalizer, preTokenizer, modelExtra, vocab, merges)
        .toUtf8();
}

const char Gpt2ByteLevel[]
    = R"({"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true})";

} // namespace

class TestTokenizer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtinEncodings_()
    {
        QCOMPARE(builtinEncodings(),
                 (QStringList{QStringLiteral("o200k_base"), QStringLiteral("cl100k_base")}));
        QCOMPARE(Tokenizer::builtin(u"")->name(), QStringLiteral("o200k_base"));
        QCOMPARE(Tokenizer::builtin(u"cl100k_base")->name(), QStringLiteral("cl100k_base"));
        QVERIFY(Tokenizer::builtin(u"p50k_base") == nullptr);
        QVERIFY(Tokenizer::builtin(u"O200K_BASE") == nullptr);
        // Loaded once and shared.
        QCOMPARE(Tokenizer::builtin(u"o200k_base").get(), Tokenizer::builtin(u"").get());
    }

    // The sizes and whole SHA-256 of the ranks npm tiktoken ships.
    void ranksAreEmbeddedCompressed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("size");
        QTest::addColumn<QByteArray>("sha256");
        const QJsonArray files = tiktokenGoldens().value(QLatin1String("rankFiles")).toArray();
        QCOMPARE(files.size(), qsizetype(builtinEncodings().size()));
        for (const QJsonValue &value : files) {
            const QJsonObject file = value.toObject();
            const QString name = file.value(QLatin1String("encoding")).toString();
            QTest::newRow(qPrintable(name))
                << name << file.value(QLatin1String("bytes")).toInteger()
                << file.value(QLatin1String("sha256")).toString().toLatin1();
        }
    }
    void ranksAreEmbeddedCompressed()
    {
        QFETCH(QString, name);
        QFETCH(qint64, size);
        QFETCH(QByteArray, sha256);
        const QString path = QStringLiteral(":/tokenizers/%1.tiktoken").arg(name);
        const QResource resource(path);
        QVERIFY(resource.isValid());
        QCOMPARE(resource.compressionAlgorithm(), QResource::ZstdCompression);
        QCOMPARE(resource.uncompressedSize(), size);
        QVERIFY2(resource.size() < size / 2, qPrintable(QString::number(resource.size())));
        const QByteArray bytes = readResource(path);
        QCOMPARE(bytes.size(), size);
        QCOMPARE(sha256.size(), qsizetype(64));
        QCOMPARE(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex(), sha256);
    }

    void testPlans_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QByteArray>("sample");
        QTest::addColumn<std::vector<quint32>>("expected");
        QFile file(dataDir() + QStringLiteral("/tokenizers/testplans.txt"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QString encoding;
        QByteArray sample;
        int rows = 0;
        for (const QByteArray &line : lines) {
            if (line.startsWith("EncodingName: ")) {
                encoding = QString::fromLatin1(line.mid(14));
            } else if (line.startsWith("Sample: ")) {
                sample = line.mid(8);
            } else if (line.startsWith("Encoded: [")) {
                std::vector<quint32> ids;
                const QByteArray list = line.mid(10, line.size() - 11);
                for (const QByteArray &id : list.split(',')) {
                    if (!id.trimmed().isEmpty())
                        ids.push_back(id.trimmed().toUInt());
                }
                ++rows;
                QTest::addRow("%s %d %s", qPrintable(encoding), rows, sample.left(24).constData())
                    << encoding << sample << ids;
            }
        }
        QCOMPARE(rows, 64 + 57);
    }
    void testPlans()
    {
        QFETCH(QString, encoding);
        QFETCH(QByteArray, sample);
        QFETCH(std::vector<quint32>, expected);
        const auto t = tokenizer(encoding);
        QVERIFY(t);
        QCOMPARE(t->encode(sample), expected);
        QCOMPARE(t->count(sample), qint64(expected.size()));
    }

    // Short texts at the edges (BOM, CR LF, special token look-alikes,
    // U+180E, contractions, invalid UTF-8, seams), as tiktoken encodes them.
    void golden_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<std::vector<quint32>>("expected");
        const QJsonArray rows = tiktokenGoldens().value(QLatin1String("golden")).toArray();
        QVERIFY(rows.size() >= 9);
        for (const QJsonValue &value : rows) {
            const QJsonObject row = value.toObject();
            const QByteArray text = bytesOf(row.value(QLatin1String("bytes")).toArray());
            const std::vector<quint32> ids = idsOf(row.value(QLatin1String("ids")).toArray());
            QVERIFY(!text.isEmpty() && !ids.empty());
            QTest::newRow(qPrintable(row.value(QLatin1String("name")).toString()))
                << row.value(QLatin1String("encoding")).toString() << text << ids;
        }
    }
    void golden()
    {
        QFETCH(QString, encoding);
        QFETCH(QByteArray, text);
        QFETCH(std::vector<quint32>, expected);
        QCOMPARE(tokenizer(encoding)->encode(text), expected);
        QCOMPARE(tokenizer(encoding)->count(text), qint64(expected.size()));
    }

    void invalidUtf8IsDecodedAsTheComposeRuleDoes_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("lone continuation") << QByteArray("ab\x80"
                                                         "cd");
        QTest::newRow("cut 4-byte sequence") << QByteArray("x\xF0\x9F\x98");
        QTest::newRow("overlong NUL") << QByteArray("\xC0\x80 y");
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80z");
        QTest::newRow("BOM then invalid") << QByteArray("\xEF\xBB\xBF\xFF\xFE text");
    }
    void invalidUtf8IsDecodedAsTheComposeRuleDoes()
    {
        QFETCH(QByteArray, bytes);
        for (const QString &name : builtinEncodings()) {
            const auto t = tokenizer(name);
            const QByteArray decoded = utf8::sanitize(bytes);
            QVERIFY(decoded != bytes);
            QCOMPARE(t->encode(bytes), t->encode(decoded));
            QCOMPARE(t->count(bytes), t->count(decoded));
        }
    }

    // Long pieces (tiktoken's counts and the SHA-256 of its ids), through
    // the heap merge.
    void longPieces_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<QByteArray>("sha256");
        const QJsonArray rows = tiktokenGoldens().value(QLatin1String("longPieces")).toArray();
        QVERIFY(rows.size() >= 10);
        for (const QJsonValue &value : rows) {
            const QJsonObject row = value.toObject();
            const QByteArray text = bytesOf(row.value(QLatin1String("bytes")).toArray());
            QVERIFY(text.size() > tokens::BytePairModel::FlatLimit);
            QTest::newRow(qPrintable(row.value(QLatin1String("name")).toString()))
                << row.value(QLatin1String("encoding")).toString() << text
                << row.value(QLatin1String("count")).toInteger()
                << row.value(QLatin1String("idsSha256")).toString().toLatin1();
        }
    }
    void longPieces()
    {
        QFETCH(QString, encoding);
        QFETCH(QByteArray, text);
        QFETCH(qint64, count);
        QFETCH(QByteArray, sha256);
        const std::vector<quint32> ids = tokenizer(encoding)->encode(text);
        QCOMPARE(qint64(ids.size()), count);
        QCOMPARE(idsSha256(ids), sha256);
        QCOMPARE(tokenizer(encoding)->count(text), count);
    }

    void megabyteOfOneLetter()
    {
        // Eight letters are one token in both encodings (the 100,000-letter
        // long pieces of the goldens), so a mebibyte is 131,072 tokens, all the same.
        const QByteArray text(1 << 20, 'a');
        for (const QString &name : builtinEncodings()) {
            const std::vector<quint32> ids = tokenizer(name)->encode(text);
            QCOMPARE(ids.size(), size_t(131072));
            QCOMPARE(std::count(ids.begin(), ids.end(), ids.front()), qsizetype(ids.size()));
            QCOMPARE(tokenizer(name)->encode("aaaaaaaa"), std::vector<quint32>{ids.front()});
        }
    }

    // The heap merge of long pieces against the plain quadratic merge.
    void heapMergeEqualsPlainMerge_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::newRow("o200k_base") << QStringLiteral("o200k_base");
        QTest::newRow("cl100k_base") << QStringLiteral("cl100k_base");
    }
    void heapMergeEqualsPlainMerge()
    {
        QFETCH(QString, encoding);
        const QString origin = QStringLiteral(":/tokenizers/%1.tiktoken").arg(encoding);
        Result<tokens::RankTable> ranks = tokens::parseTiktokenRanks(readResource(origin), origin);
        QVERIFY2(ranks.ok(), qPrintable(ranks.error()));
        const tokens::RankTable table = ranks.value();
        const tokens::BytePairModel model = tokens::BytePairModel::fromRanks(
            std::move(ranks).value());
        tokens::BytePairModel::Scratch scratch;
        QRandomGenerator rng(20261201);
        const QByteArray alphabets[]
            = {"ab",
               "abcdefghijklmnopqrstuvwxyz",
               "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
               "0123456789",
               "\xE4\xB8\xAD\xE6\x96\x87\xF0\x9F\x98\x80 e\xCC\x81"};
        for (const QByteArray &alphabet : alphabets) {
            for (int round = 0; round < 6; ++round) {
                const int length = tokens::BytePairModel::FlatLimit + 1 + int(rng.bounded(600));
                QByteArray piece;
                for (int i = 0; i < length; ++i)
                    piece.append(alphabet[qsizetype(rng.bounded(int(alphabet.size())))]);
                std::vector<quint32> ids;
                model.mergeInto(piece, scratch, ids);
                QCOMPARE(ids, referenceMerge(table, piece));
            }
        }
    }

    // Long texts are counted in chunks cut after a line feed before a letter;
    // the chunks must give the whole text's ids.
    void chunkedTextEqualsItsParts()
    {
        QRandomGenerator rng(7);
        const QByteArray words[] = {"Ava",
                                    " keeps",
                                    " notes.",
                                    "\n",
                                    "\n\n",
                                    " 12345",
                                    " \xF0\x9F\x98\x80",
                                    "\r\n",
                                    " don't",
                                    "  ",
                                    "\xE4\xB8\xAD\xE6\x96\x87",
                                    ":\n",
                                    "word"};
        QByteArray text;
        while (text.size() < 3 * (1 << 20))
            text += words[rng.bounded(int(std::size(words)))];
        for (const QString &name : builtinEncodings()) {
            const auto t = tokenizer(name);
            // Cut in the middle after a "\n" + letter, as the chunking does.
            qsizetype cut = text.indexOf("\nA", text.size() / 2);
            QVERIFY(cut > 0);
            ++cut;
            const std::vector<quint32> whole = t->encode(text);
            QCOMPARE(whole, concat(t->encode(text.first(cut)), t->encode(text.sliced(cut))));
            QCOMPARE(t->count(text), qint64(whole.size()));
        }
    }

    // The soul's tokens are its sections' tokens, each section with the
    // "\n\n" that joins it to the next: a token never spans the "\n\n## "
    // boundary. (The join alone is not a fixed count: after punctuation,
    // ".\n\n" is one token.)
    void seamsNeverMergeAcross_data()
    {
        QTest::addColumn<QString>("encoding");
        QTest::newRow("o200k_base") << QStringLiteral("o200k_base");
        QTest::newRow("cl100k_base") << QStringLiteral("cl100k_base");
    }
    void seamsNeverMergeAcross()
    {
        QFETCH(QString, encoding);
        const auto t = tokenizer(encoding);
        // Bodies that end (and begin) with every printable ASCII character,
        // and with letters, marks, digits, emoji and CJK; also an empty body
        // and the truncation notice.
        QList<QByteArray> edges;
        for (char c = 0x21; c < 0x7F; ++c)
            edges << QByteArray(1, c);
        edges << "\xC3\xA9"
              << "e\xCC\x81"
              << "\xE4\xB8\xAD"
              << "\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB"
              << "123"
              << "'s"
              << "\xEF\xBB\xBF"
              << "\xE2\x80\x8B"
              << "\xE1\xA0\x8E"
              << "x\r";
        int souls = 0;
        for (qsizetype i = 0; i < edges.size(); ++i) {
            SlotBuffers buffers;
            for (int slot = 0; slot < SlotCount; ++slot) {
                const QByteArray &a = edges[(i + slot) % edges.size()];
                const QByteArray &b = edges[(i * 7 + slot * 3) % edges.size()];
                if (slot == 3)
                    buffers[size_t(slot)] = QByteArray(); // an empty section
                else if (slot != 5 || i % 2 == 0)
                    buffers[size_t(slot)] = a + " body text " + b;
            }
            if (i == 0) // truncated: the notice ends the last section
                buffers[6] = QByteArray("Notes, kept short.\n").repeated(CapBytes / 19 + 1);
            const Composition c = compose(buffers);
            std::vector<quint32> pieces;
            qsizetype last = -1;
            for (int slot = 0; slot < SlotCount; ++slot) {
                if (!c.present[size_t(slot)])
                    continue;
                QByteArray section = c.soul.mid(c.sectionOffset[size_t(slot)],
                                                c.sectionLength[size_t(slot)]);
                QVERIFY(section.startsWith("## "));
                if (c.sectionOffset[size_t(slot)] + section.size() < c.soul.size())
                    section += SectionJoin;
                pieces = concat(pieces, t->encode(section));
                last = slot;
            }
            QVERIFY(last >= 0);
            QCOMPARE(t->encode(c.soul), pieces);
            ++souls;
        }
        QCOMPARE(souls, edges.size());
        // The join alone would be wrong after punctuation.
        QVERIFY(t->count("end.\n\n## A") != t->count("end.") + t->count("\n\n") + t->count("## A"));
    }

    // A runtime's text is counted again after every pause in typing; the
    // chunks it shares with the run before keep their counts, and the sum is
    // still the text's exact count.
    void chunkedCountReusesUnchangedChunks()
    {
        QRandomGenerator rng(11);
        const QByteArray words[] = {"Ava",
                                    " keeps",
                                    " notes.",
                                    "\n",
                                    "\nMemory",
                                    " \xF0\x9F\x98\x80",
                                    "\r\n",
                                    "  ",
                                    "\xE4\xB8\xAD\xE6\x96\x87",
                                    "\n- item"};
        QByteArray text;
        while (text.size() < (1 << 20))
            text += words[rng.bounded(int(std::size(words)))];
        const std::vector<qsizetype> cuts = tokenCutPoints(text);
        QVERIFY(cuts.size() > 8);
        for (const qsizetype cut : cuts) {
            QCOMPARE(text.at(cut - 1), '\n');
            QVERIFY(QChar::fromLatin1(text.at(cut)).isLetter());
        }
        for (const QString &name : builtinEncodings()) {
            const auto t = tokenizer(name);
            ChunkedTokenCount counts;
            counts.nextRound();
            QCOMPARE(counts.count(t, text), t->count(text));
            const qint64 first = counts.chunksCounted();
            QCOMPARE(first, qint64(cuts.size() + 1));
            // The same text again, in the next round: nothing is counted.
            counts.nextRound();
            QCOMPARE(counts.count(t, text), t->count(text));
            QCOMPARE(counts.chunksCounted(), first);
            // One word typed in the middle: a chunk or two are counted again.
            QByteArray edited = text;
            edited.insert(text.size() / 2, " typed");
            counts.nextRound();
            QCOMPARE(counts.count(t, edited), t->count(edited));
            QVERIFY2(counts.chunksCounted() - first <= 2,
                     qPrintable(QString::number(counts.chunksCounted() - first)));
            // A part of the text counted on its own is exact too.
            const QByteArrayView half = QByteArrayView(edited).first(edited.size() / 3);
            QCOMPARE(counts.count(t, half), t->count(half));
        }
    }

    // Chunks not met in a round are forgotten after it, and another
    // tokenizer counts everything again.
    void chunkedCountForgets()
    {
        const QByteArray a = QByteArray("Ava keeps notes.\n").repeated(20000);
        const QByteArray b = QByteArray("Bea keeps lists.\n").repeated(20000);
        const auto o200k = tokenizer(QStringLiteral("o200k_base"));
        const auto cl100k = tokenizer(QStringLiteral("cl100k_base"));
        ChunkedTokenCount counts;
        counts.nextRound();
        QCOMPARE(counts.count(o200k, a), o200k->count(a));
        const qint64 afterA = counts.chunksCounted();
        QVERIFY(afterA > 1);
        counts.nextRound();
        QCOMPARE(counts.count(o200k, a), o200k->count(a));
        QCOMPARE(counts.chunksCounted(), afterA);
        QCOMPARE(counts.count(o200k, b), o200k->count(b));
        const qint64 afterB = counts.chunksCounted();
        QVERIFY(afterB > afterA);
        // a was met in the round before: still known.
        counts.nextRound();
        QCOMPARE(counts.count(o200k, a), o200k->count(a));
        QCOMPARE(counts.chunksCounted(), afterB);
        // b was not met in the last round: forgotten.
        counts.nextRound();
        QCOMPARE(counts.count(o200k, b), o200k->count(b));
        QCOMPARE(counts.chunksCounted(), afterB + (afterB - afterA));
        // Another tokenizer: its own counts, every chunk counted.
        const qint64 beforeSwitch = counts.chunksCounted();
        QCOMPARE(counts.count(cl100k, b), cl100k->count(b));
        QCOMPARE(counts.chunksCounted(), beforeSwitch + (afterB - afterA));
        QCOMPARE(counts.count(nullptr, b), qint64(-1));
    }

    void sharedAcrossThreads()
    {
        const QByteArray text
            = QByteArray("Ava answers in short sentences; \xE4\xB8\xAD\xE6\x96\x87 too.\n")
                  .repeated(2000);
        const qint64 expected = Tokenizer::builtin(u"cl100k_base")->count(text);
        QVERIFY(expected > 0);
        std::vector<std::thread> threads;
        std::vector<qint64> counts(4, -1);
        std::vector<const Tokenizer *> seen(4, nullptr);
        for (size_t i = 0; i < counts.size(); ++i) {
            threads.emplace_back([&, i] {
                const auto t = Tokenizer::builtin(u"cl100k_base");
                seen[i] = t.get();
                counts[i] = t->count(text);
            });
        }
        for (auto &th : threads)
            th.join();
        for (size_t i = 0; i < counts.size(); ++i) {
            QCOMPARE(counts[i], expected);
            QCOMPARE(seen[i], Tokenizer::builtin(u"cl100k_base").get());
        }
    }

    void huggingFaceByteLevelBpe()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("tokenizer.json"));
        QVERIFY(writeFile(path,
                          smallTokenizerJson(QString::fromLatin1(Gpt2ByteLevel),
                                             QStringLiteral("null"))));
        const auto loaded = Tokenizer::fromHuggingFaceJson(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
        const auto t = loaded.value();
        QCOMPARE(t->name(), QStringLiteral("tokenizer.json"));
        // "hello": l+l (rank 0), h+e, he+ll, hell+o. " hello": the same
        // merges come first, so the space (0x20, U+0120 in the byte alphabet)
        // never meets h and stays alone. "hel lo": l+l is not adjacent in
        // "lo", so l+o (rank 5) merges there.
        QCOMPARE(t->encode("hello"), (std::vector<quint32>{259}));
        QCOMPARE(t->encode("hello hello"), (std::vector<quint32>{259, 32, 259}));
        QCOMPARE(t->count("hello hello"), qint64(3));
        QCOMPARE(t->encode(" hex"), (std::vector<quint32>{32, 256, 'x'}));
        QCOMPARE(t->encode(" h"), (std::vector<quint32>{260}));
        QCOMPARE(t->encode("lo"), (std::vector<quint32>{262}));
        // Split then ByteLevel without its own regex, as Llama 3 and Qwen write it.
        const QString sequence = QStringLiteral(
            R"({"type":"Sequence","pretokenizers":[{"type":"Split","pattern":{"Regex":" ?\\p{L}+|\\s+"},"behavior":"Isolated","invert":false},{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":false}]})");
        QVERIFY(writeFile(path, smallTokenizerJson(sequence, QStringLiteral(R"({"type":"NFC"})"))));
        const auto split = Tokenizer::fromHuggingFaceJson(path);
        QVERIFY2(split.ok(), qPrintable(split.error()));
        QCOMPARE(split.value()->encode("hello hello"), (std::vector<quint32>{259, 32, 259}));
        // NFC: "e" + COMBINING ACUTE becomes U+00E9 (C3 A9).
        QCOMPARE(split.value()->encode("e\xCC\x81"), (std::vector<quint32>{0xC3, 0xA9}));
        // ignore_merges: a piece that is in the vocabulary is one token.
        QVERIFY(writeFile(path,
                          smallTokenizerJson(QString::fromLatin1(Gpt2ByteLevel),
                                             QStringLiteral("null"),
                                             QStringLiteral(",\"ignore_merges\":true"))));
        QCOMPARE(Tokenizer::fromHuggingFaceJson(path).value()->encode("hell"),
                 (std::vector<quint32>{258}));
    }

    void huggingFaceOutOfScope_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("SentencePiece (Metaspace)")
            << smallTokenizerJson(QStringLiteral(R"({"type":"Metaspace","replacement":"\u2581"})"),
                                  QStringLiteral("null"))
            << QStringLiteral("SentencePiece");
        QTest::newRow("byte fallback")
            << smallTokenizerJson(QString::fromLatin1(Gpt2ByteLevel), QStringLiteral("null"))
                   .replace("\"byte_fallback\":false", "\"byte_fallback\":true")
            << QStringLiteral("SentencePiece");
        QTest::newRow("WordPiece")
            << QByteArray(R"({"model":{"type":"WordPiece","vocab":{"a":0}}})")
            << QStringLiteral("WordPiece");
        QTest::newRow("Unigram") << QByteArray(R"({"model":{"type":"Unigram","vocab":[["a",0]]}})")
                                 << QStringLiteral("Unigram");
        QTest::newRow("not JSON") << QByteArray("vocab: yes")
                                  << QStringLiteral("not a tokenizer.json");
    }
    void huggingFaceOutOfScope()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tokenizer.json"));
        QVERIFY(writeFile(path, json));
        const auto loaded = Tokenizer::fromHuggingFaceJson(path);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().contains(path), qPrintable(loaded.error()));
        QVERIFY2(loaded.error().contains(mentions), qPrintable(loaded.error()));
        if (mentions != QLatin1String("not a tokenizer.json"))
            QVERIFY2(loaded.error().contains(QLatin1String("out of scope")),
                     qPrintable(loaded.error()));
        QVERIFY(!Tokenizer::fromHuggingFaceJson(dir.filePath(QStringLiteral("missing.json"))).ok());
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
