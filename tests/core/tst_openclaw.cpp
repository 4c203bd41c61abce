#include "compose/contract.h"
#include "counttext.h"
#include "openclawexamples.h"
#include "persona/inspection.h"
#include "persona/lint.h"
#include "runtime/openclaw/openclawlint.h"
#include "runtime/openclaw/openclawreader.h"
#include "runtime/openclaw/openclawrule.h"
#include "runtime/openclaw/openclawruntime.h"
#include "testfiles.h"

#include <QTemporaryDir>

#include <sys/stat.h>
#include <unistd.h>
#include <QTest>

using namespace soul;

// The OpenClaw 2026.9 profile: the spec's worked examples (outputs of
// OpenClaw's own code) and cases at the edges of its budgets and cuts.
class tst_OpenClaw : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void examples_data();
    void examples();
    void safeCuts_data();
    void safeCuts();
    void trimEnd();
    void budgetEdges_data();
    void budgetEdges();
    void surrogateAtTailCut();
    void totalRunsOut();
    void missingLineClamped();
    void agentsDoubleArithmetic();
    void policyKeywords_data();
    void policyKeywords();
    void digestRanges();
    void promptText_data();
    void promptText();
    void crlfAndBom();
    void readerRefusals();
    void listingAndBootstrap();
    void directoryPath();
    void keptRanges();
    void slotHintFollowsSettings_data();
    void slotHintFollowsSettings();
    void placesEachFilesText_data();
    void placesEachFilesText();
};

namespace {

QString units(char16_t c, qsizetype n)
{
    return QString(n, QChar(c));
}

// A folder entry with text content.
OpenClawEntry content(const QString &name, const QString &text)
{
    OpenClawEntry entry;
    entry.name = name;
    entry.text = text;
    return entry;
}

OpenClawInput input(QList<OpenClawEntry> entries)
{
    OpenClawInput in;
    in.dir = QStringLiteral("/p");
    in.entries = std::move(entries);
    return in;
}

const OpenClawFileFigures *figuresOf(const OpenClawComposition &c, const QString &name)
{
    for (const OpenClawFileFigures &f : c.files) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

const QString Emoji = QStringLiteral("\U0001F642");

} // namespace

void tst_OpenClaw::examples_data()
{
    QTest::addColumn<QJsonObject>("example");
    const QJsonObject all = test::openClawExamples();
    QVERIFY2(!all.isEmpty(), "tests/data/openclaw-2026.9-examples.json is missing");
    for (const QJsonValue &value : all.value(QStringLiteral("examples")).toArray()) {
        const QJsonObject example = value.toObject();
        QTest::newRow(qPrintable(example.value(QStringLiteral("name")).toString())) << example;
    }
}

void tst_OpenClaw::examples()
{
    QFETCH(QJsonObject, example);
    const QJsonObject expect = example.value(QStringLiteral("expect")).toObject();
    const QString placeholder = test::openClawExamples().value(QStringLiteral("dir")).toString();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(test::makeExampleFolder(example, dir.path()));

    OpenClawInput input = readOpenClawDirectory(dir.path());
    QCOMPARE(input.dir, QDir::cleanPath(QDir(dir.path()).absolutePath()));
    const OpenClawComposition real = composeOpenClaw(input);
    QCOMPARE(real.section,
             expect.value(QStringLiteral("section")).toString().replace(placeholder, input.dir));

    // At the placeholder path the bytes are exactly OpenClaw's.
    input.dir = placeholder;
    const OpenClawComposition composition = composeOpenClaw(input);
    const QByteArray bytes = composition.section.toUtf8();
    QCOMPARE(composition.section, expect.value(QStringLiteral("section")).toString());
    QCOMPARE(bytes.size(), expect.value(QStringLiteral("sectionBytes")).toInteger());
    QCOMPARE(composition.section.size(), expect.value(QStringLiteral("sectionUtf16")).toInteger());
    QCOMPARE(test::sha256Hex(bytes),
             expect.value(QStringLiteral("sectionSha256")).toString().toLatin1());
    QCOMPARE(composition.notice, expect.value(QStringLiteral("notice")).toBool());
    QCOMPARE(composition.bootstrapPending,
             expect.value(QStringLiteral("bootstrapMode")).toString() == QLatin1String("full"));

    const QJsonArray files = expect.value(QStringLiteral("files")).toArray();
    QCOMPARE(composition.files.size(), files.size());
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QJsonObject want = files.at(i).toObject();
        const OpenClawFileFigures &got = composition.files.at(i);
        QCOMPARE(got.name, want.value(QStringLiteral("name")).toString());
        QCOMPARE(got.kind == OpenClawEntry::Kind::Missing,
                 want.value(QStringLiteral("missing")).toBool());
        QCOMPARE(got.raw, want.value(QStringLiteral("rawChars")).toInteger());
        QCOMPARE(got.injected, want.value(QStringLiteral("injectedChars")).toInteger());
        QCOMPARE(got.truncated, want.value(QStringLiteral("truncated")).toBool());
    }

