#include "diskchangedbar.h"

#include "persona/personamodel.h"

#include "bartint.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace soul {

DiskChangedBar::DiskChangedBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_reload(new QPushButton(tr("&Reload"), this))
    , m_keepMine(new QPushButton(tr("&Keep mine"), this))
    , m_compare(new QPushButton(tr("Co&mpare"), this))
    , m_save(new QPushButton(tr("&Save to re-create"), this))
    , m_discard(new QPushButton(tr("&Discard"), this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    // A warm tint over the system's own window colour, so it reads in light
    // and dark palettes alike.
    setPalette(tintedWindow(palette(), QColor(0xe0, 0xa0, 0x20)));

    m_reload->setToolTip(tr("Drop my edits and load the file from disk"));
    m_keepMine->setToolTip(tr("Keep my edits; saving will overwrite the file on disk"));
    m_compare->setToolTip(tr("Show the file on disk against my edits"));
    m_label->setWordWrap(true);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_label, 1);
    for (QPushButton *button : {m_reload, m_keepMine, m_compare, m_save, m_discard})
        layout->addWidget(button);

    connect(m_reload, &QPushButton::clicked, this, &DiskChangedBar::reloadRequested);
    connect(m_keepMine, &QPushButton::clicked, this, &DiskChangedBar::keepMineRequested);
    connect(m_compare, &QPushButton::clicked, this, &DiskChangedBar::compareRequested);
    connect(m_save, &QPushButton::clicked, this, &DiskChangedBar::saveRequested);
    connect(m_discard, &QPushButton::clicked, this, &DiskChangedBar::discardRequested);
    setAccessibleName(tr("Changed on disk"));
    hide();
}

void DiskChangedBar::showFor(const QString &fileName, Kind kind, const QString &reason)
{
    m_kind = kind;
    const bool changed = kind == Kind::Changed;
    switch (kind) {
    case Kind::Changed:
        m_label->setText(
            tr("%1 changed on disk. Your edits are kept until you choose.").arg(fileName));
        break;
    case Kind::Deleted:
        m_label->setText(tr("%1 was deleted on disk. Your edits are kept.").arg(fileName));
        break;
    case Kind::NotReadable:
        // Saving cannot put a file where a FIFO or a folder is: the way out is
        // outside the window, or dropping the edits.
        m_label->setText(tr("%1 on disk %2, so it is not read. Your edits are kept: remove or "
                            "rename what is there, then save; or discard your edits.")
                             .arg(fileName, reason));
        break;
    }
    setAccessibleDescription(m_label->text());
    m_reload->setVisible(changed);
    m_keepMine->setVisible(changed);
    m_compare->setVisible(changed);
    m_save->setVisible(kind == Kind::Deleted);
    m_discard->setVisible(!changed);
    show();
}

QString DiskChangedBar::text() const
{
    return m_label->text();
}

void DiskChangedBar::showConflict(const QString &fileName,
                                  ConflictState conflict,
                                  const QString &reason)
{
    switch (conflict) {
    case ConflictState::None:
        hide();
        break;
    case ConflictState::ChangedOnDisk:
        showFor(fileName, Kind::Changed);
        break;
    case ConflictState::DeletedOnDisk:
        showFor(fileName, Kind::Deleted);
        break;
    case ConflictState::NotReadableOnDisk:
        showFor(fileName, Kind::NotReadable, reason);
        break;
    }
}

} // namespace soul
