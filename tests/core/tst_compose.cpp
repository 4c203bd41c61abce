#include "compose/composer.h"
#include "compose/contract.h"
#include "referencedecoder.h"
#include "registry/runtimesoul.h"
#include "testfiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace soul;
using namespace soul::test;

namespace {

using FileMap = std::map<QString, QByteArray>;

QString dataDir()
{
    return QStringLiteral(SOUL_TEST_DATA_DIR);
}

QByteArray sha256Hex(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

// A vector's file, from its segments: {"text"}, {"hex"}, or a repeated unit
// ({"repeat": text or "repeatHex": hex} with "times").
bool buildFile(const QJsonArray &segments, QByteArray *out, QString *why)
{
    for (const QJsonValue &value : segments) {
        const QJsonObject segment = value.toObject();
        QByteArray unit;
        if (segment.contains(QLatin1String("text"))) {
            unit = segment.value(QLatin1String("text")).toString().toUtf8();
        } else if (segment.contains(QLatin1String("hex"))) {
            unit = QByteArray::fromHex(segment.value(QLatin1String("hex")).toString().toLatin1());
        } else if (segment.contains(QLatin1String("repeat"))) {
            unit = segment.value(QLatin1String("repeat")).toString().toUtf8();
        } else if (segment.contains(QLatin1String("repeatHex"))) {
            unit = QByteArray::fromHex(
                segment.value(QLatin1String("repeatHex")).toString().toLatin1());
        } else {
            *why = QStringLiteral("unknown segment %1")
                       .arg(QString::fromUtf8(
                           QJsonDocument(segment).toJson(QJsonDocument::Compact)));
            return false;
        }
        const qint64 times = segment.contains(QLatin1String("times"))
                                 ? segment.value(QLatin1String("times")).toInteger(-1)
                                 : 1;
        if (times < 0) {
            *why = QStringLiteral("bad times");
            return false;
        }
        out->append(repeated(unit, times));
    }
    return true;
}

SlotBuffers buffersOf(const FileMap &files)
{
    SlotBuffers buffers;
    for (const auto &[name, bytes] : files) {
        const int slot = slotIndex(name);
        if (slot >= 0)
            buffers[static_cast<size_t>(slot)] = bytes;
    }
    return buffers;
}

// Writes the slot files in reverse contract order, so that neither creation
// order nor listing order can explain a correct result.
bool writeFiles(const QString &dir, const FileMap &files)
{
    for (int slot = SlotCount - 1; slot >= 0; --slot) {
        const auto it = files.find(slotName(slot));
        if (it != files.end() && !writeFile(QDir(dir).filePath(it->first), it->second))
            return false;
    }
    for (const auto &[name, bytes] : files) {
        if (slotIndex(name) < 0 && !writeFile(QDir(dir).filePath(name), bytes))
            return false;
    }
    return true;
}

// The sections must tile the soul: each starts with "## NAME\n\n", they are
// joined by "\n\n" and nothing comes before, between or after.
void checkSections(const Composition &c)
{
    QByteArray rebuilt;
    QStringList found;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto k = static_cast<size_t>(slot);
        if (!c.present[k]) {
            QCOMPARE(c.sectionOffset[k], qsizetype(-1));
            QVERIFY(!c.truncated[k]);
            continue;
        }
        found.append(slotName(slot));
        if (!rebuilt.isEmpty())
            rebuilt.append("\n\n");
        QCOMPARE(c.sectionOffset[k], rebuilt.size());
        QVERIFY(c.sectionLength[k] >= head(slot).size());
        QVERIFY(c.sectionOffset[k] + c.sectionLength[k] <= c.soul.size());
        const QByteArray section = c.soul.mid(c.sectionOffset[k], c.sectionLength[k]);
        QVERIFY(section.startsWith(head(slot)));
        QCOMPARE(section.endsWith(notice().mid(1)), c.truncated[k]);
        rebuilt.append(section);
    }
    QCOMPARE(c.found, found);
    QCOMPARE(rebuilt, c.soul);
}

QByteArray hexOf(const char *text)
{
    return QByteArray::fromHex(QByteArray(text));
}

const QByteArray Euro = QByteArray("\xE2\x82\xAC");
const QByteArray Smile = QByteArray("\xF0\x9F\x99\x82");
const QByteArray Ideographic = QByteArray("\xE3\x80\x80");
const QByteArray Replacement = QByteArray("\xEF\xBF\xBD");

} // namespace

