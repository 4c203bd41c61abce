#include "compose/composer.h"
#include "compose/contract.h"
#include "persona/snapshot.h"
#include "persona/snapshotfile.h"
#include "testfiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace soul;
using namespace soul::test;

namespace {

// The persona every test freezes: AGENTS.md, SOUL.md after a blank line,
// TOOLS.md over the cap and MEMORY.md, by slot.
QMap<int, QByteArray> sampleFiles()
{
    return {{0, "# Agents\n\nBe brief.\n"},
            {1, "\nI am Ava, calm and exact.\n"},
            {4, repeated("- a tool\n", CapBytes / 9 + 50)},
            {6, "- likes tea\n- works late\n"}};
}

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(readFile(path)).object();
}

bool writeJson(const QString &path, const QJsonObject &object)
{
    return writeFile(path, QJsonDocument(object).toJson());
}

// Changes a field of the section the manifest records for `name`.
bool editSection(const QString &manifestPath,
                 const QString &name,
                 const std::function<void(QJsonObject &section)> &edit)
{
    QJsonObject manifest = readJson(manifestPath);
    QJsonArray files = manifest.value(QLatin1String("files")).toArray();
    for (qsizetype i = 0; i < files.size(); ++i) {
        QJsonObject file = files.at(i).toObject();
        if (file.value(QLatin1String("name")).toString() != name)
            continue;
        QJsonObject section = file.value(QLatin1String("section")).toObject();
        edit(section);
        file.insert(QStringLiteral("section"), section);
        files.replace(i, file);
        manifest.insert(QStringLiteral("files"), files);
        return writeJson(manifestPath, manifest);
    }
    return false;
}

// How a row spoils the snapshot: the soul's path and its manifest's.
using Spoil = std::function<bool(const QString &soul, const QString &manifest)>;

// Edits the soul and its manifest together and records the edited soul's
// size and digest, as someone who rewrote both would: only where the
// sections stand can then tell.
Spoil rewritten(const std::function<bool(QByteArray &soul, QJsonObject &manifest)> &edit)
{
    return [edit](const QString &soul, const QString &manifest) {
        QByteArray bytes = readFile(soul);
        QJsonObject m = readJson(manifest);
        if (!edit(bytes, m))
            return false;
        QJsonObject facts = m.value(QLatin1String("soul")).toObject();
        facts.insert(QStringLiteral("bytes"), bytes.size());
        facts.insert(QStringLiteral("sha256"),
                     QString::fromLatin1(
                         QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        m.insert(QStringLiteral("soul"), facts);
        return writeFile(soul, bytes) && writeJson(manifest, m);
    };
}

// Moves every section the manifest records at or after byte `from` by `delta`.
void shiftSections(QJsonObject &manifest, qint64 from, qint64 delta)
{
    QJsonArray files = manifest.value(QLatin1String("files")).toArray();
    for (qsizetype i = 0; i < files.size(); ++i) {
        QJsonObject file = files.at(i).toObject();
        QJsonObject section = file.value(QLatin1String("section")).toObject();
        const qint64 offset = section.value(QLatin1String("offset")).toInteger();
        if (offset >= from)
            section.insert(QStringLiteral("offset"), offset + delta);
        file.insert(QStringLiteral("section"), section);
        files.replace(i, file);
    }
    manifest.insert(QStringLiteral("files"), files);
}

} // namespace

Q_DECLARE_METATYPE(Spoil)

class tst_SnapshotFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void sameSectionsAsWhole_data();
    void sameSectionsAsWhole();
    void failsAsWhole_data();
    void failsAsWhole();
    void sharesKnownSections_data();
    void sharesKnownSections();
    void readsSoulOnce();

private:
    // The sample persona's snapshot (frozen once, in initTestCase()) written
    // afresh into this test's folder; the soul's path. With a schema 1
    // manifest when `oldManifest`.
    QString freezeSample(bool oldManifest);
    // Rows of the column "oldManifest": schema 2 and schema 1.
    static void schemaRows();

    std::unique_ptr<QTemporaryDir> m_out;
    QByteArray m_sampleSoul;
    QByteArray m_sampleManifest;
};

