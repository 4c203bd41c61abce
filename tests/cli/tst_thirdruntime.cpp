#include "commandline.h"
#include "commands.h"
#include "diff/tokenencoder.h"
#include "disk/slotlayout.h"
#include "notesruntime.h"
#include "persona/freeze.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"
#include "registry/runtimecomparison.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimeregistry.h"
#include "registry/runtimesoul.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;
using soul::test::NotesRuntime;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// What NotesRuntime injects for the folder init() writes, with three lines a
// file: NOTES.md cut after its third line, SOUL.md whole.
constexpr char Expected[] = "# NOTES.md\none\ntwo\nthree\n---\n# SOUL.md\nKind and brief.\n";

} // namespace

// A runtime that is not built in, added by registering it and touching no
// other runtime's code: the registry lists it, and the composer, soulc's
// commands and Freeze take it through the interface alone.
class tst_ThirdRuntime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();

    void registryListsIt();
    void aSecondWithItsIdIsRefused();
    void composesThroughTheInterface();
    void buffersStandForTheirFiles();
    void settingsChangeWhatItKeeps();
    void freezeWritesItsText();
    void soulcComposesAndExportsIt();
    void soulcCheckReportsItsLints();
    void soulcDiffsItsExportWithTheFolder();
    void soulcNamesItAmongTheRuntimes();
    void itAnswersWhatCallersAskOfARuntime();
    void soulcTakesItsOptionsFromItsSettings();
    void soulcHelpDescribesIt();

private:
    int soulc(const QStringList &arguments) const
    {
        return runInvocation(parseCommandLine(arguments));
    }

    QTemporaryDir m_root;
    QString m_dir;
};

void tst_ThirdRuntime::initTestCase()
{
    QVERIFY(RuntimeRegistry::instance().add(std::make_unique<NotesRuntime>()));
}

void tst_ThirdRuntime::cleanupTestCase()
{
    QVERIFY(RuntimeRegistry::instance().remove(u"notes"));
    QVERIFY(!RuntimeRegistry::instance().find(u"notes"));
}

void tst_ThirdRuntime::init()
{
    QVERIFY(m_root.isValid());
    m_dir = m_root.filePath(QString::fromLatin1(QTest::currentTestFunction()));
    QVERIFY(QDir().mkpath(m_dir));
    QVERIFY(writeFile(m_dir + QStringLiteral("/NOTES.md"), "one\ntwo\nthree\nfour\n"));
    QVERIFY(writeFile(m_dir + QStringLiteral("/SOUL.md"), "Kind and brief.\n"));
    QVERIFY(writeFile(m_dir + QStringLiteral("/IDENTITY.md"), "Name: Kip\n"));
}

void tst_ThirdRuntime::registryListsIt()
{
    const RuntimeRegistry &registry = RuntimeRegistry::instance();
    QCOMPARE(registry.ids(), QStringLiteral("toolnexus, openclaw, hermes, notes"));
    QCOMPARE(registry.defaultRuntime()->id(), QStringLiteral("toolnexus"));
    const Runtime *notes = registry.find(u"notes");
    QVERIFY(notes);
    QCOMPARE(notes->displayName(), QStringLiteral("Notes 1.0"));
    const std::optional<RuntimeProfile> profile = runtimeProfileNamed(u"notes");
    QVERIFY(profile);
    QCOMPARE(profile->runtime, notes);
    QVERIFY(!profile->sectioned());
    QCOMPARE(profile->settings.value(QLatin1String(NotesRuntime::MaxLinesKey)), qint64(3));
    QCOMPARE(profile->fileBudget(u"SOUL.md"), qint64(3));
    QCOMPARE(profile->loadedFiles(),
             QStringList({QStringLiteral("NOTES.md"), QStringLiteral("SOUL.md")}));
    QVERIFY(!profile->loads(u"IDENTITY.md"));
}

void tst_ThirdRuntime::aSecondWithItsIdIsRefused()
{
    QVERIFY(!RuntimeRegistry::instance().add(std::make_unique<NotesRuntime>()));
    QVERIFY(!RuntimeRegistry::instance().remove(u"toolnexus"));
    QCOMPARE(RuntimeRegistry::instance().runtimes().size(), 4);
}

