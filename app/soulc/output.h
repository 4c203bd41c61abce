#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

// What every soulc command writes: its output on standard output, and a
// failure or a warning as one "soulc: ..." line on standard error.
namespace soul {

// write() until everything is out; false with errno set on failure. The soul
// goes out in one call unless the kernel takes less (a pipe, a signal).
bool writeAll(int fd, QByteArrayView bytes);

// Says `message` on standard error and returns ExitFailure.
int fail(const QString &message);

// A written file the disk did not confirm: said, but the command did its work.
void warnIfAny(const QString &warning);

// `error` is the errno of the failed write(), taken at once: building the
// message allocates, and anything in between may change errno.
int standardOutputFailed(int error);

// Writes `bytes` to standard output: ExitSuccess, or the failure said.
int writeStandardOutput(QByteArrayView bytes);

} // namespace soul
