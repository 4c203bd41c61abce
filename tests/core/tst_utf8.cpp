#include "compose/contract.h"
#include "compose/utf8.h"
#include "referencedecoder.h"

#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>

#include <initializer_list>
#include <vector>

using namespace soul;
using namespace soul::test;

namespace {

constexpr char32_t R = 0xFFFD;

QString fromCodePoints(std::initializer_list<char32_t> codePoints)
{
    const QList<uint> list(codePoints.begin(), codePoints.end());
    return test::fromCodePoints(list, 0, list.size());
}

// Encodes code points to UTF-8 by hand (QString::toUtf8 is fine too, but this
// keeps the expectations independent of Qt's codec).
QByteArray encode(char32_t c)
{
    QByteArray out;
    if (c < 0x80) {
        out.append(char(c));
    } else if (c < 0x800) {
        out.append(char(0xC0 | (c >> 6)));
        out.append(char(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.append(char(0xE0 | (c >> 12)));
        out.append(char(0x80 | ((c >> 6) & 0x3F)));
        out.append(char(0x80 | (c & 0x3F)));
    } else {
        out.append(char(0xF0 | (c >> 18)));
        out.append(char(0x80 | ((c >> 12) & 0x3F)));
        out.append(char(0x80 | ((c >> 6) & 0x3F)));
        out.append(char(0x80 | (c & 0x3F)));
    }
    return out;
}

QByteArray encode(const QString &s)
{
    QByteArray out;
    for (const char32_t c : s.toUcs4())
        out.append(encode(c));
    return out;
}

QByteArray toBytes(QByteArrayView view)
{
    return view.toByteArray();
}

QByteArray repeatedTo(const QByteArray &unit, qsizetype size)
{
    QByteArray out;
    while (out.size() < size)
        out.append(unit);
    return out;
}

QByteArray hex(const char *text)
{
    return QByteArray::fromHex(QByteArray(text));
}

} // namespace

class tst_Utf8 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void decoding_data();
    void decoding();

    void asciiStride_data();
    void asciiStride();

    void randomAgainstReference_data();
    void randomAgainstReference();

    void blockBoundaries_data();
    void blockBoundaries();
    void longRandomAgainstReference_data();
    void longRandomAgainstReference();

    void sanitizeSharesValidInput();
    void rawOffset_data();
    void rawOffset();
    void rawOffsetOfEveryBoundary();
    void everyCodePointRoundTrips();

    void trimsEveryWhiteSpace_data();
    void trimsEveryWhiteSpace();
    void keepsNonWhiteSpace_data();
    void keepsNonWhiteSpace();
    void whiteSpaceTableMatchesContract();
    void trimmedSides_data();
    void trimmedSides();
    void randomTrimAgainstReference();
};

void tst_Utf8::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_Utf8::decoding_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("replacements");
    QTest::addColumn<int>("validPrefix");

    const auto row = [](const char *name,
                        const QByteArray &input,
                        const QString &expected,
                        int replacements,
                        int validPrefix) {
        QTest::newRow(name) << input << expected << replacements << validPrefix;
    };

    row("empty", {}, {}, 0, 0);
    row("ascii", QByteArray("hello"), QStringLiteral("hello"), 0, 5);
    row("nul kept", hex("00"), fromCodePoints({0}), 0, 1);
    row("nul inside", hex("610062"), fromCodePoints({'a', 0, 'b'}), 0, 3);
    row("bom kept", hex("efbbbf41"), fromCodePoints({0xFEFF, 'A'}), 0, 4);
    row("bom only", hex("efbbbf"), fromCodePoints({0xFEFF}), 0, 3);
    row("two boms", hex("efbbbfefbbbf"), fromCodePoints({0xFEFF, 0xFEFF}), 0, 6);
    row("crlf kept", QByteArray("a\r\nb"), QStringLiteral("a\r\nb"), 0, 4);

    // Boundaries of the well-formed table.
    row("U+0080", hex("c280"), fromCodePoints({0x80}), 0, 2);
    row("U+07FF", hex("dfbf"), fromCodePoints({0x7FF}), 0, 2);
    row("U+0800", hex("e0a080"), fromCodePoints({0x800}), 0, 3);
    row("U+D7FF", hex("ed9fbf"), fromCodePoints({0xD7FF}), 0, 3);
    row("U+E000", hex("ee8080"), fromCodePoints({0xE000}), 0, 3);
    row("U+FFFD itself", hex("efbfbd"), fromCodePoints({0xFFFD}), 0, 3);
    row("U+FFFE noncharacter", hex("efbfbe"), fromCodePoints({0xFFFE}), 0, 3);
    row("U+FFFF noncharacter", hex("efbfbf"), fromCodePoints({0xFFFF}), 0, 3);
    row("U+10000", hex("f0908080"), fromCodePoints({0x10000}), 0, 4);
    row("U+1F642", hex("f09f9982"), fromCodePoints({0x1F642}), 0, 4);
    row("U+10FFFF max", hex("f48fbfbf"), fromCodePoints({0x10FFFF}), 0, 4);