    // The lint of a cut file states OpenClaw's own counts.
    const QList<Lint> lints = lintOpenClaw(dir.path(), input, composition);
    const QString name = example.value(QStringLiteral("name")).toString();
    const auto has = [&lints](const QString &message) {
        return std::any_of(lints.cbegin(), lints.cend(), [&message](const Lint &lint) {
            return lint.message == message;
        });
    };
    if (name == QLatin1String("agents-digest")) {
        QVERIFY(has(QStringLiteral(
            "OpenClaw keeps the first 9,000, a digest of 60 policy lines (6,977 characters) and "
            "the last 3,000 of its 31,787 characters; 38 policy lines and everything else in the "
            "middle are not injected.")));
    } else if (name == QLatin1String("user-over-4000")) {
        QVERIFY(
            has(QStringLiteral("OpenClaw keeps the first 2,922 and the last 974 of its 5,159 "
                               "characters (limit 4,000); the 1,263 between are not injected.")));
    } else if (name == QLatin1String("total-budget")) {
        QVERIFY(has(QStringLiteral("MEMORY.md is not injected: the files before it use up "
                                   "OpenClaw's 60,000-character total, so none of its 12 "
                                   "characters reach the agent.")));
    }
}

void tst_OpenClaw::safeCuts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("n");
    QTest::addColumn<QString>("head");
    QTest::addColumn<QString>("tail");
    const QString ab = QStringLiteral("a") + Emoji + QStringLiteral("b"); // a, hi, lo, b
    QTest::newRow("whole") << ab << 4 << ab << ab;
    QTest::newRow("longer than asked") << ab << 9 << ab << ab;
    QTest::newRow("zero") << ab << 0 << QString() << QString();
    QTest::newRow("head ends between the halves")
        << ab << 2 << QStringLiteral("a") << QStringLiteral("b");
    QTest::newRow("head after the pair")
        << ab << 3 << (QStringLiteral("a") + Emoji) << (Emoji + QStringLiteral("b"));
    QTest::newRow("one unit") << ab << 1 << QStringLiteral("a") << QStringLiteral("b");
}

void tst_OpenClaw::safeCuts()
{
    QFETCH(QString, text);
    QFETCH(int, n);
    QFETCH(QString, head);
    QFETCH(QString, tail);
    QCOMPARE(safeHead(text, n).toString(), head);
    QCOMPARE(safeTail(text, n).toString(), tail);
}

void tst_OpenClaw::trimEnd()
{
    // U+FEFF is JavaScript whitespace, U+0085 and U+200B are not.
    QCOMPARE(jsTrimmedEnd(u"x \t\r\n\u3000\uFEFF\u00A0").toString(), QStringLiteral("x"));
    QCOMPARE(jsTrimmedEnd(u"x\u0085").size(), 2);
    QCOMPARE(jsTrimmedEnd(u"x\u200B").size(), 2);
    QCOMPARE(jsTrimmed(u"\uFEFF x \u2028").toString(), QStringLiteral("x"));
}

void tst_OpenClaw::budgetEdges_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("length");
    QTest::addColumn<bool>("truncated");
    QTest::addColumn<int>("injected");
    QTest::newRow("SOUL.md at 20000") << QStringLiteral("SOUL.md") << 20000 << false << 20000;
    // Full marker for 0+0 of 20001 is 97: b = 19903 -> 14927 + 4975, marker
    // 104; b = 19894 -> 14920 + 4973; stable. 14920 + 4973 + 104 + 2.
    QTest::newRow("SOUL.md at 20001") << QStringLiteral("SOUL.md") << 20001 << true << 19999;
    QTest::newRow("USER.md at 4000") << QStringLiteral("USER.md") << 4000 << false << 4000;
    QTest::newRow("USER.md at 4001") << QStringLiteral("USER.md") << 4001 << true << 3999;
    QTest::newRow("MEMORY.md at 20001") << QStringLiteral("MEMORY.md") << 20001 << true << 19999;
    // AGENTS.md: 9000 head + 3000 tail + fixed lines; no policy lines in x's.
    QTest::newRow("AGENTS.md at 20000") << QStringLiteral("AGENTS.md") << 20000 << false << 20000;
}

