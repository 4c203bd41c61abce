#include "counttext.h"

#include <QLocale>

namespace soul {

QString formatCount(qint64 n)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(n);
}

QString plural(qint64 n, const char *one, const char *many)
{
    return formatCount(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

} // namespace soul
