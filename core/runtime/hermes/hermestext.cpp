#include "hermestext.h"

#include "compose/utf8.h"

#include <QStringDecoder>

namespace soul {

HermesDecoded hermesDecode(QByteArrayView bytes)
{
    HermesDecoded out;
    qsizetype bom = 0;
    if (bytes.startsWith("\xEF\xBB\xBF")) {
        bom = 3;
        bytes = bytes.sliced(3);
    }
    const qsizetype valid = utf8::validPrefixLength(bytes);
    if (valid != bytes.size()) {
        out.badByte = bom + valid;
        return out;
    }
    // QString::fromUtf8 would drop a second BOM too; Python keeps it as U+FEFF.
    QStringDecoder decoder(QStringConverter::Utf8,
                           QStringConverter::Flag::ConvertInitialBom
                               | QStringConverter::Flag::Stateless);
    QString text = decoder.decode(bytes);
    // Universal newlines: CR LF first, then a lone CR.
    if (text.contains(QLatin1Char('\r'))) {
        text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
        text.replace(QLatin1Char('\r'), QLatin1Char('\n'));
    }
    out.ok = true;
    out.text = std::move(text);
    return out;
}

bool isPythonSpace(char32_t c)
{
    if (c <= 0x20)
        return (c >= 0x09 && c <= 0x0D) || c >= 0x1C;
    if (c < 0x85)
        return false;
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028
           || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

HermesSpan pythonStripSpan(QStringView text)
{
    // Every Python whitespace character is in the BMP: one unit each.
    qsizetype start = 0;
    qsizetype end = text.size();
    while (start < end && isPythonSpace(text.at(start).unicode()))
        ++start;
    while (end > start && isPythonSpace(text.at(end - 1).unicode()))
        --end;
    return {start, end - start};
}

qsizetype codePointCount(QStringView text)
{
    qsizetype n = text.size();
    for (const QChar c : text) {
        if (c.isLowSurrogate())
            --n;
    }
    return n;
}

qsizetype utf16Offset(QStringView text, qsizetype n)
{
    if (n <= 0)
        return 0;
    qsizetype i = 0;
    while (i < text.size() && n > 0) {
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate())
            i += 2;
        else
            ++i;
        --n;
    }
    return i;
}

QString pythonThousands(qint64 n)
{
    const bool negative = n < 0;
    // The magnitude as unsigned, so that the most negative number has one too.
    const quint64 magnitude = negative ? quint64(0) - quint64(n) : quint64(n);
    QString digits = QString::number(magnitude);
    for (qsizetype at = digits.size() - 3; at > 0; at -= 3)
        digits.insert(at, QLatin1Char(','));
    return negative ? QLatin1Char('-') + digits : digits;
}

} // namespace soul