void tst_ThirdRuntime::composesThroughTheInterface()
{
    QByteArray written;
    QStringList found;
    QVERIFY(composeDirectoryTo(
        m_dir,
        [&written](QByteArrayView piece) {
            written += piece;
            return true;
        },
        *runtimeProfileNamed(u"notes"),
        &found));
    QCOMPARE(written, QByteArray(Expected));
    QCOMPARE(found, QStringList({QStringLiteral("NOTES.md"), QStringLiteral("SOUL.md")}));
}

void tst_ThirdRuntime::buffersStandForTheirFiles()
{
    const Runtime *notes = RuntimeRegistry::instance().find(u"notes");
    RuntimeInput input;
    input.dir = m_dir;
    input.buffers.insert(QStringLiteral("SOUL.md"), "Bold.\nLoud.\n");
    const Result<RuntimeComposition> c = notes->compose(input, {});
    QVERIFY(c);
    QCOMPARE(c->text, QStringLiteral("# NOTES.md\none\ntwo\nthree\n---\n# SOUL.md\nBold.\nLoud.\n"));
    const RuntimeFileView *soulFile = c->file(u"SOUL.md");
    QVERIFY(soulFile);
    QVERIFY(soulFile->whole);
    QVERIFY(c->file(u"NOTES.md")->truncated);
    // Nothing was written: the file keeps its bytes.
    QCOMPARE(readFile(m_dir + QStringLiteral("/SOUL.md")), QByteArray("Kind and brief.\n"));
}

void tst_ThirdRuntime::settingsChangeWhatItKeeps()
{
    RuntimeProfile profile = *runtimeProfileNamed(u"notes");
    profile.settings.insert(QLatin1String(NotesRuntime::MaxLinesKey), 1);
    RuntimeInput input;
    input.dir = m_dir;
    const Result<RuntimeComposition> c = profile.runtime->compose(input, profile.settings);
    QVERIFY(c);
    QCOMPARE(c->text, QStringLiteral("# NOTES.md\none\n---\n# SOUL.md\nKind and brief."));
    QCOMPARE(profile.fileBudget(u"NOTES.md"), qint64(1));
}

void tst_ThirdRuntime::freezeWritesItsText()
{
    const Runtime *notes = RuntimeRegistry::instance().find(u"notes");
    const QString snapshots = m_root.filePath(QStringLiteral("snapshots"));
    const Result<QString> frozen = freezeSnapshot(m_dir, snapshots, {}, {}, notes, {});
    QVERIFY2(frozen, qPrintable(frozen.error()));
    QCOMPARE(readFile(*frozen), QByteArray(Expected));
    const QJsonObject manifest
        = QJsonDocument::fromJson(readFile(manifestPathFor(*frozen))).object();
    const QJsonObject runtime = manifest.value(QStringLiteral("runtime")).toObject();
    QCOMPARE(runtime.value(QStringLiteral("runtime")).toString(), QStringLiteral("notes"));
    QCOMPARE(runtime.value(QStringLiteral("settings"))
                 .toObject()
                 .value(QStringLiteral("maxLines"))
                 .toInt(),
             3);
    QCOMPARE(manifest.value(QStringLiteral("soul")).toObject().value(QStringLiteral("bytes")).toInt(),
             int(sizeof(Expected) - 1));

    // Without the runtime, Freeze still writes the toolnexus soul.
    const Result<QString> plain = freezeSnapshot(m_dir, snapshots);
    QVERIFY(plain);
    QVERIFY(readFile(*plain).startsWith("## SOUL.md\n\nKind and brief."));
}

void tst_ThirdRuntime::soulcComposesAndExportsIt()
{
    const QString out = m_root.filePath(QStringLiteral("composed.md"));
    QCOMPARE(soulc({QStringLiteral("compose"),
                    QStringLiteral("--runtime"),
                    QStringLiteral("notes"),
                    QStringLiteral("-o"),
                    out,
                    m_dir}),
             ExitSuccess);
    QCOMPARE(readFile(out), QByteArray(Expected));

    const QString exported = m_root.filePath(QStringLiteral("exported.soul.md"));
    QCOMPARE(soulc({QStringLiteral("export"),
                    QStringLiteral("--runtime"),
                    QStringLiteral("notes"),
                    m_dir,
                    exported}),
             ExitSuccess);
    QCOMPARE(readFile(exported), QByteArray(Expected));
    const QJsonObject manifest
        = QJsonDocument::fromJson(readFile(manifestPathFor(exported))).object();
    QCOMPARE(manifest.value(QStringLiteral("runtime"))
                 .toObject()
                 .value(QStringLiteral("runtimeName"))
                 .toString(),
             QStringLiteral("Notes 1.0"));
    // An export never replaces a file without --force.
    QCOMPARE(soulc({QStringLiteral("export"),
                    QStringLiteral("--runtime"),
                    QStringLiteral("notes"),
                    m_dir,
                    exported}),
             ExitFailure);
}

