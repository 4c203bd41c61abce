#include "../gui/guitestfiles.h"
#include "../gui/quietprompter.h"
#include "disk/directorywatcher.h"
#include "disk/recoverystore.h"
#include "documentcontroller.h"
#include "exportcontroller.h"
#include "freezecontroller.h"
#include "persona/personamodel.h"
#include "personasession.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimeregistry.h"
#include "runtime/hermes/hermesreader.h"
#include "runtime/hermes/hermesrule.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <unistd.h>

using namespace soul;
using soul::guitest::readAll;
using soul::guitest::treeContents;
using soul::guitest::writeAtomically;
using soul::guitest::writeInPlace;

namespace {

// Asks nothing (unsaved text is dropped on close) and keeps the errors.
class NoQuestions : public guitest::QuietPrompter
{
public:
    QStringList errors;

    void showError(const QString &title, const QString &text) override
    {
        errors.append(title + QStringLiteral(": ") + text);
    }
};

int slotOf(const char *name)
{
    return slotIndex(QString::fromLatin1(name));
}

} // namespace

// A Hermes home opened with a project folder, without a window: the panes
// are the files Hermes reads at their paths, saving writes exactly the file
// saved, and the watcher follows those paths.
class tst_HermesHome : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void homeFollowsTheEnvironment();
    void panesAreTheFilesHermesReads_data();
    void panesAreTheFilesHermesReads();
    void missingFolderIsASentence();
    void savingWritesOnlyThatFile();
    void savingWithoutMemoriesFolderMakesIt();
    void memoriesFolderInTheWaySaysSo();
    void readOnlyHomeSaysSo();
    void diskChangesUnderMemoriesAreFollowed();
    void runtimeReadsTheBuffers();
    void recoveryIsKeptPerProject();
    void recentListKeepsTheProject();
    void earlierRecentFoldersAreRead();
    void projectPaneFollowsASave();
    void projectPaneFollowsADeletion();
    void projectPaneWaitsForUnsavedText();
    void layoutPrefersAFileOfTheBlock_data();
    void layoutPrefersAFileOfTheBlock();
    void projectFileIsShownOnRequest();
    void projectFileWaitsForUnsavedText();
    void chosenProjectFileStaysWhileInTheBlock();
    void otherRuntimesRefuseExportAndFreeze_data();
    void otherRuntimesRefuseExportAndFreeze();
    void hermesExportReadsTheHome();

private:
    QString home(const QString &name) const { return QDir(m_home).filePath(name); }
    QString project(const QString &name) const { return QDir(m_project).filePath(name); }
    // A session on the home and the project, opened.
    std::unique_ptr<PersonaSession> openSession();
    // The same with a HERMES.md in the project, which wins over its AGENTS.md,
    // and the watcher quick to settle.
    std::unique_ptr<PersonaSession> openWithHermesFile();
    // The project's AGENTS.md gone, .cursorrules and .cursor/rules/a.mdc and
    // b.mdc with text, and a session open on them, the watcher quick to settle.
    std::unique_ptr<PersonaSession> openWithCursorRules();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    NoQuestions m_prompter;
    QString m_home;
    QString m_project;
};

void tst_HermesHome::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_HermesHome::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
    m_prompter = NoQuestions();
    // No recovered text left by an earlier run.
    QVERIFY(QDir(RecoveryStore::rootPath()).removeRecursively());
    m_home = m_dir->filePath(QStringLiteral("hermes-home"));
    m_project = m_dir->filePath(QStringLiteral("project"));
    QVERIFY(QDir().mkpath(home(QStringLiteral("memories"))));
    QVERIFY(QDir().mkpath(m_project));
    QVERIFY(writeInPlace(home(QStringLiteral("SOUL.md")), "You are Kip, a terse assistant.\n"));
    QVERIFY(writeInPlace(home(QStringLiteral("memories/MEMORY.md")),
                         "- prefers metric units\n§\n- lives in Lyon\n"));
    QVERIFY(writeInPlace(project(QStringLiteral("AGENTS.md")), "Reply in one paragraph.\n"));
}

void tst_HermesHome::cleanup()
{
    m_settings.reset();
    m_dir.reset();
}

std::unique_ptr<PersonaSession> tst_HermesHome::openSession()
{
    auto session = std::make_unique<PersonaSession>(&m_prompter, m_settings.get());
    const Result<SlotLayout> layout = hermesHomeLayout(m_home, m_project);
    if (!layout) {
        QTest::qFail(qPrintable(layout.error()), __FILE__, __LINE__);
        return session;
    }
    if (!session->documents()->openLayout(layout.value()))
        QTest::qFail(qPrintable(m_prompter.errors.join(QLatin1Char('\n'))), __FILE__, __LINE__);
    return session;
}

std::unique_ptr<PersonaSession> tst_HermesHome::openWithHermesFile()
{
    if (!writeInPlace(project(QStringLiteral("HERMES.md")), "Use tabs.\n"))
        QTest::qFail("cannot write HERMES.md", __FILE__, __LINE__);
    std::unique_ptr<PersonaSession> session = openSession();
    session->model()->watcher()->setSettleInterval(5);
    const QString bound = session->model()->slotFilePath(slotOf("AGENTS.md"));
    if (bound != project(QStringLiteral("HERMES.md")))
        QTest::qFail(qPrintable(bound), __FILE__, __LINE__);
    return session;
}

