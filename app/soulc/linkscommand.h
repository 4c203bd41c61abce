#pragma once

#include <QByteArray>
#include <QStringList>

// soulc links: link groups (core/links/linkgroups.h) listed, added, synced
// and removed. It reads its own options, after the word "links".
namespace soul {

int runLinks(const QStringList &arguments);
QByteArray linksHelpText();

} // namespace soul
