// The skills of the shown persona, without a window: the list under each
// runtime, unsaved text, changes on disk, and making, renaming and removing
// a skill.
#include "../core/testfiles.h"
#include "documentcontroller.h"
#include "personasession.h"
#include "registry/runtimeregistry.h"
#include "runtime/runtime.h"
#include "runtimepreview.h"
#include "scriptedprompter.h"
#include "skillssession.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace soul;
using soul::test::ScriptedPrompter;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<absent>");
}

bool write(const QString &path, const QByteArray &bytes)
{
    return QDir().mkpath(QFileInfo(path).absolutePath()) && test::writeFile(path, bytes);
}

// What the runtime lists for `dir` with `buffers`, as soulc reads it.
QString expectedPrompt(const QString &runtimeId,
                       const QString &dir,
                       const QHash<QString, QByteArray> &buffers = {})
{
    SkillsRequest request;
    request.input.dir = dir;
    request.input.buffers = buffers;
    const Result<SkillsList> list = RuntimeRegistry::instance().find(runtimeId)->skills(request);
    return list ? list->prompt : QStringLiteral("<failed: %1>").arg(list.error());
}

} // namespace

class tst_SkillsSession : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    ScriptedPrompter m_prompter;
    QString m_persona;

    QString skillFile(const char *name) const
    {
        return QDir(m_persona).filePath(
            QStringLiteral("skills/%1/SKILL.md").arg(QLatin1String(name)));
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        // The trash, OpenClaw's state and its config are the test's own.
        QVERIFY(QDir().mkpath(m_dir->filePath(QStringLiteral("data"))));
        QVERIFY(QDir().mkpath(m_dir->filePath(QStringLiteral("home"))));
        qputenv("XDG_DATA_HOME", m_dir->filePath(QStringLiteral("data")).toUtf8());
        qputenv("HOME", m_dir->filePath(QStringLiteral("home")).toUtf8());
        qputenv("OPENCLAW_STATE_DIR", m_dir->filePath(QStringLiteral("state")).toUtf8());
        qunsetenv("OPENCLAW_CONFIG_PATH");
        qunsetenv("OPENCLAW_BUNDLED_SKILLS_DIR");
        m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                                 QSettings::IniFormat);
        m_persona = m_dir->filePath(QStringLiteral("work"));
        QVERIFY(write(m_persona + QStringLiteral("/SOUL.md"), "You are calm.\n"));
        QVERIFY(write(skillFile("tidy"),
                      "---\nname: tidy\ndescription: Tidy <the> desk & files\n---\nBody\n"));
        QVERIFY(write(skillFile("notes"), "---\nname: notes\ndescription: Keep notes.\n---\n"));
    }
    void cleanup()
    {
        m_settings.reset();
        m_dir.reset();
    }

    void listFollowsRuntimeBuffersAndDisk()
    {
        PersonaSession session(&m_prompter, m_settings.get());
        SkillsSession skills(&session);
        QSignalSpy changed(&skills, &SkillsSession::changed);
        QVERIFY(session.documents()->open(m_persona));
        // toolnexus lists no skills.
        QTRY_VERIFY(!skills.busy());
        QVERIFY(!skills.available());
        QVERIFY(skills.list().skills.isEmpty());

        for (const char *id : {"openclaw", "hermes"}) {
            const quint64 before = skills.generation();
            QVERIFY(session.runtimePreview()->chooseRuntime(QLatin1String(id)));
            QTRY_VERIFY(skills.generation() > before && !skills.busy());
            QVERIFY2(skills.error().isEmpty(), qPrintable(skills.error()));
            QVERIFY(skills.available());
            QCOMPARE(skills.list().prompt, expectedPrompt(QLatin1String(id), m_persona));
            QVERIFY(skills.list().prompt.contains(QLatin1String("tidy")));
            QVERIFY(skills.promptTokens() > 0);
        }

        // Unsaved text stands for the file.
        QVERIFY(session.runtimePreview()->chooseRuntime(QStringLiteral("openclaw")));
        QHash<QString, QByteArray> buffers;
        buffers.insert(skillFile("tidy"), "---\nname: tidy\ndescription: Unsaved words\n---\n");
        quint64 before = skills.generation();
        skills.setBuffers(buffers);
        QTRY_VERIFY(skills.generation() > before && !skills.busy());
        QCOMPARE(skills.list().prompt,
                 expectedPrompt(QStringLiteral("openclaw"), m_persona, buffers));
        QVERIFY(skills.list().prompt.contains(QLatin1String("Unsaved words")));
        QCOMPARE(readAll(skillFile("tidy")).contains("Unsaved"), false);

        // A file written from outside is read again.
        skills.setBuffers({});
        QTRY_VERIFY(!skills.busy());
        QVERIFY(
            write(skillFile("notes"), "---\nname: notes\ndescription: Written elsewhere.\n---\n"));
        QTRY_VERIFY(skills.list().prompt.contains(QLatin1String("Written elsewhere.")));
        QVERIFY(changed.count() >= 3);
    }

    void createRenameRemove()
    {
        PersonaSession session(&m_prompter, m_settings.get());
        SkillsSession skills(&session);
        QVERIFY(session.documents()->open(m_persona));
        QVERIFY(session.runtimePreview()->chooseRuntime(QStringLiteral("openclaw")));
        QTRY_VERIFY(skills.available() && !skills.busy());

        const Result<QString> made = skills.createSkill(QStringLiteral("brew"),
                                                        QStringLiteral("Brew \"tea\": slowly"));
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QCOMPARE(*made, skillFile("brew"));
        QCOMPARE(readAll(*made),
                 QByteArray("---\nname: brew\ndescription: \"Brew \\\"tea\\\": slowly\"\n---\n\n# "
                            "brew\n\n"));
        QTRY_VERIFY(skills.list().prompt.contains(QLatin1String("Brew &quot;tea&quot;: slowly")));
        // Never over a skill that is there.
        const Result<QString> again = skills.createSkill(QStringLiteral("tidy"), QString());
        QVERIFY(!again.ok());
        QVERIFY2(again.error().contains(QLatin1String("is there already")),
                 qPrintable(again.error()));
        QVERIFY(readAll(skillFile("tidy")).contains("Tidy <the> desk"));
        QVERIFY(!skills.createSkill(QStringLiteral("../out"), QString()).ok());

        // Renaming moves the folder, and the frontmatter's name with it.
        const Result<QString> renamed = skills.renameSkill(skillFile("brew"),
                                                           QStringLiteral("steep"));
        QVERIFY2(renamed.ok(), qPrintable(renamed.error()));
        QCOMPARE(*renamed, skillFile("steep"));
        QVERIFY(!QFileInfo::exists(skillFile("brew")));
        QVERIFY(readAll(skillFile("steep")).startsWith("---\nname: steep\n"));
        QVERIFY(!skills.renameSkill(skillFile("steep"), QStringLiteral("tidy")).ok());

        // Unsaved text keeps a skill where it is.
        QHash<QString, QByteArray> buffers;
        buffers.insert(skillFile("steep"), "typed");
        skills.setBuffers(buffers);
        Result<QString> removed = skills.removeSkill(skillFile("steep"));
        QVERIFY(!removed.ok());
        QVERIFY(removed.error().contains(QLatin1String("unsaved text")));
        QVERIFY(QFileInfo::exists(skillFile("steep")));
        skills.setBuffers({});
        removed = skills.removeSkill(skillFile("steep"));
        QVERIFY2(removed.ok(), qPrintable(removed.error()));
        QVERIFY(!QFileInfo::exists(skillFile("steep")));
        // In the trash, not gone.
        QVERIFY2(readAll(QDir(*removed).filePath(QStringLiteral("SKILL.md")))
                     .startsWith("---\nname: steep\n"),
                 qPrintable(*removed));
        QTRY_VERIFY(!skills.list().prompt.contains(QLatin1String("steep")));
    }
};

QTEST_GUILESS_MAIN(tst_SkillsSession)
#include "tst_skillssession.moc"
