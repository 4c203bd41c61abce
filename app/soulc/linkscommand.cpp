#include "linkscommand.h"

#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "commands.h"
#include "compose/contract.h"
#include "history/historycounts.h"
#include "links/grouphistory.h"
#include "links/linkgroups.h"
#include "output.h"
#include "tokens/tokenizer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

namespace soul {

namespace {

constexpr char LinksHelp[] = R"(Usage: soulc links [--json] PLACE
       soulc links add --name NAME --file FILE --agents A,B,... [--from AGENT] PLACE
       soulc links sync [--name NAME] [--from AGENT] [--force] PLACE
       soulc links remove --name NAME PLACE
       soulc links checkpoint [--name NAME] [-m MESSAGE] PLACE

Link groups: one persona file shared by several agents. Every agent keeps a
real copy in its own folder (no links), so every runtime reads it as before;
the group remembers the text it last wrote to them.

PLACE is a folder of personas (each subfolder holding a slot file is an
agent, named by the subfolder), or --openclaw for OpenClaw's roster (agents
named by id; --config FILE as 'soulc agents' takes it). The groups are
declared in soul-links.json in the folder of personas, or beside the
OpenClaw config, and their texts kept in .soul-links/ beside it. FILE is a
slot file (AGENTS.md ... MEMORY.md), BOOTSTRAP.md or skills/NAME/SKILL.md.

  (none)    list each group and, per member, same, differs (with its bytes
            and the first differing line) or missing
  add       declare a group; its text is --from's copy (default: the first
            agent's). Nothing is written to the members.
  sync      write each group's text (or --name's) to every member. With
            --from AGENT, that agent's copy becomes the group's text first.
            Without --from or --force, nothing is written while a copy has
            diverged from the group's text. Each copy is written whole
            (atomically) and only if it still holds the bytes read at the
            start; a sync stopped part way is finished by the next one.
  remove    take the group out of the file; every copy stays as it is
  checkpoint
            commit each member's slot files to its git repository, as
            'soulc checkpoint' does, all with the same message (default:
            "Link group NAME: FILE"); only groups of a slot file

Options:
  --openclaw        OpenClaw's roster instead of a folder of personas
  --config FILE     with --openclaw: this config instead of OpenClaw's own
  --json            list as {"groups": [{"name", "file", "members": [{"agent",
                    "path", "state"}]}]}, state one of same, differs, missing
  -h, --help        show this help

Exit status: list: 0 when every copy is the same, 1 when one differs or is
missing; sync: 0 when every copy holds the group's text, 1 when it refused
because a copy diverged; checkpoint: 0 when a commit was made, 1 when
nothing changed; 2 error or bad usage.
)";

struct LinksOptions
{
    QString action; // "", "add", "sync", "remove"
    QString place;
    bool openClaw = false;
    QString config;
    bool json = false;
    bool force = false;
    bool help = false;
    QString name;
    QString file;
    QStringList agents;
    QString from;
    QString message;
    QString usageError;
};

