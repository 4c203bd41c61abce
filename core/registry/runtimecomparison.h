#pragma once

#include "diff/souldiff.h"
#include "persona/snapshotfile.h"
#include "result.h"
#include "runtime/runtime.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <vector>

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

// What `runtime` composed (`composition`, by `settings`) as a snapshot of
// its text would record it, labelled `label`, to be compared with one.
RuntimeSnapshot runtimeTextOf(const Runtime &runtime,
                              const RuntimeSettings &settings,
                              const RuntimeComposition &composition,
                              const QString &label);

// Each file either side injects, in b's order of files, then any other a
// names: added when only b injects it, removed when only a did, else
// unchanged or changed by its part of the text.
QList<RuntimeFileStatus> runtimeFileStatuses(const RuntimeSnapshot &a, const RuntimeSnapshot &b);

struct RuntimeTextComparison
{
    StablePrefix prefix; // of the texts' UTF-8 bytes in the encoding's units; b's totals
    QList<RuntimeFileStatus> files;
    // The file whose part of b's text holds its first changed character (of
    // a's text, when only a places one there); empty for identical texts, or
    // a change outside any file's part.
    QString firstChangeFile;
};

// Runtime text a (the older: a snapshot) against b. `aIds`, when given,
// holds a's ids in `encoding`, and is filled when empty: a comparison that
// lasts encodes its snapshot once.
RuntimeTextComparison compareRuntimeText(const RuntimeSnapshot &a,
                                         const RuntimeSnapshot &b,
                                         const TokenEncoding &encoding,
                                         std::vector<quint32> *aIds = nullptr);

// The unified diff of text `a` against `b` ("--- aLabel", "+++ bLabel",
// three lines of context); empty for identical texts.
QByteArray runtimeTextDiff(const QString &a,
                           const QString &aLabel,
                           const QString &b,
                           const QString &bLabel);

} // namespace soul
