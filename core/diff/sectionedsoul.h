#pragma once

#include "compose/composer.h"
#include "compose/contract.h"
#include "result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <array>

// A soul and where each slot's section stands in it: what a comparison needs
// to map a byte of the soul back to a slot and a line of its file, whether the
// soul was composed just now or read back from a snapshot.
namespace soul {

struct SectionedSoul
{
    QString label; // how the soul is named in a diff: a folder or a file
    QByteArray soul;
    // From "## " to the end of the body; -1 for an absent slot.
    std::array<qsizetype, SlotCount> sectionOffset{-1, -1, -1, -1, -1, -1, -1};
    std::array<qsizetype, SlotCount> sectionLength{};
    std::array<bool, SlotCount> truncated{};
    // The 1-based line of the slot's file where the body starts.
    std::array<qint64, SlotCount> bodyFirstLine{1, 1, 1, 1, 1, 1, 1};

    bool present(int slot) const { return sectionOffset[size_t(slot)] >= 0; }
    QByteArrayView section(int slot) const;
    // The section without its "## NAME\n\n" head.
    QByteArrayView body(int slot) const;
    // Where the body starts in `soul`.
    qsizetype bodyOffset(int slot) const;
    // The slot whose section (or the join after it) holds byte `offset`, or -1
    // before the first section.
    int slotAt(qsizetype offset) const;
};

SectionedSoul sectionedSoul(const Composition &composition, const QString &label);

// "## NAME\n\n".length for slot `slot`.
qsizetype sectionHeadLength(int slot);

// Finds the sections of `soul` from its "## NAME\n\n" heads, for the slots
// named in `found` (in composition order), where no manifest says where they
// are. The first section starts at 0; each next one at the first
// "\n\n## NAME\n\n" after the previous head. Fails with a sentence naming
// `soulPath` when a head is missing. A body that quotes a later slot's head
// verbatim cannot be told apart from it; manifests with offsets avoid that.
Result<SectionedSoul> recoverSections(const QByteArray &soul,
                                      const QStringList &found,
                                      const QString &soulPath);

} // namespace soul
