#include "openclawskills.h"

#include "agents/json5.h"
#include "agents/openclawroster.h"
#include "compose/utf8.h"
#include "disk/guardedread.h"
#include "runtime/hermes/hermesscan.h"
#include "runtime/openclaw/openclawplugins.h"
#include "runtime/openclaw/openclawrule.h"
#include "runtime/openclaw/skillfrontmatter.h"
#include "runtime/openclaw/skillpaths.h"

#include <QCollator>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>

#include <algorithm>

#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

using namespace skillpaths;

// OpenClaw's discovery limits (skills.limits.* in its config).
constexpr qsizetype DefaultMaxCandidatesPerRoot = 300;
constexpr qsizetype DefaultMaxSkillsLoadedPerSource = 200;
constexpr qsizetype DefaultMaxSkillFileBytes = 256000;
constexpr int MaxGroupedDepth = 6;
constexpr int MaxExtraRootGroupedDepth = 2;
// The agentskills.io limits the lints hold names and descriptions to.
constexpr qsizetype MaxNameChars = 64;
constexpr qsizetype MaxDescriptionChars = 1024;

constexpr char16_t Skills[] = u"skills";

struct Limits
{
    qsizetype maxCandidatesPerRoot = DefaultMaxCandidatesPerRoot;
    qsizetype maxSkillsLoadedPerSource = DefaultMaxSkillsLoadedPerSource;
    qsizetype maxSkillFileBytes = DefaultMaxSkillFileBytes;
};

QJsonValue at(const QJsonObject &root, std::initializer_list<const char *> path)
{
    QJsonValue value = root;
    for (const char *key : path) {
        if (!value.isObject())
            return {};
        value = value.toObject().value(QLatin1String(key));
    }
    return value;
}

// A JavaScript number the config gives, or `fallback` for anything else.
qsizetype numberOr(const QJsonValue &value, qsizetype fallback)
{
    return value.isDouble() ? qsizetype(value.toDouble()) : fallback;
}

// Trimmed, non-empty strings of a list (OpenClaw's normalizeStringEntries).
QStringList stringEntries(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &item : value.toArray()) {
        QString text;
        if (item.isString())
            text = item.toString();
        else if (item.isDouble())
            text = QString::number(item.toDouble());
        else if (item.isBool())
            text = item.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else
            continue;
        text = jsTrimmed(text).toString();
        if (!text.isEmpty())
            out.append(text);
    }
    return out;
}

// A list or a comma-separated string.
QStringList looseList(const QJsonValue &value)
{
    if (value.isArray())
        return stringEntries(value);
    QStringList out;
    if (value.isString()) {
        for (const QString &part : value.toString().split(QLatin1Char(','))) {
            const QString trimmed = jsTrimmed(part).toString();
            if (!trimmed.isEmpty())
                out.append(trimmed);
        }
    }
    return out;
}

// OpenClaw lists at most this many entries of one folder, in the order the
// system gives them.
qsizetype rawEntryLimit(qsizetype maxCandidates)
{
    if (maxCandidates <= 0)
        return 0;
    return qMin<qsizetype>(10000, qMax<qsizetype>(1000, maxCandidates * 10));
}

QCollator &englishCollator()
{
    static QCollator collator = [] {
        QCollator c{QLocale(QLocale::English)};
        c.setCaseSensitivity(Qt::CaseSensitive);
        return c;
    }();
    return collator;
}

struct Candidate
{
    QString skillDir;
    QString skillDirReal;
    QString name;    // "a" or "group/a"
    QString readDir; // where its SKILL.md is read from; empty: skillDir
    QString plugin;  // the plugin it comes from; empty: the root's
};

struct Root
{
    QString dir;
    QString source;
    QString plugin;              // the plugin whose skills folder it is
    bool rejectHardlinks = true; // OpenClaw trusts hard links only in its own package
    // <state dir>/plugin-skills: the links OpenClaw makes to plugin skills,
    // listed from the plugins, not from the folder.
    bool pluginLinks = false;
};

bool enforcesContainment(const QString &source)
{
    return source != QLatin1String("openclaw-managed")
           && source != QLatin1String("agents-skills-personal");
}

bool usesSymlinkTargets(const QString &source)
{
    return source == QLatin1String("openclaw-workspace")
           || source == QLatin1String("openclaw-extra")
           || source == QLatin1String("agents-skills-project");
}

struct Discovery
{
    const Limits &limits;
    QStringList allowedTargets; // real paths
    QList<Lint> &lints;

    // `candidate`'s real path when OpenClaw accepts it under `rootReal`.
    QString contained(const QString &source, const QString &rootReal, const QString &candidate)
    {
        const QString real = realPath(candidate);
        if (!enforcesContainment(source) || real.isEmpty())
            return real;
        if (isInside(rootReal, real))
            return real;
        if (usesSymlinkTargets(source)) {
            for (const QString &target : allowedTargets) {
                if (isInside(target, real))
                    return real;
            }
        }
        lints.append({candidate,
                      -1,
                      LintLevel::Warning,
                      QStringLiteral("skill-escapes"),
                      QStringLiteral("%1 resolves to %2, outside %3; OpenClaw refuses a skill "
                                     "path that leaves its folder (list the target in "
                                     "skills.load.allowSymlinkTargets to allow it).")
                          .arg(candidate, real, rootReal)});
        return {};
    }

    // Whether SKILL.md in `skillDir` is one OpenClaw goes on to open.
    bool skillFileAccepted(const QString &source,
                           const QString &skillDir,
                           const QString &skillDirReal)
    {
        const QString file = joined(skillDir, QStringLiteral("SKILL.md"));
        const QString real = realPath(file);
        if (real.isEmpty())
            return true; // a dangling link: opening it fails later, silently
        if (isInside(skillDirReal, real))
            return true;
        lints.append({file,
                      -1,
                      LintLevel::Warning,
                      QStringLiteral("skill-escapes"),
                      QStringLiteral("%1 resolves to %2, outside its skill folder; OpenClaw "
                                     "refuses it.")
                          .arg(file, real)});
        Q_UNUSED(source);
        return false;
    }

    bool hasSkillFile(const QString &dir)
    {
        return lexists(joined(dir, QStringLiteral("SKILL.md")));
    }

