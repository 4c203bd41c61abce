#include "commandline.h"

#include "counttext.h"
#include "runtimeprofile.h"

#include <QByteArray>

namespace soul {

namespace {

// A help text with the toolnexus rule's cap said in it, never written out.
QByteArray withCap(const char *text)
{
    const ComposeRule &rule = ComposeRule::toolnexus();
    return QByteArray(text)
        .replace("@CAPBYTES@", formatCount(rule.capBytes).toUtf8())
        .replace("@CAP@", rule.capText().toUtf8());
}

constexpr char GeneralHelp[] = R"(Usage: soulc COMMAND [OPTIONS] DIR

Compose, measure and check an agent persona directory: the seven Markdown
slot files (AGENTS.md, SOUL.md, IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md,
MEMORY.md) that an agent runtime joins into one system prompt, the soul.

Commands:
  compose DIR      write the soul's exact bytes to standard output
  stat DIR         show each slot's size, share of the cap and lints
  check DIR        exit 1 when a slot is truncated or has an error
  export DIR OUT   write the soul to OUT and its manifest beside it
  count FILE...    count the tokens of each FILE
  diff A B         compare two souls (folders or exports): a unified diff
                   and the prefix a provider's prompt cache can reuse

Options:
  -h, --help       show this help; 'soulc COMMAND --help' shows a command's
  --version        show the version

compose, stat and check take --runtime toolnexus (the default: the @CAP@
byte-cap rule) or --runtime openclaw (what OpenClaw 2026.9 injects).

Exit status: 0 success, 1 check found problems or diff found differences,
2 error or bad usage.
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

constexpr char StatHelp[] = R"(Usage: soulc stat [--runtime NAME] [--encoding NAME] [--json] DIR

Show, for each slot of DIR, whether it is present, its size in bytes, the
tokens of its section in the soul, its share of the @CAPBYTES@-byte cap,
whether it is truncated and how many lints it has; then the totals, the
lints, the soul's size and exact token count, and the soul's SHA-256.

With --runtime openclaw: for each file, whether OpenClaw 2026.9 loads it,
its characters (UTF-16 code units, after trimming the end) and how many of
them are injected, its limit, whether it is truncated; then the totals
against the 60,000-character budget, the lints, and the section's size and
exact token count.

Options:
  --runtime NAME    toolnexus (the default) or openclaw
  --encoding NAME   count with NAME: o200k_base (the default) or cl100k_base
  --json            print the same facts as JSON
  -h, --help        show this help

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

constexpr char CountHelp[] = R"(Usage: soulc count [--encoding NAME | --tokenizer FILE] FILE...

Print the number of tokens of each FILE, one a line, in the order given; '-'
reads standard input. A file's text is its bytes decoded as the compose rule
decodes them (invalid UTF-8 as U+FFFD, a leading BOM kept). Text that looks
like a special token ("<|endoftext|>") counts as plain text.

Options:
  --encoding NAME    o200k_base (the default: GPT-4o, GPT-4.1, o-series,
                     GPT-5) or cl100k_base (GPT-4, GPT-3.5)
  --tokenizer FILE   a Hugging Face tokenizer.json of a byte-level BPE model
                     (Llama 3, Qwen 2/3, DeepSeek); SentencePiece models are
                     not supported
  --ids              print each file's token ids, separated by spaces,
                     instead of the count
  -h, --help         show this help

Exit status: 0 success, 2 error or bad usage.
)";

constexpr char DiffHelp[] = R"(Usage: soulc diff [--encoding NAME] [--json] A B

Compare the soul of A with the soul of B. Each is a persona folder (composed
now) or a soul written by 'soulc export', its manifest beside it; an exported
soul must match its manifest's SHA-256.

Print a unified diff of the two souls, each hunk header ending in the name of
the section it changes, then one line:

  stable prefix: N of M tokens (P%); first change: FILE line L

N is the length of the longest common prefix of the two souls, M is B's
length, both in tokens (in bytes with --encoding bytes); FILE line L is the line of B's file
that holds the first changed byte (line 1 of a file only one side has). For
identical souls the line reads 'stable prefix: M of M tokens (100%)'.

Options:
  --encoding NAME   count in NAME's tokens: o200k_base (the default) or
                    cl100k_base; 'bytes' counts bytes instead
  --json            print each section's status (unchanged, changed, added,
                    removed, absent), the prefix in units and in bytes, and
                    the first change as JSON instead
  -h, --help        show this help