    // Overlongs.
    row("C0 80 overlong nul", hex("c080"), fromCodePoints({R, R}), 2, 0);
    row("C1 BF overlong", hex("c1bf"), fromCodePoints({R, R}), 2, 0);
    row("C0 AF overlong slash", hex("c0af"), fromCodePoints({R, R}), 2, 0);
    row("E0 80 80 overlong", hex("e08080"), fromCodePoints({R, R, R}), 3, 0);
    row("E0 9F BF overlong", hex("e09fbf"), fromCodePoints({R, R, R}), 3, 0);
    row("E0 80 AF overlong slash", hex("e080af"), fromCodePoints({R, R, R}), 3, 0);
    row("F0 80 80 80 overlong", hex("f0808080"), fromCodePoints({R, R, R, R}), 4, 0);
    row("F0 8F BF BF overlong", hex("f08fbfbf"), fromCodePoints({R, R, R, R}), 4, 0);
    row("F0 80 80 AF overlong slash", hex("f08080af"), fromCodePoints({R, R, R, R}), 4, 0);

    // Surrogates.
    row("ED A0 80 high surrogate", hex("eda080"), fromCodePoints({R, R, R}), 3, 0);
    row("ED BF BF low surrogate", hex("edbfbf"), fromCodePoints({R, R, R}), 3, 0);
    row("ED B0 80 low surrogate", hex("edb080"), fromCodePoints({R, R, R}), 3, 0);
    row("CESU pair", hex("eda0bdedb882"), fromCodePoints({R, R, R, R, R, R}), 6, 0);
    row("ED A0 at end", hex("eda0"), fromCodePoints({R, R}), 2, 0);
    row("ED 80 at end", hex("ed80"), fromCodePoints({R}), 1, 0);

    // Above U+10FFFF and bytes that never lead.
    row("F4 90 80 80 above max", hex("f4908080"), fromCodePoints({R, R, R, R}), 4, 0);
    row("F4 BF BF BF above max", hex("f4bfbfbf"), fromCodePoints({R, R, R, R}), 4, 0);
    row("F5 80 80 80", hex("f5808080"), fromCodePoints({R, R, R, R}), 4, 0);
    row("F5..FF each alone",
        hex("f5f6f7f8f9fafbfcfdfeff"),
        fromCodePoints({R, R, R, R, R, R, R, R, R, R, R}),
        11,
        0);
    row("FF FE", hex("fffe"), fromCodePoints({R, R}), 2, 0);
    row("5-byte form", hex("f888808080"), fromCodePoints({R, R, R, R, R}), 5, 0);
    row("6-byte form", hex("fc8480808080"), fromCodePoints({R, R, R, R, R, R}), 6, 0);

    // Lone continuation bytes.
    row("lone 80", hex("80"), fromCodePoints({R}), 1, 0);
    row("lone BF", hex("bf"), fromCodePoints({R}), 1, 0);
    row("three continuations", hex("808080"), fromCodePoints({R, R, R}), 3, 0);
    row("continuation after ascii", hex("61bf62"), fromCodePoints({'a', R, 'b'}), 1, 1);
    row("continuation after char", hex("c3a9a9"), fromCodePoints({0xE9, R}), 1, 2);

    // Truncated sequences at the end.
    row("C2 at end", hex("61c2"), fromCodePoints({'a', R}), 1, 1);
    row("E2 at end", hex("61e2"), fromCodePoints({'a', R}), 1, 1);
    row("E2 82 at end", hex("61e282"), fromCodePoints({'a', R}), 1, 1);
    row("F0 at end", hex("61f0"), fromCodePoints({'a', R}), 1, 1);
    row("F0 9F at end", hex("61f09f"), fromCodePoints({'a', R}), 1, 1);
    row("F0 9F 98 at end", hex("f09f98"), fromCodePoints({R}), 1, 0);
    row("F4 8F BF at end", hex("f48fbf"), fromCodePoints({R}), 1, 0);

