#include "persona/editortext.h"

#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

using namespace soul;

namespace {

struct Row
{
    const char *name;
    QByteArray bytes;
    bool bom = false;
    QByteArray lineBreak = "\n";
};

QList<Row> roundTripRows()
{
    return {
        {"empty", QByteArray()},
        {"bom only", QByteArray("\xEF\xBB\xBF"), true},
        {"bom and lf",
         QByteArray("\xEF\xBB\xBF"
                    "a\n"),
         true},
        {"bom crlf",
         QByteArray("\xEF\xBB\xBF"
                    "# T\r\n\r\nbody\r\n"),
         true,
         "\r\n"},
        {"lf final newline", QByteArray("one\ntwo\n")},
        {"lf no final newline", QByteArray("one\ntwo")},
        {"crlf", QByteArray("one\r\ntwo\r\n"), false, "\r\n"},
        {"crlf no final newline", QByteArray("one\r\ntwo"), false, "\r\n"},
        {"lone cr", QByteArray("one\rtwo\r"), false, "\r"},
        {"only newlines", QByteArray("\n\n\n")},
        {"only crlf", QByteArray("\r\n"), false, "\r\n"},
        {"no break", QByteArray("single line")},
        {"nbsp",
         QByteArray("a\xC2\xA0"
                    "b\n\xC2\xA0\n")},
        {"tabs", QByteArray("\tindented\n\t\tmore\t\n")},
        {"trailing spaces", QByteArray("line   \n   \n  ")},
        {"leading blank lines", QByteArray("\n\n  text")},
        {"emoji", QByteArray("Kip \xF0\x9F\x98\x80 and \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD\n")},
        {"astral max", QByteArray("\xF4\x8F\xBF\xBF")},
        {"cjk and combining", QByteArray("\xE6\x97\xA5\xE6\x9C\xAC e\xCC\x81\n")},
        {"feff inside",
         QByteArray("a\xEF\xBB\xBF"
                    "b\n")},
        {"double bom",
         QByteArray("\xEF\xBB\xBF\xEF\xBB\xBF"
                    "x"),
         true},
        {"controls", QByteArray("\x01\x0B\x0C\x1C\x1D\x1E\x1F\x7F\n")},
        {"nel",
         QByteArray("a\xC2\x85"
                    "b")},
        {"zero width",
         QByteArray("a\xE2\x80\x8B"
                    "b\xE2\x80\x8D"
                    "c")},
        {"replacement char itself", QByteArray("\xEF\xBF\xBD")},
        {"noncharacter fffe", QByteArray("\xEF\xBF\xBE\xEF\xBF\xBF")},
        {"crlf with nbsp", QByteArray("\xC2\xA0\r\n\xC2\xA0"), false, "\r\n"},
    };
}

struct ObstacleRow
{
    const char *name;
    QByteArray bytes;
    const char *mentions; // a phrase the sentence must contain
};

QList<ObstacleRow> obstacleRows()
{
    return {
        {"invalid one",
         QByteArray("a\xFF"
                    "b"),
         "1 invalid UTF-8 sequence would become U+FFFD"},
        {"invalid three", QByteArray("\xC0\x80 \xFF"), "3 invalid UTF-8 sequences would become"},
        {"cut at end", QByteArray("ok \xF0\x9F\x98"), "1 invalid UTF-8 sequence"},
        {"nul", QByteArray("a\0b", 3), "1 NUL byte"},
        {"mixed lf crlf", QByteArray("a\r\nb\nc\n"), "make them all LF"},
        {"mixed crlf majority", QByteArray("a\r\nb\r\nc\n"), "make them all CR LF"},
        {"mixed cr", QByteArray("a\rb\rc\n"), "make them all CR"},
        {"line separator",
         QByteArray("a\xE2\x80\xA8"
                    "b"),
         "would become line breaks"},
        {"paragraph separator",
         QByteArray("a\xE2\x80\xA9"
                    "b"),
         "would become line breaks"},
        {"fdd0", QByteArray("a\xEF\xB7\x90"), "reserves"},
        {"fdd1", QByteArray("a\xEF\xB7\x91"), "reserves"},
        {"object replacement", QByteArray("a\xEF\xBF\xBC"), "reserves"},
        // Where: the lines, numbered by the file's own breaks.
        {"invalid on two lines",
         QByteArray("ok\n\xFF\nok\n\xC0 x\n"),
         "U+FFFD (the replacement character). On lines 2 and 4."},
        {"invalid on many lines",
         QByteArray("\xFF\n\xFF\n\xFF\n\xFF\n\xFF\n\xFF\n\xFF\n\xFF"),
         "On lines 1, 2, 3, 4, 5 and 3 more."},
        {"nul on one line", QByteArray("a\nb\0", 5), "drop or change them. On line 2."},
        {"crlf lines in an lf file", QByteArray("a\r\nb\nc\nd\r\ne"), "all LF. On lines 1 and 4."},
        {"lone cr line", QByteArray("a\nb\rc\n"), "all LF. On line 2."},
        {"separator line", QByteArray("a\r\nb\xE2\x80\xA8"), "line breaks. On line 2."},
        {"reserved line", QByteArray("a\rb\rc\xEF\xBF\xBC"), "lost. On line 3."},
    };
}

QByteArray viaDocument(const EditorText &editor)
{
    QTextDocument document;
    document.setPlainText(editor.text);
    return fromEditorText(document.toRawText(), editor.format);
}

} // namespace

