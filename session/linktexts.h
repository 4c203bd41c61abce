#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace soul {

// The three texts of a link group's file when one member's copy on disk is
// no longer what the group last wrote to it: what the window shows before
// it asks to adopt the copy or to leave the group.
struct ThreeWayTexts
{
    QString file;       // the linked file's name, "USER.md"
    QString agent;      // the member whose copy differs
    QString group;      // the link group's name
    QStringList others; // the group's other members
    // What the group last wrote to every copy; empty when it is not kept.
    QByteArray lastGroup;
    QByteArray thisCopy; // the agent's copy as it is on disk
    // The group's text now: what the author has in the panes, maybe unsaved.
    QByteArray groupNow;
};

} // namespace soul