    // Truncated sequences in the middle.
    row("C2 then ascii", hex("c241"), fromCodePoints({R, 'A'}), 1, 0);
    row("E2 then ascii", hex("e241"), fromCodePoints({R, 'A'}), 1, 0);
    row("E2 82 then ascii", hex("61e28262"), fromCodePoints({'a', R, 'b'}), 1, 1);
    row("F0 9F 98 then ascii", hex("f09f9841"), fromCodePoints({R, 'A'}), 1, 0);
    row("F0 9F 98 then full char", hex("f09f98f09f9882"), fromCodePoints({R, 0x1F602}), 1, 0);
    row("E2 82 then lead", hex("e282e282ac"), fromCodePoints({R, 0x20AC}), 1, 0);
    row("C2 then C2 80", hex("c2c280"), fromCodePoints({R, 0x80}), 1, 0);
    row("F1 80 80 then E1 80 then C2",
        hex("61f18080e180c262806380bf64"),
        fromCodePoints({'a', R, R, R, 'b', R, 'c', R, R, 'd'}),
        6,
        1);
    row("the contract's mix",
        hex("fffe61c08062eda08063f09f98"),
        fromCodePoints({R, R, 'a', R, R, 'b', R, R, R, 'c', R}),
        8,
        0);
    row("valid then invalid", hex("e282ac80"), fromCodePoints({0x20AC, R}), 1, 3);
}

void tst_Utf8::decoding()
{
    QFETCH(QByteArray, input);
    QFETCH(QString, expected);
    QFETCH(int, replacements);
    QFETCH(int, validPrefix);

    qsizetype count = -1;
    QCOMPARE(utf8::decode(input, &count), expected);
    QCOMPARE(count, qsizetype(replacements));

    count = -1;
    const QByteArray expectedBytes = encode(expected);
    QCOMPARE(utf8::sanitize(input, &count), expectedBytes);
    QCOMPARE(count, qsizetype(replacements));
    count = -1;
    QCOMPARE(utf8::sanitize(QByteArrayView(input), &count), expectedBytes);
    QCOMPARE(count, qsizetype(replacements));

    QCOMPARE(utf8::countInvalidSubparts(input), qsizetype(replacements));
    QCOMPARE(utf8::validPrefixLength(input), qsizetype(validPrefix));
    QCOMPARE(utf8::isValid(input), replacements == 0);

    // The same in the middle of ASCII, at an odd offset.
    const QByteArray wrapped = QByteArray("0123456789abc") + input + QByteArray("xyz");
    const QString wrappedExpected = QStringLiteral("0123456789abc") + expected
                                    + QStringLiteral("xyz");
    QCOMPARE(utf8::decode(wrapped), wrappedExpected);
    QCOMPARE(utf8::sanitize(wrapped), encode(wrappedExpected));
    QCOMPARE(utf8::countInvalidSubparts(wrapped), qsizetype(replacements));
    QCOMPARE(utf8::validPrefixLength(wrapped),
             replacements == 0 ? wrapped.size() : qsizetype(13 + validPrefix));

    // And the reference decoder agrees with every row.
    const Reference ref = referenceDecode(input);
    QCOMPARE(ref.text, expected);
    QCOMPARE(ref.replacements, qsizetype(replacements));
}

void tst_Utf8::asciiStride_data()
{
    QTest::addColumn<int>("offset");
    QTest::addColumn<QByteArray>("intruder");
    QTest::addColumn<QString>("decoded");
    QTest::addColumn<int>("replacements");

    const struct
    {
        const char *name;
        const char *hexBytes;
        QString decoded;
        int replacements;
    } intruders[] = {
        {"FF", "ff", fromCodePoints({R}), 1},
        {"lone 80", "80", fromCodePoints({R}), 1},
        {"C0 80", "c080", fromCodePoints({R, R}), 2},
        {"E2 82 cut", "e282", fromCodePoints({R}), 1},
        {"F0 9F 98 cut", "f09f98", fromCodePoints({R}), 1},
        {"e acute", "c3a9", fromCodePoints({0xE9}), 0},
        {"euro", "e282ac", fromCodePoints({0x20AC}), 0},
        {"emoji", "f09f9982", fromCodePoints({0x1F642}), 0},
    };
    for (const auto &intruder : intruders) {
        for (int offset = 0; offset <= 17; ++offset) {
            QTest::addRow("%s at %d", intruder.name, offset)
                << offset << hex(intruder.hexBytes) << intruder.decoded << intruder.replacements;
        }
    }
}