class tst_Compose : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void vectors_data();
    void vectors();

    void golden_data();
    void golden();

    void atTheCap_data();
    void atTheCap();

    void bodies_data();
    void bodies();

    void randomPersonasAgainstReference();
    void randomCutsAgainstReference_data();
    void randomCutsAgainstReference();
    void streamedEqualsComposed_data();
    void streamedEqualsComposed();
    void streamingStopsWhenTheWriterFails();
    void wholeFileEqualsCappedPrefix();
    void deterministic();
    void sectionHelpersAgree();
    void orderIsFixed();
    void missingDirectoryComposesToNothing();
    void contractConstants();

private:
    QJsonArray m_vectors;
};

void tst_Compose::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QFile file(dataDir() + QStringLiteral("/vectors.json"));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(!doc.isNull(), qPrintable(error.errorString()));
    const QJsonObject root = doc.object();
    QCOMPARE(root.value(QLatin1String("capBytes")).toInteger(), CapBytes);
    QStringList order;
    for (const QJsonValue &name : root.value(QLatin1String("order")).toArray())
        order.append(name.toString());
    QCOMPARE(order, bootstrapOrder());
    m_vectors = root.value(QLatin1String("vectors")).toArray();
    QVERIFY(m_vectors.size() >= 16);
}

void tst_Compose::vectors_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < m_vectors.size(); ++i) {
        const QByteArray name
            = m_vectors.at(i).toObject().value(QLatin1String("name")).toString().toUtf8();
        QTest::newRow(name.constData()) << i;
    }
}

void tst_Compose::vectors()
{
    QFETCH(int, index);
    const QJsonObject vector = m_vectors.at(index).toObject();
    const QJsonObject filesJson = vector.value(QLatin1String("files")).toObject();
    const QJsonObject expect = vector.value(QLatin1String("expect")).toObject();

    FileMap files;
    for (auto it = filesJson.begin(); it != filesJson.end(); ++it) {
        QByteArray bytes;
        QString why;
        QVERIFY2(buildFile(it.value().toArray(), &bytes, &why), qPrintable(why));
        files[it.key()] = bytes;
    }

    QStringList expectedFound;
    for (const QJsonValue &name : expect.value(QLatin1String("found")).toArray())
        expectedFound.append(name.toString());
    const qint64 expectedBytes = expect.value(QLatin1String("soulBytes")).toInteger(-1);
    const QByteArray expectedSha = expect.value(QLatin1String("soulSha256")).toString().toLatin1();

    const auto check = [&](const Composition &c) {
        QCOMPARE(c.found, expectedFound);
        QCOMPARE(qint64(c.soul.size()), expectedBytes);
        QCOMPARE(sha256Hex(c.soul), expectedSha);
        if (expect.contains(QLatin1String("soulHex"))) {
            QCOMPARE(c.soul.toHex(), expect.value(QLatin1String("soulHex")).toString().toLatin1());
        }
        if (expect.contains(QLatin1String("soulHeadHex"))) {
            const QByteArray headBytes = QByteArray::fromHex(
                expect.value(QLatin1String("soulHeadHex")).toString().toLatin1());
            QCOMPARE(c.soul.left(headBytes.size()).toHex(), headBytes.toHex());
        }
        if (expect.contains(QLatin1String("soulTailHex"))) {
            const QByteArray tailBytes = QByteArray::fromHex(
                expect.value(QLatin1String("soulTailHex")).toString().toLatin1());
            QCOMPARE(c.soul.right(tailBytes.size()).toHex(), tailBytes.toHex());
        }
        checkSections(c);
    };

    const Composition fromBuffers = compose(buffersOf(files));
    check(fromBuffers);
    if (QTest::currentTestFailed())
        return;

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFiles(dir.path(), files));
    const Composition fromDisk = composeDirectory(dir.path());
    check(fromDisk);
    QCOMPARE(fromDisk.truncated, fromBuffers.truncated);
    QCOMPARE(fromDisk.present, fromBuffers.present);
}

