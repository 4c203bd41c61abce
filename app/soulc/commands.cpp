#include "commands.h"

#include "agentcommands.h"
#include "atomicwrite.h"
#include "commandline.h"
#include "composer.h"
#include "counttext.h"
#include "hermescommands.h"
#include "historycounts.h"
#include "inspection.h"
#include "lint.h"
#include "openclawreader.h"
#include "openclawrule.h"
#include "output.h"
#include "personahistory.h"
#include "runtimeprofile.h"
#include "runtimesoul.h"
#include "slotreader.h"
#include "snapshot.h"
#include "snapshotfile.h"
#include "souldiff.h"
#include "soultokens.h"
#include "tokenizer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <cerrno>
#include <cmath>
#include <future>
#include <unistd.h>

namespace soul {

namespace {

// Where a lint's file is, as the user named the directory: "personas/ava/SOUL.md".
QString lintPath(const QString &dir, const Lint &lint)
{
    const QString clean = QDir::cleanPath(dir);
    if (clean == QLatin1String("."))
        return lint.file;
    return QDir(clean).filePath(lint.file);
}

QByteArray lintLine(const QString &file, const Lint &lint)
{
    return (file + QStringLiteral(": ") + lintLevelName(lint.level) + QStringLiteral(": ")
            + lint.message + QLatin1Char('\n'))
        .toUtf8();
}

struct LintTally
{
    qint64 errors = 0;
    qint64 warnings = 0;
    qint64 infos = 0;

    void add(const Lint &lint)
    {
        switch (lint.level) {
        case LintLevel::Error:
            ++errors;
            break;
        case LintLevel::Warning:
            ++warnings;
            break;
        case LintLevel::Info:
            ++infos;
            break;
        }
    }

    // "1 error, 2 warnings", or "-" when there is nothing.
    QString text() const
    {
        QStringList parts;
        if (errors > 0)
            parts.append(plural(errors, "error", "errors"));
        if (warnings > 0)
            parts.append(plural(warnings, "warning", "warnings"));
        if (infos > 0)
            parts.append(plural(infos, "info", "info"));
        return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral(", "));
    }

