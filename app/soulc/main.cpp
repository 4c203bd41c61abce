#include "commandline.h"
#include "commands.h"

#include <QFile>
#include <QStringList>

int main(int argc, char *argv[])
{
    // No QCoreApplication: nothing here needs an event loop, plugins or
    // translations, and `soulc compose` is meant to start about as fast as cat.
    QStringList arguments;
    arguments.reserve(argc);
    for (int i = 1; i < argc; ++i)
        arguments.append(QFile::decodeName(argv[i]));
    return soul::runInvocation(soul::parseCommandLine(arguments));
}
