#include "../core/testfiles.h"
#include "disk/slotlayout.h"
#include "documentcontroller.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "registry/runtimeregistry.h"
#include "runtimepreview.h"
#include "scriptedprompter.h"
#include "tokens/tokenizer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace soul;
using soul::test::ScriptedPrompter;

namespace {

RuntimeProfile profileOf(const QString &id, const RuntimeSettings &settings = {})
{
    return RuntimeProfile::of(RuntimeRegistry::instance().find(id), settings);
}

} // namespace

// The session's runtime preview without a window: the chosen runtime, its
// settings remembered per folder, the composition on its worker and the
// text a caller reads at once.
class tst_RuntimePreview : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void startsWithToolnexus();
    void choosingARuntime();
    void unknownRuntimeChangesNothing();
    void settingsRememberedPerFolder();
    void composesAsSoulc_data();
    void composesAsSoulc();
    void currentTextFreshRightAfterAnEdit_data();
    void currentTextFreshRightAfterAnEdit();
    void staleResultIsDropped();
    void onDiskViewLeavesCurrentTextOnTheBuffers();
    void agentSettingsApplyWhenItsFolderOpens();

private:
    std::unique_ptr<PersonaSession> newSession() const;
    QString makePersona(const QString &name) const;
    // Chooses `id` and waits for its first composition.
    static void chooseAndSettle(RuntimePreview *preview, const QString &id);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    mutable ScriptedPrompter m_prompter;
    QString m_persona;
};

void tst_RuntimePreview::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_RuntimePreview::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    m_prompter = ScriptedPrompter();
    m_persona = makePersona(QStringLiteral("work"));
    QVERIFY(!m_persona.isEmpty());
}

void tst_RuntimePreview::cleanup()
{
    m_settings.reset();
    m_dir.reset();
}

QString tst_RuntimePreview::makePersona(const QString &name) const
{
    const QString dir = m_dir->filePath(name);
    if (!QDir().mkpath(dir))
        return {};
    const QList<std::pair<QString, QByteArray>> files = {
        {QStringLiteral("SOUL.md"), "You are calm and brief.\n"},
        {QStringLiteral("IDENTITY.md"), "# Who\n\n- **Name:** Wren\n"},
        {QStringLiteral("USER.md"),
         "Call me Sam. \xc3\x9c"
         "n\xc3\xaf"
         "code \xe2\x9c\x93\n"},
        {QStringLiteral("AGENTS.md"), "Answer in English.\n"},
        {QStringLiteral("MEMORY.md"), "likes tea\n\xc2\xa7\nreads at night\n"},
    };
    for (const auto &[file, bytes] : files) {
        if (!test::writeFile(dir + QLatin1Char('/') + file, bytes))
            return {};
    }
    return dir;
}

std::unique_ptr<PersonaSession> tst_RuntimePreview::newSession() const
{
    return std::make_unique<PersonaSession>(&m_prompter, m_settings.get());
}

void tst_RuntimePreview::chooseAndSettle(RuntimePreview *preview, const QString &id)
{
    QVERIFY(preview->chooseRuntime(id));
    QCOMPARE(preview->profile().id(), id);
    // A new runtime starts its run in the call: not busy is its result.
    QTRY_VERIFY(preview->shownGeneration() > 0 && !preview->busy());
}

void tst_RuntimePreview::startsWithToolnexus()
{
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    QVERIFY(preview->profile().sectioned());
    QCOMPARE(preview->profile(), RuntimeProfile::toolnexus());
    // Nothing open: nothing to copy.
    QVERIFY(preview->currentText().isEmpty());
    QVERIFY(session->documents()->open(m_persona));
    // Under toolnexus the text is the soul, and no worker runs for it.
    QCOMPARE(preview->currentText(), test::composedBy(m_persona, RuntimeProfile::toolnexus()));
    QVERIFY(!preview->busy());
    QVERIFY(preview->composition().text.isEmpty());
}