void tst_Compose::golden_data()
{
    QTest::addColumn<QString>("caseDir");
    const QDir golden(dataDir() + QStringLiteral("/golden"));
    const QStringList cases = golden.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY(cases.size() >= 8);
    for (const QString &name : cases)
        QTest::newRow(qPrintable(name)) << golden.filePath(name);
}

// Each folder of tests/data/golden holds a persona's files and, written by
// hand from the contract, the soul (expected.soul) and the found list
// (expected.found, one name a line).
void tst_Compose::golden()
{
    QFETCH(QString, caseDir);
    const QDir source(caseDir);
    QVERIFY(source.exists(QStringLiteral("expected.soul")));
    QVERIFY(source.exists(QStringLiteral("expected.found")));
    const QByteArray expectedSoul = readFile(source.filePath(QStringLiteral("expected.soul")));
    QStringList expectedFound;
    for (const QByteArray &line :
         readFile(source.filePath(QStringLiteral("expected.found"))).split('\n')) {
        if (!line.isEmpty())
            expectedFound.append(QString::fromUtf8(line));
    }

    // Copy the persona to a fresh directory: slots in reverse order first,
    // then everything else (subdirectories too).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    FileMap files;
    QDirIterator it(caseDir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = source.relativeFilePath(path);
        if (relative.startsWith(QLatin1String("expected.")))
            continue;
        files[relative] = readFile(path);
    }
    for (const auto &[relative, bytes] : files) {
        const QString parent = QFileInfo(relative).path();
        if (parent != QLatin1String("."))
            QVERIFY(QDir(dir.path()).mkpath(parent));
    }
    QVERIFY(writeFiles(dir.path(), files));

    const Composition fromDisk = composeDirectory(dir.path());
    QCOMPARE(fromDisk.found, expectedFound);
    QCOMPARE(fromDisk.soul.toHex(' '), expectedSoul.toHex(' '));
    checkSections(fromDisk);

    // The same from the source folder directly, and from buffers.
    QCOMPARE(composeDirectory(caseDir).soul, expectedSoul);
    SlotBuffers buffers;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const QFileInfo info(source.filePath(slotName(slot)));
        if (info.isFile())
            buffers[static_cast<size_t>(slot)] = readFile(info.filePath());
    }
    const Composition fromBuffers = compose(buffers);
    QCOMPARE(fromBuffers.soul, expectedSoul);
    QCOMPARE(fromBuffers.found, expectedFound);
}

