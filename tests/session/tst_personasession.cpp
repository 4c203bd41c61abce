#include "../core/testfiles.h"
#include "disk/recoverystore.h"
#include "documentcontroller.h"
#include "exportcontroller.h"
#include "freezecontroller.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "personasession.h"
#include "registry/runtimeregistry.h"
#include "registry/runtimesoul.h"
#include "runtime/openclaw/openclawsettings.h"
#include "scriptedprompter.h"
#include "tokens/tokenizer.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace soul;
using soul::test::readFile;
using soul::test::ScriptedPrompter;

class tst_PersonaSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void opensEditsAndSaves();
    void closeAsksAboutUnsaved();
    void summaryCountsTokensLintsAndBudget();
    void summaryChangedOncePerUnsavedFlip();
    void identityName_data();
    void identityName();
    void freezeTakesTheRuntimeText();
    void freezeEqualsSoulcExport();
    void exportWritesTheSoul();
    void finishSetupInAReadOnlyFolderSaysSo();
    void setupFileCopyOutlivesAnotherRuntime();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    ScriptedPrompter m_prompter;
    QString m_persona;
};

void tst_PersonaSession::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    m_prompter = ScriptedPrompter();
    m_persona = m_dir->filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(m_persona));
    QVERIFY(test::writeFile(m_persona + QStringLiteral("/SOUL.md"), "You are calm.\n"));
    QVERIFY(
        test::writeFile(m_persona + QStringLiteral("/IDENTITY.md"), "# Who\n\n- **Name:** Wren\n"));
}

void tst_PersonaSession::cleanup()
{
    m_settings.reset();
    m_dir.reset();
}

void tst_PersonaSession::opensEditsAndSaves()
{
    PersonaSession session(&m_prompter, m_settings.get());
    QVERIFY(session.directory().isEmpty());
    QVERIFY(session.documents()->open(m_persona));
    QCOMPARE(session.directory(), QFileInfo(m_persona).absoluteFilePath());
    QCOMPARE(session.displayName(), QStringLiteral("work"));
    QVERIFY(!session.hasUnsaved());

    const int soul = slotIndex(u"SOUL.md");
    session.model()->setBufferText(soul, u"You are calm and brief.");
    QVERIFY(session.hasUnsaved());
    // Nothing is written before Save.
    QCOMPARE(readFile(m_persona + QStringLiteral("/SOUL.md")), QByteArray("You are calm.\n"));
    QVERIFY(session.documents()->saveAll());
    QVERIFY(!session.hasUnsaved());
    QCOMPARE(readFile(m_persona + QStringLiteral("/SOUL.md")),
             QByteArray("You are calm and brief."));
}

void tst_PersonaSession::closeAsksAboutUnsaved()
{
    PersonaSession session(&m_prompter, m_settings.get());
    QVERIFY(session.documents()->open(m_persona));
    const int soul = slotIndex(u"SOUL.md");
    session.model()->setBufferText(soul, u"Edited.");
    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Cancel;
    QVERIFY(!session.documents()->close());
    QCOMPARE(m_prompter.askedUnsaved, QStringList{QStringLiteral("SOUL.md")});
    QVERIFY(session.model()->isOpen());
    QVERIFY(session.hasUnsaved());

    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Discard;
    QVERIFY(session.documents()->close());
    QVERIFY(!session.model()->isOpen());
    QCOMPARE(readFile(m_persona + QStringLiteral("/SOUL.md")), QByteArray("You are calm.\n"));
}