void tst_SnapshotFile::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // Taking a snapshot counts the tokens of its 2 MiB file: once is enough.
    QTemporaryDir persona;
    QTemporaryDir out;
    QVERIFY(persona.isValid() && out.isValid());
    const QMap<int, QByteArray> files = sampleFiles();
    for (auto it = files.begin(); it != files.end(); ++it)
        QVERIFY(writeSlot(persona.path(), it.key(), it.value()));
    const Result<Snapshot> snapshot = takeSnapshot(persona.path());
    QVERIFY2(snapshot.ok(), qPrintable(snapshot.error()));
    const QString soulPath = QDir(out.path()).filePath(QStringLiteral("ava.soul.md"));
    QVERIFY(writeSnapshot(*snapshot, soulPath, false).ok());
    m_sampleSoul = readFile(soulPath);
    m_sampleManifest = readFile(manifestPathFor(soulPath));
    QVERIFY(!m_sampleSoul.isEmpty() && !m_sampleManifest.isEmpty());
}

void tst_SnapshotFile::init()
{
    m_out = std::make_unique<QTemporaryDir>();
    QVERIFY(m_out->isValid());
}

QString tst_SnapshotFile::freezeSample(bool oldManifest)
{
    const QString soulPath = QDir(m_out->path()).filePath(QStringLiteral("ava.soul.md"));
    if (!writeFile(soulPath, m_sampleSoul)
        || !writeFile(manifestPathFor(soulPath), m_sampleManifest)
        || (oldManifest && !makeSchemaOne(manifestPathFor(soulPath)))) {
        return {};
    }
    return soulPath;
}

void tst_SnapshotFile::schemaRows()
{
    QTest::addColumn<bool>("oldManifest");
    QTest::newRow("schema 2, sections recorded") << false;
    QTest::newRow("schema 1, sections recovered") << true;
}

void tst_SnapshotFile::sameSectionsAsWhole_data()
{
    schemaRows();
}

void tst_SnapshotFile::sameSectionsAsWhole()
{
    QFETCH(bool, oldManifest);
    const QString soulPath = freezeSample(oldManifest);
    QVERIFY(!soulPath.isEmpty());
    const Result<LoadedSnapshot> whole = loadSnapshot(soulPath);
    QVERIFY2(whole, qPrintable(whole.error()));
    const Result<SnapshotSections> cut = loadSnapshotSections(soulPath);
    QVERIFY2(cut, qPrintable(cut.error()));
    QCOMPARE(cut->soulPath, whole->soulPath);
    QCOMPARE(cut->manifestPath, whole->manifestPath);
    QCOMPARE(cut->schema, whole->schema);
    QCOMPARE(cut->sectionsFromManifest, !oldManifest);
    QCOMPARE(cut->sectionsFromManifest, whole->sectionsFromManifest);
    QCOMPARE(cut->found, whole->found);
    QCOMPARE(cut->soulSha256, whole->soulSha256);
    for (int slot = 0; slot < SlotCount; ++slot) {
        const std::optional<QByteArray> &section = cut->sections.section[size_t(slot)];
        QCOMPARE(section.has_value(), whole->soul.present(slot));
        if (section)
            QVERIFY(*section == whole->soul.section(slot));
        QCOMPARE(cut->sections.truncated[size_t(slot)], whole->soul.truncated[size_t(slot)]);
        QCOMPARE(cut->sections.bodyFirstLine[size_t(slot)], whole->soul.bodyFirstLine[size_t(slot)]);
    }
    QVERIFY(cut->sections.truncated[4]);
    // SOUL.md's body starts on line 2 of its file; an old manifest does not say.
    QCOMPARE(cut->sections.bodyFirstLine[1], oldManifest ? 1 : 2);
}