void tst_RuntimePreview::choosingARuntime()
{
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    QVERIFY(session->documents()->open(m_persona));
    QSignalSpy profiles(preview, &RuntimePreview::profileChanged);
    QSignalSpy compositions(preview, &RuntimePreview::compositionChanged);

    QVERIFY(preview->chooseRuntime(QStringLiteral("openclaw")));
    QCOMPARE(profiles.count(), 1);
    QCOMPARE(profiles.first().first().value<RuntimeProfile>().id(), QStringLiteral("openclaw"));
    // The session's controllers follow the same choice.
    QCOMPARE(session->runtimeProfile().id(), QStringLiteral("openclaw"));
    // Composed on the worker: the result comes later, never in the call.
    QVERIFY(preview->busy());
    QVERIFY(compositions.wait(10000));
    QTRY_VERIFY(!preview->busy());
    QVERIFY(preview->composition().text.contains(QStringLiteral("You are calm and brief.")));
    QVERIFY(preview->paneView(slotIndex(u"SOUL.md")).active);
    QVERIFY(preview->paneView(slotIndex(u"SOUL.md")).loaded);

    // The same choice again changes nothing.
    QVERIFY(preview->chooseRuntime(QStringLiteral("openclaw")));
    QCOMPARE(profiles.count(), 1);

    // Back to toolnexus: the runtime's text goes.
    QVERIFY(preview->chooseRuntime(QStringLiteral("toolnexus")));
    QCOMPARE(profiles.count(), 2);
    QTRY_VERIFY(preview->composition().text.isEmpty() && !preview->busy());
    QVERIFY(!preview->paneView(slotIndex(u"SOUL.md")).active);
}

void tst_RuntimePreview::unknownRuntimeChangesNothing()
{
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    QSignalSpy profiles(preview, &RuntimePreview::profileChanged);
    QVERIFY(!preview->chooseRuntime(QStringLiteral("no-such-runtime")));
    QCOMPARE(profiles.count(), 0);
    QVERIFY(preview->profile().sectioned());
    QVERIFY(!m_settings->contains(QStringLiteral("preview/runtime")));
}

// A folder opens with the runtime and settings chosen for it; a folder with
// no choice of its own, with the last choice made anywhere.
void tst_RuntimePreview::settingsRememberedPerFolder()
{
    const QString other = makePersona(QStringLiteral("other"));
    QVERIFY(!other.isEmpty());
    const RuntimeProfile tight = profileOf(QStringLiteral("openclaw"),
                                           {{QStringLiteral("bootstrapMaxChars"), 12000}});
    {
        const auto session = newSession();
        RuntimePreview *preview = session->runtimePreview();
        QVERIFY(session->documents()->open(m_persona));
        preview->choose(tight);
        QCOMPARE(preview->profile(), tight);
        QVERIFY(session->documents()->close());
        QVERIFY(session->documents()->open(other));
        // No choice for this folder yet: the last one made.
        QCOMPARE(preview->profile(), tight);
        QVERIFY(preview->chooseRuntime(QStringLiteral("hermes")));
        QVERIFY(session->documents()->close());
    }

    // Another session (a restart) with the same settings.
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    QCOMPARE(preview->profile().id(), QStringLiteral("hermes"));
    // OpenClaw's last settings wait for it to be chosen again.
    QCOMPARE(preview->settingsFor(QStringLiteral("openclaw"))
                 .value(QStringLiteral("bootstrapMaxChars")),
             12000);
    QSignalSpy profiles(preview, &RuntimePreview::profileChanged);
    QVERIFY(session->documents()->open(m_persona));
    QCOMPARE(profiles.count(), 1);
    QCOMPARE(preview->profile(), tight);
    QCOMPARE(session->runtimeProfile(), tight);
    QTRY_VERIFY(!preview->busy() && preview->shownGeneration() > 0);
    QCOMPARE(preview->currentText(), test::composedBy(m_persona, tight));
    QVERIFY(session->documents()->close());
    QVERIFY(session->documents()->open(other));
    QCOMPARE(preview->profile().id(), QStringLiteral("hermes"));

    // Chosen by id, a runtime comes back with its last settings.
    QVERIFY(preview->chooseRuntime(QStringLiteral("openclaw")));
    QCOMPARE(preview->profile(), tight);
}

