#include "commandline.h"

#include "counttext.h"
#include "linkscommand.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"

#include <QByteArray>
#include <QPair>
#include <QRegularExpression>
#include <QUrl>

#include <optional>

namespace soul {

namespace {

// An http or https URL with a host, as --endpoint and --key-endpoint take.
bool isHttpUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    return url.isValid() && !url.host().isEmpty()
           && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"));
}

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
  log DIR          the commits of DIR's git history that touched a slot
                   file, newest first, with the soul's size and tokens
  checkpoint DIR   commit DIR's slot files, and only them, to its git
                   repository
  agents           OpenClaw's agents as it resolves them: each one's
                   workspace, its soul's size and tokens and what OpenClaw
                   injects against the agent's own budgets
  test DIR         send DIR's persona tests (persona-tests.yaml) to an
                   OpenAI-compatible model server, the soul as the system
                   message, and check each reply
  links PLACE      link groups: one file shared by several agents, each
                   keeping a real copy; list, add, sync and remove them

compose, stat and diff take --rev REV to read DIR as a commit of its git
repository has it (any revision git understands: HEAD~2, a tag, a short
id), from git's objects, without a checkout.

Options:
  -h, --help       show this help; 'soulc COMMAND --help' shows a command's
  --version        show the version

@RUNTIMEUSE@

Exit status: 0 success, 1 check found problems, diff found differences,
checkpoint found nothing to commit or a persona test failed, 2 error or bad
usage.
)";

constexpr char ComposeHelp[]
    = R"(Usage: soulc compose [--runtime NAME | --rev REV] [--found] [-o FILE [--force]] DIR
       soulc compose --runtime hermes [HERMES OPTIONS] (DIR | --hermes-home HOME --project DIR)

Write the soul composed from DIR, its exact bytes and nothing else, as the
agent receives it.

With --runtime openclaw, write instead the workspace-files section of the
system prompt that OpenClaw 2026.9 builds from DIR with default settings,
exactly: its "## <path>" headers use DIR's absolute path, with symbolic
links in it kept as written. With --part skills, write instead the skills
list OpenClaw puts into the same prompt (see 'soulc skills --help'), leading
blank lines included; --part all writes the skills list, then the workspace
files; --part project (the default) the workspace files alone. --config FILE
and --agent ID choose the config and the agent whose skills filter applies.
With --runtime hermes, --part skills writes Hermes's skills index, and
--part all the persona blocks, then the index.

With --rev REV, compose DIR as commit REV of its git repository has it,
from the blobs git stores (no checkout, no filter applied): a slot that is
a symbolic link takes the file its target names in the same commit, and
is absent when the target is absolute, outside the repository, a folder or
missing.

With --runtime hermes, write the four blocks Hermes Agent 0.21.3 builds from
a persona, exactly, in prompt order and joined by a blank line: the identity
(SOUL.md, or Hermes's default identity), the project context (the one
project file that wins), the memory (MEMORY.md) and the user profile
(USER.md). A flat DIR holds them side by side (SOUL.md's truncation marker
names DIR/SOUL.md); with --hermes-home the home holds SOUL.md and
memories/, and --project names the folder Hermes runs in.
@RUNTIMEOPTIONS@
Options:
  --runtime NAME      @RUNTIMES@
  --rev REV           compose DIR as commit REV has it (toolnexus only)
  --part PART         openclaw, hermes: project (default), skills or all
  --config FILE       openclaw: read FILE instead of OpenClaw's config
  --agent ID          openclaw: the agent whose skills filter applies
  --found             print the names of the files that took part instead,
                      one a line, in composition order
  -o, --output FILE   write to FILE instead of standard output, atomically:
                      a reader sees the old file or the new one. FILE must
                      not exist, and is never a file of the persona itself
  -f, --force         with -o, replace FILE when it exists
  -h, --help          show this help

Exit status: 0 success, 2 error or bad usage.
)";

constexpr char StatHelp[]
    = R"(Usage: soulc stat [--runtime NAME | --rev REV] [--encoding NAME] [--json] DIR
       soulc stat --all [--encoding NAME] [--json] PARENT

Show, for each slot of DIR, whether it is present, its size in bytes, the
tokens of its section in the soul, its share of the @CAPBYTES@-byte cap,
whether it is truncated and how many lints it has; then the totals, the
lints, the soul's size and exact token count, and the soul's SHA-256.

With --runtime openclaw: for each file, whether OpenClaw 2026.9 loads it,
its characters (UTF-16 code units, after trimming the end) and how many of
them are injected, its limit, whether it is truncated; then the totals
against the 60,000-character budget, the lints, and the section's size and
exact token count.

With --rev REV, the same of DIR as commit REV of its git repository has it
(see 'soulc compose --help'), and the commit's id.

With --all, one row for each persona folder under PARENT (each subfolder
that holds a slot file; hidden ones are passed over), by name: the slots
present, the soul's bytes and exact tokens, the truncated slots, the lints.

With --runtime hermes: each file Hermes Agent 0.21.3 reads or passes over,
its block, its status (read, blocked, empty, not chosen, never read, ...),
its characters (code points, stripped) and how many reach the prompt, its
cap or limit and whether it is cut; the memory files' entries; each
block's characters and tokens; the lints; the prompt's size, tokens and
SHA-256.