class tst_EditorText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip_data();
    void roundTrip();
    void roundTripThroughDocument_data();
    void roundTripThroughDocument();
    void obstacles_data();
    void obstacles();
    void editOneWordKeepsTheRest();
    void editorBreaksBecomeTheFileBreak();
    void everyOtherCodePointSurvivesTheDocument();
    void documentFactsBehindTheObstacles();
    void textChangeIsTheDifferingRange_data();
    void textChangeIsTheDifferingRange();
    void textChangeAppliedToADocument_data();
    void textChangeAppliedToADocument();
    void placeInEditor_data();
    void placeInEditor();
};

void tst_EditorText::roundTrip_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("bom");
    QTest::addColumn<QByteArray>("lineBreak");
    for (const Row &row : roundTripRows())
        QTest::newRow(row.name) << row.bytes << row.bom << row.lineBreak;
}

void tst_EditorText::roundTrip()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, bom);
    QFETCH(QByteArray, lineBreak);

    const EditorText editor = toEditorText(bytes);
    QVERIFY2(editor.roundTrips(), qPrintable(editor.obstacles.join(u' ')));
    QCOMPARE(editor.format.bom, bom);
    QCOMPARE(editor.format.lineBreak, lineBreak);
    QVERIFY(!editor.text.contains(u'\r'));
    QVERIFY(!editor.text.startsWith(QChar(0xFEFF)) || bytes.startsWith("\xEF\xBB\xBF\xEF\xBB\xBF"));
    QCOMPARE(fromEditorText(editor.text, editor.format), bytes);
}

void tst_EditorText::roundTripThroughDocument_data()
{
    roundTrip_data();
}

void tst_EditorText::roundTripThroughDocument()
{
    QFETCH(QByteArray, bytes);
    const EditorText editor = toEditorText(bytes);
    QCOMPARE(viaDocument(editor), bytes);
}

void tst_EditorText::obstacles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("mentions");
    for (const ObstacleRow &row : obstacleRows())
        QTest::newRow(row.name) << row.bytes << QString::fromUtf8(row.mentions);
}

void tst_EditorText::obstacles()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, mentions);

    const EditorText editor = toEditorText(bytes);
    QVERIFY(!editor.roundTrips());
    QCOMPARE(editor.obstacles.size(), 1);
    QVERIFY2(editor.obstacles.constFirst().contains(mentions),
             qPrintable(editor.obstacles.constFirst()));
    QVERIFY(editor.obstacles.constFirst().endsWith(u'.'));
}

