#pragma once

#include "compose/composer.h"
#include "compose/contract.h"
#include "tokenizer.h"

#include <QString>

#include <array>

// The token counts of a composed soul: each section's ("## NAME\n\n" and the
// body) and the whole soul's, with one tokenizer.
namespace soul {

struct SoulTokenCounts
{
    QString encoding;
    qint64 soul = 0;
    // Per slot in BootstrapOrder; -1 for an absent slot.
    std::array<qint64, SlotCount> sections{-1, -1, -1, -1, -1, -1, -1};
};

SoulTokenCounts countSoulTokens(const Composition &composition, const Tokenizer &tokenizer);

} // namespace soul
