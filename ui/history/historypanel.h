#pragma once

#include "history/historyjobs.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTreeView;

namespace soul {

class HistoryListModel;
class HistoryTimeline;

// The History panel: the commits that touched the slot files (newest first)
// under a timeline of the soul's tokens, and the soul as composed at the
// selected commit, read only, with Restore and Compare. Without a list to
// show it says why in a sentence (no repository, with Create Repository; an
// empty one; an error). It only shows state and emits what the user chose;
// the HistorySession decides.
class HistoryPanel : public QWidget
{
    Q_OBJECT

public:
    // `rows` must outlive the panel, or be replaced before it goes.
    explicit HistoryPanel(HistoryListModel *rows, QWidget *parent = nullptr);
    // Shows another persona's list (the window shows another session).
    void setRows(HistoryListModel *rows);

    // The history's state: the list, or a sentence and what can be done.
    // `busy` (a merge under way) makes the panel read only and says why.
    void showStatus(HistoryStatus status, const QString &error, const QString &busy);
    // The soul of the selected commit, with notes about it.
    void showSoul(const CommitSoul &soul);
    // The selected commit could not be read; `error` says why.
    void showSoulError(const QString &error);
    // Whether a folder is open and its panes take a restore.
    void setRestoreEnabled(bool enabled);
    // Selects `row` in the list and the timeline (as a click does).
    void selectRow(int row);
    // Puts the keyboard focus in the commit list (Up and Down select, Shift
    // widens the selection, Shift+Tab reaches the timeline), or on Create
    // Repository when the panel shows a sentence instead of commits.
    void focusCommits();
    // The row whose soul is shown: the current one among those selected.
    int selectedRow() const;
    // Every selected row, top (newest) first; Compare These Two takes two.
    QList<int> selectedRows() const;
    // The files that differ from the last checkpoint (`checkpoint`, a short
    // id), and whether Soul Studio saved each; each name links to its diff.
    struct Changed
    {
        int slot = -1;
        bool savedHere = false;
    };
    void showChanged(const QList<Changed> &changed, const QString &checkpoint);
    QLabel *changedLabel() const { return m_changed; }
    // Progress of the counts: "measured of total".
    void showProgress(int measured, int total);

    // Wide enough for the list's columns and the timeline's legend.
    QSize sizeHint() const override;

    HistoryTimeline *timeline() const { return m_timeline; }
    QTreeView *list() const { return m_list; }
    QPlainTextEdit *soulView() const { return m_soul; }
    QLabel *message() const { return m_message; }
    QPushButton *createButton() const { return m_create; }
    QComboBox *fileChooser() const { return m_file; }

Q_SIGNALS:
    void createRepositoryRequested();
    void refreshRequested();
    void checkpointRequested();
    void rowSelected(int row);
    void restoreFileRequested(int row, int slot);
    void restoreAllRequested(int row);
    void compareRequested(int row);
    // Two rows are selected and Compare These Two pressed (`older` is the
    // row further down, the older commit).
    void compareTwoRequested(int older, int newer);
    // Show the file of `slot` at the last checkpoint against the disk.
    void diffRequested(int slot);

private:
    void selectionChanged();
    void fillFiles(const CommitSoul &soul);

    HistoryListModel *m_rows = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_changed = nullptr;
    QStackedWidget *m_pages = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_create = nullptr;
    QPushButton *m_checkpoint = nullptr;
    HistoryTimeline *m_timeline = nullptr;
    QTreeView *m_list = nullptr;
    QLabel *m_soulTitle = nullptr;
    QLabel *m_notes = nullptr;
    QPlainTextEdit *m_soul = nullptr;
    QComboBox *m_file = nullptr;
    QPushButton *m_restoreFile = nullptr;
    QPushButton *m_restoreAll = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_compareTwo = nullptr;
    HistoryStatus m_shown = HistoryStatus::Closed;
    QString m_busy;
    bool m_restoreEnabled = false;
    // focusCommits() came while the list was being read: it is done once the
    // commits are listed, if the focus is still in the panel.
    bool m_focusWhenListed = false;
    void focusWhenListed();
};

} // namespace soul
