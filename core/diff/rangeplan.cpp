#include "rangeplan.h"

#include <QByteArray>

#include <cstring>

namespace soul {

namespace {

// Where moved text is looked for: its first ProbeBytes are searched for within
// MaxShiftBytes of the edit (a paste of up to 64 KiB), and only when the edit
// would otherwise replace more than ShiftWorthBytes.
constexpr qsizetype ProbeBytes = 64;
constexpr qsizetype MaxShiftBytes = qsizetype(64) * 1024;
constexpr qsizetype ShiftWorthBytes = qsizetype(16) * 1024;
// At most this many stretches of moved text are looked for.
constexpr int MaxMovedStretches = 16;

bool isContinuation(char c)
{
    return (uchar(c) & 0xC0) == 0x80;
}

// True when `p` is a character boundary of `text` (its end is one).
bool isBoundary(QByteArrayView text, qsizetype p)
{
    return p >= text.size() || !isContinuation(text[p]);
}

// Length of the common prefix of `a` and `b`, a block at a time: memcmp is
// fast even in a debug build.
qsizetype commonPrefix(QByteArrayView a, QByteArrayView b)
{
    constexpr qsizetype Block = 4096;
    const qsizetype n = qMin(a.size(), b.size());
    qsizetype i = 0;
    while (i + Block <= n && std::memcmp(a.data() + i, b.data() + i, size_t(Block)) == 0)
        i += Block;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

// Length of the common suffix of `a` and `b`, at most `limit`.
qsizetype commonSuffix(QByteArrayView a, QByteArrayView b, qsizetype limit)
{
    constexpr qsizetype Block = 4096;
    const char *ae = a.data() + a.size();
    const char *be = b.data() + b.size();
    qsizetype i = 0;
    while (i + Block <= limit && std::memcmp(ae - i - Block, be - i - Block, size_t(Block)) == 0)
        i += Block;
    while (i < limit && ae[-1 - i] == be[-1 - i])
        ++i;
    return i;
}

// Text the two middles share after their first change: old[i, i + same) is
// new[j, j + same), with i or j zero (an insertion or a removal at the start).
struct Moved
{
    qsizetype i = 0;
    qsizetype j = 0;
    qsizetype same = 0;
};

Moved findMoved(QByteArrayView old, QByteArrayView now)
{
    Moved best;
    for (const bool inserted : {true, false}) {
        // With an insertion the old text resumes further on in the new one;
        // with a removal, the new text further on in the old one.
        const QByteArrayView longer = inserted ? now : old;
        const QByteArrayView resumed = inserted ? old : now;
        if (resumed.size() < ProbeBytes)
            continue;
        const QByteArrayView window = longer.first(qMin(longer.size(), MaxShiftBytes + ProbeBytes));
        const qsizetype k = window.indexOf(resumed.first(ProbeBytes), 1);
        if (k <= 0)
            continue;
        Moved moved{inserted ? 0 : k, inserted ? k : 0, commonPrefix(longer.sliced(k), resumed)};
        while (moved.same > 0
               && !(isBoundary(old, moved.i + moved.same) && isBoundary(now, moved.j + moved.same)))
            --moved.same;
        if (moved.same > best.same)
            best = moved;
    }
    return best;
}

} // namespace

QList<RangeEdit> planRangeEdits(QByteArrayView before,
                                QByteArrayView after,
                                qsizetype lineBreakReach)
{
    const QByteArrayView a = before;
    const QByteArrayView b = after;
    if (a == b)
        return {};
    const qsizetype shorter = qMin(a.size(), b.size());
    qsizetype prefix = commonPrefix(a, b);
    // Cut on character boundaries only, in both texts.
    while (prefix > 0 && !(isBoundary(a, prefix) && isBoundary(b, prefix)))
        --prefix;
    // A CR just before the edit is shown by what follows it (lone or of a
    // CR LF), so it is shown again.
    if (prefix > 0 && a[prefix - 1] == '\r')
        --prefix;
    qsizetype suffix = commonSuffix(a, b, shorter - prefix);
    while (suffix > 0
           && (isContinuation(a[a.size() - suffix]) || isContinuation(b[b.size() - suffix])))
        --suffix;

    // Between the shared ends, text that moved is kept: each stretch the two
    // middles share after a change ends one edit and starts the next.
    QList<RangeEdit> edits;
    const qsizetype oldEnd = a.size() - suffix;
    const qsizetype newEnd = b.size() - suffix;
    qsizetype from = prefix;
    qsizetype to = prefix;
    for (int stretch = 0; from < oldEnd || to < newEnd; ++stretch) {
        Moved moved;
        if (stretch < MaxMovedStretches && qMin(oldEnd - from, newEnd - to) > ShiftWorthBytes)
            moved = findMoved(a.sliced(from, oldEnd - from), b.sliced(to, newEnd - to));
        if (moved.same > 0 && a[from + moved.i + moved.same - 1] == '\r')
            --moved.same;
        if (moved.same < ProbeBytes) {
            edits.append({from, oldEnd - from, to, newEnd - to});
            break;
        }
        edits.append({from, moved.i, to, moved.j});
        from += moved.i + moved.same;
        to += moved.j + moved.same;
    }

    // Replace through the line break after each edit (or from the one before
    // it), over text both sides share.
    qsizetype previousEnd = 0;
    for (qsizetype e = 0; e < edits.size(); ++e) {
        RangeEdit &edit = edits[e];
        const qsizetype end = edit.from + edit.removed;
        const qsizetype nextStart = e + 1 < edits.size() ? edits.at(e + 1).from : a.size();
        const QByteArrayView ahead = a.sliced(end, qMin(nextStart - end, lineBreakReach));
        if (const qsizetype lf = ahead.indexOf('\n'); lf >= 0) {
            edit.removed += lf + 1;
            edit.inserted += lf + 1;
        } else {
            const qsizetype room = qMin(edit.from - previousEnd, lineBreakReach);
            const qsizetype lf2 = a.sliced(edit.from - room, room).lastIndexOf('\n');
            if (lf2 >= 0) {
                const qsizetype back = room - lf2;
                edit.from -= back;
                edit.to -= back;
                edit.removed += back;
                edit.inserted += back;
            }
        }
        previousEnd = edit.from + edit.removed;
    }
    return edits;
}

QByteArray applyRangeEdits(QByteArrayView before,
                           QByteArrayView after,
                           const QList<RangeEdit> &edits)
{
    QByteArray out;
    out.reserve(after.size());
    qsizetype copied = 0;
    for (const RangeEdit &edit : edits) {
        out.append(before.sliced(copied, edit.from - copied));
        out.append(after.sliced(edit.to, edit.inserted));
        copied = edit.from + edit.removed;
    }
    out.append(before.sliced(copied));
    return out;
}

} // namespace soul
