#include "soultokens.h"

namespace soul {

SoulTokenCounts countSoulTokens(const Composition &composition, const Tokenizer &tokenizer)
{
    SoulTokenCounts counts;
    counts.encoding = tokenizer.name();
    const QByteArrayView soul = composition.soul;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto k = size_t(slot);
        if (composition.present[k] && composition.sectionOffset[k] >= 0)
            counts.sections[k] = tokenizer.count(
                soul.sliced(composition.sectionOffset[k], composition.sectionLength[k]));
    }
    // Counted whole rather than summed: the "\n\n" between two sections can
    // share a token with the end of the first (".\n\n" is one token).
    counts.soul = tokenizer.count(soul);
    return counts;
}

} // namespace soul
