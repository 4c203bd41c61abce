#pragma once

#include "compose/composer.h"
#include "disk/composedirectory.h"
#include "disk/slotreader.h"
#include "encodingfacts.h"
#include "lint.h"
#include "result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <array>
#include <optional>

// Everything soulc stat, soulc check, the snapshot and the window's meters
// know about a persona: per-slot facts, the composition and the lints.
namespace soul {

struct SlotFacts
{
    int slot = -1;
    QString name;
    QString path;
    SlotPresence presence = SlotPresence::Missing;
    QString absenceReason; // see soul::absenceReason()
    bool isSymlink = false;
    qint64 size = -1; // bytes on disk, -1 when absent
    bool truncated = false;
    qint64 capBytes = 0;      // the cap of the rule these facts were taken under
    qint64 droppedBytes = 0;  // bytes past the cap the agent does not get
    QByteArray sha256;        // hex digest of the whole file, when computed
    EncodingFacts encoding;   // of the bytes the agent gets (the first capBytes)
    qsizetype characters = 0; // code points the agent gets, before trimming
    bool blank = false;       // present, but the body trims to nothing

    bool present() const { return presence == SlotPresence::Present; }
    // Share of the cap, 0.0 .. (above 1.0 when truncated).
    double capShare() const
    {
        return size < 0 || capBytes <= 0 ? 0.0 : double(size) / double(capBytes);
    }
};

// Facts of bytes in memory (an editor buffer, say) under `rule`; `size` is
// bytes.size().
SlotFacts factsOfBytes(int slot, QByteArrayView bytes, const ComposeRule &rule);

struct Inspection
{
    QString directory; // absolute
    ComposeRule rule;  // the rule the facts, the composition and the lints are of
    std::array<SlotFacts, SlotCount> slotFacts;
    Composition composition;
    QByteArray soulSha256; // hex
    QList<Lint> lints;     // per slot in order, then the directory's own
};

// What a caller already holds of a slot's file (an open window's model):
// the digest of the whole file and the bytes read with it, the whole file or
// at least its first rule.readLimit() bytes.
struct HeldRead
{
    QByteArray sha256; // hex
    qint64 size = -1;
    QByteArray bytes;
    bool complete = false;
};
using HeldReads = std::array<std::optional<HeldRead>, SlotCount>;

// Reads every slot once (keeping at most rule.readLimit() bytes of each,
// hashing the whole file when `digests` is set) and composes from the same
// bytes by `rule`, so the digests and the soul describe one moment. Fails,
// with a sentence, when `dir` does not exist, is not a directory or cannot be
// listed.
//
// A slot in `held` whose file still has the held digest (hashed again,
// streamed, nothing kept) takes the held bytes, shared, instead of keeping a
// second copy of them; any other slot is read as above. So an inspection
// beside an open window costs no more memory than the soul it composes.
Result<Inspection> inspectDirectory(const QString &dir,
                                    const ComposeRule &rule,
                                    bool digests,
                                    const HeldReads &held = {});

// The same from slot reads made elsewhere (a commit's slot files, read from
// git's objects): `reads` as readSlot() gives them, `entries` the names in
// the folder and `memoryFolder` whether its "memory" entry is a folder, for
// the lints about names beside the slots. `label` becomes the directory.
Inspection inspectReads(const QString &label,
                        const std::array<SlotRead, SlotCount> &reads,
                        const QStringList &entries,
                        bool memoryFolder,
                        const ComposeRule &rule);

// About 4 bytes a token for English prose; marked approximate wherever shown.
qint64 approximateTokens(qint64 soulBytes);

} // namespace soul
