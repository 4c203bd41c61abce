#include "previewpanel.h"

#include "inspection.h"
#include "lint.h"
#include "personamodel.h"
#include "soulpreview.h"
#include "tokenbar.h"

#include <QCheckBox>
#include <QClipboard>
#include <QCryptographicHash>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace soul {

namespace {

constexpr int TotalsDelayMs = 120;

} // namespace

PreviewPanel::PreviewPanel(const PersonaModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_unsaved(new QCheckBox(tr("Include &unsaved edits"), this))
    , m_invisibles(new QCheckBox(tr("Show &invisibles"), this))
    , m_unsavedNote(new QLabel(this))
    , m_preview(new SoulPreview(model, this))
    , m_totals(new QLabel(this))
    , m_copySha(new QToolButton(this))
    , m_tokenBar(new TokenBar(this))
{
    m_unsaved->setChecked(true);
    m_unsaved->setToolTip(tr("Off: show what is on disk, which is what an agent starting now "
                             "gets"));
    m_invisibles->setToolTip(tr("Mark U+FEFF, NUL, tabs, CR, U+FFFD, non-ASCII spaces such as "
                                "U+00A0, and trailing spaces, in the panes and the preview"));
    m_unsavedNote->setWordWrap(true);
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_totals->setAccessibleName(tr("Soul totals"));
    m_copySha->setText(tr("Copy SHA-256"));
    m_copySha->setAccessibleName(tr("Copy the soul's SHA-256"));

    auto *title = new QLabel(tr("<b>Composed soul</b>"), this);
    auto *switches = new QHBoxLayout;
    switches->addWidget(title);
    switches->addStretch(1);
    switches->addWidget(m_unsaved);
    switches->addWidget(m_invisibles);

    auto *totals = new QHBoxLayout;
    totals->addWidget(m_totals, 1);
    totals->addWidget(m_copySha);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(switches);
    layout->addWidget(m_unsavedNote);
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_tokenBar);
    layout->addLayout(totals);

    m_totalsTimer.setSingleShot(true);
    m_totalsTimer.setInterval(TotalsDelayMs);
    connect(&m_totalsTimer, &QTimer::timeout, this, &PreviewPanel::refreshTotals);

    connect(m_unsaved, &QCheckBox::toggled, this, [this](bool unsaved) {
        m_preview->setView(unsaved ? SoulView::Unsaved : SoulView::OnDisk);
        m_tokenBar->setView(m_preview->view());
        refreshNote();
        m_totalsTimer.start();
    });
    connect(m_invisibles, &QCheckBox::toggled, m_preview, &SoulPreview::setShowInvisibles);
    connect(m_copySha, &QToolButton::clicked, this, [this] {
        if (!m_sha.isEmpty())
            QGuiApplication::clipboard()->setText(m_sha);
    });
    connect(model, &PersonaModel::sectionChanged, this, &PreviewPanel::sectionChanged);
    connect(model, &PersonaModel::slotStateChanged, this, [this] { refreshNote(); });
    connect(model, &PersonaModel::directoryLostChanged, this, [this] { refreshNote(); });
}

void PreviewPanel::setTokenCounter(SoulTokenCounter *counter)
{
    m_tokenBar->setCounter(counter);
}

void PreviewPanel::rebuild()
{
    m_preview->rebuild();
    refreshNote();
    refreshTotals();
}

void PreviewPanel::sectionChanged(int slot)
{
    m_preview->updateSection(slot);
    m_totalsTimer.start();
}

void PreviewPanel::refreshNote()
{
    QStringList names;
    for (int k : m_model->unsavedSlots())
        names.append(slotName(k));
    const bool unsavedView = m_preview->view() == SoulView::Unsaved;
    if (m_model->directoryLost()) {
        // Nothing here is on disk any more: the files went with the folder.
        m_unsavedNote->setText(
            unsavedView ? tr("The folder is missing: this is the panes' text, which is not on "
                             "disk until you save it elsewhere.")
                        : tr("The folder is missing: this is what was last read from it, and "
                             "an agent starting now gets none of it."));
    } else if (names.isEmpty()) {
        m_unsavedNote->setText(unsavedView ? tr("No unsaved edits: this is what is on disk.")
                                           : tr("What is on disk: what an agent starting now "
                                                "gets."));
    } else if (unsavedView) {
        m_unsavedNote->setText(
            tr("Includes unsaved edits in %1.").arg(names.join(QStringLiteral(", "))));
    } else {
        m_unsavedNote->setText(tr("What is on disk; unsaved edits in %1 are not shown.")
                                   .arg(names.join(QStringLiteral(", "))));
    }
}

void PreviewPanel::refreshTotals()
{
    if (!m_model->isOpen()) {
        m_totals->clear();
        m_sha.clear();
        Q_EMIT totalsUpdated();
        return;
    }
    const SoulView view = m_preview->view();
    const QByteArray soul = m_model->soul(view);
    m_sha = QString::fromLatin1(QCryptographicHash::hash(soul, QCryptographicHash::Sha256).toHex());
    const QStringList found = m_model->found(view);
    m_totals->setText(tr("%1 bytes · found: %2 · SHA-256 %3…")
                          .arg(formatCount(soul.size()),
                               found.isEmpty() ? tr("none") : found.join(QStringLiteral(", ")),
                               m_sha.left(12)));
    m_totals->setToolTip(tr("SHA-256: %1").arg(m_sha));
    Q_EMIT totalsUpdated();
}

} // namespace soul
