#pragma once

#include "composedirectory.h"

#include <QString>
#include <QStringList>

// What a runtime injects for a persona folder, by its profile.
namespace soul {

struct RuntimeProfile;

// What `profile`'s runtime injects for `dir`: for toolnexus the soul of
// composeDirectoryTo() by the profile's rule, streamed; for OpenClaw the
// workspace-files section of its system prompt, whole (it is at most a few
// hundred KB). `found` receives the names of the files whose text was
// injected.
bool composeDirectoryTo(const QString &dir,
                        const SoulWriter &write,
                        const RuntimeProfile &profile,
                        QStringList *found = nullptr);

} // namespace soul