void tst_Compose::atTheCap_data()
{
    QTest::addColumn<int>("slot");
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("truncated");

    const qsizetype cap = CapBytes;
    const QByteArray n = notice();
    const QByteArray noticeAlone = n.mid(1); // its leading "\n" is trimmed
    const auto a = [](qsizetype count) { return QByteArray(count, 'a'); };
    const auto spaces = [](qsizetype count) { return QByteArray(count, ' '); };

    QTest::newRow("cap-1 bytes") << 1 << a(cap - 1) << a(cap - 1) << false;
    QTest::newRow("cap bytes") << 1 << a(cap) << a(cap) << false;
    QTest::newRow("cap+1 bytes") << 1 << a(cap + 1) << a(cap) + n << true;
    QTest::newRow("cap+2 bytes") << 1 << a(cap + 2) << a(cap) + n << true;
    QTest::newRow("cap bytes, trailing newline trimmed") << 0 << a(cap - 1) + "\n"
                                                         << a(cap - 1) << false;
    QTest::newRow("cap+1 bytes, trailing newline cut") << 0 << a(cap) + "\n" << a(cap) + n << true;

    // A 3-byte character cut by the cap after one or two of its bytes.
    QTest::newRow("euro at cap-1")
        << 2 << a(cap - 1) + Euro << a(cap - 1) + Replacement + n << true;
    QTest::newRow("euro at cap-2")
        << 2 << a(cap - 2) + Euro << a(cap - 2) + Replacement + n << true;
    QTest::newRow("euro at cap-3 fits") << 2 << a(cap - 3) + Euro << a(cap - 3) + Euro << false;
    QTest::newRow("euro at cap-3, one more byte")
        << 2 << a(cap - 3) + Euro + "z" << a(cap - 3) + Euro + n << true;
    QTest::newRow("euro at cap, dropped whole") << 2 << a(cap) + Euro << a(cap) + n << true;

    // A 4-byte character cut after one, two or three bytes: one U+FFFD.
    for (int kept = 1; kept <= 3; ++kept) {
        QTest::addRow("emoji cut after %d", kept)
            << 6 << a(cap - kept) + Smile << a(cap - kept) + Replacement + n << true;
    }
    QTest::newRow("emoji at cap-4 fits") << 6 << a(cap - 4) + Smile << a(cap - 4) + Smile << false;

    // A file of exactly the cap that ends inside a character is not cut: its
    // last bytes are invalid, and there is no notice.
    QTest::newRow("cap bytes ending in a cut emoji")
        << 6 << a(cap - 2) + hexOf("f09f") << a(cap - 2) + Replacement << false;
    QTest::newRow("cap bytes ending in a lead byte")
        << 6 << a(cap - 1) + hexOf("e2") << a(cap - 1) + Replacement << false;
    QTest::newRow("next line cut after its lead byte")
        << 6 << a(cap - 1) + hexOf("c285") << a(cap - 1) + Replacement + n << true;
    QTest::newRow("next line at the cap trimmed")
        << 6 << a(cap - 2) + hexOf("c285") << a(cap - 2) << false;

    // White space and the notice: trim runs on text + notice.
    QTest::newRow("spaces over the cap") << 5 << spaces(cap + 1) << noticeAlone << true;
    QTest::newRow("spaces to the cap, text after it")
        << 5 << spaces(cap) + "hidden" << noticeAlone << true;
    QTest::newRow("spaces exactly the cap") << 5 << spaces(cap) << QByteArray() << false;
    QTest::newRow("white space before the notice stays")
        << 3 << QByteArray("abc") + spaces(cap - 3) + "zzz"
        << QByteArray("abc") + spaces(cap - 3) + n << true;
    QTest::newRow("leading white space of a cut file trimmed")
        << 3 << spaces(10) + a(cap) << a(cap - 10) + n << true;
    QTest::newRow("newlines before the notice stay")
        << 3 << QByteArray("x") + QByteArray(cap, '\n')
        << QByteArray("x") + QByteArray(cap - 1, '\n') + n << true;

    // U+3000 across the cap: its cut bytes are not white space any more.
    QTest::newRow("ideographic space cut after text")
        << 4 << a(cap - 1) + Ideographic << a(cap - 1) + Replacement + n << true;
    QTest::newRow("ideographic space cut after spaces")
        << 4 << spaces(cap - 1) + Ideographic << Replacement + n << true;
    {
        // 699,050 whole U+3000 then its first two bytes: one U+FFFD.
        const QByteArray file = repeated(Ideographic, 699051);
        QCOMPARE(file.size(), cap + 1);
        QTest::newRow("ideographic spaces over the cap") << 4 << file << Replacement + n << true;
    }
    {
        const QByteArray file = QByteArray("ab") + repeated(Ideographic, 699050) + "z";
        QCOMPARE(file.size(), cap + 1);
        QTest::newRow("ideographic spaces before the notice stay")
            << 4 << file << QByteArray("ab") + repeated(Ideographic, 699050) + n << true;
    }
    {
        const QByteArray file = QByteArray("ab") + repeated(Ideographic, 699050);
        QCOMPARE(file.size(), cap);
        QTest::newRow("ideographic spaces to the cap trimmed")
            << 4 << file << QByteArray("ab") << false;
    }
    QTest::newRow("invalid bytes across the cap")
        << 0 << a(cap - 2) + hexOf("c080") + "b" << a(cap - 2) + Replacement + Replacement + n
        << true;
    QTest::newRow("bom, then over the cap")
        << 1 << hexOf("efbbbf") + a(cap) << hexOf("efbbbf") + a(cap - 3) + n << true;
    QTest::newRow("nul bytes over the cap")
        << 6 << QByteArray(cap + 5, '\0') << QByteArray(cap, '\0') + n << true;
}

