#pragma once

#include "composerule.h"
#include "contract.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <optional>

// compose() as a pure function of seven optional byte buffers and a rule;
// composeDirectory() (disk/) reads a folder into it. The preview, the export,
// the meters and soulc all come from here, so they cannot disagree. Every function takes the
// ComposeRule to apply; it defaults to toolnexus's for callers that only ever
// show that runtime's soul.
namespace soul {

// The bytes of each slot, in BootstrapOrder; std::nullopt for an absent slot.
// A buffer may hold the whole file or only its first rule.readLimit() bytes:
// only those decide the result.
using SlotBuffers = std::array<std::optional<QByteArray>, SlotCount>;

struct Composition
{
    QByteArray soul;   // UTF-8, exactly what the agent receives
    QStringList found; // names of the slots that took part, in order
    std::array<bool, SlotCount> present{};
    std::array<bool, SlotCount> truncated{};
    // Where each present slot's section (from "## " to the end of its body)
    // stands in `soul`; -1 for an absent slot.
    std::array<qsizetype, SlotCount> sectionOffset{-1, -1, -1, -1, -1, -1, -1};
    std::array<qsizetype, SlotCount> sectionLength{};
    // The 1-based line of each present slot's file where its body starts: one
    // more than the line breaks the leading trim removed. Maps a place in the
    // soul back to a line of the file.
    std::array<qint64, SlotCount> bodyFirstLine{1, 1, 1, 1, 1, 1, 1};
};

// True when `raw` is longer than the rule's cap and will be cut.
inline bool isTruncated(QByteArrayView raw, const ComposeRule &rule = ComposeRule::toolnexus())
{
    return rule.truncates(raw);
}

// Steps 2 to 5 of the contract for one file: cut, lossy decode, notice, trim.
// Appends the body to `out` and returns whether the bytes were truncated.
bool appendBody(QByteArray &out,
                QByteArrayView raw,
                const ComposeRule &rule = ComposeRule::toolnexus());

// The body of one slot as pieces of the soul, without copying: the text (a
// view into `raw`, or into `scratch` when invalid bytes had to be replaced)
// and the truncation notice (empty unless truncated). Valid while `raw` and
// `scratch` are.
struct BodyPieces
{
    QByteArrayView text;
    QByteArrayView notice;
    bool truncated = false;
};
BodyPieces bodyPieces(QByteArrayView raw,
                      QByteArray &scratch,
                      const ComposeRule &rule = ComposeRule::toolnexus());

// The 1-based line of the file `raw` on which its composed body starts.
qint64 bodyFirstLine(QByteArrayView raw, const ComposeRule &rule = ComposeRule::toolnexus());

// The body alone, as a new array.
QByteArray composeBody(QByteArrayView raw,
                       bool *truncated = nullptr,
                       const ComposeRule &rule = ComposeRule::toolnexus());

// "## NAME\n\n" + body.
QByteArray composeSection(int slot,
                          QByteArrayView raw,
                          bool *truncated = nullptr,
                          const ComposeRule &rule = ComposeRule::toolnexus());

Composition compose(const SlotBuffers &buffers, const ComposeRule &rule = ComposeRule::toolnexus());

// compose() one slot at a time, for a caller that has the slots' bytes one
// after the other in rule.order (composeDirectory() reads them so): appends
// slot `slot`'s section to `result`, with the join before it when something
// came before, and fills in the slot's entries.
void appendSection(Composition &result,
                   int slot,
                   QByteArrayView raw,
                   const ComposeRule &rule = ComposeRule::toolnexus());

// Appends the head of slot `slot`'s section ("## NAME\n\n" for toolnexus).
void appendSectionHead(QByteArray &out, int slot, const ComposeRule &rule);

// Receives the soul piece by piece, in order; returns false to stop.
using SoulWriter = std::function<bool(QByteArrayView piece)>;

} // namespace soul
