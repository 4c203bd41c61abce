#include "commands.h"
#include "skillscommand.h"

#include "agentcommands.h"
#include "commandline.h"
#include "compose/composer.h"
#include "counttext.h"
#include "diff/souldiff.h"
#include "diff/souldifftext.h"
#include "disk/atomicwrite.h"
#include "disk/slotreader.h"
#include "history/commitreader.h"
#include "history/historycounts.h"
#include "history/personahistory.h"
#include "linkscommand.h"
#include "output.h"
#include "persona/inspection.h"
#include "persona/lint.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"
#include "registry/runtimecomparison.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimesoul.h"
#include "runtime/reporttext.h"
#include "runtime/runtimeskills.h"
#include "runtime/toolnexus/toolnexusreport.h"
#include "testcommand.h"
#include "tokens/soultokens.h"
#include "tokens/tokenizer.h"

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
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace soul {

namespace {

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

RuntimeProfile profileOf(const Invocation &invocation)
{
    const RuntimeProfile named
        = runtimeProfileNamed(invocation.runtime).value_or(RuntimeProfile::toolnexus());
    return RuntimeProfile::of(named.runtime, invocation.settings);
}

// Where the runtime reads the persona: DIR, or a runtime's home and the
// project it runs in.
RuntimeInput inputOf(const Invocation &invocation)
{
    RuntimeInput input;
    input.home = invocation.hermesHome;
    input.project = invocation.project;
    input.dir = invocation.hermesHome.isEmpty() ? invocation.arguments.at(0) : invocation.project;
    return input;
}

// Where a write to `path` lands: the end of its links, in its folder with
// that folder's links resolved, whether or not the file exists yet.
QString landingPath(const QString &path)
{
    QString error;
    QString end = resolveLinks(path, &error);
    if (end.isEmpty())
        end = path;
    const QFileInfo info(QDir::current().absoluteFilePath(end));
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? QDir::cleanPath(info.absoluteFilePath())
                            : QDir(folder).filePath(info.fileName());
}

// Whether writing `output` would change `file`: the same file now (through a
// link or a hard link), or the name a new file would take.
bool writesOver(const QString &output, const QString &file)
{
    struct stat a
    {};
    struct stat b
    {};
    if (::stat(QFile::encodeName(output).constData(), &a) == 0
        && ::stat(QFile::encodeName(file).constData(), &b) == 0)
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    return landingPath(output) == landingPath(file);
}

// The file of the persona composed that -o FILE would write over, or empty:
// the slot files of DIR, or every file the runtime reads (a runtime with a
// home: the home's and the project's, up to its git root, and its rules).
QString personaFileAt(const Invocation &invocation, const QString &output)
{
    QStringList slots;
    for (int slot = 0; slot < SlotCount; ++slot)
        slots.append(slotName(slot));
    const RuntimeInput input = inputOf(invocation);
    const Runtime *runtime = profileOf(invocation).runtime;
    const QStringList files = runtime->readPaths(input, slots);
    const QString rulesFolder = runtime->readRulesFolder(input);
    const QString rules = rulesFolder.isEmpty()
                              ? QString()
                              : landingPath(QDir(rulesFolder).filePath(QStringLiteral("x.mdc")));
    for (const QString &file : files) {
        if (writesOver(output, file))
            return file;
    }
    const QString landing = landingPath(output);
    if (!rules.isEmpty() && landing.endsWith(QLatin1String(".mdc"))
        && QFileInfo(landing).path() == QFileInfo(rules).path())
        return landing;
    return {};
}

// -o FILE refused before anything is composed.
QString outputProblem(const Invocation &invocation)
{
    if (invocation.output.isEmpty())
        return {};
    return outputFileProblem(invocation, invocation.output, OutputRule{});
}

// `bytes` to -o FILE (atomically), else to standard output.
int writeResult(const Invocation &invocation, QByteArrayView bytes)
{
    if (!invocation.output.isEmpty()) {
        // Without --force the rename itself refuses a file that appeared
        // since outputProblem() looked.
        const Status written = writeFileAtomically(invocation.output,
                                                   bytes,
                                                   invocation.force ? Overwrite::Allowed
                                                                    : Overwrite::Never);
        if (!written)
            return fail(written.error());
        warnIfAny(written.warning());
        return ExitSuccess;
    }
    return writeStandardOutput(bytes);
}

QByteArray foundLines(const QStringList &names)
{
    QByteArray found;
    for (const QString &name : names)
        found += name.toUtf8() + '\n';
    return found;
}

int runCompose(const Invocation &invocation)
{
    if (const QString problem = outputProblem(invocation); !problem.isEmpty())
        return fail(problem);
    const RuntimeProfile profile = profileOf(invocation);
    const RuntimeInput input = inputOf(invocation);
    if (!invocation.part.isEmpty() && invocation.part != QLatin1String("project")) {
        const Result<QByteArray> bytes = composedSoul(invocation);
        if (!bytes)
            return fail(bytes.error());
        return writeResult(invocation, *bytes);
    }
    if (!profile.sectioned()) {
        // Composed whole: under its budgets a runtime's text is at most a few
        // hundred KB.
        const Result<RuntimeComposition> composition = profile.runtime->compose(input,
                                                                                profile.settings);
        if (!composition)
            return fail(composition.error());
        return writeResult(invocation,
                           invocation.found ? foundLines(composition->found)
                                            : composition->text.toUtf8());
    }
    const QString &dir = input.dir;
    if (const QString problem = checkDirectory(dir); !problem.isEmpty())
        return fail(problem);
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
    return writeResult(invocation,
                       invocation.found ? foundLines(composition.found) : composition.soul);
}

} // namespace

QString outputFileProblem(const Invocation &invocation,
                          const QString &output,
                          const OutputRule &rule)
{
    if (const QString own = personaFileAt(invocation, output); !own.isEmpty()) {
        return QStringLiteral("%1 would write over %2, a file of the persona being composed; "
                              "%3 never does, even with --force. Name a file outside the "
                              "persona.")
            .arg(output, own, rule.option);
    }
    for (const QString &kept : rule.kept) {
        if (writesOver(output, kept)) {
            return QStringLiteral("%1 would write over %2, %3; %4 never does, even with "
                                  "--force. Name another file.")
                .arg(output, kept, rule.keptWhat, rule.option);
        }
    }
    const QFileInfo info(output);
    if (rule.refuseLinks && info.isSymLink()) {
        return QStringLiteral("%1 is a symbolic link; %2 never writes through one, even with "
                              "--force. Remove the link, or name another file.")
            .arg(output, rule.option);
    }
    if (info.isDir())
        return QStringLiteral("Cannot write %1: it is a folder. Name a file for %2.")
            .arg(output, rule.option);
    if (!invocation.force && (info.exists() || info.isSymLink())) {
        return QStringLiteral("%1 already exists. Choose %2, or allow overwriting (--force).")
            .arg(output, rule.another);
    }
    return {};
}

Result<QByteArray> composedSoul(const Invocation &invocation)
{
    // What runCompose writes to a file: the same calls, so the bytes agree.
    const RuntimeProfile profile = profileOf(invocation);
    const RuntimeInput input = inputOf(invocation);
    if (!invocation.part.isEmpty() && invocation.part != QLatin1String("project")) {
        const Result<SkillsList> skills = skillsPart(invocation);
        if (!skills)
            return Result<QByteArray>::failure(skills.error());
        if (invocation.part != QLatin1String("all"))
            return skills->prompt.toUtf8();
        // Both parts in the order of the runtime's prompt, each exactly as
        // the runtime builds it.
        const Result<RuntimeComposition> composition = profile.runtime->compose(input,
                                                                                profile.settings);
        if (!composition)
            return Result<QByteArray>::failure(composition.error());
        return skills->beforeText ? (skills->prompt + composition->text).toUtf8()
                                  : (composition->text + skills->prompt).toUtf8();
    }
    if (!profile.sectioned()) {
        const Result<RuntimeComposition> composition = profile.runtime->compose(input,
                                                                                profile.settings);
        if (!composition)
            return Result<QByteArray>::failure(composition.error());
        return composition->text.toUtf8();
    }
    if (const QString problem = checkDirectory(input.dir); !problem.isEmpty())
        return Result<QByteArray>::failure(problem);
    return composeDirectory(input.dir, profile.rule).soul;
}

namespace {

// The skills list's part of `soulc stat`, after the runtime's report: one
// line, or a "skills" object in its JSON. A list that cannot be read is
// said there, as soulc check says it, unless --config named the config.
Result<QByteArray> withSkillsFigures(const Invocation &invocation,
                                     const Tokenizer &tokenizer,
                                     const QByteArray &report)
{
    const Result<SkillsList> list = skillsPart(invocation);
    if (!list && !invocation.config.isEmpty())
        return Result<QByteArray>::failure(list.error());
    QJsonObject figures;
    QString line;
    if (list) {
        const QByteArray utf8 = list->prompt.toUtf8();
        const qint64 tokens = tokenizer.count(utf8);
        const QString sha256 = QString::fromLatin1(
            QCryptographicHash::hash(utf8, QCryptographicHash::Sha256).toHex());
        figures = QJsonObject{{QStringLiteral("chars"), qint64(list->prompt.size())},
                              {QStringLiteral("tokens"), tokens},
                              {QStringLiteral("listed"), qint64(list->listed)},
                              {QStringLiteral("sha256"), sha256}};
        line = QStringLiteral("skills list: %1 characters, %2 tokens (%3), %4 skills listed, "
                              "SHA-256 %5\n")
                   .arg(list->prompt.size())
                   .arg(tokens)
                   .arg(tokenizer.name())
                   .arg(list->listed)
                   .arg(sha256);
    } else {
        figures = QJsonObject{{QStringLiteral("error"), list.error()}};
        line = QStringLiteral("skills list: cannot be read: %1\n").arg(list.error());
    }
    if (!invocation.json)
        return report + line.toUtf8();
    QJsonObject root = QJsonDocument::fromJson(report).object();
    root.insert(QStringLiteral("skills"), figures);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

int runStat(const Invocation &invocation)
{
    const auto tokenizer = encodingFor(invocation);
    if (!tokenizer)
        return ExitFailure;
    const RuntimeProfile profile = profileOf(invocation);
    Result<QByteArray> report = profile.runtime->statReport(inputOf(invocation),
                                                            profile.settings,
                                                            *tokenizer,
                                                            invocation.json);
    if (report && profile.runtime->listsSkills())
        report = withSkillsFigures(invocation, *tokenizer, *report);
    if (!report)
        return fail(report.error());
    return writeStandardOutput(*report);
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
    const RuntimeProfile profile = profileOf(invocation);
    const RuntimeInput input = inputOf(invocation);
    const Result<RuntimeComposition> composition = profile.runtime->compose(input, profile.settings);
    if (!composition)
        return fail(composition.error());
    QList<Lint> lints = composition->lints;
    // A runtime that lists skills in its prompt checks them too: the list's
    // lints, then each skill's, in the list's order. What the list says of
    // this machine rather than of the persona (an install it cannot find
    // for its plugins' skills) is left to `soulc skills`.
    if (profile.runtime->listsSkills()) {
        const Result<SkillsList> skills = skillsPart(invocation);
        if (!skills && !invocation.config.isEmpty())
            return fail(skills.error());
        if (!skills) {
            lints.append({QString(),
                          -1,
                          LintLevel::Error,
                          QStringLiteral("skills-unreadable"),
                          QStringLiteral("The skills list cannot be read: %1").arg(skills.error())});
        } else {
            for (const Lint &lint : skills->lints) {
                if (!lint.code.startsWith(QLatin1String("plugin-skills-")))
                    lints += lint;
            }
            for (const SkillItem &skill : skills->skills)
                lints += skill.lints;
        }
    }
    QByteArray out;
    for (const Lint &lint : std::as_const(lints))
        out += lintLine(profile.runtime->lintLocation(input, lint), lint);
    if (const int status = writeStandardOutput(out); status != ExitSuccess)
        return status;
    return composition->problems || hasErrors(lints) ? ExitProblems : ExitSuccess;
}

int runExport(const Invocation &invocation)
{
    const RuntimeProfile profile = profileOf(invocation);
    const RuntimeInput input = inputOf(invocation);
    const SkillsRequest skills = skillsRequest(invocation);
    const Result<Snapshot> snapshot
        = profile.sectioned()
              ? takeSnapshot(input.dir, profile.rule)
              : takeRuntimeSnapshot(input, *profile.runtime, profile.settings, nullptr, &skills);
    if (!snapshot)
        return fail(snapshot.error());
    const Status written = writeSnapshot(*snapshot,
                                         invocation.arguments.constLast(),
                                         invocation.force);
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

// The runtime whose text the soul file at `path` holds; empty for a folder,
// a toolnexus soul, or a file whose manifest cannot be read (loading it as a
// soul then says why).
QString snapshotRuntimeAt(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return {};
    const Result<QString> id = snapshotRuntimeId(path);
    return id ? id.value() : QString();
}

// The side of a runtime diff at `path` that is not a snapshot of `runtime`'s
// text: a persona folder, composed for it by `snapshot`'s settings.
Result<RuntimeSnapshot> composedSide(const QString &path,
                                     const Runtime &runtime,
                                     const RuntimeSnapshot &snapshot)
{
    using R = Result<RuntimeSnapshot>;
    const QFileInfo info(path);
    if (!info.exists()) {
        return R::failure(
            QStringLiteral("%1: no such persona folder or soul file. Check the path.").arg(path));
    }
    if (!info.isDir()) {
        return R::failure(QStringLiteral("%1 holds the toolnexus soul and %2 what %3 injects: the "
                                         "two do not compare line by line. Give the persona "
                                         "folder instead of %1, or export it with --runtime %4.")
                              .arg(path, snapshot.soulPath, runtime.displayName(), runtime.id()));
    }
    RuntimeInput input;
    input.dir = path;
    const Result<RuntimeComposition> composed = runtime.compose(input, snapshot.settings);
    if (!composed)
        return R::failure(composed.error());
    RuntimeSnapshot side = runtimeTextOf(runtime, snapshot.settings, *composed, path);
    // The folder's skills list as export would record it, when the snapshot
    // records one to compare it with.
    if (snapshot.skills && runtime.listsSkills()) {
        const Result<SkillsList> list = runtime.skills(defaultSkillsRequest(input));
        if (!list)
            return R::failure(list.error());
        side.skills = SnapshotSkills{list->prompt, listedSkillNames(*list), 0};
    }
    return side;
}

// The skills lists' status when both sides have one (added or removed: a
// list with no skill on one side), as a section's.
std::optional<SectionStatus> skillsStatus(const RuntimeSnapshot &a, const RuntimeSnapshot &b)
{
    if (!a.skills || !b.skills)
        return std::nullopt;
    const QString &before = a.skills->text;
    const QString &after = b.skills->text;
    if (before.isEmpty() && after.isEmpty())
        return SectionStatus::Absent;
    if (before.isEmpty())
        return SectionStatus::Added;
    if (after.isEmpty())
        return SectionStatus::Removed;
    return before == after ? SectionStatus::Unchanged : SectionStatus::Changed;
}

// Whether the skills lists do not differ (or are not both there).
bool skillsSame(std::optional<SectionStatus> status)
{
    return !status || *status == SectionStatus::Unchanged || *status == SectionStatus::Absent;
}

QByteArray runtimeDiffJson(const RuntimeSnapshot &a,
                           const RuntimeSnapshot &b,
                           const Runtime &runtime,
                           const TokenEncoding &encoding,
                           const RuntimeTextComparison &c,
                           std::optional<SectionStatus> skills)
{
    QJsonArray files;
    for (const RuntimeFileStatus &file : c.files) {
        files.append(QJsonObject{{QStringLiteral("name"), file.name},
                                 {QStringLiteral("status"), sectionStatusName(file.status)}});
    }
    QJsonObject settings;
    const RuntimeSettings values = runtime.withDefaults(a.settings);
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        settings.insert(it.key(), it.value());
    const auto side = [](const RuntimeSnapshot &s) {
        return QJsonObject{{QStringLiteral("path"), s.soulPath},
                           {QStringLiteral("bytes"), qint64(s.text.toUtf8().size())}};
    };
    const auto skillsSide = [](const RuntimeSnapshot &s) {
        return QJsonObject{{QStringLiteral("chars"), qint64(s.skills->text.size())},
                           {QStringLiteral("names"), QJsonArray::fromStringList(s.skills->names)}};
    };
    const QJsonValue skillsPart = skills ? QJsonObject{{QStringLiteral("status"),
                                                        sectionStatusName(*skills)},
                                                       {QStringLiteral("a"), skillsSide(a)},
                                                       {QStringLiteral("b"), skillsSide(b)}}
                                         : QJsonValue();
    const QJsonObject root{
        {QStringLiteral("a"), side(a)},
        {QStringLiteral("b"), side(b)},
        {QStringLiteral("identical"), c.prefix.identical && skillsSame(skills)},
        {QStringLiteral("skills"), skillsPart},
        {QStringLiteral("encoding"), encoding.name},
        {QStringLiteral("runtime"),
         QJsonObject{{QStringLiteral("id"), runtime.id()},
                     {QStringLiteral("name"), runtime.displayName()},
                     {QStringLiteral("settings"), settings}}},
        {QStringLiteral("files"), files},
        {QStringLiteral("stablePrefix"),
         QJsonObject{
             {QStringLiteral("tokens"), c.prefix.tokens},
             {QStringLiteral("totalTokens"), c.prefix.totalTokens},
             {QStringLiteral("bytes"), c.prefix.bytes},
             {QStringLiteral("totalBytes"), c.prefix.totalBytes},
             {QStringLiteral("percent"), c.prefix.percent()},
         }},
        {QStringLiteral("firstChange"),
         c.firstChangeFile.isEmpty() ? QJsonValue()
                                     : QJsonObject{{QStringLiteral("file"), c.firstChangeFile}}},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// A and B where one or both are snapshots of a runtime's text (export
// --runtime, or Freeze with a runtime chosen): runtime text against runtime
// text, a folder composed for the snapshot's runtime by its settings.
int runRuntimeDiff(const Invocation &invocation,
                   const TokenEncoding &encoding,
                   const QString &idA,
                   const QString &idB)
{
    const QString &pathA = invocation.arguments.at(0);
    const QString &pathB = invocation.arguments.at(1);
    if (!idA.isEmpty() && !idB.isEmpty() && idA != idB) {
        return fail(QStringLiteral("%1 holds what runtime '%2' injects and %3 what runtime '%4' "
                                   "injects: texts of two runtimes do not compare line by line. "
                                   "Export both with one --runtime, or compare each with the "
                                   "persona folder.")
                        .arg(pathA, idA, pathB, idB));
    }
    const Result<RuntimeSnapshot> frozen = loadRuntimeSnapshot(idA.isEmpty() ? pathB : pathA);
    if (!frozen)
        return fail(frozen.error());
    const Result<const Runtime *> runtime = snapshotRuntime(*frozen);
    if (!runtime)
        return fail(runtime.error());
    const QString &otherPath = idA.isEmpty() ? pathA : pathB;
    const Result<RuntimeSnapshot> other = idA.isEmpty() || idB.isEmpty()
                                              ? composedSide(otherPath, **runtime, *frozen)
                                              : loadRuntimeSnapshot(otherPath);
    if (!other)
        return fail(other.error());
    const RuntimeSnapshot &a = idA.isEmpty() ? *other : *frozen;
    const RuntimeSnapshot &b = idA.isEmpty() ? *frozen : *other;
    const RuntimeTextComparison c = compareRuntimeText(a, b, encoding);
    const std::optional<SectionStatus> skills = skillsStatus(a, b);
    QByteArray out;
    if (invocation.json) {
        out = runtimeDiffJson(a, b, **runtime, encoding, c, skills);
    } else {
        out = runtimeTextDiff(a.text, pathA, b.text, pathB);
        // The skills list's lines after the files', each side labelled so.
        if (skills) {
            out += runtimeTextDiff(a.skills->text,
                                   pathA + QStringLiteral(" (skills list)"),
                                   b.skills->text,
                                   pathB + QStringLiteral(" (skills list)"));
        }
        QStringList files;
        for (const RuntimeFileStatus &file : c.files)
            files.append(file.name + QLatin1Char(' ') + sectionStatusName(file.status));
        out += QStringLiteral("%1: %2\n")
                   .arg((*runtime)->displayName(),
                        files.isEmpty() ? QStringLiteral("no files")
                                        : files.join(QStringLiteral(", ")))
                   .toUtf8();
        // Neither side listing a skill is said in the JSON only: most
        // personas have none.
        if (skills && *skills != SectionStatus::Absent)
            out += QStringLiteral("skills list: %1\n").arg(sectionStatusName(*skills)).toUtf8();
        out += QStringLiteral("stable prefix: %1 of %2 %3 (%4%)")
                   .arg(c.prefix.tokens)
                   .arg(c.prefix.totalTokens)
                   .arg(encoding.unit)
                   .arg(c.prefix.percent())
                   .toUtf8();
        if (!c.firstChangeFile.isEmpty())
            out += QStringLiteral("; first change: %1").arg(c.firstChangeFile).toUtf8();
        out += '\n';
    }
    if (const int written = writeStandardOutput(out); written != ExitSuccess)
        return written;
    return c.prefix.identical && skillsSame(skills) ? ExitSuccess : ExitProblems;
}

int runDiff(const Invocation &invocation)
{
    const Result<TokenEncoding> encoding = tokenEncoding(invocation.encoding);
    if (!encoding)
        return fail(QStringLiteral("diff: ") + encoding.error());
    if (invocation.revs.isEmpty()) {
        const QString idA = snapshotRuntimeAt(invocation.arguments.at(0));
        const QString idB = snapshotRuntimeAt(invocation.arguments.at(1));
        if (!idA.isEmpty() || !idB.isEmpty())
            return runRuntimeDiff(invocation, *encoding, idA, idB);
    }
    // A and B; or DIR at --rev A and DIR now; or DIR at --rev A and --rev B.
    const QString &first = invocation.arguments.at(0);
    const QStringList &revs = invocation.revs;
    const Result<SectionedSoul> a = revs.isEmpty()
                                        ? loadComparableSoul(first)
                                        : revisionSoul(first, revs.at(0), ComposeRule::toolnexus());
    if (!a)
        return fail(a.error());
    const Result<SectionedSoul> b = revs.isEmpty() ? loadComparableSoul(invocation.arguments.at(1))
                                    : revs.size() == 1
                                        ? loadComparableSoul(first)
                                        : revisionSoul(first, revs.at(1), ComposeRule::toolnexus());
    if (!b)
        return fail(b.error());
    QByteArray out;
    bool identical = false;
    if (invocation.json) {
        const auto status = compareSections(*a, *b);
        const StablePrefix prefix = stablePrefix(a->soul, b->soul, *encoding);
        const std::optional<FirstChange> change
            = firstChange(*a, *b, status, qsizetype(prefix.bytes));
        out = diffJson(*a, *b, *encoding, status, prefix, change);
        identical = prefix.identical;
    } else {
        out = soulDiffText(*a, *b, *encoding, &identical);
    }
    if (const int written = writeStandardOutput(out); written != ExitSuccess)
        return written;
    return identical ? ExitSuccess : ExitProblems;
}

// ---- history ---------------------------------------------------------------

// DIR as commit `rev` has it, read as the toolnexus rule reads a folder.
ReadOptions revisionOptions(bool digests)
{
    ReadOptions options(ComposeRule::toolnexus().readLimit());
    options.sha256 = digests;
    return options;
}

int runComposeRevision(const Invocation &invocation)
{
    if (const QString problem = outputProblem(invocation); !problem.isEmpty())
        return fail(problem);
    const QString &dir = invocation.arguments.at(0);
    const Result<PersonaRevision> revision = readCommit(dir,
                                                        invocation.revs.at(0),
                                                        revisionOptions(false));
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
    return writeResult(invocation, bytes);
}

int runStatRevision(const Invocation &invocation)
{
    const auto tokenizer = encodingFor(invocation);
    if (!tokenizer)
        return ExitFailure;
    const QString &dir = invocation.arguments.at(0);
    const Result<PersonaRevision> revision = readCommit(dir,
                                                        invocation.revs.at(0),
                                                        revisionOptions(true));
    if (!revision)
        return fail(revision.error());
    Inspection inspection = inspectReads(QFileInfo(dir).absoluteFilePath(),
                                         revision->reads,
                                         revision->entryNames,
                                         revision->memoryFolder,
                                         profileOf(invocation).rule);
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
    const SoulTokenCounts tokens = countSoulTokens(inspection.composition, *tokenizer);
    const Result<QByteArray> report = profileOf(invocation)
                                          .runtime->revisionReport(inspection,
                                                                   tokens,
                                                                   invocation.revs.at(0),
                                                                   revision->commit.shortId,
                                                                   revision->commit.id,
                                                                   invocation.json);
    if (!report)
        return fail(report.error());
    return writeStandardOutput(report.value());
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
    // What came before a shallow clone's cut is not known.
    if (commit.cut)
        parts.append(QStringLiteral("history cut here (shallow clone)"));
    for (const ChangedSlot &changed : changedSlots(commit, &figures)) {
        const qint64 delta = changed.tokenChange;
        const QString name = slotName(changed.slot);
        switch (changed.change) {
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
        {QStringLiteral("cut"), commit.cut},
        {QStringLiteral("soul"),
         QJsonObject{{QStringLiteral("bytes"), figures.soulBytes},
                     {QStringLiteral("tokens"), figures.soulTokens}}},
        {QStringLiteral("slots"), slots},
    };
}

// `soulc log --json`: each commit is written as soon as it is measured, so
// the memory taken does not grow with the length of the history. The fields
// of the folder come first, the commits last.
int writeLogJson(const PersonaHistory &history, std::shared_ptr<const Tokenizer> tokenizer)
{
    HistoryCounts counts(std::move(tokenizer));
    const QJsonObject folder{
        {QStringLiteral("directory"), history.directory()},
        {QStringLiteral("repository"), history.repositoryRoot()},
        {QStringLiteral("path"), history.pathInRepository()},
        {QStringLiteral("encoding"), counts.tokenizer().name()},
        {QStringLiteral("shallow"), history.isShallow()},
    };
    QByteArray head = QJsonDocument(folder).toJson(QJsonDocument::Indented);
    head.chop(3); // "\n}\n"
    head += ",\n    \"commits\": [";
    if (const int written = writeStandardOutput(head); written != ExitSuccess)
        return written;
    int result = ExitSuccess;
    bool first = true;
    const Status walked = history.log([&](const HistoryCommit &commit) {
        const Result<SoulFigures> figures = history.measure(commit, counts);
        if (!figures) {
            result = fail(figures.error());
            return false;
        }
        QByteArray text
            = QJsonDocument(commitJson(commit, *figures)).toJson(QJsonDocument::Indented);
        text.chop(1);
        text.replace("\n", "\n        ");
        text.prepend(first ? "\n        " : ",\n        ");
        first = false;
        result = writeStandardOutput(text);
        return result == ExitSuccess;
    });
    if (result != ExitSuccess)
        return result;
    if (!walked)
        return fail(walked.error());
    return writeStandardOutput(first ? QByteArray("]\n}\n") : QByteArray("\n    ]\n}\n"));
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
    const auto history = PersonaHistory::open(dir);
    if (!history)
        return fail(history.error());
    if (invocation.json)
        return writeLogJson(**history, loading.get());
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
    for (const HistoryCommit &commit : *log) {
        const Result<SoulFigures> figures = (*history)->measure(commit, counts);
        if (!figures)
            return fail(figures.error());
        rows.append({commit.shortId,
                     gitDate(commit.authorTime),
                     formatCount(figures->soulBytes),
                     formatCount(figures->soulTokens),
                     changesText(commit, *figures)});
    }
    const QString cut = (*history)->isShallow()
                            ? QStringLiteral("The repository at %1 is a shallow clone: commits "
                                             "older than its cut are not in it, so the list "
                                             "ends there. 'git fetch --unshallow' fetches them.\n")
                                  .arg((*history)->repositoryRoot())
                            : QString();
    if (rows.size() == 1) {
        return writeStandardOutput(
            (QStringLiteral("%1: no commit in the repository at %2 touches its slot files yet.\n")
                 .arg(dir, (*history)->repositoryRoot())
             + cut)
                .toUtf8());
    }
    return writeStandardOutput(renderTable(rows, {false, false, true, true, false}) + cut.toUtf8());
}

int runCheckpoint(const Invocation &invocation)
{
    const QString &dir = invocation.arguments.at(0);
    HistoryCounts counts(Tokenizer::builtin(QString()));
    const Result<Checkpoint> made = checkpointFolder(dir, invocation.message, counts);
    if (!made)
        return fail(made.error());
    // What a checkpoint killed before left, and how it was cleaned, first.
    QString notes;
    for (const QString &note : made->recovered)
        notes += note + QLatin1Char('\n');
    if (made->nothingToCommit) {
        const int written = writeStandardOutput(
            (notes
             + QStringLiteral("nothing to checkpoint: the slot files of %1 are as HEAD has them.\n")
                   .arg(dir))
                .toUtf8());
        return written == ExitSuccess ? ExitProblems : written;
    }
    const QString summary = made->message.section(QLatin1Char('\n'), 0, 0);
    QString after;
    for (const QString &left : made->leftovers)
        after += left + QLatin1Char('\n');
    return writeStandardOutput(
        (notes + QStringLiteral("checkpoint %1: %2\n").arg(made->shortId, summary) + after).toUtf8());
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
    case Command::Skills:
        return runSkills(invocation);
    case Command::Test:
        return runTest(invocation);
    case Command::Links:
        return runLinks(invocation.arguments);
    case Command::None:
        break;
    }
    return fail(QStringLiteral("missing command. Try 'soulc --help'."));
}

} // namespace soul
