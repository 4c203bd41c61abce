#include "compose/composer.h"
#include "compose/contract.h"
#include "counttext.h"
#include "disk/composedirectory.h"
#include "persona/encodingfacts.h"
#include "persona/inspection.h"
#include "persona/lint.h"
#include "testfiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

using namespace soul;
using namespace soul::test;

Q_DECLARE_METATYPE(soul::LineEndings)
Q_DECLARE_METATYPE(soul::LintLevel)

namespace {

QList<Lint> withCode(const QList<Lint> &lints, const QString &code)
{
    QList<Lint> out;
    for (const Lint &lint : lints) {
        if (lint.code == code)
            out.append(lint);
    }
    return out;
}

QByteArray sha256Hex(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

} // namespace

class tst_Inspection : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void facts_data();
    void facts();
    void lineEndingCounts_data();
    void lineEndingCounts();

    void slotLints_data();
    void slotLints();
    void nearCapBoundary();
    void lintsOfAbsentSlots();
    void unreadableLint();
    void caseVariantLints();
    void otherRuntimeLints();
    void cleanPersonaHasNoLints();

    void inspectionDescribesOneMoment();
    void inspectionWithoutDigests();
    void heldReadsStandForUnchangedFiles();
    void checkDirectoryErrors();
    void helpers();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString path(const QString &name) const { return QDir(m_dir->path()).filePath(name); }
};

void tst_Inspection::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_Inspection::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_Inspection::facts_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("truncated");
    QTest::addColumn<qint64>("dropped");
    QTest::addColumn<bool>("bom");
    QTest::addColumn<int>("invalid");
    QTest::addColumn<int>("nul");
    QTest::addColumn<LineEndings>("endings");
    QTest::addColumn<bool>("blank");
    QTest::addColumn<int>("characters");

    QTest::newRow("empty") << QByteArray() << false << qint64(0) << false << 0 << 0
                           << LineEndings::None << true << 0;
    QTest::newRow("plain") << QByteArray("hello") << false << qint64(0) << false << 0 << 0
                           << LineEndings::None << false << 5;
    QTest::newRow("blank lines") << QByteArray(" \n\t\n") << false << qint64(0) << false << 0 << 0
                                 << LineEndings::Lf << true << 4;
    QTest::newRow("unicode blank") << QByteArray("\xE3\x80\x80\xC2\xA0") << false << qint64(0)
                                   << false << 0 << 0 << LineEndings::None << true << 2;
    QTest::newRow("bom only is not blank") << QByteArray("\xEF\xBB\xBF") << false << qint64(0)
                                           << true << 0 << 0 << LineEndings::None << false << 1;
    QTest::newRow("bom and text") << QByteArray("\xEF\xBB\xBFhi\n") << false << qint64(0) << true
                                  << 0 << 0 << LineEndings::Lf << false << 4;
    QTest::newRow("bom not at start") << QByteArray("a\xEF\xBB\xBF") << false << qint64(0) << false
                                      << 0 << 0 << LineEndings::None << false << 2;
    QTest::newRow("invalid subparts")
        << QByteArray("\xC0\x80 \xED\xA0\x80 \xF0\x9F\x98") << false << qint64(0) << false << 6 << 0
        << LineEndings::None << false << 5;
    QTest::newRow("nul bytes") << QByteArray("a\0b\0", 4) << false << qint64(0) << false << 0 << 2
                               << LineEndings::None << false << 4;
    QTest::newRow("crlf") << QByteArray("a\r\nb\r\n") << false << qint64(0) << false << 0 << 0
                          << LineEndings::CrLf << false << 6;
    QTest::newRow("cr") << QByteArray("a\rb\r") << false << qint64(0) << false << 0 << 0
                        << LineEndings::Cr << false << 4;
    QTest::newRow("mixed") << QByteArray("a\r\nb\nc") << false << qint64(0) << false << 0 << 0
                           << LineEndings::Mixed << false << 6;
    QTest::newRow("invalid only is not blank") << QByteArray("\xFF") << false << qint64(0) << false
                                               << 1 << 0 << LineEndings::None << false << 1;
    QTest::newRow("exactly the cap") << QByteArray(CapBytes, 'a') << false << qint64(0) << false
                                     << 0 << 0 << LineEndings::None << false << int(CapBytes);
    QTest::newRow("cap of spaces is blank")
        << QByteArray(CapBytes, ' ') << false << qint64(0) << false << 0 << 0 << LineEndings::None
        << true << int(CapBytes);
    QTest::newRow("ten over the cap")
        << QByteArray(CapBytes + 10, 'a') << true << qint64(10) << false << 0 << 0
        << LineEndings::None << false << int(CapBytes);
    // The body of a cut file is at least the notice.
    QTest::newRow("spaces over the cap are not blank")
        << QByteArray(CapBytes + 1, ' ') << true << qint64(1) << false << 0 << 0
        << LineEndings::None << false << int(CapBytes);
    // Only the bytes the agent gets are scanned.
    QTest::newRow("invalid byte past the cap")
        << QByteArray(CapBytes, 'a') + QByteArray("\xFF\0\n", 3) << true << qint64(3) << false << 0
        << 0 << LineEndings::None << false << int(CapBytes);
    QTest::newRow("char cut by the cap")
        << QByteArray(CapBytes - 1, 'a') + "\xE2\x82\xAC" << true << qint64(2) << false << 1 << 0
        << LineEndings::None << false << int(CapBytes);
}

