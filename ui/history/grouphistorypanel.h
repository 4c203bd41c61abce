#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeView;

namespace soul {

class GroupHistoryModel;

// The History dock's "Linked File" page: the linked file of the pane last
// focused, its commits in every member's repository in one list (agent,
// date, commit, summary, whether the file there is the group's text now),
// a sentence for each member whose commits are not listed, and the file as
// the selected commit has it, read only. It shows a GroupHistory and emits
// what the user chose.
class GroupHistoryPanel : public QWidget
{
    Q_OBJECT

public:
    // `rows` must outlive the panel.
    explicit GroupHistoryPanel(GroupHistoryModel *rows, QWidget *parent = nullptr);

    // What the list is (or why there is none), the members' sentences, and
    // whether a group is followed (Checkpoint the Group needs one).
    void showState(const QString &text, const QStringList &memberNotes, bool hasGroup);
    // The file as commit `row` has it (an empty array: the commit removed it).
    void showText(int row, const QByteArray &text);
    void showTextError(int row, const QString &error);
    // Selects `row` (as a click does).
    void selectRow(int row);
    int selectedRow() const;

    QSize sizeHint() const override;

    QTreeView *list() const { return m_list; }
    QPlainTextEdit *textView() const { return m_text; }
    QLabel *status() const { return m_status; }
    QLabel *notes() const { return m_notes; }
    QLabel *textTitle() const { return m_textTitle; }
    QPushButton *checkpointButton() const { return m_checkpoint; }

Q_SIGNALS:
    void rowSelected(int row);
    void refreshRequested();
    void checkpointRequested();
    // The page was shown or hidden (its tab chosen, the dock opened or closed).
    void shownChanged(bool shown);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void selectionChanged();

    GroupHistoryModel *m_rows = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_notes = nullptr;
    QPushButton *m_checkpoint = nullptr;
    QTreeView *m_list = nullptr;
    QLabel *m_textTitle = nullptr;
    QPlainTextEdit *m_text = nullptr;
};

} // namespace soul