void tst_ThirdRuntime::soulcCheckReportsItsLints()
{
    // NOTES.md is cut: a problem, exit 1.
    QCOMPARE(soulc({QStringLiteral("check"),
                    QStringLiteral("--runtime"),
                    QStringLiteral("notes"),
                    m_dir}),
             ExitProblems);
    QVERIFY(writeFile(m_dir + QStringLiteral("/NOTES.md"), "one\n"));
    QCOMPARE(soulc({QStringLiteral("check"),
                    QStringLiteral("--runtime"),
                    QStringLiteral("notes"),
                    m_dir}),
             ExitSuccess);
}

// An export of its text against the folder: composed for it by the
// export's settings; a runtime that places no file's part is judged by the
// whole text.
void tst_ThirdRuntime::soulcDiffsItsExportWithTheFolder()
{
    const QString exported = m_root.filePath(QStringLiteral("diffed.soul.md"));
    QCOMPARE(soulc({QStringLiteral("export"),
                    QStringLiteral("--runtime"),
                    QStringLiteral("notes"),
                    m_dir,
                    exported}),
             ExitSuccess);
    QCOMPARE(soulc({QStringLiteral("diff"), exported, m_dir}), ExitSuccess);
    // The fourth line is cut either way: nothing the runtime injects changed.
    QVERIFY(writeFile(m_dir + QStringLiteral("/NOTES.md"), "one\ntwo\nthree\nFOUR\n"));
    QCOMPARE(soulc({QStringLiteral("diff"), exported, m_dir}), ExitSuccess);
    QVERIFY(writeFile(m_dir + QStringLiteral("/SOUL.md"), "Kind and long.\n"));
    QCOMPARE(soulc({QStringLiteral("diff"), exported, m_dir}), ExitProblems);

    const Result<RuntimeSnapshot> snapshot = loadRuntimeSnapshot(exported);
    QVERIFY2(snapshot, qPrintable(snapshot.error()));
    const Result<const Runtime *> runtime = snapshotRuntime(*snapshot);
    QVERIFY(runtime);
    QCOMPARE((*runtime)->id(), QStringLiteral("notes"));
    RuntimeInput input;
    input.dir = m_dir;
    const Result<RuntimeComposition> live = (*runtime)->compose(input, snapshot->settings);
    QVERIFY(live);
    const RuntimeTextComparison c
        = compareRuntimeText(*snapshot,
                             runtimeTextOf(**runtime, snapshot->settings, *live, m_dir),
                             tokenEncoding(QStringLiteral("bytes")).value());
    QStringList statuses;
    for (const RuntimeFileStatus &file : c.files) {
        statuses.append(file.name + QLatin1Char('=') + sectionStatusName(file.status)
                        + (file.placed ? QString() : QStringLiteral("(unplaced)")));
    }
    QCOMPARE(statuses.join(QLatin1Char(' ')),
             QStringLiteral("NOTES.md=changed(unplaced) SOUL.md=changed(unplaced)"));
    QVERIFY(!c.prefix.identical);
}

void tst_ThirdRuntime::soulcNamesItAmongTheRuntimes()
{
    const Invocation invocation = parseCommandLine(
        {QStringLiteral("compose"), QStringLiteral("--runtime"), QStringLiteral("nope"), m_dir});
    QVERIFY2(invocation.usageError.contains(
                 QStringLiteral("unknown runtime 'nope' (toolnexus, openclaw, hermes, notes).")),
             qPrintable(invocation.usageError));
}