    bool containsSkillBelow(const QString &dir)
    {
        struct Item
        {
            QString dir;
            int depth;
        };
        QList<Item> queue{{dir, 0}};
        const qsizetype limit = rawEntryLimit(limits.maxCandidatesPerRoot);
        qsizetype scans = limits.maxCandidatesPerRoot * MaxGroupedDepth;
        for (qsizetype i = 0; i < queue.size() && scans > 0; ++i, --scans) {
            const Item item = queue.at(i);
            if (item.depth > 0 && hasSkillFile(item.dir))
                return true;
            if (item.depth >= MaxGroupedDepth)
                continue;
            QStringList dirs = childDirectories(item.dir, limit, false).dirs;
            std::sort(dirs.begin(), dirs.end());
            const QDir here(item.dir);
            for (const QString &name :
                 here.entryList(QDir::System | QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot)) {
                if (item.depth == 0 && name == QStringView(Skills))
                    continue;
                if (!name.startsWith(QLatin1Char('.')) && name != QLatin1String("node_modules")
                    && isSymlink(joined(item.dir, name)))
                    return true;
            }
            for (const QString &name : dirs.mid(0, limits.maxCandidatesPerRoot)) {
                if (item.depth == 0 && name == QStringView(Skills))
                    continue;
                queue.append({joined(item.dir, name), item.depth + 1});
            }
        }
        return false;
    }

    // A root holding a `skills` folder of skills may be a checkout whose
    // skills live one level down.
    QString nestedRoot(const QString &dir)
    {
        const QString nested = joined(dir, QString::fromUtf16(Skills));
        if (!isDirectory(nested))
            return dir;
        if (!hasSkillFile(dir) && containsSkillBelow(dir))
            return dir;
        QList<QPair<QString, int>> queue{{nested, 0}};
        const qsizetype limit = rawEntryLimit(limits.maxCandidatesPerRoot);
        for (qsizetype i = 0; i < queue.size() && i < limits.maxCandidatesPerRoot * MaxGroupedDepth;
             ++i) {
            const auto item = queue.at(i);
            if (hasSkillFile(item.first))
                return nested;
            if (item.second >= MaxGroupedDepth)
                continue;
            QStringList dirs = childDirectories(item.first, limit, false).dirs;
            std::sort(dirs.begin(), dirs.end());
            for (const QString &name : dirs.mid(0, limits.maxCandidatesPerRoot))
                queue.append({joined(item.first, name), item.second + 1});
        }
        return dir;
    }

    struct Found
    {
        QList<Candidate> candidates;
        std::optional<Candidate> rootCandidate;
        bool rootIsSkill = false;
    };

    Found discover(const Root &root)
    {
        Found out;
        const QString rootDir = QDir::cleanPath(root.dir);
        const QString rootReal = realPath(rootDir);
        if (rootReal.isEmpty())
            return out;
        const QString baseDir = nestedRoot(rootDir);
        const QString baseReal = contained(root.source, rootReal, baseDir);
        if (baseReal.isEmpty())
            return out;
        if (hasSkillFile(baseDir)) {
            out.rootIsSkill = true;
            if (skillFileAccepted(root.source, baseDir, baseReal))
                out.candidates.append({baseDir, baseReal, QFileInfo(baseDir).fileName(), {}, {}});
            return out;
        }
        const qsizetype maxCandidates = qMax<qsizetype>(0, limits.maxCandidatesPerRoot);
        const qsizetype rawLimit = rawEntryLimit(maxCandidates);
        const QString nestedSkillsPath = joined(baseDir, QString::fromUtf16(Skills));
        const bool baseIsNested = baseDir == joined(rootDir, QString::fromUtf16(Skills));
        const bool baseLooksLikeSkills = QFileInfo(baseDir).fileName() == QStringView(Skills);
        ChildScan scan = childDirectories(baseDir, rawLimit, true);
        QStringList children = scan.dirs;
        std::sort(children.begin(), children.end());
        if (scan.truncated || children.size() > maxCandidates) {
            lints.append({rootDir,
                          -1,
                          LintLevel::Warning,
                          QStringLiteral("skills-cut"),
                          QStringLiteral("%1 holds more folders than OpenClaw looks at (%2 "
                                         "entries listed, %3 skill folders); the rest are not "
                                         "skills to it.")
                              .arg(rootDir)
                              .arg(rawLimit)
                              .arg(maxCandidates)});
        }
        QStringList limited = limits.maxSkillsLoadedPerSource <= 0 ? QStringList()
                                                                   : children.mid(0, maxCandidates);
        if (limits.maxSkillsLoadedPerSource > 0 && children.contains(QString::fromUtf16(Skills))
            && !limited.contains(QString::fromUtf16(Skills)))
            limited.append(QString::fromUtf16(Skills));
        if (baseDir != rootDir && hasSkillFile(rootDir)
            && skillFileAccepted(root.source, rootDir, rootReal))
            out.rootCandidate = Candidate{rootDir, rootReal, QFileInfo(rootDir).fileName(), {}, {}};

        struct Item
        {
            QString dir;
            QString name;
            int depth;
        };
        QList<Item> queue;
        for (const QString &name : limited) {
            const QString dir = joined(baseDir, name);
            queue.append({dir, name, name == QStringView(Skills) && !hasSkillFile(dir) ? 0 : 1});
        }
        for (qsizetype i = 0; i < queue.size(); ++i) {
            const Item item = queue.at(i);
            const QString real = contained(root.source, baseReal, item.dir);
            if (real.isEmpty())
                continue;
            if (hasSkillFile(item.dir)) {
                if (skillFileAccepted(root.source, item.dir, real))
                    out.candidates.append({item.dir, real, item.name, {}, {}});
                continue;
            }
            const bool shallow = root.source == QLatin1String("openclaw-extra") && !baseIsNested
                                 && !baseLooksLikeSkills && item.dir != nestedSkillsPath
                                 && !isInside(nestedSkillsPath, item.dir);
            if (item.depth >= (shallow ? MaxExtraRootGroupedDepth : MaxGroupedDepth))
                continue;
            QStringList nested = childDirectories(item.dir, rawLimit, true).dirs;
            std::sort(nested.begin(), nested.end());
            for (const QString &name : nested.mid(0, maxCandidates))
                queue.append(
                    {joined(item.dir, name), item.name + QLatin1Char('/') + name, item.depth + 1});
        }
        std::stable_sort(out.candidates.begin(),
                         out.candidates.end(),
                         [](const Candidate &a, const Candidate &b) {
                             return englishCollator().compare(a.name, b.name) < 0;
                         });
        return out;
    }
};

