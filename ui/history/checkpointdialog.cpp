#include "checkpointdialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace soul {

CheckpointDialog::CheckpointDialog(const QString &suggested, const QString &note, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Checkpoint"));
    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(tr("Commit the slot files as they are on disk, with this message:"),
                             this);
    label->setWordWrap(true);
    layout->addWidget(label);
    m_message = new QPlainTextEdit(this);
    m_message->setObjectName(QStringLiteral("checkpointMessage"));
    m_message->setPlainText(suggested);
    m_message->selectAll();
    m_message->setTabChangesFocus(true);
    label->setBuddy(m_message);
    layout->addWidget(m_message, 1);
    if (!note.isEmpty()) {
        auto *noteLabel = new QLabel(note, this);
        noteLabel->setWordWrap(true);
        layout->addWidget(noteLabel);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *commit = buttons->addButton(tr("Checkpoint"), QDialogButtonBox::AcceptRole);
    commit->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_message, &QPlainTextEdit::textChanged, commit, [this, commit] {
        commit->setEnabled(!message().isEmpty());
    });
    commit->setEnabled(!message().isEmpty());
    layout->addWidget(buttons);
    resize(520, 260);
}

QString CheckpointDialog::message() const
{
    return m_message->toPlainText().trimmed();
}

} // namespace soul
