// Reading a frozen snapshot back (a soul and the manifest beside it), for
// libFuzzer. The input is the manifest, a NUL, then the soul; "@SHA@" in the
// manifest stands for the soul's SHA-256, so inputs get past the digest check
// to the sections. Both loaders must agree: the same sentence, or the same
// facts and sections. A snapshot that loads must give its soul back byte for
// byte when its sections are joined again (what a comparison of it sees).
#include "fuzzsupport.h"

#include "diff/liveprefix.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"

#include <QCryptographicHash>

#include <cstdint>

using namespace soul;

namespace {

const QString &soulPath()
{
    static const QString path = fuzz::scratchDir() + QStringLiteral("/soul.md");
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype nul = input.indexOf('\0');
    QByteArray manifest = nul < 0 ? input : input.left(nul);
    const QByteArray soul = nul < 0 ? QByteArray() : input.mid(nul + 1);
    manifest.replace("@SHA@", QCryptographicHash::hash(soul, QCryptographicHash::Sha256).toHex());
    fuzz::require(fuzz::writeFile(soulPath(), soul)
                      && fuzz::writeFile(manifestPathFor(soulPath()), manifest),
                  "the scratch files are written");

    const Result<LoadedSnapshot> whole = loadSnapshot(soulPath());
    const Result<SnapshotSections> cut = loadSnapshotSections(soulPath());
    fuzz::require(whole.ok() == cut.ok(), "both loaders load, or both refuse");
    if (!whole) {
        fuzz::require(whole.error() == cut.error(), "both loaders refuse with the same sentence");
        fuzz::require(whole.error().contains(soulPath()), "a refusal names the file");
        return 0;
    }
    fuzz::require(whole->soul.soul == soul, "the whole loader holds the soul as it is");
    fuzz::require(cut->soulPath == whole->soulPath && cut->manifestPath == whole->manifestPath
                      && cut->schema == whole->schema
                      && cut->sectionsFromManifest == whole->sectionsFromManifest
                      && cut->found == whole->found && cut->soulSha256 == whole->soulSha256,
                  "both loaders find the same facts");
    for (int slot = 0; slot < SlotCount; ++slot) {
        const auto k = size_t(slot);
        const std::optional<QByteArray> &section = cut->sections.section[k];
        fuzz::require(section.has_value() == whole->soul.present(slot),
                      "both loaders find the same sections");
        if (section)
            fuzz::require(*section == whole->soul.section(slot), "both read a section alike");
        fuzz::require(cut->sections.truncated[k] == whole->soul.truncated[k]
                          && cut->sections.bodyFirstLine[k] == whole->soul.bodyFirstLine[k],
                      "both loaders find the same section facts");
    }
    const SectionedSoul joined = joinSections(cut->sections, soulPath());
    fuzz::require(joined.soul == soul, "the sections joined again are the soul");
    fuzz::require(joined.sectionOffset == whole->soul.sectionOffset
                      && joined.sectionLength == whole->soul.sectionLength,
                  "joined, each section is where the soul has it");

    // Loading again with the sections already held shares those arrays and
    // changes nothing.
    KnownSections known;
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (cut->sections.section[size_t(slot)])
            known[size_t(slot)].append(*cut->sections.section[size_t(slot)]);
    }
    const Result<SnapshotSections> again = loadSnapshotSections(soulPath(), known);
    fuzz::require(again.ok(), "a snapshot that loaded loads again");
    for (int slot = 0; slot < SlotCount; ++slot)
        fuzz::require(again->sections.section[size_t(slot)] == cut->sections.section[size_t(slot)],
                      "known sections change nothing");
    return 0;
}
