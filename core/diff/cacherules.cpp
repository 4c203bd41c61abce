#include "cacherules.h"

#include "counttext.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace soul {

namespace {

constexpr char TableFormat[] = "soul-cache-rules";

QString tokensText(qint64 n)
{
    return formatCount(n);
}

} // namespace

Result<CacheTable> parseCacheTable(const QByteArray &json, const QString &origin)
{
    using R = Result<CacheTable>;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    const QJsonObject root = doc.object();
    if (doc.isNull())
        return R::failure(QStringLiteral("%1: not JSON (%2).").arg(origin, error.errorString()));
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(TableFormat)) {
        return R::failure(QStringLiteral("%1: not a cache rule table (\"format\" must be \"%2\").")
                              .arg(origin, QLatin1String(TableFormat)));
    }
    CacheTable table;
    table.prefixNote = root.value(QStringLiteral("prefixNote")).toString();
    const QJsonArray rules = root.value(QStringLiteral("rules")).toArray();
    for (qsizetype i = 0; i < rules.size(); ++i) {
        const QJsonObject o = rules.at(i).toObject();
        CacheRule rule;
        rule.id = o.value(QStringLiteral("id")).toString();
        rule.provider = o.value(QStringLiteral("provider")).toString();
        rule.models = o.value(QStringLiteral("models")).toString();
        const QString kind = o.value(QStringLiteral("kind")).toString();
        rule.minimumTokens = o.value(QStringLiteral("minimumTokens")).toInteger(-1);
        rule.stepTokens = o.value(QStringLiteral("stepTokens")).toInteger(0);
        rule.source = o.value(QStringLiteral("source")).toString();
        rule.checked = o.value(QStringLiteral("checked")).toString();
        rule.verified = o.value(QStringLiteral("verified")).toBool(false);
        rule.note = o.value(QStringLiteral("note")).toString();
        QString problem;
        if (kind == QLatin1String("steps"))
            rule.kind = CacheKind::Steps;
        else if (kind == QLatin1String("breakpoint"))
            rule.kind = CacheKind::Breakpoint;
        else if (kind == QLatin1String("implicit"))
            rule.kind = CacheKind::Implicit;
        else
            problem = QStringLiteral("\"kind\" must be steps, breakpoint or implicit");
        if (rule.id.isEmpty() || rule.provider.isEmpty())
            problem = QStringLiteral("it needs an \"id\" and a \"provider\"");
        else if (rule.minimumTokens < 0)
            problem = QStringLiteral("\"minimumTokens\" must be a number of tokens");
        else if (rule.kind == CacheKind::Steps && rule.stepTokens <= 0)
            problem = QStringLiteral("a steps rule needs \"stepTokens\" above 0");
        else if (rule.source.isEmpty() || rule.checked.isEmpty())
            problem = QStringLiteral(
                "it needs the \"source\" page and the date it was \"checked\"");
        if (!problem.isEmpty()) {
            return R::failure(
                QStringLiteral("%1: rule %2 (%3): %4.")
                    .arg(origin)
                    .arg(i + 1)
                    .arg(rule.id.isEmpty() ? QStringLiteral("no id") : rule.id, problem));
        }
        table.rules.append(rule);
    }
    return table;
}

CacheTable builtinCacheTable()
{
    QFile file(QStringLiteral(":/soulstudio/cache/cache-rules.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    // The built-in table is tested; a broken one is a build defect, not a user's.
    Result<CacheTable> table = parseCacheTable(file.readAll(), file.fileName());
    return table ? std::move(table).value() : CacheTable();
}

Result<CacheTable> cacheTableWithOverrides(const QString &userFile)
{
    CacheTable table = builtinCacheTable();
    if (userFile.isEmpty() || !QFileInfo::exists(userFile))
        return table;
    QFile file(userFile);
    if (!file.open(QIODevice::ReadOnly)) {
        return Result<CacheTable>::failure(
            QStringLiteral("%1: cannot read (%2).").arg(userFile, file.errorString()));
    }
    Result<CacheTable> user = parseCacheTable(file.readAll(), userFile);
    if (!user)
        return user;
    for (const CacheRule &rule : std::as_const(user->rules)) {
        auto it = std::find_if(table.rules.begin(), table.rules.end(), [&](const CacheRule &r) {
            return r.id == rule.id;
        });
        if (it != table.rules.end())
            *it = rule;
        else
            table.rules.append(rule);
    }
    if (!user->prefixNote.isEmpty())
        table.prefixNote = user->prefixNote;
    return table;
}

QList<CacheReuse> cacheReuse(const CacheTable &table, qint64 stableTokens, qint64 totalTokens)
{
    QList<CacheReuse> out;
    for (const CacheRule &rule : table.rules) {
        CacheReuse r;
        r.rule = rule;
        const QString minimum = tokensText(rule.minimumTokens);
        switch (rule.kind) {
        case CacheKind::Steps:
            if (stableTokens < rule.minimumTokens) {
                r.reason = QStringLiteral("Nothing: caching starts at %1 tokens.").arg(minimum);
            } else {
                r.tokens = rule.minimumTokens
                           + (stableTokens - rule.minimumTokens) / rule.stepTokens
                                 * rule.stepTokens;
                r.reason = QStringLiteral("The first %1 tokens: from %2, in steps of %3.")
                               .arg(tokensText(r.tokens), minimum, tokensText(rule.stepTokens));
            }
            break;
        case CacheKind::Breakpoint:
            if (totalTokens < rule.minimumTokens) {
                r.reason
                    = QStringLiteral("Nothing: a breakpoint caches from %1 tokens.").arg(minimum);
            } else if (stableTokens < totalTokens) {
                r.reason = QStringLiteral("Nothing, with the breakpoint at the end of the soul: it "
                                          "hits only when everything before it is unchanged.");
            } else {
                r.tokens = totalTokens;
                r.reason = QStringLiteral(
                               "All %1 tokens, up to the breakpoint at the end of the soul.")
                               .arg(tokensText(totalTokens));
            }
            break;
        case CacheKind::Implicit:
            if (stableTokens < rule.minimumTokens) {
                r.reason
                    = QStringLiteral("Nothing: implicit caching starts at %1 tokens.").arg(minimum);
            } else {
                r.tokens = stableTokens;
                r.reason = QStringLiteral("Up to the first %1 tokens, when the implicit cache hits "
                                          "(not guaranteed).")
                               .arg(tokensText(stableTokens));
            }
            break;
        }
        out.append(r);
    }
    return out;
}

} // namespace soul
