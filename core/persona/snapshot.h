#pragma once

#include "inspection.h"
#include "result.h"
#include "runtime/runtime.h"
#include "runtime/runtimeskills.h"
#include "tokens/soultokens.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// The frozen snapshot: the soul as composed at one moment, and a manifest of
// what shaped it.
namespace soul {

inline constexpr char ManifestFormat[] = "soul-snapshot";
inline constexpr int ManifestVersion = 1;
// 2: each file's section in the soul ("section": offset, bytes, bodyLine).
// 3: a runtime's snapshot records the skills list of the same prompt
// ("skills": sha256, chars, tokens, encoding, names, text).
// A manifest without "schema" is of schema 1.
inline constexpr int ManifestSchema = 3;

// The skills list a snapshot of a runtime's text records (a runtime that
// lists skills, Runtime::listsSkills()): the list's exact text, which the
// manifest holds (a third file beside the soul would need a third rename
// to keep in step), and the names it lists, in its order.
struct SnapshotSkills
{
    QString text; // SkillsList::prompt; empty when no skill is listed
    QStringList names;
    qint64 tokens = 0; // of `text`, with the snapshot's encoding
};

struct Snapshot
{
    Inspection inspection;
    QDateTime createdAt; // UTC
    SoulTokenCounts tokens;

    // A runtime whose text is not the rule's sections (OpenClaw, Hermes): its
    // text, its part of the manifest (Runtime::compose()), the files it
    // injected and the text's tokens. Empty for the rule's soul.
    QByteArray runtimeText;
    QJsonObject runtimePart;
    QStringList runtimeFound;
    // The same prompt's skills list, for a runtime that lists skills.
    std::optional<SnapshotSkills> skills;

    bool ofRuntime() const { return !runtimePart.isEmpty(); }
    const QByteArray &soul() const
    {
        return ofRuntime() ? runtimeText : inspection.composition.soul;
    }
    QJsonObject manifest() const;
};

// Token counts with `tokenizer`, or o200k_base when it is null.
Result<Snapshot> takeSnapshot(const QString &dir, const Tokenizer *tokenizer = nullptr);
// The same by `rule` (the one above is toolnexus's); the manifest records the
// rule's cap and order. Files still as `held` has them are not read again
// (inspectDirectory()).
Result<Snapshot> takeSnapshot(const QString &dir,
                              const ComposeRule &rule,
                              const Tokenizer *tokenizer = nullptr,
                              const HeldReads &held = {});

// What `runtime` injects from `input` by `settings`, frozen: its text, and a
// manifest that names the runtime, its settings and what it kept of each
// file. Token counts with `tokenizer`, or o200k_base when it is null. A
// runtime that lists skills records its skills list too, read by
// `skillsRequest` (its input is `input`), or when null by the runtime's
// own config and this process's environment; a list that cannot be read
// fails the snapshot with the runtime's sentence.
Result<Snapshot> takeRuntimeSnapshot(const RuntimeInput &input,
                                     const Runtime &runtime,
                                     const RuntimeSettings &settings,
                                     const Tokenizer *tokenizer = nullptr,
                                     const SkillsRequest *skillsRequest = nullptr);

// The request Freeze and export read a skills list by when none is given:
// `input`, the runtime's own config, this process's environment, working
// folder and home.
SkillsRequest defaultSkillsRequest(const RuntimeInput &input);

// The hex SHA-256 of `text`'s UTF-8, as a manifest records a skills list's.
QString skillsSha256(const QString &text);

// "OUT" -> "OUT.manifest.json"
QString manifestPathFor(const QString &soulPath);

// Writes the soul to `soulPath` and the manifest beside it, each atomically.
// Without `overwrite`, refuses when either exists, up to the moment of each
// rename (Overwrite::Never). Fails with a sentence naming the file; the two
// files are then both as they were (a soul written before the manifest
// failed is put back, or removed when it is new), unless putting it back
// failed too: the sentence then says the soul file holds the new soul. A
// success can carry a warning (writeWarningText()).
Status writeSnapshot(const Snapshot &snapshot, const QString &soulPath, bool overwrite);

} // namespace soul
