#include "textstretch.h"

#include <cstring>

namespace soul {

namespace {

// Units compared at a time by memcmp before the unit that differs is looked
// for: a keystroke changes a few characters of a text of megabytes.
constexpr qsizetype CompareChunk = 4096;

} // namespace

qsizetype commonStart(QStringView a, QStringView b)
{
    const qsizetype n = qMin(a.size(), b.size());
    qsizetype at = 0;
    while (at + CompareChunk <= n
           && std::memcmp(a.data() + at, b.data() + at, CompareChunk * sizeof(QChar)) == 0)
        at += CompareChunk;
    while (at < n && a.at(at) == b.at(at))
        ++at;
    return at;
}

qsizetype commonEnd(QStringView a, QStringView b, qsizetype limit)
{
    const QChar *ea = a.data() + a.size();
    const QChar *eb = b.data() + b.size();
    qsizetype n = 0;
    while (n + CompareChunk <= limit
           && std::memcmp(ea - n - CompareChunk, eb - n - CompareChunk, CompareChunk * sizeof(QChar))
                  == 0)
        n += CompareChunk;
    while (n < limit && *(ea - 1 - n) == *(eb - 1 - n))
        ++n;
    return n;
}

SharedStretch sharedStretch(QStringView before, QStringView after)
{
    // Worth a second edit: shorter stretches are replaced with the rest.
    constexpr qsizetype MinShared = 4096;
    // The units looked for, from the middle of `before`.
    constexpr qsizetype Anchor = 64;
    // How far from the same place the anchor is looked for, beyond the
    // difference in length.
    constexpr qsizetype Reach = 4096;
    if (before.size() < 2 * MinShared || after.size() < 2 * MinShared)
        return {};
    const qsizetype middle = before.size() / 2;
    const QStringView anchor = before.sliced(middle, Anchor);
    const qsizetype shift = after.size() - before.size();
    // Any place where the anchor matches gives a right result (the stretch
    // is the same in both); in text that repeats itself, the wrong one is
    // shorter. The places a header's few characters would move it to are
    // tried first, and the longest stretch taken.
    const auto stretchAt = [&](qsizetype at) {
        const qsizetype back = commonEnd(before.first(middle), after.first(at), qMin(middle, at));
        const qsizetype forward = commonStart(before.sliced(middle), after.sliced(at));
        return SharedStretch{middle - back, at - back, back + forward};
    };
    SharedStretch shared;
    for (const qsizetype at :
         {middle, middle + shift, middle - 2, middle - 1, middle + 1, middle + 2}) {
        if (at < 0 || at + Anchor > after.size() || after.sliced(at, Anchor) != anchor)
            continue;
        const SharedStretch candidate = stretchAt(at);
        if (candidate.length > shared.length)
            shared = candidate;
    }
    if (shared.length == 0) {
        const qsizetype slack = Reach + qAbs(shift);
        const qsizetype from = qMax<qsizetype>(0, middle - slack);
        const qsizetype to = qMin(after.size(), middle + slack + Anchor);
        const qsizetype found = after.sliced(from, to - from).indexOf(anchor);
        if (found < 0)
            return {};
        shared = stretchAt(from + found);
    }
    // Never between the halves of a surrogate pair, and a CR's stand-in
    // depends on the character after it, which the second edit changes.
    if (shared.length > 0 && before.at(shared.before).isLowSurrogate()) {
        ++shared.before;
        ++shared.after;
        --shared.length;
    }
    while (shared.length > 0) {
        const QChar last = before.at(shared.before + shared.length - 1);
        if (!last.isHighSurrogate() && last != QLatin1Char('\r'))
            break;
        --shared.length;
    }
    return shared.length >= MinShared ? shared : SharedStretch();
}

} // namespace soul
