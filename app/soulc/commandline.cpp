#include "commandline.h"

#include "runtimeprofile.h"

#include <QByteArray>

namespace soul {

namespace {

constexpr char GeneralHelp[] = R"(Usage: soulc COMMAND [OPTIONS] DIR

Compose, measure and check an agent persona directory: the seven Markdown
slot files (AGENTS.md, SOUL.md, IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md,
MEMORY.md) that an agent runtime joins into one system prompt, the soul.

Commands:
  compose DIR      write the soul's exact bytes to standard output
  stat DIR         show each slot's size, share of the cap and lints
  check DIR        exit 1 when a slot is truncated or has an error
  export DIR OUT   write the soul to OUT and its manifest beside it

Options:
  -h, --help       show this help; 'soulc COMMAND --help' shows a command's
  --version        show the version

compose, stat and check take --runtime toolnexus (the default: the 2 MiB
byte-cap rule) or --runtime openclaw (what OpenClaw 2026.9 injects).

Exit status: 0 success, 1 check found problems, 2 error or bad usage.
)";

constexpr char ComposeHelp[] = R"(Usage: soulc compose [--runtime NAME] [--found] [-o FILE] DIR

Write the soul composed from DIR, its exact bytes and nothing else, as the
agent receives it.

With --runtime openclaw, write instead the workspace-files section of the
system prompt that OpenClaw 2026.9 builds from DIR with default settings,
exactly: its "## <path>" headers use DIR's absolute path, with symbolic
links in it kept as written.

Options:
  --runtime NAME      toolnexus (the default) or openclaw
  --found             print the names of the files that took part instead,
                      one a line, in composition order
  -o, --output FILE   write to FILE instead of standard output, atomically:
                      a reader sees the old file or the new one
  -h, --help          show this help

Exit status: 0 success, 2 error or bad usage.
)";

constexpr char StatHelp[] = R"(Usage: soulc stat [--runtime NAME] [--json] DIR

Show, for each slot of DIR, whether it is present, its size in bytes, its
share of the 2,097,152-byte cap, whether it is truncated and how many lints
it has; then the totals, the lints, the soul's size with an approximate
token count, and the soul's SHA-256.

With --runtime openclaw: for each file, whether OpenClaw 2026.9 loads it,
its characters (UTF-16 code units, after trimming the end) and how many of
them are injected, its limit, whether it is truncated; then the totals
against the 60,000-character budget, the lints and the section's size.

Options:
  --runtime NAME   toolnexus (the default) or openclaw
  --json       print the same facts as JSON
  -h, --help   show this help

Exit status: 0 success, 2 error or bad usage.
)";

constexpr char CheckHelp[] = R"(Usage: soulc check [--runtime NAME] DIR

Check DIR as a CI step would: print one line for each lint,

  FILE: LEVEL: MESSAGE

where FILE is the file's path and LEVEL is error, warning or info. With
--runtime openclaw the lints are OpenClaw 2026.9's: cut files with what is
kept, refused and unloaded files, files the total leaves out, and the
files OpenClaw would create from its templates before a run.

Options:
  --runtime NAME   toolnexus (the default) or openclaw
  -h, --help   show this help

Exit status: 0 when no slot is truncated and no lint is an error, 1 when
one is, 2 when DIR cannot be checked or on bad usage.
)";

constexpr char ExportHelp[] = R"(Usage: soulc export [--force] DIR OUT

Write a frozen snapshot of DIR: the soul to OUT and a manifest of what shaped
it (found files, their sizes, truncation, SHA-256 digests) to
OUT.manifest.json. Each file is written atomically.

Options:
  -f, --force   overwrite OUT and OUT.manifest.json when they exist
  -h, --help    show this help

Exit status: 0 success, 2 error or bad usage.
)";

struct CommandInfo
{
    Command command;
    const char *name;
    int arguments; // exact number of positional arguments
    const char *argumentNames;
};

constexpr CommandInfo Commands[] = {
    {Command::Compose, "compose", 1, "DIR"},
    {Command::Stat, "stat", 1, "DIR"},
    {Command::Check, "check", 1, "DIR"},
    {Command::Export, "export", 2, "DIR and OUT"},
};

const CommandInfo *findCommand(const QString &name)
{
    for (const CommandInfo &info : Commands) {
        if (name == QLatin1String(info.name))
            return &info;
    }
    return nullptr;
}

QString tryHelp(const CommandInfo *info)
{
    return info ? QStringLiteral("Try 'soulc %1 --help'.").arg(QLatin1String(info->name))
                : QStringLiteral("Try 'soulc --help'.");
}

