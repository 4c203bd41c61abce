#include "runtimesoul.h"

#include "openclawreader.h"
#include "runtimeprofile.h"

namespace soul {

bool composeDirectoryTo(const QString &dir,
                        const SoulWriter &write,
                        const RuntimeProfile &profile,
                        QStringList *found)
{
    if (profile.runtime != Runtime::OpenClaw)
        return composeDirectoryTo(dir, write, profile.rule, found);
    const OpenClawComposition composition = composeOpenClaw(readOpenClawDirectory(dir),
                                                            profile.openClaw);
    if (found) {
        found->clear();
        for (const OpenClawFileFigures &figures : composition.files) {
            if (figures.injectedAny)
                found->append(figures.name);
        }
    }
    return write(composition.section.toUtf8());
}

} // namespace soul
