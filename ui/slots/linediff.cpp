#include "linediff.h"

#include <vector>

namespace soul {

namespace {

enum class Op { Keep, Remove, Add };

struct Line
{
    Op op = Op::Keep;
    QString text;
};

// Past this many cells the table would cost too much memory for a dialog.
constexpr qsizetype MaxTableCells = 4'000'000;

} // namespace

QString lineDiff(const QString &beforeName,
                 const QStringList &before,
                 const QString &afterName,
                 const QStringList &after)
{
    qsizetype head = 0;
    while (head < before.size() && head < after.size() && before.at(head) == after.at(head))
        ++head;
    qsizetype tail = 0;
    while (tail < before.size() - head && tail < after.size() - head
           && before.at(before.size() - 1 - tail) == after.at(after.size() - 1 - tail))
        ++tail;

    const qsizetype n = before.size() - head - tail;
    const qsizetype m = after.size() - head - tail;
    std::vector<Line> lines;
    for (qsizetype i = 0; i < head; ++i)
        lines.push_back({Op::Keep, before.at(i)});
    if (n > 0 && m > 0 && (n + 1) * (m + 1) <= MaxTableCells) {
        std::vector<int> table(size_t((n + 1) * (m + 1)), 0);
        auto at = [&](qsizetype i, qsizetype j) -> int & { return table[size_t(i * (m + 1) + j)]; };
        for (qsizetype i = n - 1; i >= 0; --i) {
            for (qsizetype j = m - 1; j >= 0; --j) {
                at(i, j) = before.at(head + i) == after.at(head + j)
                               ? at(i + 1, j + 1) + 1
                               : qMax(at(i + 1, j), at(i, j + 1));
            }
        }
        qsizetype i = 0;
        qsizetype j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && before.at(head + i) == after.at(head + j)) {
                lines.push_back({Op::Keep, before.at(head + i)});
                ++i;
                ++j;
            } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
                lines.push_back({Op::Add, after.at(head + j)});
                ++j;
            } else {
                lines.push_back({Op::Remove, before.at(head + i)});
                ++i;
            }
        }
    } else {
        for (qsizetype i = 0; i < n; ++i)
            lines.push_back({Op::Remove, before.at(head + i)});
        for (qsizetype j = 0; j < m; ++j)
            lines.push_back({Op::Add, after.at(head + j)});
    }
    for (qsizetype i = before.size() - tail; i < before.size(); ++i)
        lines.push_back({Op::Keep, before.at(i)});

    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(beforeName, afterName);
    if (n == 0 && m == 0)
        return out + QStringLiteral("(no differences in the text)\n");
    constexpr qsizetype Context = 3;
    std::vector<bool> show(lines.size(), false);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].op == Op::Keep)
            continue;
        const size_t from = i >= size_t(Context) ? i - size_t(Context) : 0;
        const size_t to = qMin(lines.size() - 1, i + size_t(Context));
        for (size_t s = from; s <= to; ++s)
            show[s] = true;
    }
    bool gap = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!show[i]) {
            gap = true;
            continue;
        }
        if (gap) {
            out += QStringLiteral("@@\n");
            gap = false;
        }
        const QChar mark = lines[i].op == Op::Keep     ? QLatin1Char(' ')
                           : lines[i].op == Op::Remove ? QLatin1Char('-')
                                                       : QLatin1Char('+');
        out += mark + lines[i].text + QLatin1Char('\n');
    }
    return out;
}

} // namespace soul
