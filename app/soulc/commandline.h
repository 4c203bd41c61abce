#pragma once

#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"

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
    Skills,
    Test,
    Links
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
    // compose, stat, check, export --runtime NAME: the id of a registered
    // runtime, the registry's default unless given.
    QString runtime = RuntimeRegistry::instance().defaultRuntime()->id();
    // compose, stat --rev REV; diff --rev A [--rev B]: commits of DIR's git
    // history, in the order given.
    QStringList revs;
    QString message; // checkpoint -m MESSAGE
    QString config; // agents, skills, compose --config FILE: this OpenClaw config instead of OpenClaw's own
    QString agent; // skills, compose --agent ID: the OpenClaw agent whose skills filter applies
    // compose --runtime openclaw --part project|skills|all: which part of
    // OpenClaw's prompt; project (the workspace files) unless given.
    QString part;
    bool all = false; // stat --all PARENT: every persona folder under PARENT
    // A runtime with a home (Runtime::readsHome()): its home and the project
    // it runs in (--hermes-home HOME --project DIR, as Runtime::homeOption()
    // names the first) instead of a flat DIR.
    QString hermesHome;
    QString project;
    // The runtime's settings that its options give (RuntimeSetting::option:
    // --context-window, --no-memory...), completed with its defaults when it
    // was given any; none: its defaults.
    RuntimeSettings settings;
    // test --tests FILE, --endpoint URL, --model NAME, --repeat N, --junit FILE
    QString tests;
    QString endpoint;
    QString model;
    int repeat = 0; // 0: each case's own repeat
    QString junit;
    QString keyEnv;             // --key-env NAME: the variable that holds the API key
    QStringList keyEndpoints;   // --key-endpoint URL: more endpoints the key may go to
    int timeoutSeconds = 0;     // --timeout SECONDS: each request in all; 0: the default
    int idleTimeoutSeconds = 0; // --idle-timeout SECONDS: each wait for a byte; 0: the default
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
