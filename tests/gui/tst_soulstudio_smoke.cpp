#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

// Starts the real soulstudio binary on a small persona and waits for the
// line it prints once its window is ready.
class tst_SoulStudioSmoke : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsAndLoads();
    void opensAHermesHome();

private:
    // soulstudio --quit-after-load ARGS: what it printed; empty on failure.
    static QByteArray runUntilLoaded(const QStringList &args);
    static bool write(const QString &path, const QByteArray &bytes);
};

bool tst_SoulStudioSmoke::write(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray tst_SoulStudioSmoke::runUntilLoaded(const QStringList &args)
{
    QTemporaryDir home;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // Keep the binary's settings away from the user's.
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(SOUL_BIN_DIR "/soulstudio"),
                  QStringList{QStringLiteral("--quit-after-load")} + args);
    if (!process.waitForStarted() || !process.waitForFinished(60000) || process.exitCode() != 0)
        return {};
    return process.readAllStandardOutput();
}

void tst_SoulStudioSmoke::startsAndLoads()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(write(dir.filePath(QStringLiteral("SOUL.md")), "You are Kip, a terse assistant."));
    const QByteArray out = runUntilLoaded({dir.path()});
    QVERIFY2(out.contains("soulstudio: ready " + QFile::encodeName(dir.path())), out.constData());
    // "## SOUL.md\n\n" (12) + 31 bytes
    QVERIFY2(out.contains("soul-bytes 43"), out.constData());
}

void tst_SoulStudioSmoke::opensAHermesHome()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString home = dir.filePath(QStringLiteral("hermes"));
    const QString project = dir.filePath(QStringLiteral("project"));
    QVERIFY(QDir().mkpath(home + QStringLiteral("/memories")));
    QVERIFY(QDir().mkpath(project));
    QVERIFY(write(home + QStringLiteral("/SOUL.md"), "You are Kip, a terse assistant."));
    // A flat MEMORY.md beside SOUL.md is not Hermes's: memories/MEMORY.md is.
    QVERIFY(write(home + QStringLiteral("/MEMORY.md"), "not read"));
    QVERIFY(write(home + QStringLiteral("/memories/MEMORY.md"), "likes tea"));
    const QByteArray out = runUntilLoaded(
        {QStringLiteral("--hermes-home"), home, QStringLiteral("--project"), project});
    QVERIFY2(out.contains("soulstudio: ready " + QFile::encodeName(home)), out.constData());
    // "## SOUL.md\n\n" (12) + 31 bytes, "\n\n", "## MEMORY.md\n\n" (14) + 9 bytes
    QVERIFY2(out.contains("soul-bytes 68"), out.constData());
}

QTEST_GUILESS_MAIN(tst_SoulStudioSmoke)
#include "tst_soulstudio_smoke.moc"
