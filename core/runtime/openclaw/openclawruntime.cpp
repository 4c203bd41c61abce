#include "openclawruntime.h"

#include "compose/utf8.h"
#include "counttext.h"
#include "disk/composedirectory.h"
#include "openclawlint.h"
#include "openclawreader.h"
#include "openclawrule.h"
#include "openclawsettings.h"
#include "openclawskills.h"
#include "runtime/reporttext.h"
#include "runtime/runtimeskills.h"
#include "tokens/tokenizer.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace soul {

int OpenClawSettings::limitFor(QStringView fileName) const
{
    if (fileName == QLatin1String("USER.md"))
        return std::min(maxChars(), UserMaxChars);
    return maxChars();
}

OpenClawSettings OpenClawSettings::from(const RuntimeSettings &settings)
{
    OpenClawSettings s;
    s.bootstrapMaxChars = int(settings.value(QLatin1String(MaxCharsKey), DefaultMaxChars));
    s.bootstrapTotalMaxChars = int(
        settings.value(QLatin1String(TotalMaxCharsKey), DefaultTotalMaxChars));
    return s;
}

RuntimeSettings OpenClawSettings::values() const
{
    return {{QLatin1String(MaxCharsKey), maxChars()},
            {QLatin1String(TotalMaxCharsKey), totalMaxChars()}};
}

namespace {

// The buffers as the whole folder: each name OpenClaw reads comes from its
// buffer, else is missing (USER.md and MEMORY.md only when listed, so only
// when among the buffers; BOOTSTRAP.md only while pending, that is, when
// among them).
OpenClawInput readOpenClawBuffers(const RuntimeInput &input)
{
    OpenClawInput read;
    read.dir = openClawDirectoryPath(input.dir);
    read.bootstrapPending = input.buffers.contains(QStringLiteral("BOOTSTRAP.md"));
    for (const QString &name : openClawFileOrder()) {
        const auto buffer = input.buffers.constFind(name);
        const bool listedOnly = name == QLatin1String("USER.md")
                                || name == QLatin1String("MEMORY.md")
                                || name == QLatin1String("BOOTSTRAP.md");
        if (buffer == input.buffers.cend() && listedOnly)
            continue;
        OpenClawEntry entry;
        entry.name = name;
        if (buffer == input.buffers.cend())
            entry.kind = OpenClawEntry::Kind::Missing;
        else if (buffer->size() > OpenClawMaxFileBytes)
            entry = openClawUnreadable(name,
                                       QStringLiteral("File exceeds %1 bytes")
                                           .arg(OpenClawMaxFileBytes));
        else
            entry.text = utf8::decode(*buffer);
        read.entries.append(entry);
    }
    return read;
}

} // namespace

OpenClawInput readOpenClawInput(const RuntimeInput &input)
{
    if (input.buffersOnly)
        return readOpenClawBuffers(input);
    // The buffers stand for their files: those are only checked, not read
    // (on a large persona that is some 12 MiB read and 24 MiB decoded less).
    QStringList checkOnly;
    for (auto it = input.buffers.cbegin(); it != input.buffers.cend(); ++it)
        checkOnly.append(it.key());
    const OpenClawInput disk = readOpenClawDirectory(input.dir, checkOnly);
    if (input.buffers.isEmpty())
        return disk;
    OpenClawInput read;
    read.dir = disk.dir;
    read.bootstrapPending = disk.bootstrapPending;
    for (const QString &name : openClawFileOrder()) {
        const OpenClawEntry *onDisk = nullptr;
        for (const OpenClawEntry &entry : disk.entries) {
            if (entry.name == name)
                onDisk = &entry;
        }
        const auto buffer = input.buffers.constFind(name);
        if (buffer == input.buffers.cend()
            || (onDisk && onDisk->kind == OpenClawEntry::Kind::Unreadable)) {
            if (onDisk)
                read.entries.append(*onDisk);
            continue;
        }
        OpenClawEntry entry;
        entry.name = name;
        entry.text = utf8::decode(*buffer);
        read.entries.append(entry);
    }
    return read;
}