void tst_OpenClaw::budgetEdges()
{
    QFETCH(QString, name);
    QFETCH(int, length);
    QFETCH(bool, truncated);
    QFETCH(int, injected);
    const OpenClawComposition c = composeOpenClaw(
        input({content(name, units(u'x', length) + QStringLiteral("\n"))}));
    const OpenClawFileFigures *f = figuresOf(c, name);
    QVERIFY(f);
    QCOMPARE(f->raw, length);
    QCOMPARE(f->truncated, truncated);
    QCOMPARE(f->injected, injected);
    QCOMPARE(c.notice, truncated);
    QVERIFY(f->injected <= f->limit);
}

void tst_OpenClaw::surrogateAtTailCut()
{
    // 20001 units: the tail is the last 4973; put a pair across that start.
    const qsizetype n = 20001;
    const qsizetype tailStart = n - 4973;
    QString text = units(u'x', tailStart - 1) + Emoji + units(u'y', n - tailStart - 1);
    QCOMPARE(text.size(), n);
    const OpenClawCut cut = openClawTruncate(u"SOUL.md", text, 20000);
    QVERIFY(cut.truncated);
    QCOMPARE(cut.requestedTail, 4973);
    // The low half would start the tail: it starts one unit later instead.
    QCOMPARE(cut.tail.length, 4972);
    QVERIFY(cut.text.endsWith(QStringLiteral("\n\n") + units(u'y', 4972)));
    QVERIFY(cut.text.contains(QStringLiteral("kept 14920+4973 chars of 20001")));
    QCOMPARE(cut.text.size(), 19998);
}

void tst_OpenClaw::totalRunsOut()
{
    // 20000 + 20000 + 19936 leave 64 for USER.md (injected, compact marker);
    // one more unit and only 63 are left: USER.md is dropped, truncated.
    for (const int identity : {19936, 19937}) {
        const OpenClawComposition c = composeOpenClaw(
            input({content(QStringLiteral("AGENTS.md"), units(u'a', 20000)),
                   content(QStringLiteral("SOUL.md"), units(u's', 20000)),
                   content(QStringLiteral("IDENTITY.md"), units(u'i', identity)),
                   content(QStringLiteral("USER.md"), units(u'u', 100))}));
        const OpenClawFileFigures *user = figuresOf(c, QStringLiteral("USER.md"));
        QVERIFY(user);
        QVERIFY(user->truncated);
        QVERIFY(c.notice);
        if (identity == 19936) {
            QCOMPARE(user->injected, 63);
            QVERIFY(user->cut.compactMarker);
            QVERIFY(c.section.contains(QStringLiteral("[\u2026truncated ")));
            QVERIFY(c.section.contains(QStringLiteral("## /p/USER.md")));
        } else {
            QCOMPARE(user->injected, 0);
            QVERIFY(user->budgetExhausted);
            QVERIFY(!c.section.contains(QStringLiteral("## /p/USER.md")));
            QVERIFY(!c.section.contains(QStringLiteral("USER.md: durable")));
        }
    }
}

void tst_OpenClaw::missingLineClamped()
{
    // A total of 30 clamps the MISSING line with an ellipsis and stops there.
    OpenClawEntry soul;
    soul.name = QStringLiteral("SOUL.md");
    soul.kind = OpenClawEntry::Kind::Missing;
    OpenClawSettings settings;
    settings.bootstrapTotalMaxChars = 30;
    const OpenClawComposition c
        = composeOpenClaw(input({soul, content(QStringLiteral("IDENTITY.md"), QStringLiteral("i"))}),
                          settings);
    QCOMPARE(c.files.at(0).injected, 30);
    QVERIFY(
        c.section.endsWith(QStringLiteral("## /p/SOUL.md\n[MISSING] Expected at: /p/SOU\u2026")));
    QCOMPARE(c.files.at(1).injected, 0);
    QVERIFY(c.files.at(1).truncated);
    QVERIFY(!c.files.at(0).truncated);
}

