#include "toolnexusruntime.h"

#include "compose/composer.h"
#include "disk/slotreader.h"
#include "persona/inspection.h"
#include "toolnexusreport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <utility>

namespace soul {

namespace {

// Facts and lints of each slot from the same bytes the soul is made of: the
// buffer that stands for a file, else the file.
Result<Inspection> inspectWithBuffers(const RuntimeInput &input, const ComposeRule &rule)
{
    std::array<SlotRead, SlotCount> reads;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto buffer = input.buffers.constFind(slotName(slot));
        SlotRead &read = reads.at(size_t(slot));
        if (buffer == input.buffers.cend()) {
            if (input.buffersOnly) {
                read.slot = slot;
                read.path = slotPath(input.dir, slot);
            } else {
                read = readSlot(input.dir, slot, rule.readLimit());
            }
            continue;
        }
        read.slot = slot;
        read.path = slotPath(input.dir, slot);
        read.presence = SlotPresence::Present;
        read.size = buffer->size();
        read.bytes = *buffer;
        read.complete = true;
    }
    const QDir dir(input.dir);
    const QStringList entries = input.buffersOnly
                                    ? QStringList(input.buffers.keys())
                                    : dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                    | QDir::NoDotAndDotDot);
    const bool memoryFolder = !input.buffersOnly
                              && QFileInfo(dir.filePath(QStringLiteral("memory"))).isDir();
    return inspectReads(dir.absolutePath(), reads, entries, memoryFolder, rule);
}

} // namespace

ToolnexusRuntime::ToolnexusRuntime(ComposeRule rule)
    : m_rule(std::move(rule))
{}

QString ToolnexusRuntime::id() const
{
    return QStringLiteral("toolnexus");
}

QString ToolnexusRuntime::description() const
{
    return QStringLiteral("the %1 byte-cap rule").arg(m_rule.capText());
}

Result<QByteArray> ToolnexusRuntime::revisionReport(const Inspection &inspection,
                                                    const SoulTokenCounts &tokens,
                                                    const QString &rev,
                                                    const QString &shortId,
                                                    const QByteArray &commitId,
                                                    bool json) const
{
    const RevisionFacts facts{rev, shortId, commitId};
    return json ? toolnexusStatJson(inspection, tokens, &facts)
                : toolnexusStatText(inspection, tokens, &facts);
}

QString ToolnexusRuntime::displayName() const
{
    return QStringLiteral("toolnexus");
}

QStringList ToolnexusRuntime::files() const
{
    return m_rule.fileNames();
}

QStringList ToolnexusRuntime::neverRead() const
{
    QStringList names;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (!m_rule.composes(slot))
            names.append(slotName(slot));
    }
    return names;
}

qint64 ToolnexusRuntime::fileBudget(QStringView, const RuntimeSettings &) const
{
    return m_rule.capBytes;
}

Result<RuntimeComposition> ToolnexusRuntime::compose(const RuntimeInput &input,
                                                     const RuntimeSettings &) const
{
    if (const QString problem = checkDirectory(input.dir); !problem.isEmpty())
        return Result<RuntimeComposition>::failure(problem);
    Result<Inspection> inspected = input.buffers.isEmpty() && !input.buffersOnly
                                       ? inspectDirectory(input.dir, m_rule, false)
                                       : inspectWithBuffers(input, m_rule);
    if (!inspected)
        return Result<RuntimeComposition>::failure(inspected.error());
    const Inspection &inspection = *inspected;
    RuntimeComposition out;
    out.text = QString::fromUtf8(inspection.composition.soul);
    out.found = inspection.composition.found;
    out.lints = inspection.lints;
    QJsonArray manifestFiles;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotFacts &facts = inspection.slotFacts.at(size_t(slot));
        RuntimeFileView view;
        view.name = facts.name;
        view.loaded = m_rule.composes(slot);
        view.present = facts.present();
        view.used = facts.present() ? facts.size : -1;
        view.budget = m_rule.capBytes;
        view.injected = view.loaded && inspection.composition.present.at(size_t(slot));
        view.whole = view.injected && !facts.truncated;
        view.truncated = facts.present() && facts.truncated;
        out.problems = out.problems || (facts.present() && facts.truncated);
        if (view.injected) {
            view.injectedText = QString::fromUtf8(
                inspection.composition.soul
                    .mid(inspection.composition.sectionOffset.at(size_t(slot)),
                         inspection.composition.sectionLength.at(size_t(slot))));
            manifestFiles.append(QJsonObject{
                {QStringLiteral("name"), facts.name},
                {QStringLiteral("bytes"), facts.size},
                {QStringLiteral("truncated"), facts.truncated},
                {QStringLiteral("kept"),
                 QJsonArray{QJsonArray{0, facts.truncated ? m_rule.capBytes : facts.size}}},
            });
        }
        out.files.append(view);
    }
    out.manifest = QJsonObject{
        {QStringLiteral("runtime"), id()},
        {QStringLiteral("runtimeName"), displayName()},
        {QStringLiteral("settings"), QJsonObject{{QStringLiteral("capBytes"), m_rule.capBytes}}},
        {QStringLiteral("files"), manifestFiles},
    };
    return out;
}

Result<QByteArray> ToolnexusRuntime::statReport(const RuntimeInput &input,
                                                const RuntimeSettings &,
                                                const Tokenizer &tokenizer,
                                                bool json) const
{
    const Result<Inspection> inspection = inspectDirectory(input.dir, m_rule, true);
    if (!inspection)
        return Result<QByteArray>::failure(inspection.error());
    const SoulTokenCounts tokens = countSoulTokens(inspection->composition, tokenizer);
    return json ? toolnexusStatJson(*inspection, tokens) : toolnexusStatText(*inspection, tokens);
}

} // namespace soul
