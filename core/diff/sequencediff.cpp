#include "sequencediff.h"

namespace soul {

namespace {

void push(std::vector<DiffRun> &runs, DiffKind kind, qsizetype count)
{
    if (count <= 0)
        return;
    if (!runs.empty() && runs.back().kind == kind)
        runs.back().count += count;
    else
        runs.push_back({kind, count});
}

// Myers' greedy forward search, keeping each round's furthest reaching paths
// for the walk back. Returns false when the script needs more than
// MaxDiffEdits edits. Fills `reversed` with runs from the end to the start.
bool myers(
    const quint32 *a, qsizetype n, const quint32 *b, qsizetype m, std::vector<DiffRun> &reversed)
{
    const qsizetype max = n + m;
    const qsizetype limit = qMin(max, MaxDiffEdits);
    const qsizetype offset = max + 1;
    std::vector<qsizetype> v(size_t(2 * max + 3), 0);
    std::vector<std::vector<qsizetype>> trace;
    qsizetype found = -1;
    for (qsizetype d = 0; d <= limit && found < 0; ++d) {
        for (qsizetype k = -d; k <= d; k += 2) {
            qsizetype x = (k == -d
                           || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                              ? v[size_t(offset + k + 1)]
                              : v[size_t(offset + k - 1)] + 1;
            qsizetype y = x - k;
            while (x < n && y < m && a[x] == b[y]) {
                ++x;
                ++y;
            }
            v[size_t(offset + k)] = x;
            if (x >= n && y >= m)
                found = d;
        }
        trace.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
    }
    if (found < 0)
        return false;

    qsizetype x = n;
    qsizetype y = m;
    for (qsizetype d = found; d > 0; --d) {
        const std::vector<qsizetype> &previous = trace[size_t(d - 1)];
        const auto at = [&](qsizetype k) { return previous[size_t(k + d - 1)]; };
        const qsizetype k = x - y;
        const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        const qsizetype previousK = down ? k + 1 : k - 1;
        const qsizetype previousX = at(previousK);
        const qsizetype startX = down ? previousX : previousX + 1;
        push(reversed, DiffKind::Keep, x - startX);
        push(reversed, down ? DiffKind::Add : DiffKind::Remove, 1);
        x = previousX;
        y = previousX - previousK;
    }
    push(reversed, DiffKind::Keep, x);
    return true;
}

} // namespace

std::vector<DiffRun> diffSequences(const quint32 *a, qsizetype n, const quint32 *b, qsizetype m)
{
    qsizetype head = 0;
    while (head < n && head < m && a[head] == b[head])
        ++head;
    qsizetype tail = 0;
    while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail])
        ++tail;

    std::vector<DiffRun> runs;
    push(runs, DiffKind::Keep, head);
    const quint32 *ma = a + head;
    const quint32 *mb = b + head;
    const qsizetype mn = n - head - tail;
    const qsizetype mm = m - head - tail;
    std::vector<DiffRun> reversed;
    if (mn > 0 && mm > 0 && myers(ma, mn, mb, mm, reversed)) {
        for (auto it = reversed.rbegin(); it != reversed.rend(); ++it)
            push(runs, it->kind, it->count);
    } else {
        push(runs, DiffKind::Remove, mn);
        push(runs, DiffKind::Add, mm);
    }
    push(runs, DiffKind::Keep, tail);
    return runs;
}

} // namespace soul
