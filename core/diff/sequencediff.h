#pragma once

#include <QtGlobal>

#include <vector>

// The shortest edit script between two sequences of ids (equal ids, equal
// elements): Myers' O(ND) difference algorithm after trimming what the two
// share at both ends, so two long sequences that differ in one place cost
// about their length. Lines, words and tokens are all compared through it.
namespace soul {

enum class DiffKind { Keep, Remove, Add };

// `count` elements kept (in both), removed (from the first) or added (from
// the second). Runs follow each other in order; consecutive runs differ in kind.
struct DiffRun
{
    DiffKind kind = DiffKind::Keep;
    qsizetype count = 0;
};

// Past this many edits the script of the part between the shared ends is
// given as all removed, then all added: the memory for the search grows with
// the square of the edits, and a change that large reads better whole.
inline constexpr qsizetype MaxDiffEdits = 2000;

std::vector<DiffRun> diffSequences(const quint32 *a, qsizetype n, const quint32 *b, qsizetype m);

inline std::vector<DiffRun> diffSequences(const std::vector<quint32> &a,
                                          const std::vector<quint32> &b)
{
    return diffSequences(a.data(), qsizetype(a.size()), b.data(), qsizetype(b.size()));
}

} // namespace soul
