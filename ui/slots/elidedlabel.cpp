#include "elidedlabel.h"

#include <QPainter>

#include <cmath>

namespace soul {

ElidedLabel::ElidedLabel(const QString &text, QWidget *parent)
    : QFrame(parent)
    , m_text(text)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setToolTip(text);
    setAccessibleName(text);
}

QString ElidedLabel::shownText() const
{
    return fontMetrics().elidedText(m_text, Qt::ElideRight, contentsRect().width());
}

QSize ElidedLabel::sizeHint() const
{
    // Rounded up: elidedText() measures in fractions of a pixel, and a width
    // rounded down would cut the last letter.
    const QFontMetricsF fm(font());
    return {int(std::ceil(fm.horizontalAdvance(m_text))) + 1, fontMetrics().height()};
}

QSize ElidedLabel::minimumSizeHint() const
{
    // Room for the ellipsis and a letter; below that nothing is drawn.
    const QFontMetrics fm = fontMetrics();
    return {fm.horizontalAdvance(QStringLiteral("M…")), fm.height()};
}

void ElidedLabel::paintEvent(QPaintEvent *event)
{
    QFrame::paintEvent(event);
    QPainter painter(this);
    painter.setPen(palette().color(foregroundRole()));
    painter.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, shownText());
}

void ElidedLabel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    updateGeometry();
    update();
}

} // namespace soul
