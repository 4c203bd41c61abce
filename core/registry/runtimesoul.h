#pragma once

#include "disk/composedirectory.h"

#include <QString>
#include <QStringList>

// What a runtime injects for a persona folder, by its profile.
namespace soul {

struct RuntimeProfile;

// What `profile`'s runtime injects for `dir`: for a runtime that composes by
// sections (toolnexus) the soul of composeDirectoryTo() by the profile's
// rule, streamed; for any other its text, whole (under their budgets that is
// at most a few hundred KB). `found` receives the names of the files whose
// text was injected. False when a write fails or the folder cannot be read.
bool composeDirectoryTo(const QString &dir,
                        const SoulWriter &write,
                        const RuntimeProfile &profile,
                        QStringList *found = nullptr);

} // namespace soul
