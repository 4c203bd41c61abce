#include "editortext.h"

#include "utf8.h"

namespace soul {

namespace {

constexpr char Bom[] = "\xEF\xBB\xBF";

struct LineBreakCounts
{
    qsizetype lf = 0;
    qsizetype crlf = 0;
    qsizetype cr = 0;

    int kinds() const { return int(lf > 0) + int(crlf > 0) + int(cr > 0); }
};

// CR and LF are ASCII, so they are never part of a multi-byte or invalid
// UTF-8 sequence: counting them on the bytes is exact.
LineBreakCounts countLineBreaks(QByteArrayView bytes)
{
    LineBreakCounts counts;
    const qsizetype n = bytes.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = bytes[i];
        if (c == '\n') {
            ++counts.lf;
        } else if (c == '\r') {
            if (i + 1 < n && bytes[i + 1] == '\n') {
                ++counts.crlf;
                ++i;
            } else {
                ++counts.cr;
            }
        }
    }
    return counts;
}

QString lineBreakName(const QByteArray &lineBreak)
{
    if (lineBreak == "\r\n")
        return QStringLiteral("CR LF");
    if (lineBreak == "\r")
        return QStringLiteral("CR");
    return QStringLiteral("LF");
}

// The most common line break; on a tie LF, then CR LF, then CR.
QByteArray dominantLineBreak(const LineBreakCounts &counts)
{
    if (counts.lf >= counts.crlf && counts.lf >= counts.cr)
        return QByteArrayLiteral("\n");
    if (counts.crlf >= counts.cr)
        return QByteArrayLiteral("\r\n");
    return QByteArrayLiteral("\r");
}

QString plural(qsizetype n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

QString mixedLineEndings(const LineBreakCounts &counts, const QByteArray &target)
{
    QStringList parts;
    if (counts.lf > 0)
        parts << QStringLiteral("%1 LF").arg(counts.lf);
    if (counts.crlf > 0)
        parts << QStringLiteral("%1 CR LF").arg(counts.crlf);
    if (counts.cr > 0)
        parts << QStringLiteral("%1 CR").arg(counts.cr);
    return QStringLiteral("The line endings are mixed (%1); saving would make them all %2.")
        .arg(parts.join(QStringLiteral(", ")), lineBreakName(target));
}

bool isEditorBreak(QChar c)
{
    return c == u'\n' || c == u'\r' || c == QChar::ParagraphSeparator || c == QChar::LineSeparator;
}

} // namespace

EditorText toEditorText(QByteArrayView bytes)
{
    EditorText result;
    QByteArrayView body = bytes;
    if (body.startsWith(QByteArrayView(Bom))) {
        result.format.bom = true;
        body = body.sliced(3);
    }

    const LineBreakCounts breaks = countLineBreaks(body);
    result.format.lineBreak = dominantLineBreak(breaks);

    const qsizetype invalid = utf8::countInvalidSubparts(body);
    if (invalid > 0) {
        result.obstacles << QStringLiteral("%1 would become U+FFFD (the replacement character).")
                                .arg(plural(invalid,
                                            "invalid UTF-8 sequence",
                                            "invalid UTF-8 sequences"));
    }
    if (const qsizetype nuls = body.count('\0'); nuls > 0) {
        result.obstacles << QStringLiteral("The file holds %1, which a text pane does not keep "
                                           "reliably; saving could drop or change them.")
                                .arg(plural(nuls, "NUL byte", "NUL bytes"));
    }
    if (breaks.kinds() > 1)
        result.obstacles << mixedLineEndings(breaks, result.format.lineBreak);

    const QString decoded = utf8::decode(body);
    qsizetype separators = 0;
    qsizetype reserved = 0;
    QString text;
    text.reserve(decoded.size());
    for (qsizetype i = 0; i < decoded.size(); ++i) {
        const QChar c = decoded.at(i);
        switch (c.unicode()) {
        case u'\r':
            if (i + 1 < decoded.size() && decoded.at(i + 1) == u'\n')
                ++i;
            text.append(u'\n');
            break;
        case 0x2028:
        case 0x2029:
            ++separators;
            text.append(c);
            break;
        case 0xFDD0: // QTextBeginningOfFrame
        case 0xFDD1: // QTextEndOfFrame
        case 0xFFFC: // QChar::ObjectReplacementCharacter
            ++reserved;
            text.append(c);
            break;
        default:
            text.append(c);
        }
    }
    if (separators > 0) {
        result.obstacles << QStringLiteral("%1 (U+2028 or U+2029) would become line breaks.")
                                .arg(plural(separators,
                                            "Unicode line or paragraph separator",
                                            "Unicode line or paragraph separators"));
    }
    if (reserved > 0) {
        result.obstacles << QStringLiteral("%1 (U+FDD0, U+FDD1 or U+FFFC) that the text pane "
                                           "reserves for itself would be changed or lost.")
                                .arg(plural(reserved, "character", "characters"));
    }
    result.text = std::move(text);
    return result;
}

QByteArray fromEditorText(QStringView text, const TextFormat &format)
{
    QByteArray out;
    out.reserve(text.size() + text.size() / 2 + 3);
    if (format.bom)
        out.append(Bom, 3);
    qsizetype start = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (!isEditorBreak(c))
            continue;
        out.append(text.sliced(start, i - start).toUtf8());
        out.append(format.lineBreak);
        if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n')
            ++i;
        start = i + 1;
    }
    out.append(text.sliced(start).toUtf8());
    return out;
}

} // namespace soul