// The skills OpenClaw lists from <state dir>/plugin-skills: the links it
// makes there to the enabled plugins' skills, by name, as far as its limits
// go. soulc makes no link: each skill is read from the plugin and named by
// the link's path. A folder or file of a link's name that is not a link
// stays, and OpenClaw lists nothing through it.
Discovery::Found pluginLinkCandidates(const QString &linksDir,
                                      const QList<PluginSkillLink> &links,
                                      const Limits &limits,
                                      QList<Lint> &lints)
{
    Discovery::Found out;
    if (limits.maxSkillsLoadedPerSource <= 0)
        return out;
    QHash<QString, const PluginSkillLink *> byName;
    for (const PluginSkillLink &link : links)
        byName.insert(link.name, &link);
    QStringList names = byName.keys();
    for (const QString &name :
         childDirectories(linksDir, rawEntryLimit(limits.maxCandidatesPerRoot), false).dirs) {
        if (!byName.contains(name))
            names.append(name);
    }
    std::sort(names.begin(), names.end());
    for (const QString &name : names.mid(0, qMax<qsizetype>(0, limits.maxCandidatesPerRoot))) {
        const auto link = byName.constFind(name);
        if (link == byName.cend())
            continue;
        const QString path = joined(linksDir, name);
        if (lexists(path) && !isSymlink(path)) {
            lints.append({path,
                          -1,
                          LintLevel::Warning,
                          QStringLiteral("plugin-skill-blocked"),
                          QStringLiteral("%1 is not a link OpenClaw made, so OpenClaw leaves it "
                                         "and does not list the skill '%2' of the plugin %3 "
                                         "through it.")
                              .arg(path, name, (*link)->pluginId)});
            continue;
        }
        out.candidates.append(
            {path, realPath((*link)->target), name, (*link)->target, (*link)->pluginId});
    }
    return out;
}

struct Metadata
{
    bool has = false;
    std::optional<bool> always;
    QString skillKey;
    QString primaryEnv;
    QStringList os;
    bool hasRequires = false;
    QStringList bins, anyBins, env, config;
};

Metadata metadataOf(const QHash<QString, QString> &fields)
{
    Metadata out;
    const auto raw = fields.constFind(QStringLiteral("metadata"));
    if (raw == fields.cend() || raw->isEmpty())
        return out;
    const std::optional<Json5Document> doc = parseJson5(*raw);
    if (!doc || !doc->value.isObject())
        return out;
    QJsonValue block;
    for (const char *key : {"openclaw", "clawdbot"}) {
        const QJsonValue candidate = doc->value.toObject().value(QLatin1String(key));
        if (candidate.isObject() || candidate.isArray()) {
            block = candidate;
            break;
        }
    }
    if (!block.isObject())
        return out;
    const QJsonObject object = block.toObject();
    out.has = true;
    if (object.value(QLatin1String("always")).isBool())
        out.always = object.value(QLatin1String("always")).toBool();
    const QJsonValue skillKey = object.value(QLatin1String("skillKey"));
    if (skillKey.isString() && !jsTrimmed(skillKey.toString()).isEmpty())
        out.skillKey = skillKey.toString();
    if (object.value(QLatin1String("primaryEnv")).isString())
        out.primaryEnv = object.value(QLatin1String("primaryEnv")).toString();
    out.os = looseList(object.value(QLatin1String("os")));
    const QJsonValue requires = object.value(QLatin1String("requires"));
    if (requires.isObject()) {
        const QJsonObject r = requires.toObject();
        out.hasRequires = true;
        out.bins = looseList(r.value(QLatin1String("bins")));
        out.anyBins = looseList(r.value(QLatin1String("anyBins")));
        out.env = looseList(r.value(QLatin1String("env")));
        out.config = looseList(r.value(QLatin1String("config")));
    }
    return out;
}

std::optional<bool> booleanText(const QString &text)
{
    const QString value = jsTrimmed(text).toString().toLower();
    if (value == QLatin1String("true") || value == QLatin1String("1")
        || value == QLatin1String("yes") || value == QLatin1String("on"))
        return true;
    if (value == QLatin1String("false") || value == QLatin1String("0")
        || value == QLatin1String("no") || value == QLatin1String("off"))
        return false;
    return std::nullopt;
}

struct Loaded
{
    SkillItem item;
    QHash<QString, QString> fields;
    Metadata metadata;
    bool hidden = false; // disable-model-invocation
    QString canonicalPath;
};

QString escapeXml(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '&':
            out += QLatin1String("&amp;");
            break;
        case '<':
            out += QLatin1String("&lt;");
            break;
        case '>':
            out += QLatin1String("&gt;");
            break;
        case '"':
            out += QLatin1String("&quot;");
            break;
        case '\'':
            out += QLatin1String("&apos;");
            break;
        default:
            out += c;
        }
    }
    return out;
}

QString collapsedDescription(const QString &description)
{
    QString out;
    out.reserve(description.size());
    bool space = false;
    for (const QChar c : description) {
        if (isJsWhiteSpace(c.unicode())) {
            space = true;
            continue;
        }
        // A run of whitespace is one space; none before the first character.
        if (space && !out.isEmpty())
            out += QLatin1Char(' ');
        space = false;
        out += c;
    }
    return out;
}

QString shortenedDescription(const QString &collapsed, int maxChars)
{
    if (collapsed.size() <= maxChars)
        return collapsed;
    if (maxChars <= 3)
        return safeHead(collapsed, maxChars).toString();
    return jsTrimmedEnd(safeHead(collapsed, maxChars - 3)).toString() + QStringLiteral("...");
}

struct PromptSkill
{
    QString name;
    QString description;
    QString collapsed;
    QString location;
};

// One <skill> block with the newline before it; `descriptionMax` -1: full,
// 0: without description, else shortened.
QString skillBlock(const PromptSkill &skill, int descriptionMax)
{
    QString out = QStringLiteral("\n  <skill>\n    <name>") + escapeXml(skill.name)
                  + QStringLiteral("</name>");
    if (descriptionMax < 0) {
        out += QStringLiteral("\n    <description>") + escapeXml(skill.description)
               + QStringLiteral("</description>");
    } else if (descriptionMax > 0) {
        const QString shortened = shortenedDescription(skill.collapsed, descriptionMax);
        if (!shortened.isEmpty())
            out += QStringLiteral("\n    <description>") + escapeXml(shortened)
                   + QStringLiteral("</description>");
    }
    out += QStringLiteral("\n    <location>") + escapeXml(skill.location)
           + QStringLiteral("</location>\n  </skill>");
    return out;
}

