#include "openclawrule.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>

namespace soul {

namespace {

constexpr char16_t Ellipsis = 0x2026;

const QString &missingPrefix()
{
    static const QString prefix = QStringLiteral("[MISSING] Expected at: ");
    return prefix;
}

bool isHigh(QStringView text, qsizetype i)
{
    return i >= 0 && i < text.size() && text.at(i).isHighSurrogate();
}

bool isLow(QStringView text, qsizetype i)
{
    return i >= 0 && i < text.size() && text.at(i).isLowSurrogate();
}

// Clamp of section 4: the text, or its safe cut with an ellipsis when it does
// not fit.
QString clampText(QStringView text, qsizetype budget)
{
    if (budget <= 0)
        return {};
    if (text.size() <= budget)
        return text.toString();
    if (budget <= 3)
        return safeHead(text, budget).toString();
    return safeHead(text, budget - 1).toString() + QChar(Ellipsis);
}

// ---- ordinary files (5.2) ----

struct Marker
{
    QString name;
    qsizetype total = 0;
    bool full = true;

    QString text(qsizetype h, qsizetype t) const
    {
        if (full) {
            return QStringLiteral("\n[...truncated, read %1 for full content...]\n"
                                  "\u2026(truncated %1: kept %2+%3 chars of %4)\u2026\n")
                .arg(name)
                .arg(h)
                .arg(t)
                .arg(total);
        }
        return QStringLiteral("[\u2026truncated %1+%2/%3]").arg(h).arg(t).arg(total);
    }
    qsizetype separators(qsizetype h, qsizetype t) const
    {
        return full ? qsizetype(h > 0) + qsizetype(t > 0) : 0;
    }
};

void truncateOrdinary(OpenClawCut &cut, QStringView fileName, QStringView text)
{
    const qsizetype limit = cut.limit;
    Marker marker{fileName.toString(), text.size(), true};
    marker.full = limit - marker.text(0, 0).size() - 2 >= 16;
    qsizetype h = 0;
    qsizetype t = 0;
    QString m = marker.text(0, 0);
    for (int round = 0; round < 3; ++round) {
        const qsizetype b = std::max<qsizetype>(0, limit - m.size() - marker.separators(h, t));
        const qsizetype nh = 3 * b / 4;
        const qsizetype nt = b / 4;
        const QString nm = marker.text(nh, nt);
        if (nh == h && nt == t && nm.size() == m.size())
            break;
        h = nh;
        t = nt;
        m = nm;
    }
    while (h + t + m.size() + marker.separators(h, t) > limit && (t > 0 || h > 0)) {
        const qsizetype over = h + t + m.size() + marker.separators(h, t) - limit;
        if (t > 0)
            t = std::max<qsizetype>(0, t - over);
        else
            h = std::max<qsizetype>(0, h - over);
        m = marker.text(h, t);
    }
    if (h == 0 && t == 0 && !text.isEmpty()) {
        const QString one = marker.text(1, 0);
        if (1 + one.size() + marker.separators(1, 0) <= limit) {
            h = 1;
            m = one;
        }
    }
    const QStringView head = safeHead(text, h);
    const QStringView tail = t > 0 ? safeTail(text, t) : QStringView();
    QStringList parts;
    for (QStringView part : {head, QStringView(m), tail}) {
        if (!part.isEmpty())
            parts.append(part.toString());
    }
    QString joined = parts.join(marker.full ? QStringLiteral("\n") : QString());
    if (joined.size() > limit)
        joined = safeHead(joined, limit).toString();
    cut.requestedHead = h;
    cut.requestedTail = t;
    cut.head = {0, head.size()};
    cut.tail = {text.size() - tail.size(), tail.size()};
    cut.compactMarker = !marker.full;
    cut.text = joined;
}

// ---- AGENTS.md (5.3) ----

// Case folding of the rule: ASCII letters, and the two non-ASCII letters that
// fold into ASCII.
char16_t foldCase(char16_t c)
{
    if (c >= u'A' && c <= u'Z')
        return char16_t(c - u'A' + u'a');
    if (c == 0x017F)
        return u's';
    if (c == 0x212A)
        return u'k';
    return c;
}

bool isWordChar(char16_t c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
           || c == u'_' || c == 0x017F || c == 0x212A;
}

// `keyword` is lower-case ASCII.
bool hasWord(QStringView line, const char *keyword)
{
    const qsizetype k = qsizetype(std::strlen(keyword));
    for (qsizetype p = 0; p + k <= line.size(); ++p) {
        if (p > 0 && isWordChar(line.at(p - 1).unicode()))
            continue;
        bool same = true;
        for (qsizetype i = 0; i < k && same; ++i)
            same = foldCase(line.at(p + i).unicode()) == char16_t(keyword[i]);
        if (!same)
            continue;
        if (p + k < line.size() && isWordChar(line.at(p + k).unicode()))
            continue;
        return true;
    }
    return false;
}

constexpr std::array<const char *, 11> HighWords = {"agents.md",
                                                    "scoped",
                                                    "required",
                                                    "must",
                                                    "never",
                                                    "do not",
                                                    "before subtree",
                                                    "read scoped",
                                                    "security",
                                                    "secret",
                                                    "credential"};
constexpr std::array<const char *, 8> NormalWords
    = {"owner", "test", "validation", "command", "commit", "push", "github", "pr"};
constexpr std::array<const char16_t *, 7> HighMarks
    = {u"\U0001F534", u"禁止", u"嚴禁", u"不得", u"絕不", u"絕對不", u"切勿"};
constexpr std::array<const char16_t *, 4> NormalMarks = {u"必須", u"務必", u"一律", u"紅線"};

bool hasHighKeyword(QStringView line)
{
    for (const char *word : HighWords) {
        if (hasWord(line, word))
            return true;
    }
    for (const char16_t *mark : HighMarks) {
        if (line.contains(QStringView(mark)))
            return true;
    }
    return false;
}

bool hasNormalKeyword(QStringView line)
{
    for (const char *word : NormalWords) {
        if (hasWord(line, word))
            return true;
    }
    for (const char16_t *mark : NormalMarks) {
        if (line.contains(QStringView(mark)))
            return true;
    }
    return false;
}

bool isAsciiDigit(QChar c)
{
    return c.unicode() >= u'0' && c.unicode() <= u'9';
}

// A heading, a bullet or a numbered item, on a normalized line (one space
// between words, none at the ends).
bool isStructural(QStringView line)
{
    const auto spaceThenText = [&line](qsizetype i) {
        return i + 1 < line.size() && line.at(i) == QLatin1Char(' ');
    };
    qsizetype hashes = 0;
    while (hashes < line.size() && line.at(hashes) == QLatin1Char('#'))
        ++hashes;
    if (hashes >= 1 && hashes <= 6 && spaceThenText(hashes))
        return true;
    if (!line.isEmpty()
        && (line.at(0) == QLatin1Char('-') || line.at(0) == QLatin1Char('*')
            || line.at(0) == QLatin1Char('+'))
        && spaceThenText(1)) {
        return true;
    }
    qsizetype digits = 0;
    while (digits < line.size() && isAsciiDigit(line.at(digits)))
        ++digits;
    return digits > 0 && digits < line.size()
           && (line.at(digits) == QLatin1Char('.') || line.at(digits) == QLatin1Char(')'))
           && spaceThenText(digits + 1);
}

bool isFence(QStringView line)
{
    return line.startsWith(QLatin1String("```")) || line.startsWith(QLatin1String("~~~"));
}

QString normalizeLine(QStringView line)
{
    const QStringView trimmed = jsTrimmed(line);
    QString out;
    out.reserve(trimmed.size());
    bool inSpace = false;
    for (QChar c : trimmed) {
        if (isJsWhiteSpace(c.unicode())) {
            if (!inSpace)
                out.append(QLatin1Char(' '));
            inSpace = true;
        } else {
            out.append(c);
            inSpace = false;
        }
    }
    if (out.size() > 240)
        out = safeHead(out, 239).toString() + QChar(Ellipsis);
    return out;
}

struct Candidate
{
    QString text;
    bool high = false;
    QList<KeptRange> lines; // where it comes from in T
};

QList<Candidate> policyCandidates(QStringView text)
{
    QList<Candidate> candidates;
    std::optional<std::pair<QString, KeptRange>> prose;
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        const bool last = end < 0;
        if (last)
            end = text.size();
        qsizetype lineEnd = end;
        if (!last && lineEnd > start && text.at(lineEnd - 1) == QLatin1Char('\r'))
            --lineEnd;
        const KeptRange range{start, lineEnd - start};
        const QString line = normalizeLine(text.mid(start, lineEnd - start));
        if (line.isEmpty() || isFence(line)) {
            prose.reset();
        } else if (isStructural(line) || hasHighKeyword(line) || hasNormalKeyword(line)) {
            Candidate candidate;
            candidate.high = hasHighKeyword(line);
            if (prose) {
                candidate.text = prose->first + QLatin1Char('\n') + line;
                candidate.lines = {prose->second, range};
            } else {
                candidate.text = line;
                candidate.lines = {range};
            }
            candidates.append(candidate);
            prose.reset();
        } else {
            prose = std::make_pair(line, range);
        }
        if (last)
            break;
        start = end + 1;
    }
    return candidates;
}

struct Digest
{
    QString text;
    qsizetype chosen = 0;
    qsizetype omitted = 0;
    QList<KeptRange> lines;
};

Digest chooseDigest(const QList<Candidate> &candidates, qsizetype budget)
{
    Digest digest;
    if (budget <= 0)
        return digest;
    QList<bool> chosen(candidates.size(), false);
    qsizetype used = 0;
    bool any = false;
    const auto tryOne = [&](qsizetype i) {
        const qsizetype cost = candidates.at(i).text.size() + (any ? 1 : 0);
        if (used + cost > budget)
            return;
        chosen[i] = true;
        any = true;
        used += cost;
    };
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        if (candidates.at(i).high)
            tryOne(i);
    }
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        if (!chosen.at(i))
            tryOne(i);
    }
    QStringList texts;
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        if (chosen.at(i)) {
            texts.append(candidates.at(i).text);
            digest.lines += candidates.at(i).lines;
            ++digest.chosen;
        } else {
            ++digest.omitted;
        }
    }
    digest.text = texts.join(QLatin1Char('\n'));
    return digest;
}

