#include "recoverybar.h"

#include "bartint.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

namespace soul {

RecoveryBar::RecoveryBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_restore(new QPushButton(tr("Res&tore"), this))
    , m_compare(new QPushButton(tr("Com&pare"), this))
    , m_discard(new QPushButton(tr("Disc&ard"), this))
{
    setObjectName(QStringLiteral("recoveryBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    // A cool tint over the system's own window colour, told apart from the
    // warm changed-on-disk bar, and readable in light and dark palettes.
    setPalette(tintedWindow(palette(), QColor(0x30, 0x80, 0xe0)));

    m_restore->setToolTip(
        tr("Put the recovered text in the pane; it stays unsaved until you save"));
    m_compare->setToolTip(tr("Show the file on disk against the recovered text"));
    m_discard->setToolTip(tr("Forget the recovered text and keep the file as it is"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_label, 1);
    for (QPushButton *button : {m_restore, m_compare, m_discard}) {
        button->setAutoDefault(false);
        layout->addWidget(button);
    }

    connect(m_restore, &QPushButton::clicked, this, &RecoveryBar::restoreRequested);
    connect(m_compare, &QPushButton::clicked, this, &RecoveryBar::compareRequested);
    connect(m_discard, &QPushButton::clicked, this, &RecoveryBar::discardRequested);
    setAccessibleName(tr("Recovered unsaved text"));
    hide();
}

void RecoveryBar::showFor(const QString &fileName, const QDateTime &savedAt, bool diskChangedSince)
{
    const QDateTime local = savedAt.toLocalTime();
    // The date only matters when it is not today.
    const QString when = local.date() == QDate::currentDate()
                             ? QLocale().toString(local.time(), QLocale::ShortFormat)
                             : QLocale().toString(local, QLocale::ShortFormat);
    QString text = savedAt.isValid()
                       ? tr("Unsaved text of %1 from %2 was recovered.").arg(fileName, when)
                       : tr("Unsaved text of %1 was recovered.").arg(fileName);
    if (diskChangedSince)
        text += QLatin1Char(' ') + tr("%1 has changed on disk since.").arg(fileName);
    // The pane is read-only meanwhile; say so, or typing seems broken.
    text += QLatin1Char(' ') + tr("Editing waits for your choice.");
    m_label->setText(text);
    setAccessibleDescription(text);
    m_restore->setAccessibleName(tr("Restore recovered %1").arg(fileName));
    m_compare->setAccessibleName(tr("Compare recovered %1 with the file").arg(fileName));
    m_discard->setAccessibleName(tr("Discard recovered %1").arg(fileName));
    show();
}

QString RecoveryBar::message() const
{
    return m_label->text();
}

} // namespace soul