// The decoder skips ASCII eight bytes at a time; put the interesting byte
// everywhere around those strides, with ASCII on both sides.
void tst_Utf8::asciiStride()
{
    QFETCH(int, offset);
    QFETCH(QByteArray, intruder);
    QFETCH(QString, decoded);
    QFETCH(int, replacements);

    for (const int tail : {0, 1, 7, 8, 9, 20}) {
        const QByteArray before(offset, 'a');
        const QByteArray after(tail, 'z');
        const QByteArray input = before + intruder + after;
        const QString expected = QString::fromLatin1(before) + decoded + QString::fromLatin1(after);

        qsizetype count = -1;
        QCOMPARE(utf8::decode(input, &count), expected);
        QCOMPARE(count, qsizetype(replacements));
        QCOMPARE(utf8::sanitize(input), encode(expected));
        QCOMPARE(utf8::countInvalidSubparts(input), qsizetype(replacements));
        QCOMPARE(utf8::validPrefixLength(input),
                 replacements == 0 ? input.size() : qsizetype(offset));
    }
}

void tst_Utf8::randomAgainstReference_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("flavour");
    for (quint32 seed = 1; seed <= 12; ++seed) {
        QTest::addRow("uniform bytes, seed %u", seed) << seed << 0;
        QTest::addRow("mostly ascii, seed %u", seed) << seed << 1;
        QTest::addRow("near-valid sequences, seed %u", seed) << seed << 2;
    }
}

// Random inputs: decode() must equal an independent decoder, and
// QString::fromUtf8(sanitize()), which is exact on valid input.
void tst_Utf8::randomAgainstReference()
{
    QFETCH(quint32, seed);
    QFETCH(int, flavour);

    QRandomGenerator random(seed);
    // Bytes that start, continue or break sequences at the edges of table 3-7.
    static const unsigned char interesting[] = {
        0x00, 0x09, 0x0A, 0x0D, 0x20, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F,
        0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
        0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFE, 0xFF, 0xBB, 0x85,
    };
    for (int round = 0; round < 300; ++round) {
        const int length = int(random.bounded(64));
        QByteArray input;
        input.reserve(length);
        for (int i = 0; i < length; ++i) {
            unsigned char b = 0;
            switch (flavour) {
            case 0:
                b = static_cast<unsigned char>(random.bounded(256));
                break;
            case 1:
                b = random.bounded(8) == 0 ? static_cast<unsigned char>(0x80 + random.bounded(128))
                                           : static_cast<unsigned char>(0x20 + random.bounded(95));
                break;
            default:
                b = interesting[random.bounded(int(sizeof interesting))];
                break;
            }
            input.append(char(b));
        }
        if (round % 50 == 0)
            input.prepend("\xEF\xBB\xBF");

        const Reference ref = referenceDecode(input);
        qsizetype count = -1;
        const QString decoded = utf8::decode(input, &count);
        const QByteArray sanitized = utf8::sanitize(input);

        QVERIFY2(decoded == ref.text, input.toHex(' ').constData());
        QCOMPARE(count, ref.replacements);
        QCOMPARE(utf8::countInvalidSubparts(input), ref.replacements);
        QCOMPARE(utf8::validPrefixLength(input), ref.validPrefix);
        QCOMPARE(sanitized, encode(ref.text));
        QVERIFY(utf8::isValid(sanitized));
        QCOMPARE(utf8::countInvalidSubparts(sanitized), qsizetype(0));

        // QString::fromUtf8 is exact on valid UTF-8, except that it drops a
        // leading BOM, which the contract keeps.
        QString viaQt = QString::fromUtf8(sanitized);
        if (sanitized.startsWith("\xEF\xBB\xBF"))
            viaQt.prepend(QChar(0xFEFF));
        QCOMPARE(decoded, viaQt);
    }
}

namespace {

// Every public function against the reference decoder, for one input.
bool agreesWithReference(const QByteArray &input, QString *why)
{
    const Reference ref = referenceDecode(input);
    qsizetype count = -1;
    const QString decoded = utf8::decode(input, &count);
    const QByteArray sanitized = utf8::sanitize(input);
    const QByteArray sanitizedFromView = utf8::sanitize(QByteArrayView(input));
    const QByteArray expected = encode(ref.text);
    if (utf8::validPrefixLength(input) != ref.validPrefix) {
        *why = QStringLiteral("validPrefixLength %1, want %2")
                   .arg(utf8::validPrefixLength(input))
                   .arg(ref.validPrefix);
    } else if (utf8::countInvalidSubparts(input) != ref.replacements) {
        *why = QStringLiteral("countInvalidSubparts %1, want %2")
                   .arg(utf8::countInvalidSubparts(input))
                   .arg(ref.replacements);
    } else if (decoded != ref.text || count != ref.replacements) {
        *why = QStringLiteral("decode differs");
    } else if (sanitized != expected || sanitizedFromView != expected) {
        *why = QStringLiteral("sanitize differs");
    } else if (utf8::isValid(input) != (ref.replacements == 0)) {
        *why = QStringLiteral("isValid differs");
    } else {
        return true;
    }
    *why += QStringLiteral(" for ") + QString::fromLatin1(input.toHex(' '));
    return false;
}

} // namespace