LinksOptions parseLinks(const QStringList &arguments)
{
    LinksOptions options;
    qsizetype i = 0;
    if (!arguments.isEmpty()
        && (arguments.first() == QLatin1String("add") || arguments.first() == QLatin1String("sync")
            || arguments.first() == QLatin1String("remove")
            || arguments.first() == QLatin1String("checkpoint"))) {
        options.action = arguments.first();
        i = 1;
    }
    const QString command = options.action.isEmpty() ? QStringLiteral("links")
                                                     : QStringLiteral("links ") + options.action;
    const auto fail = [&](const QString &what) {
        if (options.usageError.isEmpty()) {
            options.usageError
                = QStringLiteral("%1: %2 Try 'soulc links --help'.").arg(command, what);
        }
    };
    const auto value = [&](const QString &arg, QString &into) {
        const qsizetype equals = arg.indexOf(QLatin1Char('='));
        if (equals >= 0) {
            into = arg.mid(equals + 1);
        } else if (i + 1 < arguments.size()) {
            into = arguments.at(++i);
        } else {
            fail(QStringLiteral("option '%1' needs a value.").arg(arg));
            return;
        }
        if (into.isEmpty())
            fail(QStringLiteral("option '%1' needs a value, not an empty one.")
                     .arg(arg.section(QLatin1Char('='), 0, 0)));
    };
    const auto is = [](const QString &arg, const char *option) {
        return arg == QLatin1String(option)
               || arg.startsWith(QLatin1String(option) + QLatin1Char('='));
    };
    bool optionsEnded = false;
    for (; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        if (optionsEnded || !arg.startsWith(QLatin1Char('-'))) {
            if (!options.place.isEmpty())
                fail(QStringLiteral("unexpected argument '%1'.").arg(arg));
            options.place = arg;
        } else if (arg == QLatin1String("--")) {
            optionsEnded = true;
        } else if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            options.help = true;
        } else if (arg == QLatin1String("--openclaw")) {
            options.openClaw = true;
        } else if (is(arg, "--config")) {
            value(arg, options.config);
        } else if (arg == QLatin1String("--json") && options.action.isEmpty()) {
            options.json = true;
        } else if (arg == QLatin1String("--force") && options.action == QLatin1String("sync")) {
            options.force = true;
        } else if (is(arg, "--name") && !options.action.isEmpty()) {
            value(arg, options.name);
        } else if ((is(arg, "--message") || arg.startsWith(QLatin1String("-m")))
                   && options.action == QLatin1String("checkpoint")) {
            if (arg.startsWith(QLatin1String("-m")) && arg.size() > 2)
                options.message = arg.mid(2);
            else
                value(arg, options.message);
        } else if (is(arg, "--file") && options.action == QLatin1String("add")) {
            value(arg, options.file);
        } else if (is(arg, "--agents") && options.action == QLatin1String("add")) {
            QString list;
            value(arg, list);
            options.agents = list.split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else if (is(arg, "--from")
                   && (options.action == QLatin1String("add")
                       || options.action == QLatin1String("sync"))) {
            value(arg, options.from);
        } else {
            fail(QStringLiteral("unknown option '%1'.").arg(arg));
        }
    }
    if (options.help || !options.usageError.isEmpty())
        return options;
    if (options.openClaw == !options.place.isEmpty()) {
        fail(options.openClaw ? QStringLiteral("--openclaw takes no PLACE.")
                              : QStringLiteral("missing PLACE (a folder of personas, or "
                                               "--openclaw)."));
    } else if (!options.config.isEmpty() && !options.openClaw) {
        fail(QStringLiteral("--config goes with --openclaw."));
    } else if (options.action == QLatin1String("add")
               && (options.name.isEmpty() || options.file.isEmpty() || options.agents.isEmpty())) {
        fail(QStringLiteral("needs --name, --file and --agents."));
    } else if (options.action == QLatin1String("remove") && options.name.isEmpty()) {
        fail(QStringLiteral("needs --name."));
    }
    return options;
}

Result<LinkPlace> placeOf(const LinksOptions &options)
{
    if (!options.openClaw)
        return personaFoldersPlace(options.place);
    const Result<OpenClawRoster> roster = readOpenClawRoster(OpenClawPaths::system(),
                                                             options.config);
    if (!roster)
        return Result<LinkPlace>::failure(roster.error());
    return openClawPlace(*roster);
}

bool isSlotFile(const QString &file)
{
    return std::any_of(BootstrapOrder.cbegin(), BootstrapOrder.cend(), [&](const char *slot) {
        return file == QLatin1String(slot);
    });
}

QString number(qint64 n)
{
    return QLocale::c().toString(n).replace(QLatin1Char(','), QStringLiteral(","));
}

int listGroups(const LinkPlace &place, const LinkGroups &groups, bool json)
{
    bool allSame = true;
    QByteArray text;
    QJsonArray array;
    if (groups.groups.isEmpty() && !json)
        text += QStringLiteral("No link groups in %1.\n").arg(groups.path).toUtf8();
    for (const LinkGroup &group : groups.groups) {
        const Result<QList<LinkCopy>> copies = readCopies(place, group);
        if (!copies)
            return fail(copies.error());
        QJsonArray members;
        qsizetype width = 0;
        for (const LinkCopy &copy : *copies)
            width = std::max(width, copy.agent.size());
        text += QStringLiteral("%1: %2, %3 members\n")
                    .arg(group.name, group.file)
                    .arg(group.members.size())
                    .toUtf8();
        for (const LinkCopy &copy : *copies) {
            allSame = allSame && copy.state == CopyState::Same;
            members.append(QJsonObject{{QStringLiteral("agent"), copy.agent},
                                       {QStringLiteral("path"), copy.path},
                                       {QStringLiteral("state"), copyStateName(copy.state)}});
            QString detail;
            if (copy.state == CopyState::Differs) {
                detail = QStringLiteral(" (%1 bytes").arg(number(copy.bytes.size()));
                if (copy.firstDifferingLine > 0)
                    detail
                        += QStringLiteral("; first differs at line %1").arg(copy.firstDifferingLine);
                if (copy.behind)
                    detail += QStringLiteral("; the text before a sync that did not finish");
                detail += QLatin1Char(')');
            }
            text += QStringLiteral("  %1  %2  %3%4\n")
                        .arg(copy.agent, -int(width))
                        .arg(copyStateName(copy.state), -7)
                        .arg(copy.path, detail)
                        .toUtf8();
        }
        array.append(QJsonObject{{QStringLiteral("name"), group.name},
                                 {QStringLiteral("file"), group.file},
                                 {QStringLiteral("members"), members}});
    }
    if (!json) {
        const QList<LinkCandidate> candidates = linkCandidates(place, groups);
        if (!candidates.isEmpty())
            text += "\nThe same file in several agents, in no group:\n";
        for (const LinkCandidate &candidate : candidates) {
            text += QStringLiteral("  %1 in %2 (%3 bytes): soulc links add --name NAME --file %1 "
                                   "--agents %4\n")
                        .arg(candidate.file,
                             candidate.agents.join(QStringLiteral(", ")),
                             number(candidate.bytes),
                             candidate.agents.join(QLatin1Char(',')))
                        .toUtf8();
        }
    }
    const int written = writeStandardOutput(
        json ? QJsonDocument(QJsonObject{{QStringLiteral("groups"), array}}).toJson() : text);
    if (written != ExitSuccess)
        return written;
    return allSame ? ExitSuccess : ExitProblems;
}