void tst_RuntimePreview::composesAsSoulc_data()
{
    QTest::addColumn<QString>("runtime");
    QTest::newRow("toolnexus") << QStringLiteral("toolnexus");
    QTest::newRow("openclaw") << QStringLiteral("openclaw");
    QTest::newRow("hermes") << QStringLiteral("hermes");
}

// After edits in the buffers, the composition is what soulc compose writes
// once those edits are saved: the same core code, byte for byte.
void tst_RuntimePreview::composesAsSoulc()
{
    QFETCH(QString, runtime);
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    PersonaModel *model = session->model();
    QVERIFY(session->documents()->open(m_persona));
    chooseAndSettle(preview, runtime);

    QSignalSpy compositions(preview, &RuntimePreview::compositionChanged);
    model->setBufferText(slotIndex(u"SOUL.md"), u"You are calm, brief and kind.\n");
    model->setBufferText(slotIndex(u"MEMORY.md"), u"likes tea\n\u00A7\nwalks at dawn \u2713\n");
    model->setBufferText(slotIndex(u"USER.md"), u"Call me Sam. \U0001D11E\r\nThanks.\r\n");
    if (!preview->profile().sectioned()) {
        QVERIFY(compositions.wait(10000));
        QTRY_VERIFY(preview->upToDate());
    }
    const QByteArray shown = preview->currentText();
    QVERIFY(shown.contains("calm, brief and kind"));
    if (!preview->profile().sectioned()) {
        QCOMPARE(shown, preview->composition().text.toUtf8());
        QCOMPARE(preview->textSha256(),
                 QString::fromLatin1(
                     QCryptographicHash::hash(shown, QCryptographicHash::Sha256).toHex()));
        // Exact tokens, counted on the worker with the session's tokenizer.
        QTRY_VERIFY(preview->sectionTokens() >= 0 && !preview->busy());
        const std::shared_ptr<const Tokenizer> tokenizer = Tokenizer::builtin(
            preview->encodingName());
        QVERIFY(tokenizer);
        QCOMPARE(preview->sectionTokens(), tokenizer->count(shown));
    }

    QVERIFY(session->documents()->saveAll());
    QCOMPARE(shown, test::composedBy(m_persona, preview->profile()));
    // And the program itself, as a user runs it: soulc compose --runtime.
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                {QStringLiteral("compose"), QStringLiteral("--runtime"), runtime, m_persona});
    QVERIFY(soulc.waitForFinished(60000));
    QVERIFY2(soulc.exitStatus() == QProcess::NormalExit && soulc.exitCode() == 0,
             soulc.readAllStandardError().constData());
    QCOMPARE(shown, soulc.readAllStandardOutput());
}

void tst_RuntimePreview::currentTextFreshRightAfterAnEdit_data()
{
    QTest::addColumn<QString>("runtime");
    QTest::addColumn<QString>("file");
    QTest::newRow("toolnexus SOUL.md") << QStringLiteral("toolnexus") << QStringLiteral("SOUL.md");
    QTest::newRow("openclaw SOUL.md") << QStringLiteral("openclaw") << QStringLiteral("SOUL.md");
    QTest::newRow("hermes MEMORY.md") << QStringLiteral("hermes") << QStringLiteral("MEMORY.md");
}