void tst_Utf8::blockBoundaries_data()
{
    QTest::addColumn<QByteArray>("filler");
    QTest::newRow("ascii filler") << QByteArray("abcdefgh");
    QTest::newRow("two-byte filler") << QByteArray("\xC3\xA9");
    QTest::newRow("three-byte filler") << QByteArray("\xE2\x82\xAC");
    QTest::newRow("four-byte filler") << QByteArray("\xF0\x9F\x99\x82");
    QTest::newRow("mixed filler") << QByteArray("a\xC3\xA9\xE2\x82\xAC"
                                                "b\xF0\x9F\x99\x82");
}

// Long inputs may be validated a block at a time; put each interesting
// sequence at every offset across several blocks, in text of each kind.
void tst_Utf8::blockBoundaries()
{
    QFETCH(QByteArray, filler);
    static const char *const intruders[] = {
        "ff",         "80",         "bf",
        "c080",       "c1bf",       "c2",
        "e282",       "e0",         "e08080",
        "e09fbf",     "eda080",     "edbfbf",
        "ed9fbf",     "f09f98",     "f09f",
        "f0",         "f0808080",   "f08fbfbf",
        "f4908080",   "f48fbfbf",   "f5808080",
        "f888808080", "efbbbf",     "00",
        "c2c280",     "e282e282ac", "f09f98f09f9882",
        "808080",     "e0a080",     "f0908080",
        "c3",         "eda0",       "e1",
        "f1808080",   "f18080",     "f3bfbfbf",
        "f4",         "ee",         "c2a0",
    };
    const QByteArray text = repeatedTo(filler, 160);
    for (const char *hexBytes : intruders) {
        const QByteArray intruder = hex(hexBytes);
        for (int offset = 0; offset <= 100; ++offset) {
            // In the middle of text, at the very end, and twice.
            const QByteArray inputs[] = {
                text.left(offset) + intruder + text.mid(offset),
                text.left(offset + 64) + intruder,
                text.left(offset) + intruder + text.mid(offset, 40) + intruder + text.mid(offset),
            };
            for (const QByteArray &input : inputs) {
                QString why;
                if (!agreesWithReference(input, &why))
                    QFAIL(qPrintable(why));
            }
        }
    }
}

void tst_Utf8::longRandomAgainstReference_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("errorOdds");
    for (quint32 seed = 1; seed <= 8; ++seed) {
        QTest::addRow("valid text, seed %u", seed) << seed << 0;
        QTest::addRow("rare errors, seed %u", seed) << seed << 200;
        QTest::addRow("frequent errors, seed %u", seed) << seed << 8;
    }
}

// Long mostly-valid text with errors now and then: the shape of a real
// persona file, at lengths where block-wise validation kicks in.
void tst_Utf8::longRandomAgainstReference()
{
    QFETCH(quint32, seed);
    QFETCH(int, errorOdds);
    QRandomGenerator random(seed * 7919);
    static const char32_t chars[] = {'a',
                                     ' ',
                                     '\n',
                                     '#',
                                     0xE9,
                                     0x3B1,
                                     0x20AC,
                                     0x3000,
                                     0x1F642,
                                     0x10FFFF,
                                     0xFEFF,
                                     0xD7FF,
                                     0xE000,
                                     0x7FF,
                                     0x800,
                                     0x0};
    static const char *const errors[]
        = {"ff", "80", "c0", "e282", "f09f98", "eda080", "f4908080", "e0808f", "c2", "fe"};
    for (int round = 0; round < 40; ++round) {
        const int length = 60 + int(random.bounded(3000));
        QByteArray input;
        while (input.size() < length) {
            if (errorOdds > 0 && random.bounded(errorOdds) == 0) {
                input.append(hex(errors[random.bounded(int(std::size(errors)))]));
            } else if (random.bounded(4) == 0) {
                input.append(encode(chars[random.bounded(int(std::size(chars)))]));
            } else {
                input.append(char('a' + random.bounded(26)));
            }
        }
        // Cut anywhere, like the cap does.
        input.truncate(input.size() - qsizetype(random.bounded(4)));
        QString why;
        if (!agreesWithReference(input, &why))
            QFAIL(qPrintable(why));
    }
}

