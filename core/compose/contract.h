#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <array>

// The compose contract (docs/compose-rule.md): the persona folder's seven
// slots and the texts of the toolnexus rule. The rule itself, with its cap and
// order, is a value: ComposeRule (composerule.h). Nothing here does I/O.
namespace soul {

inline constexpr int SlotCount = 7;

// The seven files of the persona folder's convention, which every runtime
// reads from (each its own subset, in its own order): a fixed array, since the
// editor has one pane per file whatever rule composes them. A rule's order
// (ComposeRule::order) lists these slots.
inline constexpr std::array<const char *, SlotCount> BootstrapOrder = {
    "AGENTS.md",
    "SOUL.md",
    "IDENTITY.md",
    "USER.md",
    "TOOLS.md",
    "HEARTBEAT.md",
    "MEMORY.md",
};

// The texts of the toolnexus rule, as ComposeRule::toolnexus() takes them:
// the program reads them through the rule (the composer, the section map,
// the diff, the token counter); the tests write them out to check it.
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