void tst_Inspection::facts()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, truncated);
    QFETCH(qint64, dropped);
    QFETCH(bool, bom);
    QFETCH(int, invalid);
    QFETCH(int, nul);
    QFETCH(LineEndings, endings);
    QFETCH(bool, blank);
    QFETCH(int, characters);

    const auto check = [&](const SlotFacts &f) {
        QCOMPARE(f.size, qint64(bytes.size()));
        QCOMPARE(f.truncated, truncated);
        QCOMPARE(f.droppedBytes, dropped);
        QCOMPARE(f.encoding.bom, bom);
        QCOMPARE(f.encoding.invalidSubparts, qsizetype(invalid));
        QCOMPARE(f.encoding.nulBytes, qsizetype(nul));
        QCOMPARE(f.encoding.lineEndings(), endings);
        QCOMPARE(f.blank, blank);
        QCOMPARE(f.characters, qsizetype(characters));
        QVERIFY(f.present());
        QCOMPARE(f.capShare(), double(bytes.size()) / double(CapBytes));
    };

    const SlotFacts inMemory = factsOfBytes(3, bytes, ComposeRule::toolnexus());
    QCOMPARE(inMemory.name, QStringLiteral("USER.md"));
    QCOMPARE(inMemory.slot, 3);
    check(inMemory);

    QVERIFY(writeSlot(m_dir->path(), 3, bytes));
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    QVERIFY2(inspection.ok(), qPrintable(inspection.error()));
    const SlotFacts &onDisk = inspection->slotFacts[3];
    check(onDisk);
    QCOMPARE(onDisk.sha256, sha256Hex(bytes));
    QCOMPARE(onDisk.path, path(QStringLiteral("USER.md")));
    QCOMPARE(inspection->composition.truncated[3], truncated);
}

void tst_Inspection::lineEndingCounts_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("lf");
    QTest::addColumn<int>("crlf");
    QTest::addColumn<int>("cr");
    QTest::addColumn<bool>("finalNewline");
    QTest::addColumn<QString>("name");

    QTest::newRow("none") << QByteArray("abc") << 0 << 0 << 0 << false << QStringLiteral("none");
    QTest::newRow("lf") << QByteArray("a\nb\n") << 2 << 0 << 0 << true << QStringLiteral("LF");
    QTest::newRow("crlf") << QByteArray("a\r\nb") << 0 << 1 << 0 << false
                          << QStringLiteral("CR LF");
    QTest::newRow("cr at end") << QByteArray("a\r") << 0 << 0 << 1 << true << QStringLiteral("CR");
    QTest::newRow("cr cr lf") << QByteArray("\r\r\n") << 0 << 1 << 1 << true
                              << QStringLiteral("mixed");
    QTest::newRow("lf cr") << QByteArray("\n\r") << 1 << 0 << 1 << true << QStringLiteral("mixed");
    QTest::newRow("crlf crlf") << QByteArray("\r\n\r\n") << 0 << 2 << 0 << true
                               << QStringLiteral("CR LF");
}

