#include "../core/testfiles.h"
#include "agentlistmodel.h"
#include "agents/openclawpaths.h"
#include "agents/openclawroster.h"
#include "documentcontroller.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "recentplace.h"
#include "scriptedprompter.h"
#include "workspace.h"

#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;
using soul::test::ScriptedPrompter;

// The sessions a window holds, without the window: a folder, a folder of
// personas opened one per turn of the event loop, closing through the
// Prompter, the current session and the sidebar's rows.
class tst_Workspace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void opensAFolderInTheOneSession();
    void opensAFolderOfPersonas();
    void rosterFoldersOpenInTurnsOrOnDemand();
    void closeAllCancelledKeepsEverything();
    void closeAllWithAFailingSaveClosesNothing();
    void closeAllDiscardedClosesEveryFolder();
    void closeAtDropsThatAgent();
    void closeAtTheLastAgentLeavesTheRoster();
    void currentIndexFollowsTheChoice();
    void folderJoinsTheRoster();
    void openClawAgentsShowTheDefaultAndAMissingWorkspace();
    void sidebarRowsShowTheSummaryAndUnsavedMark();
    void recentHomeRoundTrip();
    void recentHomeReadsTheOldKeys();

private:
    // Personas `names` under a folder of their own; returns that folder.
    QString makePersonas(const QStringList &names);
    int indexOf(const Workspace &workspace, const QString &id) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    ScriptedPrompter m_prompter;
};

void tst_Workspace::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_Workspace::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    m_prompter = ScriptedPrompter();
}

void tst_Workspace::cleanup()
{
    qunsetenv("OPENCLAW_STATE_DIR");
    m_settings.reset();
    m_dir.reset();
}

QString tst_Workspace::makePersonas(const QStringList &names)
{
    const QString parent = m_dir->filePath(QStringLiteral("personas"));
    for (const QString &name : names) {
        const QString dir = parent + QLatin1Char('/') + name;
        QDir().mkpath(dir);
        test::writeFile(dir + QStringLiteral("/SOUL.md"), "You are " + name.toUtf8() + ".\n");
        test::writeFile(dir + QStringLiteral("/USER.md"), "The user.\n");
        test::writeFile(dir + QStringLiteral("/IDENTITY.md"),
                        "- **Name:** " + name.toUpper().toUtf8() + "\n");
    }
    return parent;
}

int tst_Workspace::indexOf(const Workspace &workspace, const QString &id) const
{
    for (int i = 0; i < workspace.count(); ++i) {
        if (workspace.at(i)->agent().id == id)
            return i;
    }
    return -1;
}

void tst_Workspace::opensAFolderInTheOneSession()
{
    const QString parent = makePersonas({QStringLiteral("ava")});
    Workspace workspace(&m_prompter, m_settings.get());
    QSignalSpy added(&workspace, &Workspace::sessionAdded);
    QCOMPARE(workspace.count(), 1);
    QVERIFY(!workspace.current()->model()->isOpen());
    QCOMPARE(workspace.currentTitle(), QString());
    QCOMPARE(workspace.currentPlace(), QStringLiteral("No folder open"));

    QVERIFY(workspace.openFolder(parent + QStringLiteral("/ava")));
    QCOMPARE(workspace.currentTitle(), QStringLiteral("ava"));
    QCOMPARE(workspace.currentPlace(), QDir::toNativeSeparators(parent + QStringLiteral("/ava")));
    QCOMPARE(workspace.count(), 1);
    QCOMPARE(added.count(), 0);
    QVERIFY(!workspace.isRoster());
    QVERIFY(workspace.current()->model()->isOpen());
    QCOMPARE(workspace.current()->model()->slot(slotIndex(u"SOUL.md")).bufferBytes,
             QByteArray("You are ava.\n"));
    QCOMPARE(workspace.agents()->source(), QString());
}

