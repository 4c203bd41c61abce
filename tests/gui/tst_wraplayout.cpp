#include "text/wraplayout.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>

#include <functional>
#include <memory>

using namespace soul;

// The preview's layout lays blocks out as QPlainTextDocumentLayout does, and
// lays out only the blocks asked for, even when the widest line narrows.
class tst_WrapLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void sameGeometryAsQt();
    void narrowingTheWidestLineLaysOutOnlyWhatIsShown();

private:
    // Lines of 2 to 200 characters, some wrapping, some empty.
    static QString text(int lines);
    static void setUp(QPlainTextEdit &edit);
    void compareGeometry();
    void edit(const std::function<void(QTextCursor &)> &change);

    std::unique_ptr<QPlainTextEdit> m_qt;
    std::unique_ptr<QPlainTextEdit> m_ours;
    WrapLayout *m_layout = nullptr;
};

QString tst_WrapLayout::text(int lines)
{
    QString out;
    for (int i = 0; i < lines; ++i) {
        const int words = (i * 37) % 41;
        for (int w = 0; w < words; ++w)
            out += QStringLiteral("word%1 ").arg(w * i % 1000);
        out += QLatin1Char('\n');
    }
    return out;
}

void tst_WrapLayout::setUp(QPlainTextEdit &edit)
{
    edit.setLineWrapMode(QPlainTextEdit::WidgetWidth);
    edit.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    edit.setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit.resize(420, 300);
}

void tst_WrapLayout::init()
{
    m_qt = std::make_unique<QPlainTextEdit>();
    m_ours = std::make_unique<QPlainTextEdit>();
    auto *doc = new QTextDocument(m_ours.get());
    m_layout = new WrapLayout(doc);
    doc->setDocumentLayout(m_layout);
    m_ours->setDocument(doc);
    m_layout->setViewport(m_ours->viewport());
    setUp(*m_qt);
    setUp(*m_ours);
    m_qt->show();
    m_ours->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_qt.get()));
    QVERIFY(QTest::qWaitForWindowExposed(m_ours.get()));
}

void tst_WrapLayout::cleanup()
{
    m_ours.reset();
    m_qt.reset();
}

void tst_WrapLayout::compareGeometry()
{
    const QTextDocument *qtDoc = m_qt->document();
    const QTextDocument *ourDoc = m_ours->document();
    QCOMPARE(ourDoc->toPlainText(), qtDoc->toPlainText());
    // The blocks both have laid out (the ones on screen, and around them).
    QTextBlock a = qtDoc->firstBlock();
    QTextBlock b = ourDoc->firstBlock();
    int compared = 0;
    for (int i = 0; i < 60 && a.isValid(); ++i, a = a.next(), b = b.next()) {
        QCOMPARE(m_ours->document()->documentLayout()->blockBoundingRect(b),
                 m_qt->document()->documentLayout()->blockBoundingRect(a));
        QCOMPARE(b.layout()->lineCount(), a.layout()->lineCount());
        ++compared;
    }
    QVERIFY(compared > 0);
    QTRY_COMPARE(m_ours->verticalScrollBar()->maximum(), m_qt->verticalScrollBar()->maximum());
}

void tst_WrapLayout::edit(const std::function<void(QTextCursor &)> &change)
{
    for (QPlainTextEdit *editor : {m_qt.get(), m_ours.get()}) {
        QTextCursor cursor(editor->document());
        change(cursor);
    }
}

void tst_WrapLayout::sameGeometryAsQt()
{
    m_qt->setPlainText(text(400));
    m_ours->setPlainText(text(400));
    compareGeometry();
    // A line made to wrap, then to fit again, and lines added and removed.
    edit([](QTextCursor &c) {
        c.setPosition(5);
        c.insertText(QString(300, QLatin1Char('x')) + QStringLiteral("\nnew line\n"));
    });
    compareGeometry();
    edit([](QTextCursor &c) {
        c.setPosition(5);
        c.setPosition(5 + 300 + 10, QTextCursor::KeepAnchor);
        c.removeSelectedText();
    });
    compareGeometry();
    // A new width lays everything out again.
    m_qt->resize(300, 260);
    m_ours->resize(300, 260);
    QTRY_COMPARE(m_ours->viewport()->width(), m_qt->viewport()->width());
    compareGeometry();
}

void tst_WrapLayout::narrowingTheWidestLineLaysOutOnlyWhatIsShown()
{
    constexpr int lines = 20000;
    m_ours->setPlainText(text(lines));
    m_qt->setPlainText(text(lines));
    QCoreApplication::processEvents();
    const qint64 before = m_layout->laidOutBlocks();
    // Every line of the first screen narrowed, over and over, as the line
    // typed into wraps and the cut at the cap moves.
    for (int round = 0; round < 20; ++round) {
        edit([round](QTextCursor &c) {
            QTextBlock block = c.document()->findBlockByNumber(round % 10);
            c.setPosition(block.position());
            c.setPosition(block.position() + qMin(block.length() - 1, 8), QTextCursor::KeepAnchor);
            c.insertText(QStringLiteral("ab\n"));
        });
        QCoreApplication::processEvents();
    }
    compareGeometry();
    QVERIFY2(m_layout->laidOutBlocks() - before < lines / 20,
             qPrintable(QString::number(m_layout->laidOutBlocks() - before)));
}

QTEST_MAIN(tst_WrapLayout)
#include "tst_wraplayout.moc"