void tst_Inspection::lineEndingCounts()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, lf);
    QFETCH(int, crlf);
    QFETCH(int, cr);
    QFETCH(bool, finalNewline);
    QFETCH(QString, name);
    const EncodingFacts f = scanEncoding(bytes);
    QCOMPARE(f.lfCount, qsizetype(lf));
    QCOMPARE(f.crlfCount, qsizetype(crlf));
    QCOMPARE(f.crCount, qsizetype(cr));
    QCOMPARE(f.finalNewline, finalNewline);
    QCOMPARE(lineEndingsName(f.lineEndings()), name);
}

void tst_Inspection::slotLints_data()
{
    QTest::addColumn<int>("slot");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("code");
    QTest::addColumn<LintLevel>("level");
    QTest::addColumn<QStringList>("mentions");

    QTest::newRow("truncated") << 1 << QByteArray(CapBytes + 10, 'a') << QStringLiteral("truncated")
                               << LintLevel::Error
                               << QStringList{QStringLiteral("2,097,162"),
                                              QStringLiteral("2,097,152"),
                                              QStringLiteral("last 10 bytes")};
    QTest::newRow("truncated by one")
        << 1 << QByteArray(CapBytes + 1, 'a') << QStringLiteral("truncated") << LintLevel::Error
        << QStringList{QStringLiteral("last 1 byte.")};
    QTest::newRow("near-cap") << 2 << QByteArray(NearCapBytes, 'a') << QStringLiteral("near-cap")
                              << LintLevel::Warning
                              << QStringList{QStringLiteral("at 85%"), QStringLiteral("1,782,580")};
    QTest::newRow("near-cap at the cap")
        << 2 << QByteArray(CapBytes, 'a') << QStringLiteral("near-cap") << LintLevel::Warning
        << QStringList{QStringLiteral("100%")};
    QTest::newRow("bom") << 0 << QByteArray("\xEF\xBB\xBFtext") << QStringLiteral("bom")
                         << LintLevel::Warning << QStringList{QStringLiteral("U+FEFF")};
    QTest::newRow("invalid-utf8") << 3 << QByteArray("\xC0\x80x\xFF")
                                  << QStringLiteral("invalid-utf8") << LintLevel::Warning
                                  << QStringList{QStringLiteral("3 replacement characters")};
    QTest::newRow("invalid-utf8 one")
        << 3 << QByteArray("x\xFF") << QStringLiteral("invalid-utf8") << LintLevel::Warning
        << QStringList{QStringLiteral("1 replacement character ")};
    QTest::newRow("nul") << 4 << QByteArray("a\0b\0c", 5) << QStringLiteral("nul")
                         << LintLevel::Warning << QStringList{QStringLiteral("2 NUL bytes")};
    QTest::newRow("blank") << 5 << QByteArray(" \n\xE3\x80\x80") << QStringLiteral("blank")
                           << LintLevel::Warning << QStringList{QStringLiteral("## HEARTBEAT.md")};
    QTest::newRow("empty is blank")
        << 6 << QByteArray() << QStringLiteral("blank") << LintLevel::Warning << QStringList{};
    QTest::newRow("mixed-line-endings")
        << 6 << QByteArray("a\nb\r\nc\rd") << QStringLiteral("mixed-line-endings")
        << LintLevel::Info << QStringList{QStringLiteral("1 LF, 1 CR LF, 1 lone CR")};
    QTest::newRow("openclaw-chars")
        << 0 << QByteArray(20001, 'x') << QStringLiteral("openclaw-chars") << LintLevel::Info
        << QStringList{QStringLiteral("20,001"), QStringLiteral("20,000")};
}

void tst_Inspection::slotLints()
{
    QFETCH(int, slot);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, code);
    QFETCH(LintLevel, level);
    QFETCH(QStringList, mentions);

    QVERIFY(writeSlot(m_dir->path(), slot, bytes));
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    QVERIFY2(inspection.ok(), qPrintable(inspection.error()));
    const QList<Lint> found = withCode(inspection->lints, code);
    QCOMPARE(found.size(), 1);
    const Lint &lint = found.first();
    QCOMPARE(lint.file, slotName(slot));
    QCOMPARE(lint.slot, slot);
    QCOMPARE(lint.level, level);
    QVERIFY2(lint.message.startsWith(slotName(slot)), qPrintable(lint.message));
    QVERIFY2(lint.message.endsWith(QLatin1Char('.')), qPrintable(lint.message));
    for (const QString &mention : mentions)
        QVERIFY2(lint.message.contains(mention), qPrintable(lint.message));
    QCOMPARE(hasErrors(inspection->lints), level == LintLevel::Error);

    // An editor buffer with the same bytes gets the same lint.
    const QList<Lint> fromBuffer
        = withCode(lintSlot(factsOfBytes(slot, bytes, ComposeRule::toolnexus()),
                            ComposeRule::toolnexus()),
                   code);
    QCOMPARE(fromBuffer.size(), 1);
    QCOMPARE(fromBuffer.first().message, lint.message);
}

