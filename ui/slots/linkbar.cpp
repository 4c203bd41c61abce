#include "linkbar.h"

#include "bartint.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace soul {

LinkBar::LinkBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_threeWay(new QPushButton(tr("Th&ree-way…"), this))
    , m_adopt(new QPushButton(tr("Ado&pt into group"), this))
    , m_leave(new QPushButton(tr("Lea&ve group"), this))
    , m_finish(new QPushButton(tr("&Finish saving"), this))
{
    setObjectName(QStringLiteral("linkBar"));
    setAutoFillBackground(true);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText); // group and agent names are the user's text
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_threeWay->setToolTip(tr("The text the group last wrote, this copy and the group's text "
                              "now, with what changed word by word (Ctrl+Alt+3)"));
    m_adopt->setToolTip(tr("This copy becomes the group's text in every member's pane, unsaved; "
                           "Save writes every copy"));
    m_leave->setToolTip(tr("This agent keeps its own file and leaves the group "
                           "(soul-links.json is rewritten; no persona file is)"));
    m_finish->setToolTip(tr("Write the group's text to the copies the last save did not reach"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 3, 8, 3);
    layout->addWidget(m_label, 1);
    for (QPushButton *button : {m_threeWay, m_adopt, m_leave, m_finish})
        layout->addWidget(button);
    connect(m_threeWay, &QPushButton::clicked, this, &LinkBar::threeWayRequested);
    connect(m_adopt, &QPushButton::clicked, this, &LinkBar::adoptRequested);
    connect(m_leave, &QPushButton::clicked, this, &LinkBar::leaveRequested);
    connect(m_finish, &QPushButton::clicked, this, &LinkBar::finishRequested);
    setAccessibleName(tr("Linked file"));
    hide();
}

void LinkBar::showNote(Kind kind, const QString &text, const QString &tip)
{
    if (kind == m_kind && text == m_label->text() && tip == toolTip())
        return;
    m_kind = kind;
    m_label->setText(text);
    setToolTip(tip);
    setAccessibleDescription(text);
    const bool acts = kind == Kind::Diverged || kind == Kind::Behind;
    setFrameShape(acts ? QFrame::StyledPanel : QFrame::NoFrame);
    const QPalette plain = parentWidget() ? parentWidget()->palette() : palette();
    // A green tint: the disk bar's is warm, the recovery bar's blue.
    setPalette(acts ? tintedWindow(plain, QColor(0x40, 0xb0, 0x70)) : plain);
    m_label->setForegroundRole(acts ? QPalette::WindowText : QPalette::PlaceholderText);
    m_threeWay->setVisible(kind == Kind::Diverged);
    m_adopt->setVisible(kind == Kind::Diverged);
    m_leave->setVisible(kind == Kind::Diverged);
    m_finish->setVisible(kind == Kind::Behind);
    setVisible(kind != Kind::None);
}

QString LinkBar::text() const
{
    return m_label->text();
}

} // namespace soul
