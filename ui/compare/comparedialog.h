#pragma once

#include <QDialog>

class QCheckBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace soul {

class CompareController;

// The persona against a snapshot: the stable prefix with a jump to the first
// change, what each provider's cache would reuse, each section's status and
// a diff of the changed sections. Not modal: the author types on while it is
// open, and it follows.
class CompareDialog : public QDialog
{
    Q_OBJECT

public:
    // Shows `controller` (a session's), which must outlive the dialog.
    explicit CompareDialog(CompareController *controller, QWidget *parent = nullptr);

    CompareController *controller() const { return m_controller; }
    // What is compared with which snapshot (and, for a runtime's text, for which runtime).
    QLabel *titleLabel() const { return m_title; }
    QLabel *prefixLabel() const { return m_prefix; }
    QLabel *errorLabel() const { return m_error; }
    QLabel *sectionsLabel() const { return m_sections; }
    QPushButton *jumpButton() const { return m_jump; }
    QTextBrowser *diffView() const { return m_diff; }
    // Marks invisibles in the diff as the preview does.
    QCheckBox *invisiblesToggle() const { return m_invisibles; }

    // Compares with the snapshot at `soulPath`.
    void compareWith(const QString &soulPath);

Q_SIGNALS:
    // Show `line` (1-based) of slot `slot`'s pane, at `column` (UTF-16
    // units of the line), both as the pane counts them.
    void jumpRequested(int slot, qint64 line, qint64 column);

private:
    void showResult();

    CompareController *m_controller = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_prefix = nullptr;
    QPushButton *m_jump = nullptr;
    QLabel *m_reuse = nullptr;
    QLabel *m_sections = nullptr;
    QTextBrowser *m_diff = nullptr;
    QCheckBox *m_invisibles = nullptr;
};

} // namespace soul