void tst_OpenClaw::agentsDoubleArithmetic()
{
    const AgentsShares defaults = openClawAgentsShares(20000);
    QCOMPARE(defaults.head, 9000);
    QCOMPARE(defaults.tail, 3000);
    QCOMPARE(defaults.digest, 7000);
    // 180 * 0.35 is just under 63 in doubles.
    QCOMPARE(openClawAgentsShares(180).digest, 62);
    QCOMPARE(openClawAgentsShares(180).head, 81);
}

void tst_OpenClaw::policyKeywords_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<bool>("candidate");
    QTest::addColumn<bool>("high");
    QTest::newRow("MUST") << QStringLiteral("You MUST reply.") << true << true;
    QTest::newRow("long s secret") << QStringLiteral("Keep the \u017Fecret.") << true << true;
    QTest::newRow("mustard") << QStringLiteral("Pass the mustard.") << false << false;
    QTest::newRow("tests") << QStringLiteral("Run the tests.") << false << false;
    QTest::newRow("test") << QStringLiteral("Run the test.") << true << false;
    QTest::newRow("xpr") << QStringLiteral("Call xpr now.") << false << false;
    QTest::newRow("long s pr") << QStringLiteral("Call \u017Fpr now.") << false << false;
    QTest::newRow("Kelvin sign") << QStringLiteral("Ask the \u212Aeeper.") << false << false;
    QTest::newRow("do not across whitespace") << QStringLiteral("Do \t not stop.") << true << true;
    QTest::newRow("AGENTS.md") << QStringLiteral("See agents.MD first.") << true << true;
    QTest::newRow("red circle") << QStringLiteral("\U0001F534 stop") << true << true;
    QTest::newRow("bixu is normal") << QStringLiteral("\u5FC5\u9808 stop") << true << false;
    QTest::newRow("heading") << QStringLiteral("## Safety") << true << false;
    QTest::newRow("seven hashes") << QStringLiteral("####### Deep") << false << false;
    QTest::newRow("bullet") << QStringLiteral("- item") << true << false;
    QTest::newRow("no space bullet") << QStringLiteral("-item") << false << false;
    QTest::newRow("numbered") << QStringLiteral("2) Open") << true << false;
    QTest::newRow("decimal") << QStringLiteral("1.5 litres") << false << false;
}

void tst_OpenClaw::policyKeywords()
{
    QFETCH(QString, line);
    QFETCH(bool, candidate);
    QFETCH(bool, high);
    const QString filler = units(u'x', 300) + QStringLiteral("\n\n");
    const QString closing = QStringLiteral("\n\n") + units(u'z', 300);
    // Alone in AGENTS.md over its limit: in the digest exactly when it is a
    // candidate line.
    const OpenClawCut alone = openClawTruncate(u"AGENTS.md", filler + line + closing, 300);
    QVERIFY(alone.truncated);
    QCOMPARE(alone.digestLines.size(), candidate ? 1 : 0);
    // After a normal 100-unit bullet, with a digest budget of 104 or 105 that
    // holds one of them: a high-priority line wins, anything else loses.
    const QString rival = QStringLiteral("- ") + units(u'r', 98);
    const QString text = filler + rival + QStringLiteral("\n\n") + line + closing;
    const OpenClawCut both = openClawTruncate(u"AGENTS.md", text, 300);
    QCOMPARE(both.digestLines.size(), 1);
    const KeptRange chosen = both.digestLines.first();
    QCOMPARE(text.mid(chosen.start, chosen.length), high ? line : rival);
    QCOMPARE(both.omittedPolicyLines, candidate ? 1 : 0);
}

void tst_OpenClaw::digestRanges()
{
    // A prose line joined to the policy line after it: both are digest lines.
    const QString text = units(u'x', 300)
                         + QStringLiteral("\r\nIntro here.\r\nYou must stop.\r\n\r\n")
                         + units(u'z', 300);
    const OpenClawCut cut = openClawTruncate(u"AGENTS.md", text, 300);
    QVERIFY(cut.truncated);
    QCOMPARE(cut.digestLines.size(), 2);
    QCOMPARE(cut.digestEntries, 1);
    QCOMPARE(text.mid(cut.digestLines.at(0).start, cut.digestLines.at(0).length),
             QStringLiteral("Intro here."));
    QCOMPARE(text.mid(cut.digestLines.at(1).start, cut.digestLines.at(1).length),
             QStringLiteral("You must stop."));
    QVERIFY(cut.text.contains(
        QStringLiteral("[Policy digest from AGENTS.md]\nIntro here.\nYou must stop.\n")));
    QCOMPARE(cut.head, (KeptRange{0, cut.requestedHead}));
    QCOMPARE(cut.tail.start + cut.tail.length, jsTrimmedEnd(text).size());
}