void tst_PersonaSession::summaryCountsTokensLintsAndBudget()
{
    PersonaSession session(&m_prompter, m_settings.get());
    PersonaSession::Agent agent;
    agent.id = QStringLiteral("work");
    agent.folder = m_persona;
    OpenClawSettings small;
    small.bootstrapTotalMaxChars = 1000;
    agent.openClaw = RuntimeProfile::of(RuntimeRegistry::instance().find(u"openclaw"),
                                        small.values());
    session.setAgent(agent);
    QVERIFY(session.documents()->open(m_persona));

    QTRY_VERIFY(session.tokens()->isSettled());
    const PersonaSession::Summary summary = session.summary();
    QCOMPARE(summary.identityName, QStringLiteral("Wren"));
    QVERIFY(!summary.unsaved);
    // The soul's tokens, as the token counter's tokenizer counts the soul.
    const std::shared_ptr<const Tokenizer> tokenizer = session.tokens()->tokenizer();
    QVERIFY(tokenizer);
    QCOMPARE(summary.tokens, qint64(tokenizer->count(session.model()->soul(SoulView::Unsaved))));
    // The agent's own total budget, and what OpenClaw injects under it.
    QCOMPARE(summary.budget, qint64(1000));
    QVERIFY(summary.injected > 0);
    QVERIFY(summary.injected <= 1000);

    // An empty SOUL.md is a lint; unsaved edits count.
    session.model()->setBufferText(slotIndex(u"SOUL.md"), u"");
    const PersonaSession::Summary edited = session.summary();
    QVERIFY(edited.unsaved);
    QVERIFY2(edited.lints > summary.lints,
             qPrintable(QStringLiteral("%1 -> %2").arg(summary.lints).arg(edited.lints)));
}

void tst_PersonaSession::summaryChangedOncePerUnsavedFlip()
{
    PersonaSession session(&m_prompter, m_settings.get());
    QSignalSpy changed(&session, &PersonaSession::summaryChanged);
    QVERIFY(session.documents()->open(m_persona));
    QCOMPARE(changed.count(), 1); // opened
    const int soul = slotIndex(u"SOUL.md");
    session.model()->setBufferText(soul, u"a");
    session.model()->setBufferText(soul, u"ab");
    session.model()->setBufferText(soul, u"abc");
    QCOMPARE(changed.count(), 2); // unsaved from the first keystroke on
    QVERIFY(session.documents()->saveAll());
    QCOMPARE(changed.count(), 3); // saved
}

void tst_PersonaSession::identityName_data()
{
    QTest::addColumn<QByteArray>("identity");
    QTest::addColumn<QString>("name");
    QTest::newRow("template") << QByteArray("# IDENTITY\n\n- **Name:** Ava\n- **Role:** x\n")
                              << QStringLiteral("Ava");
    QTest::newRow("plain") << QByteArray("Name: Rook the Second\n")
                           << QStringLiteral("Rook the Second");
    QTest::newRow("bold key") << QByteArray("**Name**: June\n") << QStringLiteral("June");
    QTest::newRow("lower case") << QByteArray("* name: coach\n") << QStringLiteral("coach");
    QTest::newRow("none") << QByteArray("# Who\n\nA quiet helper named nothing.\n") << QString();
    QTest::newRow("not a key") << QByteArray("Named: x\nsurname: y\n") << QString();
    QTest::newRow("empty") << QByteArray() << QString();
}

void tst_PersonaSession::identityName()
{
    QFETCH(QByteArray, identity);
    QFETCH(QString, name);
    QCOMPARE(PersonaSession::identityName(identity), name);
}

void tst_PersonaSession::freezeTakesTheRuntimeText()
{
    PersonaSession session(&m_prompter, m_settings.get());
    QVERIFY(session.documents()->open(m_persona));
    const RuntimeProfile openClaw = RuntimeProfile::of(
        RuntimeRegistry::instance().find(u"openclaw"));
    session.setRuntimeProfile(openClaw);
    QCOMPARE(session.runtimeProfile(), openClaw);
    m_prompter.snapshotsFolder = m_dir->filePath(QStringLiteral("snapshots"));
    QVERIFY(QDir().mkpath(m_prompter.snapshotsFolder));
    QSignalSpy frozen(session.freezer(), &FreezeController::frozen);
    QVERIFY(session.freezer()->freeze());
    QVERIFY(session.busy() || frozen.count() == 1);
    QVERIFY(frozen.count() == 1 || frozen.wait(10000));
    const QString soulPath = frozen.first().first().toString();
    QCOMPARE(readFile(soulPath), test::composedBy(m_persona, openClaw));
    QVERIFY(m_prompter.errors.isEmpty());
}

