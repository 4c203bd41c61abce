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
};

void tst_SoulStudioSmoke::startsAndLoads()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    {
        QFile soul(dir.filePath(QStringLiteral("SOUL.md")));
        QVERIFY(soul.open(QIODevice::WriteOnly));
        soul.write("You are Kip, a terse assistant.");
    }
    QTemporaryDir home;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // Keep the binary's settings away from the user's.
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(SOUL_BIN_DIR "/soulstudio"),
                  {QStringLiteral("--quit-after-load"), dir.path()});
    QVERIFY2(process.waitForStarted(), qPrintable(process.errorString()));
    QVERIFY(process.waitForFinished(60000));
    const QByteArray out = process.readAllStandardOutput();
    QCOMPARE(process.exitCode(), 0);
    QVERIFY2(out.contains("soulstudio: ready " + QFile::encodeName(dir.path())), out.constData());
    // "## SOUL.md\n\n" (12) + 31 bytes
    QVERIFY2(out.contains("soul-bytes 43"), out.constData());
}

QTEST_GUILESS_MAIN(tst_SoulStudioSmoke)
#include "tst_soulstudio_smoke.moc"
