#pragma once

#include "compose/composerule.h"
#include "runtime/runtime.h"

namespace soul {

// toolnexus: the compose contract (docs/compose-rule.md), one section per
// slot file by its ComposeRule, each file capped in bytes.
class ToolnexusRuntime final : public Runtime
{
public:
    explicit ToolnexusRuntime(ComposeRule rule = ComposeRule::toolnexus());

    QString id() const override;
    QString displayName() const override;
    QStringList files() const override;
    QStringList neverRead() const override;
    BudgetUnit budgetUnit() const override { return BudgetUnit::Bytes; }
    qint64 fileBudget(QStringView fileName, const RuntimeSettings &settings) const override;
    Result<RuntimeComposition> compose(const RuntimeInput &input,
                                       const RuntimeSettings &settings) const override;
    Result<QByteArray> statReport(const RuntimeInput &input,
                                  const RuntimeSettings &settings,
                                  const Tokenizer &tokenizer,
                                  bool json) const override;
    const ComposeRule *sectionRule() const override { return &m_rule; }
    QString description() const override;
    bool readsRevisions() const override { return true; }
    Result<QByteArray> revisionReport(const Inspection &inspection,
                                      const SoulTokenCounts &tokens,
                                      const QString &rev,
                                      const QString &shortId,
                                      const QByteArray &commitId,
                                      bool json) const override;

private:
    ComposeRule m_rule;
};

} // namespace soul