void tst_Compose::atTheCap()
{
    QFETCH(int, slot);
    QFETCH(QByteArray, file);
    QFETCH(QByteArray, body);
    QFETCH(bool, truncated);

    const QByteArray expected = head(slot) + body;
    SlotBuffers buffers;
    buffers[static_cast<size_t>(slot)] = file;
    const Composition c = compose(buffers);
    QCOMPARE(c.soul.size(), expected.size());
    QVERIFY(c.soul == expected);
    QCOMPARE(c.truncated[static_cast<size_t>(slot)], truncated);
    QCOMPARE(c.found, QStringList{slotName(slot)});
    checkSections(c);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeSlot(dir.path(), slot, file));
    const Composition fromDisk = composeDirectory(dir.path());
    QVERIFY(fromDisk.soul == expected);
    QCOMPARE(fromDisk.truncated[static_cast<size_t>(slot)], truncated);

    bool cut = !truncated;
    QVERIFY(composeBody(file, &cut) == body);
    QCOMPARE(cut, truncated);
    QCOMPARE(isTruncated(file), truncated);
}

void tst_Compose::bodies_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QByteArray>("body");

    QTest::newRow("empty") << QByteArray() << QByteArray();
    QTest::newRow("one space") << QByteArray(" ") << QByteArray();
    QTest::newRow("crlf inside, trailing") << QByteArray("a\r\nb\r\n") << QByteArray("a\r\nb");
    QTest::newRow("nbsp both ends") << hexOf("c2a078c2a0") << QByteArray("x");
    QTest::newRow("line separator") << hexOf("e280a878e280a9") << QByteArray("x");
    QTest::newRow("ogham space") << hexOf("e19a8078") << QByteArray("x");
    QTest::newRow("narrow nbsp, math space") << hexOf("e280af78e2819f") << QByteArray("x");
    QTest::newRow("mongolian vowel separator kept") << hexOf("e1a08e78") << hexOf("e1a08e78");
    QTest::newRow("bom after space") << hexOf("20efbbbf78") << hexOf("efbbbf78");
    QTest::newRow("invalid at the ends") << hexOf("ff2078") << hexOf("efbfbd2078");
    QTest::newRow("truncated char at the end") << hexOf("78f09f98") << hexOf("78efbfbd");
    QTest::newRow("vertical tab, form feed") << QByteArray("\v\fx\f\v") << QByteArray("x");
    QTest::newRow("file separator kept") << QByteArray("\x1Cx\x1D") << QByteArray("\x1Cx\x1D");
    QTest::newRow("notice text itself") << notice() << notice().mid(1);
}

void tst_Compose::bodies()
{
    QFETCH(QByteArray, raw);
    QFETCH(QByteArray, body);
    bool cut = true;
    QCOMPARE(composeBody(raw, &cut), body);
    QVERIFY(!cut);
    QCOMPARE(composeSection(5, raw), head(5) + body);
    QByteArray out("prefix");
    QVERIFY(!appendBody(out, raw));
    QCOMPARE(out, QByteArray("prefix") + body);
}