void tst_ThirdRuntime::itAnswersWhatCallersAskOfARuntime()
{
    const RuntimeRegistry &registry = RuntimeRegistry::instance();
    const Runtime *notes = registry.find(QString::fromLatin1(NotesRuntime::Id));
    QVERIFY(notes);
    // What the window and soulc used to find out by its name, it answers
    // itself: a flat folder, no commits, no sidebar sum, no pane hint.
    QVERIFY(!notes->readsHome());
    QVERIFY(!notes->readsRevisions());
    QVERIFY(!notes->summarizesBudget());
    QVERIFY(!notes->hintsPanes());
    QVERIFY(notes->keepHint(u"NOTES.md", 1000000, {}).isEmpty());
    QVERIFY(notes->homeDirectory().isEmpty());
    QVERIFY(notes->homeOption().isEmpty());
    const Result<SlotLayout> home = notes->homeLayout(m_dir, m_dir);
    QVERIFY(!home);
    QVERIFY2(home.error().startsWith(QStringLiteral("Notes 1.0 reads one persona folder")),
             qPrintable(home.error()));
    RuntimeInput input;
    input.dir = m_dir;
    const QStringList paths = notes->readPaths(input, {QStringLiteral("SOUL.md")});
    QCOMPARE(paths, QStringList{QDir(m_dir).filePath(QStringLiteral("SOUL.md"))});
    QVERIFY(notes->readRulesFolder(input).isEmpty());

    // The registry finds the runtimes that do answer yes, whichever they are.
    for (const Runtime *runtime :
         {registry.homeRuntime(), registry.summaryRuntime(), registry.hintRuntime()}) {
        QVERIFY(runtime);
        QVERIFY(runtime != notes);
    }
    QVERIFY(registry.homeRuntime()->readsHome());
    QVERIFY(registry.summaryRuntime()->summarizesBudget());
    QVERIFY(registry.hintRuntime()->hintsPanes());
    QVERIFY(paneHintRuntime() == registry.hintRuntime());

    // A commit is composed only by a runtime that reads revisions.
    const Invocation rev = parseCommandLine({QStringLiteral("stat"),
                                             QStringLiteral("--runtime"),
                                             QLatin1String(NotesRuntime::Id),
                                             QStringLiteral("--rev"),
                                             QStringLiteral("HEAD"),
                                             m_dir});
    QVERIFY2(rev.usageError.contains(
                 QStringLiteral("options '--rev' and '--runtime notes' exclude each other")),
             qPrintable(rev.usageError));
}

void tst_ThirdRuntime::soulcTakesItsOptionsFromItsSettings()
{
    const Invocation given = parseCommandLine({QStringLiteral("compose"),
                                               QStringLiteral("--runtime"),
                                               QLatin1String(NotesRuntime::Id),
                                               QStringLiteral("--max-lines=1"),
                                               m_dir});
    QVERIFY2(given.usageError.isEmpty(), qPrintable(given.usageError));
    QCOMPARE(given.settings, (RuntimeSettings{{QLatin1String(NotesRuntime::MaxLinesKey), 1}}));

    const Invocation alone = parseCommandLine(
        {QStringLiteral("compose"), QStringLiteral("--max-lines"), QStringLiteral("2"), m_dir});
    QVERIFY2(alone.usageError.contains(
                 QStringLiteral("option '--max-lines' needs --runtime notes.")),
             qPrintable(alone.usageError));

    const Invocation bad = parseCommandLine({QStringLiteral("compose"),
                                             QStringLiteral("--runtime"),
                                             QLatin1String(NotesRuntime::Id),
                                             QStringLiteral("--max-lines"),
                                             QStringLiteral("none"),
                                             m_dir});
    QVERIFY2(bad.usageError.contains(
                 QStringLiteral("option '--max-lines' needs a whole number above 0, not 'none'.")),
             qPrintable(bad.usageError));
}

void tst_ThirdRuntime::soulcHelpDescribesIt()
{
    const QString general = QString::fromUtf8(helpText(Command::None));
    QVERIFY2(general.contains(QStringLiteral("--runtime notes (what Notes 1.0 keeps of")),
             qPrintable(general));
    for (const Command command :
         {Command::Compose, Command::Stat, Command::Check, Command::Export}) {
        QVERIFY(
            QString::fromUtf8(helpText(command))
                .contains(QStringLiteral("toolnexus (the default), openclaw, hermes or notes")));
    }
}

QTEST_GUILESS_MAIN(tst_ThirdRuntime)
#include "tst_thirdruntime.moc"