void tst_OpenClaw::promptText_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("shown");
    QTest::newRow("three LFs") << QStringLiteral("SOUL.md") << QStringLiteral("a\n\n\n\nb")
                               << QStringLiteral("a\n\nb");
    QTest::newRow("CR LF runs stay")
        << QStringLiteral("SOUL.md") << QStringLiteral("a\r\n\r\n\r\nb")
        << QStringLiteral("a\r\n\r\n\r\nb");
    QTest::newRow("space between stays")
        << QStringLiteral("SOUL.md") << QStringLiteral("a\n \n\nb") << QStringLiteral("a\n \n\nb");
    QTest::newRow("heartbeat block")
        << QStringLiteral("SOUL.md")
        << QStringLiteral("x Default heartbeat prompt:\r\n`Follow the heartbeat monitor scratch "
                          "context when provided. then HEARTBEAT_OK.` y")
        << QStringLiteral("x  y");
    QTest::newRow("heartbeat block on two lines stays")
        << QStringLiteral("SOUL.md")
        << QStringLiteral(
               "Default heartbeat prompt:\n`Read HEARTBEAT.md if it exists\nHEARTBEAT_OK.`")
        << QStringLiteral(
               "Default heartbeat prompt:\n`Read HEARTBEAT.md if it exists\nHEARTBEAT_OK.`");
    QTest::newRow("project entry in MEMORY.md")
        << QStringLiteral("MEMORY.md")
        << QStringLiteral("- a\n- b <!--Project :x-->\n  more\n# H\nc")
        << QStringLiteral("- a\n# H\nc");
    QTest::newRow("project entry in SOUL.md stays")
        << QStringLiteral("SOUL.md") << QStringLiteral("- b <!-- project: x -->")
        << QStringLiteral("- b <!-- project: x -->");
    QTest::newRow("first entry dropped leaves empty")
        << QStringLiteral("USER.md") << QStringLiteral("<!-- project: k --> x") << QString();
}

void tst_OpenClaw::promptText()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(QString, shown);
    QCOMPARE(openClawPromptText(name, text), shown);
}

void tst_OpenClaw::crlfAndBom()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("AGENTS.md")),
                            "\xEF\xBB\xBFRules\r\n\r\n\r\n\r\nEnd\r\n\r\n"));
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("SOUL.md")), "\xEF\xBB\xBF\r\n"));
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("IDENTITY.md")),
                            "bad \xC0\x80 \xED\xA0\x80 end \xF0\x9F\x98"));
    OpenClawInput in = readOpenClawDirectory(dir.path());
    in.dir = QStringLiteral("/p");
    const OpenClawComposition c = composeOpenClaw(in);
    QCOMPARE(c.section,
             QStringLiteral("## Workspace Files (injected)\nUser-editable; OpenClaw loads below as "
                            "Project Context.\n# Project Context\nLoaded project context:\n"
                            "## /p/AGENTS.md\n\uFEFFRules\r\n\r\n\r\n\r\nEnd\n## /p/IDENTITY.md\n"
                            "bad \uFFFD\uFFFD \uFFFD\uFFFD\uFFFD end \uFFFD"));
    QCOMPARE(c.files.at(1).raw, 0);
    QVERIFY(!c.notice);
}

