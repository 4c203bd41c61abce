#include "linediff.h"

#include "sequencediff.h"

#include <QHash>

#include <vector>

namespace soul {

namespace {

// Gives equal texts equal ids.
template<typename Key>
class Interner
{
public:
    quint32 id(const Key &key)
    {
        const auto it = m_ids.constFind(key);
        if (it != m_ids.constEnd())
            return *it;
        const auto next = quint32(m_ids.size());
        m_ids.insert(key, next);
        return next;
    }

private:
    QHash<Key, quint32> m_ids;
};

// Words: a run of letters, marks and digits, a run of white space, or one
// other character (a surrogate pair stays whole).
QList<TextRange> splitWords(QStringView text)
{
    QList<TextRange> words;
    const auto isWord = [](QChar c) { return c.isLetterOrNumber() || c.isMark(); };
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype start = i;
        const QChar c = text.at(i);
        if (isWord(c)) {
            while (i < text.size() && isWord(text.at(i)))
                ++i;
        } else if (c.isSpace()) {
            while (i < text.size() && text.at(i).isSpace())
                ++i;
        } else {
            ++i;
            if (c.isHighSurrogate() && i < text.size() && text.at(i).isLowSurrogate())
                ++i;
        }
        words.append({start, i - start});
    }
    return words;
}

void addRange(QList<TextRange> &ranges, qsizetype start, qsizetype end)
{
    if (end <= start)
        return;
    if (!ranges.isEmpty() && ranges.last().start + ranges.last().length == start)
        ranges.last().length += end - start;
    else
        ranges.append({start, end - start});
}

} // namespace

QString lineDiff(const QString &beforeName,
                 const QStringList &before,
                 const QString &afterName,
                 const QStringList &after)
{
    Interner<QString> interner;
    std::vector<quint32> a;
    std::vector<quint32> b;
    a.reserve(size_t(before.size()));
    b.reserve(size_t(after.size()));
    for (const QString &line : before)
        a.push_back(interner.id(line));
    for (const QString &line : after)
        b.push_back(interner.id(line));
    const std::vector<DiffRun> runs = diffSequences(a, b);

    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(beforeName, afterName);
    if (runs.empty() || (runs.size() == 1 && runs.front().kind == DiffKind::Keep))
        return out + QStringLiteral("(no differences in the text)\n");

    struct Line
    {
        DiffKind kind;
        const QString *text;
    };
    std::vector<Line> lines;
    qsizetype i = 0;
    qsizetype j = 0;
    for (const DiffRun &run : runs) {
        for (qsizetype c = 0; c < run.count; ++c) {
            switch (run.kind) {
            case DiffKind::Keep:
                lines.push_back({run.kind, &before.at(i++)});
                ++j;
                break;
            case DiffKind::Remove:
                lines.push_back({run.kind, &before.at(i++)});
                break;
            case DiffKind::Add:
                lines.push_back({run.kind, &after.at(j++)});
                break;
            }
        }
    }
    constexpr size_t Context = 3;
    std::vector<bool> show(lines.size(), false);
    for (size_t l = 0; l < lines.size(); ++l) {
        if (lines[l].kind == DiffKind::Keep)
            continue;
        const size_t from = l >= Context ? l - Context : 0;
        const size_t to = qMin(lines.size() - 1, l + Context);
        for (size_t s = from; s <= to; ++s)
            show[s] = true;
    }
    bool gap = false;
    for (size_t l = 0; l < lines.size(); ++l) {
        if (!show[l]) {
            gap = true;
            continue;
        }
        if (gap) {
            out += QStringLiteral("@@\n");
            gap = false;
        }
        const QChar mark = lines[l].kind == DiffKind::Keep     ? QLatin1Char(' ')
                           : lines[l].kind == DiffKind::Remove ? QLatin1Char('-')
                                                               : QLatin1Char('+');
        out += mark + *lines[l].text + QLatin1Char('\n');
    }
    return out;
}

ChangedWords changedWords(QStringView before, QStringView after)
{
    const QList<TextRange> beforeWords = splitWords(before);
    const QList<TextRange> afterWords = splitWords(after);
    Interner<QStringView> interner;
    std::vector<quint32> a;
    std::vector<quint32> b;
    for (const TextRange &w : beforeWords)
        a.push_back(interner.id(before.sliced(w.start, w.length)));
    for (const TextRange &w : afterWords)
        b.push_back(interner.id(after.sliced(w.start, w.length)));

    ChangedWords result;
    qsizetype i = 0;
    qsizetype j = 0;
    for (const DiffRun &run : diffSequences(a, b)) {
        switch (run.kind) {
        case DiffKind::Keep:
            i += run.count;
            j += run.count;
            break;
        case DiffKind::Remove: {
            const TextRange &first = beforeWords.at(i);
            const TextRange &last = beforeWords.at(i + run.count - 1);
            addRange(result.removed, first.start, last.start + last.length);
            i += run.count;
            break;
        }
        case DiffKind::Add: {
            const TextRange &first = afterWords.at(j);
            const TextRange &last = afterWords.at(j + run.count - 1);
            addRange(result.added, first.start, last.start + last.length);
            j += run.count;
            break;
        }
        }
    }
    return result;
}

} // namespace soul
