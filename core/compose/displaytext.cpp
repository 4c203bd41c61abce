#include "displaytext.h"

#include "contract.h"

#include <algorithm>

namespace soul {

namespace {

bool isInvisible(char16_t c)
{
    switch (c) {
    case u'\t':
    case 0x21B5: // CR stand-in
    case 0x2205: // NUL stand-in
    case 0x25CA: // U+FEFF stand-in
    case 0x25A1: // U+FDD0 / U+FDD1 stand-in
    case 0xFFFD:
    case 0x200B:
        return true;
    default:
        // U+00A0 and the other spaces that look like a space or like nothing
        // but are not one: the contract trims them, a reader cannot see them.
        return c >= 0x80 && isWhiteSpace(c);
    }
}

} // namespace

QString displayText(QString soul, bool invisibles)
{
    // Text with nothing to stand in for is returned as it came, still shared:
    // a runtime's text can be megabytes (Hermes injects memory files whole).
    QChar *data = nullptr;
    const qsizetype n = soul.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = soul.at(i).unicode();
        QChar standIn;
        switch (c) {
        // The stand-ins are symbols most fonts have; Unicode's control
        // pictures (U+240D, U+2400) are missing from common monospace fonts
        // and would show as empty boxes.
        case u'\r':
            // The CR of a CR LF is the line break the reader sees anyway; a
            // lone CR is not, and a terminal would jump back over the line.
            standIn = invisibles || i + 1 == n || soul.at(i + 1) != u'\n' ? QChar(0x21B5)
                                                                          : QChar(0x200B);
            break;
        case 0xFDD0:
        case 0xFDD1:
            standIn = QChar(0x25A1);
            break;
        case 0:
            if (invisibles)
                standIn = QChar(0x2205);
            break;
        case 0xFEFF:
            if (invisibles)
                standIn = QChar(0x25CA);
            break;
        default:
            break;
        }
        if (standIn.isNull())
            continue;
        if (!data)
            data = soul.data();
        data[i] = standIn;
    }
    return soul;
}

QList<QPair<int, int>> invisibleRanges(QStringView line)
{
    QList<QPair<int, int>> ranges;
    const int n = int(line.size());
    for (int i = 0; i < n; ++i) {
        if (isInvisible(line.at(i).unicode()))
            ranges.append({i, 1});
    }
    // Spaces before a CR of a CR LF line are trailing too.
    int trailing = n;
    if (trailing > 0
        && (line.at(trailing - 1) == QChar(0x21B5) || line.at(trailing - 1) == QChar(0x200B)))
        --trailing;
    const int lineEnd = trailing;
    while (trailing > 0 && line.at(trailing - 1) == QLatin1Char(' '))
        --trailing;
    if (trailing < lineEnd)
        ranges.append({trailing, lineEnd - trailing});
    return ranges;
}

QString escapedControls(const QString &text, LineBreaks lineBreaks)
{
    const auto isControl = [lineBreaks](char16_t u) {
        if (lineBreaks == LineBreaks::Keep && (u == u'\n' || u == u'\t'))
            return false;
        return u < 0x20 || (u >= 0x7f && u <= 0x9f) || (u >= 0x202a && u <= 0x202e)
               || (u >= 0x2066 && u <= 0x2069) || u == 0x200e || u == 0x200f || u == 0x061c;
    };
    if (std::none_of(text.cbegin(), text.cend(), [&](QChar c) { return isControl(c.unicode()); }))
        return text;
    QString shown;
    shown.reserve(text.size() + 16);
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (!isControl(u))
            shown += c;
        else if (u < 0x100)
            shown += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
        else
            shown += QStringLiteral("\\u{%1}").arg(u, 4, 16, QLatin1Char('0'));
    }
    return shown;
}

} // namespace soul
