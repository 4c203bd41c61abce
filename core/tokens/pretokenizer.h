#pragma once

#include "result.h"

#include <QByteArrayView>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <vector>

// Splits text into the pieces that byte-pair merging works on, with an
// encoding's own regular expression(s) through QRegularExpression (PCRE2).
//
// Two things keep PCRE2 in step with the Rust regex engines of tiktoken and
// Hugging Face tokenizers:
// - UseUnicodePropertiesOption, without which \p classes still work but \s,
//   \w and friends are ASCII-only;
// - `\s` and `\S` are written out as the Unicode White_Space property. PCRE2's
//   \s also takes U+180E MONGOLIAN VOWEL SEPARATOR (no longer White_Space
//   since Unicode 6.3), which tiktoken's does not.
// Known limit: PCRE2 10.42 (Debian 12) knows Unicode 14, so a character first
// assigned in Unicode 15 or later is "unassigned" here (not \p{L}, \p{N}, ...)
// and the text around it may split differently from tiktoken, whose Rust
// regex knows a newer Unicode. Nothing else differs.
namespace soul::tokens {

class Pretokenizer
{
public:
    // Each pattern splits the pieces the previous one made (Hugging Face's
    // Sequence of Split pre-tokenizers with the Isolated behaviour): matches
    // and the text between them both become pieces. With `dropGaps`, text no
    // pattern matches is dropped instead, as tiktoken does (its patterns
    // match every character, so nothing is ever dropped there).
    static Result<Pretokenizer> create(const QStringList &patterns, bool dropGaps);

    // `pattern` with \s and \S replaced by the White_Space class; empty and
    // `error` set when it cannot be rewritten (\S inside a bracket class).
    static QString withWhiteSpaceClass(const QString &pattern, QString *error);

    // Calls piece(QByteArrayView) for each piece of `utf8`, in order; `text`
    // is the same text as UTF-16 (both valid).
    template<typename Piece>
    void split(QByteArrayView utf8, QStringView text, Piece &&piece) const
    {
        splitLevel(0, utf8, text, piece);
    }

private:
    Pretokenizer() = default;

    template<typename Piece>
    void splitLevel(size_t level, QByteArrayView utf8, QStringView text, Piece &piece) const;

    std::vector<QRegularExpression> m_patterns;
    bool m_dropGaps = false;
};

// The number of UTF-8 bytes of valid UTF-16 `text`.
inline qsizetype utf8Length(QStringView text)
{
    qsizetype bytes = 0;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        // A surrogate pair is four bytes: two for each half.
        bytes += u < 0x80 ? 1 : (u < 0x800 || (u >= 0xD800 && u < 0xE000)) ? 2 : 3;
    }
    return bytes;
}

template<typename Piece>
void Pretokenizer::splitLevel(size_t level, QByteArrayView utf8, QStringView text, Piece &piece) const
{
    if (level == m_patterns.size()) {
        piece(utf8);
        return;
    }
    const QRegularExpression &re = m_patterns[level];
    qsizetype unit = 0; // position in `text`
    qsizetype byte = 0; // the same position in `utf8`
    const auto gap = [&](qsizetype toUnit) {
        if (toUnit == unit)
            return;
        const qsizetype bytes = utf8Length(text.sliced(unit, toUnit - unit));
        if (!m_dropGaps)
            splitLevel(level + 1, utf8.sliced(byte, bytes), text.sliced(unit, toUnit - unit), piece);
        unit = toUnit;
        byte += bytes;
    };
    while (unit < text.size()) {
        const QRegularExpressionMatch m
            = re.match(text,
                       unit,
                       QRegularExpression::NormalMatch,
                       QRegularExpression::DontCheckSubjectStringMatchOption);
        if (!m.hasMatch())
            break;
        const qsizetype start = m.capturedStart(0);
        const qsizetype end = m.capturedEnd(0);
        gap(start);
        if (end == start) {
            // An empty match takes nothing: step over one code point.
            const qsizetype step = text[start].isHighSurrogate() && start + 1 < text.size() ? 2 : 1;
            gap(start + step);
            continue;
        }
        const qsizetype bytes = utf8Length(text.sliced(start, end - start));
        splitLevel(level + 1, utf8.sliced(byte, bytes), text.sliced(start, end - start), piece);
        unit = end;
        byte += bytes;
    }
    gap(text.size());
}

} // namespace soul::tokens
