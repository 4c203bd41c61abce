#include "compose/composer.h"
#include "disk/composedirectory.h"
#include "persona/freeze.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtimeskills.h"
#include "testfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;
using namespace soul::test;

class tst_Freeze : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void fileName_data();
    void fileName();
    void freezesBesideNothingElse();
    void sameSecondGetsItsOwnName();
    void failsWithASentence();
    void recentNewestFirst();
    void recordsSkillsList();

private:
    std::unique_ptr<QTemporaryDir> m_root;
    QString m_persona;
    QString m_snapshots;
};

void tst_Freeze::init()
{
    m_root = std::make_unique<QTemporaryDir>();
    QVERIFY(m_root->isValid());
    m_persona = m_root->filePath(QStringLiteral("ava"));
    m_snapshots = m_root->filePath(QStringLiteral("snapshots/of/ava"));
    QVERIFY(QDir().mkpath(m_persona));
    QVERIFY(writeSlot(m_persona, 1, "You are Ava."));
    QVERIFY(writeSlot(m_persona, 6, "- likes tea"));
}

void tst_Freeze::fileName_data()
{
    QTest::addColumn<QString>("persona");
    QTest::addColumn<QDateTime>("at");
    QTest::addColumn<QString>("expected");
    QTest::newRow("utc") << QStringLiteral("ava")
                         << QDateTime(QDate(2026, 11, 30), QTime(22, 40, 5), Qt::UTC)
                         << QStringLiteral("ava-2026-11-30T22-40-05.soul.md");
    QTest::newRow("offset turned to utc")
        << QStringLiteral("kip")
        << QDateTime(QDate(2026, 1, 2), QTime(0, 30, 0), Qt::OffsetFromUTC, 3600)
        << QStringLiteral("kip-2026-01-01T23-30-00.soul.md");
}

void tst_Freeze::fileName()
{
    QFETCH(QString, persona);
    QFETCH(QDateTime, at);
    QFETCH(QString, expected);
    QCOMPARE(snapshotFileName(persona, at), expected);
}

void tst_Freeze::freezesBesideNothingElse()
{
    const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
    const Result<QString> frozen = freezeSnapshot(m_persona, m_snapshots);
    QVERIFY2(frozen.ok(), qPrintable(frozen.error()));
    const QString name = QFileInfo(*frozen).fileName();
    const QRegularExpression pattern(
        QStringLiteral("^ava-(\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2})\\.soul\\.md$"));
    const QRegularExpressionMatch m = pattern.match(name);
    QVERIFY2(m.hasMatch(), qPrintable(name));
    const QDateTime at = QDateTime::fromString(m.captured(1), QStringLiteral("yyyy-MM-ddTHH-mm-ss"));
    QDateTime atUtc = at;
    atUtc.setTimeSpec(Qt::UTC);
    QVERIFY(atUtc >= before && atUtc <= QDateTime::currentDateTimeUtc());
    QCOMPARE(QFileInfo(*frozen).absolutePath(), QDir(m_snapshots).absolutePath());
    // The same bytes as an export, and it loads back against its manifest.
    QVERIFY(readFile(*frozen) == composeDirectory(m_persona).soul);
    const Result<LoadedSnapshot> loaded = loadSnapshot(*frozen);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
    // A toolnexus soul records no skills list: schema 2.
    QCOMPARE(loaded->schema, ManifestSchema - 1);
    // Nothing was written into the persona folder.
    QCOMPARE(QDir(m_persona).entryList(QDir::Files | QDir::Hidden),
             QStringList({QStringLiteral("MEMORY.md"), QStringLiteral("SOUL.md")}));
}

void tst_Freeze::sameSecondGetsItsOwnName()
{
    const QDateTime at(QDate(2026, 11, 30), QTime(22, 40, 5), Qt::UTC);
    const QDir dir(m_snapshots);
    const QStringList expected{dir.filePath(QStringLiteral("ava-2026-11-30T22-40-05.soul.md")),
                               dir.filePath(QStringLiteral("ava-2026-11-30T22-40-05-2.soul.md")),
                               dir.filePath(QStringLiteral("ava-2026-11-30T22-40-05-3.soul.md"))};
    for (const QString &path : expected) {
        const Result<QString> frozen = freezeSnapshot(m_persona, m_snapshots, at);
        QVERIFY2(frozen.ok(), qPrintable(frozen.error()));
        QCOMPARE(*frozen, path);
        QVERIFY(QFileInfo::exists(manifestPathFor(path)));
    }
    QCOMPARE(recentSnapshots(m_snapshots, QStringLiteral("ava")).first(), expected.last());
    // A manifest left alone still keeps its name taken.
    QVERIFY(QFile::remove(expected.last()));
    const Result<QString> next = freezeSnapshot(m_persona, m_snapshots, at);
    QVERIFY(next.ok());
    QCOMPARE(*next, dir.filePath(QStringLiteral("ava-2026-11-30T22-40-05-4.soul.md")));
}

