#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <array>

// The compose contract (docs/compose-rule.md): the fixed slot order, the byte
// cap and the truncation notice. Nothing here does I/O.
namespace soul {

inline constexpr int SlotCount = 7;

// Counted in bytes, not characters.
inline constexpr qint64 CapBytes = 2097152;

// At or above this share of the cap (85%) a slot is "near the cap". Rounded
// up: 85% of the cap is not a whole number of bytes, and a slot one byte
// short of it must not be reported as "at 84% of the cap".
inline constexpr qint64 NearCapBytes = (CapBytes * 85 + 99) / 100;

inline constexpr std::array<const char *, SlotCount> BootstrapOrder = {
    "AGENTS.md",
    "SOUL.md",
    "IDENTITY.md",
    "USER.md",
    "TOOLS.md",
    "HEARTBEAT.md",
    "MEMORY.md",
};

inline constexpr char TruncationNotice[] = "\n[truncated: exceeds 2 MB bootstrap cap]";
inline constexpr qsizetype TruncationNoticeBytes = sizeof(TruncationNotice) - 1;

inline constexpr char SectionPrefix[] = "## ";
inline constexpr char SectionHeadEnd[] = "\n\n";
inline constexpr char SectionJoin[] = "\n\n";

// "AGENTS.md" for 0 ... "MEMORY.md" for 6.
QString slotName(int slot);
// A short phrase: "operating instructions", "identity and voice", ...
QString slotRole(int slot);
// The slot of an exact (case-sensitive) file name, or -1.
int slotIndex(QStringView fileName);
QStringList bootstrapOrder();

// Unicode White_Space, exactly the list of the contract (not U+FEFF, U+200B,
// U+180E or U+001C..U+001F).
constexpr bool isWhiteSpace(char32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680
           || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F
           || c == 0x205F || c == 0x3000;
}

} // namespace soul