// Reads the options and arguments after the command name.
void parseCommandArguments(Invocation &invocation,
                           const CommandInfo &info,
                           const QStringList &arguments)
{
    const QString prefix = QLatin1String(info.name) + QStringLiteral(": ");
    const auto fail = [&](const QString &what) {
        invocation.usageError = prefix + what + QLatin1Char(' ') + tryHelp(&info);
    };
    bool optionsEnded = false;
    bool outputGiven = false;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        if (optionsEnded || !arg.startsWith(QLatin1Char('-')) || arg == QLatin1String("-")) {
            invocation.arguments.append(arg);
            continue;
        }
        if (arg == QLatin1String("--")) {
            optionsEnded = true;
        } else if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            invocation.help = true;
        } else if (info.command == Command::Compose && arg == QLatin1String("--found")) {
            invocation.found = true;
        } else if (info.command == Command::Compose
                   && (arg == QLatin1String("-o") || arg == QLatin1String("--output"))) {
            if (i + 1 >= arguments.size()) {
                fail(QStringLiteral("option '%1' needs a FILE.").arg(arg));
                return;
            }
            invocation.output = arguments.at(++i);
            outputGiven = true;
        } else if (info.command == Command::Compose && arg.startsWith(QLatin1String("--output="))) {
            invocation.output = arg.mid(qsizetype(sizeof("--output=")) - 1);
            outputGiven = true;
        } else if (info.command == Command::Compose && arg.startsWith(QLatin1String("-o"))) {
            invocation.output = arg.mid(2);
            outputGiven = true;
        } else if (info.command != Command::Export
                   && (arg == QLatin1String("--runtime")
                       || arg.startsWith(QLatin1String("--runtime=")))) {
            QString name;
            if (arg == QLatin1String("--runtime")) {
                if (i + 1 >= arguments.size()) {
                    fail(QStringLiteral("option '--runtime' needs a NAME (%1).")
                             .arg(runtimeProfileNames()));
                    return;
                }
                name = arguments.at(++i);
            } else {
                name = arg.mid(qsizetype(sizeof("--runtime=")) - 1);
            }
            if (!runtimeProfileNamed(name)) {
                fail(QStringLiteral("unknown runtime '%1' (%2).").arg(name, runtimeProfileNames()));
                return;
            }
            invocation.runtime = name;
        } else if (info.command == Command::Stat && arg == QLatin1String("--json")) {
            invocation.json = true;
        } else if (info.command == Command::Export
                   && (arg == QLatin1String("-f") || arg == QLatin1String("--force"))) {
            invocation.force = true;
        } else {
            fail(QStringLiteral("unknown option '%1'.").arg(arg));
            return;
        }
    }
    if (invocation.help)
        return;
    if (outputGiven && invocation.output.isEmpty()) {
        fail(QStringLiteral("option '--output' needs a FILE, not an empty name."));
        return;
    }
    if (invocation.arguments.size() < info.arguments) {
        fail(QStringLiteral("missing %1.").arg(QLatin1String(info.argumentNames)));
        return;
    }
    if (invocation.arguments.size() > info.arguments) {
        fail(QStringLiteral("unexpected argument '%1'.")
                 .arg(invocation.arguments.at(info.arguments)));
        return;
    }
    for (const QString &argument : std::as_const(invocation.arguments)) {
        if (argument.isEmpty()) {
            fail(QStringLiteral("an empty path is not a path."));
            return;
        }
    }
}

} // namespace

Invocation parseCommandLine(const QStringList &arguments)
{
    Invocation invocation;
    if (arguments.isEmpty()) {
        invocation.usageError = QStringLiteral("missing command. ") + tryHelp(nullptr);
        return invocation;
    }
    const QString &first = arguments.first();
    if (first == QLatin1String("-h") || first == QLatin1String("--help")) {
        invocation.help = true;
        return invocation;
    }
    if (first == QLatin1String("--version")) {
        invocation.version = true;
        return invocation;
    }
    if (first == QLatin1String("help")) {
        invocation.help = true;
        if (arguments.size() > 2) {
            invocation.usageError = QStringLiteral("help: unexpected argument '%1'. %2")
                                        .arg(arguments.at(2), tryHelp(nullptr));
        } else if (arguments.size() == 2) {
            const CommandInfo *info = findCommand(arguments.at(1));
            if (info)
                invocation.command = info->command;
            else
                invocation.usageError = QStringLiteral("help: unknown command '%1'. %2")
                                            .arg(arguments.at(1), tryHelp(nullptr));
        }
        return invocation;
    }
    const CommandInfo *info = findCommand(first);
    if (!info) {
        invocation.usageError = QStringLiteral("unknown %1 '%2'. %3")
                                    .arg(first.startsWith(QLatin1Char('-'))
                                             ? QStringLiteral("option")
                                             : QStringLiteral("command"),
                                         first,
                                         tryHelp(nullptr));
        return invocation;
    }
    invocation.command = info->command;
    parseCommandArguments(invocation, *info, arguments);
    return invocation;
}

QByteArray helpText(Command command)
{
    switch (command) {
    case Command::None:
        return QByteArray(GeneralHelp);
    case Command::Compose:
        return QByteArray(ComposeHelp);
    case Command::Stat:
        return QByteArray(StatHelp);
    case Command::Check:
        return QByteArray(CheckHelp);
    case Command::Export:
        return QByteArray(ExportHelp);
    }
    return {};
}

QByteArray versionText()
{
    return QByteArrayLiteral("soulc " SOULSTUDIO_VERSION "\n");
}

} // namespace soul
