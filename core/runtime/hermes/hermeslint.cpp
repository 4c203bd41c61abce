#include "hermeslint.h"

#include "counttext.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSet>

namespace soul {

namespace {

QString joined(const QString &base, const QString &name)
{
    const QString clean = QDir::cleanPath(base);
    if (base.isEmpty() || clean == QLatin1String("."))
        return QDir::cleanPath(name);
    return QDir::cleanPath(clean + QLatin1Char('/') + name);
}

Lint make(const QString &file, LintLevel level, const char *code, QString message)
{
    Lint lint;
    lint.file = file;
    lint.level = level;
    lint.code = QLatin1String(code);
    lint.message = std::move(message);
    return lint;
}

// "prompt_injection (line 2, column 1), invisible_unicode_U+200B (line 1, column 10)"
QString findingsText(const HermesScan &scan, const HermesLines &lines)
{
    QStringList parts;
    for (const HermesFinding &finding : scan.findings) {
        parts.append(finding.start >= 0
                         ? QStringLiteral("%1 (%2)").arg(finding.id, lines.place(finding.start))
                         : finding.id);
    }
    return parts.join(QStringLiteral(", "));
}

qsizetype invisibleCount(const HermesScan &scan)
{
    qsizetype n = 0;
    for (const HermesFinding &finding : scan.findings)
        n += finding.id.startsWith(QLatin1String("invisible_unicode_"));
    return n;
}

QString orderNote(const HermesScan &scan)
{
    return invisibleCount(scan) > 1
               ? QStringLiteral(" (Hermes may list the invisible characters in another order.)")
               : QString();
}

QString unreadableText(HermesFile::State state, qsizetype badByte, const QString &reason)
{
    if (state == HermesFile::State::NotAFile)
        return QStringLiteral("is not a regular file");
    if (badByte >= 0)
        return QStringLiteral("is not valid UTF-8 (byte %1)").arg(formatCount(badByte));
    return reason.isEmpty() ? QStringLiteral("cannot be read")
                            : QStringLiteral("cannot be read (%1)").arg(reason);
}

// What to do about a file that cannot be read, by why (HermesFile::reason).
QString readableAdvice(const QString &reason)
{
    return reason.contains(QLatin1String("larger than"))
               ? QStringLiteral("Shorten it.")
               : QStringLiteral("Make it a readable file.");
}

QString cutText(const HermesCut &cut, const QString &what)
{
    return QStringLiteral("%1 has %2 characters, over Hermes's %3-character cap: it keeps the "
                          "first %4 and the last %5 and drops the %6 between. Shorten it, or "
                          "raise context_file_max_chars or use a model with a larger window.")
        .arg(what,
             formatCount(cut.length),
             formatCount(cut.cap),
             formatCount(cut.head),
             formatCount(cut.tail),
             formatCount(std::max<qsizetype>(0, cut.length - cut.head - cut.tail)));
}

} // namespace

QString hermesPlace(QStringView text, qsizetype at)
{
    return HermesLines(text).place(at);
}

HermesLines::HermesLines(QStringView text)
    : m_text(text)
{
    m_starts.append(0);
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('\n'))
            m_starts.append(i + 1);
    }
}

qsizetype HermesLines::line(qsizetype at) const
{
    at = std::clamp<qsizetype>(at, 0, m_text.size());
    return std::upper_bound(m_starts.cbegin(), m_starts.cend(), at) - m_starts.cbegin();
}

qsizetype HermesLines::column(qsizetype at) const
{
    at = std::clamp<qsizetype>(at, 0, m_text.size());
    const qsizetype start = m_starts.at(line(at) - 1);
    return codePointCount(m_text.sliced(start, at - start)) + 1;
}

QString HermesLines::place(qsizetype at) const
{
    return QStringLiteral("line %1, column %2").arg(line(at)).arg(column(at));
}

bool hermesHasProblems(const HermesComposition &c)
{
    for (const HermesFileReport &f : c.files) {
        if (f.used && (f.scan.blocked() || f.cut.truncated))
            return true;
        if (f.read && f.state == HermesFile::State::Unreadable)
            return true;
    }
    if (c.chainCut.truncated)
        return true;
    for (const HermesMemoryStore *store : {&c.memoryStore, &c.userStore}) {
        if (!store->enabled)
            continue;
        if (store->overLimit() || store->state == HermesFile::State::Unreadable)
            return true;
        for (const HermesMemoryEntry &entry : store->entries) {
            if (entry.scan.blocked())
                return true;
        }
    }
    return false;
}

