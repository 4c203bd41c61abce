#include "../gui/guitestfiles.h"
#include "../gui/quietprompter.h"
#include "directorywatcher.h"
#include "documentcontroller.h"
#include "hermesreader.h"
#include "hermesrule.h"
#include "personamodel.h"
#include "personasession.h"
#include "recoverystore.h"
#include "runtimeregistry.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

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
    void savingWithoutMemoriesFolderSaysSo();
    void diskChangesUnderMemoriesAreFollowed();
    void runtimeReadsTheBuffers();
    void recoveryIsKeptPerProject();

private:
    QString home(const QString &name) const { return QDir(m_home).filePath(name); }
    QString project(const QString &name) const { return QDir(m_project).filePath(name); }
    // A session on the home and the project, opened.
    std::unique_ptr<PersonaSession> openSession();

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

void tst_HermesHome::savingWithoutMemoriesFolderSaysSo()
{
    // Hermes makes memories/ when it first runs; a home without it is not
    // given one behind the user's back.
    QVERIFY(QDir(home(QStringLiteral("memories"))).removeRecursively());
    const std::unique_ptr<PersonaSession> session = openSession();
    PersonaModel *model = session->model();
    const int user = slotOf("USER.md");
    model->createSlot(user, "Name: Ana\n");
    const QMap<QString, QByteArray> before = treeContents(m_dir->path());
    QVERIFY(!session->documents()->save(user));
    QCOMPARE(m_prompter.errors.size(), 1);
    QVERIFY2(m_prompter.errors.first().contains(home(QStringLiteral("memories/USER.md"))),
             qPrintable(m_prompter.errors.first()));
    QVERIFY(model->slot(user).dirty);
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

QTEST_GUILESS_MAIN(tst_HermesHome)
#include "tst_hermeshome.moc"