void tst_Inspection::nearCapBoundary()
{
    QVERIFY(withCode(lintSlot(factsOfBytes(1,
                                           QByteArray(NearCapBytes - 1, 'a'),
                                           ComposeRule::toolnexus()),
                              ComposeRule::toolnexus()),
                     QStringLiteral("near-cap"))
                .isEmpty());
    QCOMPARE(withCode(lintSlot(factsOfBytes(1,
                                            QByteArray(NearCapBytes, 'a'),
                                            ComposeRule::toolnexus()),
                               ComposeRule::toolnexus()),
                      QStringLiteral("near-cap"))
                 .size(),
             1);
    // A cut file is "truncated", not "near-cap".
    const QList<Lint> over
        = lintSlot(factsOfBytes(1, QByteArray(CapBytes + 1, 'a'), ComposeRule::toolnexus()),
                   ComposeRule::toolnexus());
    QVERIFY(withCode(over, QStringLiteral("near-cap")).isEmpty());
    QCOMPARE(withCode(over, QStringLiteral("truncated")).size(), 1);
    // 85% of the cap, rounded up to a whole byte.
    QCOMPARE(NearCapBytes, qint64(1782580));
    QVERIFY(NearCapBytes * 100 >= CapBytes * 85);
    QVERIFY((NearCapBytes - 1) * 100 < CapBytes * 85);
}

void tst_Inspection::lintsOfAbsentSlots()
{
    QVERIFY(QDir(m_dir->path()).mkpath(QStringLiteral("AGENTS.md")));
    QVERIFY(::mkfifo(QFile::encodeName(path(QStringLiteral("TOOLS.md"))).constData(), 0600) == 0);
    QVERIFY(QFile::link(path(QStringLiteral("nothing")), path(QStringLiteral("MEMORY.md"))));

    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    QVERIFY2(inspection.ok(), qPrintable(inspection.error()));
    QVERIFY(inspection->composition.soul.isEmpty());

    const struct
    {
        int slot;
        const char *code;
        SlotPresence presence;
        const char *mention;
    } expected[] = {
        {0, "directory", SlotPresence::Directory, "is a directory"},
        {4, "not-regular", SlotPresence::NotRegularFile, "a FIFO"},
        {6, "dangling-link", SlotPresence::DanglingLink, "symbolic link"},
    };
    for (const auto &e : expected) {
        const SlotFacts &facts = inspection->slotFacts[static_cast<size_t>(e.slot)];
        QCOMPARE(facts.presence, e.presence);
        QVERIFY(!facts.present());
        QCOMPARE(facts.size, qint64(-1));
        QVERIFY(!facts.absenceReason.isEmpty());
        const QList<Lint> lints = withCode(inspection->lints, QLatin1String(e.code));
        QCOMPARE(lints.size(), 1);
        QCOMPARE(lints.first().file, slotName(e.slot));
        QCOMPARE(lints.first().level, LintLevel::Warning);
        QVERIFY2(lints.first().message.startsWith(slotName(e.slot)),
                 qPrintable(lints.first().message));
        QVERIFY2(lints.first().message.contains(QLatin1String(e.mention)),
                 qPrintable(lints.first().message));
    }
    // Missing slots say nothing.
    QCOMPARE(inspection->lints.size(), 3);
    QVERIFY(!hasErrors(inspection->lints));
}

