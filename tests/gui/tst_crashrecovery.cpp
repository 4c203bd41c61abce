#include "compose/contract.h"
#include "disk/recoverystore.h"
#include "documentcontroller.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "preview/previewpanel.h"
#include "quietprompter.h"
#include "slots/panestack.h"
#include "slots/recoverybar.h"
#include "slots/slotpane.h"
#include "window/mainwindow.h"
#include "window/personaeditor.h"

#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;
using namespace soul::guitest;

namespace {

constexpr int Soul = 1;
constexpr int Memory = 6;
// Starting the real binary under a loaded machine can take a while.
constexpr int ProcessTimeoutMs = 60000;

class TestPrompter final : public QuietPrompter
{
public:
    UnsavedAnswer unsavedAnswer = UnsavedAnswer::Discard;
    QString lastDiff;

    UnsavedAnswer askUnsaved(const QStringList &) override { return unsavedAnswer; }
    void showCompare(const QString &, const QString &diff) override { lastDiff = diff; }
};

QString editorText(const SlotPane *pane)
{
    return pane->editor()->document()->toRawText().replace(QChar::ParagraphSeparator,
                                                           QLatin1Char('\n'));
}

} // namespace

// Crash recovery against the real soulstudio binary: it is killed with
// SIGKILL while a pane holds unsaved text, and the folder is opened again.
//
// The child and this process share one isolated HOME and XDG_DATA_HOME, so
// RecoveryStore here resolves to the folder the child writes, and the user's
// own data is never touched.
class tst_CrashRecovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void killedProcessLeavesTextToRestore();
    void cleanQuitLeavesNoRecoveryFiles();
    void cancelledQuitKeepsRecoveryFiles();
    void killedProcessLeavesBootstrapTextToRestore();

private:
    // Starts soulstudio on the persona, reading test commands from stdin.
    void start();
    void command(const QByteArray &line);
    QMap<QString, QByteArray> personaFiles() const;
    QStringList recoveryFiles() const;
    QString indexPath() const
    {
        return RecoveryStore(m_persona).storePath() + QStringLiteral("/index.json");
    }

    std::unique_ptr<QTemporaryDir> m_home;
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_persona;
    std::unique_ptr<QProcess> m_process;
    QByteArray m_output;
};

void tst_CrashRecovery::initTestCase()
{
    // The names soulstudio's main() sets, so both processes agree on
    // <data>/SoulStudio/soulstudio/recovery.
    QCoreApplication::setOrganizationName(QStringLiteral("SoulStudio"));
    QCoreApplication::setApplicationName(QStringLiteral("soulstudio"));
}

void tst_CrashRecovery::init()
{
    m_home = std::make_unique<QTemporaryDir>();
    m_tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(m_home->isValid() && m_tmp->isValid());
    qputenv("HOME", QFile::encodeName(m_home->path()));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_home->filePath(QStringLiteral("data"))));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home->filePath(QStringLiteral("config"))));
    QVERIFY(RecoveryStore::rootPath().startsWith(m_home->path()));
    QCOMPARE(RecoveryStore::rootPath(),
             m_home->filePath(QStringLiteral("data/SoulStudio/soulstudio/recovery")));

    m_persona = m_tmp->filePath(QStringLiteral("persona"));
    QVERIFY(QDir().mkpath(m_persona));
    QVERIFY(writeInPlace(slotPath(m_persona, 0), "# Rules\r\n\r\nBe brief.\r\n"));
    QVERIFY(writeInPlace(slotPath(m_persona, Soul), "You are Kip.\n"));
    QVERIFY(writeInPlace(slotPath(m_persona, Memory), "- prefers metric units"));
    m_output.clear();
}

void tst_CrashRecovery::cleanup()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(ProcessTimeoutMs);
    }
    m_process.reset();
    m_tmp.reset();
    m_home.reset();
}

void tst_CrashRecovery::start()
{
    m_process = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), m_home->path());
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_home->filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home->filePath(QStringLiteral("config")));
    m_process->setProcessEnvironment(env);
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(m_process.get(), &QProcess::readyReadStandardOutput, this, [this] {
        m_output += m_process->readAllStandardOutput();
    });
    m_process->start(QStringLiteral(SOUL_BIN_DIR "/soulstudio"),
                     {QStringLiteral("--test-stdin"), m_persona});
    QVERIFY2(m_process->waitForStarted(ProcessTimeoutMs), qPrintable(m_process->errorString()));
}

