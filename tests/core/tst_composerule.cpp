#include "compose/composer.h"
#include "compose/composerule.h"
#include "compose/utf8.h"
#include "disk/directorywatcher.h"
#include "persona/inspection.h"
#include "persona/lint.h"
#include "persona/personamodel.h"
#include "persona/snapshot.h"
#include "registry/runtimeprofile.h"
#include "registry/runtimesoul.h"
#include "testfiles.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace soul;
using namespace soul::test;

namespace {

// A rule unlike toolnexus's in every part: a 16-byte cap, another notice,
// another head and join, SOUL.md before AGENTS.md, and a 50% near share.
ComposeRule smallRule()
{
    ComposeRule rule;
    rule.order = {1, 0};
    rule.capBytes = 16;
    rule.notice = QByteArrayLiteral("\n[cut]");
    rule.sectionPrefix = QByteArrayLiteral("# ");
    rule.sectionHeadEnd = QByteArrayLiteral("\n");
    rule.sectionJoin = QByteArrayLiteral("\n---\n");
    rule.nearPercent = 50;
    return rule;
}

ComposeRule withNotice(ComposeRule rule, const QByteArray &notice)
{
    rule.notice = notice;
    return rule;
}

using Files = std::map<int, QByteArray>;

SlotBuffers buffersOf(const Files &files)
{
    SlotBuffers buffers;
    for (const auto &[slot, bytes] : files)
        buffers[size_t(slot)] = bytes;
    return buffers;
}

bool writeAll(const QString &dir, const Files &files)
{
    for (const auto &[slot, bytes] : files) {
        if (!writeSlot(dir, slot, bytes))
            return false;
    }
    return true;
}

// The body as the contract defines it, computed the slow, obvious way: cut,
// decode, append the notice, trim the whole.
QByteArray referenceBody(const QByteArray &raw, const ComposeRule &rule)
{
    if (raw.size() <= rule.capBytes)
        return utf8::trimmed(utf8::sanitize(raw)).toByteArray();
    const QByteArray whole = utf8::sanitize(raw.left(rule.capBytes)) + rule.notice;
    return utf8::trimmed(whole).toByteArray();
}

} // namespace

class tst_ComposeRule : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void formatBytesSaysExactly_data();
    void formatBytesSaysExactly();
    void toolnexusIsTodaysRule();
    void composesByTheRule_data();
    void composesByTheRule();
    void bodyIsTheContractForAnyNotice();
    void directoryComposesByTheRule();
    void lintsSayTheRulesCap();
    void snapshotRecordsTheRule();
    void profileCarriesTheRule();
    void modelComposesByItsRule();
};

void tst_ComposeRule::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_ComposeRule::formatBytesSaysExactly_data()
{
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("toolnexus cap") << qint64(2097152) << QStringLiteral("2 MiB");
    QTest::newRow("kibibytes") << qint64(4096) << QStringLiteral("4 KiB");
    QTest::newRow("not a whole unit") << qint64(2097153) << QStringLiteral("2,097,153 bytes");
    QTest::newRow("one and a half MiB") << qint64(1572864) << QStringLiteral("1,536 KiB");
    QTest::newRow("one byte") << qint64(1) << QStringLiteral("1 byte");
    QTest::newRow("small") << qint64(16) << QStringLiteral("16 bytes");
    QTest::newRow("zero") << qint64(0) << QStringLiteral("0 bytes");
    QTest::newRow("one GiB") << qint64(1) * 1024 * 1024 * 1024 << QStringLiteral("1 GiB");
}

void tst_ComposeRule::formatBytesSaysExactly()
{
    QFETCH(qint64, bytes);
    QFETCH(QString, text);
    QCOMPARE(formatBytes(bytes), text);
}

