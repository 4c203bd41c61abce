#pragma once

#include "compose/composerule.h"

#include <QWidget>

namespace soul {

// Bytes of one slot against a compose rule's cap: normal below its near
// share (85 % for toolnexus), a warning from there, and above the cap what
// the agent loses.
class SizeMeter : public QWidget
{
    Q_OBJECT

public:
    enum class Level { Absent, Normal, Warning, Over };

    explicit SizeMeter(const ComposeRule &rule, QWidget *parent = nullptr);

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
    qint64 m_capBytes = 0;
    qint64 m_nearCapBytes = 0;
    QString m_capText; // "2 MiB"
    qint64 m_bytes = -1;
};

} // namespace soul