void tst_CrashRecovery::command(const QByteArray &line)
{
    m_process->write(line + '\n');
    QTRY_VERIFY2_WITH_TIMEOUT(m_output.contains("soulstudio: done " + line),
                              m_output.constData(),
                              ProcessTimeoutMs);
}

QMap<QString, QByteArray> tst_CrashRecovery::personaFiles() const
{
    return treeContents(m_persona);
}

QStringList tst_CrashRecovery::recoveryFiles() const
{
    QStringList files;
    QDirIterator it(m_home->filePath(QStringLiteral("data")),
                    QDir::Files | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    return files;
}

void tst_CrashRecovery::killedProcessLeavesTextToRestore()
{
    const QMap<QString, QByteArray> before = personaFiles();
    start();
    command("edit SOUL.md You are Kip.\\nRecovered after a crash.\\n");
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(indexPath()), ProcessTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(RecoveryStore(m_persona).pending().size() == 1, ProcessTimeoutMs);

    m_process->kill(); // SIGKILL: no handler, no clean-up, as a crash
    QVERIFY(m_process->waitForFinished(ProcessTimeoutMs));
    QCOMPARE(m_process->exitStatus(), QProcess::CrashExit);
    QCOMPARE(personaFiles(), before);
    QVERIFY(QFileInfo::exists(indexPath()));

    // Opened again: the text is offered, not applied.
    MainWindow::Options options;
    options.settingsFile = m_tmp->filePath(QStringLiteral("settings.ini"));
    MainWindow window(options);
    auto owned = std::make_unique<TestPrompter>();
    TestPrompter *prompter = owned.get();
    window.setPrompter(std::move(owned));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.start(m_persona);
    QVERIFY(window.model()->isOpen());
    SlotPane *pane = window.panes()->pane(Soul);
    RecoveryBar *bar = pane->recoveryBar();
    QVERIFY(bar->isVisible());
    QVERIFY2(bar->message().startsWith(QStringLiteral("Unsaved text of SOUL.md from ")),
             qPrintable(bar->message()));
    QVERIFY(!bar->message().contains(QStringLiteral("changed on disk")));
    QVERIFY(!window.panes()->pane(Memory)->recoveryBar()->isVisible());
    QCOMPARE(editorText(pane), QStringLiteral("You are Kip.\n"));
    QVERIFY(!window.model()->hasUnsaved());

    QTest::keyClick(&window, Qt::Key_P, Qt::AltModifier); // Compare
    QTRY_VERIFY2(prompter->lastDiff.contains(QStringLiteral("+Recovered after a crash.")),
                 qPrintable(prompter->lastDiff));

    QTest::mouseClick(bar->restoreButton(), Qt::LeftButton);
    QVERIFY(!bar->isVisible());
    QCOMPARE(editorText(pane), QStringLiteral("You are Kip.\nRecovered after a crash.\n"));
    QVERIFY(window.model()->slot(Soul).dirty);
    QCOMPARE(personaFiles(), before);

    // Discarding on close is the user's answer: no copies are left.
    prompter->unsavedAnswer = Prompter::UnsavedAnswer::Discard;
    QVERIFY(window.close());
    QCOMPARE(recoveryFiles(), QStringList());
    QCOMPARE(personaFiles(), before);
}

void tst_CrashRecovery::cleanQuitLeavesNoRecoveryFiles()
{
    const QMap<QString, QByteArray> before = personaFiles();
    start();
    command("edit MEMORY.md - prefers metric units\\n- drinks tea");
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(indexPath()), ProcessTimeoutMs);
    m_process->write("quit discard\n");
    QVERIFY(m_process->waitForFinished(ProcessTimeoutMs));
    QCOMPARE(m_process->exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_process->exitCode(), 0);
    QCOMPARE(recoveryFiles(), QStringList());
    QCOMPARE(personaFiles(), before);
}

void tst_CrashRecovery::cancelledQuitKeepsRecoveryFiles()
{
    start();
    command("edit MEMORY.md kept");
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(indexPath()), ProcessTimeoutMs);
    command("quit cancel");
    QCOMPARE(m_process->state(), QProcess::Running);
    QVERIFY(QFileInfo::exists(indexPath()));
    QCOMPARE(RecoveryStore(m_persona).pending().value(0).bytes, QByteArray("kept"));
}