void tst_ComposeRule::toolnexusIsTodaysRule()
{
    const ComposeRule &rule = ComposeRule::toolnexus();
    QCOMPARE(rule.capBytes, qint64(2097152));
    QCOMPARE(rule.readLimit(), qint64(2097153));
    QCOMPARE(rule.nearCapBytes(), qint64(1782580));
    QVERIFY(rule.nearCapBytes() * 100 >= rule.capBytes * 85);
    QVERIFY((rule.nearCapBytes() - 1) * 100 < rule.capBytes * 85);
    QCOMPARE(rule.capText(), QStringLiteral("2 MiB"));
    QCOMPARE(rule.notice, QByteArray("\n[truncated: exceeds 2 MB bootstrap cap]"));
    QCOMPARE(rule.sectionHead(1), QByteArray("## SOUL.md\n\n"));
    QCOMPARE(rule.sectionJoin, QByteArray("\n\n"));
    QCOMPARE(rule.fileNames(), bootstrapOrder());
    QVERIFY(rule == ComposeRule::toolnexus());
    QVERIFY(rule != smallRule());
}

void tst_ComposeRule::composesByTheRule_data()
{
    QTest::addColumn<ComposeRule>("rule");
    QTest::addColumn<Files>("files");
    QTest::addColumn<QByteArray>("soul");
    QTest::addColumn<QList<bool>>("truncated"); // AGENTS.md, SOUL.md

    const ComposeRule small = smallRule();
    QTest::newRow("under the cap, trimmed")
        << small << Files{{0, "  hello  "}} << QByteArray("# AGENTS.md\nhello")
        << QList<bool>{false, false};
    QTest::newRow("exactly the cap")
        << small << Files{{1, "0123456789abcdef"}} << QByteArray("# SOUL.md\n0123456789abcdef")
        << QList<bool>{false, false};
    QTest::newRow("over the cap: cut and the rule's notice")
        << small << Files{{1, "0123456789abcdefXYZ"}}
        << QByteArray("# SOUL.md\n0123456789abcdef\n[cut]") << QList<bool>{false, true};
    QTest::newRow("the rule's order and join")
        << small << Files{{0, "a"}, {1, "s"}} << QByteArray("# SOUL.md\ns\n---\n# AGENTS.md\na")
        << QList<bool>{false, false};
    QTest::newRow("white space over the cap: the trimmed notice")
        << small << Files{{1, QByteArray(20, ' ')}} << QByteArray("# SOUL.md\n[cut]")
        << QList<bool>{false, true};
    QTest::newRow("cut inside a character")
        << small << Files{{1, "123456789012345\xE2\x82\xAC"}}
        << QByteArray("# SOUL.md\n123456789012345\xEF\xBF\xBD\n[cut]") << QList<bool>{false, true};
    QTest::newRow("no notice: the cut text is trimmed at its end")
        << withNotice(small, {}) << Files{{1, "0123456789abcde  xyz"}}
        << QByteArray("# SOUL.md\n0123456789abcde") << QList<bool>{false, true};
    QTest::newRow("a notice ending in white space is trimmed")
        << withNotice(small, "\n[cut]\n\n") << Files{{1, "0123456789abcdefXYZ"}}
        << QByteArray("# SOUL.md\n0123456789abcdef\n[cut]") << QList<bool>{false, true};
    QTest::newRow("a slot the rule does not compose")
        << small << Files{{0, "a"}, {4, "tools"}} << QByteArray("# AGENTS.md\na")
        << QList<bool>{false, false};
}

void tst_ComposeRule::composesByTheRule()
{
    QFETCH(ComposeRule, rule);
    QFETCH(Files, files);
    QFETCH(QByteArray, soul);
    QFETCH(QList<bool>, truncated);

    const Composition c = compose(buffersOf(files), rule);
    QCOMPARE(c.soul, soul);
    QCOMPARE(c.truncated[0], truncated.at(0));
    QCOMPARE(c.truncated[1], truncated.at(1));
    QVERIFY(!c.present[4]);
    // Each section stands where the composition says, and is composeSection().
    for (const int slot : rule.order) {
        const auto k = size_t(slot);
        if (!c.present[k])
            continue;
        const QByteArray section = composeSection(slot, *buffersOf(files)[k], nullptr, rule);
        QCOMPARE(c.soul.mid(c.sectionOffset[k], c.sectionLength[k]), section);
    }
    // The same files under toolnexus's rule give another soul: the rule decides.
    QVERIFY(compose(buffersOf(files)).soul != soul);
}