void tst_EditorText::editOneWordKeepsTheRest()
{
    const QByteArray original(
        "\xEF\xBB\xBF# Kip\r\n\r\nYou are\xC2\xA0Kip, a terse assistant.  \r\n"
        "\t- metric \xF0\x9F\x93\x8F\r\n");
    const EditorText editor = toEditorText(original);
    QVERIFY(editor.roundTrips());

    QTextDocument document;
    document.setPlainText(editor.text);
    QString raw = document.toRawText();
    const qsizetype at = raw.indexOf(QStringLiteral("terse"));
    QVERIFY(at > 0);
    raw.replace(at, 5, QStringLiteral("brief"));

    QByteArray expected = original;
    expected.replace("terse", "brief");
    QCOMPARE(fromEditorText(raw, editor.format), expected);
}

void tst_EditorText::editorBreaksBecomeTheFileBreak()
{
    TextFormat crlf;
    crlf.lineBreak = "\r\n";
    const QString text = QStringLiteral("a\nb\u2029c\u2028d\re\r\nf");
    QCOMPARE(fromEditorText(text, crlf), QByteArray("a\r\nb\r\nc\r\nd\r\ne\r\nf"));

    TextFormat lf;
    lf.bom = true;
    QCOMPARE(fromEditorText(QString(), lf), QByteArray("\xEF\xBB\xBF"));
}

// Every BMP code point but the line breaks and the reserved characters, and
// the astral ones at the edges, go through QTextDocument unchanged.
void tst_EditorText::everyOtherCodePointSurvivesTheDocument()
{
    QString all;
    for (char32_t c = 0; c < 0x10000; ++c) {
        if ((c >= 0xD800 && c < 0xE000) || c == u'\n' || c == u'\r' || c == 0x2028 || c == 0x2029
            || c == 0xFDD0 || c == 0xFDD1 || c == 0xFFFC || c == 0) {
            continue;
        }
        all.append(QChar(char16_t(c)));
        if (c % 64 == 0)
            all.append(u'\n');
    }
    const char32_t astral[] = {0x10000, 0x1F600, 0x10FFFF};
    all.append(QString::fromUcs4(astral, 3));

    const QByteArray bytes = all.toUtf8();
    const EditorText editor = toEditorText(bytes);
    QVERIFY2(editor.roundTrips(), qPrintable(editor.obstacles.join(u' ')));
    QCOMPARE(viaDocument(editor), bytes);
}

// The facts about QTextDocument that decide what is an obstacle. Should a Qt
// update change one, this test says which.
void tst_EditorText::documentFactsBehindTheObstacles()
{
    QTextDocument document;
    document.setPlainText(QStringLiteral("a\u00A0b\nc"));
    QCOMPARE(document.toRawText(), QStringLiteral("a\u00A0b\u2029c"));
    QCOMPARE(document.toPlainText(), QStringLiteral("a b\nc")); // why panes use toRawText()

    document.setPlainText(QStringLiteral("\uFEFFa\uFEFF"));
    QCOMPARE(document.toRawText(), QStringLiteral("\uFEFFa\uFEFF"));

    document.setPlainText(QStringLiteral("a\uFDD0b\uFDD1c"));
    QCOMPARE(document.toRawText(), QStringLiteral("a\u2029b\u2029c"));

    document.setPlainText(QStringLiteral("a\rb\r\nc"));
    QCOMPARE(document.toRawText(), QStringLiteral("a\u2029b\u2029c"));
}

