#include "lintitem.h"

#include <algorithm>

namespace soul {

QString lintLevelName(LintLevel level)
{
    switch (level) {
    case LintLevel::Info:
        return QStringLiteral("info");
    case LintLevel::Warning:
        return QStringLiteral("warning");
    case LintLevel::Error:
        return QStringLiteral("error");
    }
    return {};
}

bool hasErrors(const QList<Lint> &lints)
{
    return std::any_of(lints.cbegin(), lints.cend(), [](const Lint &l) {
        return l.level == LintLevel::Error;
    });
}

} // namespace soul