// OpenClaw's BOOTSTRAP.md has its own pane beside the slots: its unsaved
// text is kept and offered back as theirs is, byte for byte.
void tst_CrashRecovery::killedProcessLeavesBootstrapTextToRestore()
{
    const QString bootstrap = QDir(m_persona).filePath(QStringLiteral("BOOTSTRAP.md"));
    QVERIFY(writeInPlace(bootstrap, "# Hello\r\n\r\nAsk who they are.\r\n"));
    // Typed with '\n'; the file's CR LF is what a save would write.
    const QByteArray typed = "# Hello\r\n\r\nAsk who they are.\r\nThen pick a name.\r\n";
    const QMap<QString, QByteArray> before = personaFiles();
    start();
    command("runtime openclaw");
    command("edit BOOTSTRAP.md # Hello\\n\\nAsk who they are.\\nThen pick a name.\\n");
    QTRY_COMPARE_WITH_TIMEOUT(RecoveryStore(m_persona)
                                  .pendingFile(QStringLiteral("BOOTSTRAP.md"))
                                  .value_or(RecoveredSlot())
                                  .bytes,
                              typed,
                              ProcessTimeoutMs);
    // Not a slot: the slots' offers leave it out.
    QVERIFY(RecoveryStore(m_persona).pending().isEmpty());

    m_process->kill(); // SIGKILL, as a crash
    QVERIFY(m_process->waitForFinished(ProcessTimeoutMs));
    QCOMPARE(m_process->exitStatus(), QProcess::CrashExit);
    QCOMPARE(personaFiles(), before);

    MainWindow::Options options;
    options.settingsFile = m_tmp->filePath(QStringLiteral("settings.ini"));
    MainWindow window(options);
    auto owned = std::make_unique<TestPrompter>();
    TestPrompter *prompter = owned.get();
    window.setPrompter(std::move(owned));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.start(m_persona);
    QVERIFY(window.model()->isOpen());
    QComboBox *chooser = window.previewPanel()->runtimeChooser();
    chooser->setCurrentIndex(chooser->findData(QStringLiteral("openclaw")));
    SlotPane *pane = window.currentEditor()->setupPane();
    QVERIFY(pane);
    const PersonaModel *model = window.model();
    const int file = pane->slot();
    QCOMPARE(model->slotLabel(file), QStringLiteral("BOOTSTRAP.md"));
    RecoveryBar *bar = pane->recoveryBar();
    QTRY_VERIFY(bar->isVisible());
    // As a slot's offer: the keyboard is on Restore.
    QTRY_VERIFY(bar->restoreButton()->hasFocus());
    QVERIFY2(bar->message().startsWith(QStringLiteral("Unsaved text of BOOTSTRAP.md from ")),
             qPrintable(bar->message()));
    QVERIFY(!bar->message().contains(QStringLiteral("changed on disk")));
    // Offered, not applied: the pane shows the file and takes no typing.
    QCOMPARE(pane->editor()->toPlainText(), QStringLiteral("# Hello\n\nAsk who they are.\n"));
    QVERIFY(pane->editor()->isReadOnly());
    QVERIFY(!model->slot(file).dirty);

    QTest::keyClick(&window, Qt::Key_P, Qt::AltModifier); // Compare
    QTRY_VERIFY2(prompter->lastDiff.contains(QStringLiteral("+Then pick a name.")),
                 qPrintable(prompter->lastDiff));

    QTest::mouseClick(bar->restoreButton(), Qt::LeftButton);
    QVERIFY(!bar->isVisible());
    QVERIFY(!pane->editor()->isReadOnly());
    QCOMPARE(model->slot(file).bufferBytes, typed);
    QVERIFY(model->slot(file).dirty);
    QVERIFY(pane->dirtyLabel()->text().contains(QStringLiteral("unsaved")));
    QCOMPARE(personaFiles(), before);

    prompter->unsavedAnswer = Prompter::UnsavedAnswer::Discard;
    QVERIFY(window.close());
    QCOMPARE(recoveryFiles(), QStringList());
    QCOMPARE(personaFiles(), before);
}

QTEST_MAIN(tst_CrashRecovery)
#include "tst_crashrecovery.moc"
