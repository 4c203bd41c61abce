#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace soul {

// The red bar over the panes while the open folder is removed or renamed. It
// shows the state and emits the way out the user chose; it never touches a
// file or a buffer.
class DirectoryLostBar : public QFrame
{
    Q_OBJECT

public:
    explicit DirectoryLostBar(QWidget *parent = nullptr);

    // `dir` is the folder as it was opened.
    void showFor(const QString &dir);

Q_SIGNALS:
    void saveElsewhereRequested(); // write every pane into another folder and open it
    void closeRequested();         // close the folder, asking about unsaved panes

private:
    QLabel *m_label = nullptr;
    QPushButton *m_saveElsewhere = nullptr;
    QPushButton *m_close = nullptr;
};

} // namespace soul
