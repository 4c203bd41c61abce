#include "history/historytimeline.h"

#include "compose/composerule.h"
#include "counttext.h"
#include "history/historylistmodel.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace soul {

namespace {

constexpr int LeftMargin = 64;
constexpr int RightMargin = 8;
constexpr int BottomMargin = 20;
constexpr int Swatch = 10;
constexpr int SwatchGap = 3;
constexpr int ItemGap = 10;

// A round step for about `ticks` lines up to `top`.
qint64 tickStep(qint64 top, int ticks)
{
    const double raw = double(std::max<qint64>(top, 1)) / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (factor * magnitude >= raw)
            return std::max<qint64>(1, qint64(factor * magnitude));
    }
    return std::max<qint64>(1, qint64(10 * magnitude));
}

// With more commits than columns, the commit column `c` of `columns` draws:
// the first is the oldest and the last the newest, the rest evenly between.
int sampledIndex(int c, int n, int columns)
{
    if (columns <= 1)
        return n - 1;
    return std::clamp(int((qint64(c) * (n - 1) + (columns - 1) / 2) / (columns - 1)), 0, n - 1);
}

} // namespace

HistoryTimeline::HistoryTimeline(HistoryListModel *rows, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("historyTimeline"));
    setMouseTracking(false);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Timeline of the soul's tokens per file"));
    setRows(rows);
}

void HistoryTimeline::setRows(HistoryListModel *rows)
{
    if (rows == m_rows)
        return;
    if (m_rows)
        disconnect(m_rows, nullptr, this, nullptr);
    m_rows = rows;
    const auto changed = [this] {
        m_dirty = true;
        update();
    };
    connect(rows, &QAbstractItemModel::modelReset, this, [this, changed] {
        m_selected = -1; // the rows are others now
        changed();
    });
    connect(rows, &QAbstractItemModel::rowsInserted, this, changed);
    connect(rows, &QAbstractItemModel::dataChanged, this, changed);
    m_selected = -1;
    changed();
}

QColor HistoryTimeline::slotColour(int slot)
{
    static const std::array<QColor, SlotCount> colours = {QColor(0x4e, 0x79, 0xa7),
                                                          QColor(0xf2, 0x8e, 0x2b),
                                                          QColor(0xe1, 0x57, 0x59),
                                                          QColor(0x76, 0xb7, 0xb2),
                                                          QColor(0x59, 0xa1, 0x4f),
                                                          QColor(0xed, 0xc9, 0x48),
                                                          QColor(0xb0, 0x7a, 0xa1)};
    return colours.at(size_t(std::clamp(slot, 0, SlotCount - 1)));
}

void HistoryTimeline::setBudget(qint64 tokens)
{
    if (tokens == m_budget)
        return;
    m_budget = tokens;
    update();
}

void HistoryTimeline::setCapBytes(qint64 bytes)
{
    if (bytes == m_capBytes)
        return;
    m_capBytes = bytes;
    update();
}

void HistoryTimeline::setSelectedRow(int row)
{
    if (row == m_selected)
        return;
    m_selected = row;
    update();
}

QSize HistoryTimeline::sizeHint() const
{
    return {480, 180};
}

QSize HistoryTimeline::minimumSizeHint() const
{
    return {240, 120};
}

void HistoryTimeline::rebuild() const
{
    if (!m_dirty)
        return;
    m_dirty = false;
    const int n = m_rows->count();
    m_tokens.assign(size_t(n), {});
    m_totals.assign(size_t(n), 0);
    m_maxTotal = 0;
    qint64 bytes = 0;
    qint64 tokens = 0;
    for (int index = 0; index < n; ++index) {
        const std::optional<SoulFigures> &figures = m_rows->figures(rowOfIndex(index));
        std::array<qint32, SlotCount> &column = m_tokens[size_t(index)];
        if (!figures) {
            column.fill(-1);
            continue;
        }
        qint64 total = 0;
        for (int k = 0; k < SlotCount; ++k) {
            const qint64 t = std::max<qint64>(0, figures->sectionTokens[size_t(k)]);
            column[size_t(k)] = qint32(std::min<qint64>(t, INT32_MAX));
            total += t;
            if (figures->sectionTokens[size_t(k)] > 0) {
                bytes += figures->sectionBytes[size_t(k)];
                tokens += figures->sectionTokens[size_t(k)];
            }
        }
        m_totals[size_t(index)] = total;
        m_maxTotal = std::max(m_maxTotal, total);
    }
    m_bytesPerToken = tokens > 0 ? double(bytes) / double(tokens) : 0;
}

int HistoryTimeline::rowOfIndex(int index) const
{
    return m_rows->count() - 1 - index;
}

