#pragma once

#include <QLabel>

namespace soul {

// One file against a runtime's budgets in that runtime's unit (OpenClaw:
// characters, as UTF-16 code units): its own per-file budget and the total
// all files share, with the warning from 85 % of either.
class RuntimeMeter : public QLabel
{
    Q_OBJECT

public:
    enum class Level { Absent, Normal, Warning, Over };

    explicit RuntimeMeter(QWidget *parent = nullptr);

    // `used` -1 for a file that is not there.
    void setFigures(qint64 used, qint64 budget, qint64 totalUsed, qint64 totalBudget);
    // Exact tokens of what the runtime injects of the file and in all, in
    // `encoding`; -1 while unknown (then no tokens are shown).
    void setTokens(qint64 tokens, qint64 totalTokens, const QString &encoding);
    qint64 tokens() const { return m_tokens; }
    qint64 totalTokens() const { return m_totalTokens; }
    qint64 used() const { return m_used; }
    qint64 budget() const { return m_budget; }
    Level level() const;

private:
    void refresh();

    qint64 m_used = -1;
    qint64 m_budget = 0;
    qint64 m_totalUsed = 0;
    qint64 m_totalBudget = 0;
    qint64 m_tokens = -1;
    qint64 m_totalTokens = -1;
    QString m_encoding;
};

} // namespace soul
