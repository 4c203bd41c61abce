#include "hermesscan.h"

#include "hermestext.h"

#include <QRegularExpression>

#include <optional>
#include <utility>

namespace soul {

namespace {

// The scan looks at this many code points (MAX_SCAN_CHARS).
constexpr qsizetype MaxScanChars = 65536;

// The pieces tools/threat_patterns.py builds its patterns from.
constexpr char Filler[] = R"((?:\w+\s+){0,8})";
constexpr char SecretVar[] = R"(\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)S?\b)";
constexpr char Modify[] = R"((update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,2048})";

enum class Scope { All, Context, Strict };

struct Source
{
    QString python;
    const char *id;
    Scope scope;
};

// _PATTERNS at 0.21.3, in table order (docs/hermes-0.21.3.md, section 7).
QList<Source> sources()
{
    const QString f = QString::fromLatin1(Filler);
    const QString secret = QString::fromLatin1(SecretVar);
    const QString modify = QString::fromLatin1(Modify);
    const auto s = [](const char *text) { return QString::fromLatin1(text); };
    return {
        {s(R"(ignore\s+)") + f + s(R"((previous|all|above|prior)\s+)") + f + s("instructions"),
         "prompt_injection",
         Scope::All},
        {s(R"(system\s+prompt\s+override)"), "sys_prompt_override", Scope::All},
        {s(R"(disregard\s+)") + f + s(R"((your|all|any)\s+)") + f
             + s("(instructions|rules|guidelines)"),
         "disregard_rules",
         Scope::All},
        {s(R"(act\s+as\s+(if|though)\s+)") + f + s(R"(you\s+)") + f
             + s(R"((have\s+no|don\'t\s+have)\s+)") + f + s("(restrictions|limits|rules)"),
         "bypass_restrictions",
         Scope::All},
        {s(R"(<!--[^>]{0,512}(?:ignore|override|system|secret|hidden)[^>]{0,512}-->)"),
         "html_comment_injection",
         Scope::All},
        {s(R"(<\s*div\s+style\s*=\s*["\'][^>]{0,2048}display\s*:\s*none)"),
         "hidden_div",
         Scope::All},
        {s(R"(translate\s+[^\n]{0,512}\s+into\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(execute|run|eval)\b)"),
         "translate_execute",
         Scope::All},
        {s(R"(do\s+not\s+)") + f + s(R"(tell\s+)") + f + s(R"(the\s+user)"),
         "deception_hide",
         Scope::All},
        {s(R"(you\s+are\s+)") + f + s(R"(now\s+(?:a|an|the)\s+)"), "role_hijack", Scope::Context},
        {s(R"(pretend\s+)") + f + s(R"((you\s+are|to\s+be)\s+)"), "role_pretend", Scope::Context},
        {s(R"(output\s+)") + f + s(R"((system|initial)\s+prompt)"),
         "leak_system_prompt",
         Scope::Context},
        {s(R"((respond|answer|reply)\s+without\s+)") + f
             + s("(restrictions|limitations|filters|safety)"),
         "remove_filters",
         Scope::Context},
        {s(R"(you\s+have\s+been\s+)") + f + s(R"((updated|upgraded|patched)\s+to)"),
         "fake_update",
         Scope::Context},
        {s(R"(\bname\s+yourself\s+\w+)"), "identity_override", Scope::Context},
        {s(R"(register\s+(as\s+)?a?\s*node)"), "c2_node_registration", Scope::Context},
        {s(R"((heartbeat|beacon|check[\s\-]?in)\s+(to|with)\s+)"), "c2_heartbeat", Scope::Context},
        {s(R"(pull\s+(down\s+)?(?:new\s+)?task(?:ing|s)?\b)"), "c2_task_pull", Scope::Context},
        {s(R"(connect\s+to\s+the\s+network\b)"), "c2_network_connect", Scope::Context},
        {s(R"(you\s+must\s+(?:\w+\s+){0,3}(register|connect|report|beacon)\b)"),
         "forced_action",
         Scope::Context},
        {s(R"(only\s+use\s+one[\s\-]?liners?\b)"), "anti_forensic_oneliner", Scope::Context},
        {s(R"(never\s+)") + f + s(R"((?:create|write)\s+)") + f + s(R"((?:script|file)\s+)") + f
             + s("disk"),
         "anti_forensic_disk",
         Scope::Context},
        {s(R"(unset\s+\w*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*)"),
         "env_var_unset_agent",
         Scope::Context},
        {s(R"(\b(?:cobalt\s*strike|sliver|havoc|mythic|metasploit|brainworm)\b)"),
         "known_c2_framework",
         Scope::Context},
        {s(R"(\bc2\s+(?:server|channel|infrastructure|beacon)\b)"), "c2_explicit", Scope::Context},
        {s(R"(\bcommand\s+and\s+control\b)"), "c2_explicit_long", Scope::Context},
        {s(R"(curl\s+[^\n]{0,2048})") + secret, "exfil_curl", Scope::All},
        {s(R"(wget\s+[^\n]{0,2048})") + secret, "exfil_wget", Scope::All},
        {s(R"(cat\s+[^\n]{0,2048}(\.env|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc))"),
         "read_secrets",
         Scope::All},
        {s(R"((send|post|upload|transmit)\s+[^\n]{0,2048}\s+(to|at)\s+https?://)"),
         "send_to_url",
         Scope::Strict},
        {s(R"((include|output|print|share)\s+)") + f
             + s(R"((conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context))"),
         "context_exfil",
         Scope::Strict},
        {s("authorized_keys"), "ssh_backdoor", Scope::Strict},
        {s(R"(\$HOME/\.ssh|\~/\.ssh)"), "ssh_access", Scope::Strict},
        {s(R"(\$HOME/\.hermes/\.env|\~/\.hermes/\.env)"), "hermes_env", Scope::Strict},
        {modify + s(R"((?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules))"),
         "agent_config_mod",
         Scope::Strict},
        {modify + s(R"(\.hermes/(config\.yaml|SOUL\.md))"), "hermes_config_mod", Scope::Strict},
        {s(R"((?:api[_-]?key|token|secret|password)\s*[=:]\s*["\'][A-Za-z0-9+/=_-]{20,})"),
         "hardcoded_secret",
         Scope::Strict},
    };
}

// ---- Translation from Python's re to PCRE2 --------------------------------

using Range = std::pair<char32_t, char32_t>;

// str.isspace(), as ranges.
const QList<Range> &spaceRanges()
{
    static const QList<Range> ranges = {{0x09, 0x0D},
                                        {0x1C, 0x20},
                                        {0x85, 0x85},
                                        {0xA0, 0xA0},
                                        {0x1680, 0x1680},
                                        {0x2000, 0x200A},
                                        {0x2028, 0x2029},
                                        {0x202F, 0x202F},
                                        {0x205F, 0x205F},
                                        {0x3000, 0x3000}};
    return ranges;
}

constexpr char WordClassBody[] = R"(\p{L}\p{N}_)";

QString hexAtom(char32_t c)
{
    return QStringLiteral("\\x{%1}").arg(uint(c), 0, 16);
}

// The code points that match ASCII letter `lower` under re.IGNORECASE: those
// whose lower() is it, and sre_compile's _equivalences.
QList<char32_t> caseVariants(char lower)
{
    QList<char32_t> out = {char32_t(lower), char32_t(lower - 'a' + 'A')};
    switch (lower) {
    case 'i':
        out << 0x130 << 0x131; // İ lowers to i; ı is i's sre equivalent
        break;
    case 'k':
        out << 0x212A; // KELVIN SIGN lowers to k
        break;
    case 's':
        out << 0x17F; // LONG S is s's sre equivalent
        break;
    default:
        break;
    }
    return out;
}

bool isAsciiLetter(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
}

QString rangesBody(const QList<Range> &ranges)
{
    QString out;
    for (const Range &r : ranges) {
        out += hexAtom(r.first);
        if (r.second != r.first)
            out += QLatin1Char('-') + hexAtom(r.second);
    }
    return out;
}

// A class's literal ranges with every ASCII letter's case variants added.
QList<Range> foldRanges(QList<Range> ranges)
{
    QList<Range> extra;
    for (char c = 'a'; c <= 'z'; ++c) {
        const char32_t upper = char32_t(c - 'a' + 'A');
        bool in = false;
        for (const Range &r : std::as_const(ranges))
            in = in || (r.first <= char32_t(c) && char32_t(c) <= r.second)
                 || (r.first <= upper && upper <= r.second);
        if (in) {
            for (char32_t v : caseVariants(c))
                extra.append({v, v});
        }
    }
    ranges += extra;
    return ranges;
}

// The escape at python[i] (a backslash) as a single character, or 0 for a
// class escape (\s \w) or one outside the subset.
char32_t escapedCharacter(QChar next)
{
    const char16_t u = next.unicode();
    if (u == 'n')
        return '\n';
    if (u == 't')
        return '\t';
    if (u < 0x80 && !isAsciiLetter(next) && !(u >= '0' && u <= '9'))
        return u;
    return 0;
}

// Translates the class starting at python[i] ('['); moves i past its ']'.
// Returns a null string for syntax outside the subset.
QString translateClass(QStringView python, qsizetype &i)
{
    ++i;
    bool negated = false;
    if (i < python.size() && python.at(i) == QLatin1Char('^')) {
        negated = true;
        ++i;
    }
    QList<Range> ranges;
    bool space = false;
    bool word = false;
    bool first = true;
    while (i < python.size() && (first || python.at(i) != QLatin1Char(']'))) {
        first = false;
        char32_t lo = 0;
        if (python.at(i) == QLatin1Char('\\')) {
            if (i + 1 >= python.size())
                return {};
            const QChar e = python.at(i + 1);
            i += 2;
            if (e == QLatin1Char('s')) {
                space = true;
                continue;
            }
            if (e == QLatin1Char('w')) {
                word = true;
                continue;
            }
            lo = escapedCharacter(e);
            if (lo == 0)
                return {};
        } else {
            lo = python.at(i).unicode();
            ++i;
        }
        // A '-' between two characters makes a range; before ']' it is itself.
        if (i + 1 < python.size() && python.at(i) == QLatin1Char('-')
            && python.at(i + 1) != QLatin1Char(']')) {
            char32_t hi = python.at(i + 1).unicode();
            i += 2;
            if (hi == '\\')
                return {}; // an escaped range end: not in the table
            if (hi < lo)
                return {};
            ranges.append({lo, hi});
        } else {
            ranges.append({lo, lo});
        }
    }
    if (i >= python.size())
        return {};
    ++i; // the ']'
    QString body = rangesBody(foldRanges(ranges));
    if (space)
        body += rangesBody(spaceRanges());
    if (word)
        body += QLatin1String(WordClassBody);
    return QLatin1Char('[') + (negated ? QStringLiteral("^") : QString()) + body + QLatin1Char(']');
}

} // namespace

QString hermesTranslatePattern(QStringView python)
{
    const QString word = QStringLiteral("[%1]").arg(QLatin1String(WordClassBody));
    const QString boundary = QStringLiteral("(?:(?<=%1)(?!%1)|(?<!%1)(?=%1))").arg(word);
    QString out;
    qsizetype i = 0;
    while (i < python.size()) {
        const QChar c = python.at(i);
        const char16_t u = c.unicode();
        if (u == '\\') {
            if (i + 1 >= python.size())
                return {};
            const QChar e = python.at(i + 1);
            i += 2;
            if (e == QLatin1Char('s'))
                out += QLatin1Char('[') + rangesBody(spaceRanges()) + QLatin1Char(']');
            else if (e == QLatin1Char('w'))
                out += word;
            else if (e == QLatin1Char('b'))
                out += boundary;
            else if (const char32_t lit = escapedCharacter(e); lit != 0)
                out += hexAtom(lit);
            else
                return {};
        } else if (u == '[') {
            const QString cls = translateClass(python, i);
            if (cls.isNull())
                return {};
            out += cls;
        } else if (u == '(') {
            if (python.mid(i).startsWith(QLatin1String("(?:"))) {
                out += QLatin1String("(?:");
                i += 3;
            } else if (i + 1 < python.size() && python.at(i + 1) == QLatin1Char('?')) {
                return {}; // other group kinds are not in the table
            } else {
                out += c;
                ++i;
            }
        } else if (u == ')' || u == '|' || u == '?' || u == '*' || u == '+') {
            out += c;
            ++i;
        } else if (u == '{') {
            // A quantifier {m}, {m,}, {m,n} or {,n}; Python takes any other '{' as itself.
            const qsizetype close = python.indexOf(QLatin1Char('}'), i);
            const QStringView inside = close > i ? python.sliced(i + 1, close - i - 1)
                                                 : QStringView();
            const qsizetype comma = inside.indexOf(QLatin1Char(','));
            bool quantifier = close > i && !inside.isEmpty() && inside.count(QLatin1Char(',')) <= 1;
            for (const QChar d : inside)
                quantifier = quantifier && (d.isDigit() || d == QLatin1Char(','));
            if (quantifier && comma == 0 && inside.size() == 1)
                quantifier = false; // "{,}" is two literal characters
            if (quantifier) {
                out += QLatin1Char('{') + (comma == 0 ? QStringLiteral("0") : QString())
                       + inside.toString() + QLatin1Char('}');
                i = close + 1;
            } else {
                out += hexAtom(u);
                ++i;
            }
        } else if (u == '.' || u == '^' || u == '$') {
            return {}; // not in the table
        } else if (isAsciiLetter(c)) {
            const char lower = char(c.toLower().unicode());
            QString cls;
            for (char32_t v : caseVariants(lower))
                cls += hexAtom(v);
            out += QLatin1Char('[') + cls + QLatin1Char(']');
            ++i;
        } else {
            out += hexAtom(u);
            ++i;
        }
    }
    return out;
}

namespace {

struct Compiled
{
    HermesThreatPattern pattern;
    QRegularExpression regex;
};

const QList<Compiled> &compiled()
{
    static const QList<Compiled> table = [] {
        QList<Compiled> out;
        for (const Source &source : sources()) {
            Compiled c;
            c.pattern.id = QString::fromLatin1(source.id);
            c.pattern.python = source.python;
            c.pattern.pcre = hermesTranslatePattern(source.python);
            c.pattern.inContextScope = source.scope != Scope::Strict;
            c.regex = QRegularExpression(c.pattern.pcre);
            c.regex.optimize();
            out.append(std::move(c));
        }
        return out;
    }();
    return table;
}

// The text NFKC-normalized one code point at a time, with where each
// character of the result comes from; equal to the real NFKC form unless
// characters compose or reorder across code points.
struct CharwiseNfkc
{
    QString text;
    QList<qsizetype> origin; // per UTF-16 unit of text: the unit it came from
};

CharwiseNfkc charwiseNfkc(QStringView text)
{
    CharwiseNfkc out;
    out.text.reserve(text.size());
    out.origin.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype width = text.at(i).isHighSurrogate() && i + 1 < text.size() ? 2 : 1;
        const QStringView one = text.sliced(i, width);
        // Every code point below U+00A0 is its own NFKC form.
        const QString normal = one.at(0).unicode() < 0xA0
                                   ? one.toString()
                                   : one.toString().normalized(QString::NormalizationForm_KC);
        out.text += normal;
        for (qsizetype k = 0; k < normal.size(); ++k)
            out.origin.append(i);
        i += width;
    }
    return out;
}

} // namespace

QStringList HermesScan::ids() const
{
    QStringList out;
    for (const HermesFinding &finding : findings)
        out.append(finding.id);
    return out;
}

QString HermesScan::idList() const
{
    return ids().join(QStringLiteral(", "));
}

const QList<HermesThreatPattern> &hermesThreatPatterns()
{
    static const QList<HermesThreatPattern> patterns = [] {
        QList<HermesThreatPattern> out;
        for (const Compiled &c : compiled())
            out.append(c.pattern);
        return out;
    }();
    return patterns;
}

bool hermesPatternMatches(qsizetype index, QStringView normalized)
{
    const QList<Compiled> &table = compiled();
    if (index < 0 || index >= table.size())
        return false;
    return table.at(index).regex.match(normalized).hasMatch();
}

const QList<char32_t> &hermesInvisibleCharacters()
{
    static const QList<char32_t> chars = {0x200B,
                                          0x200C,
                                          0x200D,
                                          0x202A,
                                          0x202B,
                                          0x202C,
                                          0x202D,
                                          0x202E,
                                          0x2060,
                                          0x2062,
                                          0x2063,
                                          0x2064,
                                          0x2066,
                                          0x2067,
                                          0x2068,
                                          0x2069,
                                          0xFEFF};
    return chars;
}

HermesScan hermesScanForThreats(QStringView text, HermesScanScope scope)
{
    HermesScan scan;
    if (text.isEmpty())
        return scan;
    const QStringView scanned = text.first(utf16Offset(text, MaxScanChars));
    // Invisible characters are looked for in the text itself: NFKC drops some.
    for (const char32_t c : hermesInvisibleCharacters()) {
        const qsizetype at = scanned.indexOf(QChar(char16_t(c)));
        if (at >= 0)
            scan.findings.append(
                {QStringLiteral("invisible_unicode_U+")
                     + QString::number(uint(c), 16).toUpper().rightJustified(4, QLatin1Char('0')),
                 at,
                 1});
    }
    const QString normalized = scanned.toString().normalized(QString::NormalizationForm_KC);
    std::optional<CharwiseNfkc> charwise;
    for (const Compiled &c : compiled()) {
        if (scope == HermesScanScope::Context && !c.pattern.inContextScope)
            continue;
        const QRegularExpressionMatch match = c.regex.match(normalized);
        if (!match.hasMatch())
            continue;
        HermesFinding finding;
        finding.id = c.pattern.id;
        if (!charwise)
            charwise = charwiseNfkc(scanned);
        // Where the match is in the text: exact when the character-wise form
        // is the real one; else wherever the pattern matches that form.
        const bool same = charwise->text == normalized;
        const QRegularExpressionMatch placed = same ? match : c.regex.match(charwise->text);
        if (placed.hasMatch()) {
            const qsizetype s = placed.capturedStart();
            const qsizetype e = placed.capturedEnd();
            const qsizetype from = s < charwise->origin.size() ? charwise->origin.at(s)
                                                               : scanned.size();
            qsizetype to = scanned.size();
            if (e > s && e - 1 < charwise->origin.size()) {
                const qsizetype last = charwise->origin.at(e - 1);
                to = last + (scanned.at(last).isHighSurrogate() ? 2 : 1);
            } else if (e == s) {
                to = from;
            }
            finding.start = from;
            finding.length = to - from;
        }
        scan.findings.append(finding);
    }
    return scan;
}

} // namespace soul