void tst_SnapshotFile::failsAsWhole_data()
{
    QTest::addColumn<bool>("oldManifest");
    QTest::addColumn<Spoil>("spoil");
    QTest::addColumn<QString>("sentence"); // a part of it

    const QString changed = QStringLiteral(" does not match its manifest ");
    auto soulBytes = [](const std::function<void(QByteArray &)> &edit) -> Spoil {
        return [edit](const QString &soul, const QString &) {
            QByteArray bytes = readFile(soul);
            edit(bytes);
            return writeFile(soul, bytes);
        };
    };
    // The join after AGENTS.md: the two line feeds before "## SOUL.md".
    const Spoil gapByte = [](const QString &soul, const QString &) {
        QByteArray bytes = readFile(soul);
        const qsizetype at = bytes.indexOf("\n\n## SOUL.md\n\n");
        if (at < 0)
            return false;
        bytes[at + 1] = ' ';
        return writeFile(soul, bytes);
    };
    auto section = [](const QString &name, const std::function<void(QJsonObject &)> &edit) -> Spoil {
        return [name, edit](const QString &, const QString &manifest) {
            return editSection(manifest, name, edit);
        };
    };
    auto add = [](const QString &field, qint64 delta) {
        return
            [field, delta](QJsonObject &s) { s.insert(field, s.value(field).toInteger() + delta); };
    };
    const Spoil noManifest = [](const QString &, const QString &manifest) {
        return QFile::remove(manifest);
    };
    const Spoil notJson = [](const QString &, const QString &manifest) {
        return writeFile(manifest, "{ not json");
    };
    const Spoil noSha = [](const QString &, const QString &manifest) {
        QJsonObject m = readJson(manifest);
        m.insert(QStringLiteral("soul"), QJsonObject{{QStringLiteral("bytes"), 10}});
        return writeJson(manifest, m);
    };
    const Spoil newer = [](const QString &, const QString &manifest) {
        QJsonObject m = readJson(manifest);
        m.insert(QStringLiteral("schema"), ManifestSchema + 1);
        return writeJson(manifest, m);
    };

    for (const bool old : {false, true}) {
        const char *schema = old ? "schema 1" : "schema 2";
        QTest::addRow("%s: a byte of a section changed", schema)
            << old << soulBytes([](QByteArray &b) { b[40] = b[40] == 'x' ? 'y' : 'x'; }) << changed;
        QTest::addRow("%s: a byte between sections changed", schema) << old << gapByte << changed;
        QTest::addRow("%s: bytes appended", schema)
            << old << soulBytes([](QByteArray &b) { b.append("\nmore"); }) << changed;
        QTest::addRow("%s: the end cut off", schema)
            << old << soulBytes([](QByteArray &b) { b.chop(3); }) << changed;
        QTest::addRow("%s: cut in half", schema)
            << old << soulBytes([](QByteArray &b) { b.truncate(b.size() / 2); }) << changed;
        QTest::addRow("%s: empty", schema)
            << old << soulBytes([](QByteArray &b) { b.clear(); }) << changed;
        QTest::addRow("%s: no manifest", schema)
            << old << noManifest << QStringLiteral(": no manifest beside it (");
        QTest::addRow("%s: manifest not JSON", schema)
            << old << notJson << QStringLiteral(": not a soul manifest (");
        QTest::addRow("%s: manifest without a SHA-256", schema)
            << old << noSha << QStringLiteral(": not a soul manifest (");
        QTest::addRow("%s: newer schema", schema)
            << old << newer << QStringLiteral(": written by a newer Soul Studio");
    }
    const QString notWhere = QStringLiteral("' is not where the soul holds it");
    QTest::newRow("offset one byte late")
        << false << section(QStringLiteral("SOUL.md"), add(QStringLiteral("offset"), 1))
        << QStringLiteral("'SOUL.md") + notWhere;
    QTest::newRow("offset one byte early")
        << false << section(QStringLiteral("TOOLS.md"), add(QStringLiteral("offset"), -1))
        << QStringLiteral("'TOOLS.md") + notWhere;
    QTest::newRow("section runs into the next")
        << false << section(QStringLiteral("SOUL.md"), add(QStringLiteral("bytes"), 5))
        << QStringLiteral("'SOUL.md") + notWhere;
    QTest::newRow("section where another is")
        << false
        << section(QStringLiteral("MEMORY.md"),
                   [](QJsonObject &s) { s.insert(QStringLiteral("offset"), 0); })
        << QStringLiteral("'AGENTS.md") + notWhere;
    QTest::newRow("section past the end")
        << false << section(QStringLiteral("MEMORY.md"), add(QStringLiteral("bytes"), 1))
        << QStringLiteral("'MEMORY.md") + notWhere;
    QTest::newRow("offset negative")
        << false
        << section(QStringLiteral("TOOLS.md"),
                   [](QJsonObject &s) { s.insert(QStringLiteral("offset"), -4); })
        << QStringLiteral("'TOOLS.md") + notWhere;
    QTest::newRow("shorter than its head")
        << false
        << section(QStringLiteral("SOUL.md"),
                   [](QJsonObject &s) { s.insert(QStringLiteral("bytes"), 3); })
        << QStringLiteral("'SOUL.md") + notWhere;
    QTest::newRow("body line 0") << false << section(QStringLiteral("AGENTS.md"), [](QJsonObject &s) {
        s.insert(QStringLiteral("bodyLine"), 0);
    }) << QStringLiteral("'AGENTS.md") + notWhere;
    // A soul changed and its sections misplaced: the change is what is said.
    QTest::newRow("changed and misplaced")
        << false << Spoil([](const QString &soul, const QString &manifest) {
               return editSection(manifest,
                                  QStringLiteral("SOUL.md"),
                                  [](QJsonObject &s) { s.insert(QStringLiteral("offset"), 1); })
                      && writeFile(soul, readFile(soul) + "x");
           })
        << changed;
    // Soul and manifest rewritten together, the digest recorded anew: each
    // section must still stand where compose() puts it, or the sections
    // joined again (what a comparison sees) would not be the file.
    const QByteArray soulJoin = "\n\n## SOUL.md\n\n";
    QTest::newRow("rewritten: a byte of a join changed")
        << false << rewritten([soulJoin](QByteArray &b, QJsonObject &) {
               const qsizetype at = b.indexOf(soulJoin);
               if (at < 0)
                   return false;
               b[at + 1] = ' ';
               return true;
           })
        << QStringLiteral("'SOUL.md") + notWhere;
    QTest::newRow("rewritten: a byte before the first section")
        << false << rewritten([](QByteArray &b, QJsonObject &m) {
               b.prepend('x');
               shiftSections(m, 0, 1);
               return true;
           })
        << QStringLiteral("'AGENTS.md") + notWhere;
    QTest::newRow("rewritten: a byte between two sections")
        << false << rewritten([soulJoin](QByteArray &b, QJsonObject &m) {
               const qsizetype at = b.indexOf(soulJoin);
               if (at < 0)
                   return false;
               b.insert(at, 'x');
               shiftSections(m, at, 1);
               return true;
           })
        << QStringLiteral("'SOUL.md") + notWhere;
    QTest::newRow("rewritten: bytes after the last section")
        << false << rewritten([](QByteArray &b, QJsonObject &) {
               b.append("\n\nmore");
               return true;
           })
        << QStringLiteral("'MEMORY.md") + notWhere;
    QTest::newRow("rewritten: no section recorded")
        << false << rewritten([](QByteArray &, QJsonObject &m) {
               m.insert(QStringLiteral("files"), QJsonArray());
               m.insert(QStringLiteral("found"), QJsonArray());
               return true;
           })
        << QStringLiteral(": it records no sections, but the soul is not empty.");
    // An old manifest whose soul lost a head: not found where it should be.
    QTest::newRow("schema 1: a head missing")
        << true << Spoil([](const QString &soul, const QString &manifest) {
               QByteArray bytes = readFile(soul);
               bytes.replace("## MEMORY.md\n\n", "## MEMORY.txt\n\n");
               QJsonObject m = readJson(manifest);
               QJsonObject facts = m.value(QLatin1String("soul")).toObject();
               facts.insert(QStringLiteral("sha256"),
                            QString::fromLatin1(
                                QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
               m.insert(QStringLiteral("soul"), facts);
               return writeFile(soul, bytes) && writeJson(manifest, m);
           })
        << QStringLiteral("the section of MEMORY.md its manifest lists is not in the soul");
}

void tst_SnapshotFile::failsAsWhole()
{
    QFETCH(bool, oldManifest);
    QFETCH(Spoil, spoil);
    QFETCH(QString, sentence);
    const QString soulPath = freezeSample(oldManifest);
    QVERIFY(!soulPath.isEmpty());
    const QString manifestPath = manifestPathFor(soulPath);
    QVERIFY(spoil(soulPath, manifestPath));
    const Result<LoadedSnapshot> whole = loadSnapshot(soulPath);
    QVERIFY(!whole);
    QVERIFY2(whole.error().contains(sentence), qPrintable(whole.error()));
    QVERIFY2(whole.error().contains(soulPath), qPrintable(whole.error()));
    // The same sentence, to the byte counts and digests it names.
    const Result<SnapshotSections> cut = loadSnapshotSections(soulPath);
    QVERIFY(!cut);
    QCOMPARE(cut.error(), whole.error());
}

void tst_SnapshotFile::sharesKnownSections_data()
{
    schemaRows();
}

void tst_SnapshotFile::sharesKnownSections()
{
    QFETCH(bool, oldManifest);
    const QString soulPath = freezeSample(oldManifest);
    QVERIFY(!soulPath.isEmpty());
    const QMap<int, QByteArray> files = sampleFiles();
    KnownSections known;
    // AGENTS.md as it is; SOUL.md edited in one view and as it is in the
    // other; TOOLS.md edited; MEMORY.md not known.
    known[0] = {composeSection(0, files[0])};
    known[1] = {composeSection(1, files[1] + "edited\n"), composeSection(1, files[1])};
    known[4] = {composeSection(4, "- one tool\n")};
    const Result<SnapshotSections> cut = loadSnapshotSections(soulPath, known);
    QVERIFY2(cut, qPrintable(cut.error()));
    const LiveSections &s = cut->sections;
    // Pointers: QCOMPARE would compare the bytes as strings.
    QVERIFY(s.section[0]->constData() == known[0][0].constData());
    QVERIFY(s.section[1]->constData() == known[1][1].constData());
    QVERIFY(s.section[1]->constData() != known[1][0].constData());
    QVERIFY(s.section[4]->constData() != known[4][0].constData());
    QVERIFY(*s.section[4] != known[4][0]);
    // Read, and what the soul holds.
    QVERIFY(*s.section[4] == composeSection(4, files[4]));
    QVERIFY(*s.section[6] == composeSection(6, files[6]));
    QVERIFY(!s.section[2]);
}

void tst_SnapshotFile::readsSoulOnce()
{
    const QString soulPath = freezeSample(false);
    QVERIFY(!soulPath.isEmpty());
    const qint64 soulBytes = QFileInfo(soulPath).size();
    const qint64 manifestBytes = QFileInfo(manifestPathFor(soulPath)).size();
    const qint64 before = bytesReadSoFar();
    if (before < 0)
        QSKIP("this system does not say how many bytes a process read");
    const Result<SnapshotSections> cut = loadSnapshotSections(soulPath);
    QVERIFY2(cut, qPrintable(cut.error()));
    const qint64 read = bytesReadSoFar() - before;
    // The soul once and the manifest; a few reads of /proc/self/io besides.
    QVERIFY2(read >= soulBytes && read < soulBytes + manifestBytes + 4096,
             qPrintable(QStringLiteral("%1 bytes read for a soul of %2").arg(read).arg(soulBytes)));
}

QTEST_GUILESS_MAIN(tst_SnapshotFile)

#include "tst_snapshotfile.moc"
