#include "sizemeter.h"

#include "counttext.h"

#include <QPainter>
#include <QPainterPath>

namespace soul {

namespace {

constexpr int BarWidth = 120;

QColor levelColor(SizeMeter::Level level, const QPalette &palette)
{
    switch (level) {
    case SizeMeter::Level::Warning:
        return QColor(0xd9, 0x8c, 0x00);
    case SizeMeter::Level::Over:
        return QColor(0xd0, 0x30, 0x30);
    case SizeMeter::Level::Normal:
    case SizeMeter::Level::Absent:
        break;
    }
    return palette.color(QPalette::Highlight);
}

} // namespace

SizeMeter::SizeMeter(const ComposeRule &rule, QWidget *parent)
    : QWidget(parent)
    , m_capBytes(rule.capBytes)
    , m_nearCapBytes(rule.nearCapBytes())
    , m_capText(rule.capText())
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setAccessibleName(tr("Size against the %1 cap").arg(m_capText));
}

void SizeMeter::setBytes(qint64 bytes)
{
    if (bytes == m_bytes)
        return;
    const QSize before = sizeHint();
    m_bytes = bytes;
    setAccessibleDescription(text());
    setToolTip(text());
    // Most keys change the figure but not its width: the pane's layout, and
    // every wrapped label in it, is measured again only when it does.
    if (sizeHint() != before)
        updateGeometry();
    update();
}

SizeMeter::Level SizeMeter::level() const
{
    if (m_bytes < 0)
        return Level::Absent;
    if (m_bytes > m_capBytes)
        return Level::Over;
    if (m_bytes >= m_nearCapBytes)
        return Level::Warning;
    return Level::Normal;
}

QString SizeMeter::text() const
{
    switch (level()) {
    case Level::Absent:
        return tr("no file");
    case Level::Over:
        return tr("truncated: the agent gets the first %1 and loses %2 bytes")
            .arg(m_capText, formatCount(m_bytes - m_capBytes));
    case Level::Warning:
        return tr("%1 of %2 bytes (%3 %), near the cap")
            .arg(formatCount(m_bytes), formatCount(m_capBytes))
            .arg(double(m_bytes) * 100.0 / double(m_capBytes), 0, 'f', 1);
    case Level::Normal:
        break;
    }
    return tr("%1 of %2 bytes (%3 %)")
        .arg(formatCount(m_bytes), formatCount(m_capBytes))
        .arg(double(m_bytes) * 100.0 / double(m_capBytes), 0, 'f', 1);
}

QSize SizeMeter::sizeHint() const
{
    const QFontMetrics fm(font());
    return {BarWidth + 8 + fm.horizontalAdvance(text()), qMax(fm.height(), 12) + 4};
}

QSize SizeMeter::minimumSizeHint() const
{
    return sizeHint();
}

void SizeMeter::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    const int barHeight = qMin(10, height() - 2);
    const QRectF bar(0.5, (height() - barHeight) / 2.0 + 0.5, BarWidth - 1, barHeight - 1);

    painter.setPen(pal.color(QPalette::Mid));
    painter.setBrush(pal.color(QPalette::Base));
    painter.drawRoundedRect(bar, 3, 3);
    if (m_bytes > 0) {
        const double share = qMin(1.0, double(m_bytes) / double(m_capBytes));
        QRectF fill = bar.adjusted(1, 1, -1, -1);
        fill.setWidth(qMax(2.0, fill.width() * share));
        painter.setPen(Qt::NoPen);
        painter.setBrush(levelColor(level(), pal));
        painter.drawRoundedRect(fill, 2, 2);
    }
    // The near mark, so the warning zone is visible before it is reached.
    painter.setPen(pal.color(QPalette::Mid));
    const double mark = bar.left() + bar.width() * double(m_nearCapBytes) / double(m_capBytes);
    painter.drawLine(QPointF(mark, bar.top()), QPointF(mark, bar.bottom()));

    const Level lvl = level();
    painter.setPen(lvl == Level::Over || lvl == Level::Warning ? levelColor(lvl, pal)
                                                               : pal.color(QPalette::WindowText));
    const QRect textRect(BarWidth + 8, 0, width() - BarWidth - 8, height());
    painter.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, text());
}

} // namespace soul