void truncateAgents(OpenClawCut &cut, QStringView text)
{
    const qsizetype limit = cut.limit;
    const AgentsShares shares = openClawAgentsShares(limit);
    qsizetype h = shares.head;
    qsizetype t = shares.tail;
    qsizetype d = shares.digest;
    const QList<Candidate> candidates = d > 0 ? policyCandidates(text) : QList<Candidate>();
    Digest digest = chooseDigest(candidates, d);
    const auto render = [&]() {
        QStringList parts;
        const auto add = [&parts](const QString &part) {
            if (!part.isEmpty())
                parts.append(part);
        };
        add(safeHead(text, h).toString());
        add(QStringLiteral("[...truncated, read AGENTS.md for full content...]"));
        if (!digest.text.isEmpty())
            add(QStringLiteral("[Policy digest from AGENTS.md]"));
        add(digest.text);
        if (digest.omitted > 0)
            add(QStringLiteral("[...%1 more policy lines omitted...]").arg(digest.omitted));
        add(QStringLiteral("\u2026(truncated AGENTS.md: kept %1+policy %2+%3 chars of %4)\u2026")
                .arg(h)
                .arg(digest.text.size())
                .arg(t)
                .arg(text.size()));
        if (t > 0)
            add(safeTail(text, t).toString());
        return parts.join(QLatin1Char('\n'));
    };
    QString rendered = render();
    while (rendered.size() > limit && (t > 0 || h > 1 || d > 0)) {
        const qsizetype over = rendered.size() - limit;
        if (t > 0) {
            t = std::max<qsizetype>(0, t - over);
        } else if (h > 1) {
            h = std::max<qsizetype>(1, h - over);
        } else {
            d = std::max<qsizetype>(0, d - over);
            digest = chooseDigest(candidates, d);
        }
        rendered = render();
    }
    if (rendered.size() > limit)
        rendered = safeHead(rendered, limit).toString();
    const qsizetype headLength = safeHead(text, h).size();
    const qsizetype tailLength = t > 0 ? safeTail(text, t).size() : 0;
    cut.requestedHead = h;
    cut.requestedTail = t;
    cut.head = {0, headLength};
    cut.tail = {text.size() - tailLength, tailLength};
    cut.digestLines = digest.lines;
    cut.digestLength = digest.text.size();
    cut.digestEntries = digest.chosen;
    cut.omittedPolicyLines = digest.omitted;
    cut.text = rendered;
}

