#pragma once

#include "compose/composerule.h"
#include "runtime/runtime.h"

#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

// Which runtime a persona is composed for, with its settings: the value the
// window, the meters and soulc pass around. The runtime decides everything;
// the profile only holds the choice.
namespace soul {

struct RuntimeProfile
{
    // Never null: the registry's default (toolnexus) unless chosen.
    const Runtime *runtime = nullptr;
    RuntimeSettings settings;
    // The rule a runtime that composes by sections (Runtime::sectionRule())
    // composes by: its own, unless a caller gives another (tests, the
    // benchmark).
    ComposeRule rule = ComposeRule::toolnexus();

    RuntimeProfile();
    static RuntimeProfile toolnexus();
    static RuntimeProfile toolnexus(ComposeRule rule);
    // `runtime` with `settings` (its defaults for what is missing).
    static RuntimeProfile of(const Runtime *runtime, const RuntimeSettings &settings = {});

    QString id() const;
    QString displayName() const;
    // The files the runtime reads, in the order it injects them.
    QStringList loadedFiles() const;
    bool loads(QStringView fileName) const;
    // Whether the runtime's text is one section per file by `rule`, which
    // the window's preview updates one section at a time.
    bool sectioned() const { return runtime->sectionRule() != nullptr; }

    BudgetUnit budgetUnit() const { return runtime->budgetUnit(); }
    qint64 fileBudget(QStringView fileName) const;
    qint64 totalBudget() const; // -1: no total budget
    // At or above this a file, or the total, is "near its limit" (85%, up).
    static qint64 nearLimit(qint64 budget) { return Runtime::nearLimit(budget); }

    bool operator==(const RuntimeProfile &other) const;
    bool operator!=(const RuntimeProfile &other) const { return !(*this == other); }
};

// The profile for a --runtime name ("toolnexus", "openclaw", "hermes"), with
// default settings; std::nullopt for an unknown name.
std::optional<RuntimeProfile> runtimeProfileNamed(QStringView id);
// "toolnexus, openclaw, hermes"
QString runtimeProfileNames();

} // namespace soul
