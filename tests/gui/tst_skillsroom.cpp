// The Skills room in the window: opened by its key, the list and its exact
// text under OpenClaw and Hermes (the bytes soulc compose --part skills
// prints), a runtime without a skills list said, and New, Rename and Remove
// with their questions and keys.

#include "compose/contract.h"
#include "guitestfiles.h"
#include "persona/personamodel.h"
#include "quietprompter.h"
#include "skills/skillsroom.h"
#include "skillssession.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "testwindow.h"
#include "window/mainwindow.h"
#include "window/personaeditor.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextCursor>
#include <QTreeWidget>

using namespace soul;
using namespace soul::guitest;

namespace {

QByteArray soulcSkills(const QString &runtime, const QString &dir)
{
    QProcess soulc;
    soulc.start(QStringLiteral(SOUL_BIN_DIR "/soulc"),
                {QStringLiteral("compose"),
                 QStringLiteral("--runtime"),
                 runtime,
                 QStringLiteral("--part"),
                 QStringLiteral("skills"),
                 dir});
    if (!soulc.waitForFinished(60000) || soulc.exitCode() != 0)
        return "<soulc failed: " + soulc.readAllStandardError() + '>';
    return soulc.readAllStandardOutput();
}

} // namespace

class tst_SkillsRoom : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_fixture.init();
        // OpenClaw's state and config, and the trash, are the test's own.
        for (const char *folder : {"home", "state", "data"})
            QVERIFY(QDir().mkpath(m_fixture.filePath(QLatin1String(folder))));
        qputenv("HOME", m_fixture.filePath(QStringLiteral("home")).toUtf8());
        qputenv("OPENCLAW_STATE_DIR", m_fixture.filePath(QStringLiteral("state")).toUtf8());
        qputenv("XDG_DATA_HOME", m_fixture.filePath(QStringLiteral("data")).toUtf8());
        qunsetenv("OPENCLAW_CONFIG_PATH");
        qunsetenv("OPENCLAW_BUNDLED_SKILLS_DIR");
        QVERIFY(writeSkill("tidy", "---\nname: tidy\ndescription: Tidy <the> desk & files\n---\n"));
        QVERIFY(writeSkill("brew",
                           "---\nname: brew\ndescription: Brew tea.\nmetadata: {\"openclaw\": "
                           "{\"requires\": {\"bins\": [\"no-such-program-here\"]}}}\n---\n"));
    }

    void cleanup() { m_fixture.cleanup(); }

    void showsTheListExactly()
    {
        m_fixture.open(m_fixture.dir());
        auto *dock = m_fixture.window()->findChild<QDockWidget *>(QStringLiteral("skillsDock"));
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());
        // A hidden room reads nothing.
        QVERIFY(!room()->skills());
        QTest::keyClick(m_fixture.window(), Qt::Key_K, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(dock->isVisible());
        QTRY_VERIFY(room()->skills() && !room()->skills()->busy());
        auto *summary = dock->findChild<QLabel *>(QStringLiteral("skillsSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QLatin1String("puts no skills list")),
                 qPrintable(summary->text()));

        for (const char *id : {"openclaw", "hermes"}) {
            const quint64 before = room()->skills()->generation();
            QVERIFY(m_fixture.window()->chooseRuntime(QLatin1String(id)));
            QTRY_VERIFY(room()->skills()->generation() > before && !room()->skills()->busy());
            QCOMPARE(room()->shownText().toUtf8(), soulcSkills(QLatin1String(id), m_fixture.dir()));
            QVERIFY(!room()->shownText().isEmpty());
        }

        // OpenClaw: tidy listed, brew left out (its program is missing) and
        // greyed, with why.
        QVERIFY(m_fixture.window()->chooseRuntime(QStringLiteral("openclaw")));
        QTRY_COMPARE(room()->skillTree()->topLevelItemCount(), 2);
        QTRY_VERIFY(!room()->skills()->busy());
        const auto row = [this](const char *name) -> QTreeWidgetItem * {
            const auto found = room()->skillTree()->findItems(QLatin1String(name), Qt::MatchExactly);
            return found.isEmpty() ? nullptr : found.first();
        };
        QVERIFY(row("tidy") && row("brew"));
        QCOMPARE(row("tidy")->text(2), QStringLiteral("listed"));
        QVERIFY2(row("brew")->text(2).startsWith(QLatin1String("left out:")),
                 qPrintable(row("brew")->text(2)));
        QVERIFY(row("brew")->foreground(0).color() != row("tidy")->foreground(0).color());

        // Its pane says so too.
        room()->skillTree()->setCurrentItem(row("brew"));
        room()->openSkill();
        const int doc = m_fixture.window()->currentSession()->model()->documentIndex(
            QStringLiteral("skills/brew/SKILL.md"));
        QVERIFY(doc >= SlotCount);
        SlotPane *pane = m_fixture.window()->currentEditor()->findChild<PaneStack *>()->pane(doc);
        QVERIFY(pane);
        QTRY_VERIFY(
            pane->lintLabel()->text().contains(QLatin1String("Not in the prompt: left out")));
    }

    // Typing in a SKILL.md opened from the room: the list follows the
    // unsaved text, and is what soulc prints once it is saved.
    void typingInASkill()
    {
        m_fixture.open(m_fixture.dir());
        QVERIFY(m_fixture.window()->chooseRuntime(QStringLiteral("openclaw")));
        QTest::keyClick(m_fixture.window(), Qt::Key_K, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(room()->skills() && room()->skills()->available() && !room()->skills()->busy());
        QTRY_VERIFY(
            !room()->skillTree()->findItems(QStringLiteral("tidy"), Qt::MatchExactly).isEmpty());
        room()->skillTree()->setCurrentItem(
            room()->skillTree()->findItems(QStringLiteral("tidy"), Qt::MatchExactly).first());
        room()->openSkill();
        PersonaEditor *editor = m_fixture.window()->currentEditor();
        const int doc = m_fixture.window()->currentSession()->model()->documentIndex(
            QStringLiteral("skills/tidy/SKILL.md"));
        QVERIFY(doc >= SlotCount);
        SlotPane *pane = editor->findChild<PaneStack *>()->pane(doc);
        QVERIFY(pane && pane->isVisible());
        QTRY_VERIFY(pane->editor()->hasFocus());
        // Into the description: after "Tidy ".
        QTextCursor cursor = pane->editor()->textCursor();
        cursor.setPosition(pane->editor()->toPlainText().indexOf(QLatin1String("Tidy ")) + 5);
        pane->editor()->setTextCursor(cursor);
        const QString before = room()->shownText();
        QTest::keyClicks(pane->editor(), QStringLiteral("up & sort "));
        QTRY_VERIFY(room()->shownText().contains(QLatin1String("Tidy up &amp; sort &lt;the&gt;")));
        QTRY_VERIFY(!room()->skills()->busy());
        const QString unsaved = room()->shownText();
        QVERIFY(unsaved != before);
        // Nothing written yet.
        QVERIFY(!readAll(skillPath("tidy")).contains("sort"));
        QCOMPARE(soulcSkills(QStringLiteral("openclaw"), m_fixture.dir()), before.toUtf8());
        // Saved: soulc prints what the room showed for the unsaved text.
        QTest::keyClick(pane->editor(), Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY(readAll(skillPath("tidy")).contains("sort"));
        QCOMPARE(soulcSkills(QStringLiteral("openclaw"), m_fixture.dir()), unsaved.toUtf8());
        QTRY_COMPARE(room()->shownText(), unsaved);
    }

    void newRenameRemove()
    {
        m_fixture.open(m_fixture.dir());
        QVERIFY(m_fixture.window()->chooseRuntime(QStringLiteral("openclaw")));
        QTest::keyClick(m_fixture.window(), Qt::Key_K, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(room()->skills() && room()->skills()->available() && !room()->skills()->busy());
        QString answer = QStringLiteral("kettle");
        room()->setNameQuestion([&](const QString &, const QString &) { return answer; });
        bool yes = false;
        QStringList asked;
        room()->setConfirmation([&](const QString &question) {
            asked << question;
            return yes;
        });
        QSignalSpy opened(room(), &SkillsRoom::openRequested);
        auto *problem = room()->dock()->findChild<QLabel *>(QStringLiteral("skillsProblem"));
        QVERIFY(problem);
        const auto select = [this](const char *name) {
            QTRY_VERIFY(
                !room()->skillTree()->findItems(QLatin1String(name), Qt::MatchExactly).isEmpty());
            room()->skillTree()->setCurrentItem(
                room()->skillTree()->findItems(QLatin1String(name), Qt::MatchExactly).first());
            room()->skillTree()->setFocus();
        };

        // Insert: a new skill with a frontmatter naming it, opened for editing.
        room()->skillTree()->setFocus();
        QTest::keyClick(room()->skillTree(), Qt::Key_Insert);
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.first().first().toString(), skillPath("kettle"));
        QVERIFY(readAll(skillPath("kettle")).startsWith("---\nname: kettle\ndescription: "));
        // Never over a skill that is there: said, nothing written.
        // The new skill's pane took the keyboard; back to the list.
        QTRY_VERIFY(!room()->skillTree()->hasFocus());
        room()->skillTree()->setFocus();
        answer = QStringLiteral("tidy");
        QTest::keyClick(room()->skillTree(), Qt::Key_Insert);
        QCOMPARE(opened.size(), 1);
        QVERIFY2(problem->text().contains(QLatin1String("is there already")),
                 qPrintable(problem->text()));
        QCOMPARE(readAll(skillPath("tidy")),
                 QByteArray("---\nname: tidy\ndescription: Tidy <the> desk & files\n---\n"));

        // F2: the folder and the frontmatter's name.
        select("kettle");
        answer = QStringLiteral("steep");
        QTest::keyClick(room()->skillTree(), Qt::Key_F2);
        QVERIFY(!QFileInfo::exists(skillPath("kettle")));
        QVERIFY(readAll(skillPath("steep")).startsWith("---\nname: steep\n"));

        // Delete asks first; no keeps it.
        select("steep");
        QTest::keyClick(room()->skillTree(), Qt::Key_Delete);
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked.first().contains(QLatin1String("skills/steep")));
        QVERIFY(QFileInfo::exists(skillPath("steep")));
        yes = true;
        QTest::keyClick(room()->skillTree(), Qt::Key_Delete);
        QVERIFY(!QFileInfo::exists(skillPath("steep")));
        QTRY_VERIFY(
            room()->skillTree()->findItems(QStringLiteral("steep"), Qt::MatchExactly).isEmpty());
    }

private:
    QString skillPath(const char *name) const
    {
        return m_fixture.filePath(QStringLiteral("skills/%1/SKILL.md").arg(QLatin1String(name)));
    }
    bool writeSkill(const char *name, const QByteArray &bytes)
    {
        const QString path = skillPath(name);
        return QDir().mkpath(QFileInfo(path).absolutePath()) && writeInPlace(path, bytes);
    }
    SkillsRoom *room() const { return m_fixture.window()->findChild<SkillsRoom *>(); }
    TestWindow<> m_fixture;
};

QTEST_MAIN(tst_SkillsRoom)
#include "tst_skillsroom.moc"