void tst_OpenClaw::readerRefusals()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString real = dir.filePath(QStringLiteral("real.md"));
    QVERIFY(test::writeFile(real, "text"));
    QVERIFY(QFile::link(QStringLiteral("real.md"), dir.filePath(QStringLiteral("AGENTS.md"))));
    QVERIFY(::link(QFile::encodeName(real).constData(),
                   QFile::encodeName(dir.filePath(QStringLiteral("SOUL.md"))).constData())
            == 0);
    QVERIFY(
        ::mkfifo(QFile::encodeName(dir.filePath(QStringLiteral("IDENTITY.md"))).constData(), 0600)
        == 0);
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("USER.md")));
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("MEMORY.md")),
                            QByteArray(OpenClawMaxFileBytes, 'm')));
    const OpenClawInput in = readOpenClawDirectory(dir.path());
    QCOMPARE(in.entries.size(), 5);
    const QStringList expected = {
        QStringLiteral("[UNREADABLE: symlink path component not allowed]"),
        QStringLiteral("[UNREADABLE: path must not be hardlinked]"),
        QStringLiteral("[UNREADABLE: path does not have the required file type]"),
        QStringLiteral("[UNREADABLE: path does not have the required file type]"),
    };
    for (qsizetype i = 0; i < expected.size(); ++i) {
        QCOMPARE(in.entries.at(i).kind, OpenClawEntry::Kind::Unreadable);
        QCOMPARE(in.entries.at(i).text, expected.at(i));
    }
    // Exactly 2 MiB is read whole; one byte more is refused.
    QCOMPARE(in.entries.at(4).kind, OpenClawEntry::Kind::Content);
    QCOMPARE(in.entries.at(4).text.size(), OpenClawMaxFileBytes);
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("MEMORY.md")),
                            QByteArray(OpenClawMaxFileBytes + 1, 'm')));
    QCOMPARE(readOpenClawFile(dir.filePath(QStringLiteral("MEMORY.md")), QStringLiteral("MEMORY.md"))
                 .text,
             QStringLiteral("[UNREADABLE: File exceeds 2097152 bytes]"));

    // Checked without reading: the same refusals, and a file that passes is
    // there with no text.
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("MEMORY.md")), "memory"));
    const QStringList all = openClawFileOrder();
    const OpenClawInput checked = readOpenClawDirectory(dir.path(), all);
    QCOMPARE(checked.entries.size(), 5);
    for (qsizetype i = 0; i < expected.size(); ++i) {
        QCOMPARE(checked.entries.at(i).kind, OpenClawEntry::Kind::Unreadable);
        QCOMPARE(checked.entries.at(i).text, expected.at(i));
    }
    QCOMPARE(checked.entries.at(4).kind, OpenClawEntry::Kind::Content);
    QCOMPARE(checked.entries.at(4).name, QStringLiteral("MEMORY.md"));
    QVERIFY(checked.entries.at(4).text.isEmpty());
    // Names not listed are read as before.
    QCOMPARE(readOpenClawDirectory(dir.path(), {QStringLiteral("SOUL.md")}).entries.at(4).text,
             QStringLiteral("memory"));
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("MEMORY.md")),
                            QByteArray(OpenClawMaxFileBytes + 1, 'm')));
    QCOMPARE(readOpenClawDirectory(dir.path(), all).entries.at(4).text,
             QStringLiteral("[UNREADABLE: File exceeds 2097152 bytes]"));
}

void tst_OpenClaw::listingAndBootstrap()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A dangling MEMORY.md link is listed, so it takes part (and is refused);
    // a dangling BOOTSTRAP.md link does not exist for stat: not pending.
    QVERIFY(QFile::link(QStringLiteral("nowhere"), dir.filePath(QStringLiteral("MEMORY.md"))));
    QVERIFY(QFile::link(QStringLiteral("nowhere"), dir.filePath(QStringLiteral("BOOTSTRAP.md"))));
    QVERIFY(test::writeFile(dir.filePath(QStringLiteral("memory.md")), "lower"));
    OpenClawInput in = readOpenClawDirectory(dir.path());
    QVERIFY(!in.bootstrapPending);
    QStringList names;
    for (const OpenClawEntry &entry : in.entries)
        names.append(entry.name);
    QCOMPARE(names,
             (QStringList{QStringLiteral("AGENTS.md"),
                          QStringLiteral("SOUL.md"),
                          QStringLiteral("IDENTITY.md"),
                          QStringLiteral("MEMORY.md")}));
    QCOMPARE(in.entries.at(0).kind, OpenClawEntry::Kind::Missing);
    QCOMPARE(in.entries.at(3).kind, OpenClawEntry::Kind::Unreadable);

    // A directory named BOOTSTRAP.md exists: pending, and refused.
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("BOOTSTRAP.md"))));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("BOOTSTRAP.md")));
    in = readOpenClawDirectory(dir.path());
    QVERIFY(in.bootstrapPending);
    QCOMPARE(in.entries.at(3).name, QStringLiteral("BOOTSTRAP.md"));
    QCOMPARE(in.entries.at(3).kind, OpenClawEntry::Kind::Unreadable);
    in.dir = QStringLiteral("/p");
    const OpenClawComposition c = composeOpenClaw(in);
    QVERIFY(c.section.startsWith(
        QStringLiteral("## Bootstrap Pending\nBOOTSTRAP.md below; follow before normal reply.\n")));
}

