#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringView>

// Text as Hermes Agent's Python code sees it: files read strictly as UTF-8,
// lengths and cuts in code points (Python's len and slicing), whitespace as
// str.isspace has it, numbers as f"{n:,}" prints them. QString holds UTF-16,
// so every count here converts; strict decoding means a text never holds a
// lone surrogate, and a cut at a code point never splits a pair.
namespace soul {

// A file's bytes as Path.read_text(encoding="utf-8-sig") gives them: one
// leading BOM dropped, then strict UTF-8 (any invalid sequence and the file is
// not read), then universal newlines (CR LF and a lone CR become LF).
struct HermesDecoded
{
    bool ok = false;
    QString text;
    qsizetype badByte = -1; // offset of the first invalid sequence when !ok
};
HermesDecoded hermesDecode(QByteArrayView bytes);

// Python's str.isspace: U+0009-U+000D, U+001C-U+0020, U+0085, U+00A0,
// U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. Not U+FEFF,
// U+200B or U+180E.
bool isPythonSpace(char32_t c);

// Where str.strip() leaves `text`: start and length in UTF-16 units.
struct HermesSpan
{
    qsizetype start = 0;
    qsizetype length = 0;
    qsizetype end() const { return start + length; }
    bool operator==(const HermesSpan &o) const { return start == o.start && length == o.length; }
};
HermesSpan pythonStripSpan(QStringView text);
inline QStringView pythonStripped(QStringView text)
{
    const HermesSpan span = pythonStripSpan(text);
    return text.mid(span.start, span.length);
}

// len(text) in Python.
qsizetype codePointCount(QStringView text);
// The UTF-16 offset of code point `n` of `text` (its length when n is past the end).
qsizetype utf16Offset(QStringView text, qsizetype n);

// f"{n:,}": 1375 -> "1,375", -1375 -> "-1,375".
QString pythonThousands(qint64 n);

} // namespace soul
