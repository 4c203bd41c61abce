#pragma once

#include <QStringView>

// Where two versions of a long text (UTF-16) are the same: their common
// start and end, and a stretch they share between two changes. The runtime
// preview replaces only what lies outside them; the soul preview plans its
// edits in UTF-8 (rangeplan.h).
namespace soul {

// How many units `a` and `b` have in common at their starts.
qsizetype commonStart(QStringView a, QStringView b);
// How many units `a` and `b` have in common at their ends, at most `limit`.
qsizetype commonEnd(QStringView a, QStringView b, qsizetype limit);

// A stretch two changed middles share: where it starts in each and its
// length (0: none).
struct SharedStretch
{
    qsizetype before = 0;
    qsizetype after = 0;
    qsizetype length = 0;
};

// The long stretch (4,096 units or more) that `before` and `after`, the
// parts of two texts between their common start and end, share: a
// keystroke in Hermes's MEMORY.md changes the block's header too, a
// megabyte before it, and the text between stays as it is. Found from the
// middle of `before`, near the same place in `after`. It never starts or
// ends between the halves of a surrogate pair, nor ends with a CR (whose
// stand-in depends on the character after it). Any stretch it returns is
// the same text in both.
SharedStretch sharedStretch(QStringView before, QStringView after);

} // namespace soul