void tst_Utf8::sanitizeSharesValidInput()
{
    const QByteArray valid = QByteArray("plain text, caf\xC3\xA9, \xF0\x9F\x99\x82");
    qsizetype count = -1;
    const QByteArray out = utf8::sanitize(valid, &count);
    QCOMPARE(out, valid);
    QCOMPARE(count, qsizetype(0));
    QVERIFY(out.isSharedWith(valid));
}

void tst_Utf8::rawOffset_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("sanitized");
    QTest::addColumn<int>("raw");
    const QByteArray invalid("a\xFF\xE2\x82z"); // a, FFFD (FF), FFFD (E2 82), z
    QTest::newRow("valid run") << QByteArray("caf\xC3\xA9 ok") << 5 << 5;
    QTest::newRow("before a replacement") << invalid << 1 << 1;
    QTest::newRow("inside a replacement") << invalid << 2 << 1;
    QTest::newRow("second replacement") << invalid << 4 << 2;
    QTest::newRow("inside the second") << invalid << 6 << 2;
    QTest::newRow("after both") << invalid << 7 << 4;
    QTest::newRow("the end") << invalid << 8 << 5;
    QTest::newRow("past the end") << invalid << 50 << 5;
    QTest::newRow("empty") << QByteArray() << 0 << 0;
}

void tst_Utf8::rawOffset()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, sanitized);
    QFETCH(int, raw);
    QCOMPARE(utf8::rawOffset(bytes, sanitized), qsizetype(raw));
}

// Every place where a prefix of the bytes sanitizes to a prefix of the whole
// (a boundary, or a place inside an invalid subpart) leads back to the
// boundary whose prefix sanitizes the same, not before it.
void tst_Utf8::rawOffsetOfEveryBoundary()
{
    QRandomGenerator random(4242);
    static const char pieces[][5] = {"a",
                                     " ",
                                     "\xC3\xA9",
                                     "\xE2\x82\xAC",
                                     "\xF0\x9F\x98\x80",
                                     "\xFF",
                                     "\x80",
                                     "\xE2\x82",
                                     "\xF0\x9F",
                                     "\xC3",
                                     "\xED\xA0"};
    for (int round = 0; round < 500; ++round) {
        QByteArray bytes;
        const int count = int(random.bounded(1, 12));
        for (int i = 0; i < count; ++i)
            bytes += pieces[random.bounded(int(std::size(pieces)))];
        const QByteArray whole = utf8::sanitize(QByteArrayView(bytes));
        int boundaries = 0;
        for (qsizetype r = 0; r <= bytes.size(); ++r) {
            const QByteArray prefix = utf8::sanitize(QByteArrayView(bytes).first(r));
            if (!whole.startsWith(prefix))
                continue;
            ++boundaries;
            const qsizetype back = utf8::rawOffset(bytes, prefix.size());
            QVERIFY(back >= r);
            QCOMPARE(utf8::sanitize(QByteArrayView(bytes).first(back)), prefix);
        }
        QVERIFY(boundaries >= 2); // the start and the end at least
    }
}

void tst_Utf8::everyCodePointRoundTrips()
{
    for (char32_t c = 0; c <= 0x10FFFF; ++c) {
        if (c >= 0xD800 && c <= 0xDFFF)
            continue;
        const QByteArray bytes = encode(c);
        if (utf8::validPrefixLength(bytes) != bytes.size())
            QFAIL(
                qPrintable(QStringLiteral("U+%1 not valid").arg(uint(c), 4, 16, QLatin1Char('0'))));
        const QString decoded = utf8::decode(bytes);
        if (decoded.toUcs4() != QList<uint>{uint(c)})
            QFAIL(qPrintable(
                QStringLiteral("U+%1 decodes wrong").arg(uint(c), 4, 16, QLatin1Char('0'))));
    }
    for (char32_t c = 0xD800; c <= 0xDFFF; ++c) {
        const QByteArray bytes = encode(c); // the three bytes a surrogate would take
        QCOMPARE(utf8::countInvalidSubparts(bytes), qsizetype(3));
    }
}

void tst_Utf8::trimsEveryWhiteSpace_data()
{
    QTest::addColumn<uint>("codePoint");
    const uint list[] = {0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x20,   0x85,   0xA0,   0x1680,
                         0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
                         0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000};
    for (const uint c : list)
        QTest::addRow("U+%04X", c) << c;
}

