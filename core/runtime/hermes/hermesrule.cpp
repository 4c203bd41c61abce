#include "hermesrule.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace soul {

namespace {

constexpr double HeadRatio = 0.7;
constexpr double TailRatio = 0.2;
constexpr double WindowFraction = 0.06;
constexpr qint64 CharsPerToken = 4;
constexpr qint64 DynamicCeiling = 500000;

const QString EntryDelimiter = QStringLiteral("\n\u00A7\n");
constexpr char16_t Bom = 0xFEFF;

// A text built from pieces of files and literal text, knowing where each
// piece came from: cutting it keeps that knowledge, so the parts of each file
// that reach the prompt fall out at the end.
struct Sourced
{
    struct Segment
    {
        qsizetype at = 0; // in text
        qsizetype length = 0;
        int file = 0;
        qsizetype from = 0; // in the file's text
    };

    QString text;
    QList<Segment> segments;

    static Sourced literal(const QString &s) { return {s, {}}; }
    // `piece`, a copy of the file's text from `from` on, as its own.
    static Sourced ofPiece(int file, const QString &piece, qsizetype from)
    {
        Sourced out;
        out.text = piece;
        if (!piece.isEmpty())
            out.segments.append({0, piece.size(), file, from});
        return out;
    }
    static Sourced ofFile(int file, const QString &fileText, HermesSpan span)
    {
        Sourced out;
        out.text = fileText.mid(span.start, span.length);
        if (span.length > 0)
            out.segments.append({0, span.length, file, span.start});
        return out;
    }

    Sourced &operator+=(const Sourced &o)
    {
        for (Segment s : o.segments) {
            s.at += text.size();
            segments.append(s);
        }
        text += o.text;
        return *this;
    }
    Sourced &operator+=(const QString &s)
    {
        text += s;
        return *this;
    }

    Sourced mid(qsizetype start, qsizetype length) const
    {
        Sourced out;
        out.text = text.mid(start, length);
        const qsizetype end = start + length;
        for (const Segment &s : segments) {
            const qsizetype a = std::max(s.at, start);
            const qsizetype b = std::min(s.at + s.length, end);
            if (a < b)
                out.segments.append({a - start, b - a, s.file, s.from + (a - s.at)});
        }
        return out;
    }
    Sourced mid(qsizetype start) const { return mid(start, text.size() - start); }

    Sourced stripped() const
    {
        const HermesSpan span = pythonStripSpan(text);
        return mid(span.start, span.length);
    }

