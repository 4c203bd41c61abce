#include "lint.h"

#include "compose/contract.h"
#include "counttext.h"
#include "inspection.h"

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

QString skippedPathText(const QString &name, SlotPresence presence, const QString &absenceReason)
{
    switch (presence) {
    case SlotPresence::Present:
    case SlotPresence::Missing:
        return {};
    case SlotPresence::Directory:
        return QStringLiteral("%1 is a directory, so it is skipped (a Python runtime fails on "
                              "it). Remove or rename the directory.")
            .arg(name);
    case SlotPresence::NotRegularFile:
        return QStringLiteral("%1 %2, so it is skipped. Replace it with a regular file.")
            .arg(name, absenceReason);
    case SlotPresence::DanglingLink:
        if (absenceReason == QLatin1String(LinkLoopReason)) {
            return QStringLiteral("%1 is a symbolic link that leads back to itself (a loop), so "
                                  "it is skipped. Point it at an existing file or remove it.")
                .arg(name);
        }
        return QStringLiteral("%1 is a symbolic link to nothing, so it is skipped. Point it at "
                              "an existing file or remove it.")
            .arg(name);
    case SlotPresence::Unreadable:
        return QStringLiteral("%1 %2, so it is skipped. Check its permissions.")
            .arg(name, absenceReason);
    }
    return {};
}

QList<Lint> lintSlot(const SlotFacts &facts,
                     const ComposeRule &rule,
                     const RuntimeSettings &hintSettings)
{
    const QString &name = facts.name;
    switch (facts.presence) {
    case SlotPresence::Missing:
        return {};
    case SlotPresence::Directory:
        return {make(facts,
                     LintLevel::Warning,
                     "directory",
                     skippedPathText(name, facts.presence, facts.absenceReason))};
    case SlotPresence::NotRegularFile:
        return {make(facts,
                     LintLevel::Warning,
                     "not-regular",
                     skippedPathText(name, facts.presence, facts.absenceReason))};
    case SlotPresence::DanglingLink:
        return {make(facts,
                     LintLevel::Warning,
                     facts.absenceReason == QLatin1String(LinkLoopReason) ? "link-loop"
                                                                          : "dangling-link",
                     skippedPathText(name, facts.presence, facts.absenceReason))};
    case SlotPresence::Unreadable:
        return {make(facts,
                     LintLevel::Error,
                     "unreadable",
                     skippedPathText(name, facts.presence, facts.absenceReason))};
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
    // A hint for folders that also serve another runtime, against its limit
    // for this file as configured; that runtime's own lints give exact counts.
    if (const Runtime *hinting = paneHintRuntime()) {
        QString hint = hinting->keepHint(name, facts.characters, hintSettings);
        if (!hint.isEmpty()) {
            Lint lint = make(facts, LintLevel::Info, "", std::move(hint));
            lint.code = hinting->id() + QStringLiteral("-chars");
            lints.append(lint);
        }
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

} // namespace soul
