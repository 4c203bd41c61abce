#include "personamodel.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
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
    parser.process(app);

    soul::MainWindow window;
    window.show();
    const QStringList args = parser.positionalArguments();
    window.start(args.isEmpty() ? QString() : args.first());

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
