#include "editortext.h"

#include "compose/utf8.h"
#include "counttext.h"
#include "encodingfacts.h"

#include <algorithm>

namespace soul {

namespace {

constexpr char Bom[] = "\xEF\xBB\xBF";

// The most common line break; on a tie LF, then CR LF, then CR.
LineEndings dominantLineEnding(const EncodingFacts &facts)
{
    if (facts.lfCount >= facts.crlfCount && facts.lfCount >= facts.crCount)
        return LineEndings::Lf;
    return facts.crlfCount >= facts.crCount ? LineEndings::CrLf : LineEndings::Cr;
}

QByteArray lineBreakBytes(LineEndings endings)
{
    switch (endings) {
    case LineEndings::CrLf:
        return QByteArrayLiteral("\r\n");
    case LineEndings::Cr:
        return QByteArrayLiteral("\r");
    default:
        return QByteArrayLiteral("\n");
    }
}

QString mixedLineEndings(const EncodingFacts &facts, LineEndings target)
{
    QStringList parts;
    if (facts.lfCount > 0)
        parts << formatCount(facts.lfCount) + QStringLiteral(" LF");
    if (facts.crlfCount > 0)
        parts << formatCount(facts.crlfCount) + QStringLiteral(" CR LF");
    if (facts.crCount > 0)
        parts << formatCount(facts.crCount) + QStringLiteral(" CR");
    return QStringLiteral("The line endings are mixed (%1); saving would make them all %2.")
        .arg(parts.join(QStringLiteral(", ")), lineEndingsName(target));
}

// " On line 3." / " On lines 3, 7 and 9." / " On lines 3, 7, 9, 12, 15 and 4 more.":
// where in the file the bytes a save would change are, for the user to find
// them in another editor. Lines are numbered by the file's own line breaks.
QString onLines(const QList<qsizetype> &lines)
{
    constexpr qsizetype Shown = 5;
    if (lines.isEmpty())
        return {};
    QStringList numbers;
    for (qsizetype i = 0; i < qMin(Shown, lines.size()); ++i)
        numbers << formatCount(lines.at(i));
    QString list;
    if (lines.size() > Shown) {
        list = QStringLiteral("%1 and %2 more")
                   .arg(numbers.join(QStringLiteral(", ")), formatCount(lines.size() - Shown));
    } else if (numbers.size() > 1) {
        const QString last = numbers.takeLast();
        list = QStringLiteral("%1 and %2").arg(numbers.join(QStringLiteral(", ")), last);
    } else {
        list = numbers.first();
    }
    return lines.size() == 1 ? QStringLiteral(" On line %1.").arg(list)
                             : QStringLiteral(" On lines %1.").arg(list);
}

void addLine(QList<qsizetype> &lines, qsizetype line)
{
    if (lines.isEmpty() || lines.last() != line)
        lines.append(line);
}

struct ObstacleLines
{
    QList<qsizetype> invalid;
    QList<qsizetype> nul;
    QList<qsizetype> otherBreak; // lines ending in a break other than the one saving writes
};

// One pass over the lines of `body`, only for a file that has one of these
// obstacles.
ObstacleLines findObstacleLines(QByteArrayView body,
                                const EncodingFacts &facts,
                                const QByteArray &lineBreak)
{
    ObstacleLines found;
    const bool mixed = facts.lineEndings() == LineEndings::Mixed;
    qsizetype start = 0;
    qsizetype line = 1;
    const qsizetype n = body.size();
    while (start <= n) {
        qsizetype end = start;
        while (end < n && body[end] != '\n' && body[end] != '\r')
            ++end;
        const QByteArrayView text = body.sliced(start, end - start);
        if (facts.invalidSubparts > 0 && !utf8::isValid(text))
            addLine(found.invalid, line);
        if (facts.nulBytes > 0 && text.contains('\0'))
            addLine(found.nul, line);
        if (end == n)
            break;
        const qsizetype breakLength = body[end] == '\r' && end + 1 < n && body[end + 1] == '\n' ? 2
                                                                                                : 1;
        if (mixed && body.sliced(end, breakLength) != QByteArrayView(lineBreak))
            addLine(found.otherBreak, line);
        start = end + breakLength;
        ++line;
    }
    return found;
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

    const EncodingFacts facts = scanEncoding(body);
    const LineEndings lineEnding = dominantLineEnding(facts);
    result.format.lineBreak = lineBreakBytes(lineEnding);

    ObstacleLines where;
    if (facts.invalidSubparts > 0 || facts.nulBytes > 0
        || facts.lineEndings() == LineEndings::Mixed) {
        where = findObstacleLines(body, facts, result.format.lineBreak);
    }
    if (facts.invalidSubparts > 0) {
        result.obstacles << QStringLiteral("%1 would become U+FFFD (the replacement character).")
                                    .arg(plural(facts.invalidSubparts,
                                                "invalid UTF-8 sequence",
                                                "invalid UTF-8 sequences"))
                                + onLines(where.invalid);
    }
    if (facts.nulBytes > 0) {
        result.obstacles << QStringLiteral("The file holds %1, which a text pane does not keep "
                                           "reliably; saving could drop or change them.")
                                    .arg(plural(facts.nulBytes, "NUL byte", "NUL bytes"))
                                + onLines(where.nul);
    }
    if (facts.lineEndings() == LineEndings::Mixed)
        result.obstacles << mixedLineEndings(facts, lineEnding) + onLines(where.otherBreak);

    const QString decoded = utf8::decode(body);
    qsizetype separators = 0;
    qsizetype reserved = 0;
    qsizetype line = 1;
    QList<qsizetype> separatorLines;
    QList<qsizetype> reservedLines;
    QString text;
    text.reserve(decoded.size());
    for (qsizetype i = 0; i < decoded.size(); ++i) {
        const QChar c = decoded.at(i);
        switch (c.unicode()) {
        case u'\r':
            if (i + 1 < decoded.size() && decoded.at(i + 1) == u'\n')
                ++i;
            text.append(u'\n');
            ++line;
            break;
        case u'\n':
            text.append(c);
            ++line;
            break;
        case 0x2028:
        case 0x2029:
            ++separators;
            addLine(separatorLines, line);
            text.append(c);
            break;
        case 0xFDD0: // QTextBeginningOfFrame
        case 0xFDD1: // QTextEndOfFrame
        case 0xFFFC: // QChar::ObjectReplacementCharacter
            ++reserved;
            addLine(reservedLines, line);
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
                                                "Unicode line or paragraph separators"))
                                + onLines(separatorLines);
    }
    if (reserved > 0) {
        result.obstacles << QStringLiteral("%1 (U+FDD0, U+FDD1 or U+FFFC) that the text pane "
                                           "reserves for itself would be changed or lost.")
                                    .arg(plural(reserved, "character", "characters"))
                                + onLines(reservedLines);
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

TextPlace placeInEditor(QByteArrayView bytes, qsizetype offset, QByteArrayView shown)
{
    offset = qBound<qsizetype>(0, offset, bytes.size());
    auto byteAt = [&bytes](qsizetype i) { return static_cast<unsigned char>(bytes[i]); };
    // Inside a character: its lead byte, when one is within reach.
    for (qsizetype back = 1; back <= 3 && offset - back >= 0 && offset < bytes.size()
                             && (byteAt(offset) & 0xC0) == 0x80;
         ++back) {
        if ((byteAt(offset - back) & 0xC0) == 0xC0) {
            offset -= back;
            break;
        }
        if ((byteAt(offset - back) & 0xC0) != 0x80)
            break;
    }
    // Between the CR and the LF of one break: the break.
    if (offset > 0 && offset < bytes.size() && bytes[offset - 1] == '\r' && bytes[offset] == '\n')
        --offset;
    qsizetype position = 0;
    if (!(bytes.startsWith("\xEF\xBB\xBF") && offset < 3))
        position = toEditorText(bytes.first(offset)).text.size();

    const QString shownText = toEditorText(shown).text;
    if (shown != bytes) {
        const TextChange change = textChange(toEditorText(bytes).text, shownText);
        if (position >= change.position + change.removed)
            position += change.inserted - change.removed;
        else if (position > change.position)
            position = change.position;
    }
    position = qBound<qsizetype>(0, position, shownText.size());
    const QStringView before = QStringView(shownText).first(position);
    const qsizetype lineStart = before.lastIndexOf(u'\n') + 1;
    return {qint64(before.count(u'\n')) + 1, qint64(position - lineStart)};
}

TextChange textChange(QStringView before, QStringView after)
{
    const qsizetype shorter = qMin(before.size(), after.size());
    const char16_t *a = before.utf16();
    const char16_t *b = after.utf16();
    qsizetype prefix = std::mismatch(a, a + shorter, b).first - a;
    // A pair cut after its high half would insert or remove a lone half.
    if (prefix > 0 && QChar::isHighSurrogate(a[prefix - 1]))
        --prefix;
    const qsizetype limit = shorter - prefix;
    const auto ra = std::make_reverse_iterator(a + before.size());
    const auto rb = std::make_reverse_iterator(b + after.size());
    qsizetype suffix = std::mismatch(ra, ra + limit, rb).first - ra;
    if (suffix > 0 && QChar::isLowSurrogate(a[before.size() - suffix]))
        --suffix;
    TextChange change;
    change.position = prefix;
    change.removed = before.size() - prefix - suffix;
    change.inserted = after.size() - prefix - suffix;
    return change;
}

bool hasLineLongerThan(QByteArrayView bytes, qsizetype limit)
{
    qsizetype start = 0;
    while (start < bytes.size()) {
        qsizetype end = bytes.indexOf('\n', start);
        if (end < 0)
            end = bytes.size();
        if (end - start > limit)
            return true;
        start = end + 1;
    }
    return false;
}

} // namespace soul
