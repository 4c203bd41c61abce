#include "startview.h"

#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace soul {

StartView::StartView(QWidget *parent)
    : QWidget(parent)
    , m_open(new QPushButton(tr("&Open a persona folder…"), this))
    , m_new(new QPushButton(tr("&New persona…"), this))
    , m_example(new QPushButton(tr("Open the e&xample persona"), this))
    , m_agents(new QPushButton(tr("Open OpenClaw's &agents"), this))
    , m_hermes(new QPushButton(tr("Open &Hermes's home…"), this))
    , m_recent(new QListWidget(this))
    , m_noRecent(new QLabel(tr("No recent folders yet. A folder you open is listed here."), this))
{
    auto *title = new QLabel(tr("<h2>Soul Studio</h2>"
                                "<p>Edit the seven Markdown files of an agent persona and see "
                                "the soul the agent gets, byte for byte.</p>"),
                             this);
    title->setWordWrap(true);
    auto *recentLabel = new QLabel(tr("&Recent folders:"), this);
    recentLabel->setBuddy(m_recent);
    m_recent->setAccessibleName(tr("Recent folders"));
    m_agents->setToolTip(
        tr("Every agent of OpenClaw's config (~/.openclaw/openclaw.json, or "
           "where OPENCLAW_CONFIG_PATH and OPENCLAW_STATE_DIR say) in one window"));
    m_hermes->setToolTip(tr("The files Hermes Agent reads from its home ($HERMES_HOME, else "
                            "~/.hermes) and from the project folder it runs in"));
    m_noRecent->setWordWrap(true);
    m_noRecent->setForegroundRole(QPalette::PlaceholderText);

    auto *column = new QVBoxLayout;
    column->addWidget(title);
    column->addWidget(m_open);
    column->addWidget(m_new);
    column->addWidget(m_example);
    column->addWidget(m_agents);
    column->addWidget(m_hermes);
    column->addSpacing(12);
    column->addWidget(recentLabel);
    column->addWidget(m_recent, 1);
    // One of the two is shown; either takes the room below the buttons.
    column->addWidget(m_noRecent, 1, Qt::AlignTop);

    auto *content = new QWidget(this);
    content->setLayout(column);
    content->setMaximumWidth(560);
    auto *outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addWidget(content, 2);
    outer->addStretch(1);

    connect(m_open, &QPushButton::clicked, this, &StartView::openRequested);
    connect(m_new, &QPushButton::clicked, this, &StartView::newPersonaRequested);
    connect(m_example, &QPushButton::clicked, this, &StartView::exampleRequested);
    connect(m_agents, &QPushButton::clicked, this, &StartView::agentsRequested);
    connect(m_hermes, &QPushButton::clicked, this, &StartView::hermesHomeRequested);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const int row = m_recent->row(item);
        if (row >= 0 && row < m_places.size())
            Q_EMIT recentRequested(m_places.at(row));
    });
}

void StartView::setRecent(const QList<RecentPlace> &places)
{
    m_recent->clear();
    m_places = places;
    for (const RecentPlace &place : places) {
        auto *item = new QListWidgetItem(place.isHome() ? place.label()
                                                        : QDir::toNativeSeparators(place.directory),
                                         m_recent);
        item->setToolTip(QDir::toNativeSeparators(place.directory));
    }
    if (m_recent->count() > 0)
        m_recent->setCurrentRow(0);
    m_recent->setVisible(!places.isEmpty());
    m_noRecent->setVisible(places.isEmpty());
}

void StartView::setExampleAvailable(bool available)
{
    m_example->setEnabled(available);
    m_example->setToolTip(available ? QString() : tr("The example persona is not installed."));
}

} // namespace soul