namespace {

// Everything stat and check say about a folder under OpenClaw.
struct OpenClawReport
{
    QString directory;
    OpenClawSettings settings;
    OpenClawInput input;
    OpenClawComposition composition;
    QList<Lint> lints;
};

Result<OpenClawReport> openClawReport(const RuntimeInput &input, const OpenClawSettings &settings)
{
    if (const QString problem = checkDirectory(input.dir); !problem.isEmpty())
        return Result<OpenClawReport>::failure(problem);
    OpenClawReport report;
    report.settings = settings;
    report.input = readOpenClawInput(input);
    report.directory = report.input.dir;
    report.composition = composeOpenClaw(report.input, settings);
    report.lints = lintOpenClaw(input.dir, report.input, report.composition);
    return report;
}

// One row of `soulc stat --runtime openclaw`.
struct OpenClawRow
{
    QString name;
    QString status;      // read, missing, unreadable, absent, not-loaded
    bool loaded = false; // OpenClaw 2026.9 reads this name at all
    const OpenClawFileFigures *figures = nullptr;
    qsizetype raw = 0; // for files it does not load
};

QList<OpenClawRow> openClawRows(const QString &dir, const OpenClawReport &report)
{
    QList<OpenClawRow> rows;
    const QStringList loaded = openClawFileOrder();
    QStringList names = loaded;
    names << QStringLiteral("TOOLS.md") << QStringLiteral("HEARTBEAT.md");
    for (const QString &name : std::as_const(names)) {
        OpenClawRow row;
        row.name = name;
        row.loaded = loaded.contains(name);
        for (const OpenClawFileFigures &figures : report.composition.files) {
            if (figures.name == name)
                row.figures = &figures;
        }
        if (row.figures) {
            switch (row.figures->kind) {
            case OpenClawEntry::Kind::Content:
                row.status = QStringLiteral("read");
                break;
            case OpenClawEntry::Kind::Missing:
                row.status = QStringLiteral("missing");
                break;
            case OpenClawEntry::Kind::Unreadable:
                row.status = QStringLiteral("unreadable");
                break;
            }
        } else if (!row.loaded) {
            const OpenClawEntry entry = readOpenClawFile(QDir(dir).filePath(name), name);
            row.status = entry.kind == OpenClawEntry::Kind::Missing ? QStringLiteral("absent")
                                                                    : QStringLiteral("not-loaded");
            row.raw = jsTrimmedEnd(entry.text).size();
        } else {
            row.status = QStringLiteral("absent");
        }
        rows.append(row);
    }
    return rows;
}

QByteArray openClawStatText(const QString &dir,
                            const OpenClawReport &report,
                            const Tokenizer &tokenizer)
{
    const OpenClawComposition &c = report.composition;
    const QString dash = QStringLiteral("-");
    QList<QStringList> table;
    table.append({QStringLiteral("file"),
                  QStringLiteral("status"),
                  QStringLiteral("chars"),
                  QStringLiteral("injected"),
                  QStringLiteral("limit"),
                  QStringLiteral("truncated"),
                  QStringLiteral("lints")});
    qint64 raw = 0;
    qint64 truncated = 0;
    for (const OpenClawRow &row : openClawRows(dir, report)) {
        const QString lints = tallyFor(report.lints, row.name).text();
        if (!row.figures) {
            table.append({row.name,
                          row.status == QLatin1String("not-loaded") ? QStringLiteral("not loaded")
                                                                    : row.status,
                          row.status == QLatin1String("absent") ? dash : formatCount(row.raw),
                          dash,
                          dash,
                          dash,
                          lints});
            continue;
        }
        const OpenClawFileFigures &f = *row.figures;
        const bool missing = f.kind == OpenClawEntry::Kind::Missing;
        raw += f.raw;
        truncated += f.truncated;
        table.append({row.name,
                      row.status,
                      missing ? dash : formatCount(f.raw),
                      formatCount(f.injected),
                      formatCount(f.limit),
                      missing ? dash : (f.truncated ? QStringLiteral("yes") : QStringLiteral("no")),
                      lints});
    }
    table.append({QStringLiteral("total"),
                  QString(),
                  formatCount(raw),
                  formatCount(c.totalInjected),
                  formatCount(c.totalLimit),
                  QString::number(truncated),
                  tallyFor(report.lints, QString()).text()});
    QByteArray out = QStringLiteral("persona  %1\nruntime  OpenClaw 2026.9 (bootstrapMaxChars %2, "
                                    "bootstrapTotalMaxChars %3)\n\n")
                         .arg(report.directory,
                              formatCount(report.settings.maxChars()),
                              formatCount(c.totalLimit))
                         .toUtf8();
    out += renderTable(table, {false, false, true, true, true, false, false});
    if (!report.lints.isEmpty()) {
        out += '\n';
        for (const Lint &lint : report.lints)
            out += lintLine(lint.file.isEmpty() ? report.directory : lint.file, lint);
    }
    const QByteArray bytes = c.section.toUtf8();
    out += QStringLiteral("\nsection  %1 characters, %2 bytes, %3 tokens (%4)\nsha256   %5\n")
               .arg(formatCount(c.section.size()),
                    formatCount(bytes.size()),
                    formatCount(tokenizer.count(bytes)),
                    tokenizer.name(),
                    sha256Hex(bytes))
               .toUtf8();
    return out;
}

QByteArray openClawStatJson(const QString &dir,
                            const OpenClawReport &report,
                            const Tokenizer &tokenizer)
{
    const OpenClawComposition &c = report.composition;
    QJsonArray files;
    qint64 raw = 0;
    qint64 truncated = 0;
    for (const OpenClawRow &row : openClawRows(dir, report)) {
        QJsonObject file{
            {QStringLiteral("name"), row.name},
            {QStringLiteral("status"), row.status},
            {QStringLiteral("loadedByRuntime"), row.loaded},
            {QStringLiteral("lints"), tallyFor(report.lints, row.name).json()},
        };
        if (row.figures) {
            const OpenClawFileFigures &f = *row.figures;
            raw += f.raw;
            truncated += f.truncated;
            file.insert(QStringLiteral("path"), f.path);
            file.insert(QStringLiteral("rawChars"), f.raw);
            file.insert(QStringLiteral("injectedChars"), f.injected);
            file.insert(QStringLiteral("injected"), f.injectedAny);
            file.insert(QStringLiteral("limit"), f.limit);
            file.insert(QStringLiteral("truncated"), f.truncated);
            file.insert(QStringLiteral("nearLimit"), f.nearLimit);
            if (f.cut.truncated) {
                file.insert(QStringLiteral("keptHead"), f.cut.head.length);
                file.insert(QStringLiteral("keptTail"), f.cut.tail.length);
                if (f.name == QLatin1String("AGENTS.md")) {
                    file.insert(QStringLiteral("digestChars"), f.cut.digestLength);
                    file.insert(QStringLiteral("omittedPolicyLines"), f.cut.omittedPolicyLines);
                }
            }
        } else {
            file.insert(QStringLiteral("rawChars"),
                        row.status == QLatin1String("absent") ? QJsonValue() : QJsonValue(row.raw));
            file.insert(QStringLiteral("injectedChars"), 0);
            file.insert(QStringLiteral("injected"), false);
            file.insert(QStringLiteral("truncated"), false);
        }
        files.append(file);
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
    const QByteArray bytes = c.section.toUtf8();
    const QJsonObject root{
        {QStringLiteral("directory"), report.directory},
        {QStringLiteral("runtime"), QStringLiteral("openclaw")},
        {QStringLiteral("runtimeName"), QStringLiteral("OpenClaw 2026.9")},
        {QStringLiteral("settings"),
         QJsonObject{
             {QStringLiteral("bootstrapMaxChars"), report.settings.maxChars()},
             {QStringLiteral("bootstrapTotalMaxChars"), c.totalLimit},
         }},
        {QStringLiteral("files"), files},
        {QStringLiteral("lints"), lints},
        {QStringLiteral("totals"),
         QJsonObject{
             {QStringLiteral("rawChars"), raw},
             {QStringLiteral("injectedChars"), c.totalInjected},
             {QStringLiteral("totalMaxChars"), c.totalLimit},
             {QStringLiteral("nearLimit"), c.totalNearLimit},
             {QStringLiteral("truncated"), truncated},
             {QStringLiteral("lints"), tallyFor(report.lints, QString()).json()},
         }},
        {QStringLiteral("notice"), c.notice},
        {QStringLiteral("bootstrapPending"), c.bootstrapPending},
        {QStringLiteral("section"),
         QJsonObject{
             {QStringLiteral("chars"), c.section.size()},
             {QStringLiteral("bytes"), bytes.size()},
             {QStringLiteral("encoding"), tokenizer.name()},
             {QStringLiteral("tokens"), tokenizer.count(bytes)},
             {QStringLiteral("sha256"), sha256Hex(bytes)},
         }},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QJsonObject keptJson(const OpenClawKept &kept)
{
    QJsonArray ranges;
    for (const KeptRange &range : kept.kept)
        ranges.append(QJsonArray{range.start, range.length});
    return QJsonObject{
        {QStringLiteral("whole"), kept.whole},
        {QStringLiteral("droppedByTotal"), kept.droppedByTotal},
        {QStringLiteral("kept"), ranges},
    };
}

QString statusName(OpenClawEntry::Kind kind)
{
    switch (kind) {
    case OpenClawEntry::Kind::Content:
        return QStringLiteral("read");
    case OpenClawEntry::Kind::Missing:
        return QStringLiteral("missing");
    case OpenClawEntry::Kind::Unreadable:
        return QStringLiteral("unreadable");
    }
    return {};
}

} // namespace

QString OpenClawRuntime::id() const
{
    return QLatin1String(OpenClawId);
}

QString OpenClawRuntime::description() const
{
    return QStringLiteral("what %1 injects").arg(displayName());
}

QString OpenClawRuntime::keepHint(QStringView fileName,
                                  qint64 characters,
                                  const RuntimeSettings &settings) const
{
    const qsizetype limit = OpenClawSettings::from(settings).limitFor(fileName);
    if (!openClawFileOrder().contains(fileName.toString()) || characters <= limit)
        return {};
    return QStringLiteral("%1 has %2 characters: OpenClaw keeps only about %3 of "
                          "it (a head and a tail), so it would see less there.")
        .arg(fileName.toString(), formatCount(characters), formatCount(limit));
}

QString OpenClawRuntime::displayName() const
{
    return QStringLiteral("OpenClaw 2026.9");
}

QStringList OpenClawRuntime::files() const
{
    return openClawFileOrder();
}

QStringList OpenClawRuntime::neverRead() const
{
    return {QStringLiteral("TOOLS.md"), QStringLiteral("HEARTBEAT.md")};
}

QString OpenClawRuntime::setupFile() const
{
    // While it exists, OpenClaw treats the workspace as pending its first run.
    return QStringLiteral("BOOTSTRAP.md");
}

QList<RuntimeSetting> OpenClawRuntime::settings() const
{
    RuntimeSetting perFile;
    perFile.key = QLatin1String(OpenClawSettings::MaxCharsKey);
    perFile.label = QStringLiteral("Per file");
    perFile.toolTip = QStringLiteral("bootstrapMaxChars: the most characters OpenClaw injects of "
                                     "one file (USER.md: at most 4,000)");
    perFile.defaultValue = OpenClawSettings::DefaultMaxChars;
    perFile.minimum = 1;
    perFile.maximum = 100000000;
    RuntimeSetting total = perFile;
    total.key = QLatin1String(OpenClawSettings::TotalMaxCharsKey);
    total.label = QStringLiteral("Total");
    total.toolTip = QStringLiteral("bootstrapTotalMaxChars: the most characters OpenClaw injects "
                                   "of all files together");
    total.defaultValue = OpenClawSettings::DefaultTotalMaxChars;
    return {perFile, total};
}

qint64 OpenClawRuntime::fileBudget(QStringView fileName, const RuntimeSettings &settings) const
{
    return OpenClawSettings::from(settings).limitFor(fileName);
}

qint64 OpenClawRuntime::totalBudget(const RuntimeSettings &settings) const
{
    return OpenClawSettings::from(settings).totalMaxChars();
}

Result<RuntimeComposition> OpenClawRuntime::compose(const RuntimeInput &input,
                                                    const RuntimeSettings &values) const
{
    const OpenClawSettings settings = OpenClawSettings::from(values);
    const Result<OpenClawReport> report = openClawReport(input, settings);
    if (!report)
        return Result<RuntimeComposition>::failure(report.error());
    const OpenClawComposition &c = report->composition;
    RuntimeComposition out;
    out.text = c.section;
    out.totalUsed = c.totalInjected;
    out.totalBudget = c.totalLimit;
    out.lints = report->lints;
    QJsonArray manifestFiles;
    for (const OpenClawFileFigures &figures : c.files) {
        if (figures.injectedAny)
            out.found.append(figures.name);
        out.problems = out.problems || figures.truncated;
        const OpenClawKept kept = openClawKept(c, figures.name);
        QJsonObject file = keptJson(kept);
        file.insert(QStringLiteral("name"), figures.name);
        file.insert(QStringLiteral("status"), statusName(figures.kind));
        file.insert(QStringLiteral("rawChars"), figures.raw);
        file.insert(QStringLiteral("injectedChars"), figures.injected);
        file.insert(QStringLiteral("limit"), figures.limit);
        file.insert(QStringLiteral("truncated"), figures.truncated);
        manifestFiles.append(file);
    }
    // The injected files' texts stand last in the section, each under its
    // header ("## PATH"), one line after another: placed from the end, so
    // that text of a file that looks like a header cannot mislead.
    QHash<QString, KeptRange> places;
    qsizetype end = c.section.size();
    for (auto it = c.files.crbegin(); it != c.files.crend(); ++it) {
        if (!it->injectedAny)
            continue;
        const QString header = QStringLiteral("## ") + it->path;
        const qsizetype length = it->promptText.size();
        const qsizetype textStart = end - length;
        const qsizetype headerStart = (length > 0 ? textStart - 1 : end) - header.size();
        if (headerStart < 0 || QStringView(c.section).sliced(headerStart, header.size()) != header
            || QStringView(c.section).sliced(textStart, length) != it->promptText) {
            break;
        }
        // A missing or unreadable file's part is OpenClaw's line about it,
        // not text of the file's own.
        if (it->kind == OpenClawEntry::Kind::Content)
            places.insert(it->name, KeptRange{textStart, length});
        end = headerStart - 1;
    }
    for (const QString &name : files() + neverRead()) {
        RuntimeFileView view;
        view.name = name;
        view.loaded = reads(name);
        view.budget = view.loaded ? settings.limitFor(name) : 0;
        const OpenClawEntry *entry = nullptr;
        for (const OpenClawEntry &candidate : report->input.entries) {
            if (candidate.name == name && candidate.kind == OpenClawEntry::Kind::Content)
                entry = &candidate;
        }
        for (const OpenClawFileFigures &figures : c.files) {
            if (figures.name != name || figures.kind != OpenClawEntry::Kind::Content)
                continue;
            view.present = true;
            view.used = figures.raw;
            view.injected = figures.injectedAny;
            view.truncated = figures.truncated;
            view.injectedText = figures.promptText;
        }
        const OpenClawKept kept = openClawKept(c, name);
        view.whole = kept.whole;
        view.droppedAll = kept.droppedByTotal;
        if (kept.droppedByTotal && entry)
            view.dropped = KeptRange{0, entry->text.size()};
        else
            view.dropped = kept.dropped;
        if (const auto place = places.constFind(name); place != places.cend()) {
            view.placed = true;
            view.inText = *place;
        }
        view.marked = kept.digestLines;
        if (!view.marked.isEmpty())
            view.markNote = QStringLiteral("Restated in the policy digest");
        out.files.append(view);
    }
    out.manifest = QJsonObject{
        {QStringLiteral("runtime"), id()},
        {QStringLiteral("runtimeName"), displayName()},
        {QStringLiteral("settings"),
         QJsonObject{
             {QLatin1String(OpenClawSettings::MaxCharsKey), settings.maxChars()},
             {QLatin1String(OpenClawSettings::TotalMaxCharsKey), settings.totalMaxChars()},
         }},
        {QStringLiteral("files"), manifestFiles},
        {QStringLiteral("notice"), c.notice},
        {QStringLiteral("bootstrapPending"), c.bootstrapPending},
    };
    return out;
}

Result<QByteArray> OpenClawRuntime::statReport(const RuntimeInput &input,
                                               const RuntimeSettings &values,
                                               const Tokenizer &tokenizer,
                                               bool json) const
{
    const Result<OpenClawReport> report = openClawReport(input, OpenClawSettings::from(values));
    if (!report)
        return Result<QByteArray>::failure(report.error());
    return json ? openClawStatJson(input.dir, *report, tokenizer)
                : openClawStatText(input.dir, *report, tokenizer);
}

QString OpenClawRuntime::lintLocation(const RuntimeInput &input, const Lint &lint) const
{
    return lint.file.isEmpty() ? QDir::cleanPath(input.dir) : Runtime::lintLocation(input, lint);
}

Result<SkillsList> OpenClawRuntime::skills(const SkillsRequest &request) const
{
    SkillsInput input;
    input.paths = {request.environment, request.workingDirectory, request.accountHome};
    if (input.paths.workingDirectory.isEmpty())
        input.paths.workingDirectory = QDir::currentPath();
    if (input.paths.accountHome.isEmpty())
        input.paths.accountHome = QDir::homePath();
    input.workspaceDir = QDir::cleanPath(
        QDir(input.paths.workingDirectory).absoluteFilePath(request.input.dir));
    if (!QFileInfo(input.workspaceDir).isDir()) {
        return Result<SkillsList>::failure(
            QStringLiteral("%1 is not a folder; give the agent's workspace folder.")
                .arg(request.input.dir));
    }
    const QString configPath
        = request.configFile.isEmpty()
              ? input.paths.configPath()
              : QDir::cleanPath(
                  QDir(input.paths.workingDirectory).absoluteFilePath(request.configFile));
    Result<OpenClawConfig> config = readOpenClawConfig(configPath,
                                                       input.paths,
                                                       !request.configFile.isEmpty());
    if (!config)
        return Result<SkillsList>::failure(config.error());
    if (config->exists)
        input.config = std::move(config).value();
    input.agentId = request.agentId;
    input.buffers = request.input.buffers;
    return openClawSkills(input);
}

} // namespace soul