int sync(const LinkPlace &place, LinkGroups &groups, const LinksOptions &options)
{
    QStringList names;
    for (const LinkGroup &group : groups.groups) {
        if (!options.name.isEmpty() && group.name != options.name)
            continue;
        if (!options.from.isEmpty() && !group.members.contains(options.from)) {
            if (!options.name.isEmpty()) {
                return fail(
                    QStringLiteral("links sync: \"%1\" is not a member of the group "
                                   "\"%2\" (%3).")
                        .arg(options.from, group.name, group.members.join(QStringLiteral(", "))));
            }
            continue;
        }
        names.append(group.name);
    }
    if (names.isEmpty()) {
        return fail(
            !options.name.isEmpty()
                ? QStringLiteral("%1 declares no group \"%2\".").arg(groups.path, options.name)
            : !options.from.isEmpty()
                ? QStringLiteral("no group of %1 has \"%2\" as a member.")
                      .arg(groups.path, options.from)
                : QStringLiteral("%1 declares no groups; 'soulc links add' makes one.")
                      .arg(groups.path));
    }
    // Every group is checked before any is written: a refusal writes nothing.
    if (options.from.isEmpty() && !options.force) {
        QStringList diverged;
        for (const QString &name : names) {
            const Result<QList<LinkCopy>> copies = readCopies(place, *groups.group(name));
            if (!copies)
                return fail(copies.error());
            for (const LinkCopy &copy : *copies) {
                if (copy.state == CopyState::Differs && !copy.behind)
                    diverged.append(QStringLiteral("%1 of %2 (group \"%3\", %4)")
                                        .arg(groups.group(name)->file, copy.agent, name, copy.path));
            }
        }
        if (!diverged.isEmpty()) {
            fail(QStringLiteral("links sync: nothing was written, because %1 diverged from the "
                                "group's text: %2. Make one agent's copy the group's text with "
                                "--from AGENT, or write the group's text over them with --force.")
                     .arg(diverged.size() == 1 ? QStringLiteral("a copy")
                                               : QStringLiteral("%1 copies").arg(diverged.size()),
                          diverged.join(QStringLiteral("; "))));
            return ExitProblems;
        }
    }
    QByteArray text;
    for (const QString &name : names) {
        const SyncOutcome outcome = syncGroup(place, groups, name, options.from, options.force);
        const LinkGroup &group = *groups.group(name);
        QString line = QStringLiteral("%1: %2").arg(name, group.file);
        if (!outcome.written.isEmpty())
            line += QStringLiteral(" written to %1").arg(outcome.written.join(QStringLiteral(", ")));
        if (!outcome.unchanged.isEmpty()) {
            line += QStringLiteral("%1 already held by %2")
                        .arg(outcome.written.isEmpty() ? QStringLiteral("") : QStringLiteral(";"),
                             outcome.unchanged.join(QStringLiteral(", ")));
        }
        text += (line + QStringLiteral(".\n")).toUtf8();
        if (!outcome.ok()) {
            writeStandardOutput(text);
            return fail(outcome.error
                        + QStringLiteral(" Run 'soulc links sync' again to finish the group."));
        }
    }
    return writeStandardOutput(text);
}

