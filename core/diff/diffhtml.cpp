#include "diffhtml.h"

#include "compose/displaytext.h"
#include "compose/utf8.h"
#include "linediff.h"
#include "sectionedsoul.h"

#include <vector>

namespace soul {

namespace {

// One line of a unified diff as HTML: its mark (the first character), then
// its text with the changed `words` in class `wordClass` and, when
// `invisibles`, what the preview marks as invisible in class "inv".
QString lineHtml(const QString &line,
                 const QList<TextRange> &words,
                 const QString &wordClass,
                 bool invisibles)
{
    const qsizetype n = line.size();
    // Per UTF-16 unit: 1 within a changed word, 2 within an invisible.
    std::vector<unsigned char> kind(size_t(n), 0);
    for (const TextRange &r : words) {
        for (qsizetype i = r.start; i < qMin(n, r.start + r.length); ++i)
            kind[size_t(i)] |= 1;
    }
    if (invisibles && n > 0) {
        for (const QPair<int, int> &r : invisibleRanges(QStringView(line).mid(1))) {
            for (qsizetype i = r.first + 1; i < qMin(n, qsizetype(r.first) + 1 + r.second); ++i)
                kind[size_t(i)] |= 2;
        }
    }
    QString out;
    for (qsizetype at = 0; at < n;) {
        qsizetype end = at + 1;
        while (end < n && kind[size_t(end)] == kind[size_t(at)])
            ++end;
        QString text = line.mid(at, end - at).toHtmlEscaped();
        if (kind[size_t(at)] & 2)
            text = QStringLiteral("<span class=\"inv\">%1</span>").arg(text);
        if (kind[size_t(at)] & 1)
            text = QStringLiteral("<span class=\"%1\">%2</span>").arg(wordClass, text);
        out += text;
        at = end;
    }
    return out;
}

} // namespace

QString unifiedDiffHtml(const QString &diff, bool invisibles)
{
    const QStringList lines = diff.split(QLatin1Char('\n'));
    QString html;
    auto span = [](const QString &cls, const QString &text) {
        return QStringLiteral("<span class=\"%1\">%2</span>").arg(cls, text);
    };
    for (qsizetype i = 0; i < lines.size();) {
        const QString &line = lines[i];
        if (!line.startsWith(QLatin1Char('-')) || line.startsWith(QStringLiteral("---"))) {
            const bool header = line.startsWith(QStringLiteral("@@"))
                                || line.startsWith(QStringLiteral("+++"))
                                || line.startsWith(QStringLiteral("---"));
            const QString cls = line.startsWith(QStringLiteral("@@")) ? QStringLiteral("hunk")
                                : line.startsWith(QLatin1Char('+')) && !header
                                    ? QStringLiteral("add")
                                    : QStringLiteral("ctx");
            html += span(cls, header ? line.toHtmlEscaped() : lineHtml(line, {}, {}, invisibles))
                    + QLatin1Char('\n');
            ++i;
            continue;
        }
        // A run of removed lines and the run of added lines after it: the
        // n-th of each are compared word by word.
        qsizetype removedEnd = i;
        while (removedEnd < lines.size() && lines[removedEnd].startsWith(QLatin1Char('-')))
            ++removedEnd;
        qsizetype addedEnd = removedEnd;
        while (addedEnd < lines.size() && lines[addedEnd].startsWith(QLatin1Char('+')))
            ++addedEnd;
        const qsizetype pairs = qMin(removedEnd - i, addedEnd - removedEnd);
        for (qsizetype k = i; k < removedEnd; ++k) {
            QList<TextRange> words;
            if (k - i < pairs) {
                words = changedWords(QStringView(lines[k]).mid(1),
                                     QStringView(lines[removedEnd + (k - i)]).mid(1))
                            .removed;
                for (TextRange &r : words)
                    r.start += 1;
            }
            html += span(QStringLiteral("del"),
                         lineHtml(lines[k], words, QStringLiteral("delw"), invisibles))
                    + QLatin1Char('\n');
        }
        for (qsizetype k = removedEnd; k < addedEnd; ++k) {
            QList<TextRange> words;
            if (k - removedEnd < pairs) {
                words = changedWords(QStringView(lines[i + (k - removedEnd)]).mid(1),
                                     QStringView(lines[k]).mid(1))
                            .added;
                for (TextRange &r : words)
                    r.start += 1;
            }
            html += span(QStringLiteral("add"),
                         lineHtml(lines[k], words, QStringLiteral("addw"), invisibles))
                    + QLatin1Char('\n');
        }
        i = addedEnd;
    }
    return html;
}

namespace {

QString diffStyle()
{
    return QStringLiteral(
        "<style>pre{margin:0} .hunk{color:#6a5acd} .del{background:#fde8e8} "
        ".add{background:#e6f6e6} .delw{background:#f4a8a8} .addw{background:#9fdc9f} "
        ".ctx{color:#444} h3{margin:8px 0 2px 0} "
        // The colours of the preview's invisible marks.
        ".inv{background:#ffc8c8; color:#a00000}</style>");
}

} // namespace

QString textDiffHtml(const QString &title, const QByteArray &unifiedDiff, bool invisibles)
{
    QString html = diffStyle();
    if (unifiedDiff.isEmpty())
        return html;
    if (!title.isEmpty())
        html += QStringLiteral("<h3>%1</h3>").arg(title.toHtmlEscaped());
    // As for a section: the words of a last line changed are marked, not
    // split by the note that it has no line break.
    QString diff = displayText(utf8::decode(unifiedDiff)
                                   .replace(QStringLiteral("\n\\ No newline at end of file\n"),
                                            QStringLiteral("\n")),
                               invisibles);
    if (diff.endsWith(QLatin1Char('\n')))
        diff.chop(1);
    return html + QStringLiteral("<pre>") + unifiedDiffHtml(diff, invisibles)
           + QStringLiteral("</pre>");
}

QString sectionsDiffHtml(const LiveSections &snapshot,
                         const LiveSections &live,
                         const std::array<SectionStatus, SlotCount> &status,
                         bool invisibles)
{
    QString html = diffStyle();
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SectionStatus s = status[size_t(slot)];
        if (s == SectionStatus::Absent || s == SectionStatus::Unchanged)
            continue;
        const QString name = slotName(slot);
        html += QStringLiteral("<h3>%1 — %2</h3>").arg(name.toHtmlEscaped(), sectionStatusName(s));
        if (s != SectionStatus::Changed)
            continue;
        // Diffed as bytes, without copying or decoding the sections: only
        // the lines between the ends both share are looked at, and only the
        // diff is decoded, to text as the preview shows it.
        const QByteArrayView bodyA
            = QByteArrayView(*snapshot.section[size_t(slot)]).sliced(sectionHeadLength(slot));
        const QByteArrayView bodyB
            = QByteArrayView(*live.section[size_t(slot)]).sliced(sectionHeadLength(slot));
        SectionedSoul before;
        before.label = QStringLiteral("snapshot/") + name;
        before.soul = QByteArray::fromRawData(bodyA.data(), bodyA.size());
        SectionedSoul after;
        after.label = QStringLiteral("live/") + name;
        after.soul = QByteArray::fromRawData(bodyB.data(), bodyB.size());
        // A body never ends in a line break (the join follows it): the diff
        // need not say so.
        QString diff = utf8::decode(unifiedSoulDiff(before, after))
                           .replace(QStringLiteral("\n\\ No newline at end of file\n"),
                                    QStringLiteral("\n"));
        diff = displayText(std::move(diff), invisibles);
        if (diff.endsWith(QLatin1Char('\n')))
            diff.chop(1);
        html += QStringLiteral("<pre>") + unifiedDiffHtml(diff, invisibles)
                + QStringLiteral("</pre>");
    }
    return html;
}

} // namespace soul