namespace {

// Pieces that exercise decoding and trimming: White_Space of each length,
// look-alikes that are not White_Space, invalid and cut sequences, BOM, NUL.
QByteArray randomPiece(QRandomGenerator &random)
{
    static const char *const pieces[] = {
        " ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\v",
        "\f",
        "\xC2\x85",
        "\xC2\xA0",
        "\xE3\x80\x80",
        "\xE2\x80\xA8",
        "\xE2\x80\x8A",
        "\xE1\x9A\x80",
        "\xEF\xBB\xBF",
        "\xE2\x80\x8B",
        "\x1F",
        "\xE1\xA0\x8E",
        "\xFF",
        "\xC0\x80",
        "\xED\xA0\x80",
        "\xF0\x9F\x98",
        "\xE2\x82",
        "\x80",
        "word",
        "\xC3\xA9",
        "\xF0\x9F\x99\x82",
        "# Title",
        "- item",
        "\xF4\x90\x80\x80",
    };
    const int i = int(random.bounded(int(std::size(pieces)) + 1));
    if (i == int(std::size(pieces)))
        return QByteArray(1, '\0');
    return QByteArray(pieces[i]);
}

QByteArray referenceSoul(const SlotBuffers &buffers)
{
    QList<QByteArray> sections;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto &buffer = buffers[static_cast<size_t>(slot)];
        if (buffer)
            sections.append(referenceSection(BootstrapOrder[static_cast<size_t>(slot)],
                                             *buffer,
                                             CapBytes,
                                             notice()));
    }
    return sections.join("\n\n");
}

} // namespace

void tst_Compose::randomPersonasAgainstReference()
{
    QRandomGenerator random(424242);
    for (int round = 0; round < 400; ++round) {
        SlotBuffers buffers;
        for (auto &buffer : buffers) {
            if (random.bounded(3) == 0)
                continue;
            QByteArray bytes;
            const int pieces = int(random.bounded(10));
            for (int i = 0; i < pieces; ++i)
                bytes.append(randomPiece(random));
            buffer = bytes;
        }
        const Composition c = compose(buffers);
        const QByteArray expected = referenceSoul(buffers);
        QVERIFY2(c.soul == expected,
                 qPrintable(QStringLiteral("got %1, want %2")
                                .arg(QString::fromLatin1(c.soul.toHex(' ')),
                                     QString::fromLatin1(expected.toHex(' ')))));
        checkSections(c);
    }
}

void tst_Compose::randomCutsAgainstReference_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<char>("filler");
    for (quint32 seed = 1; seed <= 6; ++seed) {
        QTest::addRow("text filler, seed %u", seed) << seed << 'a';
        QTest::addRow("space filler, seed %u", seed) << seed << ' ';
    }
}

// Files of about CapBytes, their last few bytes random pieces, so that the
// cut lands inside and around every kind of sequence.
void tst_Compose::randomCutsAgainstReference()
{
    QFETCH(quint32, seed);
    QFETCH(char, filler);
    QRandomGenerator random(seed);
    const QByteArray base(CapBytes - 12, filler);
    for (int round = 0; round < 6; ++round) {
        QByteArray file = base;
        while (file.size() < CapBytes + 8)
            file.append(randomPiece(random));
        file.truncate(CapBytes - 8 + qsizetype(random.bounded(17)));
        SlotBuffers buffers;
        buffers[3] = file;
        const Composition c = compose(buffers);
        const QByteArray expected = referenceSoul(buffers);
        QVERIFY2(c.soul == expected,
                 qPrintable(QStringLiteral("tail %1: got ...%2, want ...%3")
                                .arg(QString::fromLatin1(file.right(24).toHex(' ')),
                                     QString::fromLatin1(c.soul.right(60).toHex(' ')),
                                     QString::fromLatin1(expected.right(60).toHex(' ')))));
        QCOMPARE(c.truncated[3], file.size() > CapBytes);
    }
}