void tst_Utf8::trimsEveryWhiteSpace()
{
    QFETCH(uint, codePoint);
    const QByteArray ws = encode(char32_t(codePoint));
    const QByteArray body = QByteArray("a") + ws + "b"; // inside stays

    QCOMPARE(toBytes(utf8::trimmed(ws + body + ws)), body);
    QCOMPARE(toBytes(utf8::trimmed(ws + ws + body + ws + ws + ws)), body);
    QCOMPARE(toBytes(utf8::trimmedStart(ws + body + ws)), body + ws);
    QCOMPARE(toBytes(utf8::trimmedEnd(ws + body + ws)), ws + body);
    QVERIFY(utf8::trimmed(ws).isEmpty());
    QVERIFY(utf8::trimmed(ws + " \n" + ws).isEmpty());
    // Next to a character of each length.
    for (const char32_t c : {char32_t('x'), char32_t(0xE9), char32_t(0x20AC), char32_t(0x1F642)}) {
        const QByteArray x = encode(c);
        QCOMPARE(toBytes(utf8::trimmed(ws + x + ws)), x);
    }
}

void tst_Utf8::keepsNonWhiteSpace_data()
{
    QTest::addColumn<uint>("codePoint");
    const uint list[] = {0x00,   0x08,   0x0E,   0x1C,   0x1D,    0x1E,   0x1F,   0x7F,
                         0x84,   0x86,   0x9F,   0xAD,   0x180E,  0x200B, 0x200C, 0x200D,
                         0x2027, 0x202A, 0x202E, 0x2060, 0x205E,  0x2FFF, 0x3001, 0xFEFF,
                         0xFFFD, 0x1FFF, 0x167F, 0x1681, 0x10FFFF};
    for (const uint c : list)
        QTest::addRow("U+%04X", c) << c;
}

void tst_Utf8::keepsNonWhiteSpace()
{
    QFETCH(uint, codePoint);
    const QByteArray kept = encode(char32_t(codePoint));
    QCOMPARE(toBytes(utf8::trimmed(kept)), kept);
    QCOMPARE(toBytes(utf8::trimmed(" \t" + kept + "\n\r")), kept);
    QCOMPARE(toBytes(utf8::trimmed(kept + "x" + kept)), kept + "x" + kept);
    // A White_Space code point beyond it is trimmed, it is not.
    const QByteArray ideographic = encode(char32_t(0x3000));
    QCOMPARE(toBytes(utf8::trimmed(ideographic + kept + ideographic)), kept);
}

void tst_Utf8::whiteSpaceTableMatchesContract()
{
    for (char32_t c = 0; c <= 0x10FFFF; ++c) {
        if (isWhiteSpace(c) != referenceWhiteSpace(c))
            QFAIL(qPrintable(QStringLiteral("isWhiteSpace(U+%1) is wrong")
                                 .arg(uint(c), 4, 16, QLatin1Char('0'))));
        if (c >= 0xD800 && c <= 0xDFFF)
            continue;
        if (c % 7 != 0 && !referenceWhiteSpace(c))
            continue; // every White_Space code point, and a sample of the rest
        const QByteArray bytes = encode(c);
        if (utf8::trimmed(bytes).isEmpty() != referenceWhiteSpace(c))
            QFAIL(qPrintable(
                QStringLiteral("trimmed(U+%1) is wrong").arg(uint(c), 4, 16, QLatin1Char('0'))));
    }
}

