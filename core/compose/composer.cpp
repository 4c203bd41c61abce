#include "composer.h"

#include "openclawreader.h"
#include "runtimeprofile.h"
#include "slotreader.h"
#include "utf8.h"

#include <algorithm>

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

} // namespace

BodyPieces bodyPieces(QByteArrayView raw, QByteArray &scratch)
{
    const bool truncated = isTruncated(raw);
    QByteArrayView text = truncated ? raw.first(CapBytes) : raw;
    if (!utf8::isValid(text)) {
        scratch = utf8::sanitize(text);
        text = scratch;
    }
    if (!truncated)
        return {utf8::trimmed(text), {}, false};
    // The notice ends in ']', so only the start can be trimmed, and only into
    // the notice when the text is all white space.
    const QByteArrayView head = utf8::trimmedStart(text);
    if (head.isEmpty())
        return {{}, utf8::trimmedStart(noticeView()), true};
    return {head, noticeView(), true};
}

qint64 bodyFirstLine(QByteArrayView raw)
{
    // White space is valid UTF-8, so what the trim removes is a prefix of the
    // valid part of the bytes the agent gets, and each '\n' in it is a line.
    // A growing window keeps this to the leading white space, not the file.
    const QByteArrayView text = isTruncated(raw) ? raw.first(CapBytes) : raw;
    QByteArrayView removed;
    for (qsizetype window = 256;; window *= 4) {
        const QByteArrayView head = text.first(qMin(window, text.size()));
        const QByteArrayView valid = head.first(utf8::validPrefixLength(head));
        const QByteArrayView rest = utf8::trimmedStart(valid);
        removed = valid.first(valid.size() - rest.size());
        // Done at the first other character, at the end, or at invalid bytes
        // (more than a character cut by the window's edge).
        if (!rest.isEmpty() || head.size() == text.size() || valid.size() + 3 < head.size())
            break;
    }
    return 1 + qint64(std::count(removed.begin(), removed.end(), '\n'));
}

bool appendBody(QByteArray &out, QByteArrayView raw)
{
    QByteArray scratch;
    const BodyPieces body = bodyPieces(raw, scratch);
    out.append(body.text);
    out.append(body.notice);
    return body.truncated;
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
    if (!result.found.isEmpty())
        result.soul.append(SectionJoin);
    const qsizetype start = result.soul.size();
    appendSectionHead(result.soul, slot);
    result.truncated[k] = appendBody(result.soul, raw);
    result.present[k] = true;
    result.found.append(slotName(slot));
    result.sectionOffset[k] = start;
    result.sectionLength[k] = result.soul.size() - start;
    result.bodyFirstLine[k] = bodyFirstLine(raw);
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

bool composeDirectoryTo(const QString &dir, const SoulWriter &write, QStringList *found)
{
    QByteArray head;
    QByteArray scratch;
    QByteArray buffer;
    bool first = true;
    for (int slot = 0; slot < SlotCount; ++slot) {
        SlotRead read = readSlot(dir, slot, ReadOptions(), std::move(buffer));
        if (read.presence == SlotPresence::Present) {
            head.clear();
            if (!first)
                head.append(SectionJoin);
            first = false;
            appendSectionHead(head, slot);
            const BodyPieces body = bodyPieces(read.bytes, scratch);
            if (!write(head) || (!body.text.isEmpty() && !write(body.text))
                || (!body.notice.isEmpty() && !write(body.notice))) {
                return false;
            }
            if (found)
                found->append(slotName(slot));
        }
        // Absent or not, the read hands the memory back for the next slot.
        buffer = std::move(read.bytes);
    }
    return true;
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

bool composeDirectoryTo(const QString &dir,
                        const SoulWriter &write,
                        const RuntimeProfile &profile,
                        QStringList *found)
{
    if (profile.runtime != Runtime::OpenClaw)
        return composeDirectoryTo(dir, write, found);
    const OpenClawComposition composition = composeOpenClaw(readOpenClawDirectory(dir),
                                                            profile.openClaw);
    if (found) {
        found->clear();
        for (const OpenClawFileFigures &figures : composition.files) {
            if (figures.injectedAny)
                found->append(figures.name);
        }
    }
    return write(composition.section.toUtf8());
}

} // namespace soul
