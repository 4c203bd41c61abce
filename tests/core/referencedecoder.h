#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// The tests' own model of the compose contract, written independently of
// core/ so that the two can be checked against each other.
namespace soul::test {

// An independent decoder, one byte at a time, written from the table of
// well-formed byte sequences (Unicode, table 3-7) and the "maximal subpart"
// rule (section 3.9, U+FFFD substitution): an ill-formed sequence is replaced
// by one U+FFFD covering the longest prefix that could still have started a
// well-formed sequence.
struct Reference
{
    QString text;
    qsizetype replacements = 0;
    qsizetype validPrefix = -1;
};

inline Reference referenceDecode(const QByteArray &bytes)
{
    Reference ref;
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    const auto byteAt = [&bytes](qsizetype k) { return static_cast<unsigned char>(bytes.at(k)); };
    const auto replace = [&ref, &i](qsizetype length) {
        if (ref.validPrefix < 0)
            ref.validPrefix = i;
        ref.text.append(QChar(0xFFFD));
        ++ref.replacements;
        i += length;
    };
    while (i < n) {
        const unsigned char b0 = byteAt(i);
        if (b0 <= 0x7F) {
            ref.text.append(QChar(char16_t(b0)));
            ++i;
            continue;
        }
        // Table 3-7: the lead byte decides the length and the range of the
        // second byte; every later byte is 80..BF.
        int length = 0;
        unsigned char secondLo = 0x80;
        unsigned char secondHi = 0xBF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = 2;
        } else if (b0 == 0xE0) {
            length = 3;
            secondLo = 0xA0;
        } else if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) {
            length = 3;
        } else if (b0 == 0xED) {
            length = 3;
            secondHi = 0x9F;
        } else if (b0 == 0xF0) {
            length = 4;
            secondLo = 0x90;
        } else if (b0 >= 0xF1 && b0 <= 0xF3) {
            length = 4;
        } else if (b0 == 0xF4) {
            length = 4;
            secondHi = 0x8F;
        } else {
            replace(1); // 80..C1, F5..FF never start a sequence
            continue;
        }
        int k = 1;
        for (; k < length; ++k) {
            if (i + k >= n)
                break;
            const unsigned char b = byteAt(i + k);
            const unsigned char lo = k == 1 ? secondLo : 0x80;
            const unsigned char hi = k == 1 ? secondHi : 0xBF;
            if (b < lo || b > hi)
                break;
        }
        if (k < length) {
            replace(k);
            continue;
        }
        char32_t c = b0 & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07);
        for (k = 1; k < length; ++k)
            c = (c << 6) | (byteAt(i + k) & 0x3F);
        if (c > 0xFFFF) {
            ref.text.append(QChar(QChar::highSurrogate(c)));
            ref.text.append(QChar(QChar::lowSurrogate(c)));
        } else {
            ref.text.append(QChar(static_cast<char16_t>(c)));
        }
        i += length;
    }
    if (ref.validPrefix < 0)
        ref.validPrefix = n;
    return ref;
}

// The spec's White_Space list, written out again here rather than taken from
// contract.h, so the tests check the header too.
inline bool referenceWhiteSpace(char32_t c)
{
    return c == 0x09 || c == 0x0A || c == 0x0B || c == 0x0C || c == 0x0D || c == 0x20 || c == 0x85
           || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029
           || c == 0x202F || c == 0x205F || c == 0x3000;
}

// UTF-16 from code points. Not QString::fromUcs4, which drops a leading
// U+FEFF as a byte-order mark.
inline QString fromCodePoints(const QList<uint> &codePoints, qsizetype from, qsizetype to)
{
    QString s;
    for (qsizetype i = from; i < to; ++i) {
        const char32_t c = codePoints.at(i);
        if (c > 0xFFFF) {
            s.append(QChar(QChar::highSurrogate(c)));
            s.append(QChar(QChar::lowSurrogate(c)));
        } else {
            s.append(QChar(static_cast<char16_t>(c)));
        }
    }
    return s;
}

// Trims White_Space code points from both ends of UTF-16 text.
inline QString referenceTrim(const QString &text)
{
    const QList<uint> cps = text.toUcs4();
    qsizetype from = 0;
    qsizetype to = cps.size();
    while (from < to && referenceWhiteSpace(cps.at(from)))
        ++from;
    while (to > from && referenceWhiteSpace(cps.at(to - 1)))
        --to;
    return fromCodePoints(cps, from, to);
}

// Steps 2 to 6 of the contract for one file, the slow and obvious way.
inline QByteArray referenceSection(const char *name,
                                   const QByteArray &raw,
                                   qint64 cap,
                                   const QByteArray &notice)
{
    const bool truncated = raw.size() > cap;
    QString text = referenceDecode(truncated ? raw.left(cap) : raw).text;
    if (truncated)
        text += QString::fromLatin1(notice);
    // toUtf8() keeps U+FEFF and NUL as they are.
    return QByteArray("## ") + name + "\n\n" + referenceTrim(text).toUtf8();
}

} // namespace soul::test
