#include "composer.h"

#include "utf8.h"

#include <algorithm>

namespace soul {

void appendSectionHead(QByteArray &out, int slot, const ComposeRule &rule)
{
    out.append(rule.sectionPrefix);
    out.append(BootstrapOrder[static_cast<size_t>(slot)]);
    out.append(rule.sectionHeadEnd);
}

BodyPieces bodyPieces(QByteArrayView raw, QByteArray &scratch, const ComposeRule &rule)
{
    const bool truncated = rule.truncates(raw);
    QByteArrayView text = truncated ? raw.first(rule.capBytes) : raw;
    if (!utf8::isValid(text)) {
        scratch = utf8::sanitize(text);
        text = scratch;
    }
    if (!truncated)
        return {utf8::trimmed(text), {}, false};
    // The notice is appended before the trim, so the end of text + notice is
    // the notice's own end: trimmed as the notice alone. The start is the
    // text's, or the notice's when the text is all white space.
    const QByteArrayView notice = utf8::trimmedEnd(rule.notice);
    const QByteArrayView head = utf8::trimmedStart(text);
    if (head.isEmpty())
        return {{}, utf8::trimmed(rule.notice), true};
    if (notice.isEmpty())
        return {utf8::trimmedEnd(head), {}, true};
    return {head, notice, true};
}

qint64 bodyFirstLine(QByteArrayView raw, const ComposeRule &rule)
{
    // White space is valid UTF-8, so what the trim removes is a prefix of the
    // valid part of the bytes the agent gets, and each '\n' in it is a line.
    // A growing window keeps this to the leading white space, not the file.
    const QByteArrayView text = rule.truncates(raw) ? raw.first(rule.capBytes) : raw;
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

bool appendBody(QByteArray &out, QByteArrayView raw, const ComposeRule &rule)
{
    QByteArray scratch;
    const BodyPieces body = bodyPieces(raw, scratch, rule);
    out.append(body.text);
    out.append(body.notice);
    return body.truncated;
}

QByteArray composeBody(QByteArrayView raw, bool *truncated, const ComposeRule &rule)
{
    QByteArray out;
    const bool cut = appendBody(out, raw, rule);
    if (truncated)
        *truncated = cut;
    return out;
}

QByteArray composeSection(int slot, QByteArrayView raw, bool *truncated, const ComposeRule &rule)
{
    QByteArray out;
    out.reserve(qMin<qsizetype>(raw.size(), rule.capBytes) + 64);
    appendSectionHead(out, slot, rule);
    const bool cut = appendBody(out, raw, rule);
    if (truncated)
        *truncated = cut;
    return out;
}

void appendSection(Composition &result, int slot, QByteArrayView raw, const ComposeRule &rule)
{
    const auto k = static_cast<size_t>(slot);
    if (!result.found.isEmpty())
        result.soul.append(rule.sectionJoin);
    const qsizetype start = result.soul.size();
    appendSectionHead(result.soul, slot, rule);
    result.truncated[k] = appendBody(result.soul, raw, rule);
    result.present[k] = true;
    result.found.append(slotName(slot));
    result.sectionOffset[k] = start;
    result.sectionLength[k] = result.soul.size() - start;
    result.bodyFirstLine[k] = bodyFirstLine(raw, rule);
}

Composition compose(const SlotBuffers &buffers, const ComposeRule &rule)
{
    Composition result;
    qsizetype total = 0;
    for (const int slot : rule.order) {
        if (const auto &buffer = buffers[static_cast<size_t>(slot)])
            total += qMin<qsizetype>(buffer->size(), rule.capBytes) + 64;
    }
    result.soul.reserve(total);
    for (const int slot : rule.order) {
        if (const auto &buffer = buffers[static_cast<size_t>(slot)])
            appendSection(result, slot, *buffer, rule);
    }
    return result;
}

} // namespace soul