void tst_HermesHome::homeFollowsTheEnvironment()
{
    const QByteArray before = qgetenv("HERMES_HOME");
    qputenv("HERMES_HOME", QFile::encodeName(m_home));
    QCOMPARE(hermesHomeDirectory(), m_home);
    // Set but empty counts as unset, as in Hermes.
    qputenv("HERMES_HOME", QByteArray());
    QCOMPARE(hermesHomeDirectory(), QDir::home().filePath(QStringLiteral(".hermes")));
    if (before.isNull())
        qunsetenv("HERMES_HOME");
    else
        qputenv("HERMES_HOME", before);
}

void tst_HermesHome::panesAreTheFilesHermesReads_data()
{
    QTest::addColumn<QStringList>("files"); // project files with text, "NAME=TEXT"
    QTest::addColumn<QString>("winner");
    QTest::newRow("AGENTS.md alone") << QStringList{} << QStringLiteral("AGENTS.md");
    QTest::newRow("HERMES.md beats AGENTS.md")
        << QStringList{QStringLiteral("HERMES.md=Use tabs.\n")} << QStringLiteral("HERMES.md");
    QTest::newRow(".hermes.md before HERMES.md")
        << QStringList{QStringLiteral(".hermes.md=Hidden.\n"), QStringLiteral("HERMES.md=Seen.\n")}
        << QStringLiteral(".hermes.md");
    QTest::newRow("an empty override falls through")
        << QStringList{QStringLiteral("AGENTS.override.md=\n")} << QStringLiteral("AGENTS.md");
    QTest::newRow("CLAUDE.md without AGENTS.md")
        << QStringList{QStringLiteral("-AGENTS.md"),
                       QStringLiteral("CLAUDE.md=From Claude.\n"),
                       QStringLiteral(".cursorrules=Rules.\n")}
        << QStringLiteral("CLAUDE.md");
    QTest::newRow(".cursorrules last")
        << QStringList{QStringLiteral("-AGENTS.md"), QStringLiteral(".cursorrules=Rules.\n")}
        << QStringLiteral(".cursorrules");
    QTest::newRow("no project file: AGENTS.md to create")
        << QStringList{QStringLiteral("-AGENTS.md")} << QStringLiteral("AGENTS.md");
}

void tst_HermesHome::panesAreTheFilesHermesReads()
{
    QFETCH(QStringList, files);
    QFETCH(QString, winner);
    for (const QString &file : std::as_const(files)) {
        if (file.startsWith(QLatin1Char('-'))) {
            QVERIFY(QFile::remove(project(file.mid(1))));
            continue;
        }
        const qsizetype eq = file.indexOf(QLatin1Char('='));
        QVERIFY(writeInPlace(project(file.left(eq)), file.mid(eq + 1).toUtf8()));
    }
    const std::unique_ptr<PersonaSession> session = openSession();
    const PersonaModel *model = session->model();
    QVERIFY(model->isOpen());
    QCOMPARE(model->directory(), m_home);
    QCOMPARE(model->slotFilePath(slotOf("SOUL.md")), home(QStringLiteral("SOUL.md")));
    QCOMPARE(model->slotFilePath(slotOf("MEMORY.md")), home(QStringLiteral("memories/MEMORY.md")));
    QCOMPARE(model->slotFilePath(slotOf("USER.md")), home(QStringLiteral("memories/USER.md")));
    QCOMPARE(model->slotLabel(slotOf("MEMORY.md")), QStringLiteral("memories/MEMORY.md"));
    QCOMPARE(model->slotFilePath(slotOf("AGENTS.md")),
             QFileInfo(project(winner)).absoluteFilePath());
    QCOMPARE(model->slotLabel(slotOf("AGENTS.md")), winner);
    // Never read by Hermes: looked for in the project.
    QCOMPARE(model->slotFilePath(slotOf("IDENTITY.md")), project(QStringLiteral("IDENTITY.md")));
    // Each pane holds its file.
    QCOMPARE(model->slot(slotOf("SOUL.md")).diskBytes,
             QByteArray("You are Kip, a terse assistant.\n"));
    QCOMPARE(model->slot(slotOf("MEMORY.md")).diskBytes,
             readAll(home(QStringLiteral("memories/MEMORY.md"))));
    QCOMPARE(model->slot(slotOf("AGENTS.md")).diskBytes, readAll(project(winner)));
    QCOMPARE(model->slot(slotOf("USER.md")).presence, SlotPresence::Missing);
}

void tst_HermesHome::missingFolderIsASentence()
{
    const Result<SlotLayout> layout = hermesHomeLayout(m_home, project(QStringLiteral("nowhere")));
    QVERIFY(!layout);
    QVERIFY2(layout.error().contains(project(QStringLiteral("nowhere"))),
             qPrintable(layout.error()));
    QVERIFY(!hermesHomeLayout(m_dir->filePath(QStringLiteral("no-home")), m_project));
}