// For random bytes around a small cap and notices with and without white
// space, the body is trim(decode(cut) + notice), as the contract says.
void tst_ComposeRule::bodyIsTheContractForAnyNotice()
{
    QRandomGenerator random(20261201);
    const QList<QByteArray>
        pieces{" ", "\n", "a", "Z", "\xC2\xA0", "\xE2\x80\x83", "\xE2\x82\xAC", "\xFF", "\xE2\x82"};
    const QList<QByteArray> notices{"\n[cut]", "", " ", "\n[cut] \n", "[x]", "\xE2\x80\x83!"};
    for (int round = 0; round < 4000; ++round) {
        ComposeRule rule = smallRule();
        rule.capBytes = 1 + random.bounded(12);
        rule.notice = notices.at(random.bounded(int(notices.size())));
        QByteArray raw;
        const int count = random.bounded(12);
        for (int i = 0; i < count; ++i)
            raw += pieces.at(random.bounded(int(pieces.size())));
        bool cut = false;
        const QByteArray body = composeBody(raw, &cut, rule);
        QCOMPARE(body, referenceBody(raw, rule));
        QCOMPARE(cut, raw.size() > rule.capBytes);
    }
}

void tst_ComposeRule::directoryComposesByTheRule()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Files files{{0, "agents\n"}, {1, QByteArray(100, 's')}, {4, "tools"}};
    QVERIFY(writeAll(dir.path(), files));
    const ComposeRule rule = smallRule();

    const Composition expected = compose(buffersOf(files), rule);
    QCOMPARE(expected.soul,
             QByteArray("# SOUL.md\n") + QByteArray(16, 's') + "\n[cut]\n---\n# AGENTS.md\nagents");
    QCOMPARE(composeDirectory(dir.path(), rule).soul, expected.soul);
    QByteArray streamed;
    QStringList found;
    QVERIFY(composeDirectoryTo(
        dir.path(),
        [&streamed](QByteArrayView piece) {
            streamed += piece;
            return true;
        },
        rule,
        &found));
    QCOMPARE(streamed, expected.soul);
    QCOMPARE(found, (QStringList{QStringLiteral("SOUL.md"), QStringLiteral("AGENTS.md")}));
    // The reader keeps the rule's limit, not toolnexus's.
    QCOMPARE(readSlot(dir.path(), 1, rule.readLimit()).bytes.size(), qsizetype(17));
}

void tst_ComposeRule::lintsSayTheRulesCap()
{
    const ComposeRule rule = smallRule();
    const SlotFacts over = factsOfBytes(1, QByteArray(17, 'a'), rule);
    QVERIFY(over.truncated);
    QCOMPARE(over.droppedBytes, qint64(1));
    QCOMPARE(over.capShare(), 17.0 / 16.0);
    const QList<Lint> overLints = lintSlot(over, rule);
    QCOMPARE(overLints.size(), 1);
    QCOMPARE(overLints.at(0).code, QStringLiteral("truncated"));
    QCOMPARE(overLints.at(0).message,
             QStringLiteral("SOUL.md is 17 bytes, over the 16-byte cap: the agent gets the first "
                            "16 bytes and does not see the last 1 byte. Shorten it or move "
                            "content to another file."));

    QCOMPARE(rule.nearCapBytes(), qint64(8));
    const QList<Lint> near = lintSlot(factsOfBytes(1, QByteArray(8, 'a'), rule), rule);
    QCOMPARE(near.size(), 1);
    QCOMPARE(near.at(0).code, QStringLiteral("near-cap"));
    QCOMPARE(near.at(0).message,
             QStringLiteral("SOUL.md is at 50% of the cap (8 of 16 bytes): it will be cut if it "
                            "grows past the cap."));
    QVERIFY(lintSlot(factsOfBytes(1, QByteArray(7, 'a'), rule), rule).isEmpty());

    // toolnexus's lint says its own cap from the same code.
    const qint64 cap = ComposeRule::toolnexus().capBytes;
    const QList<Lint> big
        = lintSlot(factsOfBytes(1, QByteArray(cap + 1, 'a'), ComposeRule::toolnexus()),
                   ComposeRule::toolnexus());
    QCOMPARE(big.at(0).code, QStringLiteral("truncated"));
    QVERIFY2(big.at(0).message.contains(QStringLiteral("the agent gets the first 2 MiB")),
             qPrintable(big.at(0).message));

    // inspectDirectory() takes the rule for the facts, the soul and the lints.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeAll(dir.path(), {{1, QByteArray(17, 'a')}}));
    const Result<Inspection> inspection = inspectDirectory(dir.path(), rule, true);
    QVERIFY(inspection);
    QVERIFY(inspection->rule == rule);
    QCOMPARE(inspection->slotFacts[1].capBytes, qint64(16));
    QCOMPARE(inspection->composition.soul,
             QByteArray("# SOUL.md\n") + QByteArray(16, 'a') + "\n[cut]");
    QCOMPARE(inspection->lints.size(), 1);
    QCOMPARE(inspection->lints.at(0).message, overLints.at(0).message);
}

