// Invariants of compose() over seven byte buffers, for libFuzzer. The first
// byte says which slots are present; the rest is cut into seven buffers at
// positions taken from the next bytes.
#include "fuzzsupport.h"

#include "compose/composer.h"
#include "compose/utf8.h"

#include <cstdint>

using namespace soul;

namespace {

// The rule fuzzed: today's toolnexus rule.
const qint64 CapBytes = ComposeRule::toolnexus().capBytes;

quint32 fnv1a(const uint8_t *data, size_t size)
{
    quint32 hash = 2166136261u;
    for (size_t i = 0; i < size; ++i)
        hash = (hash ^ data[i]) * 16777619u;
    return hash;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 + SlotCount)
        return 0;
    const unsigned presentMask = data[0];
    const uint8_t *cuts = data + 1;
    const char *rest = reinterpret_cast<const char *>(data + 1 + SlotCount);
    const auto restSize = static_cast<qsizetype>(size - 1 - SlotCount);

    SlotBuffers buffers;
    qsizetype from = 0;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const qsizetype length = qMin<qsizetype>(restSize - from, cuts[slot]);
        if (presentMask & (1u << slot))
            buffers[static_cast<size_t>(slot)] = QByteArray(rest + from, length);
        from += length;
    }
    // The eighth bit stretches the last present buffer past the cap, so the
    // truncation path is fuzzed too. A 2 MiB input is slow, and the fuzzer
    // soon learns any plain byte test, so only inputs whose hash falls in one
    // of 64 buckets are stretched: the rest stay fast.
    if ((presentMask & 0x80u) && fnv1a(data, size) % 64 == 0) {
        for (int slot = SlotCount - 1; slot >= 0; --slot) {
            auto &buffer = buffers[static_cast<size_t>(slot)];
            if (!buffer)
                continue;
            const QByteArray unit = buffer->isEmpty() ? QByteArray("x") : *buffer;
            buffer = unit.repeated(CapBytes / unit.size() + 1);
            break;
        }
    }

    const Composition a = compose(buffers);
    const Composition b = compose(buffers);
    fuzz::require(a.soul == b.soul && a.found == b.found, "compose() is deterministic");
    fuzz::require(utf8::isValid(a.soul), "the soul is valid UTF-8");

    qsizetype bound = 0;
    int present = 0;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto k = static_cast<size_t>(slot);
        const auto &buffer = buffers[k];
        fuzz::require(a.present[k] == buffer.has_value(), "presence follows the buffers");
        if (!buffer) {
            fuzz::require(a.sectionOffset[k] == -1, "an absent slot has no section");
            continue;
        }
        ++present;
        // Header, at most three bytes per input byte kept, the notice.
        bound += 3 + slotName(slot).size() + 2 + 3 * qMin<qsizetype>(buffer->size(), CapBytes)
                 + TruncationNoticeBytes;
        const QByteArray section = a.soul.mid(a.sectionOffset[k], a.sectionLength[k]);
        fuzz::require(section.startsWith("## " + slotName(slot).toLatin1() + "\n\n"),
                      "a section starts with its header");
        fuzz::require(section == composeSection(slot, *buffer), "the section is composeSection()");
        fuzz::require(a.truncated[k] == (buffer->size() > CapBytes), "truncated iff over the cap");
        if (a.truncated[k])
            fuzz::require(section.endsWith("[truncated: exceeds 2 MB bootstrap cap]"),
                          "a truncated section ends with the notice");
    }
    bound += present > 0 ? 2 * (present - 1) : 0;
    fuzz::require(a.found.size() == present, "found lists every present slot");
    fuzz::require(a.soul.size() <= bound, "the soul stays within the bound the cap implies");
    fuzz::require(present > 0 || a.soul.isEmpty(), "no files, no soul");
    return 0;
}
