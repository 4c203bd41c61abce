#include "runtimeskills.h"

namespace soul {

QString skillFateName(SkillFate fate)
{
    switch (fate) {
    case SkillFate::Kept:
        return QStringLiteral("kept");
    case SkillFate::Shortened:
        return QStringLiteral("shortened");
    case SkillFate::Dropped:
        return QStringLiteral("dropped");
    case SkillFate::Unlisted:
        return QStringLiteral("unlisted");
    }
    return {};
}

} // namespace soul