Exit status: 0 the souls are identical, 1 they differ, 2 error or bad usage.
)";

struct CommandInfo
{
    Command command;
    const char *name;
    int arguments; // exact number of positional arguments; -1: one or more
    const char *argumentNames;
};

constexpr CommandInfo Commands[] = {
    {Command::Compose, "compose", 1, "DIR"},
    {Command::Stat, "stat", 1, "DIR"},
    {Command::Check, "check", 1, "DIR"},
    {Command::Export, "export", 2, "DIR and OUT"},
    {Command::Count, "count", -1, "FILE"},
    {Command::Diff, "diff", 2, "A and B"},
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

// `arg` is `option` or `option=VALUE`.
bool isValueOption(const QString &arg, const char *option)
{
    return arg == QLatin1String(option) || arg.startsWith(QLatin1String(option) + QLatin1Char('='));
}

// The value of the option at arguments[i], from "--option=VALUE" or the next
// argument (then i moves past it); false after reporting a missing or empty one.
template<typename Fail>
bool takeValue(const QStringList &arguments,
               qsizetype &i,
               const char *option,
               const char *what,
               QString &value,
               const Fail &fail)
{
    const QString &arg = arguments.at(i);
    if (arg.contains(QLatin1Char('='))) {
        value = arg.mid(arg.indexOf(QLatin1Char('=')) + 1);
    } else if (i + 1 < arguments.size()) {
        value = arguments.at(++i);
    } else {
        fail(
            QStringLiteral("option '%1' needs %2.").arg(QLatin1String(option), QLatin1String(what)));
        return false;
    }
    if (value.isEmpty()) {
        fail(QStringLiteral("option '%1' needs %2, not an empty one.")
                 .arg(QLatin1String(option), QLatin1String(what)));
        return false;
    }
    return true;
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
        } else if ((info.command == Command::Count || info.command == Command::Stat
                    || info.command == Command::Diff)
                   && isValueOption(arg, "--encoding")) {
            if (!takeValue(arguments, i, "--encoding", "a NAME", invocation.encoding, fail))
                return;
        } else if (info.command == Command::Count && isValueOption(arg, "--tokenizer")) {
            if (!takeValue(arguments, i, "--tokenizer", "a FILE", invocation.tokenizer, fail))
                return;
        } else if (info.command == Command::Count && arg == QLatin1String("--ids")) {
            invocation.ids = true;
        } else if ((info.command == Command::Compose || info.command == Command::Stat
                    || info.command == Command::Check)
                   && isValueOption(arg, "--runtime")) {
            QString name;
            if (!takeValue(arguments, i, "--runtime", "a NAME", name, fail))
                return;
            if (!runtimeProfileNamed(name)) {
                fail(QStringLiteral("unknown runtime '%1' (%2).").arg(name, runtimeProfileNames()));
                return;
            }
            invocation.runtime = name;
        } else if ((info.command == Command::Stat || info.command == Command::Diff)
                   && arg == QLatin1String("--json")) {
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
    if (!invocation.encoding.isEmpty() && !invocation.tokenizer.isEmpty()) {
        fail(QStringLiteral("options '--encoding' and '--tokenizer' exclude each other."));
        return;
    }
    if (invocation.arguments.size() < qMax(info.arguments, 1)) {
        fail(QStringLiteral("missing %1.").arg(QLatin1String(info.argumentNames)));
        return;
    }
    if (info.arguments >= 0 && invocation.arguments.size() > info.arguments) {
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
        return withCap(GeneralHelp);
    case Command::Compose:
        return QByteArray(ComposeHelp);
    case Command::Stat:
        return withCap(StatHelp);
    case Command::Check:
        return QByteArray(CheckHelp);
    case Command::Export:
        return QByteArray(ExportHelp);
    case Command::Count:
        return QByteArray(CountHelp);
    case Command::Diff:
        return QByteArray(DiffHelp);
    }
    return {};
}

QByteArray versionText()
{
    return QByteArrayLiteral("soulc " SOULSTUDIO_VERSION "\n");
}

} // namespace soul