With a runtime that lists skills (openclaw, hermes), then one line of the
skills list the same prompt carries (what 'soulc compose --part skills'
writes): its characters (UTF-16 code units), exact tokens, the skills it
lists and its SHA-256; --json adds them as "skills" {"chars", "tokens",
"listed", "sha256"}, or {"error"} when the list cannot be read. --config
and --agent choose the config and agent as for soulc skills.
@RUNTIMEOPTIONS@
Options:
  --runtime NAME    @RUNTIMES@
  --config FILE     openclaw: read FILE instead of OpenClaw's config
  --agent ID        openclaw: the agent whose skills filter applies
  --rev REV         DIR as commit REV has it (toolnexus only)
  --encoding NAME   count with NAME: o200k_base (the default) or cl100k_base
  --all             every persona folder under PARENT, one row each
  --json            print the same facts as JSON
  -h, --help        show this help

Exit status: 0 success, 2 error or bad usage.
)";

constexpr char AgentsHelp[] = R"(Usage: soulc agents [--config FILE] [--encoding NAME] [--json]

List OpenClaw 2026.9's agents as 'openclaw agents list' resolves them, one a
line: the id, whether it is the default agent, its workspace (absolute),
whether the workspace exists, its soul's bytes and exact tokens (as 'soulc
stat' counts them), and the characters OpenClaw injects from it against the
agent's own budget.

The config is OpenClaw's: OPENCLAW_CONFIG_PATH, else openclaw.json in the
state directory (OPENCLAW_STATE_DIR, else ~/.openclaw). It is JSON5 and may
use $include and ${VAR}. Both rosters are read (agents.entries keyed by id,
and the older agents.list); no config is the single agent 'main'. The
agent that owns the default workspace (a sole agent, or the one marked
default: true) works in agents.defaults.workspace, else in
<stateDir>/workspace, moved by OPENCLAW_WORKSPACE_DIR and OPENCLAW_PROFILE;
every other agent in <agents.defaults.workspace>/<id>, else
<stateDir>/workspace-<id>; agents.entries.<id>.workspace overrides both.
With agents.ownership "explicit" the default agent is
agents.defaults.systemAgent.agentId. Each agent's budgets are its
bootstrapMaxChars and bootstrapTotalMaxChars from agents.entries.<id>, else
agents.defaults, else OpenClaw's (20,000 and 60,000); --json says where
each came from.

Options:
  --config FILE     read FILE instead of OpenClaw's config
  --encoding NAME   count with NAME: o200k_base (the default) or cl100k_base
  --json            print the roster as JSON
  -h, --help        show this help

Exit status: 0 success, 2 when the config cannot be read, is not valid
JSON5, or holds a roster OpenClaw refuses (the message names the file and
line), or on bad usage.
)";

constexpr char CheckHelp[] = R"(Usage: soulc check [--runtime NAME] [--config FILE] [--agent ID] DIR

Check DIR as a CI step would: print one line for each lint,

  FILE: LEVEL: MESSAGE

where FILE is the file's path and LEVEL is error, warning or info. With
--runtime openclaw the lints are OpenClaw 2026.9's: cut files with what is
kept, refused and unloaded files, files the total leaves out, and the
files OpenClaw would create from its templates before a run; then the
skills list's (as soulc skills prints them): skill files OpenClaw skips
(an error each), names and descriptions over the skills limits, a skill
replaced by one of the same name from a later source, skills left out or
dropped and why, hidden HTML comments and invisible or bidirectional
characters, and the skills of enabled plugins that are unknown. --config
and --agent choose the config and agent as for soulc skills.

With --runtime hermes the lints are Hermes Agent 0.21.3's: files and memory
entries its threat scan replaces by a BLOCKED line (with the pattern and
where it matches), cut files, memory files over their limit, dropped
entries, unreadable files, project files that lose to another, files it
never reads; exit status 1 when anything is blocked, cut, unreadable or
over a memory limit.
@RUNTIMEOPTIONS@
Options:
  --runtime NAME   @RUNTIMES@
  -h, --help   show this help

Exit status: 0 when no slot is truncated and no lint is an error, 1 when
one is, 2 when DIR cannot be checked or on bad usage.
)";

constexpr char TestHelp[]
    = R"(Usage: soulc test [--runtime NAME] [--tests FILE] [--endpoint URL] [--model NAME]
                  [--repeat N] [--key-env NAME] [--key-endpoint URL]...
                  [--timeout SECONDS] [--idle-timeout SECONDS] [--json]
                  [--junit FILE [--force]] DIR
       soulc test --export-promptfoo OUTDIR [--runtime NAME] [--tests FILE]
                  [--endpoint URL] [--model NAME] [--repeat N] [--key-env NAME]
                  [--force] DIR

