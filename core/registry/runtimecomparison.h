#pragma once

#include "result.h"
#include "runtime.h"
#include "snapshotfile.h"
#include "souldiff.h"

#include <QByteArray>
#include <QList>
#include <QString>

// A snapshot of what a runtime injects against what the same runtime, with
// the snapshot's settings, injects of a persona now: runtime text against
// runtime text, as pure functions the compare window and soulc share.
namespace soul {

struct TokenEncoding;

// The runtime `snapshot` names, as the registry has it; or a sentence naming
// the snapshot's file and the runtime's id, and what to do, when this build
// does not know that runtime.
Result<const Runtime *> snapshotRuntime(const RuntimeSnapshot &snapshot);

// What became of one file's part of the text.
struct RuntimeFileStatus
{
    QString name;
    SectionStatus status = SectionStatus::Absent;
    // The part was compared where it stands in both texts; false when either
    // side does not place it: it is then judged by its kept ranges and
    // truncation, and "changed" whenever the texts differ at all.
    bool placed = true;
};

// Each file either side injects, in the order of `live`'s files, then any
// other the snapshot names: added when only `live` injects it, removed when
// only the snapshot did, else unchanged or changed by its part of the text.
QList<RuntimeFileStatus> runtimeFileStatuses(const RuntimeSnapshot &snapshot,
                                             const RuntimeComposition &live);

struct RuntimeTextComparison
{
    StablePrefix prefix; // of the texts' UTF-8 bytes in the encoding's units
    QList<RuntimeFileStatus> files;
    // The file whose part of the live text holds its first changed character
    // (the snapshot's text for a change at the end of a shorter live text);
    // empty for identical texts, or a change outside any file's part.
    QString firstChangeFile;
};

RuntimeTextComparison compareRuntimeText(const RuntimeSnapshot &snapshot,
                                         const RuntimeComposition &live,
                                         const TokenEncoding &encoding);

// The unified diff of text `a` against `b` ("--- aLabel", "+++ bLabel",
// three lines of context); empty for identical texts.
QByteArray runtimeTextDiff(const QString &a,
                           const QString &aLabel,
                           const QString &b,
                           const QString &bLabel);

} // namespace soul
