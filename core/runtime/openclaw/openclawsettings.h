#pragma once

#include "runtime/runtime.h"

#include <QStringView>

namespace soul {

// OpenClaw's two settings that change what it injects. Counted in UTF-16 code
// units, as OpenClaw counts them.
struct OpenClawSettings
{
    static constexpr int DefaultMaxChars = 20000;
    static constexpr int DefaultTotalMaxChars = 60000;
    // USER.md's own cap; bootstrapMaxChars can lower it, not raise it.
    static constexpr int UserMaxChars = 4000;

    int bootstrapMaxChars = DefaultMaxChars;
    int bootstrapTotalMaxChars = DefaultTotalMaxChars;

    // The settings' keys, as OpenClaw's config names them.
    static constexpr char MaxCharsKey[] = "bootstrapMaxChars";
    static constexpr char TotalMaxCharsKey[] = "bootstrapTotalMaxChars";

    // From a runtime's settings by key; a missing key takes its default.
    static OpenClawSettings from(const RuntimeSettings &settings);
    RuntimeSettings values() const;

    // OpenClaw takes a value only when it is a number greater than 0; anything
    // else means the default.
    int maxChars() const { return bootstrapMaxChars > 0 ? bootstrapMaxChars : DefaultMaxChars; }
    int totalMaxChars() const
    {
        return bootstrapTotalMaxChars > 0 ? bootstrapTotalMaxChars : DefaultTotalMaxChars;
    }
    // B of the budget rule: the per-file limit of `fileName`.
    int limitFor(QStringView fileName) const;

    bool operator==(const OpenClawSettings &other) const
    {
        return maxChars() == other.maxChars() && totalMaxChars() == other.totalMaxChars();
    }
};

} // namespace soul