void tst_Compose::streamedEqualsComposed_data()
{
    QTest::addColumn<QString>("caseDir");
    const QDir golden(dataDir() + QStringLiteral("/golden"));
    for (const QString &name : golden.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        QTest::newRow(qPrintable(name)) << golden.filePath(name);
    QTest::newRow("missing directory") << golden.filePath(QStringLiteral("no-such-case"));
}

// composeDirectoryTo() hands the soul out in pieces; joined, they are the soul.
void tst_Compose::streamedEqualsComposed()
{
    QFETCH(QString, caseDir);
    QByteArray streamed;
    QStringList found;
    int pieces = 0;
    const bool ok = composeDirectoryTo(
        caseDir,
        [&streamed, &pieces](QByteArrayView piece) {
            streamed.append(piece);
            ++pieces;
            return true;
        },
        ComposeRule::toolnexus(),
        &found);
    QVERIFY(ok);
    const Composition c = composeDirectory(caseDir);
    QCOMPARE(streamed, c.soul);
    QCOMPARE(found, c.found);
    QVERIFY(pieces >= c.found.size());
}

void tst_Compose::streamingStopsWhenTheWriterFails()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeSlot(dir.path(), 0, "one"));
    QVERIFY(writeSlot(dir.path(), 4, QByteArray(CapBytes + 7, 't')));
    QVERIFY(writeSlot(dir.path(), 6, "three"));

    QByteArray streamed;
    QVERIFY(composeDirectoryTo(
        dir.path(),
        [&streamed](QByteArrayView piece) {
            streamed.append(piece);
            return true;
        },
        ComposeRule::toolnexus()));
    QVERIFY(streamed == composeDirectory(dir.path()).soul);

    int calls = 0;
    QByteArray partial;
    const bool ok = composeDirectoryTo(
        dir.path(),
        [&calls, &partial](QByteArrayView piece) {
            partial.append(piece);
            return ++calls < 2;
        },
        ComposeRule::toolnexus());
    QVERIFY(!ok);
    QCOMPARE(calls, 2);
    QVERIFY(streamed.startsWith(partial));

    // bodyPieces() is the body, split where the notice starts.
    QByteArray scratch;
    const QByteArray raw = QByteArray("  \xC0\x80 text ") + QByteArray(CapBytes, ' ');
    const BodyPieces body = bodyPieces(raw, scratch);
    QVERIFY(body.truncated);
    QCOMPARE(body.notice, QByteArrayView(notice()));
    QCOMPARE(body.text.toByteArray() + body.notice.toByteArray(), composeBody(raw));
    QVERIFY(body.text.startsWith(QByteArray("\xEF\xBF\xBD\xEF\xBF\xBD text ")));
}

// The reader keeps CapBytes + 1 bytes; a caller that passes the whole file
// must get the same soul.
void tst_Compose::wholeFileEqualsCappedPrefix()
{
    const QByteArray whole = repeated("0123456789\n", 300000); // 3.3 MB
    SlotBuffers full;
    full[0] = whole;
    SlotBuffers capped;
    capped[0] = whole.left(CapBytes + 1);
    const Composition a = compose(full);
    const Composition b = compose(capped);
    QVERIFY(a.soul == b.soul);
    QVERIFY(a.truncated[0]);
    QVERIFY(a.soul.endsWith(notice()));
}