namespace {

struct ChangeRow
{
    const char *name;
    QString before;
    QString after;
    qsizetype position;
    qsizetype removed;
    qsizetype inserted;
};

QList<ChangeRow> changeRows()
{
    const QString smile = QStringLiteral("\U0001F600");  // D83D DE00
    const QString grin = QStringLiteral("\U0001F601");   // D83D DE01
    const QString thumbs = QStringLiteral("\U0001F44D"); // D83D DC4D
    return {
        {"both empty", QString(), QString(), 0, 0, 0},
        {"equal", QStringLiteral("same\ntext"), QStringLiteral("same\ntext"), 9, 0, 0},
        {"from empty", QString(), QStringLiteral("new"), 0, 0, 3},
        {"to empty", QStringLiteral("old"), QString(), 0, 3, 0},
        {"one word in the middle",
         QStringLiteral("Be brief.\nBe kind.\n"),
         QStringLiteral("Be brief.\nBe warm.\n"),
         13,
         4,
         4},
        {"appended line", QStringLiteral("a\nb\n"), QStringLiteral("a\nb\nc\n"), 4, 0, 2},
        {"removed first line", QStringLiteral("x\ny\n"), QStringLiteral("y\n"), 0, 2, 0},
        // The repeated letter could be matched on either side; the prefix wins.
        {"doubled letter", QStringLiteral("aa"), QStringLiteral("aaa"), 2, 0, 1},
        {"shrink repeated", QStringLiteral("abab"), QStringLiteral("ab"), 2, 2, 0},
        {"prefix stops before a pair",
         QStringLiteral("x") + smile,
         QStringLiteral("x") + grin,
         1,
         2,
         2},
        {"suffix stops after a pair",
         smile + QStringLiteral("y"),
         thumbs + QStringLiteral("y"),
         0,
         2,
         2},
        {"pair replaced between pairs", smile + grin + smile, smile + thumbs + smile, 2, 2, 2},
        // U+1F600 and U+10600 share their low half.
        {"suffix stops before a shared low half",
         QStringLiteral("a") + smile,
         QStringLiteral("a\U00010600"),
         1,
         2,
         2},
        {"pair inserted",
         QStringLiteral("ab"),
         QStringLiteral("a") + smile + QStringLiteral("b"),
         1,
         0,
         2},
        {"whole text differs", QStringLiteral("abc"), QStringLiteral("xyz"), 0, 3, 3},
    };
}

} // namespace

void tst_EditorText::textChangeIsTheDifferingRange_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<qsizetype>("position");
    QTest::addColumn<qsizetype>("removed");
    QTest::addColumn<qsizetype>("inserted");
    for (const ChangeRow &row : changeRows()) {
        QTest::newRow(row.name) << row.before << row.after << row.position << row.removed
                                << row.inserted;
    }
}

void tst_EditorText::textChangeIsTheDifferingRange()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(qsizetype, position);
    QFETCH(qsizetype, removed);
    QFETCH(qsizetype, inserted);
    const TextChange change = textChange(before, after);
    QCOMPARE(change.position, position);
    QCOMPARE(change.removed, removed);
    QCOMPARE(change.inserted, inserted);
    QCOMPARE(change.isEmpty(), before == after);
    // Applying the range gives `after`, and no half of a pair is cut.
    QString applied = before;
    applied.replace(change.position, change.removed, after.mid(change.position, change.inserted));
    QCOMPARE(applied, after);
    for (const QString &text : {before, after}) {
        if (change.position > 0 && change.position < text.size())
            QVERIFY(!text.at(change.position).isLowSurrogate());
    }
}

void tst_EditorText::textChangeAppliedToADocument_data()
{
    textChangeIsTheDifferingRange_data();
}

// A pane applies the range with one cursor edit: one undo step that gives the
// old text back.
void tst_EditorText::textChangeAppliedToADocument()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QTextDocument document;
    document.setPlainText(before);
    const auto text = [&document] {
        return document.toRawText().replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
    };
    const TextChange change = textChange(text(), after);
    QTextCursor cursor(&document);
    cursor.beginEditBlock();
    cursor.setPosition(int(change.position));
    cursor.setPosition(int(change.position + change.removed), QTextCursor::KeepAnchor);
    cursor.insertText(after.mid(change.position, change.inserted));
    cursor.endEditBlock();
    QCOMPARE(text(), after);
    if (!change.isEmpty()) {
        QVERIFY(document.isUndoAvailable());
        document.undo();
    }
    QCOMPARE(text(), before);
}