void tst_Inspection::unreadableLint()
{
    SlotFacts facts;
    facts.slot = 3;
    facts.name = slotName(3);
    facts.presence = SlotPresence::Unreadable;
    facts.absenceReason = QStringLiteral("cannot be read (Permission denied)");
    const QList<Lint> lints = lintSlot(facts, ComposeRule::toolnexus());
    QCOMPARE(lints.size(), 1);
    QCOMPARE(lints.first().code, QStringLiteral("unreadable"));
    QCOMPARE(lints.first().level, LintLevel::Error);
    QVERIFY(lints.first().message.startsWith(QLatin1String("USER.md cannot be read "
                                                           "(Permission denied)")));
    QVERIFY(hasErrors(lints));

    if (::geteuid() == 0)
        QSKIP("root reads a file whatever its mode");
    QVERIFY(writeSlot(m_dir->path(), 3, "secret"));
    const QByteArray native = QFile::encodeName(path(QStringLiteral("USER.md")));
    QVERIFY(::chmod(native.constData(), 0) == 0);
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    ::chmod(native.constData(), 0600);
    QVERIFY(inspection.ok());
    const QList<Lint> onDisk = withCode(inspection->lints, QStringLiteral("unreadable"));
    QCOMPARE(onDisk.size(), 1);
    QVERIFY(onDisk.first().message.startsWith(QLatin1String("USER.md cannot be read (")));
    QVERIFY(inspection->composition.soul.isEmpty());
}

void tst_Inspection::caseVariantLints()
{
    QVERIFY(writeFile(path(QStringLiteral("soul.md")), "lower"));
    QVERIFY(writeFile(path(QStringLiteral("Memory.MD")), "mixed"));
    QVERIFY(writeSlot(m_dir->path(), 6, "real"));
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    QVERIFY2(inspection.ok(), qPrintable(inspection.error()));
    const QList<Lint> lints = withCode(inspection->lints, QStringLiteral("case-variant"));
    QCOMPARE(lints.size(), 2);
    for (const Lint &lint : lints) {
        QCOMPARE(lint.level, LintLevel::Warning);
        if (lint.file == QLatin1String("soul.md")) {
            QCOMPARE(lint.slot, 1);
            // SOUL.md is missing: rename.
            QVERIFY2(lint.message.startsWith(QLatin1String("soul.md is not read")),
                     qPrintable(lint.message));
            QVERIFY2(lint.message.contains(QLatin1String("Rename it to SOUL.md")),
                     qPrintable(lint.message));
        } else {
            QCOMPARE(lint.file, QStringLiteral("Memory.MD"));
            QCOMPARE(lint.slot, 6);
            // MEMORY.md is there: merge.
            QVERIFY2(lint.message.contains(QLatin1String("Merge it into MEMORY.md")),
                     qPrintable(lint.message));
        }
    }
    QCOMPARE(inspection->composition.found, QStringList{QStringLiteral("MEMORY.md")});
}

void tst_Inspection::otherRuntimeLints()
{
    QVERIFY(writeFile(path(QStringLiteral("BOOTSTRAP.md")), "boot"));
    QVERIFY(QDir(m_dir->path()).mkpath(QStringLiteral("memory")));
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    QVERIFY2(inspection.ok(), qPrintable(inspection.error()));
    const QList<Lint> lints = withCode(inspection->lints, QStringLiteral("other-runtime"));
    QCOMPARE(lints.size(), 2);
    QCOMPARE(lints.at(0).file, QStringLiteral("BOOTSTRAP.md"));
    QVERIFY(lints.at(0).message.startsWith(QLatin1String("BOOTSTRAP.md ")));
    QCOMPARE(lints.at(1).file, QStringLiteral("memory/"));
    QVERIFY(lints.at(1).message.startsWith(QLatin1String("memory/ ")));
    QVERIFY(lints.at(1).message.contains(QLatin1String("MEMORY.md")));
    for (const Lint &lint : lints) {
        QCOMPARE(lint.level, LintLevel::Info);
        QCOMPARE(lint.slot, -1);
    }

    // A file called "memory" is not the OpenClaw folder.
    init();
    QVERIFY(writeFile(path(QStringLiteral("memory")), "x"));
    const Result<Inspection> second = inspectDirectory(m_dir->path(),
                                                       ComposeRule::toolnexus(),
                                                       true);
    QVERIFY(second.ok());
    QVERIFY(withCode(second->lints, QStringLiteral("other-runtime")).isEmpty());
}

void tst_Inspection::cleanPersonaHasNoLints()
{
    for (int slot = 0; slot < SlotCount; ++slot)
        QVERIFY(
            writeSlot(m_dir->path(), slot, QByteArray("Body of ") + BootstrapOrder[slot] + "\n"));
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    QVERIFY2(inspection.ok(), qPrintable(inspection.error()));
    QVERIFY(inspection->lints.isEmpty());
    QCOMPARE(inspection->composition.found, bootstrapOrder());
}

