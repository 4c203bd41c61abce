#pragma once

#include <QString>
#include <QStringList>

namespace soul {

// A line diff of `before` against `after` in the unified style ("-" removed,
// "+" added, " " kept, with three lines of context). Lines common to both
// ends are trimmed first; the middle is matched by longest common
// subsequence when it is small enough, else shown as removed then added.
QString lineDiff(const QString &beforeName,
                 const QStringList &before,
                 const QString &afterName,
                 const QStringList &after);

} // namespace soul
