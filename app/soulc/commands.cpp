#include "commands.h"

#include "atomicwrite.h"
#include "commandline.h"
#include "composer.h"
#include "inspection.h"
#include "lint.h"
#include "openclawreader.h"
#include "openclawrule.h"
#include "runtimeprofile.h"
#include "slotreader.h"
#include "snapshot.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <cerrno>
#include <cmath>
#include <unistd.h>

namespace soul {

namespace {

// write() until everything is out; false with errno set on failure. The soul
// goes out in one call unless the kernel takes less (a pipe, a signal).
bool writeAll(int fd, QByteArrayView bytes)
{
    const char *data = bytes.data();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, static_cast<size_t>(left));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        left -= n;
    }
    return true;
}

int fail(const QString &message)
{
    QByteArray line = QByteArrayLiteral("soulc: ") + message.toUtf8();
    line.append('\n');
    writeAll(STDERR_FILENO, line);
    return ExitFailure;
}

// `error` is the errno of the failed write(), taken at once: building the
// message allocates, and anything in between may change errno.
int standardOutputFailed(int error)
{
    return fail(QStringLiteral("standard output: cannot write (%1). Check that the file or pipe "
                               "it goes to can take the output, then run soulc again.")
                    .arg(systemErrorText(error)));
}

int writeStandardOutput(QByteArrayView bytes)
{
    return writeAll(STDOUT_FILENO, bytes) ? ExitSuccess : standardOutputFailed(errno);
}

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

// Left-aligned text columns and right-aligned number columns, two spaces apart.
QByteArray renderTable(const QList<QStringList> &rows, const QList<bool> &alignRight)
{
    QList<qsizetype> widths(alignRight.size(), 0);
    for (const QStringList &row : rows) {
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = qMax(widths[c], row.at(c).size());
    }
    QString out;
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype c = 0; c < row.size(); ++c) {
            if (c > 0)
                line += QStringLiteral("  ");
            line += alignRight.at(c) ? row.at(c).rightJustified(widths[c])
                                     : row.at(c).leftJustified(widths[c]);
        }
        // The last column is left-aligned; no padding after it.
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out += line + QLatin1Char('\n');
    }
    return out.toUtf8();
}

QByteArray statText(const Inspection &inspection)
{
    QList<QStringList> rows;
    rows.append({QStringLiteral("slot"),
                 QStringLiteral("present"),
                 QStringLiteral("bytes"),
                 QStringLiteral("% of cap"),
                 QStringLiteral("truncated"),
                 QStringLiteral("lints")});
    int present = 0;
    int truncated = 0;
    qint64 bytes = 0;
    for (const SlotFacts &facts : inspection.slotFacts) {
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
                         lints});
            continue;
        }
        ++present;
        truncated += facts.truncated;
        bytes += facts.size;
        rows.append({facts.name,
                     QStringLiteral("yes"),
                     formatCount(facts.size),
                     capPercentText(facts),
                     facts.truncated ? QStringLiteral("yes") : QStringLiteral("no"),
                     lints});
    }
    rows.append({QStringLiteral("total"),
                 QStringLiteral("%1 of %2").arg(present).arg(SlotCount),
                 formatCount(bytes),
                 QString(),
                 QString::number(truncated),
                 tallyFor(inspection.lints, QString()).text()});

    QByteArray out = QStringLiteral("persona  %1\n\n").arg(inspection.directory).toUtf8();
    out += renderTable(rows, {false, false, true, true, false, false});
    if (!inspection.lints.isEmpty()) {
        out += '\n';
        for (const Lint &lint : inspection.lints)
            out += lintLine(lint.file, lint);
    }
    const qint64 soulBytes = inspection.composition.soul.size();
    out += QStringLiteral("\nsoul     %1 bytes, ~%2 tokens (approx.)\nsha256   %3\n")
               .arg(formatCount(soulBytes),
                    formatCount(approximateTokens(soulBytes)),
                    QString::fromLatin1(inspection.soulSha256))
               .toUtf8();
    return out;
}

