#pragma once

#include <QDialog>

class QPlainTextEdit;

namespace soul {

// Asks for a checkpoint's message, prefilled with what changed; a note under
// it says what the checkpoint leaves out. The message cannot be empty.
class CheckpointDialog : public QDialog
{
    Q_OBJECT

public:
    CheckpointDialog(const QString &suggested, const QString &note, QWidget *parent = nullptr);

    QString message() const;

private:
    QPlainTextEdit *m_message = nullptr;
};

} // namespace soul