Hold the persona in DIR to its tests: for each case of DIR/persona-tests.yaml
(or FILE), send the soul composed from DIR (exactly what 'soulc compose
--runtime NAME DIR' writes) as the system message and the case's turns to an
OpenAI-compatible chat completions endpoint, read the streamed reply and
check it against the case's asserts. Cases run one at a time, in order.

The file is a subset of promptfoo's config:

  description: Ava keeps her voice
  providers:
    - id: openai:chat:MODEL
      config: {apiBaseUrl: http://127.0.0.1:8080/v1, temperature: 0,
               max_tokens: 64, seed: 1}
  tests:
    - description: introduces herself
      vars: {message: "Who are you?"}
      assert:
        - {type: icontains, value: Ava}
        - {type: not-icontains, value: as an AI language model}

vars.message is the user's turn; vars.messages, a list of {role, content},
a conversation. A case may say repeat: N (run it N times) and threshold: S
(it passes when the weighted mean of its asserts' scores, each assert's
weight: W counting, is at least S; without one every assert must pass).
Assert types: equals, contains, icontains, contains-any, contains-all,
icontains-any, icontains-all, starts-with, regex, is-json (without a
schema), latency (threshold: milliseconds), cost (threshold: dollars, from
the usage and the provider config's cost, or inputCost and outputCost, in
dollars per token) and llm-rubric (value: the rubric; a model grades the
reply: the assert's provider, else defaultTest.options.provider, else the
tested model; its reason reads "judged by MODEL: ..."), each also as
not-TYPE.

The API key, if any, is read from OPENAI_API_KEY, or the variable you name
with --key-env NAME (never the one a tests file names in apiKeyEnvar: a
file from someone else's repository must not choose which secret is sent),
and sent as a bearer token only to an endpoint on this machine or one you
give (--endpoint, or --key-endpoint for one the file names, such as a
grader's), over https or to this machine only: never over plain http to
another host. A key holding a line break is refused.

Each request has a deadline in all (--timeout, 120 s by default) and for
the next byte (--idle-timeout, 30 s): a stalled server is named when one
passes. A reply longer than 1,048,576 characters is cut there and its case
fails; a server that sends more than 64 MiB for one reply, one event over
1 MiB, a compressed reply or an impossible token usage is named. A tests
file is at most 16 MiB, its aliases may expand to at most 64 MiB of text,
and it may ask for at most 100,000 runs (cases times repeats).

Print one line per case (PASS or FAIL, its description, and why it failed),
then how many passed.

With --export-promptfoo OUTDIR, send nothing: write the same cases as a
promptfoo config instead, so that 'npx promptfoo eval -c
OUTDIR/promptfooconfig.yaml' runs them on the same endpoint and model.
OUTDIR gets soul.txt (the composed soul, its exact bytes), turns.json (each
case's turns), prompt.cjs (a prompt function that reads both, so neither
passes through promptfoo's Nunjucks templates) and promptfooconfig.yaml
(the provider, and each case with its asserts, weights, threshold and
repeats; no API key). promptfoo renders assert values as templates: a value
with '{{', '{%' or '{#' is named in a warning, as its verdict may differ.

Options:
  --runtime NAME    compose the soul as NAME injects it:
                    @RUNTIMES@
  --tests FILE      read the tests from FILE
  --endpoint URL    the API's base URL (http://127.0.0.1:8080/v1) instead of
                    the provider's apiBaseUrl
  --model NAME      the model instead of the provider's
  --repeat N        run every case N times, whatever its repeat says
  --json            print the soul's digest, size and tokens, and each run's
                    reply, asserts, token usage and latency as JSON
  --key-env NAME    read the API key from the variable NAME (default
                    OPENAI_API_KEY)
  --key-endpoint URL
                    let the key go to URL's host too when the file names it
                    (the tested model's or a grader's endpoint); repeatable
  --timeout SECONDS each request's deadline in all (default 120)
  --idle-timeout SECONDS
                    the longest wait for the server's next byte (default 30)
  --junit FILE      also write the results to FILE as JUnit XML (never a
                    file of the persona or the tests file, never through a
                    link; an existing FILE needs --force)
  --export-promptfoo OUTDIR
                    write a promptfoo config of the cases to OUTDIR (created
                    if missing) instead of running them
  -f, --force       with --export-promptfoo, replace the files in OUTDIR;
                    with --junit, replace FILE
  -h, --help        show this help

Exit status: 0 every test passed (or the export was written), 1 a test
failed, 2 the tests cannot run (an invalid test file, a persona that cannot
be read, no endpoint or model, a server that cannot be reached or answers
with an error), the export cannot be written (OUTDIR not writable, its
files already there without --force) or bad usage.
)";

constexpr char ExportHelp[]
    = R"(Usage: soulc export [--runtime NAME] [--config FILE] [--agent ID] [--force] DIR OUT

Write a frozen snapshot of DIR: the soul to OUT and a manifest of what shaped
it (found files, their sizes, truncation, SHA-256 digests) to
OUT.manifest.json. Each file is written atomically.

With --runtime openclaw or hermes, the snapshot is of what that runtime
injects (what soulc compose --runtime NAME writes), and its manifest names the
runtime, its settings and what it kept of each file. The manifest (schema 3)
also holds the skills list of the same prompt, as "skills": its SHA-256,
characters, tokens, the names it lists in order and its exact text (what
soulc compose --part skills writes); a list that cannot be read fails the
export.

Options:
  --runtime NAME  @RUNTIMES@
  --config FILE   openclaw: read FILE instead of OpenClaw's config
  --agent ID      openclaw: the agent whose skills filter applies
  -f, --force     overwrite OUT and OUT.manifest.json when they exist
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
       soulc diff [--encoding NAME] [--json] --rev REV DIR
       soulc diff [--encoding NAME] [--json] --rev A --rev B DIR

Compare the soul of A with the soul of B. Each is a persona folder (composed
now) or a soul written by 'soulc export', its manifest beside it; an exported
soul must match its manifest's SHA-256.

With one --rev, A is the persona folder DIR as commit REV of its git
repository has it and B is DIR now; with two, A and B are DIR at the two
commits. A commit's soul is named REV:DIR.

Print a unified diff of the two souls, each hunk header ending in the name of
the section it changes, then one line:

  stable prefix: N of M tokens (P%); first change: FILE line L

N is the length of the longest common prefix of the two souls, M is B's
length, both in tokens (in bytes with --encoding bytes); FILE line L is the line of B's file
that holds the first changed byte (line 1 of a file only one side has). For
identical souls the line reads 'stable prefix: M of M tokens (100%)'.

When A or B is a soul written by 'soulc export --runtime NAME' (or by Freeze
with that runtime chosen), what that runtime injects is compared: a persona
folder on the other side is composed for the same runtime by the settings the
snapshot's manifest records. The diff of the two texts is followed by a line
naming the runtime and each file it injects on either side (unchanged,
changed, added or removed), then the stable prefix line, whose first change
names only the file. Exports of two different runtimes, or one of a runtime
and one of the toolnexus soul, are refused. When both sides have a skills
list (an export whose manifest, schema 3, records one, or a folder, read by
the runtime's own config), the list is compared too: its diff lines follow
the texts', headed '--- A (skills list)' and '+++ B (skills list)', and a
line 'skills list: STATUS' (unchanged, changed, added or removed) follows
the files' statuses; a changed list counts as a difference.

Options:
  --encoding NAME   count in NAME's tokens: o200k_base (the default) or
                    cl100k_base; 'bytes' counts bytes instead
  --json            print each section's status (unchanged, changed, added,
                    removed, absent), the prefix in units and in bytes, and
                    the first change as JSON instead (for a runtime's text:
                    the runtime with its settings, each file's status and
                    the skills list's)
  --rev REV         take DIR at commit REV as A (given twice: as A, then B)
  -h, --help        show this help

Exit status: 0 the souls are identical, 1 they differ, 2 error or bad usage.
)";

constexpr char LogHelp[] = R"(Usage: soulc log [--encoding NAME] [--json] DIR

List the commits of DIR's git repository, reachable from HEAD, that touched
one of DIR's slot files (its entry, or the file a link slot leads to,
differs from the first parent's), newest first, one a line:

  commit  date  bytes  tokens  changes

the short id, the author's date, the soul's size in bytes and its exact
tokens at that commit, and each changed slot with its section's change in
tokens ("SOUL.md +42; USER.md added (+120); MEMORY.md changed"). DIR may be
anywhere in the repository; a repository without commits lists nothing.
Each blob is composed and counted once, however many commits hold it.

Options:
  --encoding NAME   count with NAME: o200k_base (the default) or cl100k_base
  --json            print the commits as JSON, with the author, the message
                    and each slot's bytes, tokens, change and blob id
  -h, --help        show this help

Exit status: 0 success, 2 error (DIR in no repository, a damaged object) or
bad usage.
)";

constexpr char CheckpointHelp[] = R"(Usage: soulc checkpoint [-m MESSAGE] DIR

Commit DIR's seven slot files as they are on disk to the git repository
that holds DIR, and nothing else: a file added, changed or deleted is
committed as such (a symbolic link as a link), other changes in the
repository, staged or not, stay as they are, and in the index only the
slot files' entries change. The working files are never written.

The message is MESSAGE, or by default what changed per slot:
"SOUL.md +42 tokens; MEMORY.md changed". The author comes from git's
configuration (user.name, user.email; GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL
first), or is "Soul Studio <soulstudio@localhost>". In an empty repository
(as 'git init' leaves it) this makes the first commit.

A failure (a lock another git holds, a read-only repository, a full disk,
a slot file over 64 MiB) exits 2 and leaves the repository and the files as
they were. What a checkpoint killed midway left is cleaned up by the next.

Options:
  -m, --message MESSAGE   the commit message
  -h, --help              show this help

Exit status: 0 committed, 1 nothing to commit (the slot files are as HEAD
has them), 2 error (DIR in no repository, a merge under way, a locked
index, a read-only repository, a full disk) or bad usage.
)";

constexpr char SkillsHelp[]
    = R"(Usage: soulc skills [--runtime NAME] [--config FILE] [--agent ID] [--json] DIR

List the skills OpenClaw 2026.9 puts into the system prompt of an agent whose
workspace is DIR, as its buildSkillSnapshot builds the list: every SKILL.md
of the config's skills.load.extraDirs, the bundled skills folder
(OPENCLAW_BUNDLED_SKILLS_DIR, else that of the openclaw package on PATH),
<state dir>/skills, ~/.agents/skills, DIR/.agents/skills and DIR/skills, a
later source winning a name; whether each is eligible (its required
commands, variables, config and OS; skills.entries.NAME.enabled;
skills.allowBundled; the agent's skills list) and what the character budget
(skills.limits.maxSkillsPromptChars, 18,000) and count (maxSkillsInPrompt,
150) leave of it: kept, shortened (compact format) or dropped. Each row has
the skill's entry in characters and in tokens (o200k_base), then the list's
totals against its budget, then the lints. `soulc compose --runtime openclaw
--part skills DIR` prints the list itself.

HOME, OPENCLAW_STATE_DIR, OPENCLAW_CONFIG_PATH and OPENCLAW_BUNDLED_SKILLS_DIR
are read as OpenClaw reads them.

With --runtime hermes: the skills index Hermes Agent 0.21.3 puts into its
prompt for a CLI session, from DIR/skills (DIR is Hermes's home, or give
--hermes-home HOME --project DIR): each SKILL.md, its category, and whether
it is listed or why not (config.yaml's skills.disabled, its platforms,
environments and tool conditions). `soulc compose --runtime hermes --part
skills DIR` prints the index.

Options:
  --runtime NAME      openclaw (the default here) or hermes
  --config FILE       read FILE instead of OpenClaw's config
  --agent ID          apply agents.list[ID].skills (else agents.defaults.skills)
  --json              one JSON object: skills, totals and lints
  -h, --help          show this help

Exit status: 0 every skill found is listed whole or shortened, 1 a skill is
dropped, left out or invalid, 2 error (DIR or the config cannot be read) or
bad usage.
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
    {Command::Log, "log", 1, "DIR"},
    {Command::Checkpoint, "checkpoint", 1, "DIR"},
    {Command::Agents, "agents", 0, ""},
    {Command::Skills, "skills", 1, "DIR"},
    {Command::Test, "test", 1, "DIR"},
    {Command::Links, "links", 0, ""},
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

// The runtimes that list skills, as options name them: "--runtime a or --runtime b".
QString skillsRuntimes()
{
    QStringList names;
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes()) {
        if (runtime->listsSkills())
            names.append(QStringLiteral("--runtime ") + runtime->id());
    }
    return names.join(QStringLiteral(" or "));
}

bool takesRuntime(Command command)
{
    return command == Command::Compose || command == Command::Stat || command == Command::Check
           || command == Command::Export || command == Command::Test || command == Command::Skills;
}

// An option of a registered runtime: one of its settings' (RuntimeSetting::
// option), or, for a runtime with a home, the option naming the home and
// --project. nullptr for any other option.
struct RuntimeOption
{
    const Runtime *runtime = nullptr;
    QByteArray option;                     // "--context-window"
    std::optional<RuntimeSetting> setting; // none: the home or --project
};

RuntimeOption runtimeOption(const QString &arg)
{
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes()) {
        RuntimeOption found;
        found.runtime = runtime;
        if (runtime->readsHome()) {
            for (const QString &option : {runtime->homeOption(), QStringLiteral("--project")}) {
                if (!option.isEmpty() && isValueOption(arg, option.toLatin1().constData())) {
                    found.option = option.toLatin1();
                    return found;
                }
            }
        }
        for (const RuntimeSetting &setting : runtime->settings()) {
            if (setting.option.isEmpty())
                continue;
            const QByteArray option = setting.option.toLatin1();
            if (setting.flag ? arg == setting.option : isValueOption(arg, option.constData())) {
                found.option = option;
                found.setting = setting;
                return found;
            }
        }
    }
    return {};
}

