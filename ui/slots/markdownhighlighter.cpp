#include "markdownhighlighter.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QPalette>

namespace soul {

namespace {

enum BlockState { Normal = 0, InFence = 1 };

// Emphasis is only looked for on lines of reasonable length: one huge line
// must not cost a quadratic search on every keystroke.
constexpr qsizetype InlineScanLimit = 10000;

qsizetype indentOf(const QString &text)
{
    qsizetype i = 0;
    while (i < text.size() && i < 4 && text.at(i) == QLatin1Char(' '))
        ++i;
    return i;
}

bool isFence(const QString &text)
{
    const qsizetype i = indentOf(text);
    return i < 4 && text.mid(i, 3) == QLatin1String("```");
}

} // namespace

MarkdownHighlighter::MarkdownHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    const QPalette pal = QGuiApplication::palette();
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    m_heading.setFontWeight(QFont::Bold);
    m_heading.setForeground(dark ? QColor(0x8c, 0xb4, 0xff) : QColor(0x1c, 0x4f, 0xb0));
    m_code.setFontFamilies({QFontDatabase::systemFont(QFontDatabase::FixedFont).family()});
    m_code.setForeground(dark ? QColor(0xe0, 0xa8, 0x70) : QColor(0x9a, 0x4a, 0x00));
    m_emphasis.setFontItalic(true);
    m_strong.setFontWeight(QFont::Bold);
    m_listMarker.setFontWeight(QFont::Bold);
    m_listMarker.setForeground(dark ? QColor(0x9a, 0xd0, 0x9a) : QColor(0x2a, 0x7a, 0x2a));
}

void MarkdownHighlighter::highlightBlock(const QString &text)
{
    const bool inFence = previousBlockState() == InFence;
    if (inFence || isFence(text)) {
        setFormat(0, int(text.size()), m_code);
        const bool opens = !inFence;
        const bool closes = inFence && isFence(text);
        setCurrentBlockState(opens || (inFence && !closes) ? InFence : Normal);
        return;
    }
    setCurrentBlockState(Normal);

    const qsizetype indent = indentOf(text);
    qsizetype i = indent;
    if (indent < 4) {
        while (i < text.size() && i - indent < 6 && text.at(i) == QLatin1Char('#'))
            ++i;
        if (i > indent && (i == text.size() || text.at(i) == QLatin1Char(' '))) {
            setFormat(0, int(text.size()), m_heading);
            return;
        }
    }

    qsizetype lead = 0;
    while (lead < text.size()
           && (text.at(lead) == QLatin1Char(' ') || text.at(lead) == QLatin1Char('\t')))
        ++lead;
    if (lead < text.size()) {
        const QChar c = text.at(lead);
        qsizetype end = -1;
        if ((c == QLatin1Char('-') || c == QLatin1Char('*') || c == QLatin1Char('+'))
            && lead + 1 < text.size() && text.at(lead + 1) == QLatin1Char(' ')) {
            end = lead + 1;
        } else if (c.isDigit()) {
            qsizetype d = lead;
            while (d < text.size() && d - lead < 9 && text.at(d).isDigit())
                ++d;
            if (d + 1 < text.size()
                && (text.at(d) == QLatin1Char('.') || text.at(d) == QLatin1Char(')'))
                && text.at(d + 1) == QLatin1Char(' '))
                end = d + 1;
        }
        if (end > 0)
            setFormat(int(lead), int(end - lead), m_listMarker);
    }
    if (text.size() <= InlineScanLimit)
        highlightInline(text);
}

void MarkdownHighlighter::highlightInline(const QString &text)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('`')) {
            const qsizetype close = text.indexOf(QLatin1Char('`'), i + 1);
            if (close < 0)
                return;
            setFormat(int(i), int(close - i + 1), m_code);
            i = close + 1;
            continue;
        }
        if (c == QLatin1Char('*') || c == QLatin1Char('_')) {
            const bool strong = i + 1 < n && text.at(i + 1) == c;
            const qsizetype width = strong ? 2 : 1;
            const qsizetype start = i + width;
            // An opening run must touch text: "a * b" is not emphasis.
            if (start < n && !text.at(start).isSpace()) {
                const QString marker(width, c);
                const qsizetype close = text.indexOf(marker, start);
                if (close > start && !text.at(close - 1).isSpace()) {
                    setFormat(int(i), int(close + width - i), strong ? m_strong : m_emphasis);
                    i = close + width;
                    continue;
                }
            }
            i += width;
            continue;
        }
        ++i;
    }
}

} // namespace soul