void tst_ComposeRule::snapshotRecordsTheRule()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeAll(dir.path(), {{0, "agents"}, {1, "soul"}}));
    const ComposeRule rule = smallRule();
    const Result<Snapshot> snapshot = takeSnapshot(dir.path(), rule);
    QVERIFY(snapshot);
    QCOMPARE(snapshot->soul(), QByteArray("# SOUL.md\nsoul\n---\n# AGENTS.md\nagents"));
    const QJsonObject manifest = snapshot->manifest();
    QCOMPARE(manifest.value(QLatin1String("capBytes")).toInteger(), qint64(16));
    QCOMPARE(manifest.value(QLatin1String("order")).toArray(),
             (QJsonArray{QStringLiteral("SOUL.md"), QStringLiteral("AGENTS.md")}));
    QCOMPARE(manifest.value(QLatin1String("found")).toArray(),
             (QJsonArray{QStringLiteral("SOUL.md"), QStringLiteral("AGENTS.md")}));

    const Result<Snapshot> toolnexus = takeSnapshot(dir.path());
    QVERIFY(toolnexus);
    QCOMPARE(toolnexus->manifest().value(QLatin1String("capBytes")).toInteger(), qint64(2097152));
}

void tst_ComposeRule::profileCarriesTheRule()
{
    const ComposeRule rule = smallRule();
    const RuntimeProfile profile = RuntimeProfile::toolnexus(rule);
    QVERIFY(profile.rule == rule);
    QCOMPARE(profile.fileBudget(u"SOUL.md"), qint64(16));
    QCOMPARE(profile.loadedFiles(),
             (QStringList{QStringLiteral("SOUL.md"), QStringLiteral("AGENTS.md")}));
    QVERIFY(profile != RuntimeProfile::toolnexus());
    QCOMPARE(RuntimeProfile::toolnexus().fileBudget(u"SOUL.md"), qint64(2097152));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeAll(dir.path(), {{0, "a"}, {1, "s"}}));
    QByteArray soul;
    QVERIFY(composeDirectoryTo(
        dir.path(),
        [&soul](QByteArrayView piece) {
            soul += piece;
            return true;
        },
        profile));
    QCOMPARE(soul, QByteArray("# SOUL.md\ns\n---\n# AGENTS.md\na"));
}

void tst_ComposeRule::modelComposesByItsRule()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeAll(dir.path(), {{0, "agents"}, {1, QByteArray(40, 's')}}));
    const ComposeRule rule = smallRule();
    PersonaModel model(rule);
    QVERIFY(model.rule() == rule);
    QVERIFY(model.open(dir.path()));
    const QByteArray expected = composeDirectory(dir.path(), rule).soul;
    QCOMPARE(model.soul(SoulView::OnDisk), expected);
    QCOMPARE(model.soul(SoulView::Unsaved), expected);
    QCOMPARE(model.soulSize(SoulView::OnDisk), qint64(expected.size()));
    QCOMPARE(model.found(SoulView::OnDisk),
             (QStringList{QStringLiteral("SOUL.md"), QStringLiteral("AGENTS.md")}));
    QVERIFY(model.truncated(1, SoulView::OnDisk));
    QCOMPARE(model.watcher()->readLimit(), rule.readLimit());
    model.close();
}

QTEST_GUILESS_MAIN(tst_ComposeRule)

#include "tst_composerule.moc"
