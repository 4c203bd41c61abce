#include "../core/testfiles.h"
#include "disk/recoverystore.h"
#include "documentcontroller.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "scriptedprompter.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <memory>
#include <vector>

using namespace soul;
using soul::test::ScriptedPrompter;
using soul::test::treeContents;

namespace {

// Runs this executable as the process that crashes.
constexpr char ChildOption[] = "--crash-child";
// Starting a process on a loaded machine can take a while; the child also
// waits one recovery interval (2.5 s) before its copies are written.
constexpr int ProcessTimeoutMs = 60000;

// What each agent holds unsaved when the process dies: a slot of its own,
// its file on disk, and the text typed into its pane (as setBufferText()
// takes a pane's text) with the bytes a save would write. coach's file has
// CR LF line breaks, so its bytes keep them.
struct Unsaved
{
    const char *agent;
    int slot;
    QByteArray onDisk;
    const char16_t *typed;
    QByteArray bytes;
};

const std::vector<Unsaved> &unsavedText()
{
    static const std::vector<Unsaved> agents = {
        {"work",
         slotIndex(u"SOUL.md"),
         "You are work.\n",
         u"You are work.\nUnsaved in work: \u00fcn\u00efcode \u2713\n",
         "You are work.\nUnsaved in work: \xc3\xbcn\xc3\xaf"
         "code \xe2\x9c\x93\n"},
        {"coach",
         slotIndex(u"USER.md"),
         "The user is Sam.\r\n",
         u"The user is Sam.\nUnsaved in coach.\n",
         "The user is Sam.\r\nUnsaved in coach.\r\n"},
    };
    return agents;
}

// The crashing process: opens each folder in `dirs` (in unsavedText()'s
// order) as a session of its own, types that agent's unsaved text, waits
// until both recovery copies are written, says "ready" and waits to be
// killed.
int runChild(const QString &settingsPath, const QStringList &dirs)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    const std::vector<Unsaved> &agents = unsavedText();
    if (dirs.size() != qsizetype(agents.size())) {
        err << "crash child: give one folder per agent" << Qt::endl;
        return 2;
    }
    ScriptedPrompter prompter;
    QSettings settings(settingsPath, QSettings::IniFormat);
    std::vector<std::unique_ptr<PersonaSession>> sessions;
    for (size_t i = 0; i < agents.size(); ++i) {
        auto session = std::make_unique<PersonaSession>(&prompter, &settings);
        if (!session->documents()->open(dirs.at(qsizetype(i)))) {
            err << "crash child: cannot open " << dirs.at(qsizetype(i)) << Qt::endl;
            return 2;
        }
        session->model()->setBufferText(agents[i].slot, agents[i].typed);
        sessions.push_back(std::move(session));
    }
    // Written by each model's own recovery timer, as in the program.
    const bool written = QTest::qWaitFor(
        [&] {
            for (size_t i = 0; i < agents.size(); ++i) {
                const QList<RecoveredSlot> kept = RecoveryStore(dirs.at(qsizetype(i))).pending();
                if (kept.size() != 1 || kept.first().bytes != agents[i].bytes)
                    return false;
            }
            return true;
        },
        ProcessTimeoutMs);
    if (!written) {
        err << "crash child: the recovery copies were not written" << Qt::endl;
        return 3;
    }
    out << "crash child: ready" << Qt::endl;
    // Killed by the test; should the test itself die first, this ends it.
    QTimer::singleShot(ProcessTimeoutMs, qApp, [] { QCoreApplication::exit(4); });
    return QCoreApplication::exec();
}

} // namespace

// A crash with unsaved text in two agents: a child process holds two
// sessions with unsaved text and is killed with SIGKILL once their recovery
// copies are written; opened again, each agent offers its own text, byte for
// byte, and no file of either folder was written.
//
// The child and this process share one temporary HOME and XDG_DATA_HOME, so
// both find the recovery copies in the same place, away from the user's.
class tst_SessionCrash : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void killedWithTwoAgentsUnsavedRestoresBoth();

private:
    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<QTemporaryDir> m_dir;
    QStringList m_folders;
    std::unique_ptr<QProcess> m_child;
    QByteArray m_output;
};

void tst_SessionCrash::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_home->isValid() && m_dir->isValid());
    qputenv("HOME", QFile::encodeName(m_home->path()));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_home->filePath(QStringLiteral("data"))));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home->filePath(QStringLiteral("config"))));
    QVERIFY2(RecoveryStore::rootPath().startsWith(m_home->path()),
             qPrintable(RecoveryStore::rootPath()));
    m_folders.clear();
    for (const Unsaved &agent : unsavedText()) {
        const QString dir = m_dir->filePath(QString::fromLatin1(agent.agent));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(test::writeSlot(dir, agent.slot, agent.onDisk));
        QVERIFY(test::writeSlot(dir,
                                slotIndex(u"IDENTITY.md"),
                                QByteArray("- **Name:** ") + agent.agent + "\n"));
        m_folders.append(dir);
    }
    m_output.clear();
}

