#include "runtimemeter.h"

#include "counttext.h"
#include "registry/runtimeprofile.h"

namespace soul {

namespace {

QString share(qint64 part, qint64 whole)
{
    return QString::number(double(part) * 100.0 / double(qMax<qint64>(1, whole)), 'f', 1);
}

} // namespace

RuntimeMeter::RuntimeMeter(QWidget *parent)
    : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    // Characters, the total and tokens do not fit one line of a narrow pane.
    setWordWrap(true);
    setAccessibleName(tr("Size against the runtime's budgets"));
}

void RuntimeMeter::setFigures(qint64 used, qint64 budget, qint64 totalUsed, qint64 totalBudget)
{
    m_used = used;
    m_budget = budget;
    m_totalUsed = totalUsed;
    m_totalBudget = totalBudget;
    refresh();
}

void RuntimeMeter::setTokens(qint64 tokens, qint64 totalTokens, const QString &encoding)
{
    m_tokens = tokens;
    m_totalTokens = totalTokens;
    m_encoding = encoding;
    refresh();
}

RuntimeMeter::Level RuntimeMeter::level() const
{
    if (m_used < 0)
        return Level::Absent;
    if (m_used > m_budget || (m_totalBudget > 0 && m_totalUsed > m_totalBudget))
        return Level::Over;
    if (m_used >= RuntimeProfile::nearLimit(m_budget)
        || (m_totalBudget > 0 && m_totalUsed >= RuntimeProfile::nearLimit(m_totalBudget)))
        return Level::Warning;
    return Level::Normal;
}

void RuntimeMeter::refresh()
{
    if (m_used < 0) {
        // Shown only for a file that is there: the runtime refused it (the
        // note under the meter says why).
        setText(tr("nothing of it is injected"));
    } else {
        QString text = tr("%1 of %2 characters (%3 %)")
                           .arg(formatCount(m_used), formatCount(m_budget), share(m_used, m_budget));
        if (m_used > m_budget)
            text += tr(", cut");
        else if (m_used >= RuntimeProfile::nearLimit(m_budget))
            text += tr(", near the limit");
        if (m_totalBudget > 0) {
            text += tr(" · total %1 of %2 (%3 %)")
                        .arg(formatCount(m_totalUsed),
                             formatCount(m_totalBudget),
                             share(m_totalUsed, m_totalBudget));
            if (m_totalUsed >= RuntimeProfile::nearLimit(m_totalBudget))
                text += tr(", near the total");
        }
        // Tokens are what the file costs in the prompt, beside the characters
        // the budgets count.
        if (m_tokens >= 0) {
            text += tr(" · %1 tokens injected").arg(formatCount(m_tokens));
            if (m_totalTokens >= 0)
                text += tr(", %1 in all").arg(formatCount(m_totalTokens));
            text += QStringLiteral(" (%1)").arg(m_encoding);
        }
        setText(text);
    }
    switch (level()) {
    case Level::Over:
        setStyleSheet(QStringLiteral("color: #d03030;"));
        break;
    case Level::Warning:
        setStyleSheet(QStringLiteral("color: #d98c00;"));
        break;
    case Level::Normal:
    case Level::Absent:
        setStyleSheet(QString());
        break;
    }
    setAccessibleDescription(text());
}

} // namespace soul
