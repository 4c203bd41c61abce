#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace soul {

// Find in one editor (the pane last focused, or the preview), wrapping
// around. Enter finds the next match, Shift+Enter the previous, Escape closes.
class FindBar : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QWidget *parent = nullptr);

    void setTarget(QPlainTextEdit *editor);
    QPlainTextEdit *target() const { return m_target; }
    QLineEdit *field() const { return m_field; }
    // Shows the bar and selects the field.
    void activate();
    bool find(bool backward = false);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QPointer<QPlainTextEdit> m_target;
    QLineEdit *m_field = nullptr;
    QLabel *m_result = nullptr;
};

} // namespace soul