int checkpoint(const LinkPlace &place, const LinkGroups &groups, const LinksOptions &options)
{
    QList<const LinkGroup *> chosen;
    for (const LinkGroup &group : groups.groups) {
        if (options.name.isEmpty() || group.name == options.name)
            chosen.append(&group);
    }
    if (chosen.isEmpty()) {
        return fail(
            options.name.isEmpty()
                ? QStringLiteral("%1 declares no groups; 'soulc links add' makes one.")
                      .arg(groups.path)
                : QStringLiteral("%1 declares no group \"%2\".").arg(groups.path, options.name));
    }
    HistoryCounts counts(Tokenizer::builtin(QString()));
    QByteArray text;
    bool committed = false;
    for (const LinkGroup *group : chosen) {
        if (!isSlotFile(group->file)) {
            writeStandardOutput(text);
            return fail(QStringLiteral("links checkpoint: a checkpoint commits the slot files, and "
                                       "the group \"%1\" shares %2. Commit it with git, or name "
                                       "a group of a slot file with --name.")
                            .arg(group->name, group->file));
        }
        for (const MemberCheckpoint &member :
             checkpointGroup(place, *group, options.message, counts, true)) {
            if (!member.ok()) {
                writeStandardOutput(text);
                return fail(QStringLiteral("%1 (group \"%2\"): %3")
                                .arg(member.agent, group->name, member.error));
            }
            const Checkpoint &made = member.made;
            for (const QString &note : made.recovered)
                text += (note + QLatin1Char('\n')).toUtf8();
            if (made.nothingToCommit) {
                text += QStringLiteral("%1: nothing to checkpoint\n").arg(member.agent).toUtf8();
            } else {
                committed = true;
                text += QStringLiteral("%1: checkpoint %2: %3\n")
                            .arg(member.agent,
                                 made.shortId,
                                 made.message.section(QLatin1Char('\n'), 0, 0))
                            .toUtf8();
            }
            for (const QString &left : made.leftovers)
                text += (left + QLatin1Char('\n')).toUtf8();
        }
    }
    const int written = writeStandardOutput(text);
    if (written != ExitSuccess)
        return written;
    return committed ? ExitSuccess : ExitProblems;
}

} // namespace

QByteArray linksHelpText()
{
    return QByteArray(LinksHelp);
}

int runLinks(const QStringList &arguments)
{
    const LinksOptions options = parseLinks(arguments);
    if (options.help)
        return writeStandardOutput(linksHelpText());
    if (!options.usageError.isEmpty())
        return fail(options.usageError);
    const Result<LinkPlace> place = placeOf(options);
    if (!place)
        return fail(place.error());
    Result<LinkGroups> groups = readLinkGroups(*place);
    if (!groups)
        return fail(groups.error());
    if (options.action.isEmpty())
        return listGroups(*place, *groups, options.json);
    if (options.action == QLatin1String("sync"))
        return sync(*place, groups.value(), options);
    if (options.action == QLatin1String("checkpoint"))
        return checkpoint(*place, *groups, options);
    const Status done = options.action == QLatin1String("add")
                            ? addGroup(*place,
                                       groups.value(),
                                       options.name,
                                       options.file,
                                       options.agents,
                                       options.from)
                            : removeGroup(*place, groups.value(), options.name);
    if (!done)
        return fail(done.error());
    if (options.action == QLatin1String("remove")) {
        return writeStandardOutput(QStringLiteral("Removed the group \"%1\" from %2; every copy "
                                                  "stays as it is.\n")
                                       .arg(options.name, groups->path)
                                       .toUtf8());
    }
    const LinkGroup &group = *groups->group(options.name);
    const Result<QList<LinkCopy>> copies = readCopies(*place, group);
    QStringList other;
    if (copies) {
        for (const LinkCopy &copy : *copies) {
            if (copy.state != CopyState::Same)
                other.append(QStringLiteral("%1 (%2)").arg(copy.agent, copyStateName(copy.state)));
        }
    }
    QString said = QStringLiteral("Linked %1 of %2 as the group \"%3\" in %4; its text is %5's.\n")
                       .arg(group.file,
                            group.members.join(QStringLiteral(", ")),
                            group.name,
                            groups->path,
                            options.from.isEmpty() ? group.members.constFirst() : options.from);
    if (!other.isEmpty()) {
        said += QStringLiteral("Not yet the same: %1. 'soulc links sync' writes the group's text "
                               "to them.\n")
                    .arg(other.join(QStringLiteral(", ")));
    }
    return writeStandardOutput(said.toUtf8());
}

} // namespace soul