// ---- the prompt text (6.5) ----

bool startsEntry(QStringView line)
{
    if (line.startsWith(QLatin1String("- ")))
        return true;
    qsizetype hashes = 0;
    while (hashes < line.size() && line.at(hashes) == QLatin1Char('#'))
        ++hashes;
    return hashes >= 1 && hashes <= 6
           && (hashes == line.size() || isJsWhiteSpace(line.at(hashes).unicode()));
}

bool isAsciiLetterFold(QChar c, char lower)
{
    return c.unicode() == char16_t(lower) || c.unicode() == char16_t(lower - 'a' + 'A');
}

// `<!--`, optional whitespace, `project` in any case, optional whitespace, `:`.
bool hasProjectAnnotation(QStringView text)
{
    static constexpr char Word[] = "project";
    for (qsizetype p = text.indexOf(QLatin1String("<!--")); p >= 0;
         p = text.indexOf(QLatin1String("<!--"), p + 1)) {
        qsizetype i = p + 4;
        while (i < text.size() && isJsWhiteSpace(text.at(i).unicode()))
            ++i;
        qsizetype k = 0;
        while (k < 7 && i + k < text.size() && isAsciiLetterFold(text.at(i + k), Word[k]))
            ++k;
        if (k < 7)
            continue;
        i += 7;
        while (i < text.size() && isJsWhiteSpace(text.at(i).unicode()))
            ++i;
        if (i < text.size() && text.at(i) == QLatin1Char(':'))
            return true;
    }
    return false;
}