// Freeze with OpenClaw chosen writes what `soulc export --runtime openclaw`
// writes: the same text, and the same manifest but for when it was made.
void tst_PersonaSession::freezeEqualsSoulcExport()
{
    QVERIFY(test::writeFile(m_persona + QStringLiteral("/BOOTSTRAP.md"), "Say hello first.\r\n"));
    QVERIFY(test::writeFile(m_persona + QStringLiteral("/MEMORY.md"), QByteArray(30000, 'm')));
    PersonaSession session(&m_prompter, m_settings.get());
    QVERIFY(session.documents()->open(m_persona));
    session.setRuntimeProfile(RuntimeProfile::of(RuntimeRegistry::instance().find(u"openclaw")));
    m_prompter.snapshotsFolder = m_dir->filePath(QStringLiteral("snapshots"));
    QVERIFY(QDir().mkpath(m_prompter.snapshotsFolder));
    QSignalSpy frozen(session.freezer(), &FreezeController::frozen);
    QVERIFY(session.freezer()->freeze());
    QVERIFY(frozen.count() == 1 || frozen.wait(10000));
    const QString frozenPath = frozen.first().first().toString();

    const QString exportPath = m_dir->filePath(QStringLiteral("exported.soul.md"));
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                {QStringLiteral("export"),
                 QStringLiteral("--runtime"),
                 QStringLiteral("openclaw"),
                 m_persona,
                 exportPath});
    QVERIFY(soulc.waitForFinished(30000));
    QVERIFY2(soulc.exitCode() == 0, soulc.readAllStandardError().constData());

    const QByteArray text = readFile(frozenPath);
    QVERIFY(text.contains("Say hello first."));
    QCOMPARE(text, readFile(exportPath));
    const auto manifest = [](const QString &soulPath) {
        QJsonObject object = QJsonDocument::fromJson(
                                 readFile(soulPath + QStringLiteral(".manifest.json")))
                                 .object();
        object.remove(QStringLiteral("createdAt"));
        return object;
    };
    const QJsonObject fromFreeze = manifest(frozenPath);
    QVERIFY(fromFreeze.contains(QStringLiteral("runtime")));
    QCOMPARE(fromFreeze, manifest(exportPath));
}

void tst_PersonaSession::exportWritesTheSoul()
{
    PersonaSession session(&m_prompter, m_settings.get());
    QVERIFY(session.documents()->open(m_persona));
    QSignalSpy exported(session.exporter(), &ExportController::exported);
    const QString path = m_dir->filePath(QStringLiteral("work.soul.md"));
    session.exporter()->exportTo(path, Overwrite::Never);
    QVERIFY(exported.count() == 1 || exported.wait(10000));
    QCOMPARE(readFile(path), test::composedBy(m_persona, RuntimeProfile::toolnexus()));
    QVERIFY(QFile::exists(path + QStringLiteral(".manifest.json")));
}