void tst_Utf8::trimmedSides_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("start");
    QTest::addColumn<QByteArray>("end");
    QTest::addColumn<QByteArray>("both");

    QTest::newRow("empty") << QByteArray() << QByteArray() << QByteArray() << QByteArray();
    QTest::newRow("ascii spaces") << QByteArray("  a b  ") << QByteArray("a b  ")
                                  << QByteArray("  a b") << QByteArray("a b");
    QTest::newRow("crlf") << QByteArray("\r\nline\r\n\r\n") << QByteArray("line\r\n\r\n")
                          << QByteArray("\r\nline") << QByteArray("line");
    QTest::newRow("nel and ideographic") << QByteArray("\xC2\x85\xE3\x80\x80x\xE3\x80\x80\xC2\x85")
                                         << QByteArray("x\xE3\x80\x80\xC2\x85")
                                         << QByteArray("\xC2\x85\xE3\x80\x80x") << QByteArray("x");
    QTest::newRow("bom stops the trim")
        << QByteArray(" \xEF\xBB\xBF x \xEF\xBB\xBF ") << QByteArray("\xEF\xBB\xBF x \xEF\xBB\xBF ")
        << QByteArray(" \xEF\xBB\xBF x \xEF\xBB\xBF") << QByteArray("\xEF\xBB\xBF x \xEF\xBB\xBF");
    QTest::newRow("replacement is not space")
        << QByteArray(" \xEF\xBF\xBD ") << QByteArray("\xEF\xBF\xBD ")
        << QByteArray(" \xEF\xBF\xBD") << QByteArray("\xEF\xBF\xBD");
    QTest::newRow("emoji at both ends")
        << QByteArray("\xF0\x9F\x99\x82\xE2\x80\xA8\xF0\x9F\x99\x82")
        << QByteArray("\xF0\x9F\x99\x82\xE2\x80\xA8\xF0\x9F\x99\x82")
        << QByteArray("\xF0\x9F\x99\x82\xE2\x80\xA8\xF0\x9F\x99\x82")
        << QByteArray("\xF0\x9F\x99\x82\xE2\x80\xA8\xF0\x9F\x99\x82");
    QTest::newRow("only white space")
        << QByteArray("\t\xE2\x80\x8A\xC2\xA0\xE1\x9A\x80\xE2\x81\x9F") << QByteArray()
        << QByteArray() << QByteArray();
    QTest::newRow("unit separator stays") << QByteArray("\x1F a \x1F") << QByteArray("\x1F a \x1F")
                                          << QByteArray("\x1F a \x1F") << QByteArray("\x1F a \x1F");
    QTest::newRow("zero width space stays")
        << QByteArray("\xE2\x80\x8B \xE2\x80\x8B") << QByteArray("\xE2\x80\x8B \xE2\x80\x8B")
        << QByteArray("\xE2\x80\x8B \xE2\x80\x8B") << QByteArray("\xE2\x80\x8B \xE2\x80\x8B");
    // U+200A is white space, U+200B the next code point is not.
    QTest::newRow("hair space then zwsp")
        << QByteArray("\xE2\x80\x8A\xE2\x80\x8B\xE2\x80\x8A")
        << QByteArray("\xE2\x80\x8B\xE2\x80\x8A") << QByteArray("\xE2\x80\x8A\xE2\x80\x8B")
        << QByteArray("\xE2\x80\x8B");
}

void tst_Utf8::trimmedSides()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, start);
    QFETCH(QByteArray, end);
    QFETCH(QByteArray, both);
    QCOMPARE(toBytes(utf8::trimmedStart(input)), start);
    QCOMPARE(toBytes(utf8::trimmedEnd(input)), end);
    QCOMPARE(toBytes(utf8::trimmed(input)), both);
    // The views point into the input.
    const QByteArrayView view = utf8::trimmed(input);
    if (!view.isEmpty()) {
        QVERIFY(view.data() >= input.constData());
        QVERIFY(view.data() + view.size() <= input.constData() + input.size());
    }
}

// Random mixes of White_Space, near-misses (U+FEFF, U+200B, U+001F, U+FFFD)
// and text of every encoded length, trimmed both ways.
void tst_Utf8::randomTrimAgainstReference()
{
    static const char32_t pool[] = {
        0x09,   0x0A,   0x0D,   0x20,   0x85,    0xA0,     0x1680, 0x2000, 0x200A, 0x2028,
        0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,  0x200B,   0x180E, 0x1F,   0x1C,   0xFFFD,
        0x00,   'x',    0xE9,   0x20AC, 0x1F642, 0x10FFFF, 0x2009, 0x3001,
    };
    QRandomGenerator random(7);
    for (int round = 0; round < 5000; ++round) {
        QByteArray bytes;
        const int length = int(random.bounded(12));
        for (int i = 0; i < length; ++i)
            bytes.append(encode(pool[random.bounded(int(std::size(pool)))]));
        const QString text = referenceDecode(bytes).text;
        const QByteArray expected = referenceTrim(text).toUtf8();
        QVERIFY2(toBytes(utf8::trimmed(bytes)) == expected, bytes.toHex(' ').constData());
        QList<uint> cps = text.toUcs4();
        qsizetype from = 0;
        while (from < cps.size() && referenceWhiteSpace(cps.at(from)))
            ++from;
        qsizetype to = cps.size();
        while (to > 0 && referenceWhiteSpace(cps.at(to - 1)))
            --to;
        const auto slice = [&cps](qsizetype a, qsizetype b) {
            return soul::test::fromCodePoints(cps, a, b).toUtf8();
        };
        QCOMPARE(toBytes(utf8::trimmedStart(bytes)), slice(from, cps.size()));
        QCOMPARE(toBytes(utf8::trimmedEnd(bytes)), slice(0, to));
    }
}

QTEST_GUILESS_MAIN(tst_Utf8)

#include "tst_utf8.moc"