// Right after a keystroke, before the pause, currentText() holds it already,
// and it is the text the worker shows after the pause.
void tst_RuntimePreview::currentTextFreshRightAfterAnEdit()
{
    QFETCH(QString, runtime);
    QFETCH(QString, file);
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    QVERIFY(session->documents()->open(m_persona));
    chooseAndSettle(preview, runtime);
    const bool sectioned = preview->profile().sectioned();
    QVERIFY(sectioned || preview->upToDate());
    const QByteArray before = preview->currentText();

    session->model()->setBufferText(slotIndex(file), u"A keystroke: zebra\n");
    // No event has run: the worker has not even started.
    QVERIFY(sectioned || !preview->upToDate());
    const QByteArray now = preview->currentText();
    QVERIFY2(now.contains("A keystroke: zebra"), now.constData());
    QVERIFY(now != before);
    if (sectioned) {
        QCOMPARE(now, session->model()->soul(SoulView::Unsaved));
        return;
    }
    QVERIFY(preview->busy());
    QTRY_VERIFY(preview->upToDate());
    QCOMPARE(preview->composition().text.toUtf8(), now);
    QCOMPARE(preview->currentText(), now);
}

// A run whose inputs changed while it ran is not shown: the first result
// after the change already holds it.
void tst_RuntimePreview::staleResultIsDropped()
{
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    PersonaModel *model = session->model();
    QVERIFY(session->documents()->open(m_persona));
    chooseAndSettle(preview, QStringLiteral("hermes"));
    const quint64 shown = preview->shownGeneration();

    QSignalSpy compositions(preview, &RuntimePreview::compositionChanged);
    model->setBufferText(slotIndex(u"MEMORY.md"), u"first\n");
    preview->recomputeNow(); // runs with "first"
    model->setBufferText(slotIndex(u"MEMORY.md"), u"second\n");
    preview->recomputeNow(); // waits for that run, which is then out of date
    QVERIFY(compositions.wait(10000));
    QVERIFY(preview->composition().text.contains(QStringLiteral("second")));
    QVERIFY(!preview->composition().text.contains(QStringLiteral("first")));
    QTRY_VERIFY(!preview->busy());
    QCOMPARE(compositions.count(), 1);
    // Two runs asked for, one shown.
    QCOMPARE(preview->shownGeneration(), shown + 2);
}

// The preview may show what is on disk; what a caller reads stays the
// buffers' text.
void tst_RuntimePreview::onDiskViewLeavesCurrentTextOnTheBuffers()
{
    const auto session = newSession();
    RuntimePreview *preview = session->runtimePreview();
    QVERIFY(session->documents()->open(m_persona));
    chooseAndSettle(preview, QStringLiteral("openclaw"));
    session->model()->setBufferText(slotIndex(u"SOUL.md"), u"Unsaved words.\n");
    QTRY_VERIFY(preview->upToDate());
    const QByteArray buffered = preview->currentText();
    QVERIFY(buffered.contains("Unsaved words."));

    QSignalSpy compositions(preview, &RuntimePreview::compositionChanged);
    preview->setView(SoulView::OnDisk);
    QVERIFY(compositions.wait(10000));
    QTRY_VERIFY(!preview->busy());
    QVERIFY(!preview->upToDate());
    QVERIFY(!preview->composition().text.contains(QStringLiteral("Unsaved words.")));
    QVERIFY(preview->composition().text.contains(QStringLiteral("You are calm and brief.")));
    QCOMPARE(preview->currentText(), buffered);
}

// An agent of a roster previews with its own OpenClaw settings.
void tst_RuntimePreview::agentSettingsApplyWhenItsFolderOpens()
{
    const RuntimeProfile own = profileOf(QStringLiteral("openclaw"),
                                         {{QStringLiteral("bootstrapMaxChars"), 8000}});
    {
        const auto first = newSession();
        QVERIFY(first->runtimePreview()->chooseRuntime(QStringLiteral("openclaw")));
    }
    const auto session = newSession();
    PersonaSession::Agent agent;
    agent.id = QStringLiteral("work");
    agent.folder = m_persona;
    agent.openClaw = own;
    session->setAgent(agent);
    QVERIFY(session->documents()->open(m_persona));
    QCOMPARE(session->runtimePreview()->profile(), own);
    QCOMPARE(session->runtimePreview()->settingsFor(QStringLiteral("openclaw")), own.settings);
}

QTEST_GUILESS_MAIN(tst_RuntimePreview)
#include "tst_runtimepreview.moc"
