#include "composerule.h"

#include <QLocale>

#include <iterator>

namespace soul {

const ComposeRule &ComposeRule::toolnexus()
{
    static const ComposeRule rule = [] {
        ComposeRule r;
        r.order = {0, 1, 2, 3, 4, 5, 6};
        r.capBytes = 2097152;
        r.notice = QByteArray(TruncationNotice, TruncationNoticeBytes);
        r.sectionPrefix = QByteArray(SectionPrefix);
        r.sectionHeadEnd = QByteArray(SectionHeadEnd);
        r.sectionJoin = QByteArray(SectionJoin);
        r.nearPercent = NearPercent;
        return r;
    }();
    return rule;
}

QString ComposeRule::capText() const
{
    return formatBytes(capBytes);
}

QStringList ComposeRule::fileNames() const
{
    QStringList names;
    names.reserve(order.size());
    for (const int slot : order)
        names.append(slotName(slot));
    return names;
}

QByteArray ComposeRule::sectionHead(int slot) const
{
    return sectionPrefix + slotName(slot).toLatin1() + sectionHeadEnd;
}

bool ComposeRule::operator==(const ComposeRule &other) const
{
    return order == other.order && capBytes == other.capBytes && notice == other.notice
           && sectionPrefix == other.sectionPrefix && sectionHeadEnd == other.sectionHeadEnd
           && sectionJoin == other.sectionJoin && nearPercent == other.nearPercent;
}

QString formatBytes(qint64 bytes)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    static constexpr const char *units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes > 0) {
        qint64 n = bytes;
        int unit = -1;
        while (unit + 1 < int(std::size(units)) && n % 1024 == 0) {
            n /= 1024;
            ++unit;
        }
        if (unit >= 0)
            return english.toString(n) + QLatin1Char(' ') + QLatin1String(units[unit]);
    }
    return english.toString(bytes) + QLatin1String(bytes == 1 ? " byte" : " bytes");
}

} // namespace soul
