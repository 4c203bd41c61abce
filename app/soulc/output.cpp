#include "output.h"

#include "commands.h"
#include "compose/displaytext.h"
#include "disk/slotreader.h"

#include <cerrno>
#include <unistd.h>

namespace soul {

bool writeAll(int fd, QByteArrayView bytes)
{
    const char *data = bytes.data();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, static_cast<size_t>(left));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        left -= n;
    }
    return true;
}

int fail(const QString &message)
{
    QByteArray line = QByteArrayLiteral("soulc: ")
                      + escapedControls(message, LineBreaks::Keep).toUtf8();
    line.append('\n');
    writeAll(STDERR_FILENO, line);
    return ExitFailure;
}

void warnIfAny(const QString &warning)
{
    if (warning.isEmpty())
        return;
    QByteArray line = QByteArrayLiteral("soulc: warning: ")
                      + escapedControls(warning, LineBreaks::Keep).toUtf8();
    line.append('\n');
    writeAll(STDERR_FILENO, line);
}

int standardOutputFailed(int error)
{
    return fail(QStringLiteral("standard output: cannot write (%1). Check that the file or pipe "
                               "it goes to can take the output, then run soulc again.")
                    .arg(systemErrorText(error)));
}

int writeStandardOutput(QByteArrayView bytes)
{
    return writeAll(STDOUT_FILENO, bytes) ? ExitSuccess : standardOutputFailed(errno);
}

} // namespace soul