void tst_Inspection::inspectionDescribesOneMoment()
{
    const QByteArray big = QByteArray(CapBytes + 100, 'b');
    QVERIFY(writeSlot(m_dir->path(), 1, "You are Kip.\n"));
    QVERIFY(writeSlot(m_dir->path(), 4, big));
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           true);
    QVERIFY2(inspection.ok(), qPrintable(inspection.error()));
    const Composition expected = composeDirectory(m_dir->path());
    QVERIFY(inspection->composition.soul == expected.soul);
    QCOMPARE(inspection->composition.found, expected.found);
    QCOMPARE(inspection->soulSha256, sha256Hex(expected.soul));
    QCOMPARE(inspection->directory, QDir(m_dir->path()).absolutePath());
    QCOMPARE(inspection->slotFacts[1].sha256, sha256Hex("You are Kip.\n"));
    QCOMPARE(inspection->slotFacts[4].sha256, sha256Hex(big));
    QCOMPARE(inspection->slotFacts[4].size, qint64(big.size()));
    QVERIFY(inspection->slotFacts[4].truncated);
    QCOMPARE(inspection->slotFacts[4].droppedBytes, qint64(100));
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotFacts &facts = inspection->slotFacts[static_cast<size_t>(slot)];
        QCOMPARE(facts.slot, slot);
        QCOMPARE(facts.name, slotName(slot));
        QCOMPARE(facts.present(), slot == 1 || slot == 4);
    }

    // A relative path gives an absolute directory.
    const QString cwd = QDir::currentPath();
    QVERIFY(QDir::setCurrent(m_dir->path()));
    const Result<Inspection> relative = inspectDirectory(QStringLiteral("."),
                                                         ComposeRule::toolnexus(),
                                                         true);
    QDir::setCurrent(cwd);
    QVERIFY(relative.ok());
    QVERIFY(QDir::isAbsolutePath(relative->directory));
    QVERIFY(relative->composition.soul == expected.soul);
}

void tst_Inspection::inspectionWithoutDigests()
{
    QVERIFY(writeSlot(m_dir->path(), 0, "x"));
    QVERIFY(writeSlot(m_dir->path(), 2, QByteArray(CapBytes + 5, 'y')));
    const Result<Inspection> inspection = inspectDirectory(m_dir->path(),
                                                           ComposeRule::toolnexus(),
                                                           false);
    QVERIFY(inspection.ok());
    QVERIFY(inspection->slotFacts[0].sha256.isEmpty());
    QCOMPARE(inspection->slotFacts[2].size, CapBytes + 5);
    QCOMPARE(inspection->slotFacts[2].droppedBytes, qint64(5));
    QVERIFY(inspection->slotFacts[2].truncated);
    QCOMPARE(inspection->soulSha256, sha256Hex(inspection->composition.soul));
}

