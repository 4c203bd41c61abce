#pragma once

#include "diff/liveprefix.h"
#include "diff/sectionedsoul.h"
#include "result.h"
#include "runtime/keptrange.h"
#include "runtime/runtime.h"
#include "snapshot.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>

// Reading a frozen snapshot back: the soul file and the manifest beside it.
namespace soul {

// What loading a snapshot found out besides its sections.
struct SnapshotFacts
{
    QString soulPath;
    QString manifestPath;
    int schema = 1;                    // 1 for manifests written before "schema"
    bool sectionsFromManifest = false; // else recovered from the "## NAME" heads
    QStringList found;
    QByteArray soulSha256; // hex, as the manifest records it and the file has it
};

struct LoadedSnapshot : SnapshotFacts
{
    SectionedSoul soul; // labelled with `soulPath`
};

// Reads `soulPath` and `soulPath`.manifest.json, and checks the soul's bytes
// against the manifest's size and SHA-256. Fails with a sentence naming the
// file: no manifest, a manifest that is not one, a soul that does not match
// it (changed after export), sections the soul does not hold, or that do not
// lie end to end as compose() joins them (joined again, they would not be
// the file). A manifest of schema 1 has no section offsets; they are
// recovered from the soul. A snapshot of another runtime's text is refused
// (loadRuntimeSnapshot() reads it). Nor does it say on which line of its file each
// body starts: line 1 is assumed, so a first change in a file that began with
// blank lines is placed that many lines early.
Result<LoadedSnapshot> loadSnapshot(const QString &soulPath);

// A snapshot as one array per section, for a comparison that lasts: the
// sections equal to the model's share its arrays, so only the sections that
// differ cost memory while it is open.
struct SnapshotSections : SnapshotFacts
{
    LiveSections sections;
};

// Per slot, arrays the caller already holds (the model's sections of each
// view); a section read equal to one of them is that array.
using KnownSections = std::array<QList<QByteArray>, SlotCount>;

// The checks and sentences of loadSnapshot(), with the soul read in one pass
// when the manifest records where its sections are (schema 2): each section
// is read into an array of its own and every byte, the joins too, goes
// through the SHA-256; the bytes between sections are not kept. While it
// loads, it holds one section besides those that differ from `known`; on a
// failure it keeps nothing.
Result<SnapshotSections> loadSnapshotSections(const QString &soulPath,
                                              const KnownSections &known = {});

// One file as a snapshot of a runtime's text records it.
struct RuntimeSnapshotFile
{
    QString name;
    bool injected = false; // text of its own is in the snapshot's text
    bool truncated = false;
    QList<KeptRange> kept; // what the runtime kept of the file's text
    // Where its part stands in the snapshot's text (UTF-16 units); `placed`
    // false when the manifest does not say (the runtime did not place it).
    bool placed = false;
    KeptRange inText;
};

// A snapshot of what a runtime injects (Freeze or Export with a runtime
// chosen): its text, and the runtime, settings and files its manifest
// records.
struct RuntimeSnapshot : SnapshotFacts
{
    QString runtimeId;   // as Runtime::id() gives it
    QString runtimeName; // as Runtime::displayName() gave it
    RuntimeSettings settings;
    QString text;
    QList<RuntimeSnapshotFile> files;
    // The skills list of the same prompt, when the manifest records one
    // (schema 3, a runtime that lists skills), checked against its SHA-256;
    // or, for a folder composed now, the list read for it.
    std::optional<SnapshotSkills> skills;
};

// The id of the runtime whose text the snapshot at `soulPath` holds, empty
// for a toolnexus soul; fails with loadSnapshot()'s sentences for a
// missing or broken manifest. Reads the manifest only.
Result<QString> snapshotRuntimeId(const QString &soulPath);

// Reads a snapshot of a runtime's text, checked against its manifest's size
// and SHA-256, and its skills list when the manifest records one, against
// the list's SHA-256. Fails with a sentence naming the file, as
// loadSnapshot(), or for a toolnexus soul (loadSnapshot() reads those).
Result<RuntimeSnapshot> loadRuntimeSnapshot(const QString &soulPath);

// What a comparison takes as one side: a persona folder, composed now, or a
// soul written by export with its manifest beside it (loadSnapshot()).
// Labelled with `path` as given.
Result<SectionedSoul> loadComparableSoul(const QString &path);

} // namespace soul
