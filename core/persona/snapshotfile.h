#pragma once

#include "result.h"
#include "sectionedsoul.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

// Reading a frozen snapshot back: the soul file and the manifest beside it.
namespace soul {

struct LoadedSnapshot
{
    QString soulPath;
    QString manifestPath;
    int schema = 1;                    // 1 for manifests written before "schema"
    bool sectionsFromManifest = false; // else recovered from the "## NAME" heads
    QStringList found;
    QByteArray soulSha256; // hex, as the manifest records it and the file has it
    SectionedSoul soul;    // labelled with `soulPath`
};

// Reads `soulPath` and `soulPath`.manifest.json, and checks the soul's bytes
// against the manifest's size and SHA-256. Fails with a sentence naming the
// file: no manifest, a manifest that is not one, a soul that does not match
// it (changed after export), sections the soul does not hold. A manifest of
// schema 1 has no section offsets; they are recovered from the soul. Nor does
// it say on which line of its file each body starts: line 1 is assumed, so a
// first change in a file that began with blank lines is placed that many
// lines early.
Result<LoadedSnapshot> loadSnapshot(const QString &soulPath);

// What a comparison takes as one side: a persona folder, composed now, or a
// soul written by export with its manifest beside it (loadSnapshot()).
// Labelled with `path` as given.
Result<SectionedSoul> loadComparableSoul(const QString &path);

} // namespace soul
