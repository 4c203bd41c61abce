#include "persona/personamodel.h"
#include "registry/runtimeprofile.h"
#ifdef SOULSTUDIO_TEST_CONTROL
#include "testcontrol.h"
#endif
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTextStream>
#include <QTimer>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    // Also name where settings and crash recovery copies live:
    // ~/.config/SoulStudio/soulstudio.conf, ~/.local/share/SoulStudio/soulstudio/recovery.
    QApplication::setApplicationName(QStringLiteral("soulstudio"));
    QApplication::setOrganizationName(QStringLiteral("SoulStudio"));
    QApplication::setApplicationVersion(QStringLiteral(SOULSTUDIO_VERSION));
    QApplication::setApplicationDisplayName(QStringLiteral("Soul Studio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Edit an agent persona folder with a byte-exact preview of its soul."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("DIR"),
                                 QApplication::translate("main", "The persona folder to open."));
    const QCommandLineOption
        quitAfterLoad(QStringLiteral("quit-after-load"),
                      QApplication::translate("main",
                                              "Print a line once the window is ready, then quit "
                                              "(for smoke tests)."));
    parser.addOption(quitAfterLoad);
    const QCommandLineOption runtime(
        QStringLiteral("runtime"),
        QApplication::translate("main",
                                "Preview what runtime NAME injects (%1); remembered for DIR.")
            .arg(soul::runtimeProfileNames()),
        QStringLiteral("NAME"));
    parser.addOption(runtime);
    const QCommandLineOption agents(
        QStringLiteral("agents"),
        QApplication::translate("main",
                                "Open every agent of OpenClaw's config (OPENCLAW_CONFIG_PATH, "
                                "else the state dir's openclaw.json), or of the config FILE "
                                "given with --config."));
    parser.addOption(agents);
    const QCommandLineOption config(QStringLiteral("config"),
                                    QApplication::translate("main",
                                                            "The OpenClaw config --agents reads."),
                                    QStringLiteral("FILE"));
    parser.addOption(config);
    const QCommandLineOption
        personas(QStringLiteral("personas"),
                 QApplication::translate("main", "Open every persona folder under PARENT."),
                 QStringLiteral("PARENT"));
    parser.addOption(personas);
    const QCommandLineOption hermesHome(
        QStringLiteral("hermes-home"),
        QApplication::translate("main",
                                "Open Hermes's home HOME with the project folder given with "
                                "--project (else the current directory): the files Hermes "
                                "reads, previewed as Hermes injects them."),
        QStringLiteral("HOME"));
    parser.addOption(hermesHome);
    const QCommandLineOption project(QStringLiteral("project"),
                                     QApplication::translate("main",
                                                             "The project folder Hermes runs "
                                                             "in, for --hermes-home."),
                                     QStringLiteral("DIR"));
    parser.addOption(project);
#ifdef SOULSTUDIO_TEST_CONTROL
    // For tests of the real process only, in the build tree's binary; see
    // testcontrol.h. The installed program has no such option.
    QCommandLineOption testStdin(QStringLiteral("test-stdin"),
                                 QStringLiteral("Read test commands from standard input."));
    testStdin.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(testStdin);
#endif
    parser.process(app);
    if (parser.isSet(runtime) && !soul::runtimeProfileNamed(parser.value(runtime))) {
        QTextStream(stderr) << "soulstudio: unknown runtime '" << parser.value(runtime) << "' ("
                            << soul::runtimeProfileNames() << ")." << Qt::endl;
        return 2;
    }

    if (parser.isSet(project) && !parser.isSet(hermesHome)) {
        QTextStream(stderr) << "soulstudio: --project is the folder Hermes runs in; give "
                               "Hermes's home with --hermes-home too."
                            << Qt::endl;
        return 2;
    }

    soul::MainWindow window;
    window.show();
    const QStringList args = parser.positionalArguments();
    if (parser.isSet(agents))
        window.openOpenClawAgents(parser.value(config));
    else if (parser.isSet(personas))
        window.openPersonaFolder(parser.value(personas));
    else if (parser.isSet(hermesHome))
        window.openHermesHome(parser.value(hermesHome),
                              parser.isSet(project) ? parser.value(project) : QDir::currentPath());
    else
        window.start(args.isEmpty() ? QString() : args.first());
    if (parser.isSet(runtime))
        window.chooseRuntime(parser.value(runtime));
#ifdef SOULSTUDIO_TEST_CONTROL
    if (parser.isSet(testStdin))
        new soul::TestControl(&window); // owned by the window
#endif

    if (parser.isSet(quitAfterLoad)) {
        // After the first paint, so the line means "the window is up".
        QTimer::singleShot(0, &window, [&window] {
            QTextStream out(stdout);
            const soul::PersonaModel *model = window.model();
            out << "soulstudio: ready " << (model->isOpen() ? model->directory() : QString())
                << " soul-bytes " << model->soulSize(soul::SoulView::OnDisk) << Qt::endl;
            QApplication::exit(0);
        });
    }
    return QApplication::exec();
}