void tst_HermesHome::savingWritesOnlyThatFile()
{
    const std::unique_ptr<PersonaSession> session = openSession();
    PersonaModel *model = session->model();
    const int memory = slotOf("MEMORY.md");
    const QMap<QString, QByteArray> before = treeContents(m_dir->path());
    model->setBufferText(memory,
                         u"- prefers metric units\n§\n- lives in Lyon\n§\n- reads at night\n");
    QCOMPARE(model->unsavedSlots(), QList<int>{memory});
    QVERIFY(session->documents()->saveAll());
    QVERIFY(!model->hasUnsaved());

    QMap<QString, QByteArray> expected = before;
    expected[home(QStringLiteral("memories/MEMORY.md"))]
        = "- prefers metric units\n§\n- lives in Lyon\n§\n- reads at night\n";
    QMap<QString, QByteArray> after = treeContents(m_dir->path());
    after.remove(m_dir->filePath(QStringLiteral("settings.ini")));
    expected.remove(m_dir->filePath(QStringLiteral("settings.ini")));
    QCOMPARE(after, expected);
    // No flat MEMORY.md beside SOUL.md, nor in the project.
    QVERIFY(!QFileInfo::exists(home(QStringLiteral("MEMORY.md"))));
    QVERIFY(!QFileInfo::exists(project(QStringLiteral("MEMORY.md"))));
}

void tst_HermesHome::savingWithoutMemoriesFolderMakesIt()
{
    // Hermes's memory tool makes memories/ on its first write; saving a
    // memory pane does the same, and only then.
    QVERIFY(QDir(home(QStringLiteral("memories"))).removeRecursively());
    const std::unique_ptr<PersonaSession> session = openSession();
    PersonaModel *model = session->model();
    const int user = slotOf("USER.md");
    const int soul = slotOf("SOUL.md");
    model->createSlot(user, "Name: Ana\n");
    model->setBufferText(soul, u"You are Kip.\n");
    // Another pane's save makes no folder.
    QVERIFY(session->documents()->save(soul));
    QVERIFY(!QFileInfo::exists(home(QStringLiteral("memories"))));
    QMap<QString, QByteArray> expected = treeContents(m_dir->path());
    QVERIFY(session->documents()->save(user));
    QVERIFY2(m_prompter.errors.isEmpty(), qPrintable(m_prompter.errors.join(QLatin1Char('\n'))));
    QVERIFY(!model->slot(user).dirty);
    // The folder and the file saved, nothing else (MEMORY.md stays absent).
    expected[home(QStringLiteral("memories"))] = QByteArray(); // a folder
    expected[home(QStringLiteral("memories/USER.md"))] = "Name: Ana\n";
    QCOMPARE(treeContents(m_dir->path()), expected);
    QVERIFY(QFileInfo(home(QStringLiteral("memories"))).isDir());
    QVERIFY(!QFileInfo::exists(home(QStringLiteral("memories/MEMORY.md"))));
    // The runtime reads the file at its place.
    const Result<HermesInput> read = readHermesHome(m_home, m_project);
    QVERIFY2(read.ok(), qPrintable(read.error()));
    QCOMPARE(read.value().user.state, HermesFile::State::Text);
    QCOMPARE(read.value().user.text, QStringLiteral("Name: Ana\n"));
}

void tst_HermesHome::memoriesFolderInTheWaySaysSo()
{
    // A file where the folder goes: nothing is made or replaced, as root too.
    QVERIFY(QDir(home(QStringLiteral("memories"))).removeRecursively());
    QVERIFY(writeInPlace(home(QStringLiteral("memories")), "not a folder\n"));
    const std::unique_ptr<PersonaSession> session = openSession();
    PersonaModel *model = session->model();
    const int user = slotOf("USER.md");
    model->createSlot(user, "Name: Ana\n");
    const QMap<QString, QByteArray> before = treeContents(m_dir->path());
    QVERIFY(!session->documents()->save(user));
    QCOMPARE(m_prompter.errors.size(), 1);
    QVERIFY2(m_prompter.errors.first().contains(
                 QStringLiteral("the folder %1 is missing and could not be created")
                     .arg(home(QStringLiteral("memories")))),
             qPrintable(m_prompter.errors.first()));
    QVERIFY(model->slot(user).dirty);
    QCOMPARE(treeContents(m_dir->path()), before);
}

