#pragma once

#include "registry/runtimeprofile.h"

#include <QString>

class QSettings;

namespace soul {

// The runtime chosen, and its settings, as the window remembers them: the
// last choice of all, each runtime's last settings, and the choice made for
// each persona folder, which wins when that folder opens again.
class RuntimeMemory
{
public:
    explicit RuntimeMemory(QSettings *settings);

    // The profile for `folder`: the one chosen for it, else the last one
    // chosen anywhere (toolnexus at first).
    RuntimeProfile profileFor(const QString &folder) const;
    // The last settings chosen for `runtime`, wherever.
    RuntimeSettings settingsOf(const Runtime &runtime) const;
    // Remembers `profile` as the last choice, and as `folder`'s when not empty.
    void remember(const QString &folder, const RuntimeProfile &profile);

private:
    RuntimeProfile read(const QString &group) const;
    void write(const QString &group, const RuntimeProfile &profile);

    QSettings *m_settings = nullptr;
};

} // namespace soul
