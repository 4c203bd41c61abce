#pragma once

#include <QWidget>

#include <array>
#include <vector>

#include "compose/contract.h"

namespace soul {

class HistoryListModel;

// The soul's tokens per slot across the commits of a history, oldest on the
// left: a stacked bar a commit, one colour a slot, with the chosen context
// budget and the per-file cap as dashed lines when they fall on the chart
// (else the legend says how far above it they are). Clicking a bar selects its
// commit. With more commits than pixels each pixel column draws one commit,
// so a paint costs the width, not the history: 2,000 commits draw as fast as
// 200.
class HistoryTimeline : public QWidget
{
    Q_OBJECT

public:
    // `rows` must outlive the timeline, or be replaced before it goes.
    explicit HistoryTimeline(HistoryListModel *rows, QWidget *parent = nullptr);
    // Draws another persona's list.
    void setRows(HistoryListModel *rows);

    // The context budget in tokens (0: none drawn).
    void setBudget(qint64 tokens);
    qint64 budget() const { return m_budget; }
    // The per-file cap, in bytes, shown in tokens at the history's own bytes
    // per token (0: none drawn).
    void setCapBytes(qint64 bytes);
    // The row (0: newest) drawn as selected, or -1.
    void setSelectedRow(int row);
    int selectedRow() const { return m_selected; }

    // The row whose bar is under `point`, or -1 (hit testing; public for tests).
    int rowAt(const QPoint &point) const;
    // The middle of row `row`'s bar, or a null point when it is not drawn.
    QPoint pointOf(int row) const;
    // The colour slot `slot` is drawn in.
    static QColor slotColour(int slot);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // A commit was clicked, or chosen with the keys.
    void rowClicked(int row);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    // Left and Right select the older and the newer commit, Home and End the
    // oldest and the newest.
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

private:
    // The figures as drawn, oldest first, rebuilt when the rows change.
    void rebuild() const;
    QRect plotRect() const;
    // Where each slot's swatch and name stand in the legend.
    QList<QRect> legendItems() const;
    // The commit index (0: oldest) drawn at column x of the plot, or -1.
    int indexAtX(int x) const;
    int rowOfIndex(int index) const;
    qint64 chartTop() const;

    HistoryListModel *m_rows = nullptr;
    qint64 m_budget = 0;
    qint64 m_capBytes = 0;
    int m_selected = -1;

    mutable bool m_dirty = true;
    mutable std::vector<std::array<qint32, SlotCount>> m_tokens; // per commit, -1: not counted
    mutable std::vector<qint64> m_totals;
    mutable qint64 m_maxTotal = 0;
    mutable double m_bytesPerToken = 0;
};

} // namespace soul
