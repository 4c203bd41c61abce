#pragma once

#include <QByteArrayView>
#include <QList>

// How the preview turns the text it shows of a section into the section's new
// text with as little replaced as it can: replacing text in a QTextDocument
// costs in proportion to what is replaced, and a section is up to 2 MiB.
namespace soul {

// Bytes [from, from + removed) of the old text become bytes
// [to, to + inserted) of the new one.
struct RangeEdit
{
    qsizetype from = 0;
    qsizetype removed = 0;
    qsizetype to = 0;
    qsizetype inserted = 0;

    bool operator==(const RangeEdit &other) const
    {
        return from == other.from && removed == other.removed && to == other.to
               && inserted == other.inserted;
    }
};

// The edits, in order and apart, that turn `before` into `after` (UTF-8, both
// valid where they differ): one around what changed, or one for each change
// when long stretches between changes are the same text, moved. That is what
// typing does in a file over the cap: the edit shifts everything after it,
// and the cut at the cap drops as much at the end, so the two texts share no
// end but share the long stretch between (and a revert of several edits
// moves several stretches).
//
// Every edit starts and ends on a character boundary of both texts, starts
// before a CR that precedes it (a CR is shown by what follows it), and is
// extended through the next line break within `lineBreakReach` bytes of
// unchanged text (else back to the line break before it), so an edit in a
// document spans two blocks. Empty when the texts are equal.
QList<RangeEdit> planRangeEdits(QByteArrayView before,
                                QByteArrayView after,
                                qsizetype lineBreakReach);

// The result of applying `edits` to `before`, taking the inserted bytes from
// `after`: equal to `after` for a plan of the two. For tests and checks.
QByteArray applyRangeEdits(QByteArrayView before,
                           QByteArrayView after,
                           const QList<RangeEdit> &edits);

} // namespace soul