QString catalog(const QList<PromptSkill> &skills, qsizetype count, int descriptionMax)
{
    if (count == 0)
        return {};
    const QString instruction
        = descriptionMax < 0
              ? QStringLiteral("Read a skill's file at its listed location when the task matches "
                               "its description.")
          : descriptionMax > 0 ? QStringLiteral("Read a skill's file at its listed location when "
                                                "the task matches its name or description.")
                               : QStringLiteral("Read a skill's file at its listed location when "
                                                "the task matches its name.");
    QString out = QStringLiteral(
                      "\n\nThe following skills provide specialized instructions for specific "
                      "tasks.\n")
                  + instruction
                  + QStringLiteral(
                      "\nWhen a skill file references a relative path, resolve it against the "
                      "skill directory (parent of SKILL.md / dirname of the path) and use that "
                      "absolute path in tool commands.\n\n<available_skills>");
    for (qsizetype i = 0; i < count; ++i)
        out += skillBlock(skills.at(i), descriptionMax);
    return out + QStringLiteral("\n</available_skills>");
}

QString limitNote(qsizetype included, qsizetype total, int descriptionMax)
{
    const bool compact = descriptionMax >= 0;
    const QString kind = descriptionMax > 0 ? QStringLiteral("descriptions shortened")
                                            : QStringLiteral("descriptions omitted");
    if (included < total) {
        return QStringLiteral("\u26A0\uFE0F Skills truncated: included %1 of %2%3. Run "
                              "`openclaw skills check` to audit.")
            .arg(included)
            .arg(total)
            .arg(compact ? QStringLiteral(" (compact format, %1)").arg(kind) : QString());
    }
    if (compact)
        return QStringLiteral("\u26A0\uFE0F Skills catalog using compact format (%1). Run "
                              "`openclaw skills check` to audit.")
            .arg(kind);
    return {};
}

struct Budget
{
    const QList<PromptSkill> &skills;
    qsizetype total;
    qsizetype maxChars;

    QString render(qsizetype count, int descriptionMax, bool note) const
    {
        const QString head = note ? limitNote(count, total, descriptionMax) : QString();
        const QString body = catalog(skills, count, descriptionMax);
        if (head.isEmpty())
            return body;
        if (body.isEmpty())
            return head;
        return head + QLatin1Char('\n') + body;
    }
    std::optional<QString> within(qsizetype count, int descriptionMax, bool note = true) const
    {
        QString prompt = render(count, descriptionMax, note);
        if (prompt.size() <= maxChars)
            return prompt;
        return std::nullopt;
    }
    bool fitsCompact(qsizetype count, int descriptionMax, bool note = true) const
    {
        return within(count, descriptionMax, note).has_value();
    }
};

struct Prepared
{
    QString prompt;
    qsizetype count = 0;
    bool compact = false;
    int descriptionMax = -1;
};

// OpenClaw's fitting of the list into its character budget: the full list
// when it fits; else the longest prefix that fits without descriptions,
// then the longest descriptions (4 to 220 characters) that still fit.
Prepared prepare(const QList<PromptSkill> &ordered, qsizetype maxCount, qsizetype maxChars)
{
    const qsizetype total = ordered.size();
    const qsizetype byCount = qMin(total, qMax<qsizetype>(0, maxCount));
    const Budget budget{ordered, total, maxChars};
    if (const auto full = budget.within(byCount, -1))
        return {*full, byCount, false, -1};
    qsizetype count = byCount;
    if (!budget.fitsCompact(count, 0)) {
        qsizetype lo = 0;
        qsizetype hi = count;
        while (lo < hi) {
            const qsizetype mid = (lo + hi + 1) / 2;
            if (budget.fitsCompact(mid, 0))
                lo = mid;
            else
                hi = mid - 1;
        }
        count = lo;
    }
    if (count == 0 && byCount > 0) {
        if (const auto bare = budget.within(byCount, -1, false))
            return {*bare, byCount, false, -1};
        qsizetype lo = 0;
        qsizetype hi = byCount;
        while (lo < hi) {
            const qsizetype mid = (lo + hi + 1) / 2;
            if (budget.fitsCompact(mid, 0, false))
                lo = mid;
            else
                hi = mid - 1;
        }
        if (lo > 0)
            count = lo;
    }
    const bool note = budget.fitsCompact(count, 0);
    int descriptionMax = 0;
    constexpr int MinDescription = 4;
    constexpr int MaxDescription = 220;
    if (count > 0 && budget.fitsCompact(count, MinDescription, note)) {
        int lo = MinDescription;
        int hi = MaxDescription;
        while (lo < hi) {
            const int mid = (lo + hi + 1) / 2;
            if (budget.fitsCompact(count, mid, note))
                lo = mid;
            else
                hi = mid - 1;
        }
        descriptionMax = lo;
    }
    const QString prompt = budget.within(count, descriptionMax, note).value_or(QString());
    return {prompt, prompt.isEmpty() ? 0 : count, true, descriptionMax};
}

bool blockedKey(const QString &key)
{
    return key == QLatin1String("__proto__") || key == QLatin1String("prototype")
           || key == QLatin1String("constructor");
}

bool configPathTruthy(const QJsonObject &root, const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    QJsonValue current = root;
    bool blocked = false;
    bool missing = false;
    for (const QString &part : parts) {
        if (blockedKey(part))
            blocked = true;
        if (blocked || !current.isObject()) {
            missing = true;
            break;
        }
        const QJsonObject object = current.toObject();
        if (!object.contains(part)) {
            missing = true;
            break;
        }
        current = object.value(part);
    }
    if (missing || current.isUndefined()) {
        if (!blocked
            && (path == QLatin1String("browser.enabled")
                || path == QLatin1String("browser.evaluateEnabled")))
            return true;
        return false;
    }
    if (current.isNull())
        return false;
    if (current.isBool())
        return current.toBool();
    if (current.isDouble())
        return current.toDouble() != 0;
    if (current.isString())
        return !jsTrimmed(current.toString()).isEmpty();
    return true;
}

struct Host
{
    QStringList pathParts;
    QString workingDirectory;
    QHash<QString, bool> bins;