// A held read is taken only while the file still has its digest: then its
// bytes stand for the file's (they are not read again), else the file is
// read as without it.
void tst_Inspection::heldReadsStandForUnchangedFiles()
{
    const QString dir = m_dir->path();
    const QByteArray big = QByteArray(CapBytes + 100, 'b');
    const QByteArray disk0("Agents.\n");
    QVERIFY(writeSlot(dir, 0, disk0));
    QVERIFY(writeSlot(dir, 1, "You are Kip.\n"));
    QVERIFY(writeSlot(dir, 4, big));
    QVERIFY(writeSlot(dir, 5, "Beat.\n"));
    QVERIFY(writeSlot(dir, 6, "Memory as it was.\n"));
    auto heldOf = [](const QByteArray &bytes) {
        return HeldRead{sha256Hex(bytes), bytes.size(), bytes, true};
    };

    // Held reads equal to the files: the same inspection as reading them.
    HeldReads held;
    for (int slot : {0, 1, 4, 5, 6})
        held[size_t(slot)] = heldOf(readFile(QDir(dir).filePath(slotName(slot))));
    const Result<Inspection> plain = inspectDirectory(dir, ComposeRule::toolnexus(), true);
    const Result<Inspection> taken = inspectDirectory(dir, ComposeRule::toolnexus(), true, held);
    QVERIFY(plain.ok() && taken.ok());
    QVERIFY(taken->composition.soul == plain->composition.soul);
    QCOMPARE(taken->soulSha256, plain->soulSha256);
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotFacts &a = plain->slotFacts[size_t(slot)];
        const SlotFacts &b = taken->slotFacts[size_t(slot)];
        QCOMPARE(b.presence, a.presence);
        QCOMPARE(b.size, a.size);
        QCOMPARE(b.sha256, a.sha256);
        QCOMPARE(b.truncated, a.truncated);
        QCOMPARE(b.droppedBytes, a.droppedBytes);
        QCOMPARE(b.characters, a.characters);
    }
    QCOMPARE(taken->lints.size(), plain->lints.size());

    // The held bytes are what is composed while the digest holds: bytes
    // that are not the file's but carry its digest show that they are not
    // read again.
    held[0] = HeldRead{sha256Hex(disk0), disk0.size(), QByteArray("Held.\n"), true};
    // A file changed since it was held is read.
    QVERIFY(writeSlot(dir, 6, "Memory changed.\n"));
    // A file gone since is absent.
    QVERIFY(QFile::remove(QDir(dir).filePath(slotName(5))));
    // A held read that is not whole and shorter than what the rule reads is
    // no stand-in for the file.
    held[4] = HeldRead{sha256Hex(big), big.size(), QByteArray(16, 'h'), false};
    const Result<Inspection> mixed = inspectDirectory(dir, ComposeRule::toolnexus(), true, held);
    QVERIFY(mixed.ok());
    const QByteArray &soul = mixed->composition.soul;
    QVERIFY(soul.contains("## AGENTS.md\n\nHeld."));
    QVERIFY(!soul.contains("Agents."));
    QVERIFY(soul.contains("Memory changed."));
    QVERIFY(!soul.contains("Memory as it was."));
    QVERIFY(!mixed->slotFacts[5].present());
    QVERIFY(!soul.contains("## HEARTBEAT.md"));
    QVERIFY(soul.contains(big.first(1000)));
    QVERIFY(!soul.contains("hhhh"));
    QCOMPARE(mixed->slotFacts[6].sha256, sha256Hex("Memory changed.\n"));
    QCOMPARE(mixed->slotFacts[4].sha256, sha256Hex(big));
    QVERIFY(mixed->slotFacts[4].truncated);
}

void tst_Inspection::checkDirectoryErrors()
{
    QVERIFY(checkDirectory(m_dir->path()).isEmpty());

    const QString missing = path(QStringLiteral("no-such-persona"));
    const QString missingError = checkDirectory(missing);
    QVERIFY(missingError.contains(missing));
    QVERIFY(missingError.contains(QLatin1String("no such directory")));
    const Result<Inspection> a = inspectDirectory(missing, ComposeRule::toolnexus(), true);
    QVERIFY(!a.ok());
    QCOMPARE(a.error(), missingError);

    const QString file = path(QStringLiteral("SOUL.md"));
    QVERIFY(writeFile(file, "not a folder"));
    const QString fileError = checkDirectory(file);
    QVERIFY(fileError.contains(file));
    QVERIFY(fileError.contains(QLatin1String("not a directory")));
    const Result<Inspection> b = inspectDirectory(file, ComposeRule::toolnexus(), true);
    QVERIFY(!b.ok());
    QCOMPARE(b.error(), fileError);

    // A link to a directory is a directory.
    QVERIFY(QFile::link(m_dir->path(), path(QStringLiteral("alias"))));
    QVERIFY(checkDirectory(path(QStringLiteral("alias"))).isEmpty());
}

void tst_Inspection::helpers()
{
    QCOMPARE(formatCount(0), QStringLiteral("0"));
    QCOMPARE(formatCount(999), QStringLiteral("999"));
    QCOMPARE(formatCount(2097152), QStringLiteral("2,097,152"));
    QCOMPARE(formatCount(1000000000), QStringLiteral("1,000,000,000"));
    QCOMPARE(lintLevelName(LintLevel::Info), QStringLiteral("info"));
    QCOMPARE(lintLevelName(LintLevel::Warning), QStringLiteral("warning"));
    QCOMPARE(lintLevelName(LintLevel::Error), QStringLiteral("error"));
    QCOMPARE(approximateTokens(0), qint64(0));
    QCOMPARE(approximateTokens(1), qint64(1));
    QCOMPARE(approximateTokens(4), qint64(1));
    QCOMPARE(approximateTokens(5), qint64(2));
    QVERIFY(!hasErrors({}));
}

QTEST_GUILESS_MAIN(tst_Inspection)

#include "tst_inspection.moc"