void tst_EditorText::placeInEditor_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QByteArray>("at"); // the place is where this first occurs in `bytes`
    QTest::addColumn<int>("shift");     // bytes after it (into a character or a break)
    QTest::addColumn<QByteArray>("shown");
    QTest::addColumn<qint64>("line");
    QTest::addColumn<qint64>("column");

    const QByteArray lf("one\ntwo\nthree word\n");
    QTest::newRow("line feeds") << lf << QByteArray("word") << 0 << lf << qint64(3) << qint64(6);
    QTest::newRow("start") << lf << QByteArray("one") << 0 << lf << qint64(1) << qint64(0);
    QTest::newRow("end") << lf << QByteArray() << int(lf.size()) << lf << qint64(4) << qint64(0);
    const QByteArray crlf("one\r\ntwo\r\nthree word\r\n");
    QTest::newRow("CR LF") << crlf << QByteArray("word") << 0 << crlf << qint64(3) << qint64(6);
    QTest::newRow("between CR and LF")
        << crlf << QByteArray("\r\nthree") << 1 << crlf << qint64(2) << qint64(3);
    const QByteArray cr("one\rtwo\rthree word\r");
    QTest::newRow("lone CR") << cr << QByteArray("word") << 0 << cr << qint64(3) << qint64(6);
    const QByteArray bom("\xEF\xBB\xBFone\ntwo word");
    QTest::newRow("BOM") << bom << QByteArray("word") << 0 << bom << qint64(2) << qint64(4);
    QTest::newRow("inside the BOM")
        << bom << QByteArray("\xBB") << 0 << bom << qint64(1) << qint64(0);
    const QByteArray invalid("a\xFF\xC3(b word\n");
    // Two U+FFFD, one for each maximal invalid subpart.
    QTest::newRow("invalid UTF-8 before")
        << invalid << QByteArray("word") << 0 << invalid << qint64(1) << qint64(6);
    const QByteArray wide("\xF0\x9F\x98\x80 \xC3\xA9t\xC3\xA9 word");
    // U+1F600 is two units, U+00E9 one.
    QTest::newRow("after wide characters")
        << wide << QByteArray("word") << 0 << wide << qint64(1) << qint64(7);
    QTest::newRow("inside a character")
        << wide << QByteArray("\x98") << 0 << wide << qint64(1) << qint64(0);
    QTest::newRow("inside the second character")
        << wide << QByteArray("\xA9t") << 0 << wide << qint64(1) << qint64(3);

    const QByteArray disk("alpha\nbeta\ngamma word\n");
    QTest::newRow("unsaved lines before it")
        << disk << QByteArray("word") << 0 << QByteArray("alpha\nnew\nlines\nbeta\ngamma word\n")
        << qint64(5) << qint64(6);
    QTest::newRow("unsaved text after it")
        << disk << QByteArray("beta") << 0 << QByteArray("alpha\nbeta\ngamma word and more\n")
        << qint64(2) << qint64(0);
    QTest::newRow("inside the unsaved change")
        << disk << QByteArray("eta") << 0 << QByteArray("alpha\nBETA\ngamma word\n") << qint64(2)
        << qint64(0);
    QTest::newRow("unsaved in another line break")
        << disk << QByteArray("word") << 0 << QByteArray("alpha\r\nbeta\r\ngamma word\r\n")
        << qint64(3) << qint64(6);
}

void tst_EditorText::placeInEditor()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QByteArray, at);
    QFETCH(int, shift);
    QFETCH(QByteArray, shown);
    QFETCH(qint64, line);
    QFETCH(qint64, column);
    const qsizetype found = at.isEmpty() ? 0 : bytes.indexOf(at);
    QVERIFY(found >= 0);
    const TextPlace place = soul::placeInEditor(bytes, found + shift, shown);
    QCOMPARE(place.line, line);
    QCOMPARE(place.column, column);
    // The place is in the pane's text, as a QTextDocument holds it.
    QTextDocument document;
    document.setPlainText(toEditorText(shown).text);
    const QTextBlock block = document.findBlockByNumber(int(line - 1));
    QVERIFY(block.isValid());
    QVERIFY(column <= block.length() - 1);
}

QTEST_MAIN(tst_EditorText)
#include "tst_editortext.moc"
