#include "hermescommands.h"

#include "atomicwrite.h"
#include "commandline.h"
#include "commands.h"
#include "counttext.h"
#include "hermeslint.h"
#include "hermesreader.h"
#include "hermesrule.h"
#include "lint.h"
#include "output.h"
#include "slotreader.h"
#include "tokenizer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <unistd.h>

namespace soul {

namespace {

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
QStringList neverReadFiles(const Invocation &invocation)
{
    const bool flat = invocation.hermesHome.isEmpty();
    const QString dir = flat ? invocation.arguments.at(0) : invocation.project;
    QStringList names = {QStringLiteral("IDENTITY.md"),
                         QStringLiteral("TOOLS.md"),
                         QStringLiteral("HEARTBEAT.md")};
    // In a project, the persona files are read from the home, not from here.
    if (!flat
        && QFileInfo(invocation.project).canonicalFilePath()
               != QFileInfo(invocation.hermesHome).canonicalFilePath())
        names << QStringLiteral("SOUL.md") << QStringLiteral("MEMORY.md")
              << QStringLiteral("USER.md");
    QStringList present;
    for (const QString &name : std::as_const(names)) {
        if (QFileInfo::exists(QDir(dir).filePath(name)))
            present.append(name);
    }
    return present;
}

// `lints`: also lint the persona (stat and check; compose only composes).
Result<HermesReport> hermesReport(const Invocation &invocation, bool lints = true)
{
    const bool flat = invocation.hermesHome.isEmpty();
    Result<HermesInput> input = flat ? readHermesFlat(invocation.arguments.at(0))
                                     : readHermesHome(invocation.hermesHome, invocation.project);
    if (!input)
        return Result<HermesReport>::failure(input.error());
    HermesReport report;
    report.settings = invocation.hermes;
    report.input = std::move(input).value();
    report.composition = composeHermes(report.input, report.settings);
    report.paths.flat = flat;
    report.paths.home = flat ? invocation.arguments.at(0) : invocation.hermesHome;
    report.paths.project = flat ? invocation.arguments.at(0) : invocation.project;
    report.neverRead = neverReadFiles(invocation);
    if (lints)
        report.lints = lintHermes(report.input, report.composition, report.paths, report.neverRead);
    return report;
}

QString sha256Hex(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
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

} // namespace

int runHermesCompose(const Invocation &invocation)
{
    const Result<HermesReport> report = hermesReport(invocation, false);
    if (!report)
        return fail(report.error());
    const HermesComposition &c = report->composition;
    QByteArray bytes;
    if (invocation.found) {
        for (const HermesFileReport &f : c.files) {
            if (f.used)
                bytes += f.name.toUtf8() + '\n';
        }
        for (const HermesMemoryStore *store : {&c.memoryStore, &c.userStore}) {
            if (!store->block.isEmpty())
                bytes += store->name.toUtf8() + '\n';
        }
    } else {
        bytes = c.joined.toUtf8();
    }
    if (!invocation.output.isEmpty()) {
        if (const Status written = writeFileAtomically(invocation.output, bytes); !written)
            return fail(written.error());
        return ExitSuccess;
    }
    return writeStandardOutput(bytes);
}

int runHermesStat(const Invocation &invocation)
{
    auto tokenizer = Tokenizer::builtin(invocation.encoding);
    if (!tokenizer)
        return fail(QStringLiteral("unknown encoding '%1'. Use one of: %2.")
                        .arg(invocation.encoding, builtinEncodings().join(QStringLiteral(", "))));
    const Result<HermesReport> report = hermesReport(invocation);
    if (!report)
        return fail(report.error());
    return writeStandardOutput(invocation.json ? statJson(*report, *tokenizer)
                                               : statText(*report, *tokenizer));
}

int runHermesCheck(const Invocation &invocation)
{
    const Result<HermesReport> report = hermesReport(invocation);
    if (!report)
        return fail(report.error());
    QByteArray out;
    for (const Lint &lint : report->lints)
        out += (lint.file + QStringLiteral(": ") + lintLevelName(lint.level) + QStringLiteral(": ")
                + lint.message + QLatin1Char('\n'))
                   .toUtf8();
    if (const int status = writeStandardOutput(out); status != ExitSuccess)
        return status;
    return hermesHasProblems(report->composition) || hasErrors(report->lints) ? ExitProblems
                                                                              : ExitSuccess;
}

} // namespace soul