QJsonValue optionalNumber(bool present, double value)
{
    return present ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QByteArray statJson(const Inspection &inspection)
{
    QJsonArray slots;
    qint64 present = 0;
    qint64 truncated = 0;
    qint64 bytes = 0;
    for (const SlotFacts &facts : inspection.slotFacts) {
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
    const QJsonObject root{
        {QStringLiteral("directory"), inspection.directory},
        {QStringLiteral("capBytes"), CapBytes},
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
             {QStringLiteral("approxTokens"), approximateTokens(soulBytes)},
             {QStringLiteral("sha256"), QString::fromLatin1(inspection.soulSha256)},
         }},
    };
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

QByteArray openClawStatText(const QString &dir, const OpenClawReport &report)
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
    out += QStringLiteral("\nsection  %1 characters, %2 bytes, ~%3 tokens (approx., 4 characters "
                          "a token)\nsha256   %4\n")
               .arg(formatCount(c.section.size()),
                    formatCount(bytes.size()),
                    formatCount((c.section.size() + 3) / 4),
                    sha256Hex(bytes))
               .toUtf8();
    return out;
}

QByteArray openClawStatJson(const QString &dir, const OpenClawReport &report)
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
             {QStringLiteral("approxTokens"), (c.section.size() + 3) / 4},
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
            if (const Status written = writeFileAtomically(invocation.output, bytes); !written)
                return fail(written.error());
            return ExitSuccess;
        }
        return writeStandardOutput(bytes);
    }
    if (!invocation.found && invocation.output.isEmpty()) {
        // Streamed slot by slot: memory stays at one slot however large the
        // persona, and no copy of the whole soul is ever made.
        int writeError = 0;
        const bool written = composeDirectoryTo(dir, [&writeError](QByteArrayView piece) {
            if (writeAll(STDOUT_FILENO, piece))
                return true;
            writeError = errno;
            return false;
        });
        return written ? ExitSuccess : standardOutputFailed(writeError);
    }
    // A file is written whole (atomically), so it needs the whole soul.
    const Composition composition = composeDirectory(dir);
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

int runStat(const Invocation &invocation)
{
    if (const RuntimeProfile profile = profileOf(invocation); profile.runtime == Runtime::OpenClaw) {
        const QString &dir = invocation.arguments.at(0);
        const Result<OpenClawReport> report = openClawReport(dir, profile);
        if (!report)
            return fail(report.error());
        return writeStandardOutput(invocation.json ? openClawStatJson(dir, *report)
                                                   : openClawStatText(dir, *report));
    }
    const Result<Inspection> inspection = inspectDirectory(invocation.arguments.at(0), true);
    if (!inspection)
        return fail(inspection.error());
    return writeStandardOutput(invocation.json ? statJson(*inspection) : statText(*inspection));
}

int runCheck(const Invocation &invocation)
{
    const QString &dir = invocation.arguments.at(0);
    if (const RuntimeProfile profile = profileOf(invocation); profile.runtime == Runtime::OpenClaw) {
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
    const Result<Inspection> inspection = inspectDirectory(dir, false);
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
    const Result<Snapshot> snapshot = takeSnapshot(invocation.arguments.at(0));
    if (!snapshot)
        return fail(snapshot.error());
    if (const Status written = writeSnapshot(*snapshot,
                                             invocation.arguments.at(1),
                                             invocation.force);
        !written) {
        return fail(written.error());
    }
    return ExitSuccess;
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
    switch (invocation.command) {
    case Command::Compose:
        return runCompose(invocation);
    case Command::Stat:
        return runStat(invocation);
    case Command::Check:
        return runCheck(invocation);
    case Command::Export:
        return runExport(invocation);
    case Command::None:
        break;
    }
    return fail(QStringLiteral("missing command. Try 'soulc --help'."));
}

} // namespace soul