    QJsonObject json() const
    {
        return QJsonObject{
            {QStringLiteral("error"), errors},
            {QStringLiteral("warning"), warnings},
            {QStringLiteral("info"), infos},
        };
    }
};

LintTally tallyFor(const QList<Lint> &lints, const QString &file)
{
    LintTally tally;
    for (const Lint &lint : lints) {
        if (file.isNull() || lint.file == file)
            tally.add(lint);
    }
    return tally;
}

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

// "0.1%", "95.4%", "119.2%"; "<0.1%" for a small file that would round to nothing.
QString capPercentText(const SlotFacts &facts)
{
    const double percent = facts.capShare() * 100.0;
    if (facts.size > 0 && percent < 0.05)
        return QStringLiteral("<0.1%");
    return QString::number(percent, 'f', 1) + QLatin1Char('%');
}

// The tokenizer `--encoding` names (o200k_base when none), or nullptr after
// reporting an unknown name.
std::shared_ptr<const Tokenizer> encodingFor(const Invocation &invocation)
{
    auto tokenizer = Tokenizer::builtin(invocation.encoding);
    if (!tokenizer)
        fail(QStringLiteral("unknown encoding '%1'. Use one of: %2.")
                 .arg(invocation.encoding, builtinEncodings().join(QStringLiteral(", "))));
    return tokenizer;
}

// The commit a `--rev` stat is of.
struct RevisionFacts
{
    QString rev;
    QString shortId;
    QByteArray id;
};

QByteArray statText(const Inspection &inspection,
                    const SoulTokenCounts &tokens,
                    const RevisionFacts *revision = nullptr)
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

QJsonValue optionalNumber(bool present, double value)
{
    return present ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QByteArray statJson(const Inspection &inspection,
                    const SoulTokenCounts &tokens,
                    const RevisionFacts *revision = nullptr)
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

RuntimeProfile profileOf(const Invocation &invocation)
{
    return runtimeProfileNamed(invocation.runtime).value_or(RuntimeProfile::toolnexus());
}

// Everything stat and check say about a folder under OpenClaw.
struct OpenClawReport
{
    QString directory;
    OpenClawInput input;
    OpenClawComposition composition;
    QList<Lint> lints;
};

Result<OpenClawReport> openClawReport(const QString &dir, const RuntimeProfile &profile)
{
    if (const QString problem = checkDirectory(dir); !problem.isEmpty())
        return Result<OpenClawReport>::failure(problem);
    OpenClawReport report;
    report.input = readOpenClawDirectory(dir);
    report.directory = report.input.dir;
    report.composition = composeOpenClaw(report.input, profile.openClaw);
    report.lints = lintOpenClaw(dir, report.input, report.composition);
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

QString sha256Hex(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
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
                              formatCount(OpenClawSettings().maxChars()),
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
             {QStringLiteral("bootstrapMaxChars"), OpenClawSettings().maxChars()},
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

int runCompose(const Invocation &invocation)
{
    const QString &dir = invocation.arguments.at(0);
    if (const QString problem = checkDirectory(dir); !problem.isEmpty())
        return fail(problem);
    const RuntimeProfile profile = profileOf(invocation);
    if (profile.runtime == Runtime::OpenClaw) {
        QByteArray section;
        QStringList names;
        composeDirectoryTo(
            dir,
            [&section](QByteArrayView piece) {
                section += piece;
                return true;
            },
            profile,
            &names);
        QByteArray found;
        for (const QString &name : std::as_const(names))
            found += name.toUtf8() + '\n';
        const QByteArrayView bytes = invocation.found ? QByteArrayView(found)
                                                      : QByteArrayView(section);
        if (!invocation.output.isEmpty()) {
            const Status written = writeFileAtomically(invocation.output, bytes);
            if (!written)
                return fail(written.error());
            warnIfAny(written.warning());
            return ExitSuccess;
        }
        return writeStandardOutput(bytes);
    }
    if (!invocation.found && invocation.output.isEmpty()) {
        // Streamed slot by slot: memory stays at one slot however large the
        // persona, and no copy of the whole soul is ever made.
        int writeError = 0;
        const bool written = composeDirectoryTo(
            dir,
            [&writeError](QByteArrayView piece) {
                if (writeAll(STDOUT_FILENO, piece))
                    return true;
                writeError = errno;
                return false;
            },
            profile.rule);
        return written ? ExitSuccess : standardOutputFailed(writeError);
    }
    // A file is written whole (atomically), so it needs the whole soul.
    const Composition composition = composeDirectory(dir, profile.rule);
    QByteArray found;
    if (invocation.found) {
        for (const QString &name : composition.found)
            found += name.toUtf8() + '\n';
    }
    const QByteArrayView bytes = invocation.found ? QByteArrayView(found)
                                                  : QByteArrayView(composition.soul);
    if (!invocation.output.isEmpty()) {
        const Status written = writeFileAtomically(invocation.output, bytes);
        if (!written)
            return fail(written.error());
        warnIfAny(written.warning());
        return ExitSuccess;
    }
    return writeStandardOutput(bytes);
}

int runStat(const Invocation &invocation)
{
    const auto tokenizer = encodingFor(invocation);
    if (!tokenizer)
        return ExitFailure;
    const RuntimeProfile profile = profileOf(invocation);
    if (profile.runtime == Runtime::OpenClaw) {
        const QString &dir = invocation.arguments.at(0);
        const Result<OpenClawReport> report = openClawReport(dir, profile);
        if (!report)
            return fail(report.error());
        return writeStandardOutput(invocation.json ? openClawStatJson(dir, *report, *tokenizer)
                                                   : openClawStatText(dir, *report, *tokenizer));
    }
    const Result<Inspection> inspection = inspectDirectory(invocation.arguments.at(0),
                                                           profile.rule,
                                                           true);
    if (!inspection)
        return fail(inspection.error());
    const SoulTokenCounts tokens = countSoulTokens(inspection->composition, *tokenizer);
    return writeStandardOutput(invocation.json ? statJson(*inspection, tokens)
                                               : statText(*inspection, tokens));
}

// All of standard input.
bool readStandardInput(QByteArray &out, int *error)
{
    out.clear();
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n == 0)
            return true;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            *error = errno;
            return false;
        }
        out.append(buffer, qsizetype(n));
    }
}

int runCount(const Invocation &invocation)
{
    std::shared_ptr<const Tokenizer> tokenizer;
    if (!invocation.tokenizer.isEmpty()) {
        auto loaded = Tokenizer::fromHuggingFaceJson(invocation.tokenizer);
        if (!loaded)
            return fail(loaded.error());
        tokenizer = std::move(loaded).value();
    } else {
        tokenizer = encodingFor(invocation);
        if (!tokenizer)
            return ExitFailure;
    }
    // Every file is opened before anything is printed, so a path that cannot
    // be read fails the command rather than leaving a line out.
    std::vector<std::unique_ptr<QFile>> files;
    bool stdinUsed = false;
    for (const QString &path : invocation.arguments) {
        if (path == QLatin1String("-")) {
            if (stdinUsed)
                return fail(QStringLiteral("standard input ('-') can be counted only once."));
            stdinUsed = true;
            files.push_back(nullptr);
            continue;
        }
        auto file = std::make_unique<QFile>(path);
        if (QFileInfo(path).isDir())
            return fail(QStringLiteral("%1 is a directory; count reads files (soulc stat counts a "
                                       "persona directory).")
                            .arg(path));
        if (!file->open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read %1: %2.").arg(path, file->errorString()));
        files.push_back(std::move(file));
    }
    for (size_t i = 0; i < files.size(); ++i) {
        QByteArray bytes;
        if (files[i]) {
            bytes = files[i]->readAll();
            if (files[i]->error() != QFileDevice::NoError)
                return fail(
                    QStringLiteral("cannot read %1: %2.")
                        .arg(invocation.arguments.at(qsizetype(i)), files[i]->errorString()));
            files[i].reset();
        } else if (int error = 0; !readStandardInput(bytes, &error)) {
            return fail(
                QStringLiteral("standard input: cannot read (%1).").arg(systemErrorText(error)));
        }
        QByteArray line;
        if (invocation.ids) {
            const std::vector<quint32> ids = tokenizer->encode(bytes);
            line.reserve(qsizetype(ids.size()) * 7);
            for (size_t k = 0; k < ids.size(); ++k) {
                if (k > 0)
                    line += ' ';
                line += QByteArray::number(ids[k]);
            }
        } else {
            line = QByteArray::number(tokenizer->count(bytes));
        }
        line += '\n';
        if (const int status = writeStandardOutput(line); status != ExitSuccess)
            return status;
    }
    return ExitSuccess;
}

int runCheck(const Invocation &invocation)
{
    const QString &dir = invocation.arguments.at(0);
    const RuntimeProfile profile = profileOf(invocation);
    if (profile.runtime == Runtime::OpenClaw) {
        const Result<OpenClawReport> report = openClawReport(dir, profile);
        if (!report)
            return fail(report.error());
        QByteArray out;
        for (const Lint &lint : report->lints)
            out += lintLine(lint.file.isEmpty() ? QDir::cleanPath(dir) : lintPath(dir, lint), lint);
        bool truncated = false;
        for (const OpenClawFileFigures &figures : report->composition.files)
            truncated = truncated || figures.truncated;
        if (const int status = writeStandardOutput(out); status != ExitSuccess)
            return status;
        return truncated || hasErrors(report->lints) ? ExitProblems : ExitSuccess;
    }
    const Result<Inspection> inspection = inspectDirectory(dir, profile.rule, false);
    if (!inspection)
        return fail(inspection.error());
    QByteArray out;
    for (const Lint &lint : inspection->lints)
        out += lintLine(lintPath(dir, lint), lint);
    bool truncated = false;
    for (const SlotFacts &facts : inspection->slotFacts)
        truncated = truncated || (facts.present() && facts.truncated);
    if (const int status = writeStandardOutput(out); status != ExitSuccess)
        return status;
    return truncated || hasErrors(inspection->lints) ? ExitProblems : ExitSuccess;
}

int runExport(const Invocation &invocation)
{
    const Result<Snapshot> snapshot = takeSnapshot(invocation.arguments.at(0),
                                                   profileOf(invocation).rule);
    if (!snapshot)
        return fail(snapshot.error());
    const Status written = writeSnapshot(*snapshot, invocation.arguments.at(1), invocation.force);
    if (!written)
        return fail(written.error());
    warnIfAny(written.warning());
    return ExitSuccess;
}

QJsonValue sectionPlace(const SectionedSoul &soul, int slot)
{
    if (!soul.present(slot))
        return QJsonValue();
    return QJsonObject{
        {QStringLiteral("offset"), qint64(soul.sectionOffset[size_t(slot)])},
        {QStringLiteral("bytes"), qint64(soul.sectionLength[size_t(slot)])},
    };
}

QByteArray diffJson(const SectionedSoul &a,
                    const SectionedSoul &b,
                    const TokenEncoding &encoding,
                    const std::array<SectionStatus, SlotCount> &status,
                    const StablePrefix &prefix,
                    const std::optional<FirstChange> &change)
{
    QJsonArray sections;
    for (int slot = 0; slot < SlotCount; ++slot) {
        sections.append(QJsonObject{
            {QStringLiteral("name"), slotName(slot)},
            {QStringLiteral("status"), sectionStatusName(status[size_t(slot)])},
            {QStringLiteral("a"), sectionPlace(a, slot)},
            {QStringLiteral("b"), sectionPlace(b, slot)},
        });
    }
    QJsonValue first;
    if (change) {
        first = QJsonObject{
            {QStringLiteral("file"), change->file},
            {QStringLiteral("line"), change->line},
            {QStringLiteral("side"),
             status[size_t(change->slot)] == SectionStatus::Removed ? QStringLiteral("a")
                                                                    : QStringLiteral("b")},
            {QStringLiteral("offset"), qint64(change->offset)},
        };
    }
    const QJsonObject root{
        {QStringLiteral("a"),
         QJsonObject{{QStringLiteral("path"), a.label},
                     {QStringLiteral("bytes"), qint64(a.soul.size())}}},
        {QStringLiteral("b"),
         QJsonObject{{QStringLiteral("path"), b.label},
                     {QStringLiteral("bytes"), qint64(b.soul.size())}}},
        {QStringLiteral("identical"), prefix.identical},
        {QStringLiteral("encoding"), encoding.name},
        {QStringLiteral("sections"), sections},
        {QStringLiteral("stablePrefix"),
         QJsonObject{
             {QStringLiteral("tokens"), prefix.tokens},
             {QStringLiteral("totalTokens"), prefix.totalTokens},
             {QStringLiteral("bytes"), prefix.bytes},
             {QStringLiteral("totalBytes"), prefix.totalBytes},
             {QStringLiteral("percent"), prefix.percent()},
         }},
        {QStringLiteral("firstChange"), first},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<SectionedSoul> revisionSoul(const QString &dir, const QString &rev);

int runDiff(const Invocation &invocation)
{
    const Result<TokenEncoding> encoding = tokenEncoding(invocation.encoding);
    if (!encoding)
        return fail(QStringLiteral("diff: ") + encoding.error());
    // A and B; or DIR at --rev A and DIR now; or DIR at --rev A and --rev B.
    const QString &first = invocation.arguments.at(0);
    const QStringList &revs = invocation.revs;
    const Result<SectionedSoul> a = revs.isEmpty() ? loadComparableSoul(first)
                                                   : revisionSoul(first, revs.at(0));
    if (!a)
        return fail(a.error());
    const Result<SectionedSoul> b = revs.isEmpty() ? loadComparableSoul(invocation.arguments.at(1))
                                    : revs.size() == 1 ? loadComparableSoul(first)
                                                       : revisionSoul(first, revs.at(1));
    if (!b)
        return fail(b.error());
    const auto status = compareSections(*a, *b);
    const StablePrefix prefix = stablePrefix(a->soul, b->soul, *encoding);
    const std::optional<FirstChange> change = firstChange(*a, *b, status, qsizetype(prefix.bytes));
    QByteArray out;
    if (invocation.json) {
        out = diffJson(*a, *b, *encoding, status, prefix, change);
    } else {
        out = unifiedSoulDiff(*a, *b);
        out += QStringLiteral("stable prefix: %1 of %2 %3 (%4%)")
                   .arg(prefix.tokens)
                   .arg(prefix.totalTokens)
                   .arg(encoding->unit)
                   .arg(prefix.percent())
                   .toUtf8();
        if (change)
            out += QStringLiteral("; first change: %1 line %2")
                       .arg(change->file)
                       .arg(change->line)
                       .toUtf8();
        out += '\n';
    }
    if (const int written = writeStandardOutput(out); written != ExitSuccess)
        return written;
    return prefix.identical ? ExitSuccess : ExitProblems;
}

// ---- history ---------------------------------------------------------------

Result<std::unique_ptr<PersonaHistory>> openHistory(const QString &dir)
{
    return PersonaHistory::open(dir);
}

// DIR as commit `rev` has it: its slot files from git's objects.
Result<PersonaRevision> readRevision(const QString &dir, const QString &rev, bool digests)
{
    auto history = openHistory(dir);
    if (!history)
        return Result<PersonaRevision>::failure(history.error());
    ReadOptions options(ComposeRule::toolnexus().readLimit());
    options.sha256 = digests;
    return (*history)->readRevision(rev, options);
}

// "HEAD~2:examples/ava": how a diff names a commit's soul.
QString revisionLabel(const QString &dir, const QString &rev)
{
    return rev + QLatin1Char(':') + QDir::cleanPath(dir);
}

Result<SectionedSoul> revisionSoul(const QString &dir, const QString &rev)
{
    const Result<PersonaRevision> revision = readRevision(dir, rev, false);
    if (!revision)
        return Result<SectionedSoul>::failure(revision.error());
    return sectionedSoul(compose(slotBuffers(revision->reads)), revisionLabel(dir, rev));
}

int runComposeRevision(const Invocation &invocation)
{
    const QString &dir = invocation.arguments.at(0);
    const Result<PersonaRevision> revision = readRevision(dir, invocation.revs.at(0), false);
    if (!revision)
        return fail(revision.error());
    const Composition composition = compose(slotBuffers(revision->reads));
    QByteArray found;
    if (invocation.found) {
        for (const QString &name : composition.found)
            found += name.toUtf8() + '\n';
    }
    const QByteArrayView bytes = invocation.found ? QByteArrayView(found)
                                                  : QByteArrayView(composition.soul);
    if (!invocation.output.isEmpty()) {
        if (const Status written = writeFileAtomically(invocation.output, bytes); !written)
            return fail(written.error());
        return ExitSuccess;
    }
    return writeStandardOutput(bytes);
}

int runStatRevision(const Invocation &invocation)
{
    const auto tokenizer = encodingFor(invocation);
    if (!tokenizer)
        return ExitFailure;
    const QString &dir = invocation.arguments.at(0);
    const Result<PersonaRevision> revision = readRevision(dir, invocation.revs.at(0), true);
    if (!revision)
        return fail(revision.error());
    Inspection inspection = inspectReads(QFileInfo(dir).absoluteFilePath(),
                                         revision->reads,
                                         revision->entryNames,
                                         revision->memoryFolder,
                                         ComposeRule::toolnexus());
    for (int slot = 0; slot < SlotCount; ++slot) {
        if (!revision->checkoutConverts[size_t(slot)])
            continue;
        Lint lint;
        lint.file = slotName(slot);
        lint.slot = slot;
        lint.level = LintLevel::Info;
        lint.code = QStringLiteral("checkout-filter");
        lint.message = QStringLiteral("%1: a checkout of this commit would write other bytes "
                                      "(core.autocrlf or a .gitattributes filter); the soul "
                                      "here is composed from the bytes git stores.")
                           .arg(slotName(slot));
        inspection.lints.append(lint);
    }
    const RevisionFacts facts{invocation.revs.at(0), revision->commit.shortId, revision->commit.id};
    const SoulTokenCounts tokens = countSoulTokens(inspection.composition, *tokenizer);
    return writeStandardOutput(invocation.json ? statJson(inspection, tokens, &facts)
                                               : statText(inspection, tokens, &facts));
}

// "+42", "-3", "0".
QString signedNumber(qint64 n)
{
    return n > 0   ? QLatin1Char('+') + formatCount(n)
           : n < 0 ? QLatin1Char('-') + formatCount(-n)
                   : QStringLiteral("0");
}

// "2026-05-01 12:03:44 +0200", as git log --date=iso writes it.
QString gitDate(const QDateTime &time)
{
    const int offset = time.offsetFromUtc();
    const int minutes = (offset < 0 ? -offset : offset) / 60;
    return time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss "))
           + (offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
           + QStringLiteral("%1%2")
                 .arg(minutes / 60, 2, 10, QLatin1Char('0'))
                 .arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

// "SOUL.md +42; USER.md added (+120); MEMORY.md changed".
QString changesText(const HistoryCommit &commit, const SoulFigures &figures)
{
    QStringList parts;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const qint64 delta = figures.tokenChange[size_t(slot)];
        const QString name = slotName(slot);
        switch (commit.change(slot)) {
        case SlotChange::Unchanged:
            break;
        case SlotChange::Added:
            parts.append(QStringLiteral("%1 added (%2)").arg(name, signedNumber(delta)));
            break;
        case SlotChange::Removed:
            parts.append(QStringLiteral("%1 removed (%2)").arg(name, signedNumber(delta)));
            break;
        case SlotChange::Modified:
            parts.append(delta != 0 ? QStringLiteral("%1 %2").arg(name, signedNumber(delta))
                                    : QStringLiteral("%1 changed").arg(name));
            break;
        }
    }
    return parts.join(QStringLiteral("; "));
}

QJsonObject commitJson(const HistoryCommit &commit, const SoulFigures &figures)
{
    QJsonArray slots;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const HistorySlot &s = commit.slots[size_t(slot)];
        const qint64 bytes = figures.sectionBytes[size_t(slot)];
        const qint64 tokens = figures.sectionTokens[size_t(slot)];
        slots.append(QJsonObject{
            {QStringLiteral("name"), slotName(slot)},
            {QStringLiteral("present"), s.present()},
            {QStringLiteral("status"), presenceName(s.presence)},
            {QStringLiteral("symlink"), s.isSymlink},
            {QStringLiteral("change"), slotChangeName(commit.change(slot))},
            {QStringLiteral("bytes"), optionalNumber(bytes >= 0, double(bytes))},
            {QStringLiteral("tokens"), optionalNumber(tokens >= 0, double(tokens))},
            {QStringLiteral("tokenChange"), figures.tokenChange[size_t(slot)]},
            {QStringLiteral("blob"),
             s.present() ? QJsonValue(QString::fromLatin1(s.blobId)) : QJsonValue()},
        });
    }
    return QJsonObject{
        {QStringLiteral("id"), QString::fromLatin1(commit.id)},
        {QStringLiteral("shortId"), commit.shortId},
        {QStringLiteral("date"), commit.authorTime.toString(Qt::ISODate)},
        {QStringLiteral("committed"), commit.commitTime.toString(Qt::ISODate)},
        {QStringLiteral("author"),
         QJsonObject{{QStringLiteral("name"), commit.authorName},
                     {QStringLiteral("email"), commit.authorEmail}}},
        {QStringLiteral("summary"), commit.summary},
        {QStringLiteral("message"), commit.message},
        {QStringLiteral("parents"), commit.parentCount},
        {QStringLiteral("soul"),
         QJsonObject{{QStringLiteral("bytes"), figures.soulBytes},
                     {QStringLiteral("tokens"), figures.soulTokens}}},
        {QStringLiteral("slots"), slots},
    };
}

int runLog(const Invocation &invocation)
{
    if (!invocation.encoding.isEmpty() && !builtinEncodings().contains(invocation.encoding)) {
        encodingFor(invocation); // says which names there are
        return ExitFailure;
    }
    // The ranks load (a tenth of a second) on a thread of their own while
    // the history is walked.
    const QString encoding = invocation.encoding;
    auto loading = std::async(std::launch::async,
                              [encoding] { return Tokenizer::builtin(encoding); });
    const QString &dir = invocation.arguments.at(0);
    const auto history = openHistory(dir);
    if (!history)
        return fail(history.error());
    const Result<QList<HistoryCommit>> log = (*history)->log();
    if (!log)
        return fail(log.error());
    HistoryCounts counts(loading.get());
    QList<QStringList> rows;
    rows.append({QStringLiteral("commit"),
                 QStringLiteral("date"),
                 QStringLiteral("bytes"),
                 QStringLiteral("tokens"),
                 QStringLiteral("changes")});
    QJsonArray commits;
    for (const HistoryCommit &commit : *log) {
        const Result<SoulFigures> figures = (*history)->measure(commit, counts);
        if (!figures)
            return fail(figures.error());
        if (invocation.json) {
            commits.append(commitJson(commit, *figures));
        } else {
            rows.append({commit.shortId,
                         gitDate(commit.authorTime),
                         formatCount(figures->soulBytes),
                         formatCount(figures->soulTokens),
                         changesText(commit, *figures)});
        }
    }
    if (invocation.json) {
        const QJsonObject root{
            {QStringLiteral("directory"), (*history)->directory()},
            {QStringLiteral("repository"), (*history)->repositoryRoot()},
            {QStringLiteral("path"), (*history)->pathInRepository()},
            {QStringLiteral("encoding"), counts.tokenizer().name()},
            {QStringLiteral("commits"), commits},
        };
        return writeStandardOutput(QJsonDocument(root).toJson(QJsonDocument::Indented));
    }
    if (rows.size() == 1) {
        return writeStandardOutput(
            QStringLiteral("%1: no commit in the repository at %2 touches its slot files yet.\n")
                .arg(dir, (*history)->repositoryRoot())
                .toUtf8());
    }
    return writeStandardOutput(renderTable(rows, {false, false, true, true, false}));
}

int runCheckpoint(const Invocation &invocation)
{
    const QString &dir = invocation.arguments.at(0);
    const auto history = openHistory(dir);
    if (!history)
        return fail(history.error());
    HistoryCounts counts(Tokenizer::builtin(QString()));
    const Result<Checkpoint> made = (*history)->checkpoint(invocation.message, counts);
    if (!made)
        return fail(made.error());
    if (made->nothingToCommit) {
        const int written = writeStandardOutput(
            QStringLiteral("nothing to checkpoint: the slot files of %1 are as HEAD has them.\n")
                .arg(dir)
                .toUtf8());
        return written == ExitSuccess ? ExitProblems : written;
    }
    const QString summary = made->message.section(QLatin1Char('\n'), 0, 0);
    return writeStandardOutput(
        QStringLiteral("checkpoint %1: %2\n").arg(made->shortId, summary).toUtf8());
}

} // namespace

int runInvocation(const Invocation &invocation)
{
    if (!invocation.usageError.isEmpty())
        return fail(invocation.usageError);
    if (invocation.version)
        return writeStandardOutput(versionText());
    if (invocation.help)
        return writeStandardOutput(helpText(invocation.command));
    if (invocation.runtime == QLatin1String("hermes")) {
        switch (invocation.command) {
        case Command::Compose:
            return runHermesCompose(invocation);
        case Command::Stat:
            return runHermesStat(invocation);
        case Command::Check:
            return runHermesCheck(invocation);
        default:
            break;
        }
    }
    switch (invocation.command) {
    case Command::Compose:
        return invocation.revs.isEmpty() ? runCompose(invocation) : runComposeRevision(invocation);
    case Command::Stat:
        if (invocation.all)
            return runStatAll(invocation);
        return invocation.revs.isEmpty() ? runStat(invocation) : runStatRevision(invocation);
    case Command::Check:
        return runCheck(invocation);
    case Command::Export:
        return runExport(invocation);
    case Command::Count:
        return runCount(invocation);
    case Command::Diff:
        return runDiff(invocation);
    case Command::Log:
        return runLog(invocation);
    case Command::Checkpoint:
        return runCheckpoint(invocation);
    case Command::Agents:
        return runAgents(invocation);
    case Command::None:
        break;
    }
    return fail(QStringLiteral("missing command. Try 'soulc --help'."));
}

} // namespace soul
