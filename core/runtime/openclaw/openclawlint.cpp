#include "openclawlint.h"

#include "compose/contract.h"
#include "counttext.h"
#include "openclawrule.h"

#include <QDir>
#include <QFileInfo>

namespace soul {

namespace {

Lint openClawLint(const QString &file, LintLevel level, const char *code, const QString &message)
{
    Lint lint;
    lint.file = file;
    lint.slot = slotIndex(file);
    lint.level = level;
    lint.code = QLatin1String(code);
    lint.message = message;
    return lint;
}

QString refusalSentence(const QString &name, const QString &reason)
{
    if (reason == QLatin1String("symlink path component not allowed"))
        return QStringLiteral("%1 is a symbolic link: OpenClaw refuses it and injects "
                              "\"[UNREADABLE: %2]\" instead of its text. Replace the link with "
                              "the file itself.")
            .arg(name, reason);
    if (reason == QLatin1String("path must not be hardlinked"))
        return QStringLiteral("%1 has more than one hard link: OpenClaw refuses it and injects "
                              "\"[UNREADABLE: %2]\" instead of its text. Make it a file of its "
                              "own (copy it, then delete the other name).")
            .arg(name, reason);
    if (reason.startsWith(QLatin1String("File exceeds")))
        return QStringLiteral("%1 is over %2 bytes: OpenClaw refuses it whole and injects "
                              "\"[UNREADABLE: %3]\" instead of its text. Shorten it.")
            .arg(name, formatCount(2097152), reason);
    if (reason == QLatin1String("path does not have the required file type"))
        return QStringLiteral("%1 is not a regular file: OpenClaw injects \"[UNREADABLE: %2]\" "
                              "instead of its text. Replace it with a regular file.")
            .arg(name, reason);
    return QStringLiteral("%1 cannot be read (%2): OpenClaw injects an UNREADABLE line instead "
                          "of its text. Check its permissions.")
        .arg(name, reason);
}

} // namespace

QList<Lint> lintOpenClaw(const QString &dir,
                         const OpenClawInput &input,
                         const OpenClawComposition &composition)
{
    QList<Lint> lints;
    const QString runtime = QStringLiteral("OpenClaw 2026.9");
    for (const OpenClawFileFigures &figures : composition.files) {
        const QString &name = figures.name;
        const OpenClawEntry *entry = nullptr;
        for (const OpenClawEntry &candidate : input.entries) {
            if (candidate.name == name)
                entry = &candidate;
        }
        if (figures.kind == OpenClawEntry::Kind::Missing) {
            // Before a reply OpenClaw re-creates AGENTS.md on every run, and
            // the others only while the first run is pending.
            if (name == QLatin1String("AGENTS.md")) {
                lints.append(
                    openClawLint(name,
                                 LintLevel::Warning,
                                 "openclaw-template",
                                 QStringLiteral(
                                     "AGENTS.md is missing: %1 creates it from its default "
                                     "template before the next reply, and the agent reads that "
                                     "instead. Write your own AGENTS.md.")
                                     .arg(runtime)));
            } else if (input.bootstrapPending) {
                lints.append(
                    openClawLint(name,
                                 LintLevel::Warning,
                                 "openclaw-template",
                                 QStringLiteral(
                                     "%1 is missing: while the first run is pending (BOOTSTRAP.md "
                                     "is here) %2 creates it from its default template before the "
                                     "next reply.")
                                     .arg(name, runtime)));
            } else {
                lints.append(
                    openClawLint(name,
                                 LintLevel::Warning,
                                 "openclaw-missing",
                                 QStringLiteral(
                                     "%1 is missing: %2 injects \"[MISSING] Expected at: %3\" in "
                                     "its place.")
                                     .arg(name, runtime, figures.path)));
            }
            continue;
        }
        if (figures.kind == OpenClawEntry::Kind::Unreadable && entry) {
            lints.append(openClawLint(name,
                                      LintLevel::Error,
                                      "openclaw-unreadable",
                                      refusalSentence(name, entry->reason)));
        }
        if (figures.budgetExhausted && figures.raw > 0) {
            lints.append(
                openClawLint(name,
                             LintLevel::Warning,
                             "openclaw-total",
                             QStringLiteral(
                                 "%1 is not injected: the files before it use up OpenClaw's "
                                 "%2-character total, so none of its %3 characters reach the "
                                 "agent.")
                                 .arg(name,
                                      formatCount(composition.totalLimit),
                                      formatCount(figures.raw))));
        } else if (figures.truncated && name == QLatin1String("AGENTS.md")) {
            const OpenClawCut &cut = figures.cut;
            lints.append(
                openClawLint(name,
                             LintLevel::Warning,
                             "openclaw-truncated",
                             QStringLiteral(
                                 "OpenClaw keeps the first %1, a digest of %2 policy "
                                 "lines (%3 characters) and the last %4 of its %5 characters; %6 "
                                 "policy lines and everything else in the middle are not "
                                 "injected.")
                                 .arg(formatCount(cut.head.length),
                                      formatCount(cut.digestEntries),
                                      formatCount(cut.digestLength),
                                      formatCount(cut.tail.length),
                                      formatCount(cut.length),
                                      formatCount(cut.omittedPolicyLines))));
        } else if (figures.truncated) {
            const OpenClawCut &cut = figures.cut;
            lints.append(
                openClawLint(name,
                             LintLevel::Warning,
                             "openclaw-truncated",
                             QStringLiteral(
                                 "OpenClaw keeps the first %1 and the last %2 of its %3 "
                                 "characters (limit %4); the %5 between are not injected.")
                                 .arg(formatCount(cut.head.length),
                                      formatCount(cut.tail.length),
                                      formatCount(cut.length),
                                      formatCount(cut.limit),
                                      formatCount(cut.length - cut.head.length - cut.tail.length))));
        } else if (figures.nearLimit) {
            lints.append(
                openClawLint(name,
                             LintLevel::Info,
                             "openclaw-near-limit",
                             QStringLiteral(
                                 "%1 has %2 characters, 85% or more of its %3-character limit "
                                 "in OpenClaw.")
                                 .arg(name, formatCount(figures.raw), formatCount(figures.limit))));
        }
    }
    if (input.bootstrapPending) {
        lints.append(
            openClawLint(QStringLiteral("BOOTSTRAP.md"),
                         LintLevel::Info,
                         "openclaw-bootstrap",
                         QStringLiteral(
                             "BOOTSTRAP.md is still here: OpenClaw treats the first run as "
                             "pending (and deletes the file once the persona looks set up).")));
    }
    const QDir directory(dir);
    const auto present = [&directory](const QString &entry) {
        return QFileInfo(directory.filePath(entry)).exists()
               || QFileInfo(directory.filePath(entry)).isSymLink();
    };
    if (present(QStringLiteral("TOOLS.md"))) {
        lints.append(openClawLint(QStringLiteral("TOOLS.md"),
                                  LintLevel::Warning,
                                  "openclaw-not-loaded",
                                  QStringLiteral("TOOLS.md is not loaded by %1: move its notes "
                                                 "to a ## Tools section of AGENTS.md.")
                                      .arg(runtime)));
    }
    if (present(QStringLiteral("HEARTBEAT.md"))) {
        lints.append(openClawLint(QStringLiteral("HEARTBEAT.md"),
                                  LintLevel::Warning,
                                  "openclaw-not-loaded",
                                  QStringLiteral("HEARTBEAT.md is not loaded by %1: heartbeat "
                                                 "instructions now belong in cron monitor "
                                                 "scratch.")
                                      .arg(runtime)));
    }
    if (directory.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)
            .contains(QStringLiteral("memory.md"))) {
        lints.append(openClawLint(QStringLiteral("memory.md"),
                                  LintLevel::Warning,
                                  "openclaw-not-loaded",
                                  QStringLiteral("memory.md is not loaded by %1 (only MEMORY.md "
                                                 "is): merge it into MEMORY.md, as `openclaw "
                                                 "doctor` offers to.")
                                      .arg(runtime)));
    }
    if (composition.totalNearLimit) {
        lints.append(
            openClawLint(QString(),
                         LintLevel::Info,
                         "openclaw-total-near-limit",
                         QStringLiteral("The files inject %1 characters, 85% or more of OpenClaw's "
                                        "%2-character total.")
                             .arg(formatCount(composition.totalInjected),
                                  formatCount(composition.totalLimit))));
    }
    return lints;
}

} // namespace soul
