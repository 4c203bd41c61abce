#pragma once

#include "runtime/runtime.h"

namespace soul {

struct OpenClawInput;

// OpenClaw 2026.9 (docs/openclaw-2026.9.md): the workspace-files section of
// its system prompt, by its two budgets.
class OpenClawRuntime final : public Runtime
{
public:
    QString id() const override;
    QString displayName() const override;
    QStringList files() const override;
    QStringList neverRead() const override;
    QString setupFile() const override;
    BudgetUnit budgetUnit() const override { return BudgetUnit::Utf16Units; }
    QList<RuntimeSetting> settings() const override;
    qint64 fileBudget(QStringView fileName, const RuntimeSettings &settings) const override;
    qint64 totalBudget(const RuntimeSettings &settings) const override;
    Result<RuntimeComposition> compose(const RuntimeInput &input,
                                       const RuntimeSettings &settings) const override;
    Result<QByteArray> statReport(const RuntimeInput &input,
                                  const RuntimeSettings &settings,
                                  const Tokenizer &tokenizer,
                                  bool json) const override;
    QString lintLocation(const RuntimeInput &input, const Lint &lint) const override;
    QString description() const override;
    bool summarizesBudget() const override { return true; }
    bool listsSkills() const override { return true; }
    Result<SkillsList> skills(const SkillsRequest &request) const override;
    bool hintsPanes() const override { return true; }
    QString keepHint(QStringView fileName,
                     qint64 characters,
                     const RuntimeSettings &settings) const override;
};

// OpenClaw's id, for the code of its own domain (its agents' roster) that
// finds it in the registry.
constexpr char OpenClawId[] = "openclaw";

// What OpenClaw reads of `input`: the folder, with the editor's buffers
// standing for the files they are of. A buffer stands for a regular file
// with its bytes; a file OpenClaw refuses on disk stays refused. With
// `buffersOnly` the buffers are the folder and the disk is not read.
OpenClawInput readOpenClawInput(const RuntimeInput &input);

} // namespace soul