    // Where offset `at` of text is in its file; -1 in literal text.
    qsizetype fileOffset(qsizetype at) const
    {
        for (const Segment &s : segments) {
            if (at >= s.at && at < s.at + s.length)
                return s.from + (at - s.at);
        }
        return -1;
    }
};

QString blockedContextLine(const QString &name, const HermesScan &scan)
{
    return QStringLiteral(
               "[BLOCKED: %1 contained potential prompt injection (%2). Content not loaded.]")
        .arg(name, scan.idList());
}

QString blockedEntryLine(const QString &fileName, const HermesScan &scan)
{
    return QStringLiteral("[BLOCKED: %1 entry contained threat pattern(s): %2. Removed from system "
                          "prompt; use memory(action=remove) to delete the original.]")
        .arg(fileName, scan.idList());
}

// Scan positions made file positions through `source`.
HermesScan placed(HermesScan scan, const Sourced &source)
{
    for (HermesFinding &finding : scan.findings) {
        if (finding.start < 0)
            continue;
        const qsizetype start = source.fileOffset(finding.start);
        const qsizetype last = finding.length > 0
                                   ? source.fileOffset(finding.start + finding.length - 1)
                                   : start;
        if (start < 0 || last < 0) {
            finding.start = -1;
            finding.length = 0;
        } else {
            finding.start = start;
            finding.length = finding.length > 0 ? last + 1 - start : 0;
        }
    }
    return scan;
}

// _truncate_content.
Sourced truncated(const Sourced &content,
                  const QString &warnName,
                  const QString &readPath,
                  qsizetype cap,
                  HermesCut *cut)
{
    const qsizetype n = codePointCount(content.text);
    *cut = {};
    cut->length = n;
    cut->cap = cap;
    cut->warnName = warnName;
    cut->readPath = readPath;
    if (n <= cap)
        return content;
    const auto head = qsizetype(double(cap) * HeadRatio);
    const auto tail = qsizetype(double(cap) * TailRatio);
    cut->truncated = true;
    cut->head = head;
    cut->tail = tail;
    const QString marker = QStringLiteral(
                               "\n\n[...truncated %1: kept %2+%3 of %4 chars. The middle "
                               "is omitted \u2014 if you need the full instructions, read "
                               "the complete file with the read_file tool: %5]\n\n")
                               .arg(warnName)
                               .arg(head)
                               .arg(tail)
                               .arg(n)
                               .arg(readPath);
    Sourced out = content.mid(0, utf16Offset(content.text, head));
    out += marker;
    // text[-0:] is the whole text.
    out += tail == 0 ? content : content.mid(utf16Offset(content.text, n - tail));
    return out;
}

// _scan_context_content: one leading U+FEFF goes, then the scan; the content,
// or the BLOCKED line.
Sourced scannedContext(const Sourced &content, const QString &name, HermesFileReport *report)
{
    const Sourced body = content.text.startsWith(QChar(Bom)) ? content.mid(1) : content;
    report->scan = placed(hermesScanForThreats(body.text, HermesScanScope::Context), body);
    if (!report->scan.blocked())
        return body;
    report->blockedLine = blockedContextLine(name, report->scan);
    return Sourced::literal(report->blockedLine);
}

// _strip_yaml_frontmatter.
Sourced withoutFrontmatter(const Sourced &content)
{
    qsizetype start = 0;
    while (start < content.text.size() && content.text.at(start) == QChar(Bom))
        ++start;
    const Sourced text = content.mid(start);
    if (!text.text.startsWith(QLatin1String("---")))
        return text;
    const qsizetype end = text.text.indexOf(QLatin1String("\n---"), 3);
    if (end < 0)
        return text;
    qsizetype body = end + 4;
    while (body < text.text.size() && text.text.at(body) == QLatin1Char('\n'))
        ++body;
    return body < text.text.size() ? text.mid(body) : text;
}

// strip_legacy_protocol, with the strips around it.
Sourced withoutLegacyProtocol(const Sourced &text)
{
    static const QRegularExpression
        legacy(QStringLiteral("\\n*## Messaging other agents[ \\t]*\\n.*?(?=\\n## |\\z)"),
               QRegularExpression::DotMatchesEverythingOption);
    Sourced out;
    qsizetype at = 0;
    QRegularExpressionMatchIterator it = legacy.globalMatch(text.text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        out += QStringLiteral("\n");
        at = m.capturedEnd();
    }
    out += text.mid(at);
    return out.stripped();
}

QString relativeUp(qsizetype levels, const QString &name)
{
    QString out;
    for (qsizetype i = 0; i < levels; ++i)
        out += QLatin1String("../");
    return out + name;
}

QString joinPath(const QString &dir, const QString &name)
{
    return dir.endsWith(QLatin1Char('/')) ? dir + name : dir + QLatin1Char('/') + name;
}

// Every piece of `text` that came from file `file`, merged, in order.
QList<HermesSpan> keptSpans(const Sourced &text, int file)
{
    QList<HermesSpan> spans;
    for (const Sourced::Segment &s : text.segments) {
        if (s.file == file)
            spans.append({s.from, s.length});
    }
    std::sort(spans.begin(), spans.end(), [](const HermesSpan &a, const HermesSpan &b) {
        return a.start < b.start;
    });
    QList<HermesSpan> merged;
    for (const HermesSpan &s : std::as_const(spans)) {
        if (!merged.isEmpty() && s.start <= merged.last().end())
            merged.last().length = std::max(merged.last().end(), s.end()) - merged.last().start;
        else
            merged.append(s);
    }
    return merged;
}

struct ProjectFile
{
    HermesFile file;
    int index = -1; // in composition.files
};

class Composer
{
public:
    Composer(const HermesInput &input, const HermesSettings &settings)
        : m_input(input)
        , m_settings(settings)
    {}