QList<QRect> HistoryTimeline::legendItems() const
{
    // A swatch and a name a slot, wrapped at the widget's width.
    const QFontMetrics metrics = fontMetrics();
    QList<QRect> items;
    int x = LeftMargin;
    int y = 2;
    for (int k = 0; k < SlotCount; ++k) {
        const int w = Swatch + SwatchGap + metrics.horizontalAdvance(slotName(k));
        if (x + w > width() - RightMargin && x > LeftMargin) {
            x = LeftMargin;
            y += metrics.height();
        }
        items.append(QRect(x, y, w, metrics.height()));
        x += w + ItemGap;
    }
    return items;
}

QRect HistoryTimeline::plotRect() const
{
    // The legend's lines, then a line for what is above the chart.
    const int top = legendItems().constLast().bottom() + 1 + fontMetrics().height() + 4;
    return rect().adjusted(LeftMargin, top, -RightMargin, -BottomMargin);
}

qint64 HistoryTimeline::chartTop() const
{
    const qint64 top = std::max<qint64>(m_maxTotal + m_maxTotal / 10, 10);
    const qint64 step = tickStep(top, 4);
    return (top + step - 1) / step * step;
}

int HistoryTimeline::indexAtX(int x) const
{
    const QRect plot = plotRect();
    const int n = m_rows->count();
    if (n == 0 || x < plot.left() || x > plot.right())
        return -1;
    const int columns = std::max(1, plot.width());
    if (n > columns)
        return sampledIndex(x - plot.left(), n, columns);
    return std::clamp(int(qint64(x - plot.left()) * n / columns), 0, n - 1);
}

int HistoryTimeline::rowAt(const QPoint &point) const
{
    const QRect plot = plotRect();
    if (point.y() < plot.top() || point.y() > plot.bottom())
        return -1;
    const int index = indexAtX(point.x());
    return index < 0 ? -1 : rowOfIndex(index);
}

QPoint HistoryTimeline::pointOf(int row) const
{
    const int n = m_rows->count();
    if (row < 0 || row >= n)
        return {};
    const QRect plot = plotRect();
    const int index = n - 1 - row;
    if (n > plot.width()) {
        // The column nearest to this commit, if it draws it.
        const int column = plot.width() > 1
                               ? int((qint64(index) * (plot.width() - 1) + (n - 1) / 2) / (n - 1))
                               : 0;
        if (sampledIndex(column, n, plot.width()) != index)
            return {}; // another commit's column stands here
        return {plot.left() + column, plot.center().y()};
    }
    // The columns that draw this commit: [first, last).
    const qint64 first = (qint64(index) * plot.width() + n - 1) / n;
    const qint64 last = (qint64(index + 1) * plot.width() + n - 1) / n;
    if (last <= first)
        return {}; // more commits than pixels: another commit's column stands here
    return {plot.left() + int((first + last - 1) / 2), plot.center().y()};
}

