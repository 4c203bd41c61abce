#include "agentcommands.h"

#include "agents/json5.h"
#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "agents/personafolders.h"
#include "commandline.h"
#include "commands.h"
#include "counttext.h"
#include "disk/composedirectory.h"
#include "output.h"
#include "persona/inspection.h"
#include "persona/lint.h"
#include "runtime/openclaw/openclawreader.h"
#include "runtime/reporttext.h"
#include "tokens/soultokens.h"
#include "tokens/tokenizer.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace soul {

namespace {

// The tokenizer --encoding names (o200k_base when none), or nullptr after
// saying the name is unknown.
std::shared_ptr<const Tokenizer> tokenizerFor(const Invocation &invocation)
{
    auto tokenizer = Tokenizer::builtin(invocation.encoding);
    if (!tokenizer)
        fail(QStringLiteral("unknown encoding '%1'. Use one of: %2.")
                 .arg(invocation.encoding, builtinEncodings().join(QStringLiteral(", "))));
    return tokenizer;
}

// What soulc agents says of one agent's workspace.
struct AgentFigures
{
    bool exists = false;
    qint64 soulBytes = 0;
    qint64 soulTokens = 0;
    qint64 injectedChars = 0; // what OpenClaw injects, with the agent's budgets
    qint64 totalMaxChars = 0;
    int truncatedFiles = 0;
};

// `tokenizer` is null only when the workspace is no folder.
AgentFigures measure(const OpenClawAgent &agent, const Tokenizer *tokenizer)
{
    AgentFigures figures;
    figures.totalMaxChars = agent.settings.totalMaxChars();
    figures.exists = QFileInfo(agent.workspace).isDir();
    if (!figures.exists || !tokenizer)
        return figures;
    const Composition composition = composeDirectory(agent.workspace);
    figures.soulBytes = composition.soul.size();
    figures.soulTokens = countSoulTokens(composition, *tokenizer).soul;
    const OpenClawComposition openClaw = composeOpenClaw(readOpenClawDirectory(agent.workspace),
                                                         agent.settings);
    figures.injectedChars = openClaw.totalInjected;
    figures.totalMaxChars = openClaw.totalLimit;
    for (const OpenClawFileFigures &file : openClaw.files)
        figures.truncatedFiles += file.truncated;
    return figures;
}

QByteArray agentsText(const OpenClawRoster &roster,
                      const QList<AgentFigures> &figures,
                      const QString &encoding)
{
    QList<QStringList> rows;
    rows.append({QStringLiteral("agent"),
                 QStringLiteral("default"),
                 QStringLiteral("folder"),
                 QStringLiteral("bytes"),
                 QStringLiteral("tokens"),
                 QStringLiteral("injected"),
                 QStringLiteral("budget"),
                 QStringLiteral("workspace")});
    const QString dash = QStringLiteral("-");
    for (qsizetype i = 0; i < roster.agents.size(); ++i) {
        const OpenClawAgent &agent = roster.agents.at(i);
        const AgentFigures &f = figures.at(i);
        // A path can hold a line break; the table keeps one agent a line.
        rows.append({printableText(agent.id),
                     agent.isDefault ? QStringLiteral("yes") : QStringLiteral("no"),
                     f.exists ? QStringLiteral("yes") : QStringLiteral("missing"),
                     f.exists ? formatCount(f.soulBytes) : dash,
                     f.exists ? formatCount(f.soulTokens) : dash,
                     f.exists ? formatCount(f.injectedChars) : dash,
                     formatCount(f.totalMaxChars),
                     printableText(agent.workspace)});
    }
    QByteArray out = QStringLiteral("config   %1%2\nstate    %3\ntokens   %4\n\n")
                         .arg(printableText(roster.configPath),
                              roster.configExists
                                  ? QString()
                                  : QStringLiteral(" (none: the single agent main)"),
                              printableText(roster.stateDir),
                              encoding)
                         .toUtf8();
    out += renderTable(rows, {false, false, false, true, true, true, true, false});
    return out;
}

QByteArray agentsJson(const OpenClawRoster &roster,
                      const QList<AgentFigures> &figures,
                      const QString &encoding)
{
    QJsonArray agents;
    for (qsizetype i = 0; i < roster.agents.size(); ++i) {
        const OpenClawAgent &agent = roster.agents.at(i);
        const AgentFigures &f = figures.at(i);
        QJsonObject object{
            {QStringLiteral("id"), agent.id},
            {QStringLiteral("workspace"), agent.workspace},
            {QStringLiteral("isDefault"), agent.isDefault},
            {QStringLiteral("workspaceSource"), agent.workspaceSource},
            {QStringLiteral("exists"), f.exists},
            {QStringLiteral("budgets"),
             QJsonObject{
                 {QStringLiteral("bootstrapMaxChars"), agent.settings.maxChars()},
                 {QStringLiteral("bootstrapMaxCharsFrom"),
                  budgetSourceText(agent.maxCharsSource, agent.id)},
                 {QStringLiteral("bootstrapTotalMaxChars"), agent.settings.totalMaxChars()},
                 {QStringLiteral("bootstrapTotalMaxCharsFrom"),
                  budgetSourceText(agent.totalMaxCharsSource, agent.id)},
             }},
        };
        if (!agent.name.isEmpty())
            object.insert(QStringLiteral("name"), agent.name);
        if (f.exists) {
            object.insert(QStringLiteral("soul"),
                          QJsonObject{{QStringLiteral("bytes"), f.soulBytes},
                                      {QStringLiteral("tokens"), f.soulTokens}});
            object.insert(QStringLiteral("openclaw"),
                          QJsonObject{{QStringLiteral("injectedChars"), f.injectedChars},
                                      {QStringLiteral("totalMaxChars"), f.totalMaxChars},
                                      {QStringLiteral("truncatedFiles"), f.truncatedFiles}});
        }
        agents.append(object);
    }
    const QJsonObject root{
        {QStringLiteral("config"), roster.configPath},
        {QStringLiteral("configExists"), roster.configExists},
        {QStringLiteral("stateDir"), roster.stateDir},
        {QStringLiteral("encoding"), encoding},
        {QStringLiteral("agents"), agents},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// One row of stat --all.
struct PersonaRow
{
    PersonaFolder folder;
    qint64 bytes = 0;
    qint64 tokens = 0;
    int truncated = 0;
    qint64 lints = 0;
    QString error; // the folder could not be inspected
};

} // namespace

int runAgents(const Invocation &invocation)
{
    const QString encoding = invocation.encoding.isEmpty() ? builtinEncodings().first()
                                                           : invocation.encoding;
    if (!builtinEncodings().contains(encoding)) {
        return fail(QStringLiteral("unknown encoding '%1'. Use one of: %2.")
                        .arg(encoding, builtinEncodings().join(QStringLiteral(", "))));
    }
    const Result<OpenClawRoster> roster = readOpenClawRoster(OpenClawPaths::system(),
                                                             invocation.config);
    if (!roster)
        return fail(roster.error());
    // The encoding's ranks take a moment to load: only when there is a soul to count.
    std::shared_ptr<const Tokenizer> tokenizer;
    QList<AgentFigures> figures;
    for (const OpenClawAgent &agent : roster->agents) {
        if (!tokenizer && QFileInfo(agent.workspace).isDir())
            tokenizer = Tokenizer::builtin(encoding);
        figures.append(measure(agent, tokenizer.get()));
    }
    return writeStandardOutput(invocation.json ? agentsJson(*roster, figures, encoding)
                                               : agentsText(*roster, figures, encoding));
}

int runStatAll(const Invocation &invocation)
{
    const auto tokenizer = tokenizerFor(invocation);
    if (!tokenizer)
        return ExitFailure;
    const QString &parent = invocation.arguments.at(0);
    const Result<QList<PersonaFolder>> folders = listPersonaFolders(parent);
    if (!folders)
        return fail(folders.error());
    QList<PersonaRow> rows;
    for (const PersonaFolder &folder : *folders) {
        PersonaRow row;
        row.folder = folder;
        const Result<Inspection> inspection = inspectDirectory(folder.path,
                                                               ComposeRule::toolnexus(),
                                                               false);
        if (!inspection) {
            row.error = inspection.error();
        } else {
            row.bytes = inspection->composition.soul.size();
            row.tokens = countSoulTokens(inspection->composition, *tokenizer).soul;
            for (const SlotFacts &facts : inspection->slotFacts)
                row.truncated += facts.present() && facts.truncated;
            row.lints = inspection->lints.size();
        }
        rows.append(row);
    }
    if (invocation.json) {
        QJsonArray personas;
        for (const PersonaRow &row : std::as_const(rows)) {
            QJsonObject object{
                {QStringLiteral("name"), row.folder.name},
                {QStringLiteral("directory"), row.folder.path},
                {QStringLiteral("slots"), QJsonArray::fromStringList(row.folder.slotFiles)},
            };
            if (!row.error.isEmpty()) {
                object.insert(QStringLiteral("error"), row.error);
            } else {
                object.insert(QStringLiteral("soul"),
                              QJsonObject{{QStringLiteral("bytes"), row.bytes},
                                          {QStringLiteral("tokens"), row.tokens}});
                object.insert(QStringLiteral("truncated"), row.truncated);
                object.insert(QStringLiteral("lints"), row.lints);
            }
            personas.append(object);
        }
        const QJsonObject root{
            {QStringLiteral("parent"), QFileInfo(parent).absoluteFilePath()},
            {QStringLiteral("encoding"), tokenizer->name()},
            {QStringLiteral("personas"), personas},
        };
        return writeStandardOutput(QJsonDocument(root).toJson(QJsonDocument::Indented));
    }
    QList<QStringList> table;
    table.append({QStringLiteral("persona"),
                  QStringLiteral("slots"),
                  QStringLiteral("bytes"),
                  QStringLiteral("tokens"),
                  QStringLiteral("truncated"),
                  QStringLiteral("lints")});
    QStringList errors;
    for (const PersonaRow &row : std::as_const(rows)) {
        const QString slots
            = QStringLiteral("%1 of %2").arg(row.folder.slotFiles.size()).arg(SlotCount);
        if (!row.error.isEmpty()) {
            const QString dash = QStringLiteral("-");
            table.append({row.folder.name, slots, dash, dash, dash, dash});
            errors.append(row.error);
            continue;
        }
        table.append({row.folder.name,
                      slots,
                      formatCount(row.bytes),
                      formatCount(row.tokens),
                      QString::number(row.truncated),
                      QString::number(row.lints)});
    }
    QByteArray out = QStringLiteral("parent   %1\ntokens   %2\n\n")
                         .arg(QFileInfo(parent).absoluteFilePath(), tokenizer->name())
                         .toUtf8();
    if (rows.isEmpty())
        out += "no persona folders (subfolders holding a slot file)\n";
    else
        out += renderTable(table, {false, false, true, true, true, true});
    for (const QString &error : std::as_const(errors))
        out += "\n" + error.toUtf8();
    if (!errors.isEmpty())
        out += '\n';
    return writeStandardOutput(out);
}

} // namespace soul