    HermesComposition run();

private:
    int addReport(const QString &name,
                  const QString &path,
                  HermesBlock block,
                  const HermesFile &file);
    Sourced identity();
    Sourced projectContext();
    Sourced section(int report,
                    const Sourced &content,
                    const QString &label,
                    const QString &warnName);
    Sourced hermesMd();
    Sourced agentsChain();
    Sourced claude();
    Sourced cursorRules();
    void addRivals();
    Sourced memory(HermesMemoryStore &store,
                   int file,
                   const HermesFile &source,
                   const QString &name,
                   const QString &title,
                   qint64 limit,
                   bool enabled);

    const HermesInput &m_input;
    const HermesSettings &m_settings;
    HermesComposition m_out;
    QString m_winner; // label of the project file that won
};

int Composer::addReport(const QString &name,
                        const QString &path,
                        HermesBlock block,
                        const HermesFile &file)
{
    HermesFileReport report;
    report.name = name;
    report.path = path;
    report.block = block;
    report.state = file.state;
    report.badByte = file.badByte;
    report.reason = file.reason;
    if (file.state == HermesFile::State::Text)
        report.chars = codePointCount(pythonStripped(file.text));
    m_out.files.append(report);
    return int(m_out.files.size() - 1);
}

// load_soul_md.
Sourced Composer::identity()
{
    const HermesFile &soul = m_input.soul;
    const int index = addReport(QStringLiteral("SOUL.md"),
                                joinPath(m_input.homePath, QStringLiteral("SOUL.md")),
                                HermesBlock::Identity,
                                soul);
    if (soul.state != HermesFile::State::Text)
        return {};
    Sourced text = Sourced::ofFile(index, soul.text, pythonStripSpan(soul.text));
    if (text.text.contains(QLatin1String("## Messaging other agents")))
        text = withoutLegacyProtocol(text);
    if (text.text.isEmpty())
        return {};
    HermesFileReport &report = m_out.files[index];
    const Sourced scanned = scannedContext(text, QStringLiteral("SOUL.md"), &report);
    Sourced out = truncated(scanned, QStringLiteral("SOUL.md"), report.path, m_out.cap, &report.cut);
    // A SOUL.md of nothing but a second BOM scans to nothing: Hermes then
    // takes it as absent.
    report.used = !out.text.isEmpty();
    return out;
}

// _context_section: the scan, the header, the cap.
Sourced Composer::section(int report,
                          const Sourced &content,
                          const QString &label,
                          const QString &warnName)
{
    HermesFileReport &r = m_out.files[report];
    r.used = true;
    Sourced body = Sourced::literal(QStringLiteral("## ") + label + QStringLiteral("\n\n"));
    body += scannedContext(content, label, &r);
    return truncated(body, warnName, r.path, m_out.cap, &r.cut);
}

Sourced Composer::hermesMd()
{
    // From the project directory up to the git root: the first directory
    // with a regular file .hermes.md, else HERMES.md.
    for (qsizetype d = m_input.chain.size() - 1; d >= 0; --d) {
        const HermesProjectDirectory &dir = m_input.chain.at(d);
        for (const QString &name : {QStringLiteral(".hermes.md"), QStringLiteral("HERMES.md")}) {
            const HermesFile file = dir.file(name);
            if (file.state != HermesFile::State::Text && file.state != HermesFile::State::Unreadable)
                continue;
            const int index
                = addReport(name, joinPath(dir.path, name), HermesBlock::ProjectContext, file);
            const HermesSpan span = file.state == HermesFile::State::Text
                                        ? pythonStripSpan(file.text)
                                        : HermesSpan{};
            if (span.length == 0)
                return {}; // an empty or unreadable HERMES.md ends this source
            m_winner = name;
            m_out.projectSource = HermesProjectSource::HermesMd;
            return section(index,
                           withoutFrontmatter(Sourced::ofFile(index, file.text, span)),
                           name,
                           QStringLiteral(".hermes.md"));
        }
    }
    return {};
}

Sourced Composer::agentsChain()
{
    const qsizetype last = m_input.chain.size() - 1;
    QList<Sourced> sections;
    QStringList seen;
    QStringList seenLabels;
    for (qsizetype d = 0; d <= last; ++d) {
        const HermesProjectDirectory &dir = m_input.chain.at(d);
        for (const QString &name : {QStringLiteral("AGENTS.override.md"),
                                    QStringLiteral("AGENTS.md"),
                                    QStringLiteral("agents.md")}) {
            const HermesFile file = dir.file(name);
            if (file.state == HermesFile::State::Missing)
                continue;
            const QString label = d == last ? name : relativeUp(last - d, name);
            const int index
                = addReport(label, joinPath(dir.path, name), HermesBlock::ProjectContext, file);
            const HermesSpan span = file.state == HermesFile::State::Text
                                        ? pythonStripSpan(file.text)
                                        : HermesSpan{};
            if (span.length == 0)
                continue;
            const Sourced content = Sourced::ofFile(index, file.text, span);
            if (const qsizetype same = seen.indexOf(content.text); same >= 0) {
                m_out.files[index].beatenBy = seenLabels.at(same);
            } else {
                seen.append(content.text);
                seenLabels.append(label);
                sections.append(section(index, content, label, label));
            }
            break; // the first name with text wins in each directory
        }
    }
    if (sections.isEmpty())
        return {};
    m_out.projectSource = HermesProjectSource::AgentsChain;
    m_winner = seenLabels.join(QStringLiteral(", "));
    if (sections.size() == 1)
        return sections.first();
    Sourced joined;
    for (qsizetype i = 0; i < sections.size(); ++i) {
        if (i > 0)
            joined += QStringLiteral("\n\n");
        joined += sections.at(i);
    }
    return truncated(joined,
                     QStringLiteral("AGENTS.md (directory chain)"),
                     joinPath(m_input.chain.at(last).path, QStringLiteral("AGENTS.md")),
                     m_out.cap,
                     &m_out.chainCut);
}

Sourced Composer::claude()
{
    const HermesProjectDirectory &dir = m_input.chain.last();
    for (const QString &name : {QStringLiteral("CLAUDE.md"), QStringLiteral("claude.md")}) {
        const HermesFile file = dir.file(name);
        if (file.state == HermesFile::State::Missing)
            continue;
        const int index
            = addReport(name, joinPath(dir.path, name), HermesBlock::ProjectContext, file);
        const HermesSpan span = file.state == HermesFile::State::Text ? pythonStripSpan(file.text)
                                                                      : HermesSpan{};
        if (span.length == 0)
            continue;
        m_winner = name;
        m_out.projectSource = HermesProjectSource::Claude;
        return section(index,
                       Sourced::ofFile(index, file.text, span),
                       name,
                       QStringLiteral("CLAUDE.md"));
    }
    return {};
}

Sourced Composer::cursorRules()
{
    const HermesProjectDirectory &dir = m_input.chain.last();
    QList<std::pair<QString, HermesFile>> candidates = {
        {QStringLiteral(".cursorrules"), dir.file(QStringLiteral(".cursorrules"))}};
    candidates += m_input.cursorRules;
    Sourced joined;
    QList<int> reports;
    QStringList labels;
    for (const auto &[label, file] : std::as_const(candidates)) {
        if (file.state == HermesFile::State::Missing)
            continue;
        const int index
            = addReport(label, joinPath(dir.path, label), HermesBlock::ProjectContext, file);
        const HermesSpan span = file.state == HermesFile::State::Text ? pythonStripSpan(file.text)
                                                                      : HermesSpan{};
        if (span.length == 0)
            continue;
        HermesFileReport &report = m_out.files[index];
        report.used = true;
        joined += QStringLiteral("## ") + label + QStringLiteral("\n\n");
        joined += scannedContext(Sourced::ofFile(index, file.text, span), label, &report);
        joined += QStringLiteral("\n\n");
        reports.append(index);
        labels.append(label);
    }
    if (joined.text.isEmpty())
        return {};
    m_winner = labels.join(QStringLiteral(", "));
    m_out.projectSource = HermesProjectSource::CursorRules;
    HermesCut cut;
    Sourced out = truncated(joined,
                            QStringLiteral(".cursorrules"),
                            joinPath(dir.path, QStringLiteral(".cursorrules")),
                            m_out.cap,
                            &cut);
    for (int index : std::as_const(reports))
        m_out.files[index].cut = cut;
    return out;
}

// build_context_files_prompt: the first source that gives text.
Sourced Composer::projectContext()
{
    if (m_input.chain.isEmpty())
        return {};
    Sourced section = hermesMd();
    if (m_out.projectSource == HermesProjectSource::None)
        section = agentsChain();
    if (m_out.projectSource == HermesProjectSource::None)
        section = claude();
    if (m_out.projectSource == HermesProjectSource::None)
        section = cursorRules();
    addRivals();
    if (section.text.isEmpty())
        return {};
    Sourced block = Sourced::literal(
        QStringLiteral("# Project Context\n\nThe following project context files have been "
                       "loaded and should be followed:\n\n"));
    block += section;
    return block;
}

// Every other project file Hermes would have looked at, had the search not
// ended, so that a pane can say which file beat it.
void Composer::addRivals()
{
    QList<std::pair<QString, QString>> candidates; // label, path
    QList<HermesFile> files;
    const qsizetype last = m_input.chain.size() - 1;
    for (qsizetype d = last; d >= 0; --d) {
        const HermesProjectDirectory &dir = m_input.chain.at(d);
        for (const QString &name : {QStringLiteral(".hermes.md"), QStringLiteral("HERMES.md")}) {
            candidates.append({name, joinPath(dir.path, name)});
            files.append(dir.file(name));
        }
    }
    for (qsizetype d = 0; d <= last; ++d) {
        const HermesProjectDirectory &dir = m_input.chain.at(d);
        for (const QString &name : {QStringLiteral("AGENTS.override.md"),
                                    QStringLiteral("AGENTS.md"),
                                    QStringLiteral("agents.md")}) {
            candidates.append(
                {d == last ? name : relativeUp(last - d, name), joinPath(dir.path, name)});
            files.append(dir.file(name));
        }
    }
    const HermesProjectDirectory &project = m_input.chain.at(last);
    for (const QString &name : hermesProjectFileNames()) {
        candidates.append({name, joinPath(project.path, name)});
        files.append(project.file(name));
    }
    for (const auto &[label, file] : m_input.cursorRules) {
        candidates.append({label, joinPath(project.path, label)});
        files.append(file);
    }
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        const HermesFile &file = files.at(i);
        if (file.state == HermesFile::State::Missing)
            continue;
        bool listed = false;
        for (const HermesFileReport &report : std::as_const(m_out.files))
            listed = listed || report.path == candidates.at(i).second;
        if (listed)
            continue;
        const int index = addReport(candidates.at(i).first,
                                    candidates.at(i).second,
                                    HermesBlock::ProjectContext,
                                    file);
        m_out.files[index].read = false;
        if (m_out.files.at(index).chars > 0)
            m_out.files[index].beatenBy = m_winner;
    }
}

