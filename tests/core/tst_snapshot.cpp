#include "compose/composer.h"
#include "compose/contract.h"
#include "disk/composedirectory.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"
#include "testfiles.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace soul;
using namespace soul::test;

namespace {

QString sha256Hex(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

QJsonObject readJson(const QString &path, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(readFile(path), &parseError);
    if (doc.isNull())
        *error = parseError.errorString();
    return doc.object();
}

} // namespace

class tst_Snapshot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void writesSoulAndManifest();
    void emptyPersona();
    void refusesToOverwrite();
    void overwritesWhenAllowed();
    void failsIntoMissingDirectory();
    void failsIntoUnwritableDirectory();
    void failsOnMissingPersona();
    void equalSoulsHaveEqualDigests();
    void manifestRecordsSections();
    void loadsWhatItWrote_data();
    void loadsWhatItWrote();
    void loadRefusesChangedSoul();
    void loadNeedsManifest();
    void loadRefusesSectionsElsewhere();

private:
    // Writes a persona of SOUL.md (after three blank lines), a BOM'd USER.md,
    // an over-the-cap TOOLS.md and a MEMORY.md, exports it and returns the
    // soul's path.
    QString exportSample();

private:
    std::unique_ptr<QTemporaryDir> m_persona;
    std::unique_ptr<QTemporaryDir> m_out;
    QString outPath(const QString &name) const { return QDir(m_out->path()).filePath(name); }
};

void tst_Snapshot::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_Snapshot::init()
{
    m_persona = std::make_unique<QTemporaryDir>();
    m_out = std::make_unique<QTemporaryDir>();
    QVERIFY(m_persona->isValid());
    QVERIFY(m_out->isValid());
}

void tst_Snapshot::writesSoulAndManifest()
{
    const QByteArray soulMd("You are Kip, a terse assistant.\n");
    const QByteArray tools = repeated("tool ", CapBytes / 5 + 100); // over the cap
    const QByteArray memory("\xEF\xBB\xBF- prefers metric units\r\n");
    QVERIFY(writeSlot(m_persona->path(), 6, memory));
    QVERIFY(writeSlot(m_persona->path(), 4, tools));
    QVERIFY(writeSlot(m_persona->path(), 1, soulMd));
    QVERIFY(writeFile(QDir(m_persona->path()).filePath(QStringLiteral("soul.md")), "ignored"));

    const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
    const Result<Snapshot> snapshot = takeSnapshot(m_persona->path());
    const QDateTime after = QDateTime::currentDateTimeUtc().addSecs(1);
    QVERIFY2(snapshot.ok(), qPrintable(snapshot.error()));

    const Composition expected = composeDirectory(m_persona->path());
    QVERIFY(snapshot->soul() == expected.soul);

    const QString soulPath = outPath(QStringLiteral("kip.soul"));
    const Status written = writeSnapshot(*snapshot, soulPath, false);
    QVERIFY2(written.ok(), qPrintable(written.error()));
    QVERIFY(readFile(soulPath) == expected.soul);

    const QString manifestPath = manifestPathFor(soulPath);
    QCOMPARE(manifestPath, soulPath + QStringLiteral(".manifest.json"));
    QVERIFY(QFileInfo::exists(manifestPath));
    QString error;
    const QJsonObject manifest = readJson(manifestPath, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(manifest, snapshot->manifest());

    QCOMPARE(manifest.value(QLatin1String("format")).toString(), QStringLiteral("soul-snapshot"));
    QCOMPARE(manifest.value(QLatin1String("version")).toInt(), 1);
    const QDateTime createdAt
        = QDateTime::fromString(manifest.value(QLatin1String("createdAt")).toString(),
                                Qt::ISODateWithMs);
    QVERIFY(createdAt.isValid());
    QCOMPARE(createdAt.timeSpec(), Qt::UTC);
    QVERIFY(createdAt >= before && createdAt <= after);
    QCOMPARE(createdAt, snapshot->createdAt);
    QCOMPARE(manifest.value(QLatin1String("directory")).toString(),
             QFileInfo(m_persona->path()).absoluteFilePath());
    QCOMPARE(manifest.value(QLatin1String("capBytes")).toInteger(), CapBytes);

    QStringList order;
    for (const QJsonValue &v : manifest.value(QLatin1String("order")).toArray())
        order.append(v.toString());
    QCOMPARE(order, bootstrapOrder());

    const QStringList expectedFound{QStringLiteral("SOUL.md"),
                                    QStringLiteral("TOOLS.md"),
                                    QStringLiteral("MEMORY.md")};
    QStringList found;
    for (const QJsonValue &v : manifest.value(QLatin1String("found")).toArray())
        found.append(v.toString());
    QCOMPARE(found, expectedFound);

    const QJsonArray files = manifest.value(QLatin1String("files")).toArray();
    QCOMPARE(files.size(), 3);
    const QByteArray contents[] = {soulMd, tools, memory};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject file = files.at(i).toObject();
        QCOMPARE(file.value(QLatin1String("name")).toString(), expectedFound.at(i));
        QCOMPARE(file.value(QLatin1String("bytes")).toInteger(), qint64(contents[i].size()));
        QCOMPARE(file.value(QLatin1String("truncated")).toBool(), i == 1);
        // The digest is of the whole file, past the cap too.
        QCOMPARE(file.value(QLatin1String("sha256")).toString(), sha256Hex(contents[i]));
    }

    const QJsonObject soulObject = manifest.value(QLatin1String("soul")).toObject();
    QCOMPARE(soulObject.value(QLatin1String("bytes")).toInteger(), qint64(expected.soul.size()));
    QCOMPARE(soulObject.value(QLatin1String("sha256")).toString(), sha256Hex(expected.soul));
    QCOMPARE(soulObject.value(QLatin1String("sha256")).toString(), sha256Hex(readFile(soulPath)));

    // Nothing else was left in the output folder (no temporary files).
    QCOMPARE(QDir(m_out->path()).entryList(QDir::Files | QDir::Hidden, QDir::Name),
             (QStringList{QStringLiteral("kip.soul"), QStringLiteral("kip.soul.manifest.json")}));
}