void tst_Workspace::opensAFolderOfPersonas()
{
    const QString parent = makePersonas(
        {QStringLiteral("ava"), QStringLiteral("kip"), QStringLiteral("zed")});
    Workspace workspace(&m_prompter, m_settings.get());
    QSignalSpy roster(&workspace, &Workspace::rosterChanged);
    QVERIFY(workspace.openPersonaFolder(parent));
    // Right as soon as it returns: the sessions, their agents, and any
    // session's text when asked for.
    QCOMPARE(workspace.count(), 3);
    QVERIFY(workspace.isRoster());
    QCOMPARE(roster.count(), 1);
    QCOMPARE(roster.first().first().toBool(), true);
    QCOMPARE(workspace.at(0)->agent().id, QStringLiteral("ava"));
    QCOMPARE(workspace.at(2)->agent().id, QStringLiteral("zed"));
    QCOMPARE(workspace.session(2)->model()->slot(slotIndex(u"SOUL.md")).bufferBytes,
             QByteArray("You are zed.\n"));
    QCOMPARE(workspace.agents()->rowCount(), 3);
    QVERIFY(workspace.agents()->source().contains(QDir::toNativeSeparators(parent)));
    QVERIFY(m_prompter.errors.isEmpty());
}

void tst_Workspace::rosterFoldersOpenInTurnsOrOnDemand()
{
    const QString parent = makePersonas(
        {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")});
    Workspace workspace(&m_prompter, m_settings.get());
    QSignalSpy opening(&workspace, &Workspace::sessionOpening);
    QVERIFY(workspace.openPersonaFolder(parent));
    // The shown one is read at once; the others wait their turn.
    QCOMPARE(workspace.currentIndex(), 0);
    QVERIFY(!workspace.isWaiting(0));
    QVERIFY(workspace.at(0)->model()->isOpen());
    QVERIFY(workspace.isWaiting(3));
    QVERIFY(!workspace.at(3)->model()->isOpen());
    QCOMPARE(opening.count(), 1);
    QCOMPARE(opening.first().first().toInt(), 0);

    // Asked for, a waiting one is read at once, before its turn.
    QVERIFY(workspace.session(3)->model()->isOpen());
    QVERIFY(!workspace.isWaiting(3));
    QCOMPARE(opening.count(), 2);
    QCOMPARE(opening.last().first().toInt(), 3);

    QTRY_VERIFY(!workspace.isWaiting(1) && !workspace.isWaiting(2));
    // Each announced once, before its folder was read.
    QCOMPARE(opening.count(), 4);
    for (int i = 0; i < workspace.count(); ++i) {
        QVERIFY(!workspace.isWaiting(i));
        QVERIFY(workspace.at(i)->model()->isOpen());
    }
}

void tst_Workspace::closeAllCancelledKeepsEverything()
{
    const QString parent = makePersonas({QStringLiteral("ava"), QStringLiteral("kip")});
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));
    workspace.openWaiting();
    workspace.session(0)->model()->setBufferText(slotIndex(u"SOUL.md"), u"Changed.");
    workspace.session(1)->model()->setBufferText(slotIndex(u"USER.md"), u"Changed.");

    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Cancel;
    QVERIFY(!workspace.closeAll());
    // Asked once, naming every agent's file.
    QCOMPARE(m_prompter.askedUnsaved,
             QStringList({QStringLiteral("ava: SOUL.md"), QStringLiteral("kip: USER.md")}));
    QCOMPARE(workspace.count(), 2);
    QVERIFY(workspace.at(0)->model()->isOpen());
    QVERIFY(workspace.at(1)->model()->isOpen());
    QVERIFY(workspace.at(0)->hasUnsaved());
    QVERIFY(workspace.at(1)->hasUnsaved());
}

void tst_Workspace::closeAllWithAFailingSaveClosesNothing()
{
    const QString parent = makePersonas({QStringLiteral("ava"), QStringLiteral("kip")});
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));
    workspace.openWaiting();
    workspace.session(0)->model()->setBufferText(slotIndex(u"SOUL.md"), u"Changed.");
    workspace.session(1)->model()->setBufferText(slotIndex(u"SOUL.md"), u"Changed too.");
    // Another program changed ava's SOUL.md: saving over it is refused (the
    // double does not answer the question, so it never overwrites).
    QVERIFY(test::writeFile(parent + QStringLiteral("/ava/SOUL.md"), "Changed elsewhere.\n"));

    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::SaveAll;
    QVERIFY(!workspace.closeAll());
    QCOMPARE(workspace.count(), 2);
    QVERIFY(workspace.at(0)->model()->isOpen());
    QVERIFY(workspace.at(1)->model()->isOpen());
    QVERIFY(workspace.at(0)->hasUnsaved());
    QVERIFY(workspace.at(1)->hasUnsaved());
    QCOMPARE(test::readFile(parent + QStringLiteral("/ava/SOUL.md")),
             QByteArray("Changed elsewhere.\n"));
}