    bool hasBin(const QString &bin)
    {
        const auto found = bins.constFind(bin);
        if (found != bins.cend())
            return *found;
        bool ok = false;
        for (const QString &part : pathParts) {
            QString candidate = QDir::cleanPath(part + QLatin1Char('/') + bin);
            if (QDir::isRelativePath(candidate))
                candidate = QDir::cleanPath(workingDirectory + QLatin1Char('/') + candidate);
            if (::access(QFile::encodeName(candidate).constData(), X_OK) == 0) {
                ok = true;
                break;
            }
        }
        bins.insert(bin, ok);
        return ok;
    }
};

QString normalizedPath(const QString &path)
{
    return QDir::cleanPath(path);
}

Lint skillLint(const QString &file, LintLevel level, const char *code, const QString &message)
{
    return {file, -1, level, QLatin1String(code), message};
}

// Hidden comments and invisible or bidirectional characters in what the
// model reads of a skill.
void scanText(const QString &file, const QString &what, const QString &text, QList<Lint> &lints)
{
    if (text.contains(QLatin1String("<!--"))) {
        lints.append(skillLint(file,
                               LintLevel::Warning,
                               "skill-comment",
                               QStringLiteral("%1 of %2 holds an HTML comment (<!-- -->): the "
                                              "model reads it, a rendered page hides it.")
                                   .arg(what, file)));
    }
    static const QSet<char32_t> invisible = [] {
        QSet<char32_t> set;
        for (const char32_t c : hermesInvisibleCharacters())
            set.insert(c);
        for (char32_t c = 0x202A; c <= 0x202E; ++c)
            set.insert(c);
        for (char32_t c = 0x2066; c <= 0x2069; ++c)
            set.insert(c);
        set.insert(0x200E);
        set.insert(0x200F);
        return set;
    }();
    for (qsizetype i = 0; i < text.size(); ++i) {
        char32_t c = text.at(i).unicode();
        if (text.at(i).isHighSurrogate() && i + 1 < text.size())
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
        if (!invisible.contains(c) && !(c == 0xFEFF && i > 0))
            continue;
        lints.append(skillLint(file,
                               LintLevel::Warning,
                               "skill-invisible",
                               QStringLiteral("%1 of %2 holds an invisible or bidirectional "
                                              "character (U+%3) at offset %4: the model reads "
                                              "what a reviewer cannot see.")
                                   .arg(what, file)
                                   .arg(uint(c), 4, 16, QLatin1Char('0'))
                                   .arg(i)));
        return;
    }
}

} // namespace

QString openClawBundledSkillsDir(const OpenClawPaths &paths, QString *how)
{
    const QString override = paths.variable("OPENCLAW_BUNDLED_SKILLS_DIR");
    if (!override.isEmpty()) {
        if (how)
            *how = QStringLiteral("OPENCLAW_BUNDLED_SKILLS_DIR");
        return override;
    }
    // The installed package: its `openclaw` command on PATH is a link into
    // the package, whose skills/ folder OpenClaw finds beside itself.
    const QString pathVariable = paths.environment.value(QStringLiteral("PATH"));
    for (const QString &part : pathVariable.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        const QString command = QDir::cleanPath(part + QStringLiteral("/openclaw"));
        if (::access(QFile::encodeName(command).constData(), X_OK) != 0)
            continue;
        QDir dir = QFileInfo(realPath(command)).dir();
        for (int depth = 0; depth < 4; ++depth) {
            const QString skills = dir.filePath(QStringLiteral("skills"));
            if (QFileInfo::exists(dir.filePath(QStringLiteral("package.json")))
                && isDirectory(skills)) {
                if (how)
                    *how = QStringLiteral("the openclaw package on PATH (%1)").arg(command);
                return skills;
            }
            if (!dir.cdUp())
                break;
        }
        break;
    }
    if (how)
        *how = QStringLiteral("none");
    return {};
}

