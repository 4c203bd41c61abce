#include "skillscommand.h"

#include "commandline.h"
#include "commands.h"
#include "output.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtimeskills.h"
#include "tokens/tokenizer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace soul {

namespace {

Result<SkillsList> skillsOf(const Invocation &invocation)
{
    const Runtime *runtime = RuntimeRegistry::instance().find(invocation.runtime);
    if (!runtime)
        return Result<SkillsList>::failure(
            QStringLiteral("unknown runtime '%1'.").arg(invocation.runtime));
    return runtime->skills(skillsRequest(invocation));
}

QString levelWord(LintLevel level)
{
    return lintLevelName(level);
}

} // namespace

SkillsRequest skillsRequest(const Invocation &invocation)
{
    SkillsRequest request;
    request.input.home = invocation.hermesHome;
    request.input.project = invocation.project;
    request.input.dir = invocation.hermesHome.isEmpty() ? invocation.arguments.at(0)
                                                        : invocation.project;
    request.configFile = invocation.config;
    request.agentId = invocation.agent;
    request.workingDirectory = QDir::currentPath();
    request.accountHome = QDir::homePath();
    return request;
}

Result<SkillsList> skillsPart(const Invocation &invocation)
{
    return skillsOf(invocation);
}

int runSkills(const Invocation &invocation)
{
    const Result<SkillsList> read = skillsOf(invocation);
    if (!read)
        return fail(read.error());
    const SkillsList &list = *read;
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
                            {QStringLiteral("plugin"), skill.plugin},
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
                               {QStringLiteral("plugins"), QJsonArray::fromStringList(list.plugins)},
                               {QStringLiteral("pluginsDir"), list.pluginsDir},
                               {QStringLiteral("pluginsFrom"), list.pluginsHow},
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
    const QString budget
        = list.maxChars < 0
              ? QStringLiteral("%1 characters").arg(list.prompt.size())
              : QStringLiteral("%1 of %2 characters").arg(list.prompt.size()).arg(list.maxChars);
    const QString count = list.maxCount < 0
                              ? QString()
                              : QStringLiteral(", at most %1 skills").arg(list.maxCount);
    text += QStringLiteral("\n%1 of %2 eligible skills listed: %3, %4 tokens (o200k_base)%5; %6 "
                           "format%7.\n")
                .arg(list.listed)
                .arg(list.candidates)
                .arg(budget)
                .arg(promptTokens)
                .arg(count)
                .arg(list.compact ? QStringLiteral("compact") : QStringLiteral("full"))
                .arg(list.compact ? QStringLiteral(", descriptions cut at %1 characters")
                                        .arg(list.descriptionMaxChars)
                                  : QString());
    if (!list.bundledHow.isEmpty())
        text += QStringLiteral("Bundled skills: %1 (%2).\n")
                    .arg(list.bundledDir.isEmpty() ? QStringLiteral("none") : list.bundledDir,
                         list.bundledHow);
    if (!list.pluginsHow.isEmpty())
        text += QStringLiteral("Plugin skills: %1 (%2).\n")
                    .arg(list.plugins.isEmpty() ? QStringLiteral("none")
                                                : list.plugins.join(QStringLiteral(", ")),
                         list.pluginsHow);
    for (const Lint &lint : std::as_const(lints))
        text += QStringLiteral("%1: %2: %3\n").arg(levelWord(lint.level), lint.code, lint.message);
    const int written = writeStandardOutput(text.toUtf8());
    return written != ExitSuccess ? written : problems ? ExitProblems : ExitSuccess;
}

} // namespace soul