void tst_Workspace::closeAllDiscardedClosesEveryFolder()
{
    const QString parent = makePersonas({QStringLiteral("ava"), QStringLiteral("kip")});
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));
    workspace.session(1)->model()->setBufferText(slotIndex(u"SOUL.md"), u"Changed.");
    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Discard;
    QVERIFY(workspace.closeAll());
    QCOMPARE(workspace.count(), 2);
    QVERIFY(!workspace.at(0)->model()->isOpen());
    QVERIFY(!workspace.at(1)->model()->isOpen());
    QCOMPARE(test::readFile(parent + QStringLiteral("/kip/SOUL.md")), QByteArray("You are kip.\n"));
}

void tst_Workspace::closeAtDropsThatAgent()
{
    const QString parent = makePersonas(
        {QStringLiteral("ava"), QStringLiteral("kip"), QStringLiteral("zed")});
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));
    workspace.setCurrentIndex(2);
    QSignalSpy removed(&workspace, &Workspace::sessionRemoved);

    // Unsaved text in kip, the answer Cancel: nothing happens.
    workspace.session(1)->model()->setBufferText(slotIndex(u"SOUL.md"), u"Changed.");
    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Cancel;
    QVERIFY(!workspace.closeAt(1));
    QCOMPARE(workspace.count(), 3);
    QCOMPARE(removed.count(), 0);

    m_prompter.unsavedAnswer = Prompter::UnsavedAnswer::Discard;
    QVERIFY(workspace.closeAt(1));
    QCOMPARE(workspace.count(), 2);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.first().first().toInt(), 1);
    QCOMPARE(workspace.agents()->rowCount(), 2);
    // zed is still the one shown, now at 1.
    QCOMPARE(workspace.currentIndex(), 1);
    QCOMPARE(workspace.current()->agent().id, QStringLiteral("zed"));
    QCOMPARE(indexOf(workspace, QStringLiteral("kip")), -1);
    QVERIFY(!workspace.closeAt(5));
}

void tst_Workspace::closeAtTheLastAgentLeavesTheRoster()
{
    const QString parent = makePersonas({QStringLiteral("ava"), QStringLiteral("kip")});
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));
    QSignalSpy roster(&workspace, &Workspace::rosterChanged);
    QVERIFY(workspace.closeAt(0));
    QVERIFY(workspace.isRoster());
    QCOMPARE(workspace.current()->agent().id, QStringLiteral("kip"));
    QVERIFY(workspace.closeAt(0));
    QCOMPARE(workspace.count(), 1);
    QVERIFY(!workspace.isRoster());
    QCOMPARE(roster.count(), 1);
    QCOMPARE(roster.first().first().toBool(), false);
    QVERIFY(workspace.current()->agent().id.isEmpty());
    QVERIFY(!workspace.current()->model()->isOpen());
    QCOMPARE(workspace.agents()->source(), QString());
}

void tst_Workspace::currentIndexFollowsTheChoice()
{
    const QString parent = makePersonas(
        {QStringLiteral("ava"), QStringLiteral("kip"), QStringLiteral("zed")});
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));
    QSignalSpy current(&workspace, &Workspace::currentChanged);
    workspace.setCurrentIndex(2);
    QCOMPARE(workspace.currentIndex(), 2);
    QCOMPARE(current.count(), 1);
    QCOMPARE(current.first().first().toInt(), 2);
    // The one chosen is read at once, whatever its turn.
    QVERIFY(workspace.current()->model()->isOpen());
    workspace.setCurrentIndex(7);
    workspace.setCurrentIndex(-1);
    QCOMPARE(workspace.currentIndex(), 2);
    QCOMPARE(current.count(), 1);
}

