#include "contract.h"

namespace soul {

QString slotName(int slot)
{
    if (slot < 0 || slot >= SlotCount)
        return {};
    return QString::fromLatin1(BootstrapOrder[static_cast<size_t>(slot)]);
}

QString slotRole(int slot)
{
    static constexpr std::array<const char *, SlotCount> roles = {
        "operating instructions",
        "identity and voice",
        "who the agent is",
        "model of the user",
        "tool guidance",
        "what to do on a heartbeat",
        "durable long-term notes",
    };
    if (slot < 0 || slot >= SlotCount)
        return {};
    return QString::fromLatin1(roles[static_cast<size_t>(slot)]);
}

int slotIndex(QStringView fileName)
{
    for (int i = 0; i < SlotCount; ++i) {
        if (fileName == QLatin1String(BootstrapOrder[static_cast<size_t>(i)]))
            return i;
    }
    return -1;
}

QStringList bootstrapOrder()
{
    QStringList names;
    names.reserve(SlotCount);
    for (int i = 0; i < SlotCount; ++i)
        names.append(slotName(i));
    return names;
}

} // namespace soul
