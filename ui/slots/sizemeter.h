#pragma once

#include <QWidget>

namespace soul {

// Bytes of one slot against the 2 MiB cap: normal below 85 %, a warning from
// 85 %, and above the cap what the agent loses.
class SizeMeter : public QWidget
{
    Q_OBJECT

public:
    enum class Level { Absent, Normal, Warning, Over };

    explicit SizeMeter(QWidget *parent = nullptr);

    // -1 for an absent slot.
    void setBytes(qint64 bytes);
    qint64 bytes() const { return m_bytes; }
    Level level() const;
    QString text() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    qint64 m_bytes = -1;
};

} // namespace soul
