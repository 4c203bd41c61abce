#include "skillscommand.h"

#include "commandline.h"
#include "commands.h"
#include "output.h"
#include "runtime/openclaw/openclawskills.h"
#include "tokens/tokenizer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace soul {

namespace {

// The input OpenClaw would see when run with the process's environment on
// DIR: its config (--config, else OPENCLAW_CONFIG_PATH or the state dir's).
Result<SkillsInput> skillsInputOf(const Invocation &invocation)
{
    SkillsInput input;
    input.paths = OpenClawPaths::system();
    const QString dir = invocation.arguments.at(0);
    if (!QFileInfo(dir).isDir())
        return Result<SkillsInput>::failure(
            QStringLiteral("%1 is not a folder; give the agent's workspace folder.").arg(dir));
    input.workspaceDir = QDir::cleanPath(QDir::current().absoluteFilePath(dir));
    const QString configPath = invocation.config.isEmpty()
                                   ? input.paths.configPath()
                                   : QDir::cleanPath(
                                       QDir::current().absoluteFilePath(invocation.config));
    Result<OpenClawConfig> config = readOpenClawConfig(configPath,
                                                       input.paths,
                                                       !invocation.config.isEmpty());
    if (!config)
        return Result<SkillsInput>::failure(config.error());
    if (config->exists)
        input.config = std::move(config).value();
    input.agentId = invocation.agent;
    return input;
}

QString levelWord(LintLevel level)
{
    return lintLevelName(level);
}

} // namespace

Result<QByteArray> openClawSkillsPart(const Invocation &invocation)
{
    const Result<SkillsInput> input = skillsInputOf(invocation);
    if (!input)
        return Result<QByteArray>::failure(input.error());
    return openClawSkills(*input).prompt.toUtf8();
}

int runSkills(const Invocation &invocation)
{
    const Result<SkillsInput> input = skillsInputOf(invocation);
    if (!input)
        return fail(input.error());
    const SkillsList list = openClawSkills(*input);
    const auto tokenizer = Tokenizer::builtin(QString());
    const qint64 promptTokens = tokenizer->count(list.prompt.toUtf8());
    bool problems = false;
    QList<Lint> lints = list.lints;
    for (const SkillItem &skill : list.skills) {
        lints += skill.lints;
        if (!skill.loaded || (skill.winner && !skill.eligible) || skill.fate == SkillFate::Dropped)
            problems = true;
    }
    const auto state = [](const SkillItem &skill) {
        if (!skill.loaded)
            return QStringLiteral("invalid: ") + skill.problem;
        if (!skill.winner)
            return QStringLiteral("replaced by ") + skill.shadowedBy;
        if (!skill.eligible)
            return QStringLiteral("left out: ") + skill.whyNot;
        return QStringLiteral("eligible");
    };
    if (invocation.json) {
        QJsonArray skills;
        for (const SkillItem &skill : list.skills) {
            QJsonObject row{{QStringLiteral("name"), skill.name},
                            {QStringLiteral("source"), skill.source},
                            {QStringLiteral("path"), skill.filePath},
                            {QStringLiteral("loaded"), skill.loaded},
                            {QStringLiteral("winner"), skill.winner},
                            {QStringLiteral("eligible"), skill.eligible},
                            {QStringLiteral("state"), state(skill)},
                            {QStringLiteral("fate"), skillFateName(skill.fate)},
                            {QStringLiteral("entryChars"), qint64(skill.entryChars)},
                            {QStringLiteral("entryTokens"), tokenizer->count(skill.entry.toUtf8())}};
            if (skill.fate == SkillFate::Kept || skill.fate == SkillFate::Shortened) {
                row.insert(QStringLiteral("location"), skill.location);
                row.insert(QStringLiteral("description"), skill.description);
            }
            skills.append(row);
        }
        QJsonArray lintArray;
        for (const Lint &lint : std::as_const(lints))
            lintArray.append(QJsonObject{{QStringLiteral("file"), lint.file},
                                         {QStringLiteral("level"), levelWord(lint.level)},
                                         {QStringLiteral("code"), lint.code},
                                         {QStringLiteral("message"), lint.message}});
        const QJsonObject totals{{QStringLiteral("listed"), qint64(list.listed)},
                                 {QStringLiteral("eligible"), qint64(list.candidates)},
                                 {QStringLiteral("chars"), qint64(list.prompt.size())},
                                 {QStringLiteral("tokens"), promptTokens},
                                 {QStringLiteral("maxChars"), qint64(list.maxChars)},
                                 {QStringLiteral("maxSkills"), qint64(list.maxCount)},
                                 {QStringLiteral("compact"), list.compact},
                                 {QStringLiteral("descriptionMaxChars"), list.descriptionMaxChars}};
        const QJsonObject root{{QStringLiteral("skills"), skills},
                               {QStringLiteral("totals"), totals},
                               {QStringLiteral("bundledDir"), list.bundledDir},
                               {QStringLiteral("bundledFrom"), list.bundledHow},
                               {QStringLiteral("lints"), lintArray}};
        const int written = writeStandardOutput(QJsonDocument(root).toJson());
        return written != ExitSuccess ? written : problems ? ExitProblems : ExitSuccess;
    }
    QString text;
    for (const SkillItem &skill : list.skills) {
        const bool inPrompt = skill.fate == SkillFate::Kept || skill.fate == SkillFate::Shortened;
        const QString figures = inPrompt ? QStringLiteral("%1 chars %2 tokens")
                                               .arg(skill.entryChars)
                                               .arg(tokenizer->count(skill.entry.toUtf8()))
                                         : QStringLiteral("-");
        text += QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6\n")
                    .arg(skill.name,
                         skill.source,
                         skill.filePath,
                         state(skill),
                         figures,
                         skillFateName(skill.fate));
    }
    text += QStringLiteral("\n%1 of %2 eligible skills listed: %3 of %4 characters, %5 tokens "
                           "(o200k_base), at most %6 skills; %7 format%8.\n")
                .arg(list.listed)
                .arg(list.candidates)
                .arg(list.prompt.size())
                .arg(list.maxChars)
                .arg(promptTokens)
                .arg(list.maxCount)
                .arg(list.compact ? QStringLiteral("compact") : QStringLiteral("full"))
                .arg(list.compact ? QStringLiteral(", descriptions cut at %1 characters")
                                        .arg(list.descriptionMaxChars)
                                  : QString());
    text += QStringLiteral("Bundled skills: %1 (%2).\n")
                .arg(list.bundledDir.isEmpty() ? QStringLiteral("none") : list.bundledDir,
                     list.bundledHow);
    for (const Lint &lint : std::as_const(lints))
        text += QStringLiteral("%1: %2: %3\n").arg(levelWord(lint.level), lint.code, lint.message);
    const int written = writeStandardOutput(text.toUtf8());
    return written != ExitSuccess ? written : problems ? ExitProblems : ExitSuccess;
}

} // namespace soul
