#include "lint.h"

#include "contract.h"
#include "counttext.h"
#include "inspection.h"
#include "openclawrule.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace soul {

namespace {

Lint make(const SlotFacts &facts, LintLevel level, const char *code, QString message)
{
    Lint lint;
    lint.file = facts.name;
    lint.slot = facts.slot;
    lint.level = level;
    lint.code = QLatin1String(code);
    lint.message = std::move(message);
    return lint;
}

} // namespace

QString lintLevelName(LintLevel level)
{
    switch (level) {
    case LintLevel::Info:
        return QStringLiteral("info");
    case LintLevel::Warning:
        return QStringLiteral("warning");
    case LintLevel::Error:
        return QStringLiteral("error");
    }
    return {};
}

bool hasErrors(const QList<Lint> &lints)
{
    return std::any_of(lints.cbegin(), lints.cend(), [](const Lint &l) {
        return l.level == LintLevel::Error;
    });
}

QList<Lint> lintSlot(const SlotFacts &facts,
                     const ComposeRule &rule,
                     const OpenClawSettings &openClaw)
{
    const QString &name = facts.name;
    switch (facts.presence) {
    case SlotPresence::Missing:
        return {};
    case SlotPresence::Directory:
        return {make(facts,
                     LintLevel::Warning,
                     "directory",
                     QStringLiteral("%1 is a directory, so it is skipped (a Python runtime "
                                    "fails on it). Remove or rename the directory.")
                         .arg(name))};
    case SlotPresence::NotRegularFile:
        return {make(facts,
                     LintLevel::Warning,
                     "not-regular",
                     QStringLiteral("%1 %2, so it is skipped. Replace it with a regular file.")
                         .arg(name, facts.absenceReason))};
    case SlotPresence::DanglingLink:
        if (facts.absenceReason == QLatin1String(LinkLoopReason)) {
            return {make(facts,
                         LintLevel::Warning,
                         "link-loop",
                         QStringLiteral("%1 is a symbolic link that leads back to itself (a "
                                        "loop), so it is skipped. Point it at an existing file "
                                        "or remove it.")
                             .arg(name))};
        }
        return {make(facts,
                     LintLevel::Warning,
                     "dangling-link",
                     QStringLiteral("%1 is a symbolic link to nothing, so it is skipped. "
                                    "Point it at an existing file or remove it.")
                         .arg(name))};
    case SlotPresence::Unreadable:
        return {make(facts,
                     LintLevel::Error,
                     "unreadable",
                     QStringLiteral("%1 %2, so it is skipped. Check its permissions.")
                         .arg(name, facts.absenceReason))};
    case SlotPresence::Present:
        break;
    }

    QList<Lint> lints;
    if (facts.truncated) {
        lints.append(make(facts,
                          LintLevel::Error,
                          "truncated",
                          QStringLiteral("%1 is %2 bytes, over the %3-byte cap: the agent gets "
                                         "the first %4 and does not see the last %5. "
                                         "Shorten it or move content to another file.")
                              .arg(name,
                                   formatCount(facts.size),
                                   formatCount(rule.capBytes),
                                   rule.capText(),
                                   plural(facts.droppedBytes, "byte", "bytes"))));
    } else if (facts.size >= rule.nearCapBytes()) {
        lints.append(make(facts,
                          LintLevel::Warning,
                          "near-cap",
                          QStringLiteral("%1 is at %2% of the cap (%3 of %4 bytes): "
                                         "it will be cut if it grows past the cap.")
                              .arg(name)
                              .arg(int(facts.capShare() * 100))
                              .arg(formatCount(facts.size), formatCount(rule.capBytes))));
    }
    if (facts.encoding.bom) {
        lints.append(make(facts,
                          LintLevel::Warning,
                          "bom",
                          QStringLiteral("%1 starts with a byte-order mark: the model receives "
                                         "U+FEFF at the start of its section (a JavaScript "
                                         "runtime would drop it). Save it as UTF-8 without BOM.")
                              .arg(name)));
    }
    if (facts.encoding.invalidSubparts > 0) {
        lints.append(make(facts,
                          LintLevel::Warning,
                          "invalid-utf8",
                          QStringLiteral("%1 is not valid UTF-8: the model receives %2 (U+FFFD), "
                                         "and a Python runtime fails on it. Re-save it as UTF-8.")
                              .arg(name,
                                   plural(facts.encoding.invalidSubparts,
                                          "replacement character",
                                          "replacement characters"))));
    }
    if (facts.encoding.nulBytes > 0) {
        lints.append(make(facts,
                          LintLevel::Warning,
                          "nul",
                          QStringLiteral("%1 contains %2, which the model receives as they are. "
                                         "Remove them.")
                              .arg(name, plural(facts.encoding.nulBytes, "NUL byte", "NUL bytes"))));
    }
    if (facts.blank) {
        lints.append(make(facts,
                          LintLevel::Warning,
                          "blank",
                          QStringLiteral("%1 is present but blank: it adds an empty \"## %1\" "
                                         "section. Write something or delete the file.")
                              .arg(name)));
    }
    if (facts.encoding.lineEndings() == LineEndings::Mixed) {
        lints.append(make(facts,
                          LintLevel::Info,
                          "mixed-line-endings",
                          QStringLiteral("%1 mixes line endings (%2 LF, %3 CR LF, %4 lone CR); "
                                         "the model receives them as they are.")
                              .arg(name,
                                   formatCount(facts.encoding.lfCount),
                                   formatCount(facts.encoding.crlfCount),
                                   formatCount(facts.encoding.crCount))));
    }
    // A hint for folders that also serve OpenClaw, against its limit for this
    // file as configured; the OpenClaw profile's own lints give exact counts.
    const qsizetype openClawLimit = openClaw.limitFor(name);
    if (RuntimeProfile::openClaw2026_9(openClaw).loads(name) && facts.characters > openClawLimit) {
        lints.append(
            make(facts,
                 LintLevel::Info,
                 "openclaw-chars",
                 QStringLiteral("%1 has %2 characters: OpenClaw keeps only about %3 of "
                                "it (a head and a tail), so it would see less there.")
                     .arg(name, formatCount(facts.characters), formatCount(openClawLimit))));
    }
    return lints;
}