// `option`, with its value; false after reporting a bad one.
template<typename Fail>
bool takeRuntimeOption(Invocation &invocation,
                       const RuntimeOption &option,
                       const QStringList &arguments,
                       qsizetype &i,
                       const Fail &fail)
{
    const char *name = option.option.constData();
    if (!option.setting) {
        if (option.option == "--project")
            return takeValue(arguments, i, name, "a DIR", invocation.project, fail);
        return takeValue(arguments, i, name, "a HOME", invocation.hermesHome, fail);
    }
    const RuntimeSetting &setting = *option.setting;
    if (setting.flag) {
        invocation.settings.insert(setting.key, setting.defaultValue != 0 ? 0 : 1);
        return true;
    }
    QString text;
    if (!takeValue(arguments, i, name, "a number", text, fail))
        return false;
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    // A window of 10^15 tokens is far past where the cap stops growing.
    if (!ok || value <= 0 || value > Q_INT64_C(1000000000000000)) {
        fail(QStringLiteral("option '%1' needs a whole number above 0, not '%2'.")
                 .arg(QLatin1String(name), text));
        return false;
    }
    invocation.settings.insert(setting.key, value);
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
    bool runtimeGiven = false;
    // The runtime options given, to say which runtime each needs.
    QList<QPair<QString, const Runtime *>> runtimeOptions;
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
                    || info.command == Command::Diff || info.command == Command::Log
                    || info.command == Command::Agents)
                   && isValueOption(arg, "--encoding")) {
            if (!takeValue(arguments, i, "--encoding", "a NAME", invocation.encoding, fail))
                return;
        } else if (info.command == Command::Count && isValueOption(arg, "--tokenizer")) {
            if (!takeValue(arguments, i, "--tokenizer", "a FILE", invocation.tokenizer, fail))
                return;
        } else if (info.command == Command::Count && arg == QLatin1String("--ids")) {
            invocation.ids = true;
        } else if (takesRuntime(info.command) && isValueOption(arg, "--runtime")) {
            QString name;
            if (!takeValue(arguments, i, "--runtime", "a NAME", name, fail))
                return;
            if (!runtimeProfileNamed(name)) {
                fail(QStringLiteral("unknown runtime '%1' (%2).").arg(name, runtimeProfileNames()));
                return;
            }
            invocation.runtime = name;
            runtimeGiven = true;
        } else if ((info.command == Command::Compose || info.command == Command::Stat
                    || info.command == Command::Diff)
                   && isValueOption(arg, "--rev")) {
            QString rev;
            if (!takeValue(arguments, i, "--rev", "a REV", rev, fail))
                return;
            invocation.revs.append(rev);
        } else if (info.command == Command::Checkpoint
                   && (arg == QLatin1String("-m") || isValueOption(arg, "--message"))) {
            if (arg == QLatin1String("-m")) {
                if (i + 1 >= arguments.size()) {
                    fail(QStringLiteral("option '-m' needs a MESSAGE."));
                    return;
                }
                invocation.message = arguments.at(++i);
                if (invocation.message.isEmpty()) {
                    fail(QStringLiteral("option '-m' needs a MESSAGE, not an empty one."));
                    return;
                }
            } else if (!takeValue(arguments, i, "--message", "a MESSAGE", invocation.message, fail)) {
                return;
            }
        } else if (info.command == Command::Checkpoint && arg.startsWith(QLatin1String("-m"))) {
            invocation.message = arg.mid(2);
        } else if (const RuntimeOption option = takesRuntime(info.command) ? runtimeOption(arg)
                                                                           : RuntimeOption();
                   option.runtime) {
            if (!takeRuntimeOption(invocation, option, arguments, i, fail))
                return;
            runtimeOptions.append({arg.section(QLatin1Char('='), 0, 0), option.runtime});
        } else if ((info.command == Command::Stat || info.command == Command::Diff
                    || info.command == Command::Log || info.command == Command::Agents
                    || info.command == Command::Test || info.command == Command::Skills)
                   && arg == QLatin1String("--json")) {
            invocation.json = true;
        } else if (info.command == Command::Test && isValueOption(arg, "--tests")) {
            if (!takeValue(arguments, i, "--tests", "a FILE", invocation.tests, fail))
                return;
        } else if (info.command == Command::Test && isValueOption(arg, "--junit")) {
            if (!takeValue(arguments, i, "--junit", "a FILE", invocation.junit, fail))
                return;
        } else if (info.command == Command::Test && isValueOption(arg, "--export-promptfoo")) {
            if (!takeValue(arguments,
                           i,
                           "--export-promptfoo",
                           "an OUTDIR",
                           invocation.exportPromptfoo,
                           fail))
                return;
        } else if (info.command == Command::Test && isValueOption(arg, "--key-env")) {
            if (!takeValue(arguments, i, "--key-env", "a NAME", invocation.keyEnv, fail))
                return;
            static const QRegularExpression variableName(
                QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
            if (!variableName.match(invocation.keyEnv).hasMatch()) {
                fail(QStringLiteral("option '--key-env' needs the name of an environment "
                                    "variable, such as OPENAI_API_KEY, not '%1'.")
                         .arg(invocation.keyEnv));
                return;
            }
        } else if (info.command == Command::Test && isValueOption(arg, "--key-endpoint")) {
            QString endpoint;
            if (!takeValue(arguments, i, "--key-endpoint", "a URL", endpoint, fail))
                return;
            if (!isHttpUrl(endpoint)) {
                fail(QStringLiteral("option '--key-endpoint' needs an http or https URL, such "
                                    "as https://api.example.com/v1, not '%1'.")
                         .arg(endpoint));
                return;
            }
            invocation.keyEndpoints.append(endpoint);
        } else if (info.command == Command::Test
                   && (isValueOption(arg, "--timeout") || isValueOption(arg, "--idle-timeout"))) {
            const bool idle = isValueOption(arg, "--idle-timeout");
            const char *name = idle ? "--idle-timeout" : "--timeout";
            QString seconds;
            if (!takeValue(arguments, i, name, "a number of SECONDS", seconds, fail))
                return;
            bool ok = false;
            const int value = seconds.toInt(&ok);
            if (!ok || value < 1 || value > 86400) {
                fail(QStringLiteral("option '%1' needs a whole number of seconds from 1 to "
                                    "86400, not '%2'.")
                         .arg(QLatin1String(name), seconds));
                return;
            }
            (idle ? invocation.idleTimeoutSeconds : invocation.timeoutSeconds) = value;
        } else if (info.command == Command::Test && isValueOption(arg, "--model")) {
            if (!takeValue(arguments, i, "--model", "a NAME", invocation.model, fail))
                return;
        } else if (info.command == Command::Test && isValueOption(arg, "--endpoint")) {
            if (!takeValue(arguments, i, "--endpoint", "a URL", invocation.endpoint, fail))
                return;
            if (!isHttpUrl(invocation.endpoint)) {
                fail(QStringLiteral("option '--endpoint' needs an http or https URL, such as "
                                    "http://127.0.0.1:8080/v1, not '%1'.")
                         .arg(invocation.endpoint));
                return;
            }
        } else if (info.command == Command::Test && isValueOption(arg, "--repeat")) {
            QString count;
            if (!takeValue(arguments, i, "--repeat", "a number", count, fail))
                return;
            bool ok = false;
            invocation.repeat = count.toInt(&ok);
            if (!ok || invocation.repeat < 1 || invocation.repeat > 1000) {
                fail(QStringLiteral("option '--repeat' needs a whole number from 1 to 1000, "
                                    "not '%1'.")
                         .arg(count));
                return;
            }
        } else if ((info.command == Command::Skills || info.command == Command::Compose
                    || info.command == Command::Check || info.command == Command::Stat
                    || info.command == Command::Export)
                   && isValueOption(arg, "--agent")) {
            if (!takeValue(arguments, i, "--agent", "an ID", invocation.agent, fail))
                return;
        } else if (info.command == Command::Compose && isValueOption(arg, "--part")) {
            if (!takeValue(arguments, i, "--part", "a PART", invocation.part, fail))
                return;
            if (invocation.part != QLatin1String("project")
                && invocation.part != QLatin1String("skills")
                && invocation.part != QLatin1String("all")) {
                fail(QStringLiteral("option '--part' takes project, skills or all, not '%1'.")
                         .arg(invocation.part));
                return;
            }
        } else if ((info.command == Command::Agents || info.command == Command::Skills
                    || info.command == Command::Compose || info.command == Command::Check
                    || info.command == Command::Stat || info.command == Command::Export)
                   && isValueOption(arg, "--config")) {
            if (!takeValue(arguments, i, "--config", "a FILE", invocation.config, fail))
                return;
        } else if (info.command == Command::Stat && arg == QLatin1String("--all")) {
            invocation.all = true;
        } else if ((info.command == Command::Export || info.command == Command::Compose
                    || info.command == Command::Test)
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
    if (info.command == Command::Test && invocation.exportPromptfoo.isEmpty()
        && invocation.junit.isEmpty() && invocation.force) {
        fail(QStringLiteral("option '--force' needs --export-promptfoo OUTDIR or --junit FILE."));
        return;
    }
    if (!invocation.exportPromptfoo.isEmpty() && (invocation.json || !invocation.junit.isEmpty())) {
        fail(QStringLiteral("option '--export-promptfoo' runs nothing, so it takes neither "
                            "'--json' nor '--junit'."));
        return;
    }
    const qsizetype maxRevs = info.command == Command::Diff ? 2 : 1;
    if (invocation.revs.size() > maxRevs) {
        fail(maxRevs == 1 ? QStringLiteral("option '--rev' can be given once.")
                          : QStringLiteral("option '--rev' can be given at most twice."));
        return;
    }
    const Runtime *runtime = RuntimeRegistry::instance().find(invocation.runtime);
    if (info.command == Command::Skills && !runtimeGiven) {
        // No runtime named: the first that lists skills.
        for (const Runtime *each : RuntimeRegistry::instance().runtimes()) {
            if (each->listsSkills()) {
                runtime = each;
                invocation.runtime = each->id();
                break;
            }
        }
    }
    const bool listsSkills = runtime && runtime->listsSkills();
    if (info.command == Command::Skills && !listsSkills) {
        fail(QStringLiteral("%1 lists no skills in its prompt; name a runtime that does (%2).")
                 .arg(runtime ? runtime->displayName() : invocation.runtime, skillsRuntimes()));
        return;
    }
    if ((info.command == Command::Compose || info.command == Command::Check
         || info.command == Command::Stat || info.command == Command::Export)
        && (!invocation.part.isEmpty() || !invocation.config.isEmpty()
            || !invocation.agent.isEmpty())
        && !listsSkills) {
        fail(QStringLiteral("options '--part', '--config' and '--agent' need a runtime that lists "
                            "skills (%1).")
                 .arg(skillsRuntimes()));
        return;
    }
    if (info.command == Command::Compose && invocation.part != QLatin1String("project")
        && !invocation.part.isEmpty() && (invocation.found || !invocation.revs.isEmpty())) {
        fail(QStringLiteral("option '--part %1' takes neither '--found' nor '--rev'.")
                 .arg(invocation.part));
        return;
    }
    if (!invocation.revs.isEmpty() && !runtime->readsRevisions()) {
        fail(QStringLiteral("options '--rev' and '--runtime %1' exclude each other: a commit is "
                            "composed by the toolnexus rule.")
                 .arg(invocation.runtime));
        return;
    }
    if (invocation.all && (!invocation.revs.isEmpty() || !runtime->readsRevisions())) {
        fail(QStringLiteral("option '--all' takes neither '--rev' nor '--runtime': it measures "
                            "each folder by the toolnexus rule."));
        return;
    }
    const bool hermesHome = !invocation.hermesHome.isEmpty() || !invocation.project.isEmpty();
    for (qsizetype k = runtimeOptions.size() - 1; k >= 0; --k) {
        if (runtimeOptions.at(k).second != runtime) {
            fail(QStringLiteral("option '%1' needs --runtime %2.")
                     .arg(runtimeOptions.at(k).first, runtimeOptions.at(k).second->id()));
            return;
        }
    }
    if (!runtimeOptions.isEmpty())
        invocation.settings = runtime->withDefaults(invocation.settings);
    if (hermesHome && (invocation.hermesHome.isEmpty() || invocation.project.isEmpty())) {
        fail(QStringLiteral("options '--hermes-home' and '--project' go together: the home holds "
                            "SOUL.md and memories/, the project the files Hermes reads from "
                            "the folder it runs in."));
        return;
    }
    // diff --rev compares commits of one folder: DIR alone. With a Hermes
    // home and project, DIR is not given.
    const bool revDiff = info.command == Command::Diff && !invocation.revs.isEmpty();
    const int wanted = (revDiff ? 1 : info.arguments) - (hermesHome ? 1 : 0);
    const QLatin1String names(revDiff ? "DIR" : invocation.all ? "PARENT" : info.argumentNames);
    const int minimum = info.arguments == 0 ? 0 : (hermesHome ? wanted : qMax(wanted, 1));
    if (invocation.arguments.size() < minimum) {
        fail(QStringLiteral("missing %1.").arg(names));
        return;
    }
    if (wanted >= 0 && invocation.arguments.size() > wanted) {
        fail(QStringLiteral("unexpected argument '%1'%2.")
                 .arg(invocation.arguments.at(wanted),
                      hermesHome ? QStringLiteral(" (--hermes-home and --project name the folders)")
                                 : QString()));
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
    if (info->command == Command::Links) {
        // soulc links has actions with options of their own (linkscommand.cpp).
        invocation.arguments = arguments.mid(1);
        return invocation;
    }
    parseCommandArguments(invocation, *info, arguments);
    return invocation;
}

namespace {

// Each runtime's own options (Runtime::optionsHelp()), where the text has
// @RUNTIMEOPTIONS@.
QByteArray withRuntimeOptions(QByteArray text)
{
    QString options;
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes())
        options += runtime->optionsHelp();
    return text.replace("@RUNTIMEOPTIONS@\n", options.toUtf8());
}

// `text` broken into lines of at most `width` characters at its spaces.
QString wrapped(const QString &text, qsizetype width)
{
    QString out;
    qsizetype lineLength = 0;
    for (const QString &word : text.split(QLatin1Char(' '))) {
        if (lineLength > 0 && lineLength + 1 + word.size() > width) {
            out += QLatin1Char('\n');
            lineLength = 0;
        } else if (lineLength > 0) {
            out += QLatin1Char(' ');
            ++lineLength;
        }
        out += word;
        lineLength += word.size();
    }
    return out;
}

// The registered runtimes, as the help names them: "--runtime NAME"'s values
// and a paragraph with each runtime's description.
QByteArray withRuntimes(QByteArray text)
{
    constexpr qsizetype HelpWidth = 76;
    const QList<const Runtime *> &runtimes = RuntimeRegistry::instance().runtimes();
    QString use = QStringLiteral("compose, stat and check take");
    for (qsizetype i = 0; i < runtimes.size(); ++i) {
        if (i > 0)
            use += i + 1 == runtimes.size() ? QStringLiteral(" or") : QStringLiteral(",");
        use += QStringLiteral(" --runtime %1 (%2%3)")
                   .arg(runtimes.at(i)->id(),
                        i == 0 ? QStringLiteral("the default: ") : QString(),
                        runtimes.at(i)->description());
    }
    use += QLatin1Char('.');
    return text.replace("@RUNTIMEUSE@", wrapped(use, HelpWidth).toUtf8())
        .replace("@RUNTIMES@", RuntimeRegistry::instance().idsInWords().toUtf8());
}

} // namespace

QByteArray helpText(Command command)
{
    switch (command) {
    case Command::None:
        return withRuntimes(withCap(GeneralHelp));
    case Command::Compose:
        return withRuntimes(withRuntimeOptions(ComposeHelp));
    case Command::Stat:
        return withRuntimes(withRuntimeOptions(withCap(StatHelp)));
    case Command::Check:
        return withRuntimes(withRuntimeOptions(CheckHelp));
    case Command::Export:
        return withRuntimes(ExportHelp);
    case Command::Count:
        return QByteArray(CountHelp);
    case Command::Diff:
        return QByteArray(DiffHelp);
    case Command::Log:
        return QByteArray(LogHelp);
    case Command::Checkpoint:
        return QByteArray(CheckpointHelp);
    case Command::Agents:
        return QByteArray(AgentsHelp);
    case Command::Skills:
        return QByteArray(SkillsHelp);
    case Command::Test:
        return withRuntimes(TestHelp);
    case Command::Links:
        return linksHelpText();
    }
    return {};
}

QByteArray versionText()
{
    return QByteArrayLiteral("soulc " SOULSTUDIO_VERSION "\n");
}

} // namespace soul
