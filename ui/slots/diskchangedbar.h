#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace soul {

enum class ConflictState;

// The bar over a dirty pane whose file changed or went away on disk. It only
// shows the state and emits what the user chose; it never touches a file.
class DiskChangedBar : public QFrame
{
    Q_OBJECT

public:
    // NotReadable: the path is now a FIFO, a directory, a link loop, ...;
    // `reason` says which ("is a FIFO, not a regular file").
    enum class Kind { Changed, Deleted, NotReadable };

    explicit DiskChangedBar(QWidget *parent = nullptr);

    void showFor(const QString &fileName, Kind kind, const QString &reason = {});
    // Shows the bar a file's conflict asks for (a slot's, a runtime's own
    // file's), or hides it when there is none; `reason` as showFor()'s.
    void showConflict(const QString &fileName, ConflictState conflict, const QString &reason);
    QString text() const;
    Kind kind() const { return m_kind; }

Q_SIGNALS:
    void reloadRequested();   // drop my edits, take the disk
    void keepMineRequested(); // keep my edits, forget the conflict
    void compareRequested();
    void saveRequested();    // deleted on disk: write my buffer again
    void discardRequested(); // deleted or not readable on disk: drop my buffer

private:
    Kind m_kind = Kind::Changed;
    QLabel *m_label = nullptr;
    QPushButton *m_reload = nullptr;
    QPushButton *m_keepMine = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_discard = nullptr;
};

} // namespace soul