QList<Lint> lintDirectoryEntries(const QString &dir, const QList<bool> &slotPresent)
{
    const QDir directory(dir);
    const QStringList entries = directory.entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                        | QDir::NoDotAndDotDot,
                                                    QDir::Name);
    return lintDirectoryEntries(entries,
                                QFileInfo(directory.filePath(QStringLiteral("memory"))).isDir(),
                                slotPresent);
}

QList<Lint> lintDirectoryEntries(const QStringList &entries,
                                 bool memoryFolder,
                                 const QList<bool> &slotPresent)
{
    QList<Lint> lints;
    for (const QString &entry : entries) {
        for (int slot = 0; slot < SlotCount; ++slot) {
            const QString name = slotName(slot);
            if (entry == name || entry.compare(name, Qt::CaseInsensitive) != 0)
                continue;
            const bool slotThere = slot < slotPresent.size() && slotPresent.at(slot);
            Lint lint;
            lint.file = entry;
            lint.slot = slot;
            lint.level = LintLevel::Warning;
            lint.code = QStringLiteral("case-variant");
            lint.message = slotThere
                               ? QStringLiteral(
                                     "%1 is not read: names are case-sensitive, and only %2 takes "
                                     "part. Merge it into %2 and delete it.")
                                     .arg(entry, name)
                               : QStringLiteral(
                                     "%1 is not read: names are case-sensitive and %2 is missing. "
                                     "Rename it to %2.")
                                     .arg(entry, name);
            lints.append(lint);
        }
    }
    const auto otherRuntime = [&](const QString &entry, const QString &what) {
        Lint lint;
        lint.file = entry;
        lint.level = LintLevel::Info;
        lint.code = QStringLiteral("other-runtime");
        lint.message = what;
        lints.append(lint);
    };
    if (entries.contains(QStringLiteral("BOOTSTRAP.md"))) {
        otherRuntime(QStringLiteral("BOOTSTRAP.md"),
                     QStringLiteral("BOOTSTRAP.md is read by some runtimes but not by this rule: "
                                    "the agent composed here does not get it."));
    }
    if (memoryFolder) {
        otherRuntime(QStringLiteral("memory/"),
                     QStringLiteral("memory/ is read by OpenClaw but not by this rule: put "
                                    "durable notes in MEMORY.md for the agent to get them."));
    }
    return lints;
}

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