void tst_Workspace::folderJoinsTheRoster()
{
    const QString parent = makePersonas({QStringLiteral("ava"), QStringLiteral("kip")});
    const QString other = m_dir->filePath(QStringLiteral("other"));
    QVERIFY(QDir().mkpath(other));
    QVERIFY(test::writeFile(other + QStringLiteral("/SOUL.md"), "Other.\n"));
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));

    // A folder of the roster is shown, not opened twice.
    QVERIFY(workspace.openFolder(parent + QStringLiteral("/kip")));
    QCOMPARE(workspace.count(), 2);
    QCOMPARE(workspace.currentIndex(), 1);

    QVERIFY(workspace.openFolder(other));
    QCOMPARE(workspace.count(), 3);
    QCOMPARE(workspace.currentIndex(), 2);
    QCOMPARE(workspace.current()->agent().id, QStringLiteral("other"));
    QVERIFY(workspace.current()->model()->isOpen());
}

void tst_Workspace::openClawAgentsShowTheDefaultAndAMissingWorkspace()
{
    const QString state = m_dir->filePath(QStringLiteral("state"));
    QVERIFY(QDir().mkpath(state));
    // Two agents: work is the default, ghost has no workspace folder yet.
    QVERIFY(test::writeFile(state + QStringLiteral("/openclaw.json"),
                            "{ agents: { ownership: 'explicit',\n"
                            "  defaults: { systemAgent: { agentId: 'work' } },\n"
                            "  entries: { ghost: {}, work: {}, }, }, }\n"));
    for (const char *name :
         {"OPENCLAW_CONFIG_PATH", "OPENCLAW_PROFILE", "OPENCLAW_WORKSPACE_DIR", "OPENCLAW_HOME"})
        qunsetenv(name);
    qputenv("OPENCLAW_STATE_DIR", state.toUtf8());
    const Result<OpenClawRoster> roster = readOpenClawRoster(OpenClawPaths::system());
    QVERIFY2(roster.ok(), qPrintable(roster.error()));
    QString workFolder;
    QString ghostFolder;
    for (const OpenClawAgent &agent : roster.value().agents)
        (agent.id == QLatin1String("work") ? workFolder : ghostFolder) = agent.workspace;
    QVERIFY(QDir().mkpath(workFolder));
    QVERIFY(test::writeFile(workFolder + QStringLiteral("/SOUL.md"), "You are work.\n"));

    Workspace workspace(&m_prompter, m_settings.get());
    const bool opened = workspace.openOpenClawAgents();
    qunsetenv("OPENCLAW_STATE_DIR");
    QVERIFY(opened);
    QCOMPARE(workspace.count(), 2);
    QVERIFY(workspace.isRoster());
    QCOMPARE(workspace.current()->agent().id, QStringLiteral("work"));
    QVERIFY(workspace.current()->model()->isOpen());
    QVERIFY(workspace.agents()->source().contains(QStringLiteral("openclaw.json")));
    const int ghost = indexOf(workspace, QStringLiteral("ghost"));
    QVERIFY(ghost >= 0);
    QVERIFY(!workspace.isWaiting(ghost));
    QVERIFY(!workspace.session(ghost)->model()->isOpen());
    QTRY_COMPARE(workspace.agents()->row(ghost).detail, QStringLiteral("no workspace folder"));
    QVERIFY(!workspace.agents()->row(ghost).available);
    const AgentListModel *rows = workspace.agents();
    const int work = workspace.currentIndex();
    QTRY_VERIFY2(rows->row(work).title.endsWith(QStringLiteral("(default)")),
                 qPrintable(rows->row(work).title));

    // Made since the roster was read: chosen, it opens.
    QVERIFY(QDir().mkpath(ghostFolder));
    QVERIFY(test::writeFile(ghostFolder + QStringLiteral("/SOUL.md"), "Boo.\n"));
    workspace.setCurrentIndex(ghost);
    QVERIFY(workspace.current()->model()->isOpen());
    QTRY_VERIFY(workspace.agents()->row(ghost).available);
    QVERIFY(m_prompter.errors.isEmpty());
}