void tst_Snapshot::emptyPersona()
{
    const Result<Snapshot> snapshot = takeSnapshot(m_persona->path());
    QVERIFY2(snapshot.ok(), qPrintable(snapshot.error()));
    QVERIFY(snapshot->soul().isEmpty());
    const QString soulPath = outPath(QStringLiteral("empty.soul"));
    QVERIFY(writeSnapshot(*snapshot, soulPath, false).ok());
    QVERIFY(QFileInfo::exists(soulPath));
    QCOMPARE(QFileInfo(soulPath).size(), qint64(0));
    QString error;
    const QJsonObject manifest = readJson(manifestPathFor(soulPath), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(manifest.value(QLatin1String("found")).toArray().isEmpty());
    QVERIFY(manifest.value(QLatin1String("files")).toArray().isEmpty());
    const QJsonObject soulObject = manifest.value(QLatin1String("soul")).toObject();
    QCOMPARE(soulObject.value(QLatin1String("bytes")).toInteger(), qint64(0));
    QCOMPARE(soulObject.value(QLatin1String("sha256")).toString(),
             QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
}

void tst_Snapshot::refusesToOverwrite()
{
    QVERIFY(writeSlot(m_persona->path(), 0, "Reply in one line."));
    const Result<Snapshot> snapshot = takeSnapshot(m_persona->path());
    QVERIFY(snapshot.ok());

    // An existing soul file.
    const QString soulPath = outPath(QStringLiteral("taken.soul"));
    QVERIFY(writeFile(soulPath, "keep me"));
    const Status refused = writeSnapshot(*snapshot, soulPath, false);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().contains(soulPath), qPrintable(refused.error()));
    QVERIFY(refused.error().contains(QLatin1String("already exists")));
    QCOMPARE(readFile(soulPath), QByteArray("keep me"));
    QVERIFY(!QFileInfo::exists(manifestPathFor(soulPath)));

    // Only the manifest exists: still refused, naming the manifest.
    const QString otherPath = outPath(QStringLiteral("other.soul"));
    QVERIFY(writeFile(manifestPathFor(otherPath), "{}"));
    const Status refusedManifest = writeSnapshot(*snapshot, otherPath, false);
    QVERIFY(!refusedManifest.ok());
    QVERIFY2(refusedManifest.error().contains(manifestPathFor(otherPath)),
             qPrintable(refusedManifest.error()));
    QVERIFY(!QFileInfo::exists(otherPath));
    QCOMPARE(readFile(manifestPathFor(otherPath)), QByteArray("{}"));
}

void tst_Snapshot::overwritesWhenAllowed()
{
    QVERIFY(writeSlot(m_persona->path(), 1, "first"));
    const Result<Snapshot> first = takeSnapshot(m_persona->path());
    QVERIFY(first.ok());
    const QString soulPath = outPath(QStringLiteral("persona.soul"));
    QVERIFY(writeSnapshot(*first, soulPath, false).ok());
    QCOMPARE(readFile(soulPath), QByteArray("## SOUL.md\n\nfirst"));

    QVERIFY(writeSlot(m_persona->path(), 1, "second"));
    const Result<Snapshot> second = takeSnapshot(m_persona->path());
    QVERIFY(second.ok());
    QVERIFY(!writeSnapshot(*second, soulPath, false).ok());
    QCOMPARE(readFile(soulPath), QByteArray("## SOUL.md\n\nfirst"));

    const Status overwritten = writeSnapshot(*second, soulPath, true);
    QVERIFY2(overwritten.ok(), qPrintable(overwritten.error()));
    QCOMPARE(readFile(soulPath), QByteArray("## SOUL.md\n\nsecond"));
    QString error;
    const QJsonObject manifest = readJson(manifestPathFor(soulPath), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(manifest.value(QLatin1String("soul"))
                 .toObject()
                 .value(QLatin1String("sha256"))
                 .toString(),
             sha256Hex("## SOUL.md\n\nsecond"));
}

void tst_Snapshot::failsIntoMissingDirectory()
{
    QVERIFY(writeSlot(m_persona->path(), 1, "x"));
    const Result<Snapshot> snapshot = takeSnapshot(m_persona->path());
    QVERIFY(snapshot.ok());
    const QString soulPath = outPath(QStringLiteral("not/there/x.soul"));
    for (const bool overwrite : {false, true}) {
        const Status status = writeSnapshot(*snapshot, soulPath, overwrite);
        QVERIFY(!status.ok());
        QVERIFY2(status.error().contains(soulPath), qPrintable(status.error()));
        QVERIFY(status.error().endsWith(QLatin1Char('.')));
    }
    QVERIFY(!QFileInfo::exists(outPath(QStringLiteral("not"))));
}

void tst_Snapshot::failsIntoUnwritableDirectory()
{
    QVERIFY(writeSlot(m_persona->path(), 1, "x"));
    const Result<Snapshot> snapshot = takeSnapshot(m_persona->path());
    QVERIFY(snapshot.ok());

    // A regular file where the folder should be fails for root too.
    QVERIFY(writeFile(outPath(QStringLiteral("file")), "plain"));
    const QString underFile = outPath(QStringLiteral("file/x.soul"));
    const Status status = writeSnapshot(*snapshot, underFile, true);
    QVERIFY(!status.ok());
    QVERIFY2(status.error().contains(underFile), qPrintable(status.error()));

    if (::geteuid() == 0)
        QSKIP("root writes into a read-only directory");
    const QString locked = outPath(QStringLiteral("locked"));
    QVERIFY(QDir().mkpath(locked));
    QVERIFY(::chmod(QFile::encodeName(locked).constData(), 0500) == 0);
    const QString soulPath = QDir(locked).filePath(QStringLiteral("x.soul"));
    const Status denied = writeSnapshot(*snapshot, soulPath, false);
    ::chmod(QFile::encodeName(locked).constData(), 0700);
    QVERIFY(!denied.ok());
    QVERIFY2(denied.error().contains(soulPath), qPrintable(denied.error()));
}

void tst_Snapshot::failsOnMissingPersona()
{
    const QString missing = QDir(m_persona->path()).filePath(QStringLiteral("gone"));
    const Result<Snapshot> snapshot = takeSnapshot(missing);
    QVERIFY(!snapshot.ok());
    QVERIFY2(snapshot.error().contains(missing), qPrintable(snapshot.error()));
}

void tst_Snapshot::equalSoulsHaveEqualDigests()
{
    // Two personas that differ only in what the agent does not get.
    QTemporaryDir other;
    QVERIFY(other.isValid());
    QVERIFY(writeSlot(m_persona->path(), 2, "Name: Oriel\n"));
    QVERIFY(writeSlot(other.path(), 2, "\n  Name: Oriel  \n\n"));
    QVERIFY(writeFile(QDir(other.path()).filePath(QStringLiteral("notes.txt")), "aside"));
    const Result<Snapshot> a = takeSnapshot(m_persona->path());
    const Result<Snapshot> b = takeSnapshot(other.path());
    QVERIFY(a.ok() && b.ok());
    const QJsonObject ma = a->manifest();
    const QJsonObject mb = b->manifest();
    QCOMPARE(ma.value(QLatin1String("soul")), mb.value(QLatin1String("soul")));
    QVERIFY(ma.value(QLatin1String("files")) != mb.value(QLatin1String("files")));
}

QString tst_Snapshot::exportSample()
{
    if (!writeSlot(m_persona->path(), 1, "\n \t\r\n\nYou are Kip.\nTerse.\n")
        || !writeSlot(m_persona->path(), 3, "\xEF\xBB\xBF\nThe user\n")
        || !writeSlot(m_persona->path(), 4, "\n" + repeated("tool\n", CapBytes / 5 + 100))
        || !writeSlot(m_persona->path(), 6, "- prefers metric units")) {
        return {};
    }
    const Result<Snapshot> snapshot = takeSnapshot(m_persona->path());
    if (!snapshot)
        return {};
    const QString soulPath = outPath(QStringLiteral("kip.soul.md"));
    return writeSnapshot(*snapshot, soulPath, true) ? soulPath : QString();
}

void tst_Snapshot::manifestRecordsSections()
{
    const QString soulPath = exportSample();
    QVERIFY(!soulPath.isEmpty());
    const Composition c = composeDirectory(m_persona->path());
    QString error;
    const QJsonObject manifest = readJson(manifestPathFor(soulPath), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // A toolnexus soul records no skills list: schema 2.
    QCOMPARE(manifest.value(QLatin1String("schema")).toInt(), ManifestSchema - 1);
    const QJsonArray files = manifest.value(QLatin1String("files")).toArray();
    QCOMPARE(files.size(), 4);
    // SOUL.md's body starts after three line breaks; USER.md's BOM stops the trim.
    const QHash<QString, qint64> bodyLines{{QStringLiteral("SOUL.md"), 4},
                                           {QStringLiteral("USER.md"), 1},
                                           {QStringLiteral("TOOLS.md"), 2},
                                           {QStringLiteral("MEMORY.md"), 1}};
    for (const QJsonValue &value : files) {
        const QJsonObject file = value.toObject();
        const QString name = file.value(QLatin1String("name")).toString();
        const int slot = slotIndex(name);
        const QJsonObject section = file.value(QLatin1String("section")).toObject();
        QCOMPARE(section.value(QLatin1String("offset")).toInteger(), c.sectionOffset[size_t(slot)]);
        QCOMPARE(section.value(QLatin1String("bytes")).toInteger(), c.sectionLength[size_t(slot)]);
        QCOMPARE(section.value(QLatin1String("bodyLine")).toInteger(), bodyLines.value(name));
        QVERIFY(
            c.soul.mid(section.value(QLatin1String("offset")).toInteger()).startsWith(head(slot)));
    }
}

void tst_Snapshot::loadsWhatItWrote_data()
{
    QTest::addColumn<bool>("oldManifest");
    QTest::newRow("schema 2") << false;
    QTest::newRow("schema 1, without sections") << true;
}

void tst_Snapshot::loadsWhatItWrote()
{
    QFETCH(bool, oldManifest);
    const QString soulPath = exportSample();
    QVERIFY(!soulPath.isEmpty());
    if (oldManifest)
        QVERIFY(makeSchemaOne(manifestPathFor(soulPath)));
    const Composition c = composeDirectory(m_persona->path());
    const Result<LoadedSnapshot> loaded = loadSnapshot(soulPath);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
    QCOMPARE(loaded->schema, oldManifest ? 1 : ManifestSchema - 1);
    QCOMPARE(loaded->sectionsFromManifest, !oldManifest);
    QCOMPARE(loaded->found, c.found);
    QVERIFY(loaded->soul.soul == c.soul);
    QCOMPARE(loaded->soul.label, soulPath);
    for (int slot = 0; slot < SlotCount; ++slot) {
        QCOMPARE(loaded->soul.sectionOffset[size_t(slot)], c.sectionOffset[size_t(slot)]);
        if (c.present[size_t(slot)])
            QCOMPARE(loaded->soul.sectionLength[size_t(slot)], c.sectionLength[size_t(slot)]);
        QCOMPARE(loaded->soul.truncated[size_t(slot)], c.truncated[size_t(slot)]);
        // An old manifest does not know where bodies start in their files.
        QCOMPARE(loaded->soul.bodyFirstLine[size_t(slot)],
                 oldManifest ? 1 : c.bodyFirstLine[size_t(slot)]);
    }
}

void tst_Snapshot::loadRefusesChangedSoul()
{
    const QString soulPath = exportSample();
    QVERIFY(!soulPath.isEmpty());
    QByteArray soul = readFile(soulPath);
    soul[20] = soul[20] == 'x' ? 'y' : 'x';
    QVERIFY(writeFile(soulPath, soul));
    const Result<LoadedSnapshot> loaded = loadSnapshot(soulPath);
    QVERIFY(!loaded.ok());
    QVERIFY2(loaded.error().contains(soulPath + QStringLiteral(" does not match its manifest")),
             qPrintable(loaded.error()));
    QVERIFY2(loaded.error().contains(sha256Hex(soul)), qPrintable(loaded.error()));
}

void tst_Snapshot::loadNeedsManifest()
{
    const QString soulPath = outPath(QStringLiteral("bare.soul.md"));
    QVERIFY(writeFile(soulPath, "## SOUL.md\n\nHi"));
    Result<LoadedSnapshot> loaded = loadSnapshot(soulPath);
    QVERIFY(!loaded.ok());
    QVERIFY2(loaded.error().contains(manifestPathFor(soulPath)), qPrintable(loaded.error()));
    QVERIFY(writeFile(manifestPathFor(soulPath), "{ not json"));
    loaded = loadSnapshot(soulPath);
    QVERIFY(!loaded.ok());
    QVERIFY2(loaded.error().contains(QStringLiteral("not a soul manifest")),
             qPrintable(loaded.error()));
}

void tst_Snapshot::loadRefusesSectionsElsewhere()
{
    const QString soulPath = exportSample();
    QVERIFY(!soulPath.isEmpty());
    QString error;
    QJsonObject manifest = readJson(manifestPathFor(soulPath), &error);
    QJsonArray files = manifest.value(QLatin1String("files")).toArray();
    QJsonObject file = files.at(1).toObject();
    QJsonObject section = file.value(QLatin1String("section")).toObject();
    section.insert(QStringLiteral("offset"), section.value(QLatin1String("offset")).toInteger() + 1);
    file.insert(QStringLiteral("section"), section);
    files.replace(1, file);
    manifest.insert(QStringLiteral("files"), files);
    QVERIFY(writeFile(manifestPathFor(soulPath), QJsonDocument(manifest).toJson()));
    const Result<LoadedSnapshot> loaded = loadSnapshot(soulPath);
    QVERIFY(!loaded.ok());
    QVERIFY2(loaded.error().contains(QStringLiteral("'USER.md' is not where")),
             qPrintable(loaded.error()));
}

QTEST_GUILESS_MAIN(tst_Snapshot)

#include "tst_snapshot.moc"
