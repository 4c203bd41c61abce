#include "sectionedsoul.h"

#include "compose/composerule.h"

namespace soul {

QByteArrayView SectionedSoul::section(int slot) const
{
    if (!present(slot))
        return {};
    return QByteArrayView(soul).sliced(sectionOffset[size_t(slot)], sectionLength[size_t(slot)]);
}

qsizetype SectionedSoul::bodyOffset(int slot) const
{
    return present(slot) ? sectionOffset[size_t(slot)] + sectionHeadLength(slot) : -1;
}

QByteArrayView SectionedSoul::body(int slot) const
{
    return present(slot) ? section(slot).sliced(sectionHeadLength(slot)) : QByteArrayView();
}

int SectionedSoul::slotAt(qsizetype offset) const
{
    int found = -1;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (present(slot) && sectionOffset[size_t(slot)] <= offset)
            found = slot;
    }
    return found;
}

qsizetype sectionHeadLength(int slot)
{
    const ComposeRule &rule = ComposeRule::toolnexus();
    return rule.sectionPrefix.size() + qsizetype(qstrlen(BootstrapOrder[size_t(slot)]))
           + rule.sectionHeadEnd.size();
}

SectionedSoul sectionedSoul(const Composition &composition, const QString &label)
{
    SectionedSoul s;
    s.label = label;
    s.soul = composition.soul;
    s.sectionOffset = composition.sectionOffset;
    s.sectionLength = composition.sectionLength;
    s.truncated = composition.truncated;
    s.bodyFirstLine = composition.bodyFirstLine;
    return s;
}

Result<SectionedSoul> recoverSections(const QByteArray &soul,
                                      const QStringList &found,
                                      const QString &soulPath)
{
    const ComposeRule &rule = ComposeRule::toolnexus();
    SectionedSoul s;
    s.label = soulPath;
    s.soul = soul;
    int previous = -1;
    qsizetype from = 0;
    for (const QString &name : found) {
        const int slot = slotIndex(name);
        if (slot < 0 || slot <= previous) {
            return Result<SectionedSoul>::failure(
                QStringLiteral("%1: its manifest lists '%2' where a slot name in composition "
                               "order belongs. Export the persona again.")
                    .arg(soulPath, name));
        }
        const QByteArray head = rule.sectionHead(slot);
        qsizetype at = -1;
        if (previous < 0) {
            at = soul.startsWith(head) ? 0 : -1;
        } else {
            const qsizetype join = soul.indexOf(rule.sectionJoin + head, from);
            at = join < 0 ? -1 : join + rule.sectionJoin.size();
        }
        if (at < 0) {
            return Result<SectionedSoul>::failure(
                QStringLiteral("%1: the section of %2 its manifest lists is not in the soul. "
                               "Export the persona again.")
                    .arg(soulPath, name));
        }
        if (previous >= 0) {
            s.sectionLength[size_t(previous)] = at - rule.sectionJoin.size()
                                                - s.sectionOffset[size_t(previous)];
        }
        s.sectionOffset[size_t(slot)] = at;
        from = at + head.size();
        previous = slot;
    }
    if (previous >= 0)
        s.sectionLength[size_t(previous)] = soul.size() - s.sectionOffset[size_t(previous)];
    else if (!soul.isEmpty())
        return Result<SectionedSoul>::failure(
            QStringLiteral("%1: its manifest lists no files but the soul is not empty. "
                           "Export the persona again.")
                .arg(soulPath));
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (s.present(slot))
            s.truncated[size_t(slot)] = s.body(slot).endsWith(rule.notice);
    }
    return s;
}

} // namespace soul