void tst_Workspace::sidebarRowsShowTheSummaryAndUnsavedMark()
{
    const QString parent = makePersonas({QStringLiteral("ava"), QStringLiteral("kip")});
    Workspace workspace(&m_prompter, m_settings.get());
    QVERIFY(workspace.openPersonaFolder(parent));
    const AgentListModel *rows = workspace.agents();
    const int kip = indexOf(workspace, QStringLiteral("kip"));
    QTRY_VERIFY2(rows->row(kip).title.startsWith(QStringLiteral("kip — KIP")),
                 qPrintable(rows->row(kip).title));
    QTRY_VERIFY2(rows->row(kip).detail.contains(QStringLiteral(" tokens")),
                 qPrintable(rows->row(kip).detail));
    QVERIFY(!rows->row(kip).detail.contains(QStringLiteral("…")));
    QVERIFY(rows->row(kip).available);
    QVERIFY(!rows->data(rows->index(kip), AgentListModel::UnsavedRole).toBool());

    workspace.session(kip)->model()->setBufferText(slotIndex(u"SOUL.md"), u"Changed.");
    QTRY_VERIFY(rows->data(rows->index(kip), AgentListModel::UnsavedRole).toBool());
    QVERIFY(rows->data(rows->index(kip)).toString().contains(QStringLiteral("●")));
    const int ava = indexOf(workspace, QStringLiteral("ava"));
    QVERIFY(!rows->data(rows->index(ava)).toString().contains(QStringLiteral("●")));
}

void tst_Workspace::recentHomeRoundTrip()
{
    const QString settingsFile = m_dir->filePath(QStringLiteral("recent.ini"));
    const QList<RecentPlace> places = {
        RecentPlace::home(QStringLiteral("/h/home"),
                          QStringLiteral("/p/shop"),
                          QStringLiteral("AGENTS.md"),
                          QStringLiteral("rt")),
        RecentPlace::folder(QStringLiteral("/p/ava")),
    };
    {
        QSettings settings(settingsFile, QSettings::IniFormat);
        writeRecentPlaces(settings, places);
    }
    QSettings settings(settingsFile, QSettings::IniFormat);
    const QList<RecentPlace> read = readRecentPlaces(settings);
    QCOMPARE(read, places);
    QVERIFY(read.at(0).isHome());
    QCOMPARE(read.at(0).runtime, QStringLiteral("rt"));
    QCOMPARE(read.at(0).projectFile, QStringLiteral("AGENTS.md"));
    QVERIFY(!read.at(1).isHome());
    QVERIFY(read.at(1).runtime.isEmpty());
    // A runtime the registry does not know still names the place as a home.
    QVERIFY2(read.at(0).label().startsWith(QStringLiteral("Home /h/home with project shop")),
             qPrintable(read.at(0).label()));
}

void tst_Workspace::recentHomeReadsTheOldKeys()
{
    // As an earlier version wrote a home: its project under the old keys,
    // and no runtime.
    const QString settingsFile = m_dir->filePath(QStringLiteral("old.ini"));
    {
        QSettings settings(settingsFile, QSettings::IniFormat);
        settings.setValue(QStringLiteral("recentPlaces/size"), 2);
        settings.setValue(QStringLiteral("recentPlaces/1/directory"), QStringLiteral("/h/home"));
        settings.setValue(QStringLiteral("recentPlaces/1/hermesProject"), QStringLiteral("/p/shop"));
        settings.setValue(QStringLiteral("recentPlaces/1/hermesProjectFile"),
                          QStringLiteral("CLAUDE.md"));
        settings.setValue(QStringLiteral("recentPlaces/2/directory"), QStringLiteral("/p/ava"));
        settings.setValue(QStringLiteral("hermes/lastProject"), m_dir->path());
    }
    QSettings settings(settingsFile, QSettings::IniFormat);
    const QList<RecentPlace> read = readRecentPlaces(settings);
    QCOMPARE(read.size(), 2);
    QVERIFY(read.at(0).isHome());
    QCOMPARE(read.at(0).project, QStringLiteral("/p/shop"));
    QCOMPARE(read.at(0).projectFile, QStringLiteral("CLAUDE.md"));
    QVERIFY(read.at(0).runtime.isEmpty());
    QVERIFY(!read.at(1).isHome());
    // Written again, it keeps the home under the new keys.
    writeRecentPlaces(settings, read);
    QCOMPARE(readRecentPlaces(settings), read);
    QCOMPARE(readRecentPlaces(settings).at(0).projectFile, QStringLiteral("CLAUDE.md"));
    QVERIFY(!settings.contains(QStringLiteral("recentPlaces/1/hermesProject")));
    // The project a home was last opened with, kept under the old key.
    Workspace workspace(&m_prompter, &settings);
    QCOMPARE(workspace.lastHomeProject(), m_dir->path());
}

QTEST_GUILESS_MAIN(tst_Workspace)

#include "tst_workspace.moc"