void tst_Freeze::failsWithASentence()
{
    const QString missing = m_root->filePath(QStringLiteral("gone"));
    Result<QString> frozen = freezeSnapshot(missing, m_snapshots);
    QVERIFY(!frozen.ok());
    QVERIFY2(frozen.error().contains(missing), qPrintable(frozen.error()));

    const QString blocker = m_root->filePath(QStringLiteral("file"));
    QVERIFY(writeFile(blocker, "not a folder"));
    frozen = freezeSnapshot(m_persona, blocker + QStringLiteral("/snapshots"));
    QVERIFY(!frozen.ok());
    QVERIFY2(frozen.error().contains(blocker), qPrintable(frozen.error()));
}

void tst_Freeze::recentNewestFirst()
{
    QVERIFY(QDir().mkpath(m_snapshots));
    const QDir dir(m_snapshots);
    const QStringList names{QStringLiteral("ava-2026-11-30T22-40-05.soul.md"),
                            QStringLiteral("ava-2026-12-01T08-00-00.soul.md"),
                            QStringLiteral("ava-2026-12-01T08-00-00-2.soul.md"),
                            QStringLiteral("ava-2025-01-01T00-00-00.soul.md"),
                            QStringLiteral("avalon-2027-01-01T00-00-00.soul.md")};
    for (const QString &name : names) {
        QVERIFY(writeFile(dir.filePath(name), "x"));
        QVERIFY(writeFile(manifestPathFor(dir.filePath(name)), "{}"));
    }
    // A soul without its manifest is not a snapshot.
    QVERIFY(writeFile(dir.filePath(QStringLiteral("ava-2028-01-01T00-00-00.soul.md")), "x"));
    QCOMPARE(recentSnapshots(m_snapshots, QStringLiteral("ava"), 3),
             QStringList(
                 {dir.filePath(names.at(2)), dir.filePath(names.at(1)), dir.filePath(names.at(0))}));
    QCOMPARE(recentSnapshots(m_snapshots, QStringLiteral("ava")).size(), 4);
    QCOMPARE(recentSnapshots(m_snapshots, QStringLiteral("avalon")),
             QStringList({dir.filePath(names.at(4))}));
}

// Freeze with each runtime that lists skills records the list its prompt
// carries in the manifest, as Runtime::skills() gives it, and reads it back.
void tst_Freeze::recordsSkillsList()
{
    // The runtimes read their own places from the environment: all of them
    // inside this test's folder.
    const QString home = m_root->filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(home));
    qputenv("HOME", QFile::encodeName(home));
    for (const char *variable : {"OPENCLAW_STATE_DIR",
                                 "OPENCLAW_BUNDLED_SKILLS_DIR",
                                 "OPENCLAW_CONFIG_PATH",
                                 "HERMES_HOME"})
        qputenv(variable, QFile::encodeName(m_root->filePath(QStringLiteral("none"))));
    QVERIFY(QDir().mkpath(m_persona + QStringLiteral("/skills/tea")));
    QVERIFY(writeFile(m_persona + QStringLiteral("/skills/tea/SKILL.md"),
                      "---\nname: tea\ndescription: Brew tea\n---\n\nSteps.\n"));
    int runtimes = 0;
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes()) {
        if (!runtime->listsSkills() || runtime->sectionRule())
            continue;
        ++runtimes;
        RuntimeInput input;
        input.dir = m_persona;
        const Result<SkillsList> list = runtime->skills(defaultSkillsRequest(input));
        QVERIFY2(list.ok(), qPrintable(list.error()));
        const QString folder = m_snapshots + QLatin1Char('/') + runtime->id();
        const Result<QString> frozen = freezeSnapshot(m_persona, folder, {}, {}, runtime);
        QVERIFY2(frozen.ok(), qPrintable(frozen.error()));
        const QJsonObject skills = QJsonDocument::fromJson(readFile(manifestPathFor(*frozen)))
                                       .object()
                                       .value(QStringLiteral("skills"))
                                       .toObject();
        QCOMPARE(skills.value(QStringLiteral("text")).toString(), list->prompt);
        QCOMPARE(skills.value(QStringLiteral("sha256")).toString(), skillsSha256(list->prompt));
        QCOMPARE(skills.value(QStringLiteral("chars")).toInteger(), qint64(list->prompt.size()));
        QCOMPARE(skills.value(QStringLiteral("names")).toArray(),
                 QJsonArray::fromStringList(listedSkillNames(*list)));
        QVERIFY2(skills.value(QStringLiteral("names")).toArray().contains(QStringLiteral("tea")),
                 qPrintable(runtime->id()));
        const Result<RuntimeSnapshot> loaded = loadRuntimeSnapshot(*frozen);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
        QCOMPARE(loaded->schema, ManifestSchema);
        QVERIFY(loaded->skills);
        QCOMPARE(loaded->skills->text, list->prompt);
        QCOMPARE(loaded->skills->names, listedSkillNames(*list));
    }
    QVERIFY(runtimes >= 2);
}

QTEST_GUILESS_MAIN(tst_Freeze)

#include "tst_freeze.moc"
