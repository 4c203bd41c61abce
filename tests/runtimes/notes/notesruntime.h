#pragma once

#include "runtime/runtime.h"

// A small runtime that exists only to prove a runtime is added by
// registering it: it reads NOTES.md and SOUL.md, in that order, and injects
// each as "# NAME" and its text cut to `maxLines` lines, joined by "\n---\n".
namespace soul::test {

class NotesRuntime final : public Runtime
{
public:
    static constexpr char Id[] = "notes";
    static constexpr char MaxLinesKey[] = "maxLines";

    QString id() const override;
    QString displayName() const override;
    QStringList files() const override;
    QStringList neverRead() const override;
    BudgetUnit budgetUnit() const override { return BudgetUnit::Utf16Units; }
    QList<RuntimeSetting> settings() const override;
    qint64 fileBudget(QStringView fileName, const RuntimeSettings &settings) const override;
    Result<RuntimeComposition> compose(const RuntimeInput &input,
                                       const RuntimeSettings &settings) const override;
    Result<QByteArray> statReport(const RuntimeInput &input,
                                  const RuntimeSettings &settings,
                                  const Tokenizer &tokenizer,
                                  bool json) const override;
    QString description() const override;
};

} // namespace soul::test