SkillsList openClawSkills(const SkillsInput &input)
{
    SkillsList out;
    // OpenClaw's defaults, which its config's skills.limits may change.
    out.maxChars = 18000;
    out.maxCount = 150;
    const QJsonObject config = input.config ? input.config->root : QJsonObject();
    Limits limits;
    limits.maxCandidatesPerRoot = numberOr(at(config, {"skills", "limits", "maxCandidatesPerRoot"}),
                                           DefaultMaxCandidatesPerRoot);
    limits.maxSkillsLoadedPerSource = numberOr(at(config,
                                                  {"skills", "limits", "maxSkillsLoadedPerSource"}),
                                               DefaultMaxSkillsLoadedPerSource);
    limits.maxSkillFileBytes = numberOr(at(config, {"skills", "limits", "maxSkillFileBytes"}),
                                        DefaultMaxSkillFileBytes);

    const OpenClawPaths &paths = input.paths;
    const QString stateDir = paths.stateDir();
    QString home = paths.environment.value(QStringLiteral("HOME")).trimmed();
    if (home.isEmpty() || home == QLatin1String("undefined") || home == QLatin1String("null"))
        home = paths.environment.value(QStringLiteral("USERPROFILE")).trimmed();
    if (home.isEmpty())
        home = paths.accountHome;
    if (!home.isEmpty())
        home = QDir::cleanPath(QDir(paths.workingDirectory).absoluteFilePath(home));

    out.bundledDir = openClawBundledSkillsDir(paths, &out.bundledHow);

    // The sources, by rising precedence.
    QList<Root> roots;
    for (const QString &dir : stringEntries(at(config, {"skills", "load", "extraDirs"})))
        roots.append(
            {paths.userPath(dir), QStringLiteral("openclaw-extra"), QString(), true, false});
    const QString workspace = QDir::cleanPath(
        QDir(paths.workingDirectory).absoluteFilePath(input.workspaceDir));
    // Enabled plugins' skills folders count as extra folders; OpenClaw then
    // lists them again through its links, which win.
    const PluginSkills plugins = openClawPluginSkills(paths, config, workspace);
    out.lints += plugins.lints;
    if (plugins.enabled) {
        out.plugins = plugins.activePlugins;
        out.pluginsDir = plugins.pluginsDir;
        out.pluginsHow = plugins.known ? plugins.how : QStringLiteral("unknown: ") + plugins.how;
    }
    for (const PluginSkillRoot &root : plugins.roots)
        roots.append({root.dir, QStringLiteral("openclaw-extra"), root.pluginId, false, false});
    if (!plugins.links.isEmpty())
        roots.append({joined(stateDir, QStringLiteral("plugin-skills")),
                      QStringLiteral("openclaw-extra"),
                      QString(),
                      false,
                      true});
    if (!out.bundledDir.isEmpty())
        roots.append({QDir(paths.workingDirectory).absoluteFilePath(out.bundledDir),
                      QStringLiteral("openclaw-bundled"),
                      QString(),
                      false,
                      false});
    roots.append({joined(stateDir, QString::fromUtf16(Skills)),
                  QStringLiteral("openclaw-managed"),
                  QString(),
                  true,
                  false});
    const QString stateOverride = paths.variable("OPENCLAW_STATE_DIR");
    const bool defaultState = stateOverride.isEmpty()
                              || QDir::cleanPath(paths.userPath(stateOverride))
                                     == joined(paths.home(), QStringLiteral(".openclaw"));
    if (defaultState && !home.isEmpty())
        roots.append({joined(home, QStringLiteral(".agents/skills")),
                      QStringLiteral("agents-skills-personal"),
                      QString(),
                      true,
                      false});
    roots.append({joined(workspace, QStringLiteral(".agents/skills")),
                  QStringLiteral("agents-skills-project"),
                  QString(),
                  true,
                  false});
    roots.append({joined(workspace, QString::fromUtf16(Skills)),
                  QStringLiteral("openclaw-workspace"),
                  QString(),
                  true,
                  false});

    QStringList allowedTargets;
    for (const QString &dir : stringEntries(at(config, {"skills", "load", "allowSymlinkTargets"}))) {
        const QString real = realPath(paths.userPath(dir));
        if (!real.isEmpty() && !allowedTargets.contains(real))
            allowedTargets.append(real);
    }
    Discovery discovery{limits, allowedTargets, out.lints};

    GuardedFile guard;
    guard.what = QStringLiteral("The skill file");
    guard.kind = QStringLiteral("a SKILL.md file");
    guard.limitOwner = QStringLiteral("OpenClaw");
    guard.maxBytes = limits.maxSkillFileBytes;

    QList<Loaded> all;
    for (const Root &root : std::as_const(roots)) {
        const Discovery::Found found
            = root.pluginLinks ? pluginLinkCandidates(root.dir, plugins.links, limits, out.lints)
                               : discovery.discover(root);
        const auto load = [&](const Candidate &candidate) -> bool {
            Loaded loaded;
            SkillItem &item = loaded.item;
            item.source = root.source;
            item.plugin = candidate.plugin.isEmpty() ? root.plugin : candidate.plugin;
            const QString file = joined(candidate.readDir.isEmpty() ? candidate.skillDir
                                                                    : candidate.readDir,
                                        QStringLiteral("SKILL.md"));
            const QString canonicalDir = enforcesContainment(root.source) ? candidate.skillDir
                                                                          : candidate.skillDirReal;
            item.filePath = joined(canonicalDir, QStringLiteral("SKILL.md"));
            const QString real = realPath(file);
            loaded.canonicalPath = real.isEmpty() ? item.filePath : real;
            item.name = QFileInfo(candidate.skillDir).fileName();
            QByteArray bytes;
            const auto buffer = input.buffers.constFind(item.filePath);
            const auto realBuffer = real.isEmpty() ? input.buffers.cend()
                                                   : input.buffers.constFind(real);
            if (buffer != input.buffers.cend() || realBuffer != input.buffers.cend()) {
                bytes = buffer != input.buffers.cend() ? *buffer : *realBuffer;
                if (bytes.size() > limits.maxSkillFileBytes) {
                    item.problem = QStringLiteral(
                                       "%1 is over OpenClaw's %2 bytes for a skill file.")
                                       .arg(file)
                                       .arg(limits.maxSkillFileBytes);
                }
            } else {
                if (real.isEmpty()) {
                    if (isSymlink(file))
                        item.problem = QStringLiteral("%1 is a link to nothing.").arg(file);
                    else
                        return false; // gone since it was listed
                } else {
                    struct stat st
                    {};
                    const bool statted = ::stat(QFile::encodeName(real).constData(), &st) == 0;
                    if (statted && S_ISREG(st.st_mode) && st.st_nlink > 1 && root.rejectHardlinks) {
                        item.problem = QStringLiteral("%1 has other hard links; OpenClaw refuses "
                                                      "a hard-linked skill file.")
                                           .arg(file);
                    } else {
                        const Result<QByteArray> read = readGuardedFile(file, guard);
                        if (read.ok())
                            bytes = read.value();
                        else
                            item.problem = read.error();
                    }
                }
            }
            if (item.problem.isEmpty()) {
                qsizetype replaced = 0;
                const QString text = utf8::decode(bytes, &replaced);
                if (replaced > 0)
                    item.lints.append(skillLint(file,
                                                LintLevel::Warning,
                                                "skill-utf8",
                                                QStringLiteral("%1 is not valid UTF-8: OpenClaw "
                                                               "reads %2 U+FFFD in its place.")
                                                    .arg(file)
                                                    .arg(replaced)));
                const SkillFrontmatter fm = readSkillFrontmatter(text);
                if (!fm.error.isEmpty()) {
                    item.problem = QStringLiteral("%1:%2:%3: %4; OpenClaw skips the skill.")
                                       .arg(file)
                                       .arg(fm.line)
                                       .arg(fm.column)
                                       .arg(fm.error);
                } else {
                    loaded.fields = fm.fields;
                    const QString name
                        = jsTrimmed(fm.fields.value(QStringLiteral("name"))).toString();
                    const QString fallback
                        = jsTrimmed(QFileInfo(candidate.skillDir).fileName()).toString();
                    item.name = name.isEmpty() ? fallback : name;
                    item.description
                        = jsTrimmed(fm.fields.value(QStringLiteral("description"))).toString();
                    if (item.name.isEmpty())
                        item.problem = QStringLiteral("%1 has no name.").arg(file);
                    else if (item.description.isEmpty())
                        item.problem = QStringLiteral("%1 has no description; OpenClaw skips "
                                                      "a skill without one.")
                                           .arg(file);
                    if (name.isEmpty() && !item.name.isEmpty())
                        item.lints.append(skillLint(file,
                                                    LintLevel::Info,
                                                    "skill-no-name",
                                                    QStringLiteral("%1 has no name in its "
                                                                   "frontmatter; OpenClaw names "
                                                                   "it after its folder, '%2'.")
                                                        .arg(file, item.name)));
                    if (item.name.size() > MaxNameChars)
                        item.lints.append(
                            skillLint(file,
                                      LintLevel::Warning,
                                      "skill-long-name",
                                      QStringLiteral(
                                          "The name in %1 has %2 characters; skills keep "
                                          "names to %3.")
                                          .arg(file)
                                          .arg(item.name.size())
                                          .arg(MaxNameChars)));
                    if (item.description.size() > MaxDescriptionChars)
                        item.lints.append(
                            skillLint(file,
                                      LintLevel::Warning,
                                      "skill-long-description",
                                      QStringLiteral(
                                          "The description in %1 has %2 characters; skills "
                                          "keep descriptions to %3.")
                                          .arg(file)
                                          .arg(item.description.size())
                                          .arg(MaxDescriptionChars)));
                    scanText(file, QStringLiteral("The description"), item.description, item.lints);
                    scanText(file, QStringLiteral("The text"), skillBody(text), item.lints);
                    loaded.metadata = metadataOf(fm.fields);
                    const std::optional<bool> hidden = booleanText(
                        fm.fields.value(QStringLiteral("disable-model-invocation")));
                    loaded.hidden = hidden.value_or(false);
                }
            }
            item.loaded = item.problem.isEmpty();
            if (!item.loaded)
                item.lints.append(skillLint(file, LintLevel::Error, "skill-invalid", item.problem));
            all.append(loaded);
            return item.loaded;
        };
        if (found.rootCandidate && load(*found.rootCandidate))
            continue;
        qsizetype count = 0;
        for (const Candidate &candidate : found.candidates) {
            if (!found.rootIsSkill && count >= qMax<qsizetype>(0, limits.maxSkillsLoadedPerSource)) {
                out.lints.append({root.dir,
                                  -1,
                                  LintLevel::Warning,
                                  QStringLiteral("skills-cut"),
                                  QStringLiteral("OpenClaw loads at most %1 skills from %2; "
                                                 "the rest are not read.")
                                      .arg(limits.maxSkillsLoadedPerSource)
                                      .arg(root.dir)});
                break;
            }
            if (load(candidate))
                ++count;
        }
    }

    // Precedence: a later source's skill of the same name wins.
    QHash<QString, qsizetype> winners;
    for (qsizetype i = 0; i < all.size(); ++i) {
        Loaded &entry = all[i];
        if (!entry.item.loaded)
            continue;
        const auto previous = winners.constFind(entry.item.name);
        if (previous != winners.cend()) {
            Loaded &loser = all[*previous];
            loser.item.winner = false;
            loser.item.shadowedBy = entry.item.source + QLatin1Char(':') + entry.item.filePath;
            if (normalizedPath(loser.canonicalPath) != normalizedPath(entry.canonicalPath))
                loser.item.lints.append(
                    skillLint(loser.item.filePath,
                              LintLevel::Warning,
                              "skill-shadowed",
                              QStringLiteral(
                                  "The skill '%1' of %2 (%3) is replaced by the one of %4 "
                                  "(%5), which comes later in OpenClaw's order.")
                                  .arg(loser.item.name,
                                       loser.item.source,
                                       loser.item.filePath,
                                       entry.item.source,
                                       entry.item.filePath)));
        }
        winners.insert(entry.item.name, i);
    }
    QList<qsizetype> winning;
    for (auto it = winners.cbegin(); it != winners.cend(); ++it)
        winning.append(it.value());
    std::stable_sort(winning.begin(), winning.end(), [&](qsizetype a, qsizetype b) {
        return englishCollator().compare(all.at(a).item.name, all.at(b).item.name) < 0;
    });

    // Eligibility.
    const QJsonValue allowBundledValue = at(config, {"skills", "allowBundled"});
    const QStringList allowBundled = stringEntries(allowBundledValue);
    const QJsonObject entries = at(config, {"skills", "entries"}).toObject();
    std::optional<QStringList> agentFilter;
    if (input.config && !input.agentId.isEmpty()) {
        const QString wanted = normalizeAgentId(input.agentId);
        QJsonObject agentEntry;
        bool foundAgent = false;
        for (const QJsonValue &agent : at(config, {"agents", "list"}).toArray()) {
            const QJsonObject object = agent.toObject();
            if (agent.isObject() && object.value(QLatin1String("id")).isString()
                && normalizeAgentId(object.value(QLatin1String("id")).toString()) == wanted) {
                agentEntry = object;
                foundAgent = true;
                break;
            }
        }
        if (foundAgent && agentEntry.contains(QLatin1String("skills"))) {
            agentFilter = stringEntries(agentEntry.value(QLatin1String("skills")));
        } else {
            const QJsonValue defaults = at(config, {"agents", "defaults", "skills"});
            if (!defaults.isUndefined() && !defaults.isNull())
                agentFilter = stringEntries(defaults);
        }
        if (foundAgent && agentEntry.value(QLatin1String("skillsLimits")).isObject()) {
            const QJsonValue chars = agentEntry.value(QLatin1String("skillsLimits"))
                                         .toObject()
                                         .value(QLatin1String("maxSkillsPromptChars"));
            if (chars.isDouble())
                out.maxChars = qsizetype(chars.toDouble());
            else
                out.maxChars = numberOr(at(config, {"skills", "limits", "maxSkillsPromptChars"}),
                                        out.maxChars);
        } else {
            out.maxChars = numberOr(at(config, {"skills", "limits", "maxSkillsPromptChars"}),
                                    out.maxChars);
        }
    } else {
        out.maxChars = numberOr(at(config, {"skills", "limits", "maxSkillsPromptChars"}),
                                out.maxChars);
    }
    out.maxCount = numberOr(at(config, {"skills", "limits", "maxSkillsInPrompt"}), out.maxCount);

    Host host;
    host.pathParts = paths.environment.value(QStringLiteral("PATH"))
                         .split(QLatin1Char(':'), Qt::SkipEmptyParts);
    host.workingDirectory = paths.workingDirectory;

    QList<qsizetype> listed;
    for (const qsizetype index : std::as_const(winning)) {
        Loaded &entry = all[index];
        SkillItem &item = entry.item;
        const Metadata &meta = entry.metadata;
        const QString key = meta.skillKey.isEmpty() ? item.name : meta.skillKey;
        const QJsonValue skillConfigValue = entries.value(key);
        const QJsonObject skillConfig = skillConfigValue.toObject();
        const bool isBundled = item.source == QLatin1String("openclaw-bundled");
        QString why;
        if (skillConfigValue.isObject()
            && skillConfig.value(QLatin1String("enabled")) == QJsonValue(false)) {
            why = QStringLiteral("disabled in the config (skills.entries.%1.enabled is false)")
                      .arg(key);
        } else if (isBundled && !allowBundled.isEmpty() && !allowBundled.contains(key)
                   && !allowBundled.contains(item.name)) {
            why = QStringLiteral("bundled and not in skills.allowBundled");
        } else if (!meta.os.isEmpty() && !meta.os.contains(input.platform)) {
            why = QStringLiteral("for %1 only, not %2")
                      .arg(meta.os.join(QStringLiteral(", ")), input.platform);
        } else if (meta.always != std::optional<bool>(true) && meta.hasRequires) {
            for (const QString &name : meta.env) {
                const bool set
                    = !jsTrimmed(paths.environment.value(name)).isEmpty()
                      || !jsTrimmed(skillConfig.value(QLatin1String("env"))
                                        .toObject()
                                        .value(name)
                                        .toString())
                              .isEmpty()
                      || (meta.primaryEnv == name
                          && ((skillConfig.value(QLatin1String("apiKey")).isString()
                               && !jsTrimmed(skillConfig.value(QLatin1String("apiKey")).toString())
                                       .isEmpty())
                              || skillConfig.value(QLatin1String("apiKey")).isObject()));
                if (!set) {
                    why = QStringLiteral("needs the environment variable %1").arg(name);
                    break;
                }
            }
            for (const QString &path : meta.config) {
                if (why.isEmpty() && !configPathTruthy(config, path))
                    why = QStringLiteral("needs %1 set in the config").arg(path);
            }
            for (const QString &bin : meta.bins) {
                if (why.isEmpty() && !host.hasBin(bin))
                    why = QStringLiteral("needs the command %1 on PATH").arg(bin);
            }
            if (why.isEmpty() && !meta.anyBins.isEmpty()) {
                bool any = false;
                for (const QString &bin : meta.anyBins)
                    any = any || host.hasBin(bin);
                if (!any)
                    why = QStringLiteral("needs one of the commands %1 on PATH")
                              .arg(meta.anyBins.join(QStringLiteral(", ")));
            }
        }
        if (why.isEmpty() && agentFilter && !agentFilter->contains(item.name))
            why = QStringLiteral("not in the agent's skills list");
        if (why.isEmpty() && entry.hidden)
            why = QStringLiteral("hidden from the model (disable-model-invocation)");
        item.eligible = why.isEmpty();
        item.whyNot = why;
        if (!why.isEmpty()) {
            item.lints.append(skillLint(item.filePath,
                                        LintLevel::Warning,
                                        "skill-unlisted",
                                        QStringLiteral("OpenClaw leaves the skill '%1' out of "
                                                       "the prompt: %2.")
                                            .arg(item.name, why)));
            continue;
        }
        listed.append(index);
    }

    // Paths under the home are written from ~/, as OpenClaw shortens them.
    QStringList prefixes;
    if (!home.isEmpty()) {
        prefixes.append(home);
        const QString real = realPath(home);
        if (!real.isEmpty() && !prefixes.contains(real))
            prefixes.append(real);
    }
    std::stable_sort(prefixes.begin(), prefixes.end(), [](const QString &a, const QString &b) {
        return a.size() > b.size();
    });
    for (QString &prefix : prefixes) {
        if (!prefix.endsWith(QLatin1Char('/')))
            prefix += QLatin1Char('/');
    }
    QStringList preserved{joined(stateDir, QString::fromUtf16(Skills)),
                          joined(stateDir, QStringLiteral("plugin-skills"))};
    for (const QString &dir : QStringList(preserved)) {
        const QString real = realPath(dir);
        if (!real.isEmpty() && !preserved.contains(real))
            preserved.append(real);
    }
    QList<PromptSkill> promptSkills;
    for (const qsizetype index : std::as_const(listed)) {
        SkillItem &item = all[index].item;
        QString location = item.filePath;
        bool keep = false;
        for (const QString &root : std::as_const(preserved))
            keep = keep || isInside(root, location);
        if (keep) {
            for (const QString &prefix : std::as_const(prefixes))
                keep = keep && !isInside(prefix.chopped(1), location);
        }
        if (!keep) {
            for (const QString &prefix : std::as_const(prefixes)) {
                if (location.startsWith(prefix)) {
                    location = QStringLiteral("~/") + location.mid(prefix.size());
                    break;
                }
            }
        }
        item.location = location;
        promptSkills.append(
            {item.name, item.description, collapsedDescription(item.description), location});
    }

    const Prepared prepared = prepare(promptSkills, out.maxCount, out.maxChars);
    out.prompt = prepared.prompt;
    out.listed = prepared.count;
    out.candidates = promptSkills.size();
    out.compact = prepared.compact;
    out.descriptionMaxChars = prepared.compact ? prepared.descriptionMax : -1;
    for (qsizetype k = 0; k < listed.size(); ++k) {
        SkillItem &item = all[listed.at(k)].item;
        if (k >= prepared.count) {
            item.fate = SkillFate::Dropped;
            item.lints.append(
                skillLint(item.filePath,
                          LintLevel::Warning,
                          "skill-dropped",
                          QStringLiteral(
                              "OpenClaw drops the skill '%1' from the prompt: the list is over "
                              "its budget (%2 characters, %3 skills).")
                              .arg(item.name)
                              .arg(out.maxChars)
                              .arg(out.maxCount)));
            continue;
        }
        const int cut = prepared.compact ? prepared.descriptionMax : -1;
        item.entry = skillBlock(promptSkills.at(k), cut);
        item.entryChars = item.entry.size();
        const bool shortened = prepared.compact
                               && (cut == 0
                                   || shortenedDescription(promptSkills.at(k).collapsed, cut)
                                          != item.description);
        item.fate = shortened ? SkillFate::Shortened : SkillFate::Kept;
        if (shortened)
            item.lints.append(skillLint(item.filePath,
                                        LintLevel::Info,
                                        "skill-shortened",
                                        cut == 0 ? QStringLiteral("OpenClaw lists the skill '%1' "
                                                                  "without its description: the "
                                                                  "list is over its budget.")
                                                       .arg(item.name)
                                                 : QStringLiteral("OpenClaw shortens the "
                                                                  "description of '%1' to %2 "
                                                                  "characters: the list is over "
                                                                  "its budget.")
                                                       .arg(item.name)
                                                       .arg(cut)));
    }
    for (const Loaded &entry : std::as_const(all))
        out.skills.append(entry.item);
    return out;
}

} // namespace soul
