#include "toolnexusreport.h"

#include "counttext.h"
#include "runtime/reporttext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace soul {

namespace {

// "0.1%", "95.4%", "119.2%"; "<0.1%" for a small file that would round to nothing.
QString capPercentText(const SlotFacts &facts)
{
    const double percent = facts.capShare() * 100.0;
    if (facts.size > 0 && percent < 0.05)
        return QStringLiteral("<0.1%");
    return QString::number(percent, 'f', 1) + QLatin1Char('%');
}

} // namespace

QString presenceName(SlotPresence presence)
{
    switch (presence) {
    case SlotPresence::Present:
        return QStringLiteral("present");
    case SlotPresence::Missing:
        return QStringLiteral("missing");
    case SlotPresence::DanglingLink:
        return QStringLiteral("dangling-link");
    case SlotPresence::Directory:
        return QStringLiteral("directory");
    case SlotPresence::NotRegularFile:
        return QStringLiteral("not-regular-file");
    case SlotPresence::Unreadable:
        return QStringLiteral("unreadable");
    }
    return {};
}

QJsonValue optionalNumber(bool present, double value)
{
    return present ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QByteArray toolnexusStatText(const Inspection &inspection,
                             const SoulTokenCounts &tokens,
                             const RevisionFacts *revision)
{
    QList<QStringList> rows;
    rows.append({QStringLiteral("slot"),
                 QStringLiteral("present"),
                 QStringLiteral("bytes"),
                 QStringLiteral("tokens"),
                 QStringLiteral("% of cap"),
                 QStringLiteral("truncated"),
                 QStringLiteral("lints")});
    int present = 0;
    int truncated = 0;
    qint64 bytes = 0;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotFacts &facts = inspection.slotFacts[size_t(slot)];
        const QString lints = tallyFor(inspection.lints, facts.name).text();
        if (!facts.present()) {
            const QString presentText = facts.presence == SlotPresence::Missing
                                            ? QStringLiteral("no")
                                            : QStringLiteral("skipped");
            rows.append({facts.name,
                         presentText,
                         QStringLiteral("-"),
                         QStringLiteral("-"),
                         QStringLiteral("-"),
                         QStringLiteral("-"),
                         lints});
            continue;
        }
        ++present;
        truncated += facts.truncated;
        bytes += facts.size;
        rows.append({facts.name,
                     QStringLiteral("yes"),
                     formatCount(facts.size),
                     formatCount(tokens.sections[size_t(slot)]),
                     capPercentText(facts),
                     facts.truncated ? QStringLiteral("yes") : QStringLiteral("no"),
                     lints});
    }
    rows.append({QStringLiteral("total"),
                 QStringLiteral("%1 of %2").arg(present).arg(SlotCount),
                 formatCount(bytes),
                 QString(),
                 QString(),
                 QString::number(truncated),
                 tallyFor(inspection.lints, QString()).text()});

    QByteArray out = QStringLiteral("persona  %1\n").arg(inspection.directory).toUtf8();
    if (revision)
        out += QStringLiteral("commit   %1 (%2)\n").arg(revision->shortId, revision->rev).toUtf8();
    out += '\n';
    out += renderTable(rows, {false, false, true, true, true, false, false});
    if (!inspection.lints.isEmpty()) {
        out += '\n';
        for (const Lint &lint : inspection.lints)
            out += lintLine(lint.file, lint);
    }
    const qint64 soulBytes = inspection.composition.soul.size();
    out += QStringLiteral("\nsoul     %1 bytes, %2 tokens (%3)\nsha256   %4\n")
               .arg(formatCount(soulBytes),
                    formatCount(tokens.soul),
                    tokens.encoding,
                    QString::fromLatin1(inspection.soulSha256))
               .toUtf8();
    return out;
}

QByteArray toolnexusStatJson(const Inspection &inspection,
                             const SoulTokenCounts &tokens,
                             const RevisionFacts *revision)
{
    QJsonArray slots;
    qint64 present = 0;
    qint64 truncated = 0;
    qint64 bytes = 0;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotFacts &facts = inspection.slotFacts[size_t(slot)];
        const bool here = facts.present();
        present += here;
        truncated += here && facts.truncated;
        bytes += here ? facts.size : 0;
        // Two decimals: enough to tell a file near the cap from one at it.
        const double percent = std::round(facts.capShare() * 10000.0) / 100.0;
        slots.append(QJsonObject{
            {QStringLiteral("name"), facts.name},
            {QStringLiteral("present"), here},
            {QStringLiteral("status"), presenceName(facts.presence)},
            {QStringLiteral("bytes"), optionalNumber(here, double(facts.size))},
            {QStringLiteral("tokens"), optionalNumber(here, double(tokens.sections[size_t(slot)]))},
            {QStringLiteral("capPercent"), optionalNumber(here, percent)},
            {QStringLiteral("truncated"), here && facts.truncated},
            {QStringLiteral("sha256"),
             here ? QJsonValue(QString::fromLatin1(facts.sha256)) : QJsonValue()},
            {QStringLiteral("lints"), tallyFor(inspection.lints, facts.name).json()},
        });
    }
    QJsonArray lints;
    for (const Lint &lint : inspection.lints) {
        lints.append(QJsonObject{
            {QStringLiteral("file"), lint.file},
            {QStringLiteral("slot"),
             lint.slot >= 0 ? QJsonValue(slotName(lint.slot)) : QJsonValue()},
            {QStringLiteral("level"), lintLevelName(lint.level)},
            {QStringLiteral("code"), lint.code},
            {QStringLiteral("message"), lint.message},
        });
    }
    const qint64 soulBytes = inspection.composition.soul.size();
    QJsonObject root{
        {QStringLiteral("directory"), inspection.directory},
        {QStringLiteral("capBytes"), inspection.rule.capBytes},
        {QStringLiteral("encoding"), tokens.encoding},
        {QStringLiteral("slots"), slots},
        {QStringLiteral("found"), QJsonArray::fromStringList(inspection.composition.found)},
        {QStringLiteral("lints"), lints},
        {QStringLiteral("totals"),
         QJsonObject{
             {QStringLiteral("present"), present},
             {QStringLiteral("bytes"), bytes},
             {QStringLiteral("truncated"), truncated},
             {QStringLiteral("lints"), tallyFor(inspection.lints, QString()).json()},
         }},
        {QStringLiteral("soul"),
         QJsonObject{
             {QStringLiteral("bytes"), soulBytes},
             {QStringLiteral("tokens"), tokens.soul},
             {QStringLiteral("sha256"), QString::fromLatin1(inspection.soulSha256)},
         }},
    };
    if (revision) {
        root.insert(QStringLiteral("commit"),
                    QJsonObject{
                        {QStringLiteral("rev"), revision->rev},
                        {QStringLiteral("id"), QString::fromLatin1(revision->id)},
                        {QStringLiteral("shortId"), revision->shortId},
                    });
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace soul
