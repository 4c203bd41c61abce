#include "composer.h"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char *argv[])
{
    if (argc != 3)
        return 2;
    const soul::Composition c = soul::composeDirectory(QString::fromLocal8Bit(argv[2]));
    std::fwrite(c.soul.constData(), 1, static_cast<size_t>(c.soul.size()), stdout);
    return 0;
}
