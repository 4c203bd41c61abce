#include "commandline.h"
#include "commands.h"
#include "output.h"

#include <QByteArrayView>
#include <QFile>
#include <QStringList>

namespace {

// `bytes` with every byte outside printable ASCII written as \xNN.
QString escapedBytes(QByteArrayView bytes)
{
    QString out;
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7f)
            out += QLatin1Char(c);
        else
            out += QStringLiteral("\\x%1").arg(uint(b), 2, 16, QLatin1Char('0'));
    }
    return out;
}

} // namespace

int main(int argc, char *argv[])
{
    // No QCoreApplication: nothing here needs an event loop, plugins or
    // translations, and `soulc compose` is meant to start about as fast as cat.
    QStringList arguments;
    arguments.reserve(argc);
    for (int i = 1; i < argc; ++i) {
        // Qt decodes file names as UTF-8 and turns other bytes into U+FFFD,
        // so such a path would name another file, and "no such file" would
        // blame the wrong thing.
        const QByteArrayView raw(argv[i]);
        if (!raw.isValidUtf8()) {
            return soul::fail(
                QStringLiteral("argument %1, '%2', is not valid UTF-8: soulc takes file names "
                               "and text in UTF-8 only. Rename the file or folder to a UTF-8 "
                               "name (convmv can), then try again.")
                    .arg(i)
                    .arg(escapedBytes(raw)));
        }
        arguments.append(QFile::decodeName(argv[i]));
    }
    return soul::runInvocation(soul::parseCommandLine(arguments));
}
