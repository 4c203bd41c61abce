#pragma once

#include "contract.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

// The toolnexus composition rule as a value: which slots are composed and in
// what order, the byte cap of each file, the notice that marks a cut file, the
// section head and the join between sections, and the share of the cap at
// which a file is "near" it. The composer, the reader's limits, the meters,
// the lints, the snapshot manifest and soulc take a rule instead of reading
// constants, so a runtime with other numbers is another value, not a rewrite.
//
// The slots themselves (SlotCount, slotName()) are the persona folder's
// convention, the same files whatever runtime reads the folder; a rule only
// says how those files are composed.
namespace soul {

// The share of a cap or budget, in percent, at or above which a file (or a
// total) is near it: the meters and lints of every runtime.
inline constexpr int NearPercent = 85;

struct ComposeRule
{
    // Slots composed, in the order their sections follow each other; a slot
    // not listed is not composed.
    QList<int> order;
    // Counted in bytes, not characters; a file longer than this is cut here.
    qint64 capBytes = 0;
    // Appended to the body of a cut file (after the cut, before the trim).
    // Valid UTF-8, as the rest of the soul.
    QByteArray notice;
    // A section is sectionPrefix + file name + sectionHeadEnd + body; sections
    // are separated by sectionJoin.
    QByteArray sectionPrefix;
    QByteArray sectionHeadEnd;
    QByteArray sectionJoin;
    // At or above this percentage of the cap (rounded up to a whole byte) a
    // file is near the cap.
    int nearPercent = NearPercent;

    // Today's toolnexus rule: the only place its numbers are written.
    static const ComposeRule &toolnexus();

    // The first byte count at or above nearPercent of the cap. Rounded up: a
    // file one byte short of it must not be reported as "at 84% of the cap".
    qint64 nearCapBytes() const { return (capBytes * nearPercent + 99) / 100; }
    // Bytes a reader keeps of a file: the cap and one more, which is all the
    // agent can get plus the byte that says whether it was cut.
    qint64 readLimit() const { return capBytes + 1; }
    // True when `raw` is longer than the cap and will be cut.
    bool truncates(QByteArrayView raw) const { return raw.size() > capBytes; }
    // "2 MiB": the cap as people read it.
    QString capText() const;
    // "## SOUL.md\n\n"
    QByteArray sectionHead(int slot) const;
    // The names of the slots in `order`: "AGENTS.md", "SOUL.md", ...
    QStringList fileNames() const;
    // Whether `slot` is composed at all.
    bool composes(int slot) const { return order.contains(slot); }

    bool operator==(const ComposeRule &other) const;
    bool operator!=(const ComposeRule &other) const { return !(*this == other); }
};

// A byte count in the largest binary unit that divides it exactly:
// 2097152 -> "2 MiB", 4096 -> "4 KiB", 16 -> "16 bytes", 1 -> "1 byte",
// 2097153 -> "2,097,153 bytes". Exact, so a text that says a cap never rounds it.
QString formatBytes(qint64 bytes);

} // namespace soul