void tst_OpenClaw::directoryPath()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("real")));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("real")), dir.filePath(QStringLiteral("link"))));
    const QString base = QDir::cleanPath(dir.path());
    // Lexical: the link stays, `.` and `..` and the trailing slash go.
    QCOMPARE(openClawDirectoryPath(QStringLiteral("  ") + base + QStringLiteral("/link/./x/../")),
             base + QStringLiteral("/link"));
    QCOMPARE(openClawDirectoryPath(QStringLiteral("~/agent")),
             QDir::cleanPath(qEnvironmentVariable("HOME") + QStringLiteral("/agent")));
    QCOMPARE(openClawDirectoryPath(QStringLiteral("rel")),
             QDir::currentPath() + QStringLiteral("/rel"));
}

void tst_OpenClaw::keptRanges()
{
    // truncated-soul: the head and tail the pane keeps are the very text
    // around the marker in the section.
    QString soul;
    for (int i = 1; i <= 500; ++i)
        soul += QStringLiteral("S%1: I keep my answers short and my facts straight.\n")
                    .arg(i, 3, 10, QLatin1Char('0'));
    const QString agents = units(u'x', 30000) + QStringLiteral("\n\n- You must stop.\n")
                           + units(u'z', 300);
    const OpenClawComposition c = composeOpenClaw(
        input({content(QStringLiteral("AGENTS.md"), agents),
               content(QStringLiteral("SOUL.md"), soul),
               content(QStringLiteral("IDENTITY.md"), QStringLiteral("Name: Kip\n")),
               content(QStringLiteral("MEMORY.md"), units(u'm', 30000))}));

    const OpenClawKept s = openClawKept(c, u"SOUL.md");
    QVERIFY(s.loaded && s.entry && !s.whole && !s.droppedByTotal);
    QCOMPARE(s.kept.size(), 2);
    QCOMPARE(s.kept.at(0), (KeptRange{0, 14920}));
    QCOMPARE(s.kept.at(1), (KeptRange{26499 - 4973, 4973}));
    QCOMPARE(s.dropped, (KeptRange{14920, 26499 - 4973 - 14920}));
    QVERIFY(
        c.section.contains(soul.left(14920) + QStringLiteral("\n\n[...truncated, read SOUL.md")));
    QVERIFY(c.section.contains(QStringLiteral(")\u2026\n\n") + soul.mid(26499 - 4973, 4973)));

    const OpenClawKept a = openClawKept(c, u"AGENTS.md");
    QCOMPARE(a.kept.first(), (KeptRange{0, 9000}));
    QCOMPARE(a.digestLines.size(), 1);
    QCOMPARE(agents.mid(a.digestLines.first().start, a.digestLines.first().length),
             QStringLiteral("- You must stop."));

    const OpenClawKept identity = openClawKept(c, u"IDENTITY.md");
    QVERIFY(identity.whole);
    QCOMPARE(identity.kept, (QList<KeptRange>{{0, 9}}));
    QCOMPARE(identity.dropped.length, 0);

    // A total that leaves MEMORY.md 10 units: under 64, nothing of it is kept.
    OpenClawSettings tight;
    tight.bootstrapTotalMaxChars = int(c.files.at(0).injected + c.files.at(1).injected
                                       + c.files.at(2).injected + 10);
    const OpenClawComposition cut
        = composeOpenClaw(input({content(QStringLiteral("AGENTS.md"), agents),
                                 content(QStringLiteral("SOUL.md"), soul),
                                 content(QStringLiteral("IDENTITY.md"),
                                         QStringLiteral("Name: Kip\n")),
                                 content(QStringLiteral("MEMORY.md"), units(u'm', 30000))}),
                          tight);
    const OpenClawKept memory = openClawKept(cut, u"MEMORY.md");
    QVERIFY(memory.entry && memory.droppedByTotal && memory.kept.isEmpty());
    QVERIFY(!openClawKept(c, u"MEMORY.md").droppedByTotal);

    const OpenClawKept tools = openClawKept(c, u"TOOLS.md");
    QVERIFY(!tools.loaded && !tools.entry);
}

