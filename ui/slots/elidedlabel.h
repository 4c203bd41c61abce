#pragma once

#include <QFrame>

namespace soul {

// One line of text that ends in "…" when it is given less than its width,
// for header words that may give way in a narrow window (a QLabel is cut
// mid-letter instead). The whole text is its tooltip.
class ElidedLabel : public QFrame
{
    Q_OBJECT

public:
    explicit ElidedLabel(const QString &text, QWidget *parent = nullptr);

    QString text() const { return m_text; }
    void setText(const QString &text);
    // What is drawn at the current width.
    QString shownText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_text;
};

} // namespace soul
