#include "souldifftext.h"

#include "souldiff.h"

namespace soul {

QByteArray soulDiffText(const SectionedSoul &a,
                        const SectionedSoul &b,
                        const TokenEncoding &encoding,
                        bool *identical)
{
    const auto status = compareSections(a, b);
    const StablePrefix prefix = stablePrefix(a.soul, b.soul, encoding);
    const std::optional<FirstChange> change = firstChange(a, b, status, qsizetype(prefix.bytes));
    if (identical)
        *identical = prefix.identical;
    QByteArray out = unifiedSoulDiff(a, b);
    out += QStringLiteral("stable prefix: %1 of %2 %3 (%4%)")
               .arg(prefix.tokens)
               .arg(prefix.totalTokens)
               .arg(encoding.unit)
               .arg(prefix.percent())
               .toUtf8();
    if (change)
        out += QStringLiteral("; first change: %1 line %2")
                   .arg(change->file)
                   .arg(change->line)
                   .toUtf8();
    out += '\n';
    return out;
}

} // namespace soul