void tst_OpenClaw::slotHintFollowsSettings_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("characters");
    QTest::addColumn<int>("maxChars"); // 0: the default
    QTest::addColumn<int>("limit");    // the count the hint states; 0: no hint

    QTest::newRow("default, one over") << QStringLiteral("SOUL.md") << 20001 << 0 << 20000;
    QTest::newRow("default, at the limit") << QStringLiteral("SOUL.md") << 20000 << 0 << 0;
    QTest::newRow("lowered") << QStringLiteral("SOUL.md") << 15000 << 12000 << 12000;
    QTest::newRow("lowered, at the limit") << QStringLiteral("AGENTS.md") << 12000 << 12000 << 0;
    QTest::newRow("raised") << QStringLiteral("MEMORY.md") << 25000 << 30000 << 0;
    QTest::newRow("raised, over") << QStringLiteral("MEMORY.md") << 30001 << 30000 << 30000;
    QTest::newRow("USER.md's own cap") << QStringLiteral("USER.md") << 5000 << 0 << 4000;
    QTest::newRow("USER.md under a lower setting")
        << QStringLiteral("USER.md") << 3500 << 3000 << 3000;
    QTest::newRow("USER.md's cap not raised") << QStringLiteral("USER.md") << 5000 << 30000 << 4000;
    QTest::newRow("TOOLS.md is not loaded") << QStringLiteral("TOOLS.md") << 30000 << 0 << 0;
}

void tst_OpenClaw::slotHintFollowsSettings()
{
    QFETCH(QString, name);
    QFETCH(int, characters);
    QFETCH(int, maxChars);
    QFETCH(int, limit);
    OpenClawSettings settings;
    settings.bootstrapMaxChars = maxChars;
    const SlotFacts facts = factsOfBytes(slotIndex(name),
                                         QByteArray(characters, 'x'),
                                         ComposeRule::toolnexus());
    QList<Lint> hints;
    for (const Lint &lint : lintSlot(facts, ComposeRule::toolnexus(), settings.values())) {
        if (lint.code == QLatin1String("openclaw-chars"))
            hints.append(lint);
    }
    if (limit == 0) {
        QVERIFY(hints.isEmpty());
        return;
    }
    QCOMPARE(hints.size(), 1);
    QCOMPARE(hints.first().message,
             QStringLiteral("%1 has %2 characters: OpenClaw keeps only about %3 of it (a head "
                            "and a tail), so it would see less there.")
                 .arg(name, formatCount(characters), formatCount(limit)));
    // Without settings: OpenClaw's defaults, as soulc uses them.
    if (maxChars == 0)
        QCOMPARE(lintSlot(facts, ComposeRule::toolnexus()).size(),
                 lintSlot(facts, ComposeRule::toolnexus(), settings.values()).size());
}

void tst_OpenClaw::placesEachFilesText_data()
{
    QTest::addColumn<QString>("soul");
    QTest::addColumn<qint64>("maxChars");
    QTest::newRow("plain") << QStringLiteral("Kip, curious.\n") << qint64(20000);
    // SOUL.md quotes the header USER.md gets, and the text under it.
    QTest::newRow("quoted header")
        << QStringLiteral("Kip.\n## DIR/USER.md\nMuthu.\n") << qint64(20000);
    QTest::newRow("cut") << QStringLiteral("Kip, curious, kind and brief, always.\n") << qint64(20);
}

// Each file's text stands in the runtime's text where the view says, under
// its header; a missing file (IDENTITY.md, between two present ones) is not
// placed.
void tst_OpenClaw::placesEachFilesText()
{
    QFETCH(QString, soul);
    QFETCH(qint64, maxChars);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RuntimeInput input;
    input.dir = dir.path();
    input.buffers.insert(QStringLiteral("SOUL.md"),
                         soul.replace(QStringLiteral("DIR"), dir.path()).toUtf8());
    input.buffers.insert(QStringLiteral("USER.md"), "Muthu.\n");
    input.buffers.insert(QStringLiteral("MEMORY.md"), "likes tea\n");
    const OpenClawRuntime runtime;
    const Result<RuntimeComposition> c
        = runtime.compose(input, {{QStringLiteral("bootstrapMaxChars"), maxChars}});
    QVERIFY2(c, qPrintable(c.error()));
    QStringList placed;
    for (const RuntimeFileView &view : c->files) {
        KeptRange range;
        if (!c->placeOf(view, &range))
            continue;
        placed.append(view.name);
        QCOMPARE(QStringView(c->text).sliced(range.start, range.length), view.injectedText);
        const QString header = QStringLiteral("## ") + dir.filePath(view.name) + u'\n';
        QVERIFY(range.start >= header.size());
        QCOMPARE(QStringView(c->text).sliced(range.start - header.size(), header.size()), header);
    }
    QCOMPARE(placed,
             QStringList({QStringLiteral("SOUL.md"),
                          QStringLiteral("USER.md"),
                          QStringLiteral("MEMORY.md")}));
}

QTEST_GUILESS_MAIN(tst_OpenClaw)
#include "tst_openclaw.moc"
