#include "diff/cacherules.h"
#include "testfiles.h"

#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;
using namespace soul::test;

class tst_CacheRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void builtinIsDatedAndCited();
    void reuse_data();
    void reuse();
    void userFileOverrides();
    void badUserFile_data();
    void badUserFile();
};

void tst_CacheRules::builtinIsDatedAndCited()
{
    const CacheTable table = builtinCacheTable();
    QVERIFY(table.rules.size() >= 5);
    QVERIFY(table.prefixNote.contains(QStringLiteral("tool")));
    QStringList providers;
    const QRegularExpression date(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}$"));
    for (const CacheRule &rule : table.rules) {
        QVERIFY2(rule.source.startsWith(QStringLiteral("https://")), qPrintable(rule.id));
        QVERIFY2(date.match(rule.checked).hasMatch(), qPrintable(rule.id));
        // An unverified number says why.
        QVERIFY2(rule.verified || !rule.note.isEmpty(), qPrintable(rule.id));
        if (!providers.contains(rule.provider))
            providers.append(rule.provider);
    }
    QCOMPARE(providers,
             QStringList(
                 {QStringLiteral("OpenAI"), QStringLiteral("Anthropic"), QStringLiteral("Google")}));
    QList<qint64> anthropic;
    for (const CacheRule &rule : table.rules) {
        if (rule.provider == QLatin1String("Anthropic"))
            anthropic.append(rule.minimumTokens);
    }
    QCOMPARE(anthropic, QList<qint64>({4096, 2048, 1024, 512}));
}

void tst_CacheRules::reuse_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<qint64>("stable");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("reused");

    QTest::newRow("openai below the minimum")
        << QStringLiteral("openai") << qint64(1023) << qint64(5000) << qint64(0);
    QTest::newRow("openai at the minimum")
        << QStringLiteral("openai") << qint64(1024) << qint64(5000) << qint64(1024);
    QTest::newRow("openai one short of a step")
        << QStringLiteral("openai") << qint64(1151) << qint64(5000) << qint64(1024);
    QTest::newRow("openai one step")
        << QStringLiteral("openai") << qint64(1152) << qint64(5000) << qint64(1152);
    QTest::newRow("openai identical")
        << QStringLiteral("openai") << qint64(14020) << qint64(14020) << qint64(13952);
    QTest::newRow("anthropic all")
        << QStringLiteral("anthropic-1024") << qint64(3000) << qint64(3000) << qint64(3000);
    QTest::newRow("anthropic one token changed")
        << QStringLiteral("anthropic-1024") << qint64(2999) << qint64(3000) << qint64(0);
    QTest::newRow("anthropic too short")
        << QStringLiteral("anthropic-4096") << qint64(3000) << qint64(3000) << qint64(0);
    QTest::newRow("google from the minimum")
        << QStringLiteral("google-2.5-flash") << qint64(2500) << qint64(3000) << qint64(2500);
    QTest::newRow("google below") << QStringLiteral("google-2.5-pro") << qint64(2047)
                                  << qint64(3000) << qint64(0);
}

void tst_CacheRules::reuse()
{
    QFETCH(QString, id);
    QFETCH(qint64, stable);
    QFETCH(qint64, total);
    QFETCH(qint64, reused);
    const QList<CacheReuse> all = cacheReuse(builtinCacheTable(), stable, total);
    const auto it = std::find_if(all.begin(), all.end(), [&](const CacheReuse &r) {
        return r.rule.id == id;
    });
    QVERIFY2(it != all.end(), qPrintable(id));
    QCOMPARE(it->tokens, reused);
    QVERIFY(!it->reason.isEmpty());
    QCOMPARE(it->reason.startsWith(QStringLiteral("Nothing")), reused == 0);
}

void tst_CacheRules::userFileOverrides()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("cache-rules.json"));
    // No file: the built-in table.
    Result<CacheTable> table = cacheTableWithOverrides(path);
    QVERIFY(table.ok());
    QCOMPARE(table->rules.size(), builtinCacheTable().rules.size());

    QVERIFY(writeFile(path, R"({"format": "soul-cache-rules", "rules": [
        {"id": "openai", "provider": "OpenAI", "models": "a proxy", "kind": "steps",
         "minimumTokens": 2048, "stepTokens": 256, "source": "https://example.org/a",
         "checked": "2026-12-01"},
        {"id": "local", "provider": "Local", "models": "llama.cpp", "kind": "implicit",
         "minimumTokens": 0, "source": "https://example.org/b", "checked": "2026-12-01"}]})"));
    table = cacheTableWithOverrides(path);
    QVERIFY2(table.ok(), qPrintable(table.error()));
    QCOMPARE(table->rules.size(), builtinCacheTable().rules.size() + 1);
    QCOMPARE(table->rules.first().id, QStringLiteral("openai"));
    QCOMPARE(table->rules.first().minimumTokens, 2048);
    QCOMPARE(table->rules.last().id, QStringLiteral("local"));
    const QList<CacheReuse> reuse = cacheReuse(*table, 2400, 3000);
    QCOMPARE(reuse.first().tokens, 2304);
    QCOMPARE(reuse.last().tokens, 2400);
}

void tst_CacheRules::badUserFile_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("says");
    QTest::newRow("not JSON") << QByteArray("{") << QStringLiteral("not JSON");
    QTest::newRow("wrong format") << QByteArray(R"({"format": "x"})")
                                  << QStringLiteral("not a cache rule table");
    QTest::newRow("unknown kind") << QByteArray(
        R"({"format": "soul-cache-rules", "rules": [{"id": "x", "provider": "P",
            "kind": "magic", "minimumTokens": 1, "source": "s", "checked": "c"}]})")
                                  << QStringLiteral("rule 1 (x)");
    QTest::newRow("steps without a step")
        << QByteArray(R"({"format": "soul-cache-rules", "rules": [{"id": "x", "provider": "P",
            "kind": "steps", "minimumTokens": 1, "source": "s", "checked": "c"}]})")
        << QStringLiteral("stepTokens");
    QTest::newRow("no source") << QByteArray(
        R"({"format": "soul-cache-rules", "rules": [{"id": "x", "provider": "P",
            "kind": "implicit", "minimumTokens": 1}]})")
                               << QStringLiteral("\"source\"");
}

void tst_CacheRules::badUserFile()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rules.json"));
    QVERIFY(writeFile(path, json));
    const Result<CacheTable> table = cacheTableWithOverrides(path);
    QVERIFY(!table.ok());
    QVERIFY2(table.error().startsWith(path + QStringLiteral(": ")), qPrintable(table.error()));
    QVERIFY2(table.error().contains(says), qPrintable(table.error()));
}

QTEST_GUILESS_MAIN(tst_CacheRules)

#include "tst_cacherules.moc"
