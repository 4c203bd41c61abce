#pragma once

#include "personatestfile.h"
#include "personatestrunner.h"
#include "result.h"
#include "suiterun.h"

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <optional>

#include <functional>

// What the window's Tests panel does, without a window: the tests file
// (read again on every save), a run of its cases on the live soul, and,
// for A/B, the same cases on another soul (a snapshot or a commit) side by
// side. A save of the file while runs have been made reruns the cases
// whose keys changed; the others keep their verdicts.
namespace soul {

// The bytes a frozen snapshot's soul.txt holds, checked against its
// manifest (a toolnexus soul or a runtime's text); fails with the
// snapshot readers' sentences.
Result<QByteArray> snapshotSoulBytes(const QString &soulPath);
// The soul of the persona in `dir` at commit `rev`, composed by the rule of
// the runtime `runtimeId` (revisionSoul(), as soulc's --rev and the History
// panel read commits); fails for a runtime that does not compose commits,
// and with the history's sentences.
Result<QByteArray> revisionSoulBytes(const QString &dir,
                                     const QString &rev,
                                     const QString &runtimeId);

// A tests file as a worker read it: its bytes (through the guarded read)
// and what they parse to, or the sentence saying why not.
struct PersonaTestsLoad
{
    QString path;
    bool readable = false;
    QByteArray bytes;
    std::optional<PersonaTestFile> file;
    QString error;
};
PersonaTestsLoad loadPersonaTestsFile(const QString &path);

class PersonaTestSession : public QObject
{
    Q_OBJECT

public:
    explicit PersonaTestSession(QObject *parent = nullptr);

    // Reads `path` on a worker, now and again whenever it changes on disk
    // (fileChanged() says when it has been read); an empty path forgets the
    // file and stops a run. The window never waits on the file: a FIFO or a
    // slow disk holds the worker, not the caller.
    void setTestsPath(const QString &path);
    const QString &testsPath() const { return m_path; }
    // A read of the file is under way.
    bool isLoading() const { return m_loading; }
    bool fileIsValid() const { return m_valid; }
    // Why the file cannot run, as a sentence naming it (file:line:column
    // for YAML); empty when it can.
    const QString &fileError() const { return m_error; }
    const PersonaTestFile &file() const { return m_file; }

    // Over the file's provider: an empty one keeps the file's.
    void setEndpoint(const QString &endpoint) { m_settings.endpoint = QUrl(endpoint); }
    void setModel(const QString &model) { m_settings.model = model; }
    void setApiKey(const QString &key) { m_settings.apiKey = key; }
    // Each request's deadlines: in all, and for the next byte.
    void setTimeouts(int timeoutMs, int idleTimeoutMs)
    {
        m_settings.timeoutMs = timeoutMs;
        m_settings.idleTimeoutMs = idleTimeoutMs;
    }
    // Where the key may go beside this machine and the endpoint given: the
    // hosts the author confirmed for this file.
    void setKeyEndpoints(const QList<QUrl> &endpoints) { m_settings.keyEndpoints = endpoints; }
    // The first endpoint the file would send the key to that the author has
    // not confirmed (unconfirmedKeyDestination()).
    std::optional<QUrl> unconfirmedKeyDestination() const;
    // Asked by run() for each such endpoint, once the file is read: true
    // lets the key go there for this file. Without one, or on a no, the run
    // sends nothing and fails saying so.
    using KeyConfirmation = std::function<bool(const QUrl &endpoint)>;
    void setKeyConfirmation(KeyConfirmation confirm) { m_confirmKey = std::move(confirm); }

    // What the live soul is now: asked at the start of every run, the run
    // keeping those bytes until it ends.
    void setSoulSource(std::function<QByteArray()> source) { m_soulSource = std::move(source); }

    // The other side of an A/B run, `label` naming it ("snapshot
    // soul.txt", "commit HEAD~1"); cleared, runs are of the live soul only.
    void setAgainst(const QByteArray &soul, const QString &label);
    void clearAgainst();
    bool hasAgainst() const { return !m_againstLabel.isEmpty(); }
    const QString &againstLabel() const { return m_againstLabel; }

    // Runs the suite on the live soul (and the other side, when set); asked
    // while the file is being read, it runs once the file is read.
    // Fails, sending nothing, while the file is bad or names no endpoint or
    // model (runFailed() says so when the run waited for the file).
    Status run();
    void stop();
    bool isRunning() const;
    // Whether a run was asked for since the file was chosen: saves rerun.
    bool hasRun() const { return m_hasRun; }

    const SuiteRun &live() const { return m_live; }
    const SuiteRun &against() const { return m_against; }

    // How case `position` differs between the two sides once both ended it.
    struct Difference
    {
        bool verdict = false; // pass against fail, or another count of passed runs
        bool output = false;  // another reply (the first run's)
        bool any() const { return verdict || output; }
    };
    Difference difference(int position) const;

Q_SIGNALS:
    // The file was read again (valid or not).
    void fileChanged();
    // A run began on either side.
    void started();
    // Case `position` changed on either side.
    void caseChanged(int position);
    void runningChanged(bool running);
    // A run asked for by a save could not start.
    void runFailed(const QString &sentence);

private:
    enum class Load { Chosen, Changed };
    void readFile(Load why);
    void takeLoad();
    void fileMayHaveChanged();
    void runEnded();

    QString m_path;
    QByteArray m_bytes; // the file as last read
    bool m_readable = false;
    bool m_valid = false;
    QString m_error;
    PersonaTestFile m_file;
    PersonaTestSettings m_settings;
    std::function<QByteArray()> m_soulSource;
    KeyConfirmation m_confirmKey;
    QByteArray m_againstSoul;
    QString m_againstLabel;
    bool m_hasRun = false;
    bool m_wasRunning = false;
    QFileSystemWatcher m_watcher;
    QFutureWatcher<PersonaTestsLoad> m_loader;
    // A read asked for while one ran: it starts when that one ends.
    std::optional<Load> m_pendingLoad;
    Load m_runningLoad = Load::Chosen;
    bool m_loading = false; // until the read's result is taken
    bool m_runWhenRead = false;
    SuiteRun m_live;
    SuiteRun m_against;
};

} // namespace soul
