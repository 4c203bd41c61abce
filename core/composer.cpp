#include "composer.h"

#include "slotreader.h"
#include "utf8.h"

namespace soul {

namespace {

constexpr QByteArrayView noticeView()
{
    return QByteArrayView(TruncationNotice, TruncationNoticeBytes);
}

void appendSectionHead(QByteArray &out, int slot)
{
    out.append(SectionPrefix);
    out.append(BootstrapOrder[static_cast<size_t>(slot)]);
    out.append(SectionHeadEnd);
}

// Appends `text` + notice, trimmed. The notice ends in ']', so only the start
// can be trimmed, and only into the notice when `text` is all white space.
void appendTruncated(QByteArray &out, QByteArrayView validText)
{
    const QByteArrayView head = utf8::trimmedStart(validText);
    if (head.isEmpty()) {
        out.append(utf8::trimmedStart(noticeView()));
        return;
    }
    out.append(head);
    out.append(noticeView());
}

} // namespace

bool appendBody(QByteArray &out, QByteArrayView raw)
{
    const bool truncated = isTruncated(raw);
    const QByteArrayView cut = truncated ? raw.first(CapBytes) : raw;
    if (utf8::isValid(cut)) {
        if (truncated)
            appendTruncated(out, cut);
        else
            out.append(utf8::trimmed(cut));
        return truncated;
    }
    const QByteArray text = utf8::sanitize(cut);
    if (truncated)
        appendTruncated(out, text);
    else
        out.append(utf8::trimmed(text));
    return truncated;
}

QByteArray composeBody(QByteArrayView raw, bool *truncated)
{
    QByteArray out;
    const bool cut = appendBody(out, raw);
    if (truncated)
        *truncated = cut;
    return out;
}

QByteArray composeSection(int slot, QByteArrayView raw, bool *truncated)
{
    QByteArray out;
    out.reserve(qMin<qsizetype>(raw.size(), CapBytes) + 64);
    appendSectionHead(out, slot);
    const bool cut = appendBody(out, raw);
    if (truncated)
        *truncated = cut;
    return out;
}

namespace {

// Appends slot `slot`'s section to `result`, with the join before it when
// something came before.
void appendSlot(Composition &result, int slot, QByteArrayView raw)
{
    const auto k = static_cast<size_t>(slot);
    if (!result.soul.isEmpty() || !result.found.isEmpty())
        result.soul.append(SectionJoin);
    const qsizetype start = result.soul.size();
    appendSectionHead(result.soul, slot);
    result.truncated[k] = appendBody(result.soul, raw);
    result.present[k] = true;
    result.found.append(slotName(slot));
    result.sectionOffset[k] = start;
    result.sectionLength[k] = result.soul.size() - start;
}

} // namespace

Composition compose(const SlotBuffers &buffers)
{
    Composition result;
    qsizetype total = 0;
    for (const auto &buffer : buffers) {
        if (buffer)
            total += qMin<qsizetype>(buffer->size(), CapBytes) + 64;
    }
    result.soul.reserve(total);
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto &buffer = buffers[static_cast<size_t>(slot)];
        if (buffer)
            appendSlot(result, slot, *buffer);
    }
    return result;
}

Composition composeDirectory(const QString &dir)
{
    Composition result;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotRead read = readSlot(dir, slot, CapBytes + 1);
        if (read.presence == SlotPresence::Present)
            appendSlot(result, slot, read.bytes);
    }
    return result;
}

} // namespace soul