QList<Lint> lintHermes(const HermesInput &input,
                       const HermesComposition &c,
                       const HermesLintPaths &paths,
                       const QStringList &neverRead)
{
    QList<Lint> lints;
    const QString soulPath = joined(paths.home, QStringLiteral("SOUL.md"));
    const auto memoryPath = [&](const QString &name) {
        return joined(paths.home, paths.flat ? name : QStringLiteral("memories/") + name);
    };

    // Project files that cannot be read for one reason in one folder: a
    // folder that cannot be entered makes every name Hermes looks for there
    // unreadable, whether or not such a file exists; one lint names the folder.
    const auto unreadableHere = [](const HermesFileReport &f) {
        return f.block != HermesBlock::Identity && f.read
               && f.state == HermesFile::State::Unreadable && f.badByte < 0;
    };
    QHash<QString, QStringList> sameCause; // folder and reason -> the files' labels
    for (const HermesFileReport &f : c.files) {
        if (unreadableHere(f))
            sameCause[QFileInfo(f.path).path() + QChar(0) + f.reason].append(f.name);
    }
    QSet<QString> folderSaid;

    for (const HermesFileReport &f : c.files) {
        const bool soul = f.block == HermesBlock::Identity;
        const QString file = soul ? soulPath : joined(paths.project, f.name);
        const QString text = soul ? input.soul.text : QString();
        if (unreadableHere(f)) {
            const QString key = QFileInfo(f.path).path() + QChar(0) + f.reason;
            const QStringList names = sameCause.value(key);
            if (names.size() > 1) {
                if (!folderSaid.contains(key)) {
                    folderSaid.insert(key);
                    const QString folder = QFileInfo(file).path();
                    lints.append(make(folder,
                                      LintLevel::Error,
                                      "hermes-unreadable",
                                      QStringLiteral("%1 cannot be read there (%2): Hermes skips "
                                                     "them and looks for project files "
                                                     "elsewhere. Give yourself read and search "
                                                     "permission on the folder (chmod u+rx).")
                                          .arg(names.join(QStringLiteral(", ")), f.reason)));
                }
                continue;
            }
        }
        if (soul && f.state == HermesFile::State::Missing) {
            lints.append(make(file,
                              LintLevel::Info,
                              "hermes-soul-template",
                              QStringLiteral("SOUL.md is missing: before its first prompt Hermes "
                                             "writes its own SOUL.md template here and uses "
                                             "that, not the built-in identity this preview "
                                             "shows. Write a SOUL.md to choose the identity.")));
            continue;
        }
        if (f.read
            && (f.state == HermesFile::State::Unreadable
                || f.state == HermesFile::State::NotAFile)) {
            const QString what = soul ? QStringLiteral("Hermes does not read it and uses its "
                                                       "default identity")
                                      : QStringLiteral("Hermes skips it and looks for the next "
                                                       "project file");
            lints.append(
                make(file,
                     f.state == HermesFile::State::NotAFile ? LintLevel::Warning : LintLevel::Error,
                     "hermes-unreadable",
                     QStringLiteral("%1 %2: %3. %4")
                         .arg(f.name,
                              unreadableText(f.state, f.badByte, f.reason),
                              what,
                              f.badByte >= 0 ? QStringLiteral("Save it as UTF-8.")
                                             : readableAdvice(f.reason))));
            continue;
        }
        if (f.used && f.scan.blocked()) {
            // Positions are in the file's text; project files' texts are in the input.
            QString fileText = text;
            if (!soul) {
                for (const HermesProjectDirectory &dir : input.chain) {
                    for (const auto &[name, pf] : dir.files) {
                        if (f.path == dir.path + QLatin1Char('/') + name)
                            fileText = pf.text;
                    }
                }
                for (const auto &[label, pf] : input.cursorRules) {
                    if (f.name == label)
                        fileText = pf.text;
                }
            }
            lints.append(make(file,
                              LintLevel::Error,
                              "hermes-blocked",
                              QStringLiteral("%1 is replaced by a BLOCKED line: Hermes 0.21.3's "
                                             "threat scan finds %2, so the model never sees the "
                                             "file. Remove what it names.%3")
                                  .arg(f.name,
                                       findingsText(f.scan, HermesLines(fileText)),
                                       orderNote(f.scan))));
        }
        if (f.used && f.cut.truncated) {
            const QString what = soul ? QStringLiteral("SOUL.md")
                                      : QStringLiteral("The %1 section (with its heading)")
                                            .arg(f.cut.warnName == QLatin1String(".cursorrules")
                                                     ? QStringLiteral("cursor rules")
                                                     : f.name);
            lints.append(make(file, LintLevel::Warning, "hermes-truncated", cutText(f.cut, what)));
        }
        if (!f.beatenBy.isEmpty() && f.chars > 0) {
            lints.append(make(file,
                              LintLevel::Info,
                              "hermes-not-chosen",
                              QStringLiteral("%1 is not read: Hermes loads one kind of project "
                                             "file and %2 comes first.")
                                  .arg(f.name, f.beatenBy)));
        }
    }
    if (c.chainCut.truncated) {
        lints.append(make(joined(paths.project, QStringLiteral("AGENTS.md")),
                          LintLevel::Warning,
                          "hermes-truncated",
                          cutText(c.chainCut,
                                  QStringLiteral("The AGENTS.md files of the directory chain"))));
    }
    if (input.chain.size() > 1) {
        lints.append(make(QDir::cleanPath(paths.project),
                          LintLevel::Info,
                          "hermes-git-root",
                          QStringLiteral("the project is inside the git repository at %1: Hermes "
                                         "also reads HERMES.md and AGENTS.md files from every "
                                         "directory up to it.")
                              .arg(input.chain.first().path)));
    }

    const HermesFile *sources[] = {&input.memory, &input.user};
    int k = 0;
    for (const HermesMemoryStore *store : {&c.memoryStore, &c.userStore}) {
        const HermesFile &source = *sources[k++];
        const QString file = memoryPath(store->name);
        const HermesLines lines(source.text);
        if (!store->enabled)
            continue;
        if (store->state == HermesFile::State::Unreadable
            || store->state == HermesFile::State::NotAFile) {
            lints.append(make(file,
                              store->state == HermesFile::State::NotAFile ? LintLevel::Warning
                                                                          : LintLevel::Error,
                              "hermes-unreadable",
                              QStringLiteral("%1 %2: Hermes loads no entries from it.%3")
                                  .arg(store->name,
                                       unreadableText(store->state, store->badByte, store->reason),
                                       store->badByte >= 0
                                           ? QStringLiteral(" Save it as UTF-8.")
                                           : QLatin1Char(' ') + readableAdvice(store->reason))));
            continue;
        }
        for (qsizetype i = 0; i < store->entries.size(); ++i) {
            const HermesMemoryEntry &entry = store->entries.at(i);
            const QString where = QStringLiteral("%1 entry %2 (line %3)")
                                      .arg(store->name)
                                      .arg(i + 1)
                                      .arg(lines.line(entry.span.start));
            if (entry.duplicateOf >= 0) {
                lints.append(make(file,
                                  LintLevel::Warning,
                                  "hermes-duplicate-entry",
                                  QStringLiteral("%1 repeats entry %2: Hermes drops it.")
                                      .arg(where)
                                      .arg(entry.duplicateOf + 1)));
                continue;
            }
            if (entry.scan.blocked()) {
                lints.append(
                    make(file,
                         LintLevel::Error,
                         "hermes-blocked-entry",
                         QStringLiteral("%1 is replaced by a BLOCKED line: Hermes "
                                        "0.21.3's threat scan finds %2. Remove it or "
                                        "rewrite it.%3")
                             .arg(where, findingsText(entry.scan, lines), orderNote(entry.scan))));
                if (entry.scan.ids().contains(QLatin1String("ssh_access"))) {
                    const bool only = entry.scan.findings.size() == 1;
                    lints.append(
                        make(file,
                             LintLevel::Info,
                             "hermes-ssh-access",
                             QStringLiteral(
                                 "%1: Hermes 0.21.3 builds differ on whether naming ~/.ssh "
                                 "or $HOME/.ssh without a write verb is a threat "
                                 "(ssh_access), so %2; this profile follows the release's "
                                 "pattern table.")
                                 .arg(where,
                                      only ? QStringLiteral("some do not block this entry")
                                           : QStringLiteral(
                                               "some leave ssh_access out of its BLOCKED "
                                               "line"))));
                }
            }
            if (entry.pushesOverLimit) {
                lints.append(
                    make(file,
                         LintLevel::Error,
                         "hermes-memory-limit",
                         QStringLiteral("%1 holds %2 characters, over its %3-character "
                                        "limit (entry %4, line %5, takes it over): Hermes "
                                        "injects it whole, but its memory tool refuses "
                                        "every new entry until it is under the limit.")
                             .arg(store->name, formatCount(store->chars), formatCount(store->limit))
                             .arg(i + 1)
                             .arg(lines.line(entry.span.start))));
            }
        }
        if (store->blankEntries > 0 && !store->entries.isEmpty()) {
            lints.append(
                make(file,
                     LintLevel::Info,
                     "hermes-blank-entry",
                     QStringLiteral("%1 has %2 between its § lines: Hermes drops them.")
                         .arg(store->name,
                              plural(store->blankEntries, "empty entry", "empty entries"))));
        }
    }
    for (const QString &name : neverRead) {
        lints.append(make(joined(paths.flat ? paths.home : paths.project, name),
                          LintLevel::Info,
                          "hermes-not-read",
                          QStringLiteral("%1 is never read by Hermes 0.21.3: it takes its "
                                         "identity from SOUL.md and its memories from "
                                         "MEMORY.md and USER.md.")
                              .arg(name)));
    }
    return lints;
}

} // namespace soul
