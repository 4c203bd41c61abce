#pragma once

#include <QtGlobal>

namespace soul {

// A span of a file's text: what a runtime keeps of it, or drops.
struct KeptRange
{
    qsizetype start = 0;
    qsizetype length = 0;
    bool operator==(const KeptRange &o) const { return start == o.start && length == o.length; }
};

} // namespace soul
