#pragma once

#include "result.h"

#include <QByteArray>
#include <QList>
#include <QString>

// What a provider's prompt cache would reuse of a soul whose first N tokens
// are unchanged, by a dated table of rules (resources/cache/cache-rules.json,
// built in) that a user's file of the same format can extend or override.
namespace soul {

enum class CacheKind {
    Steps,      // reused from a minimum, then in whole steps (OpenAI)
    Breakpoint, // a breakpoint at the end of the soul hits all or nothing (Anthropic)
    Implicit,   // reused from a minimum, no step documented, no hit guaranteed (Google)
};

struct CacheRule
{
    QString id; // a user's rule with the same id replaces the built-in one
    QString provider;
    QString models;
    CacheKind kind = CacheKind::Steps;
    qint64 minimumTokens = 0;
    qint64 stepTokens = 0; // Steps only
    QString source;        // the page the numbers come from
    QString checked;       // the date they were read, YYYY-MM-DD
    bool verified = false; // the numbers were seen on the provider's own page
    QString note;
};

struct CacheTable
{
    QList<CacheRule> rules;
    QString prefixNote; // what else belongs to the prefix
};

// Parses a table; `origin` names it in errors ("FILE: ...").
Result<CacheTable> parseCacheTable(const QByteArray &json, const QString &origin);

// The table shipped with Soul Studio.
CacheTable builtinCacheTable();

// The built-in table with the rules of `userFile` laid over it (same id:
// replaced; new id: added). A missing file is no override; a file that is
// not a table fails with a sentence naming it.
Result<CacheTable> cacheTableWithOverrides(const QString &userFile);

struct CacheReuse
{
    CacheRule rule;
    qint64 tokens = 0; // what the provider would bill as cached
    QString reason;    // one sentence
};

// For each rule: of a soul of `totalTokens` whose first `stableTokens` are
// the same as the cached request's, what would be reused.
QList<CacheReuse> cacheReuse(const CacheTable &table, qint64 stableTokens, qint64 totalTokens);

} // namespace soul