// OpenClaw's BOOTSTRAP.md in a folder the user may not write to: finishing
// setup says so, naming the file, and nothing is lost.
void tst_PersonaSession::finishSetupInAReadOnlyFolderSaysSo()
{
    if (::geteuid() == 0)
        QSKIP("root may delete from a read-only folder");
    class Finishing : public ScriptedPrompter
    {
    public:
        bool askFinishSetup(const QString &) override { return true; }
    } prompter;
    const QString path = QDir(m_persona).absoluteFilePath(QStringLiteral("BOOTSTRAP.md"));
    const QByteArray bootstrap = "Say hello first.\r\n";
    QVERIFY(test::writeFile(path, bootstrap));
    PersonaSession session(&prompter, m_settings.get());
    QVERIFY(session.documents()->open(m_persona));
    session.setRuntimeProfile(RuntimeProfile::of(RuntimeRegistry::instance().find(u"openclaw")));
    const PersonaModel *model = session.model();
    const int file = session.documents()->setupDocument();
    QVERIFY(file >= SlotCount);
    QVERIFY(model->slot(file).diskPresent());

    QVERIFY(QFile::setPermissions(m_persona, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    const bool finished = session.documents()->finishSetup();
    QVERIFY(QFile::setPermissions(m_persona,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                      | QFileDevice::ExeOwner));
    QVERIFY(!finished);
    QCOMPARE(prompter.errors,
             QStringList(QStringLiteral("Could not finish setup: Could not delete %1, so setup is "
                                        "not finished and the file is kept: Permission denied. "
                                        "Check that you may write to the file and its folder.")
                             .arg(QDir::toNativeSeparators(path))));
    QCOMPARE(readFile(path), bootstrap);
    QVERIFY(model->slot(file).diskPresent());
    QVERIFY(!model->deletedBytes(file));
    QCOMPARE(model->slot(file).bufferBytes, bootstrap);
    QVERIFY(!session.hasUnsaved());
}

QTEST_GUILESS_MAIN(tst_PersonaSession)
// A copy of BOOTSTRAP.md's unsaved text left by a crash is offered on its
// pane, which only OpenClaw shows: opened and closed under another runtime,
// the folder keeps it; answered, it goes.
void tst_PersonaSession::setupFileCopyOutlivesAnotherRuntime()
{
    const QString path = QDir(m_persona).absoluteFilePath(QStringLiteral("BOOTSTRAP.md"));
    const QByteArray disk = "Say hello first.\n";
    const QByteArray unsaved = "Say hello first, then ask their name.\n";
    QVERIFY(test::writeFile(path, disk));
    const QString dir = QFileInfo(m_persona).absoluteFilePath();
    const QString name = QStringLiteral("BOOTSTRAP.md");
    QVERIFY(RecoveryStore(dir).storeFile(name, unsaved, QByteArray()).ok());
    {
        PersonaSession session(&m_prompter, m_settings.get());
        QVERIFY(session.documents()->open(m_persona));
        // toolnexus reads no BOOTSTRAP.md: nothing is offered here.
        QVERIFY(session.runtimeProfile().sectioned());
        QCOMPARE(session.documents()->setupDocument(), -1);
        QVERIFY(session.documents()->recoveredFiles().isEmpty());
        // Unsaved text in a slot, let go: the slots' copies go on closing.
        session.model()->setBufferText(slotIndex(u"SOUL.md"), u"You are calm and brief.");
        session.model()->flushRecovery();
        QVERIFY(!RecoveryStore(dir).pending().isEmpty());
        m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Discard;
        QVERIFY(session.documents()->close());
    }
    QVERIFY(RecoveryStore(dir).pending().isEmpty());
    const std::optional<RecoveredSlot> kept = RecoveryStore(dir).pendingFile(name);
    QVERIFY(kept);
    QCOMPARE(kept->bytes, unsaved);
    QCOMPARE(test::readFile(path), disk);

    // Offered again, and answered: the copy goes.
    PersonaSession session(&m_prompter, m_settings.get());
    session.setRuntimeProfile(RuntimeProfile::of(RuntimeRegistry::instance().find(u"openclaw")));
    QSignalSpy status(session.documents(), &DocumentController::statusMessage);
    QVERIFY(session.documents()->open(m_persona));
    QVERIFY(!status.isEmpty());
    QVERIFY2(status.last().at(0).toString().contains(
                 QStringLiteral("Unsaved text of BOOTSTRAP.md was recovered")),
             qPrintable(status.last().at(0).toString()));
    PersonaModel *model = session.model();
    const int file = session.documents()->setupDocument();
    QVERIFY(model->hasRecovery(file));
    QCOMPARE(model->recovery(file)->bytes, unsaved);
    model->discardRecovery(file);
    QVERIFY(!RecoveryStore(dir).pendingFile(name));
    // This run's own copy of unsaved text, let go on closing, goes too.
    model->setBufferText(file, u"Say hello.\n");
    model->flushRecovery();
    QVERIFY(RecoveryStore(dir).pendingFile(name));
    QVERIFY(session.documents()->close());
    QCOMPARE(m_prompter.askedUnsaved, QStringList{name});
    QVERIFY(!RecoveryStore(dir).pendingFile(name));
    QCOMPARE(test::readFile(path), disk);
}

#include "tst_personasession.moc"
