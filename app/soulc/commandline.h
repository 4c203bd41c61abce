#pragma once

#include "hermesrule.h"
#include "runtime.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

// soulc's command line: `soulc COMMAND [OPTIONS] ARGS`. A small hand parser
// rather than QCommandLineParser, which has no notion of subcommands with
// their own options and wants a QCoreApplication that `soulc compose` does
// not otherwise need.
namespace soul {

enum class Command {
    None,
    Compose,
    Stat,
    Check,
    Export,
    Count,
    Diff,
    Log,
    Checkpoint,
    Agents,
    Test
};

struct Invocation
{
    Command command = Command::None;
    bool help = false;    // --help, `soulc help [COMMAND]`: print help for `command`
    bool version = false; // --version
    QStringList arguments;
    QString output; // compose -o FILE
    bool found = false;
    bool json = false;
    bool force = false;
    QString encoding;  // count, stat, diff --encoding NAME
    QString tokenizer; // count --tokenizer FILE
    bool ids = false;  // count --ids
    // compose, stat, check, export --runtime NAME: "toolnexus" (the default),
    // "openclaw", "hermes" or another registered runtime.
    QString runtime = QStringLiteral("toolnexus");
    // compose, stat --rev REV; diff --rev A [--rev B]: commits of DIR's git
    // history, in the order given.
    QStringList revs;
    QString message;  // checkpoint -m MESSAGE
    QString config;   // agents --config FILE: this OpenClaw config instead of OpenClaw's own
    bool all = false; // stat --all PARENT: every persona folder under PARENT
    // --runtime hermes: a Hermes home and the project it runs in
    // (--hermes-home HOME --project DIR) instead of a flat DIR, and the
    // settings (--context-window, --context-file-max-chars,
    // --memory-char-limit, --user-char-limit, --no-memory, --no-user-profile).
    QString hermesHome;
    QString project;
    HermesSettings hermes;
    // The runtime's settings that the options above give (none: its defaults).
    RuntimeSettings settings;
    // test --tests FILE, --endpoint URL, --model NAME, --repeat N, --junit FILE
    QString tests;
    QString endpoint;
    QString model;
    int repeat = 0; // 0: each case's own repeat
    QString junit;
    // test --export-promptfoo OUTDIR: a promptfoo config of the same cases,
    // written instead of running them.
    QString exportPromptfoo;
    // Bad usage, as one sentence without the "soulc: " prefix; the rest of
    // the invocation is then meaningless.
    QString usageError;
};

Invocation parseCommandLine(const QStringList &arguments);

// Help for one command, or for soulc as a whole when `command` is None.
QByteArray helpText(Command command);
QByteArray versionText();

} // namespace soul
