#pragma once

#include <QCoreApplication>
#include <QStringList>

namespace soul {

// Agents named in a sentence of a bar or a note: the first `shown` names,
// then how many more ("coach, ops, writer, ava and 3 other agents"); the
// tooltip beside it names them all.
inline QString someAgents(const QStringList &names, qsizetype shown = 4)
{
    const QString first = names.mid(0, shown).join(QStringLiteral(", "));
    const qsizetype more = names.size() - shown;
    if (more == 1)
        return QCoreApplication::translate("soul::AgentNames", "%1 and one other agent").arg(first);
    if (more > 1)
        return QCoreApplication::translate("soul::AgentNames", "%1 and %2 other agents")
            .arg(first, QString::number(more));
    return first;
}

} // namespace soul
