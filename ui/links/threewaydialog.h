#pragma once

#include "linktexts.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTextBrowser;
class QWidget;

namespace soul {

// The three-way view of a link group's file whose copy in one member was
// rewritten: what the group last wrote to every copy, this copy and the
// group's text now, shown as two word diffs from the group's last text. It
// only reports what the author chose; the caller adopts the copy or leaves
// the group. Modal.
class ThreeWayDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Choice { Close, Adopt, Leave };

    explicit ThreeWayDialog(QWidget *parent = nullptr);

    // Shows `texts`. Each text may be up to 16 MiB of any bytes: they are
    // decoded as the panes do, and a diff too large to read is replaced by
    // a sentence saying so.
    void setTexts(const ThreeWayTexts &texts);
    // Close until Adopt or Leave is pressed; Esc and Close keep it.
    Choice choice() const { return m_choice; }

    // "USER.md of coach differs from the group house's text (...)."
    QLabel *headingLabel() const { return m_heading; }
    // How to read the views; says when the group's last text is not kept.
    QLabel *noteLabel() const { return m_note; }
    QLabel *copyCaption() const { return m_copyCaption; }
    QLabel *groupCaption() const { return m_groupCaption; }
    // The group's last text against this copy (against the group's text
    // now when the last one is not kept).
    QTextBrowser *copyView() const { return m_copyView; }
    // The group's last text against its text now; hidden when the last one
    // is not kept.
    QTextBrowser *groupView() const { return m_groupView; }
    // The HTML each view was given, with its classes ("addw", "delw", ...),
    // which QTextDocument does not keep.
    QString copyHtml() const { return m_copyHtml; }
    QString groupHtml() const { return m_groupHtml; }
    QPushButton *adoptButton() const { return m_adopt; }
    QPushButton *leaveButton() const { return m_leave; }
    QPushButton *closeButton() const { return m_close; }

private:
    QLabel *m_heading = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_copyCaption = nullptr;
    QLabel *m_groupCaption = nullptr;
    QWidget *m_groupPanel = nullptr;
    QTextBrowser *m_copyView = nullptr;
    QTextBrowser *m_groupView = nullptr;
    QString m_copyHtml;
    QString m_groupHtml;
    QPushButton *m_adopt = nullptr;
    QPushButton *m_leave = nullptr;
    QPushButton *m_close = nullptr;
    Choice m_choice = Choice::Close;
};

} // namespace soul
