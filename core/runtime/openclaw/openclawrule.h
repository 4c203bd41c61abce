#pragma once

#include "openclawsettings.h"
#include "runtime/keptrange.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

// What OpenClaw 2026.9 injects from a persona folder, as a pure function of
// the folder's entries (read by openclawreader.h from disk, or made from
// editor buffers), the folder's path and the two settings. The rule is
// docs/openclaw-2026.9.md; every count and cut is in UTF-16 code
// units, which is what QString counts.
namespace soul {

// AGENTS.md, SOUL.md, IDENTITY.md, USER.md, BOOTSTRAP.md, MEMORY.md.
QStringList openClawFileOrder();

// JavaScript's whitespace: not Unicode White_Space (U+FEFF is in, U+0085 out).
bool isJsWhiteSpace(char16_t c);
QStringView jsTrimmedEnd(QStringView text);
QStringView jsTrimmed(QStringView text);

// The first `n` units of `text`, one fewer when unit n-1 starts a surrogate
// pair that unit n ends; and the last `n`, one fewer in the mirror case.
QStringView safeHead(QStringView text, qsizetype n);
QStringView safeTail(QStringView text, qsizetype n);

// A file as OpenClaw sees it before the budgets.
struct OpenClawEntry
{
    enum class Kind { Content, Missing, Unreadable };

    QString name; // "SOUL.md"
    Kind kind = Kind::Content;
    QString text;   // decoded content, or the "[UNREADABLE: ...]" line
    QString reason; // why it is unreadable, as OpenClaw words it
};

// The entries OpenClaw takes part in order, and whether the first run is
// pending (BOOTSTRAP.md exists). `dir` is the folder's path as OpenClaw makes
// it (openClawDirectoryPath()); it only shows in headers and MISSING lines.
struct OpenClawInput
{
    QString dir;
    QList<OpenClawEntry> entries;
    bool bootstrapPending = false;
};

// How one file's text was cut to its limit: what the window shades and the
// lints put in numbers. Offsets are into the trim-ended text T.
struct OpenClawCut
{
    bool truncated = false;      // T was longer than the limit
    qsizetype length = 0;        // N, T's length
    qsizetype limit = 0;         // L
    qsizetype requestedHead = 0; // h as the marker states it
    qsizetype requestedTail = 0; // t as the marker states it
    KeptRange head;              // kept from the start (all of T when not cut)
    KeptRange tail;              // kept from the end; empty when none
    bool compactMarker = false;  // "[…truncated h+t/N]" instead of the two lines
    // AGENTS.md only: the lines whose text went into the policy digest (each a
    // whole line of T without its line break), the digest's length and how
    // many candidate lines it left out.
    QList<KeptRange> digestLines;
    qsizetype digestLength = 0;
    qsizetype digestEntries = 0; // candidates chosen (a prose line and its rule are one)
    qsizetype omittedPolicyLines = 0;
    QString text; // the injected text
};

// How AGENTS.md's limit L splits before fitting: head ⌊0.45·L⌋, tail
// ⌊0.15·L⌋ and digest budget ⌊0.35·L⌋, each product in double precision.
struct AgentsShares
{
    qsizetype head = 0;
    qsizetype tail = 0;
    qsizetype digest = 0;
};
AgentsShares openClawAgentsShares(qsizetype limit);

// Cuts `content` (the file's whole text) to limit `limit` as OpenClaw does
// for a file named `fileName`: untouched when its trim-ended text fits, else
// head and tail around a marker, or for AGENTS.md head, policy digest, tail.
OpenClawCut openClawTruncate(QStringView fileName, QStringView content, qsizetype limit);

// The figures of one entry (section 7 of the rule).
struct OpenClawFileFigures
{
    QString name;
    QString path;
    OpenClawEntry::Kind kind = OpenClawEntry::Kind::Content;
    qsizetype raw = 0;      // trim-ended length; 0 when missing
    qsizetype injected = 0; // before the prompt-text clean-up; 0 when not injected
    qsizetype limit = 0;    // the file's own limit B
    bool truncated = false; // not missing and injected < raw
    bool injectedAny = false;
    bool nearLimit = false;       // raw >= 85% of the limit
    bool budgetExhausted = false; // not injected because the total ran out
    OpenClawCut cut;              // empty unless the file reached the truncation step
    QString promptText; // its text as the section holds it (under its header); empty if none
};

struct OpenClawComposition
{
    QString section; // the workspace-files section, exactly
    QList<OpenClawFileFigures> files;
    bool notice = false;           // the truncation notice block is in the section
    bool bootstrapPending = false; // the Bootstrap Pending block is
    qsizetype totalInjected = 0;   // over files that are not missing
    qsizetype totalLimit = 0;
    bool totalNearLimit = false;
};

OpenClawComposition composeOpenClaw(const OpenClawInput &input,
                                    const OpenClawSettings &settings = {});

// What OpenClaw keeps of one file, for shading it in its pane. Ranges are in
// the file's decoded text (utf8::decode of its bytes: BOM and CRs included),
// so a pane that keeps the BOM or CR LF aside maps them through its codec.
struct OpenClawKept
{
    bool loaded = false;          // the runtime reads this name at all
    bool entry = false;           // it took part (listed, existing)
    bool whole = false;           // injected untouched (up to trailing whitespace)
    bool droppedByTotal = false;  // the total ran out before it: nothing kept
    QList<KeptRange> kept;        // head, then tail when cut
    KeptRange dropped;            // the middle that is not injected; empty if none
    QList<KeptRange> digestLines; // AGENTS.md lines restated in the digest
};
OpenClawKept openClawKept(const OpenClawComposition &composition, QStringView fileName);

// The text a file shows in the prompt, from its injected text: entries
// annotated for a project dropped (USER.md and MEMORY.md), the default
// heartbeat block cut out, runs of three or more LFs made two.
QString openClawPromptText(QStringView fileName, QStringView injected);

} // namespace soul
