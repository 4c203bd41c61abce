#include "findbar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QToolButton>

namespace soul {

FindBar::FindBar(QWidget *parent)
    : QWidget(parent)
    , m_field(new QLineEdit(this))
    , m_result(new QLabel(this))
{
    auto *label = new QLabel(tr("Find:"), this);
    label->setBuddy(m_field);
    m_field->setAccessibleName(tr("Find text"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    auto *next = new QToolButton(this);
    next->setText(tr("Next"));
    auto *previous = new QToolButton(this);
    previous->setText(tr("Previous"));
    auto *close = new QToolButton(this);
    close->setText(tr("Close"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(label);
    layout->addWidget(m_field, 1);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_result);
    layout->addWidget(close);

    connect(m_field, &QLineEdit::returnPressed, this, [this] { find(false); });
    connect(next, &QToolButton::clicked, this, [this] { find(false); });
    connect(previous, &QToolButton::clicked, this, [this] { find(true); });
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        if (m_target)
            m_target->setFocus();
    });
    hide();
}

void FindBar::setTarget(QPlainTextEdit *editor)
{
    m_target = editor;
}

void FindBar::activate()
{
    show();
    if (m_target && m_target->textCursor().hasSelection())
        m_field->setText(m_target->textCursor().selectedText());
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

bool FindBar::find(bool backward)
{
    if (!m_target || m_field->text().isEmpty())
        return false;
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward
                                                    : QTextDocument::FindFlags();
    bool found = m_target->find(m_field->text(), flags);
    if (!found) {
        // Wrap around once.
        QTextCursor cursor = m_target->textCursor();
        cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        const QTextCursor hit = m_target->document()->find(m_field->text(), cursor, flags);
        if (!hit.isNull()) {
            m_target->setTextCursor(hit);
            found = true;
        }
    }
    m_result->setText(found ? QString() : tr("Not found"));
    return found;
}

bool FindBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape) {
            hide();
            if (m_target)
                m_target->setFocus();
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)
            && (key->modifiers() & Qt::ShiftModifier)) {
            find(true);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace soul
