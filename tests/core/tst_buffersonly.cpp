#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;

// RuntimeInput::buffersOnly, per runtime: the buffers are the whole folder.
// What a runtime makes of them equals what it makes of a folder holding
// exactly those files, whatever else the folder holds on disk.
class tst_BuffersOnly : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void equalsAFolderOfThoseFiles_data();
    void equalsAFolderOfThoseFiles();
};

using Files = QHash<QString, QByteArray>;
Q_DECLARE_METATYPE(Files)

void tst_BuffersOnly::equalsAFolderOfThoseFiles_data()
{
    QTest::addColumn<QString>("runtime");
    QTest::addColumn<Files>("files");
    const Files soulOnly{{QStringLiteral("SOUL.md"), "# Soul\nCalm and exact.\n"}};
    const Files persona{{QStringLiteral("SOUL.md"), "# Soul\nCalm.\r\n"},
                        {QStringLiteral("AGENTS.md"), "# Agents\nRead the notes first.\n"},
                        {QStringLiteral("MEMORY.md"), "- The user likes tea.\n"},
                        {QStringLiteral("USER.md"), "Name: Ada\n"},
                        {QStringLiteral("IDENTITY.md"), "Ava, a helper.\n"}};
    Files bootstrap = soulOnly;
    bootstrap.insert(QStringLiteral("BOOTSTRAP.md"), "Ask the user their name.\n");
    const Files large{{QStringLiteral("SOUL.md"), QByteArray(2097153, 'a')},
                      {QStringLiteral("TOOLS.md"), "grep, sed\n"}};
    for (const QString &runtime :
         {QStringLiteral("toolnexus"), QStringLiteral("openclaw"), QStringLiteral("hermes")}) {
        QTest::addRow("%s: SOUL.md alone", qPrintable(runtime)) << runtime << soulOnly;
        QTest::addRow("%s: five files", qPrintable(runtime)) << runtime << persona;
        QTest::addRow("%s: BOOTSTRAP.md", qPrintable(runtime)) << runtime << bootstrap;
        QTest::addRow("%s: over 2 MiB", qPrintable(runtime)) << runtime << large;
    }
}

void tst_BuffersOnly::equalsAFolderOfThoseFiles()
{
    QFETCH(QString, runtime);
    QFETCH(Files, files);
    const Runtime *r = RuntimeRegistry::instance().find(runtime);
    QVERIFY(r);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    // The folder holding exactly those files, composed from disk.
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        QVERIFY(test::writeFile(dir.filePath(it.key()), it.value()));
    RuntimeInput disk;
    disk.dir = dir.path();
    const Result<RuntimeComposition> expected = r->compose(disk, {});
    QVERIFY2(expected, qPrintable(expected.error()));

    // The same folder with every file the runtime reads on disk, each other
    // than its buffer: none of it may reach the text.
    QStringList names = r->files();
    names << QStringLiteral("SOUL.md") << QStringLiteral("AGENTS.md") << QStringLiteral("MEMORY.md")
          << QStringLiteral("USER.md") << QStringLiteral("BOOTSTRAP.md")
          << QStringLiteral("CLAUDE.md");
    for (const QString &name : std::as_const(names))
        QVERIFY(test::writeFile(dir.filePath(name), "DISKONLY " + name.toUtf8() + "\n"));
    RuntimeInput buffers;
    buffers.dir = dir.path();
    buffers.buffers = files;
    buffers.buffersOnly = true;
    const Result<RuntimeComposition> actual = r->compose(buffers, {});
    QVERIFY2(actual, qPrintable(actual.error()));
    QVERIFY(!actual->text.contains(QLatin1String("DISKONLY")));
    QCOMPARE(actual->text, expected->text);
    QCOMPARE(actual->found, expected->found);

    // Without the flag the files on disk are read (the row can tell).
    buffers.buffersOnly = false;
    buffers.buffers.clear();
    const Result<RuntimeComposition> fromDisk = r->compose(buffers, {});
    QVERIFY(fromDisk);
    QVERIFY(fromDisk->text.contains(QLatin1String("DISKONLY")));
}

QTEST_GUILESS_MAIN(tst_BuffersOnly)
#include "tst_buffersonly.moc"
