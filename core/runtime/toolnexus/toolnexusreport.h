#pragma once

#include "persona/inspection.h"
#include "tokens/soultokens.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

// What `soulc stat` prints of a persona under toolnexus, now or at a commit.
namespace soul {

// The commit a `--rev` stat is of.
struct RevisionFacts
{
    QString rev;
    QString shortId;
    QByteArray id;
};

// "present", "missing", "dangling-link", ...: a slot's status in JSON.
QString presenceName(SlotPresence presence);
// `value`, or null when not `present`.
QJsonValue optionalNumber(bool present, double value);

QByteArray toolnexusStatText(const Inspection &inspection,
                             const SoulTokenCounts &tokens,
                             const RevisionFacts *revision = nullptr);
QByteArray toolnexusStatJson(const Inspection &inspection,
                             const SoulTokenCounts &tokens,
                             const RevisionFacts *revision = nullptr);

} // namespace soul