void tst_HermesHome::readOnlyHomeSaysSo()
{
    if (::geteuid() == 0)
        QSKIP("root may write into a read-only folder");
    QVERIFY(QDir(home(QStringLiteral("memories"))).removeRecursively());
    const std::unique_ptr<PersonaSession> session = openSession();
    PersonaModel *model = session->model();
    const int memory = slotOf("MEMORY.md");
    model->createSlot(memory, "- likes tea\n");
    const QMap<QString, QByteArray> before = treeContents(m_dir->path());
    QVERIFY(QFile::setPermissions(m_home, QFile::ReadOwner | QFile::ExeOwner));
    const bool saved = session->documents()->save(memory);
    QFile::setPermissions(m_home, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY(!saved);
    QCOMPARE(m_prompter.errors.size(), 1);
    QVERIFY2(m_prompter.errors.first().contains(home(QStringLiteral("memories")))
                 && m_prompter.errors.first().contains(QStringLiteral("writable")),
             qPrintable(m_prompter.errors.first()));
    QVERIFY(model->slot(memory).dirty);
    QCOMPARE(treeContents(m_dir->path()), before);
}

void tst_HermesHome::diskChangesUnderMemoriesAreFollowed()
{
    const std::unique_ptr<PersonaSession> session = openSession();
    PersonaModel *model = session->model();
    model->watcher()->setSettleInterval(5);
    QTRY_VERIFY(model->isWatching());
    // Replaced by another program (an atomic save, as Hermes's memory tool does).
    const QByteArray memory = "- prefers metric units\n§\n- moved to Porto\n";
    QVERIFY(writeAtomically(home(QStringLiteral("memories/MEMORY.md")), memory));
    QTRY_COMPARE(model->slot(slotOf("MEMORY.md")).bufferBytes, memory);
    // A file that appears in memories/ is seen too.
    QVERIFY(writeInPlace(home(QStringLiteral("memories/USER.md")), "Name: Ana\n"));
    QTRY_COMPARE(model->slot(slotOf("USER.md")).bufferBytes, QByteArray("Name: Ana\n"));
    // The project file as well.
    QVERIFY(writeInPlace(project(QStringLiteral("AGENTS.md")), "Reply in two paragraphs.\n"));
    QTRY_COMPARE(model->slot(slotOf("AGENTS.md")).bufferBytes,
                 QByteArray("Reply in two paragraphs.\n"));
}

void tst_HermesHome::runtimeReadsTheBuffers()
{
    QVERIFY(writeInPlace(project(QStringLiteral("HERMES.md")), "Use tabs.\n"));
    const std::unique_ptr<PersonaSession> session = openSession();
    PersonaModel *model = session->model();
    const Runtime *hermes = RuntimeRegistry::instance().find(u"hermes");
    QVERIFY(hermes);
    const SlotLayout &layout = model->layout();
    const auto input = [model, &layout] {
        RuntimeInput in;
        in.dir = layout.directory;
        in.home = layout.home;
        in.project = layout.project;
        for (int k = 0; k < SlotCount; ++k) {
            if (model->slot(k).bufferPresent)
                in.buffers.insert(layout.names.at(size_t(k)), model->slot(k).bufferBytes);
        }
        return in;
    };
    // Clean buffers: what Hermes reads from the files.
    const Result<HermesInput> read = readHermesHome(m_home, m_project);
    QVERIFY(read);
    const Result<RuntimeComposition> clean = hermes->compose(input(), {});
    QVERIFY(clean);
    QCOMPARE(clean.value().text, composeHermes(read.value()).joined);
    // HERMES.md's pane says it won over AGENTS.md.
    const RuntimeFileView *winner = clean.value().file(u"HERMES.md");
    QVERIFY(winner);
    QVERIFY2(winner->status.contains(QStringLiteral("before AGENTS.md")),
             qPrintable(winner->status));

    // Unsaved edits of the home's files and of the project file are read.
    model->setBufferText(slotOf("MEMORY.md"), u"- lives in Porto\n");
    model->setBufferText(slotOf("SOUL.md"), u"You are Wren.\n");
    model->setBufferText(slotOf("AGENTS.md"), u"Use spaces after all.\n");
    const Result<RuntimeComposition> edited = hermes->compose(input(), {});
    QVERIFY(edited);
    const QString text = edited.value().text;
    QVERIFY2(text.startsWith(QStringLiteral("You are Wren.")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("## HERMES.md\n\nUse spaces after all.")),
             qPrintable(text));
    QVERIFY2(text.endsWith(QStringLiteral("- lives in Porto")), qPrintable(text));
}

void tst_HermesHome::recoveryIsKeptPerProject()
{
    const int agents = slotOf("AGENTS.md");
    {
        const std::unique_ptr<PersonaSession> session = openSession();
        session->model()->setBufferText(agents, u"Unsaved rules.\n");
        session->model()->flushRecovery();
        // Destroyed without close(), as in a crash: the copy stays.
    }
    // Another project of the same home is not offered this project's text.
    const QString other = m_dir->filePath(QStringLiteral("other"));
    QVERIFY(QDir().mkpath(other));
    QVERIFY(writeInPlace(QDir(other).filePath(QStringLiteral("AGENTS.md")), "Other rules.\n"));
    {
        PersonaSession session(&m_prompter, m_settings.get());
        const Result<SlotLayout> layout = hermesHomeLayout(m_home, other);
        QVERIFY(layout);
        QVERIFY(session.documents()->openLayout(layout.value()));
        QVERIFY(!session.model()->hasRecovery(agents));
        session.documents()->close();
    }
    const std::unique_ptr<PersonaSession> again = openSession();
    QVERIFY(again->model()->hasRecovery(agents));
    QCOMPARE(again->model()->recovery(agents)->bytes, QByteArray("Unsaved rules.\n"));
    again->model()->discardRecovery(agents);
    again->documents()->close();
}

void tst_HermesHome::recentListKeepsTheProject()
{
    const QString other = m_dir->filePath(QStringLiteral("other"));
    QVERIFY(QDir().mkpath(other));
    const QString folder = m_dir->filePath(QStringLiteral("ava"));
    QVERIFY(QDir().mkpath(folder));
    {
        const std::unique_ptr<PersonaSession> session = openSession();
        DocumentController *documents = session->documents();
        QCOMPARE(documents->lastPlace(), RecentPlace::home(m_home, m_project));
        QVERIFY(documents->open(folder));
        QCOMPARE(documents->lastPlace(), RecentPlace::folder(folder));
        const Result<SlotLayout> elsewhere = hermesHomeLayout(m_home, other);
        QVERIFY2(elsewhere.ok(), qPrintable(elsewhere.error()));
        QVERIFY(documents->openLayout(elsewhere.value()));
        // The same home in another project is another entry; the newest first.
        const QList<RecentPlace> expected = {RecentPlace::home(m_home, other),
                                             RecentPlace::folder(folder),
                                             RecentPlace::home(m_home, m_project)};
        QCOMPARE(documents->recentPlaces(), expected);
        QVERIFY(documents->recentPlaces().first().label().startsWith(
            QStringLiteral("Hermes home %1 with project other").arg(m_home)));
        // Opened again, an entry moves up instead of being listed twice.
        QVERIFY(documents->open(folder));
        QCOMPARE(documents->recentPlaces().size(), 3);
        QCOMPARE(documents->recentPlaces().first(), RecentPlace::folder(folder));
        QCOMPARE(documents->lastPlace(), RecentPlace::folder(folder));
    }
    // Written to the file, and read back by the next start.
    m_settings->sync();
    QSettings again(m_settings->fileName(), QSettings::IniFormat);
    QCOMPARE(readRecentPlaces(again).size(), 3);
    QCOMPARE(readRecentPlaces(again).at(1), RecentPlace::home(m_home, other));
}

void tst_HermesHome::earlierRecentFoldersAreRead()
{
    // The plain list of folders an earlier version kept.
    const QStringList old = {m_dir->filePath(QStringLiteral("a")),
                             m_dir->filePath(QStringLiteral("b"))};
    m_settings->setValue(QStringLiteral("recentDirectories"), old);
    PersonaSession session(&m_prompter, m_settings.get());
    const QList<RecentPlace> expected = {RecentPlace::folder(old.at(0)),
                                         RecentPlace::folder(old.at(1))};
    QCOMPARE(session.documents()->recentPlaces(), expected);
    // Cleared, it stays cleared: the old list is not read again.
    session.documents()->clearRecent();
    QVERIFY(session.documents()->recentPlaces().isEmpty());
    QVERIFY(!m_settings->contains(QStringLiteral("recentDirectories")));
}

void tst_HermesHome::projectPaneFollowsASave()
{
    const std::unique_ptr<PersonaSession> session = openWithHermesFile();
    PersonaModel *model = session->model();
    const int agents = slotOf("AGENTS.md");
    QSignalSpy messages(session->documents(), &DocumentController::statusMessage);
    // Saved empty, HERMES.md gives way to AGENTS.md: the pane shows that now.
    model->setBufferText(agents, u"");
    QVERIFY(session->documents()->save(agents));
    QTRY_COMPARE(model->slotFilePath(agents), project(QStringLiteral("AGENTS.md")));
    QCOMPARE(model->slotLabel(agents), QStringLiteral("AGENTS.md"));
    QCOMPARE(model->slot(agents).bufferBytes, QByteArray("Reply in one paragraph.\n"));
    QCOMPARE(readAll(project(QStringLiteral("HERMES.md"))), QByteArray());
    QVERIFY(!messages.isEmpty());
    QCOMPARE(messages.last().first().toString(),
             QStringLiteral("Hermes now reads AGENTS.md instead of HERMES.md for the project "
                            "context; the pane shows AGENTS.md."));
    QVERIFY(m_prompter.errors.isEmpty());
}

void tst_HermesHome::projectPaneFollowsADeletion()
{
    const std::unique_ptr<PersonaSession> session = openWithHermesFile();
    PersonaModel *model = session->model();
    const int agents = slotOf("AGENTS.md");
    QVERIFY(QFile::remove(project(QStringLiteral("HERMES.md"))));
    QTRY_COMPARE(model->slotFilePath(agents), project(QStringLiteral("AGENTS.md")));
    QCOMPARE(model->slot(agents).bufferBytes, QByteArray("Reply in one paragraph.\n"));
    QVERIFY(!model->hasUnsaved());
}

void tst_HermesHome::projectPaneWaitsForUnsavedText()
{
    const std::unique_ptr<PersonaSession> session = openWithHermesFile();
    PersonaModel *model = session->model();
    const int agents = slotOf("AGENTS.md");
    const int soul = slotOf("SOUL.md");
    // Unsaved text in any pane: the panes stay as they are, the text too.
    model->setBufferText(soul, u"You are Kip, unsaved.\n");
    QVERIFY(QFile::remove(project(QStringLiteral("HERMES.md"))));
    QTRY_VERIFY(!model->slot(agents).diskPresent());
    QCoreApplication::processEvents();
    QCOMPARE(model->slotFilePath(agents), project(QStringLiteral("HERMES.md")));
    QCOMPARE(model->slot(soul).bufferBytes, QByteArray("You are Kip, unsaved.\n"));
    // Saved, nothing is unsaved any more: it follows.
    QVERIFY(session->documents()->save(soul));
    QTRY_COMPARE(model->slotFilePath(agents), project(QStringLiteral("AGENTS.md")));
    QCOMPARE(readAll(home(QStringLiteral("SOUL.md"))), QByteArray("You are Kip, unsaved.\n"));
}

std::unique_ptr<PersonaSession> tst_HermesHome::openWithCursorRules()
{
    if (!QFile::remove(project(QStringLiteral("AGENTS.md")))
        || !QDir().mkpath(project(QStringLiteral(".cursor/rules")))
        || !writeInPlace(project(QStringLiteral(".cursorrules")), "Rules.\n")
        || !writeInPlace(project(QStringLiteral(".cursor/rules/a.mdc")), "Rule A.\n")
        || !writeInPlace(project(QStringLiteral(".cursor/rules/b.mdc")), "Rule B.\n"))
        QTest::qFail("cannot write the cursor rules", __FILE__, __LINE__);
    std::unique_ptr<PersonaSession> session = openSession();
    session->model()->watcher()->setSettleInterval(5);
    return session;
}

void tst_HermesHome::layoutPrefersAFileOfTheBlock_data()
{
    QTest::addColumn<QString>("project");   // under the temporary folder
    QTest::addColumn<QStringList>("files"); // under the temporary folder, "NAME=TEXT"
    QTest::addColumn<QStringList>("block"); // hermesProjectFiles()
    QTest::addColumn<QString>("preferred");
    QTest::addColumn<QString>("shown"); // the AGENTS.md pane's label
    const QStringList rules = {QStringLiteral("project/.cursorrules=Rules.\n"),
                               QStringLiteral("project/.cursor/rules/a.mdc=Rule A.\n"),
                               QStringLiteral("project/.cursor/rules/b.mdc=Rule B.\n"),
                               QStringLiteral("project/.cursor/rules/c.mdc=\n"),
                               QStringLiteral("-project/AGENTS.md")};
    const QStringList ruleBlock = {QStringLiteral(".cursorrules"),
                                   QStringLiteral(".cursor/rules/a.mdc"),
                                   QStringLiteral(".cursor/rules/b.mdc")};
    QTest::newRow("a rule chosen")
        << QStringLiteral("project") << rules << ruleBlock << QStringLiteral(".cursor/rules/b.mdc")
        << QStringLiteral(".cursor/rules/b.mdc");
    QTest::newRow("none chosen: the first") << QStringLiteral("project") << rules << ruleBlock
                                            << QString() << QStringLiteral(".cursorrules");
    QTest::newRow("an empty rule is not in the block")
        << QStringLiteral("project") << rules << ruleBlock << QStringLiteral(".cursor/rules/c.mdc")
        << QStringLiteral(".cursorrules");
    QTest::newRow("a rival that lost is not in the block")
        << QStringLiteral("project") << QStringList{QStringLiteral("project/CLAUDE.md=Claude.\n")}
        << QStringList{QStringLiteral("AGENTS.md")} << QStringLiteral("CLAUDE.md")
        << QStringLiteral("AGENTS.md");
    const QStringList chain = {QStringLiteral("repo/.git/"),
                               QStringLiteral("repo/AGENTS.md=Repository rules.\n"),
                               QStringLiteral("repo/sub/AGENTS.md=Folder rules.\n")};
    const QStringList chainBlock = {QStringLiteral("../AGENTS.md"), QStringLiteral("AGENTS.md")};
    QTest::newRow("the chain's root chosen")
        << QStringLiteral("repo/sub") << chain << chainBlock << QStringLiteral("../AGENTS.md")
        << QStringLiteral("../AGENTS.md");
    QTest::newRow("the chain's project file chosen")
        << QStringLiteral("repo/sub") << chain << chainBlock << QStringLiteral("AGENTS.md")
        << QStringLiteral("AGENTS.md");
    QTest::newRow("a file not there")
        << QStringLiteral("repo/sub") << chain << chainBlock << QStringLiteral("../../AGENTS.md")
        << QStringLiteral("../AGENTS.md");
}

void tst_HermesHome::layoutPrefersAFileOfTheBlock()
{
    QFETCH(QString, project);
    QFETCH(QStringList, files);
    QFETCH(QStringList, block);
    QFETCH(QString, preferred);
    QFETCH(QString, shown);
    for (const QString &file : std::as_const(files)) {
        const QString path = m_dir->filePath(file.mid(file.startsWith(QLatin1Char('-')) ? 1 : 0));
        if (file.startsWith(QLatin1Char('-'))) {
            QVERIFY(QFile::remove(path.section(QLatin1Char('='), 0, 0)));
        } else if (file.endsWith(QLatin1Char('/'))) {
            QVERIFY(QDir().mkpath(path));
        } else {
            const qsizetype eq = path.indexOf(QLatin1Char('='));
            QVERIFY(QDir().mkpath(QFileInfo(path.left(eq)).path()));
            QVERIFY(writeInPlace(path.left(eq), path.mid(eq + 1).toUtf8()));
        }
    }
    const QString dir = m_dir->filePath(project);
    const Result<QStringList> listed = hermesProjectFiles(m_home, dir);
    QVERIFY2(listed.ok(), qPrintable(listed.error()));
    QCOMPARE(listed.value(), block);
    const Result<SlotLayout> layout = hermesHomeLayout(m_home, dir, preferred);
    QVERIFY2(layout.ok(), qPrintable(layout.error()));
    const auto agents = size_t(slotOf("AGENTS.md"));
    QCOMPARE(layout.value().labels.at(agents), shown);
    QCOMPARE(layout.value().names.at(agents), shown);
    QCOMPARE(QFileInfo(layout.value().paths.at(agents)).canonicalFilePath(),
             QFileInfo(QDir(dir).filePath(shown)).canonicalFilePath());
    // The other panes are where they are without a choice.
    const Result<SlotLayout> plain = hermesHomeLayout(m_home, dir);
    QVERIFY(plain);
    for (int k = 0; k < SlotCount; ++k) {
        if (k != int(agents))
            QCOMPARE(layout.value().paths.at(size_t(k)), plain.value().paths.at(size_t(k)));
    }
}

void tst_HermesHome::projectFileIsShownOnRequest()
{
    const std::unique_ptr<PersonaSession> session = openWithCursorRules();
    PersonaModel *model = session->model();
    DocumentController *documents = session->documents();
    const int agents = slotOf("AGENTS.md");
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursorrules"));
    QCOMPARE(documents->projectFiles(),
             QStringList({QStringLiteral(".cursorrules"),
                          QStringLiteral(".cursor/rules/a.mdc"),
                          QStringLiteral(".cursor/rules/b.mdc")}));
    const QString memory = home(QStringLiteral("memories/MEMORY.md"));
    QVERIFY(documents->showProjectFile(QStringLiteral(".cursor/rules/b.mdc")));
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursor/rules/b.mdc"));
    QCOMPARE(model->slotFilePath(agents), project(QStringLiteral(".cursor/rules/b.mdc")));
    QCOMPARE(model->slot(agents).bufferBytes, QByteArray("Rule B.\n"));
    QCOMPARE(model->slotFilePath(slotOf("MEMORY.md")), memory);
    // A file not in the block is refused with a sentence.
    QSignalSpy messages(documents, &DocumentController::statusMessage);
    QVERIFY(!documents->showProjectFile(QStringLiteral("CLAUDE.md")));
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursor/rules/b.mdc"));
    QCOMPARE(messages.size(), 1);
    QVERIFY2(messages.last().first().toString().startsWith(
                 QStringLiteral("CLAUDE.md is not part of Hermes's project context now")),
             qPrintable(messages.last().first().toString()));
    QVERIFY(m_prompter.errors.isEmpty());
}

void tst_HermesHome::projectFileWaitsForUnsavedText()
{
    const std::unique_ptr<PersonaSession> session = openWithCursorRules();
    PersonaModel *model = session->model();
    DocumentController *documents = session->documents();
    const int agents = slotOf("AGENTS.md");
    const QMap<QString, QByteArray> before = treeContents(m_dir->path());
    QSignalSpy messages(documents, &DocumentController::statusMessage);
    // The pane's own text unsaved: it stays, and says what to do.
    model->setBufferText(agents, u"Rules, edited.\n");
    QVERIFY(!documents->showProjectFile(QStringLiteral(".cursor/rules/a.mdc")));
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursorrules"));
    QCOMPARE(model->slot(agents).bufferBytes, QByteArray("Rules, edited.\n"));
    QVERIFY(model->slot(agents).dirty);
    QCOMPARE(messages.size(), 1);
    QCOMPARE(messages.last().first().toString(),
             QStringLiteral("The project pane stays at .cursorrules: there are unsaved changes in "
                            ".cursorrules. Save or revert them first, then choose "
                            ".cursor/rules/a.mdc again."));
    // Another pane's text unsaved: the same.
    documents->revert(agents);
    QVERIFY(!model->hasUnsaved());
    model->setBufferText(slotOf("SOUL.md"), u"You are Kip, unsaved.\n");
    QVERIFY(!documents->showProjectFile(QStringLiteral(".cursor/rules/a.mdc")));
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursorrules"));
    QCOMPARE(model->slot(slotOf("SOUL.md")).bufferBytes, QByteArray("You are Kip, unsaved.\n"));
    QVERIFY2(messages.last().first().toString().contains(
                 QStringLiteral("unsaved changes in SOUL.md")),
             qPrintable(messages.last().first().toString()));
    // Nothing was written.
    QCOMPARE(treeContents(m_dir->path()), before);
    // Saved, the pane moves.
    QVERIFY(documents->save(slotOf("SOUL.md")));
    QVERIFY(documents->showProjectFile(QStringLiteral(".cursor/rules/a.mdc")));
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursor/rules/a.mdc"));
    QVERIFY(m_prompter.errors.isEmpty());
}

void tst_HermesHome::chosenProjectFileStaysWhileInTheBlock()
{
    const std::unique_ptr<PersonaSession> session = openWithCursorRules();
    PersonaModel *model = session->model();
    DocumentController *documents = session->documents();
    const int agents = slotOf("AGENTS.md");
    QVERIFY(documents->showProjectFile(QStringLiteral(".cursor/rules/b.mdc")));
    QTRY_VERIFY(model->isWatching());
    QSignalSpy listed(documents, &DocumentController::projectFilesListed);
    // A rival rule made on disk joins the block; the chosen file stays.
    QVERIFY(writeAtomically(project(QStringLiteral(".cursor/rules/0.mdc")), "Rule zero.\n"));
    QTRY_COMPARE(documents->projectFiles(),
                 QStringList({QStringLiteral(".cursorrules"),
                              QStringLiteral(".cursor/rules/0.mdc"),
                              QStringLiteral(".cursor/rules/a.mdc"),
                              QStringLiteral(".cursor/rules/b.mdc")}));
    // The list is read by the same pass that would move the pane.
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursor/rules/b.mdc"));
    QCOMPARE(model->slot(agents).bufferBytes, QByteArray("Rule B.\n"));
    // Another file of the block removed: still there.
    QVERIFY(QFile::remove(project(QStringLiteral(".cursor/rules/a.mdc"))));
    QTRY_COMPARE(documents->projectFiles(),
                 QStringList({QStringLiteral(".cursorrules"),
                              QStringLiteral(".cursor/rules/0.mdc"),
                              QStringLiteral(".cursor/rules/b.mdc")}));
    QCOMPARE(model->slotLabel(agents), QStringLiteral(".cursor/rules/b.mdc"));
    QVERIFY(listed.size() >= 2);
    // Emptied on disk, it leaves the block: the pane goes to the first file.
    QVERIFY(writeAtomically(project(QStringLiteral(".cursor/rules/b.mdc")), "\n"));
    QTRY_COMPARE(model->slotLabel(agents), QStringLiteral(".cursorrules"));
    QCOMPARE(model->slot(agents).bufferBytes, QByteArray("Rules.\n"));
    QCOMPARE(documents->projectFiles(),
             QStringList({QStringLiteral(".cursorrules"), QStringLiteral(".cursor/rules/0.mdc")}));
    QVERIFY(!model->hasUnsaved());
}

void tst_HermesHome::otherRuntimesRefuseExportAndFreeze_data()
{
    QTest::addColumn<QString>("runtime");
    QTest::addColumn<QString>("name");
    QTest::newRow("toolnexus") << QStringLiteral("toolnexus") << QStringLiteral("toolnexus");
    QTest::newRow("openclaw") << QStringLiteral("openclaw") << QStringLiteral("OpenClaw");
}

void tst_HermesHome::otherRuntimesRefuseExportAndFreeze()
{
    QFETCH(QString, runtime);
    const std::unique_ptr<PersonaSession> session = openSession();
    const std::optional<RuntimeProfile> profile = runtimeProfileNamed(runtime);
    QVERIFY(profile);
    session->setRuntimeProfile(*profile);
    const QMap<QString, QByteArray> before = treeContents(m_dir->path());

    QSignalSpy failed(session->exporter(), &ExportController::failed);
    session->exporter()->exportTo(m_dir->filePath(QStringLiteral("out.soul.md")), Overwrite::Never);
    QCOMPARE(failed.count(), 1);
    QVERIFY(!session->exporter()->exportSnapshot());
    QVERIFY(!session->freezer()->freeze());
    QCOMPARE(m_prompter.errors.size(), 3);
    for (const QString &error : std::as_const(m_prompter.errors)) {
        // Which runtime, which home, what it would miss, what to do.
        QVERIFY2(error.contains(profile->displayName())
                     && error.contains(QStringLiteral("%1 is Hermes's home").arg(m_home))
                     && error.contains(QStringLiteral("memories/")) && error.contains(m_project)
                     && error.contains(QStringLiteral("Choose Hermes in the preview")),
                 qPrintable(error));
    }
    QCOMPARE(treeContents(m_dir->path()), before);
}

void tst_HermesHome::hermesExportReadsTheHome()
{
    const std::unique_ptr<PersonaSession> session = openSession();
    session->setRuntimeProfile(*runtimeProfileNamed(u"hermes"));
    QSignalSpy exported(session->exporter(), &ExportController::exported);
    const QString path = m_dir->filePath(QStringLiteral("out.soul.md"));
    session->exporter()->exportTo(path, Overwrite::Never);
    QVERIFY(exported.count() == 1 || exported.wait(10000));
    QVERIFY2(m_prompter.errors.isEmpty(), qPrintable(m_prompter.errors.join(QLatin1Char('\n'))));
    // The memory from memories/ and the project file, which a flat read misses.
    const QByteArray soul = readAll(path);
    QVERIFY2(soul.contains("- lives in Lyon") && soul.contains("Reply in one paragraph."),
             soul.constData());
}

QTEST_GUILESS_MAIN(tst_HermesHome)
#include "tst_hermeshome.moc"