QString dropProjectEntries(QStringView text)
{
    const QList<QStringView> lines = text.split(QLatin1Char('\n'));
    QList<QString> entries;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i == 0 || startsEntry(lines.at(i)))
            entries.append(lines.at(i).toString());
        else {
            entries.last() += QLatin1Char('\n');
            entries.last() += lines.at(i);
        }
    }
    QStringList kept;
    bool dropped = false;
    for (const QString &entry : std::as_const(entries)) {
        if (hasProjectAnnotation(entry))
            dropped = true;
        else
            kept.append(entry);
    }
    return dropped ? kept.join(QLatin1Char('\n')) : text.toString();
}

QString removeHeartbeatBlocks(QStringView text)
{
    static const QString opening = QStringLiteral("Default heartbeat prompt:");
    static const std::array<QString, 2> prompts
        = {QStringLiteral("Read HEARTBEAT.md if it exists"),
           QStringLiteral("Follow the heartbeat monitor scratch context when provided.")};
    static const QString closing = QStringLiteral("HEARTBEAT_OK.");
    QString out;
    qsizetype copied = 0;
    qsizetype from = 0;
    for (qsizetype p = text.indexOf(opening, from); p >= 0; p = text.indexOf(opening, from)) {
        qsizetype i = p + opening.size();
        if (i + 1 < text.size() && text.at(i) == QLatin1Char('\r')
            && text.at(i + 1) == QLatin1Char('\n')) {
            ++i;
        }
        qsizetype end = -1;
        if (i + 1 < text.size() && text.at(i) == QLatin1Char('\n')
            && text.at(i + 1) == QLatin1Char('`')) {
            i += 2;
            for (const QString &prompt : prompts) {
                if (!text.mid(i).startsWith(prompt))
                    continue;
                qsizetype k = i + prompt.size();
                while (k < text.size() && text.at(k) != QLatin1Char('`')
                       && text.at(k) != QLatin1Char('\r') && text.at(k) != QLatin1Char('\n')) {
                    ++k;
                }
                if (k < text.size() && text.at(k) == QLatin1Char('`')
                    && k - closing.size() >= i + prompt.size()
                    && text.mid(k - closing.size(), closing.size()) == closing) {
                    end = k + 1;
                    break;
                }
            }
        }
        if (end < 0) {
            from = p + 1;
            continue;
        }
        out += text.mid(copied, p - copied);
        copied = end;
        from = end;
    }
    if (copied == 0)
        return text.toString();
    out += text.mid(copied);
    return out;
}

QString collapseBlankRuns(const QString &text)
{
    if (!text.contains(QLatin1String("\n\n\n")))
        return text;
    QString out;
    out.reserve(text.size());
    qsizetype run = 0;
    for (QChar c : text) {
        if (c == QLatin1Char('\n')) {
            if (++run > 2)
                continue;
        } else {
            run = 0;
        }
        out.append(c);
    }
    return out;
}

const QString &pendingLine(bool injected)
{
    static const QString below = QStringLiteral("BOOTSTRAP.md below; follow before normal reply.");
    static const QString read = QStringLiteral(
        "Read workspace BOOTSTRAP.md; follow before normal reply.");
    return injected ? below : read;
}

} // namespace

