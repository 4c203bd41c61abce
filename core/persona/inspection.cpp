#include "inspection.h"

#include "compose/utf8.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

namespace soul {

namespace {

qsizetype countCodePoints(QByteArrayView bytes)
{
    // Every byte that is not a continuation byte starts a character (or, in
    // invalid input, a replacement character: close enough for a lint).
    qsizetype n = 0;
    for (const char c : bytes)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

void fillContentFacts(SlotFacts &facts, QByteArrayView bytes, const ComposeRule &rule)
{
    facts.capBytes = rule.capBytes;
    facts.truncated = rule.truncates(bytes) || facts.size > rule.capBytes;
    facts.droppedBytes = facts.truncated ? facts.size - rule.capBytes : 0;
    const QByteArrayView seen = bytes.first(qMin<qsizetype>(bytes.size(), rule.capBytes));
    facts.encoding = scanEncoding(seen);
    facts.characters = countCodePoints(seen);
    if (!facts.truncated) {
        const QByteArray valid = utf8::sanitize(seen);
        facts.blank = utf8::trimmed(valid).isEmpty();
    }
}

SlotFacts factsOfRead(const SlotRead &read, const ComposeRule &rule)
{
    SlotFacts facts;
    facts.slot = read.slot;
    facts.name = slotName(read.slot);
    facts.path = read.path;
    facts.presence = read.presence;
    facts.absenceReason = absenceReason(read);
    facts.isSymlink = read.isSymlink;
    if (read.presence != SlotPresence::Present)
        return facts;
    facts.size = read.size;
    facts.sha256 = read.sha256;
    fillContentFacts(facts, read.bytes, rule);
    return facts;
}

// The slot as readSlot() with `options` would give it, with the held bytes
// when the file is still the one they were read from.
SlotRead readOrTakeHeld(const QString &dir,
                        int slot,
                        const ReadOptions &options,
                        const std::optional<HeldRead> &held)
{
    if (!held || held->sha256.isEmpty() || held->size < 0
        || (!held->complete && held->bytes.size() < options.limit)) {
        return readSlot(dir, slot, options);
    }
    ReadOptions digestOnly(0);
    digestOnly.sha256 = true;
    SlotRead read = readSlot(dir, slot, digestOnly);
    if (read.presence != SlotPresence::Present || read.size != held->size
        || read.sha256 != held->sha256) {
        return readSlot(dir, slot, options);
    }
    read.bytes = held->bytes;
    read.complete = held->complete;
    if (!options.sha256)
        read.sha256.clear();
    return read;
}

} // namespace

SlotFacts factsOfBytes(int slot, QByteArrayView bytes, const ComposeRule &rule)
{
    SlotFacts facts;
    facts.slot = slot;
    facts.name = slotName(slot);
    facts.presence = SlotPresence::Present;
    facts.size = bytes.size();
    fillContentFacts(facts, bytes, rule);
    return facts;
}

Result<Inspection> inspectDirectory(const QString &dir,
                                    const ComposeRule &rule,
                                    bool digests,
                                    const HeldReads &held)
{
    const QString problem = checkDirectory(dir);
    if (!problem.isEmpty())
        return Result<Inspection>::failure(problem);

    ReadOptions options(rule.readLimit());
    options.sha256 = digests;
    std::array<SlotRead, SlotCount> reads;
    for (int slot = 0; slot < SlotCount; ++slot)
        reads[size_t(slot)] = readOrTakeHeld(dir, slot, options, held[size_t(slot)]);
    const QDir directory(dir);
    return inspectReads(QFileInfo(dir).absoluteFilePath(),
                        reads,
                        directory.entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                | QDir::NoDotAndDotDot,
                                            QDir::Name),
                        QFileInfo(directory.filePath(QStringLiteral("memory"))).isDir(),
                        rule);
}

Inspection inspectReads(const QString &label,
                        const std::array<SlotRead, SlotCount> &reads,
                        const QStringList &entries,
                        bool memoryFolder,
                        const ComposeRule &rule)
{
    Inspection inspection;
    inspection.directory = label;
    inspection.rule = rule;
    SlotBuffers buffers;
    QList<bool> present;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotRead &read = reads[size_t(slot)];
        inspection.slotFacts[size_t(slot)] = factsOfRead(read, rule);
        present.append(read.presence == SlotPresence::Present);
        if (read.presence == SlotPresence::Present)
            buffers[size_t(slot)] = read.bytes;
    }
    inspection.composition = compose(buffers, rule);
    inspection.soulSha256
        = QCryptographicHash::hash(inspection.composition.soul, QCryptographicHash::Sha256).toHex();
    for (const SlotFacts &facts : inspection.slotFacts)
        inspection.lints.append(lintSlot(facts, rule));
    inspection.lints.append(lintDirectoryEntries(entries, memoryFolder, present));
    return inspection;
}

qint64 approximateTokens(qint64 soulBytes)
{
    return (soulBytes + 3) / 4;
}

} // namespace soul
