#include "directorylostbar.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace soul {

DirectoryLostBar::DirectoryLostBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_saveElsewhere(new QPushButton(tr("Save all else&where…"), this))
    , m_close(new QPushButton(tr("&Close folder"), this))
{
    setAutoFillBackground(true);
    QPalette warn = palette();
    warn.setColor(QPalette::Window, QColor(0xd0, 0x40, 0x40));
    warn.setColor(QPalette::WindowText, Qt::white);
    setPalette(warn);
    // The buttons keep the system's colours, so they read as buttons on red.
    m_saveElsewhere->setPalette(QPalette());
    m_close->setPalette(QPalette());

    m_saveElsewhere->setToolTip(
        tr("Write every pane into another folder and continue there; nothing is overwritten"));
    m_close->setToolTip(tr("Close the folder; unsaved panes are asked about first"));
    m_label->setWordWrap(true);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_saveElsewhere);
    layout->addWidget(m_close);

    connect(m_saveElsewhere, &QPushButton::clicked, this, &DirectoryLostBar::saveElsewhereRequested);
    connect(m_close, &QPushButton::clicked, this, &DirectoryLostBar::closeRequested);
    setAccessibleName(tr("Folder missing"));
    hide();
}

void DirectoryLostBar::showFor(const QString &dir)
{
    m_label->setText(tr("The folder %1 was removed or renamed. Every pane keeps its text; save "
                        "it all elsewhere, or put the folder back.")
                         .arg(QDir::toNativeSeparators(dir)));
    setAccessibleDescription(m_label->text());
    show();
}

} // namespace soul