QStringList openClawFileOrder()
{
    return {QStringLiteral("AGENTS.md"),
            QStringLiteral("SOUL.md"),
            QStringLiteral("IDENTITY.md"),
            QStringLiteral("USER.md"),
            QStringLiteral("BOOTSTRAP.md"),
            QStringLiteral("MEMORY.md")};
}

bool isJsWhiteSpace(char16_t c)
{
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0xA0 || c == 0x1680
           || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F
           || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

QStringView jsTrimmedEnd(QStringView text)
{
    qsizetype end = text.size();
    while (end > 0 && isJsWhiteSpace(text.at(end - 1).unicode()))
        --end;
    return text.first(end);
}

QStringView jsTrimmed(QStringView text)
{
    const QStringView end = jsTrimmedEnd(text);
    qsizetype start = 0;
    while (start < end.size() && isJsWhiteSpace(end.at(start).unicode()))
        ++start;
    return end.mid(start);
}

QStringView safeHead(QStringView text, qsizetype n)
{
    if (n >= text.size())
        return text;
    if (n <= 0)
        return {};
    if (isHigh(text, n - 1) && isLow(text, n))
        return text.first(n - 1);
    return text.first(n);
}

QStringView safeTail(QStringView text, qsizetype n)
{
    if (n >= text.size())
        return text;
    if (n <= 0)
        return {};
    qsizetype start = text.size() - n;
    if (isLow(text, start) && isHigh(text, start - 1))
        ++start;
    return text.mid(start);
}

AgentsShares openClawAgentsShares(qsizetype limit)
{
    // Doubles on purpose: 180 * 0.35 is 62.99999999999999 in them, so 62.
    const double l = double(limit);
    return {qsizetype(std::floor(l * 0.45)),
            qsizetype(std::floor(l * 0.15)),
            qsizetype(std::floor(l * 0.35))};
}

OpenClawCut openClawTruncate(QStringView fileName, QStringView content, qsizetype limit)
{
    const QStringView text = jsTrimmedEnd(content);
    OpenClawCut cut;
    cut.length = text.size();
    cut.limit = limit;
    if (text.size() <= limit) {
        cut.head = {0, text.size()};
        cut.requestedHead = text.size();
        cut.text = text.toString();
        return cut;
    }
    cut.truncated = true;
    if (fileName == QLatin1String("AGENTS.md"))
        truncateAgents(cut, text);
    else
        truncateOrdinary(cut, fileName, text);
    return cut;
}

QString openClawPromptText(QStringView fileName, QStringView injected)
{
    QString text = (fileName == QLatin1String("USER.md") || fileName == QLatin1String("MEMORY.md"))
                       ? dropProjectEntries(injected)
                       : injected.toString();
    return collapseBlankRuns(removeHeartbeatBlocks(text));
}

OpenClawComposition composeOpenClaw(const OpenClawInput &input, const OpenClawSettings &settings)
{
    OpenClawComposition result;
    result.bootstrapPending = input.bootstrapPending;
    result.totalLimit = settings.totalMaxChars();
    QStringList injectedTexts; // parallel to result.files
    qsizetype remaining = std::max(1, settings.totalMaxChars());
    bool stopped = false;
    for (const OpenClawEntry &entry : input.entries) {
        OpenClawFileFigures figures;
        figures.name = entry.name;
        figures.path = input.dir + QLatin1Char('/') + entry.name;
        figures.kind = entry.kind;
        figures.limit = settings.limitFor(entry.name);
        const bool missing = entry.kind == OpenClawEntry::Kind::Missing;
        figures.raw = missing ? 0 : jsTrimmedEnd(entry.text).size();
        QString injected;
        if (!stopped && remaining <= 0)
            stopped = true;
        if (!stopped && missing) {
            injected = clampText(QString(missingPrefix() + figures.path), remaining);
            if (injected.isEmpty())
                stopped = true;
        } else if (!stopped) {
            if (remaining < 64) {
                stopped = true;
            } else {
                const qsizetype limit
                    = std::max<qsizetype>(1, std::min<qsizetype>(figures.limit, remaining));
                figures.cut = openClawTruncate(entry.name, entry.text, limit);
                injected = clampText(figures.cut.text, remaining);
            }
        }
        figures.budgetExhausted = stopped;
        remaining -= injected.size();
        figures.injected = injected.size();
        figures.injectedAny = !injected.isEmpty();
        figures.truncated = !missing && figures.injected < figures.raw;
        figures.nearLimit = !missing
                            && figures.raw >= qsizetype(std::ceil(double(figures.limit) * 0.85));
        if (!missing)
            result.totalInjected += figures.injected;
        result.notice = result.notice || figures.truncated;
        result.files.append(figures);
        injectedTexts.append(injected);
    }
    result.totalNearLimit = result.totalInjected
                            >= qsizetype(std::ceil(double(result.totalLimit) * 0.85));

    const auto injectedNamed = [&](QLatin1String name) {
        for (const OpenClawFileFigures &figures : std::as_const(result.files)) {
            if (figures.name == name && figures.injectedAny)
                return true;
        }
        return false;
    };
    QStringList items;
    if (input.bootstrapPending) {
        items << QStringLiteral("## Bootstrap Pending")
              << pendingLine(injectedNamed(QLatin1String("BOOTSTRAP.md")))
              << QStringLiteral("Can finish BOOTSTRAP.md here: do it.")
              << QStringLiteral("Cannot: brief blocker, safe possible steps, simplest next step.")
              << QStringLiteral("Never claim completion early. No generic greeting/normal reply "
                                "before BOOTSTRAP.md handling.")
              << QStringLiteral("First visible reply must follow BOOTSTRAP.md; no generic "
                                "greeting.");
    }
    if (result.notice) {
        items << QStringLiteral("## Bootstrap Context Notice")
              << QStringLiteral("[Bootstrap truncation warning]")
              << QStringLiteral("Some workspace bootstrap files were truncated before Project "
                                "Context injection.")
              << QStringLiteral("Treat Project Context as partial and read the relevant files "
                                "directly if details seem missing.");
    }
    items << QStringLiteral("## Workspace Files (injected)")
          << QStringLiteral("User-editable; OpenClaw loads below as Project Context.");
    const bool anyInjected = std::any_of(result.files.cbegin(),
                                         result.files.cend(),
                                         [](const OpenClawFileFigures &f) { return f.injectedAny; });
    if (anyInjected) {
        items << QStringLiteral("# Project Context") << QStringLiteral("Loaded project context:");
        if (injectedNamed(QLatin1String("SOUL.md")))
            items << QStringLiteral("SOUL.md: persona/tone. Follow it unless higher-priority "
                                    "instructions override.");
        if (injectedNamed(QLatin1String("MEMORY.md")))
            items << QStringLiteral("MEMORY.md: durable non-profile facts and decisions; use "
                                    "when relevant unless higher-priority instructions override.");
        if (injectedNamed(QLatin1String("USER.md")))
            items << QStringLiteral("USER.md: durable user preferences and profile directives; "
                                    "follow unless higher-priority instructions override.");
        for (qsizetype i = 0; i < result.files.size(); ++i) {
            const OpenClawFileFigures &figures = result.files.at(i);
            if (!figures.injectedAny)
                continue;
            result.files[i].promptText = openClawPromptText(figures.name, injectedTexts.at(i));
            items << QStringLiteral("## ") + figures.path;
            items << result.files.at(i).promptText;
        }
    }
    items.removeAll(QString());
    result.section = items.join(QLatin1Char('\n'));
    return result;
}

OpenClawKept openClawKept(const OpenClawComposition &composition, QStringView fileName)
{
    OpenClawKept kept;
    kept.loaded = openClawFileOrder().contains(fileName);
    for (const OpenClawFileFigures &figures : composition.files) {
        if (figures.name != fileName || figures.kind != OpenClawEntry::Kind::Content)
            continue;
        kept.entry = true;
        kept.droppedByTotal = figures.budgetExhausted;
        if (kept.droppedByTotal)
            return kept;
        const OpenClawCut &cut = figures.cut;
        kept.whole = !cut.truncated;
        if (!cut.head.length && !cut.tail.length)
            return kept;
        kept.kept.append(cut.head);
        if (cut.truncated) {
            if (cut.tail.length > 0)
                kept.kept.append(cut.tail);
            const qsizetype from = cut.head.start + cut.head.length;
            const qsizetype to = cut.tail.length > 0 ? cut.tail.start : cut.length;
            kept.dropped = {from, std::max<qsizetype>(0, to - from)};
            kept.digestLines = cut.digestLines;
        }
    }
    return kept;
}

} // namespace soul
