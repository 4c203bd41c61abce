#pragma once

#include "compose/contract.h"
#include "sectionedsoul.h"
#include "tokenencoder.h"

#include <QByteArray>
#include <QString>

#include <array>
#include <optional>

// Comparing two souls: per section, as a unified diff, and by the prefix a
// provider's prompt cache can reuse. `a` is the old soul, `b` the new one.
namespace soul {

enum class SectionStatus {
    Absent,    // in neither soul
    Unchanged, // the same section in both
    Changed,   // in both, different
    Added,     // only in b
    Removed,   // only in a
};

QString sectionStatusName(SectionStatus status); // "unchanged", ...

std::array<SectionStatus, SlotCount> compareSections(const SectionedSoul &a, const SectionedSoul &b);

// The longest common prefix of the two souls in ids of one encoding and in
// bytes. `totalTokens` and `totalBytes` are b's.
struct StablePrefix
{
    qint64 tokens = 0;
    qint64 totalTokens = 0;
    qint64 bytes = 0;
    qint64 totalBytes = 0;
    bool identical = false;
    // Whole percent of b's ids in the prefix, rounded down so that only
    // identical souls show 100.
    int percent() const;
};

qsizetype commonPrefixLength(QByteArrayView a, QByteArrayView b);
qsizetype commonPrefixLength(const std::vector<quint32> &a, const std::vector<quint32> &b);
// How many bytes `a` and `b` share at their ends, at most `limit`.
qsizetype commonSuffixLength(QByteArrayView a, QByteArrayView b, qsizetype limit);

StablePrefix stablePrefix(const QByteArray &a, const QByteArray &b, const TokenEncoder &encode);
// The same in `encoding`'s units; in bytes without building any ids.
StablePrefix stablePrefix(const QByteArray &a, const QByteArray &b, const TokenEncoding &encoding);

// Where the two souls first differ, as a file and a 1-based line of it: the
// line of b's file that holds the first changed byte; line 1 of a slot that
// only one side has (a's file for a removed slot). A change in a truncation
// notice is put on the last line the agent gets.
struct FirstChange
{
    int slot = -1;
    QString file;
    qint64 line = 1;
    qsizetype offset = 0; // the first changed byte in b's soul (in a's for a removed slot)
    // Bytes of the line before that byte; on the body's first line, from
    // where the body starts (the white space the body is trimmed of is not
    // counted).
    qsizetype column = 0;
};

// The first change of a section both souls have and that differs: b's
// section `section` starts at `sectionOffset` of b's soul, and the souls
// share their first `bytePrefix` bytes.
FirstChange firstChangeInSection(int slot,
                                 QByteArrayView section,
                                 qsizetype sectionOffset,
                                 bool truncated,
                                 qint64 bodyFirstLine,
                                 qsizetype bytePrefix);

std::optional<FirstChange> firstChange(const SectionedSoul &a,
                                       const SectionedSoul &b,
                                       const std::array<SectionStatus, SlotCount> &status,
                                       qsizetype bytePrefix);

// A unified diff of a's soul against b's ("--- a", "+++ b", hunks of three
// lines of context), each hunk header ending in the name of the section it
// changes: "@@ -12,7 +12,7 @@ MEMORY.md". Empty for identical souls. Bytes
// pass through unchanged (NUL included); a last line without a line break
// is followed by "\ No newline at end of file".
QByteArray unifiedSoulDiff(const SectionedSoul &a, const SectionedSoul &b, int context = 3);

} // namespace soul