Sourced Composer::memory(HermesMemoryStore &store,
                         int file,
                         const HermesFile &source,
                         const QString &name,
                         const QString &title,
                         qint64 limit,
                         bool enabled)
{
    store.name = name;
    store.title = title;
    store.state = source.state;
    store.badByte = source.badByte;
    store.reason = source.reason;
    store.enabled = enabled;
    store.limit = limit;
    const QString raw = source.state == HermesFile::State::Text ? source.text : QString();
    // _parse_entries, then dict.fromkeys: stripped, non-empty, first of equals.
    QHash<QString, qsizetype> firstOf; // entry text -> index of its first occurrence
    QList<Sourced> kept;
    qsizetype at = 0;
    while (at <= raw.size() && !raw.isEmpty()) {
        qsizetype next = raw.indexOf(EntryDelimiter, at);
        if (next < 0)
            next = raw.size();
        HermesSpan span = pythonStripSpan(QStringView(raw).sliced(at, next - at));
        span.start += at;
        if (span.length == 0) {
            ++store.blankEntries;
        } else {
            HermesMemoryEntry entry;
            entry.span = span;
            entry.text = raw.mid(span.start, span.length);
            entry.chars = codePointCount(entry.text);
            if (const auto same = firstOf.constFind(entry.text); same != firstOf.cend()) {
                entry.duplicateOf = *same;
            } else {
                firstOf.insert(entry.text, store.entries.size());
                // The entry's own copy, shared: a memory file is often one
                // entry of megabytes.
                const Sourced text = Sourced::ofPiece(file, entry.text, span.start);
                if (!entry.text.startsWith(QLatin1String("[BLOCKED:")))
                    entry.scan = placed(hermesScanForThreats(entry.text, HermesScanScope::Strict),
                                        text);
                if (entry.scan.blocked()) {
                    entry.injected = blockedEntryLine(name, entry.scan);
                    kept.append(Sourced::literal(entry.injected));
                } else {
                    entry.injected = entry.text;
                    kept.append(text);
                }
            }
            store.entries.append(entry);
        }
        at = next + EntryDelimiter.size();
    }
    // The memory tool's count, and the entry that takes it over the limit.
    qsizetype running = 0;
    bool over = false;
    for (HermesMemoryEntry &entry : store.entries) {
        if (entry.duplicateOf >= 0)
            continue;
        running += (running > 0 ? codePointCount(EntryDelimiter) : 0) + entry.chars;
        if (running > limit && !over) {
            entry.pushesOverLimit = true;
            over = true;
        }
    }
    store.chars = running;
    if (kept.isEmpty())
        return {};
    // Each text made at its exact size: appending to a short one would
    // round its capacity up to a power of two, megabytes more for a memory
    // file of megabytes.
    qsizetype contentSize = (kept.size() - 1) * EntryDelimiter.size();
    for (const Sourced &entry : std::as_const(kept))
        contentSize += entry.text.size();
    Sourced content;
    if (kept.size() > 1)
        content.text.reserve(contentSize);
    for (qsizetype i = 0; i < kept.size(); ++i) {
        if (i > 0)
            content += EntryDelimiter;
        content += kept.at(i);
    }
    const qsizetype n = codePointCount(content.text);
    store.injectedChars = n;
    store.percent = limit > 0
                        ? int(std::min<qint64>(100, qint64(double(n) / double(limit) * 100.0)))
                        : 0;
    store.usage = QStringLiteral("%1% \u2014 %2/%3 chars")
                      .arg(store.percent)
                      .arg(pythonThousands(n), pythonThousands(limit));
    const QString rule = QString(46, QChar(0x2550));
    Sourced block = Sourced::literal(rule + QLatin1Char('\n') + title + QStringLiteral(" [")
                                     + store.usage + QStringLiteral("]\n") + rule
                                     + QLatin1Char('\n'));
    block.text.reserve(block.text.size() + content.text.size());
    block += content;
    store.block = block.text;
    if (!enabled) {
        store.block.clear();
        return {};
    }
    return block;
}