void tst_SessionCrash::cleanup()
{
    if (m_child && m_child->state() != QProcess::NotRunning) {
        m_child->kill();
        m_child->waitForFinished(ProcessTimeoutMs);
    }
    m_child.reset();
    m_dir.reset();
    m_home.reset();
}

void tst_SessionCrash::killedWithTwoAgentsUnsavedRestoresBoth()
{
    QMap<QString, QByteArray> before;
    for (const QString &dir : std::as_const(m_folders))
        before.insert(treeContents(dir));

    m_child = std::make_unique<QProcess>();
    m_child->setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    m_child->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(m_child.get(), &QProcess::readyReadStandardOutput, this, [this] {
        m_output += m_child->readAllStandardOutput();
    });
    m_child->start(QCoreApplication::applicationFilePath(),
                   QStringList{QString::fromLatin1(ChildOption),
                               m_dir->filePath(QStringLiteral("child.ini"))}
                       + m_folders);
    QVERIFY2(m_child->waitForStarted(ProcessTimeoutMs), qPrintable(m_child->errorString()));
    QTRY_VERIFY2_WITH_TIMEOUT(m_output.contains("crash child: ready")
                                  || m_child->state() == QProcess::NotRunning,
                              m_output.constData(),
                              ProcessTimeoutMs);
    QVERIFY2(m_child->state() == QProcess::Running, m_output.constData());

    m_child->kill(); // SIGKILL: no handler, no destructor, no flush, as a crash
    QVERIFY(m_child->waitForFinished(ProcessTimeoutMs));
    QCOMPARE(m_child->exitStatus(), QProcess::CrashExit);
    QVERIFY(!m_output.contains("crash child: the recovery"));

    // The crash left the folders as they were and a copy for each agent.
    QMap<QString, QByteArray> after;
    for (const QString &dir : std::as_const(m_folders))
        after.insert(treeContents(dir));
    QCOMPARE(after, before);

    // Opened again, each in a session of its own, as the window's roster
    // opens every agent.
    ScriptedPrompter prompter;
    QSettings settings(m_dir->filePath(QStringLiteral("again.ini")), QSettings::IniFormat);
    std::vector<std::unique_ptr<PersonaSession>> sessions;
    for (qsizetype i = 0; i < m_folders.size(); ++i) {
        const Unsaved &agent = unsavedText().at(size_t(i));
        auto session = std::make_unique<PersonaSession>(&prompter, &settings);
        QVERIFY(session->documents()->open(m_folders.at(i)));
        PersonaModel *model = session->model();
        // The lock of the killed process is stale: this one keeps copies.
        QVERIFY2(model->recoveryUnavailable().isEmpty(), qPrintable(model->recoveryUnavailable()));
        // Offered, not applied: the pane shows the file until restored.
        for (int k = 0; k < SlotCount; ++k)
            QCOMPARE(model->hasRecovery(k), k == agent.slot);
        QVERIFY(!model->hasUnsaved());
        QCOMPARE(model->slot(agent.slot).bufferBytes, agent.onDisk);
        const std::optional<RecoveredSlot> offer = model->recovery(agent.slot);
        QVERIFY(offer);
        QCOMPARE(offer->fileName, slotName(agent.slot));
        QCOMPARE(offer->bytes, agent.bytes);
        QVERIFY(!model->recoveryPredatesDisk(agent.slot));

        model->restoreRecovery(agent.slot);
        QVERIFY(!model->hasRecovery(agent.slot));
        QCOMPARE(model->slot(agent.slot).bufferBytes, agent.bytes);
        QVERIFY(model->slot(agent.slot).dirty);
        sessions.push_back(std::move(session));
    }
    // Both restored, still unsaved: nothing was written.
    QMap<QString, QByteArray> restored;
    for (const QString &dir : std::as_const(m_folders))
        restored.insert(treeContents(dir));
    QCOMPARE(restored, before);
    for (const auto &session : sessions)
        QVERIFY(session->hasUnsaved());

    // Saved, each file holds exactly the text typed before the crash.
    for (size_t i = 0; i < sessions.size(); ++i) {
        QVERIFY(sessions[i]->documents()->saveAll());
        const Unsaved &agent = unsavedText().at(i);
        QCOMPARE(test::readFile(QDir(m_folders.at(qsizetype(i))).filePath(slotName(agent.slot))),
                 agent.bytes);
    }
}

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc >= 3 && qstrcmp(argv[1], ChildOption) == 0) {
        const QStringList args = QCoreApplication::arguments();
        return runChild(args.at(2), args.mid(3));
    }
    tst_SessionCrash test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_sessioncrash.moc"
