#include "runtimesoul.h"

#include "runtimeprofile.h"

namespace soul {

bool composeDirectoryTo(const QString &dir,
                        const SoulWriter &write,
                        const RuntimeProfile &profile,
                        QStringList *found)
{
    if (profile.sectioned())
        return composeDirectoryTo(dir, write, profile.rule, found);
    RuntimeInput input;
    input.dir = dir;
    const Result<RuntimeComposition> composition = profile.runtime->compose(input, profile.settings);
    if (!composition)
        return false;
    if (found)
        *found = composition->found;
    return write(composition->text.toUtf8());
}

} // namespace soul