HermesComposition Composer::run()
{
    m_out.cap = qsizetype(m_settings.cap());
    const Sourced soul = identity();
    m_out.soulLoaded = !soul.text.isEmpty();
    const Sourced identityBlock = m_out.soulLoaded ? soul
                                                   : Sourced::literal(hermesDefaultIdentity());
    const Sourced project = projectContext();
    // Memory files are not in `files`: they take the two indexes after it.
    const int memoryIndex = int(m_out.files.size());
    const int userIndex = memoryIndex + 1;
    const Sourced memoryBlock = memory(m_out.memoryStore,
                                       memoryIndex,
                                       m_input.memory,
                                       QStringLiteral("MEMORY.md"),
                                       QStringLiteral("MEMORY (your personal notes)"),
                                       m_settings.memoryCharLimit,
                                       m_settings.memoryEnabled);
    const Sourced userBlock = memory(m_out.userStore,
                                     userIndex,
                                     m_input.user,
                                     QStringLiteral("USER.md"),
                                     QStringLiteral("USER PROFILE (who the user is)"),
                                     m_settings.userCharLimit,
                                     m_settings.userProfileEnabled);

    Sourced joined;
    const std::pair<HermesBlock, Sourced> blocks[] = {
        {HermesBlock::Identity, identityBlock.stripped()},
        {HermesBlock::ProjectContext, project.stripped()},
        {HermesBlock::Memory, memoryBlock.stripped()},
        {HermesBlock::UserProfile, userBlock.stripped()},
    };
    // The prompt at its exact size (see memory()).
    qsizetype joinedSize = 0;
    for (const auto &[kind, block] : blocks) {
        if (!block.text.isEmpty())
            joinedSize += (joinedSize > 0 ? 2 : 0) + block.text.size();
    }
    if (joinedSize > 0)
        joined.text.reserve(joinedSize);
    for (const auto &[kind, block] : blocks) {
        if (block.text.isEmpty())
            continue;
        if (!joined.text.isEmpty())
            joined += QStringLiteral("\n\n");
        m_out.blocks.append({kind, HermesSpan{joined.text.size(), block.text.size()}});
        joined += block;
    }
    m_out.identity = blocks[0].second.text;
    m_out.projectContext = blocks[1].second.text;
    m_out.memory = blocks[2].second.text;
    m_out.userProfile = blocks[3].second.text;
    m_out.joined = joined.text;
    for (int i = 0; i < int(m_out.files.size()); ++i)
        m_out.files[i].kept = keptSpans(joined, i);
    m_out.memoryStore.kept = keptSpans(joined, memoryIndex);
    m_out.userStore.kept = keptSpans(joined, userIndex);
    return std::move(m_out);
}

} // namespace

