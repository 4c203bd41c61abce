#include "hermesruntime.h"

#include "counttext.h"
#include "hermeslint.h"
#include "hermesreader.h"
#include "hermesskills.h"
#include "runtime/reporttext.h"
#include "runtime/runtimeskills.h"
#include "tokens/tokenizer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <vector>

namespace soul {

namespace {

constexpr char ContextWindowKey[] = "contextWindow";
constexpr char ContextFileMaxCharsKey[] = "contextFileMaxChars";
constexpr char MemoryCharLimitKey[] = "memoryCharLimit";
constexpr char UserCharLimitKey[] = "userCharLimit";
constexpr char MemoryEnabledKey[] = "memoryEnabled";
constexpr char UserProfileEnabledKey[] = "userProfileEnabled";

// Everything the commands say about one persona under Hermes.
struct HermesReport
{
    HermesSettings settings;
    HermesInput input;
    HermesComposition composition;
    HermesLintPaths paths;
    QStringList neverRead;
    QList<Lint> lints;
};

// The files beside the persona's that Hermes never reads, as present.
QStringList neverReadFiles(const RuntimeInput &input)
{
    const bool flat = input.home.isEmpty();
    const QString dir = flat ? input.dir : input.project;
    QStringList names = {QStringLiteral("IDENTITY.md"),
                         QStringLiteral("TOOLS.md"),
                         QStringLiteral("HEARTBEAT.md")};
    // In a project, the persona files are read from the home, not from here.
    if (!flat
        && QFileInfo(input.project).canonicalFilePath() != QFileInfo(input.home).canonicalFilePath())
        names << QStringLiteral("SOUL.md") << QStringLiteral("MEMORY.md")
              << QStringLiteral("USER.md");
    QStringList present;
    for (const QString &name : std::as_const(names)) {
        if (input.buffersOnly ? input.buffers.contains(name)
                              : QFileInfo::exists(QDir(dir).filePath(name)))
            present.append(name);
    }
    return present;
}

// What Hermes reads of `input`, with the editor's buffers standing for the
// persona files of a flat folder.
Result<HermesInput> readHermesInput(const RuntimeInput &input)
{
    const bool flat = input.home.isEmpty();
    if (input.buffersOnly) {
        if (!QFileInfo(flat ? input.dir : input.project).isDir())
            return Result<HermesInput>::failure(
                QStringLiteral("%1 is not a directory. Give a persona folder.")
                    .arg(flat ? input.dir : input.project));
        return hermesInputFromFiles(flat ? input.dir : input.home,
                                    flat ? input.dir : input.project,
                                    input.buffers);
    }
    Result<HermesInput> read = flat ? readHermesFlat(input.dir)
                                    : readHermesHome(input.home, input.project);
    if (!read || input.buffers.isEmpty())
        return read;
    HermesInput held = std::move(read).value();
    const auto take = [&input](const QString &name, HermesFile &file) {
        const auto buffer = input.buffers.constFind(name);
        if (buffer != input.buffers.cend())
            file = hermesFileFromBytes(*buffer);
    };
    // The persona files: the folder's, or the home's.
    take(QStringLiteral("SOUL.md"), held.soul);
    take(QStringLiteral("MEMORY.md"), held.memory);
    take(QStringLiteral("USER.md"), held.user);
    if (held.chain.isEmpty())
        return held;
    // The project files by the names the composition gives them: the
    // project's by their names, those of a folder above by their path from
    // the project ("../AGENTS.md"), the cursor rules by theirs.
    const QDir project(held.chain.last().path);
    for (HermesProjectDirectory &dir : held.chain) {
        for (auto &[name, file] : dir.files)
            take(project.relativeFilePath(QDir(dir.path).filePath(name)), file);
    }
    for (auto &[label, file] : held.cursorRules)
        take(label, file);
    // A project file made in a pane and not saved yet.
    HermesProjectDirectory &last = held.chain.last();
    for (const QString &name : hermesChainFileNames() + hermesProjectFileNames()) {
        const auto buffer = input.buffers.constFind(name);
        if (buffer != input.buffers.cend() && last.file(name).state == HermesFile::State::Missing)
            last.files.append({name, hermesFileFromBytes(*buffer)});
    }
    return held;
}

// `lints`: also lint the persona (stat and check; compose only composes).
Result<HermesReport> hermesReport(const RuntimeInput &input,
                                  const HermesSettings &settings,
                                  bool lints = true)
{
    const bool flat = input.home.isEmpty();
    Result<HermesInput> read = readHermesInput(input);
    if (!read)
        return Result<HermesReport>::failure(read.error());
    HermesReport report;
    report.settings = settings;
    report.input = std::move(read).value();
    report.composition = composeHermes(report.input, report.settings);
    report.paths.flat = flat;
    report.paths.home = flat ? input.dir : input.home;
    report.paths.project = flat ? input.dir : input.project;
    report.neverRead = neverReadFiles(input);
    if (lints)
        report.lints = lintHermes(report.input, report.composition, report.paths, report.neverRead);
    return report;
}

QString blockName(HermesBlock block)
{
    switch (block) {
    case HermesBlock::Identity:
        return QStringLiteral("identity");
    case HermesBlock::ProjectContext:
        return QStringLiteral("project context");
    case HermesBlock::Memory:
        return QStringLiteral("memory");
    case HermesBlock::UserProfile:
        return QStringLiteral("user profile");
    }
    return {};
}

QString stateName(HermesFile::State state)
{
    switch (state) {
    case HermesFile::State::Missing:
        return QStringLiteral("missing");
    case HermesFile::State::NotAFile:
        return QStringLiteral("not a file");
    case HermesFile::State::Unreadable:
        return QStringLiteral("unreadable");
    case HermesFile::State::Text:
        return QStringLiteral("read");
    }
    return {};
}

// One row of the stat table: a file Hermes reads or looks at.
struct Row
{
    QString name;  // as the lints name it
    QString block; // identity, project context, memory, user profile; "-" for never read
    QString status;
    qsizetype chars = -1; // -1: none
    qsizetype kept = -1;
    qsizetype limit = -1;
    bool truncated = false;
    QStringList findings;
    QString beatenBy;
    const HermesMemoryStore *store = nullptr;
};

qsizetype keptChars(const QList<HermesSpan> &kept, const QString &text)
{
    qsizetype n = 0;
    for (const HermesSpan &span : kept)
        n += codePointCount(QStringView(text).sliced(span.start, span.length));
    return n;
}

QString fileText(const HermesInput &input, const HermesFileReport &f)
{
    if (f.block == HermesBlock::Identity)
        return input.soul.text;
    for (const HermesProjectDirectory &dir : input.chain) {
        for (const auto &[name, file] : dir.files) {
            if (f.path == dir.path + QLatin1Char('/') + name)
                return file.text;
        }
    }
    for (const auto &[label, file] : input.cursorRules) {
        if (f.name == label)
            return file.text;
    }
    return {};
}

QList<Row> rows(const HermesReport &report)
{
    const HermesComposition &c = report.composition;
    QList<Row> out;
    for (const HermesFileReport &f : c.files) {
        Row row;
        row.name = f.name;
        row.block = blockName(f.block);
        row.status = stateName(f.state);
        if (f.state == HermesFile::State::Text) {
            row.chars = f.chars;
            row.kept = keptChars(f.kept, fileText(report.input, f));
            if (f.used && f.scan.blocked())
                row.status = QStringLiteral("blocked");
            else if (!f.beatenBy.isEmpty())
                row.status = QStringLiteral("not chosen");
            else if (!f.used)
                row.status = QStringLiteral("empty");
        }
        if (f.block == HermesBlock::Identity && !c.soulLoaded)
            row.status += QStringLiteral(", default identity");
        if (f.used) {
            row.limit = c.cap;
            row.truncated = f.cut.truncated;
            row.findings = f.scan.ids();
        }
        row.beatenBy = f.beatenBy;
        out.append(row);
    }
    const HermesMemoryStore *stores[] = {&c.memoryStore, &c.userStore};
    const HermesFile *files[] = {&report.input.memory, &report.input.user};
    for (int k = 0; k < 2; ++k) {
        const HermesMemoryStore &s = *stores[k];
        Row row;
        row.store = &s;
        row.name = report.paths.flat ? s.name : QStringLiteral("memories/") + s.name;
        row.block = blockName(k == 0 ? HermesBlock::Memory : HermesBlock::UserProfile);
        row.status = s.enabled ? stateName(s.state) : QStringLiteral("off");
        row.limit = s.limit;
        if (s.state == HermesFile::State::Text) {
            row.chars = s.chars;
            row.kept = keptChars(s.kept, files[k]->text);
            qsizetype blocked = 0;
            qsizetype duplicates = 0;
            for (const HermesMemoryEntry &e : s.entries) {
                blocked += e.scan.blocked();
                duplicates += e.duplicateOf >= 0;
            }
            QStringList notes = {plural(s.entries.size() - duplicates, "entry", "entries")};
            if (duplicates > 0)
                notes.append(
                    QStringLiteral("%1 dropped").arg(plural(duplicates, "duplicate", "duplicates")));
            if (blocked > 0)
                notes.append(QStringLiteral("%1 blocked").arg(formatCount(blocked)));
            if (s.overLimit())
                notes.append(QStringLiteral("over the limit"));
            if (s.enabled)
                row.status += QStringLiteral(" (") + notes.join(QStringLiteral(", "))
                              + QLatin1Char(')');
        }
        out.append(row);
    }
    for (const QString &name : report.neverRead) {
        Row row;
        row.name = name;
        row.block = QStringLiteral("-");
        row.status = QStringLiteral("never read");
        out.append(row);
    }
    return out;
}

QString settingsText(const HermesSettings &s, qsizetype cap)
{
    QString window
        = s.contextFileMaxChars > 0
              ? QStringLiteral("context_file_max_chars")
              : (s.contextWindow > 0
                     ? QStringLiteral("a %1-token window").arg(formatCount(s.contextWindow))
                     : QStringLiteral("window unknown"));
    return QStringLiteral("cap %1 characters (%2); memory %3, user %4 characters")
        .arg(formatCount(cap),
             window,
             s.memoryEnabled ? formatCount(s.memoryCharLimit) : QStringLiteral("off"),
             s.userProfileEnabled ? formatCount(s.userCharLimit) : QStringLiteral("off"));
}

QString whereText(const HermesReport &report)
{
    if (report.paths.flat)
        return QStringLiteral("persona  %1\n").arg(report.paths.home);
    return QStringLiteral("home     %1\nproject  %2\n").arg(report.paths.home, report.paths.project);
}

QList<std::pair<HermesBlock, QString>> presentBlocks(const HermesComposition &c)
{
    QList<std::pair<HermesBlock, QString>> out;
    for (const auto &[block, span] : c.blocks)
        out.append({block, c.joined.mid(span.start, span.length)});
    return out;
}

QByteArray statText(const HermesReport &report, const Tokenizer &tokenizer)
{
    const HermesComposition &c = report.composition;
    const QString dash = QStringLiteral("-");
    QList<QStringList> table;
    table.append({QStringLiteral("file"),
                  QStringLiteral("block"),
                  QStringLiteral("status"),
                  QStringLiteral("chars"),
                  QStringLiteral("kept"),
                  QStringLiteral("limit"),
                  QStringLiteral("truncated")});
    for (const Row &row : rows(report)) {
        table.append({row.name,
                      row.block,
                      row.status,
                      row.chars >= 0 ? formatCount(row.chars) : dash,
                      row.kept >= 0 ? formatCount(row.kept) : dash,
                      row.limit >= 0 ? formatCount(row.limit) : dash,
                      row.limit >= 0 && !row.store
                          ? (row.truncated ? QStringLiteral("yes") : QStringLiteral("no"))
                          : dash});
    }
    QByteArray out = (whereText(report)
                      + QStringLiteral("runtime  Hermes Agent 0.21.3 (%1)\n\n")
                            .arg(settingsText(report.settings, c.cap)))
                         .toUtf8();
    out += renderTable(table, {false, false, false, true, true, true, false});
    out += '\n';
    QList<QStringList> blocks;
    blocks.append({QStringLiteral("block"), QStringLiteral("chars"), QStringLiteral("tokens")});
    for (const auto &[block, text] : presentBlocks(c))
        blocks.append({blockName(block),
                       formatCount(codePointCount(text)),
                       formatCount(tokenizer.count(text.toUtf8()))});
    out += renderTable(blocks, {false, true, true});
    if (!report.lints.isEmpty()) {
        out += '\n';
        for (const Lint &lint : report.lints)
            out += (lint.file + QStringLiteral(": ") + lintLevelName(lint.level)
                    + QStringLiteral(": ") + lint.message + QLatin1Char('\n'))
                       .toUtf8();
    }
    const QByteArray bytes = c.joined.toUtf8();
    out += QStringLiteral("\nprompt   %1 characters, %2 bytes, %3 tokens (%4)\nsha256   %5\n")
               .arg(formatCount(codePointCount(c.joined)),
                    formatCount(bytes.size()),
                    formatCount(tokenizer.count(bytes)),
                    tokenizer.name(),
                    sha256Hex(bytes))
               .toUtf8();
    return out;
}

// Each finding's id, and where it is: line, column and length in code points.
QJsonArray findingsJson(const HermesScan &scan, const QString &text, const HermesLines &lines)
{
    QJsonArray out;
    for (const HermesFinding &f : scan.findings) {
        QJsonObject o{{QStringLiteral("id"), f.id}};
        if (f.start >= 0) {
            o.insert(QStringLiteral("line"), lines.line(f.start));
            o.insert(QStringLiteral("column"), lines.column(f.start));
            o.insert(QStringLiteral("length"),
                     codePointCount(QStringView(text).sliced(f.start, f.length)));
        }
        out.append(o);
    }
    return out;
}

QByteArray statJson(const HermesReport &report, const Tokenizer &tokenizer)
{
    const HermesComposition &c = report.composition;
    QJsonArray files;
    for (const HermesFileReport &f : c.files) {
        const QString text = fileText(report.input, f);
        QJsonObject o{
            {QStringLiteral("name"), f.name},
            {QStringLiteral("path"), f.path},
            {QStringLiteral("block"), blockName(f.block)},
            {QStringLiteral("status"), stateName(f.state)},
            {QStringLiteral("read"), f.read},
            {QStringLiteral("used"), f.used},
            {QStringLiteral("chars"), f.chars},
            {QStringLiteral("keptChars"), keptChars(f.kept, text)},
            {QStringLiteral("truncated"), f.cut.truncated},
            {QStringLiteral("blocked"), f.used && f.scan.blocked()},
            {QStringLiteral("findings"), findingsJson(f.scan, text, HermesLines(text))},
            {QStringLiteral("beatenBy"),
             f.beatenBy.isEmpty() ? QJsonValue() : QJsonValue(f.beatenBy)},
        };
        if (f.badByte >= 0)
            o.insert(QStringLiteral("badByte"), f.badByte);
        if (f.cut.truncated) {
            o.insert(QStringLiteral("cut"),
                     QJsonObject{{QStringLiteral("length"), f.cut.length},
                                 {QStringLiteral("cap"), f.cut.cap},
                                 {QStringLiteral("head"), f.cut.head},
                                 {QStringLiteral("tail"), f.cut.tail}});
        }
        files.append(o);
    }
    QJsonArray stores;
    const HermesFile *sources[] = {&report.input.memory, &report.input.user};
    int k = 0;
    for (const HermesMemoryStore *store : {&c.memoryStore, &c.userStore}) {
        const QString &text = sources[k++]->text;
        const HermesLines lines(text);
        QJsonArray entries;
        for (const HermesMemoryEntry &e : store->entries) {
            entries.append(QJsonObject{
                {QStringLiteral("line"), lines.line(e.span.start)},
                {QStringLiteral("chars"), e.chars},
                {QStringLiteral("duplicateOf"),
                 e.duplicateOf >= 0 ? QJsonValue(e.duplicateOf + 1) : QJsonValue()},
                {QStringLiteral("blocked"), e.scan.blocked()},
                {QStringLiteral("findings"), findingsJson(e.scan, text, lines)},
                {QStringLiteral("pushesOverLimit"), e.pushesOverLimit},
            });
        }
        stores.append(QJsonObject{
            {QStringLiteral("name"), store->name},
            {QStringLiteral("status"), stateName(store->state)},
            {QStringLiteral("enabled"), store->enabled},
            {QStringLiteral("limit"), store->limit},
            {QStringLiteral("chars"), store->chars},
            {QStringLiteral("injectedChars"), store->injectedChars},
            {QStringLiteral("percent"), store->percent},
            {QStringLiteral("usage"), store->usage},
            {QStringLiteral("overLimit"), store->overLimit()},
            {QStringLiteral("blankEntries"), store->blankEntries},
            {QStringLiteral("entries"), entries},
        });
    }
    QJsonArray blocks;
    for (const auto &[block, text] : presentBlocks(c)) {
        const QByteArray bytes = text.toUtf8();
        blocks.append(QJsonObject{{QStringLiteral("name"), blockName(block)},
                                  {QStringLiteral("chars"), codePointCount(text)},
                                  {QStringLiteral("bytes"), bytes.size()},
                                  {QStringLiteral("tokens"), tokenizer.count(bytes)}});
    }
    QJsonArray lints;
    for (const Lint &lint : report.lints) {
        lints.append(QJsonObject{
            {QStringLiteral("file"), lint.file},
            {QStringLiteral("level"), lintLevelName(lint.level)},
            {QStringLiteral("code"), lint.code},
            {QStringLiteral("message"), lint.message},
        });
    }
    QJsonArray neverRead = QJsonArray::fromStringList(report.neverRead);
    const QByteArray bytes = c.joined.toUtf8();
    QJsonObject root{
        {QStringLiteral("runtime"), QStringLiteral("hermes")},
        {QStringLiteral("runtimeName"), QStringLiteral("Hermes Agent 0.21.3")},
        {QStringLiteral("layout"),
         report.paths.flat ? QStringLiteral("flat") : QStringLiteral("home")},
        {QStringLiteral("home"), report.input.homePath},
        {QStringLiteral("project"),
         report.input.chain.isEmpty() ? QString() : report.input.chain.last().path},
        {QStringLiteral("settings"),
         QJsonObject{
             {QStringLiteral("cap"), c.cap},
             {QStringLiteral("contextWindow"),
              report.settings.contextWindow > 0 ? QJsonValue(report.settings.contextWindow)
                                                : QJsonValue()},
             {QStringLiteral("contextFileMaxChars"),
              report.settings.contextFileMaxChars > 0
                  ? QJsonValue(report.settings.contextFileMaxChars)
                  : QJsonValue()},
             {QStringLiteral("memoryCharLimit"), report.settings.memoryCharLimit},
             {QStringLiteral("userCharLimit"), report.settings.userCharLimit},
             {QStringLiteral("memoryEnabled"), report.settings.memoryEnabled},
             {QStringLiteral("userProfileEnabled"), report.settings.userProfileEnabled},
         }},
        {QStringLiteral("soulLoaded"), c.soulLoaded},
        {QStringLiteral("files"), files},
        {QStringLiteral("memory"), stores},
        {QStringLiteral("neverRead"), neverRead},
        {QStringLiteral("blocks"), blocks},
        {QStringLiteral("lints"), lints},
        {QStringLiteral("prompt"),
         QJsonObject{
             {QStringLiteral("chars"), codePointCount(c.joined)},
             {QStringLiteral("bytes"), bytes.size()},
             {QStringLiteral("encoding"), tokenizer.name()},
             {QStringLiteral("tokens"), tokenizer.count(bytes)},
             {QStringLiteral("sha256"), sha256Hex(bytes)},
         }},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// Maps positions of Hermes's text of a file (BOM dropped, CR LF and a lone
// CR read as LF) to the file's decoded text (utf8::decode of its bytes: BOM
// and CR LF kept), which RuntimeFileView's ranges are in.
class DecodedPositions
{
public:
    // `bytes` are valid UTF-8, as Hermes read them: their decoded text has one
    // UTF-16 unit per lead byte and two for a four-byte sequence, so the map
    // is made from the bytes, not from a decoded copy of a file of megabytes.
    explicit DecodedPositions(QByteArrayView bytes)
    {
        qsizetype i = 0;
        if (bytes.startsWith("\xEF\xBB\xBF")) {
            m_bom = 1;
            i = 3;
        }
        const qsizetype n = bytes.size();
        qsizetype hermes = 0;
        for (; i < n; ++i) {
            const auto byte = uchar(bytes[i]);
            if ((byte & 0xC0) == 0x80)
                continue;
            if (byte == '\r' && i + 1 < n && bytes[i + 1] == '\n') {
                m_crlf.push_back(hermes);
                ++i;
            }
            hermes += byte >= 0xF0 ? 2 : 1;
        }
    }

    qsizetype map(qsizetype position) const
    {
        const auto before = std::lower_bound(m_crlf.begin(), m_crlf.end(), position)
                            - m_crlf.begin();
        return position + m_bom + before;
    }

    KeptRange map(qsizetype start, qsizetype length) const
    {
        const qsizetype from = map(start);
        return {from, map(start + length) - from};
    }

private:
    qsizetype m_bom = 0;
    std::vector<qsizetype> m_crlf;
};

// The bytes of `name` as the window holds them (its buffer) or as they are on
// disk at `path`; empty when it cannot be read.
// What a file of a project-context block that joins several files puts in
// it: its BLOCKED line, or the parts of its text the cut keeps (the section
// headers Hermes writes around them are the block's).
QString joinedFilePart(const HermesInput &input, const HermesFileReport &f)
{
    if (f.scan.blocked())
        return f.blockedLine;
    const HermesFile *file = nullptr;
    for (const HermesProjectDirectory &dir : input.chain) {
        for (const auto &[name, candidate] : dir.files) {
            if (QDir(dir.path).filePath(name) == f.path)
                file = &candidate;
        }
    }
    for (const auto &[name, candidate] : input.cursorRules) {
        if (name == f.name)
            file = &candidate;
    }
    QString part;
    if (!file)
        return part;
    for (const HermesSpan &span : f.kept)
        part += QStringView(file->text).sliced(span.start, span.length);
    return part;
}

QByteArray fileBytes(const RuntimeInput &input, const QString &name, const QString &path)
{
    const auto buffer = input.buffers.constFind(name);
    if (buffer != input.buffers.cend())
        return *buffer;
    if (input.buffersOnly)
        return {};
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The places of a scan's findings.
QList<KeptRange> findingRanges(const HermesScan &scan, const DecodedPositions &positions)
{
    QList<KeptRange> out;
    for (const HermesFinding &finding : scan.findings) {
        if (finding.start >= 0)
            out.append(positions.map(finding.start, qMax<qsizetype>(1, finding.length)));
    }
    return out;
}

// What Hermes's prompt holds after a persona block's place (section 9 of
// the rule), up to the next one's: the rest of the stable tier and the
// context tier's start after the identity, the skills index after the project
// context, nothing between memory and user profile, and the volatile tier's
// end after the user profile.
QString gapAfter(HermesBlock block)
{
    switch (block) {
    case HermesBlock::Identity:
        return QStringLiteral("Hermes's other stable blocks (help, tool and model guidance, "
                              "\u2026) and its workspace context");
    case HermesBlock::ProjectContext:
        return QStringLiteral("the skills index");
    case HermesBlock::Memory:
        return {};
    case HermesBlock::UserProfile:
        return QStringLiteral("external memory and plugin blocks, and the \u201CConversation "
                              "started:\u201D line");
    }
    return {};
}

// The blocks of the composed text, and what Hermes puts between them: what
// follows each present block's place up to the next present one.
QList<RuntimeBlock> runtimeBlocks(const HermesComposition &c)
{
    QList<RuntimeBlock> out;
    for (qsizetype i = 0; i < c.blocks.size(); ++i) {
        const auto &[block, span] = c.blocks.at(i);
        RuntimeBlock b;
        b.name = blockName(block);
        b.range = {span.start, span.length};
        for (const HermesFileReport &f : c.files) {
            if (f.used && f.block == block)
                b.source += (b.source.isEmpty() ? QString() : QStringLiteral(", ")) + f.name;
        }
        if (block == HermesBlock::Memory)
            b.source = c.memoryStore.name;
        else if (block == HermesBlock::UserProfile)
            b.source = c.userStore.name;
        else if (block == HermesBlock::Identity && !c.soulLoaded)
            b.source = QStringLiteral("Hermes's default identity");
        const HermesBlock next = i + 1 < c.blocks.size() ? c.blocks.at(i + 1).first
                                                         : HermesBlock::UserProfile;
        QStringList gaps;
        for (int k = int(block); k <= int(next); ++k) {
            if (k == int(next) && i + 1 < c.blocks.size())
                break;
            const QString gap = gapAfter(HermesBlock(k));
            if (!gap.isEmpty())
                gaps.append(gap);
        }
        b.gapAfter = gaps.join(QStringLiteral("; "));
        out.append(b);
    }
    return out;
}

QJsonArray spansJson(const QList<HermesSpan> &spans)
{
    QJsonArray out;
    for (const HermesSpan &span : spans)
        out.append(QJsonArray{span.start, span.length});
    return out;
}

// The files of the project-context block in `composition`, as the panes name them.
QStringList projectBlockSource(const RuntimeComposition &composition)
{
    const QString block = blockName(HermesBlock::ProjectContext);
    for (const RuntimeBlock &b : composition.blocks) {
        if (b.name == block)
            return b.source.split(QStringLiteral(", "), Qt::SkipEmptyParts);
    }
    return {};
}

} // namespace

HermesSettings hermesSettings(const RuntimeSettings &values)
{
    HermesSettings s;
    s.contextWindow = values.value(QLatin1String(ContextWindowKey), s.contextWindow);
    s.contextFileMaxChars = values.value(QLatin1String(ContextFileMaxCharsKey),
                                         s.contextFileMaxChars);
    s.memoryCharLimit = values.value(QLatin1String(MemoryCharLimitKey), s.memoryCharLimit);
    s.userCharLimit = values.value(QLatin1String(UserCharLimitKey), s.userCharLimit);
    s.memoryEnabled = values.value(QLatin1String(MemoryEnabledKey), 1) != 0;
    s.userProfileEnabled = values.value(QLatin1String(UserProfileEnabledKey), 1) != 0;
    return s;
}

RuntimeSettings hermesSettingValues(const HermesSettings &s)
{
    return {{QLatin1String(ContextWindowKey), s.contextWindow},
            {QLatin1String(ContextFileMaxCharsKey), s.contextFileMaxChars},
            {QLatin1String(MemoryCharLimitKey), s.memoryCharLimit},
            {QLatin1String(UserCharLimitKey), s.userCharLimit},
            {QLatin1String(MemoryEnabledKey), s.memoryEnabled ? 1 : 0},
            {QLatin1String(UserProfileEnabledKey), s.userProfileEnabled ? 1 : 0}};
}

QString HermesRuntime::id() const
{
    return QStringLiteral("hermes");
}

QString HermesRuntime::displayName() const
{
    return QStringLiteral("Hermes Agent 0.21.3");
}

QString HermesRuntime::shortName() const
{
    return QStringLiteral("Hermes");
}

QString HermesRuntime::description() const
{
    return QStringLiteral("what %1 injects, from DIR or from %2 HOME --project DIR")
        .arg(displayName(), homeOption());
}

QString HermesRuntime::optionsHelp() const
{
    return QStringLiteral(R"(
Hermes options (with --runtime hermes; the defaults are Hermes's):
  --hermes-home HOME           Hermes's home: HOME/SOUL.md, HOME/memories/
  --project DIR                the folder Hermes runs in (with --hermes-home)
  --context-window TOKENS      the model's window: the cap on SOUL.md and the
                               project file is 6% of it in characters (x4),
                               20,000 to 500,000; unknown by default (20,000)
  --context-file-max-chars N   config.yaml's context_file_max_chars: the cap
  --memory-char-limit N        MEMORY.md's limit (2,200)
  --user-char-limit N          USER.md's limit (1,375)
  --no-memory, --no-user-profile   leave out MEMORY.md's or USER.md's block

)");
}

QString HermesRuntime::homeDirectory() const
{
    return hermesHomeDirectory();
}

QString HermesRuntime::homeOption() const
{
    return QStringLiteral("--hermes-home");
}

Result<SlotLayout> HermesRuntime::homeLayout(const QString &home,
                                             const QString &project,
                                             const QString &preferred) const
{
    return hermesHomeLayout(home, project, preferred);
}

Result<QStringList> HermesRuntime::homeProjectFiles(const QString &home,
                                                    const QString &project) const
{
    return hermesProjectFiles(home, project);
}

QStringList HermesRuntime::homeProjectFolders(const QString &project) const
{
    return hermesProjectFolders(project);
}

QStringList HermesRuntime::readPaths(const RuntimeInput &input, const QStringList &slotNames) const
{
    QStringList paths;
    const auto addNames = [&paths](const QString &folder, const QStringList &names) {
        for (const QString &name : names)
            paths.append(QDir(folder).filePath(name));
    };
    const QStringList projectNames = hermesChainFileNames() + hermesProjectFileNames();
    const bool flat = input.home.isEmpty();
    const QString home = flat ? input.dir : input.home;
    const QString project = flat ? home : input.project;
    addNames(home, slotNames);
    addNames(QDir(home).filePath(QStringLiteral("memories")),
             {QStringLiteral("MEMORY.md"), QStringLiteral("USER.md")});
    addNames(project, slotNames + projectNames);
    for (const QString &folder : hermesProjectFolders(project))
        addNames(folder, projectNames);
    return paths;
}

QString HermesRuntime::readRulesFolder(const RuntimeInput &input) const
{
    return QDir(input.home.isEmpty() ? input.dir : input.project)
        .filePath(QStringLiteral(".cursor/rules"));
}

QStringList HermesRuntime::files() const
{
    // The flat layout: the persona files, then the project files in the order
    // Hermes looks for them.
    QStringList names = {QStringLiteral("SOUL.md")};
    names += hermesChainFileNames();
    names += hermesProjectFileNames();
    names << QStringLiteral("MEMORY.md") << QStringLiteral("USER.md");
    return names;
}

QStringList HermesRuntime::neverRead() const
{
    return {QStringLiteral("IDENTITY.md"),
            QStringLiteral("TOOLS.md"),
            QStringLiteral("HEARTBEAT.md")};
}

QList<RuntimeSetting> HermesRuntime::settings() const
{
    const HermesSettings defaults;
    RuntimeSetting window;
    window.key = QLatin1String(ContextWindowKey);
    window.label = QStringLiteral("Context window");
    window.toolTip = QStringLiteral("The model's context window in tokens, which sets the cap on "
                                    "SOUL.md and the project file");
    window.defaultValue = defaults.contextWindow;
    window.maximum = 100000000;
    window.minimumText = QStringLiteral("unknown");
    window.option = QStringLiteral("--context-window");
    RuntimeSetting fileMax = window;
    fileMax.key = QLatin1String(ContextFileMaxCharsKey);
    fileMax.label = QStringLiteral("context_file_max_chars");
    fileMax.toolTip = QStringLiteral("config.yaml's context_file_max_chars: the cap, when set");
    fileMax.defaultValue = defaults.contextFileMaxChars;
    fileMax.minimumText = QStringLiteral("unset");
    fileMax.option = QStringLiteral("--context-file-max-chars");
    RuntimeSetting memory;
    memory.key = QLatin1String(MemoryCharLimitKey);
    memory.label = QStringLiteral("Memory limit");
    memory.toolTip = QStringLiteral("memory_char_limit: what MEMORY.md may hold");
    memory.defaultValue = defaults.memoryCharLimit;
    memory.minimum = 1;
    memory.maximum = 10000000;
    memory.option = QStringLiteral("--memory-char-limit");
    RuntimeSetting user = memory;
    user.key = QLatin1String(UserCharLimitKey);
    user.label = QStringLiteral("User limit");
    user.toolTip = QStringLiteral("user_char_limit: what USER.md may hold");
    user.defaultValue = defaults.userCharLimit;
    user.option = QStringLiteral("--user-char-limit");
    RuntimeSetting memoryOn;
    memoryOn.key = QLatin1String(MemoryEnabledKey);
    memoryOn.label = QStringLiteral("Memory");
    memoryOn.toolTip = QStringLiteral("memory_enabled: MEMORY.md is injected");
    memoryOn.flag = true;
    memoryOn.defaultValue = 1;
    memoryOn.maximum = 1;
    memoryOn.option = QStringLiteral("--no-memory");
    RuntimeSetting userOn = memoryOn;
    userOn.key = QLatin1String(UserProfileEnabledKey);
    userOn.label = QStringLiteral("User profile");
    userOn.toolTip = QStringLiteral("user_profile_enabled: USER.md is injected");
    userOn.option = QStringLiteral("--no-user-profile");
    return {window, fileMax, memory, user, memoryOn, userOn};
}

qint64 HermesRuntime::fileBudget(QStringView fileName, const RuntimeSettings &values) const
{
    const HermesSettings s = hermesSettings(values);
    if (fileName == QLatin1String("MEMORY.md"))
        return s.memoryCharLimit;
    if (fileName == QLatin1String("USER.md"))
        return s.userCharLimit;
    return s.cap();
}

Result<RuntimeComposition> HermesRuntime::compose(const RuntimeInput &input,
                                                  const RuntimeSettings &values) const
{
    const Result<HermesReport> report = hermesReport(input, hermesSettings(values));
    if (!report)
        return Result<RuntimeComposition>::failure(report.error());
    const HermesComposition &c = report->composition;
    RuntimeComposition out;
    out.text = c.joined;
    out.lints = report->lints;
    out.problems = hermesHasProblems(c);
    QJsonArray manifestFiles;
    bool saidRivals = false;
    for (const HermesFileReport &f : c.files) {
        if (f.used)
            out.found.append(f.name);
        RuntimeFileView view;
        view.name = f.name;
        view.loaded = f.read;
        view.present = f.state == HermesFile::State::Text;
        view.used = view.present ? f.chars : -1;
        view.budget = c.cap;
        view.injected = f.used;
        view.whole = f.used && !f.cut.truncated && !f.scan.blocked();
        view.truncated = f.used && f.cut.truncated;
        view.droppedAll = view.present && !f.used;
        // Mark what the scan blocks and what the cut drops, in the pane of
        // the file.
        if (view.present) {
            if (f.used && f.scan.blocked()) {
                const DecodedPositions positions(fileBytes(input, f.name, f.path));
                view.marked = findingRanges(f.scan, positions);
                view.markNote = QStringLiteral("Hermes's threat scan matches here (%1): the "
                                               "whole file becomes a BLOCKED line")
                                    .arg(f.scan.ids().join(QStringLiteral(", ")));
                view.markWarns = true;
            } else if (f.cut.truncated && f.kept.size() == 2) {
                const DecodedPositions positions(fileBytes(input, f.name, f.path));
                const qsizetype from = f.kept.first().end();
                view.dropped = positions.map(from, f.kept.last().start - from);
            }
        }
        // The (first) project file Hermes reads says which rivals it won over.
        if (f.used && f.block == HermesBlock::ProjectContext && !saidRivals) {
            saidRivals = true;
            QStringList beaten;
            for (const HermesFileReport &rival : c.files) {
                if (!rival.beatenBy.isEmpty())
                    beaten.append(rival.name);
            }
            if (!beaten.isEmpty())
                view.status = QStringLiteral("Hermes reads %1 for the project context: it comes "
                                             "before %2, which Hermes does not read.")
                                  .arg(f.name, beaten.join(QStringLiteral(", ")));
        }
        out.files.append(view);
        manifestFiles.append(QJsonObject{
            {QStringLiteral("name"), f.name},
            {QStringLiteral("status"), stateName(f.state)},
            {QStringLiteral("chars"), f.chars},
            {QStringLiteral("used"), f.used},
            {QStringLiteral("truncated"), f.cut.truncated},
            {QStringLiteral("blocked"), f.used && f.scan.blocked()},
            {QStringLiteral("kept"), spansJson(f.kept)},
        });
    }
    for (const HermesMemoryStore *store : {&c.memoryStore, &c.userStore}) {
        if (!store->block.isEmpty())
            out.found.append(store->name);
        RuntimeFileView view;
        view.name = store->name;
        view.loaded = store->enabled;
        view.present = store->state == HermesFile::State::Text;
        view.used = view.present ? store->chars : -1;
        view.budget = store->limit;
        view.injected = !store->block.isEmpty();
        view.whole = view.injected;
        if (!store->enabled) {
            view.status
                = QStringLiteral("%1 is off in Hermes's settings: not injected.").arg(store->name);
        } else if (view.present) {
            qsizetype duplicates = 0;
            for (const HermesMemoryEntry &entry : store->entries)
                duplicates += entry.duplicateOf >= 0;
            view.status = QStringLiteral("%1 [%2], %3")
                              .arg(store->title.section(QLatin1Char(' '), 0, 0),
                                   store->usage,
                                   plural(store->entries.size() - duplicates, "entry", "entries"));
            if (duplicates > 0)
                view.status += QStringLiteral(", %1 dropped")
                                   .arg(plural(duplicates, "duplicate", "duplicates"));
            view.status += QLatin1Char('.');
        }
        const bool blocked = std::any_of(store->entries.cbegin(),
                                         store->entries.cend(),
                                         [](const HermesMemoryEntry &entry) {
                                             return entry.scan.blocked();
                                         });
        if (view.present && blocked) {
            const QString path
                = input.home.isEmpty()
                      ? QDir(input.dir).filePath(store->name)
                      : QDir(input.home).filePath(QStringLiteral("memories/") + store->name);
            const DecodedPositions positions(fileBytes(input, store->name, path));
            QStringList ids;
            for (const HermesMemoryEntry &entry : store->entries) {
                if (!entry.scan.blocked())
                    continue;
                view.marked += findingRanges(entry.scan, positions);
                ids += entry.scan.ids();
            }
            if (!view.marked.isEmpty()) {
                ids.removeDuplicates();
                view.markNote = QStringLiteral("Hermes's threat scan matches here (%1): the "
                                               "entry becomes a BLOCKED line")
                                    .arg(ids.join(QStringLiteral(", ")));
                view.markWarns = true;
            }
        }
        out.files.append(view);
        manifestFiles.append(QJsonObject{
            {QStringLiteral("name"), store->name},
            {QStringLiteral("status"), stateName(store->state)},
            {QStringLiteral("chars"), store->chars},
            {QStringLiteral("limit"), store->limit},
            {QStringLiteral("enabled"), store->enabled},
            {QStringLiteral("kept"), spansJson(store->kept)},
        });
    }
    // What each file's text comes to in the prompt: the identity block is
    // SOUL.md's (or its BLOCKED line); the project-context block is the
    // winning file's, whole when one file gave it.
    qsizetype projectFiles = 0;
    for (const HermesFileReport &f : c.files)
        projectFiles += f.used && f.block == HermesBlock::ProjectContext;
    out.blocks = runtimeBlocks(c);
    const auto blockIndex = [&c](HermesBlock block) {
        for (qsizetype i = 0; i < c.blocks.size(); ++i) {
            if (c.blocks.at(i).first == block)
                return int(i);
        }
        return -1;
    };
    for (qsizetype i = 0; i < c.files.size(); ++i) {
        const HermesFileReport &f = c.files.at(i);
        if (!f.used)
            continue;
        if (f.block == HermesBlock::Identity)
            out.files[i].block = blockIndex(HermesBlock::Identity);
        else if (f.block == HermesBlock::ProjectContext && projectFiles == 1)
            out.files[i].block = blockIndex(HermesBlock::ProjectContext);
        else if (f.block == HermesBlock::ProjectContext)
            out.files[i].injectedText = joinedFilePart(report->input, f);
    }
    // The memory stores' views follow the files'.
    out.files[c.files.size()].block = blockIndex(HermesBlock::Memory);
    out.files[c.files.size() + 1].block = blockIndex(HermesBlock::UserProfile);
    out.manifest = QJsonObject{
        {QStringLiteral("runtime"), id()},
        {QStringLiteral("runtimeName"), displayName()},
        {QStringLiteral("settings"), QJsonObject::fromVariantMap([&values, this] {
             QVariantMap map;
             const RuntimeSettings all = withDefaults(values);
             for (auto it = all.cbegin(); it != all.cend(); ++it)
                 map.insert(it.key(), it.value());
             return map;
         }())},
        {QStringLiteral("layout"),
         input.home.isEmpty() ? QStringLiteral("flat") : QStringLiteral("home")},
        {QStringLiteral("files"), manifestFiles},
    };
    return out;
}

Result<QByteArray> HermesRuntime::statReport(const RuntimeInput &input,
                                             const RuntimeSettings &values,
                                             const Tokenizer &tokenizer,
                                             bool json) const
{
    const Result<HermesReport> report = hermesReport(input, hermesSettings(values));
    if (!report)
        return Result<QByteArray>::failure(report.error());
    return json ? statJson(*report, tokenizer) : statText(*report, tokenizer);
}

QString HermesRuntime::lintLocation(const RuntimeInput &, const Lint &lint) const
{
    return lint.file;
}

QString HermesRuntime::paneNote(const SlotLayout &layout,
                                const RuntimeComposition &composition,
                                int slot) const
{
    if (slot != slotIndex(u"AGENTS.md"))
        return {};
    const QString moved = hermesProjectPaneMoved(layout, composition);
    return moved.isEmpty() ? hermesProjectPaneJoined(layout, composition) : moved;
}

QString hermesProjectPaneJoined(const SlotLayout &layout, const RuntimeComposition &composition)
{
    if (layout.isFolder())
        return {};
    const QString pane = layout.names.at(size_t(slotIndex(u"AGENTS.md")));
    QStringList others = projectBlockSource(composition);
    if (others.removeAll(pane) == 0 || others.isEmpty())
        return {};
    if (others.size() == 1)
        return QStringLiteral("Hermes joins %1 to this file in the project context; choose it "
                              "above to edit it.")
            .arg(others.first());
    const QString last = others.takeLast();
    return QStringLiteral("Hermes joins %1 and %2 to this file in the project context; choose "
                          "one above to edit it.")
        .arg(others.join(QStringLiteral(", ")), last);
}

QString hermesProjectPaneMoved(const SlotLayout &layout, const RuntimeComposition &composition)
{
    if (layout.isFolder())
        return {};
    const QString pane = layout.names.at(size_t(slotIndex(u"AGENTS.md")));
    const QStringList read = projectBlockSource(composition);
    if (read.isEmpty() || read.contains(pane))
        return {};
    return QStringLiteral("Hermes now reads %1 instead of %2 for the project context. "
                          "Once nothing is unsaved, this pane moves to %1.")
        .arg(read.first(), pane);
}

Result<SkillsList> HermesRuntime::skills(const SkillsRequest &request) const
{
    // The index comes from the home's skills/ (a flat folder is its own home).
    const QString home = QDir::cleanPath(QDir::current().absoluteFilePath(
        request.input.home.isEmpty() ? request.input.dir : request.input.home));
    if (!QFileInfo(home).isDir()) {
        return Result<SkillsList>::failure(
            QStringLiteral("%1 is not a folder; give Hermes's home.").arg(home));
    }
    const HermesSkillsIndex index = hermesSkillsIndex(home,
                                                      HermesSkillsSession::defaultCli(),
                                                      request.input.buffers);
    SkillsList list;
    list.prompt = index.text;
    list.beforeText = false; // after the project context, in the volatile tier
    for (const HermesSkill &skill : index.skills) {
        SkillItem item;
        item.name = skill.name;
        item.description = skill.description;
        item.source = skill.category;
        item.filePath = skill.path;
        item.location = skill.path;
        item.loaded = true;
        item.eligible = skill.included;
        item.whyNot = skill.reason;
        item.fate = skill.included ? SkillFate::Kept : SkillFate::Unlisted;
        if (skill.included) {
            item.entry = skill.description.isEmpty()
                             ? QStringLiteral("    - %1\n").arg(skill.name)
                             : QStringLiteral("    - %1: %2\n").arg(skill.name, skill.description);
            item.entryChars = item.entry.size();
            ++list.listed;
        }
        for (const QString &message : skill.lints) {
            item.lints.append(
                {skill.path, -1, LintLevel::Warning, QStringLiteral("hermes-skill"), message});
        }
        list.skills.append(item);
    }
    list.candidates = list.listed;
    for (const QString &note : index.notes)
        list.lints.append({home, -1, LintLevel::Warning, QStringLiteral("hermes-skills"), note});
    return list;
}

} // namespace soul