void HistoryTimeline::paintEvent(QPaintEvent *)
{
    rebuild();
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QRect plot = plotRect();
    const int n = m_rows->count();
    painter.setPen(palette().color(QPalette::Text));
    if (n == 0 || m_maxTotal == 0) {
        painter.drawText(rect(),
                         Qt::AlignCenter,
                         n == 0 ? tr("No commits to draw") : tr("Counting tokens…"));
        return;
    }
    const qint64 top = chartTop();
    const auto yOf = [&](qint64 tokens) {
        return plot.bottom() - int(double(tokens) * plot.height() / double(top));
    };

    // The grid and the token axis.
    const qint64 step = tickStep(top, 4);
    QColor grid = palette().color(QPalette::Mid);
    grid.setAlpha(90);
    const QFontMetrics metrics = fontMetrics();
    for (qint64 value = 0; value <= top; value += step) {
        const int y = yOf(value);
        painter.setPen(grid);
        painter.drawLine(plot.left(), y, plot.right(), y);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRect(0, y - metrics.height() / 2, LeftMargin - 6, metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter,
                         formatCount(value));
    }

    // One stacked bar a commit, or one commit a pixel column when there are
    // more commits than columns.
    const int columns = plot.width();
    const int drawn = std::min(n, columns);
    for (int c = 0; c < drawn; ++c) {
        int x0;
        int x1;
        int index;
        if (n <= columns) {
            index = c;
            // The columns rowAt() gives this commit.
            x0 = plot.left() + int((qint64(c) * columns + n - 1) / n);
            x1 = plot.left() + int((qint64(c + 1) * columns + n - 1) / n);
            if (x1 - x0 > 2)
                x1 -= 1; // a gap between wide bars
        } else {
            x0 = plot.left() + c;
            x1 = x0 + 1;
            index = sampledIndex(c, n, columns);
        }
        const std::array<qint32, SlotCount> &column = m_tokens[size_t(index)];
        if (column[0] < 0)
            continue; // not counted yet
        qint64 below = 0;
        for (int k = 0; k < SlotCount; ++k) {
            if (column[size_t(k)] <= 0)
                continue;
            const int yTop = yOf(below + column[size_t(k)]);
            const int yBottom = yOf(below);
            painter.fillRect(QRect(QPoint(x0, yTop), QPoint(x1 - 1, yBottom)), slotColour(k));
            below += column[size_t(k)];
        }
    }

    // The selected commit.
    if (m_selected >= 0 && m_selected < n) {
        // Where the commit is drawn, or where it would be between two
        // drawn ones.
        const QPoint at = pointOf(m_selected);
        const int x = at.isNull() ? plot.left()
                                        + int(qint64(n - 1 - m_selected) * (columns - 1)
                                              / std::max(1, n - 1))
                                  : at.x();
        QPen pen(palette().color(QPalette::Highlight), 2);
        painter.setPen(pen);
        painter.drawLine(x, plot.top(), x, plot.bottom());
    }

    // The budget and the cap, dashed, or said in the legend when above.
    QStringList above;
    const auto limitLine = [&](qint64 tokens, const QString &label, const QColor &colour) {
        if (tokens <= 0)
            return;
        if (tokens > top) {
            above.append(label);
            return;
        }
        QPen pen(colour, 1.5, Qt::DashLine);
        painter.setPen(pen);
        const int y = yOf(tokens);
        painter.drawLine(plot.left(), y, plot.right(), y);
        painter.drawText(plot.left() + 4, y - 3, label);
    };
    limitLine(m_budget,
              tr("context budget %1 tokens").arg(formatCount(m_budget)),
              QColor(0xc0, 0x30, 0x30));
    if (m_capBytes > 0 && m_bytesPerToken > 0) {
        // An estimate: rounded to a thousand, not to pretend a digit.
        const qint64 capTokens = std::max<qint64>(1000,
                                                  qint64(std::llround(double(m_capBytes)
                                                                      / m_bytesPerToken / 1000.0))
                                                      * 1000);
        limitLine(capTokens,
                  tr("per-file cap %1 ≈ %2 tokens")
                      .arg(formatBytes(m_capBytes))
                      .arg(formatCount(capTokens)),
                  QColor(0x80, 0x80, 0x80));
    }

    // The legend: a swatch a slot, then what is above the chart.
    const QList<QRect> items = legendItems();
    for (int k = 0; k < SlotCount; ++k) {
        const QRect item = items.at(k);
        painter.fillRect(QRect(item.left(), item.center().y() - Swatch / 2, Swatch, Swatch),
                         slotColour(k));
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(item.adjusted(Swatch + SwatchGap, 0, 0, 0),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         slotName(k));
    }
    const QRect note(plot.left(), items.constLast().bottom() + 1, plot.width(), metrics.height());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(note,
                     Qt::AlignLeft | Qt::AlignVCenter,
                     above.isEmpty()
                         ? tr("Tokens per file at each commit, oldest on the left")
                         : tr("Above the chart: %1").arg(above.join(QStringLiteral("; "))));
    // The oldest and newest dates under the chart.
    painter.setPen(palette().color(QPalette::Text));
    const QString format = QStringLiteral("yyyy-MM-dd");
    painter.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), BottomMargin - 3),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     m_rows->commit(n - 1).authorTime.toString(format));
    painter.drawText(QRect(plot.left(), plot.bottom() + 3, plot.width(), BottomMargin - 3),
                     Qt::AlignRight | Qt::AlignVCenter,
                     m_rows->commit(0).authorTime.toString(format));
}

void HistoryTimeline::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const int row = rowAt(event->position().toPoint());
    if (row >= 0) {
        setSelectedRow(row);
        Q_EMIT rowClicked(row);
    }
}

void HistoryTimeline::keyPressEvent(QKeyEvent *event)
{
    const int n = m_rows->count();
    int row = -1;
    switch (event->key()) {
    case Qt::Key_Left: // older: a higher row
        row = m_selected < 0 ? 0 : std::min(n - 1, m_selected + 1);
        break;
    case Qt::Key_Right:
        row = m_selected < 0 ? 0 : std::max(0, m_selected - 1);
        break;
    case Qt::Key_Home:
        row = n - 1;
        break;
    case Qt::Key_End:
        row = 0;
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    if (n == 0 || row < 0 || row == m_selected)
        return;
    setSelectedRow(row);
    Q_EMIT rowClicked(row);
}

bool HistoryTimeline::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = rowAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
            return true;
        }
        const HistoryCommit &commit = m_rows->commit(row);
        const std::optional<SoulFigures> &figures = m_rows->figures(row);
        QString text = commit.shortId + QLatin1Char(' ') + commit.summary;
        if (figures)
            text += tr("\n%1 tokens").arg(formatCount(figures->soulTokens));
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace soul