qint64 HermesSettings::cap() const
{
    if (contextFileMaxChars > 0)
        return contextFileMaxChars;
    if (contextWindow <= 0)
        return DefaultCap;
    // int(context_length * 4 * 0.06): the product by 4 is exact, then a double.
    const double budget = double(contextWindow) * double(CharsPerToken) * WindowFraction;
    const qint64 clamped = budget >= double(DynamicCeiling) ? DynamicCeiling : qint64(budget);
    return std::max(DefaultCap, clamped);
}

HermesFile hermesFileFromBytes(QByteArrayView bytes)
{
    HermesDecoded decoded = hermesDecode(bytes);
    HermesFile file;
    if (!decoded.ok) {
        file.state = HermesFile::State::Unreadable;
        file.badByte = decoded.badByte;
        file.reason = QStringLiteral("not valid UTF-8 (byte %1)").arg(decoded.badByte);
        return file;
    }
    return HermesFile::fromText(std::move(decoded.text));
}

HermesFile HermesProjectDirectory::file(QStringView name) const
{
    for (const auto &[n, f] : files) {
        if (n == name)
            return f;
    }
    return {};
}

QStringList hermesChainFileNames()
{
    return {QStringLiteral(".hermes.md"),
            QStringLiteral("HERMES.md"),
            QStringLiteral("AGENTS.override.md"),
            QStringLiteral("AGENTS.md"),
            QStringLiteral("agents.md")};
}

QStringList hermesProjectFileNames()
{
    return {QStringLiteral("CLAUDE.md"),
            QStringLiteral("claude.md"),
            QStringLiteral(".cursorrules")};
}

QString hermesDefaultIdentity()
{
    return QStringLiteral(
        "You are Hermes Agent, built by Nous Research. Be direct: match the length of your reply "
        "to the weight of the ask \u2014 a one-line question gets a one-line answer, and finished "
        "work gets a short report of what changed, what's verified, and what's left, never a "
        "replay of the process. No filler (\"Great question,\" \"I'd be happy to\"), no restating "
        "the request back, no re-summarizing what you already said, no narrating tool calls the "
        "user can see. Plain claims over adjectives; when unsure, say so plainly. Agree because "
        "it's right, not because the user said it. Depth is earned \u2014 give it when the user "
        "asks for detail, teaches, or the stakes demand it, not by default.");
}

const HermesFileReport *HermesComposition::file(QStringView name) const
{
    for (const HermesFileReport &report : files) {
        if (report.name == name)
            return &report;
    }
    return nullptr;
}

HermesComposition composeHermes(const HermesInput &input, const HermesSettings &settings)
{
    return Composer(input, settings).run();
}

} // namespace soul
