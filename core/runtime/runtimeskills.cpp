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

QStringList listedSkillNames(const SkillsList &list)
{
    QStringList names;
    for (const SkillItem &skill : list.skills) {
        if (skill.fate == SkillFate::Kept || skill.fate == SkillFate::Shortened)
            names.append(skill.name);
    }
    return names;
}

} // namespace soul
