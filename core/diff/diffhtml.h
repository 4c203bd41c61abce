#pragma once

#include "liveprefix.h"

#include <QString>

#include <array>

// The compare window's diff as HTML, a pure function of the two souls: the
// window shows it, the compare controller builds it on its worker, and tests
// read it without a window.
namespace soul {

// A unified diff's lines (displayText()'s text) as HTML: hunk headers in
// class "hunk", kept lines "ctx", removed "del", added "add"; within a run of
// removed lines and the run of added lines after it, the n-th of each are
// compared word by word and the changed words marked "delw" / "addw". With
// `invisibles`, what the preview marks as invisible (invisibleRanges()) is
// in class "inv".
QString unifiedDiffHtml(const QString &diff, bool invisibles);

// Each section of `snapshot` against `live` that `status` does not call
// absent or unchanged: a heading "NAME — status", and for a changed one the
// unified diff of the two bodies as displayText() shows it, with the style
// sheet of the classes above first.
// A unified diff of two whole texts (runtimeTextDiff()) under the heading
// `title` (none when empty), as displayText() shows it, with the style sheet
// first; only the style sheet for an empty diff.
QString textDiffHtml(const QString &title, const QByteArray &unifiedDiff, bool invisibles);

QString sectionsDiffHtml(const LiveSections &snapshot,
                         const LiveSections &live,
                         const std::array<SectionStatus, SlotCount> &status,
                         bool invisibles);

} // namespace soul