void tst_Compose::deterministic()
{
    SlotBuffers buffers;
    buffers[1] = QByteArray("You are Kip.\n");
    buffers[3] = hexOf("efbbbf20c080");
    buffers[6] = QByteArray(CapBytes + 3, 'm');
    const Composition first = compose(buffers);
    const Composition second = compose(buffers);
    QVERIFY(first.soul == second.soul);
    QCOMPARE(first.found, second.found);
    QCOMPARE(first.sectionOffset, second.sectionOffset);
    QCOMPARE(first.sectionLength, second.sectionLength);
    QCOMPARE(first.truncated, second.truncated);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (int slot : {6, 3, 1})
        QVERIFY(writeSlot(dir.path(), slot, *buffers[static_cast<size_t>(slot)]));
    const Composition third = composeDirectory(dir.path());
    const Composition fourth = composeDirectory(dir.path());
    QVERIFY(third.soul == first.soul);
    QVERIFY(fourth.soul == first.soul);
    QCOMPARE(third.sectionOffset, first.sectionOffset);
    QCOMPARE(third.present, first.present);
}

void tst_Compose::sectionHelpersAgree()
{
    for (int slot = 0; slot < SlotCount; ++slot) {
        const QByteArray raw = QByteArray("\n body ") + QByteArray::number(slot) + "\n";
        SlotBuffers buffers;
        buffers[static_cast<size_t>(slot)] = raw;
        const Composition c = compose(buffers);
        QCOMPARE(c.soul, composeSection(slot, raw));
        QCOMPARE(c.soul, head(slot) + "body " + QByteArray::number(slot));
        QCOMPARE(c.sectionOffset[static_cast<size_t>(slot)], qsizetype(0));
        QCOMPARE(c.sectionLength[static_cast<size_t>(slot)], c.soul.size());
    }
}

void tst_Compose::orderIsFixed()
{
    // Each subset of the seven slots, built from buffers, comes out in
    // contract order with empty bodies allowed.
    for (int mask = 0; mask < (1 << SlotCount); ++mask) {
        SlotBuffers buffers;
        QByteArray expected;
        QStringList found;
        for (int slot = 0; slot < SlotCount; ++slot) {
            if (!(mask & (1 << slot)))
                continue;
            const QByteArray body = slot % 2 ? QByteArray() : QByteArray::number(slot);
            buffers[static_cast<size_t>(slot)] = body + "\n";
            if (!expected.isEmpty() || !found.isEmpty())
                expected.append("\n\n");
            expected.append(head(slot) + body);
            found.append(slotName(slot));
        }
        const Composition c = compose(buffers);
        QCOMPARE(c.soul, expected);
        QCOMPARE(c.found, found);
        checkSections(c);
    }
}

void tst_Compose::missingDirectoryComposesToNothing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Composition c = composeDirectory(dir.filePath(QStringLiteral("does-not-exist")));
    QVERIFY(c.soul.isEmpty());
    QVERIFY(c.found.isEmpty());
    const Composition empty = composeDirectory(dir.path());
    QVERIFY(empty.soul.isEmpty());
    QVERIFY(empty.found.isEmpty());
    checkSections(empty);
}

void tst_Compose::contractConstants()
{
    QCOMPARE(CapBytes, qint64(2097152));
    QCOMPARE(notice(), QByteArray("\n[truncated: exceeds 2 MB bootstrap cap]"));
    QCOMPARE(bootstrapOrder(),
             (QStringList{QStringLiteral("AGENTS.md"),
                          QStringLiteral("SOUL.md"),
                          QStringLiteral("IDENTITY.md"),
                          QStringLiteral("USER.md"),
                          QStringLiteral("TOOLS.md"),
                          QStringLiteral("HEARTBEAT.md"),
                          QStringLiteral("MEMORY.md")}));
    for (int slot = 0; slot < SlotCount; ++slot)
        QCOMPARE(slotIndex(slotName(slot)), slot);
    QCOMPARE(slotIndex(u"soul.md"), -1);
    QCOMPARE(slotIndex(u"SOUL.MD"), -1);
    QCOMPARE(slotIndex(u"SOUL.md "), -1);
    QCOMPARE(slotIndex(u""), -1);
    QVERIFY(slotName(-1).isEmpty());
    QVERIFY(slotName(SlotCount).isEmpty());
}

QTEST_GUILESS_MAIN(tst_Compose)

#include "tst_compose.moc"
