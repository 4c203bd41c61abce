#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QString>
#include <QStringList>

#include <optional>

namespace soul::clitest {

// soulc's exit codes.
constexpr int ExitSuccess = 0;
constexpr int ExitProblems = 1;
constexpr int ExitFailure = 2;

struct Run
{
    int exitCode = -1; // -1: crashed or did not finish
    QByteArray out;
    QByteArray err;
    qint64 ms = 0;
};

struct SoulcCall
{
    QStringList arguments;
    QString workingDir; // empty: the test's own
    QByteArray input;   // written to standard input, which is then closed
    std::optional<QProcessEnvironment> environment; // all soulc sees of it
    int deadlineMs = 120000;
};

// Runs the built soulc. The wait runs the event loop, so a server in the
// test's process answers meanwhile.
inline Run runSoulc(const SoulcCall &call)
{
    QProcess process;
    if (!call.workingDir.isEmpty())
        process.setWorkingDirectory(call.workingDir);
    if (call.environment)
        process.setProcessEnvironment(*call.environment);
    QSignalSpy finished(&process, &QProcess::finished);
    QElapsedTimer clock;
    clock.start();
    process.start(QStringLiteral(SOUL_BIN_DIR "/soulc"), call.arguments);
    Run run;
    if (!process.waitForStarted(30000)) {
        run.err = "did not start: " + process.errorString().toUtf8();
        return run;
    }
    process.write(call.input);
    process.closeWriteChannel();
    if (!finished.wait(call.deadlineMs)) {
        process.kill();
        process.waitForFinished();
        run.err = "did not finish within the deadline";
        return run;
    }
    run.ms = clock.elapsed();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return run;
}

} // namespace soul::clitest
