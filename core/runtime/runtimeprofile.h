#pragma once

#include "composerule.h"

#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>
#include <utility>

// Which agent runtime a persona is composed for, as a value the composer, the
// meters, the lints and soulc take instead of reading global constants.
//
// toolnexus is the default: its ComposeRule (composerule.h: the order, the
// byte cap per file, the notice, the section head and join), by default
// ComposeRule::toolnexus(), today's rule unchanged.
// OpenClaw 2026.9 injects far less and lays it out differently; its rule is
// in openclawrule.h and its two settings are here.
namespace soul {

enum class Runtime { Toolnexus, OpenClaw };

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

struct RuntimeProfile
{
    Runtime runtime = Runtime::Toolnexus;
    OpenClawSettings openClaw; // used by Runtime::OpenClaw only
    // How Runtime::Toolnexus composes and what its meters and lints measure
    // against (its cap).
    ComposeRule rule = ComposeRule::toolnexus();

    static RuntimeProfile toolnexus() { return {}; }
    static RuntimeProfile toolnexus(ComposeRule rule)
    {
        return {Runtime::Toolnexus, {}, std::move(rule)};
    }
    static RuntimeProfile openClaw2026_9(OpenClawSettings settings = {})
    {
        return {Runtime::OpenClaw, settings};
    }

    // "toolnexus", "openclaw": the name soulc's --runtime takes.
    QString id() const;
    // "toolnexus", "OpenClaw 2026.9": the name shown to people.
    QString displayName() const;
    // The files the runtime reads, in the order it injects them.
    QStringList loadedFiles() const;
    bool loads(QStringView fileName) const;

    // The meters' budgets, in the runtime's own unit: toolnexus caps each
    // file at its rule's capBytes and has no total; OpenClaw counts UTF-16 code
    // units per file (USER.md's own cap) and in all.
    enum class Unit { Bytes, Utf16Units };
    Unit budgetUnit() const
    {
        return runtime == Runtime::OpenClaw ? Unit::Utf16Units : Unit::Bytes;
    }
    qint64 fileBudget(QStringView fileName) const;
    qint64 totalBudget() const; // -1: no total budget
    // At or above this a file, or the total, is "near its limit" (85%, up).
    static qint64 nearLimit(qint64 budget);

    bool operator==(const RuntimeProfile &other) const
    {
        return runtime == other.runtime
               && (runtime != Runtime::OpenClaw || openClaw == other.openClaw)
               && rule == other.rule;
    }
    bool operator!=(const RuntimeProfile &other) const { return !(*this == other); }
};

// The profile for a --runtime name ("toolnexus", "openclaw"), with default
// settings; std::nullopt for an unknown name.
std::optional<RuntimeProfile> runtimeProfileNamed(QStringView id);
// "toolnexus, openclaw"
QString runtimeProfileNames();

} // namespace soul
