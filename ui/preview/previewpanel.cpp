#include "previewpanel.h"

#include "inspection.h"
#include "lint.h"
#include "personamodel.h"
#include "soulpreview.h"

#include <QCheckBox>
#include <QClipboard>
#include <QCryptographicHash>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

namespace soul {

namespace {

constexpr int TotalsDelayMs = 120;
constexpr qsizetype DigestChunkBytes = 1 << 20;

// The soul's SHA-256 (hex) from its parts, read in chunks so that a newer
// edit (`latest` moved past `generation`) stops the work early; the result
// is then empty and unused.
QByteArray soulDigest(const QByteArrayList &parts,
                      quint64 generation,
                      const std::shared_ptr<std::atomic<quint64>> &latest)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QByteArray &part : parts) {
        for (qsizetype at = 0; at < part.size(); at += DigestChunkBytes) {
            if (latest->load(std::memory_order_relaxed) != generation)
                return {};
            hash.addData(QByteArrayView(part).sliced(at, qMin(DigestChunkBytes, part.size() - at)));
        }
    }
    return hash.result().toHex();
}

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
    m_copySha->setEnabled(false);

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
    layout->addLayout(totals);

    m_totalsTimer.setSingleShot(true);
    m_totalsTimer.setInterval(TotalsDelayMs);
    connect(&m_totalsTimer, &QTimer::timeout, this, &PreviewPanel::refreshTotals);
    connect(&m_digest, &QFutureWatcher<QByteArray>::finished, this, &PreviewPanel::digestArrived);

    connect(m_unsaved, &QCheckBox::toggled, this, [this](bool unsaved) {
        m_preview->setView(unsaved ? SoulView::Unsaved : SoulView::OnDisk);
        refreshNote();
        digestOutdated();
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

void PreviewPanel::rebuild()
{
    m_preview->rebuild();
    refreshNote();
    refreshTotals();
}

void PreviewPanel::sectionChanged(int slot)
{
    m_preview->updateSection(slot);
    digestOutdated();
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

PreviewPanel::~PreviewPanel()
{
    // A digest still running stops at its next chunk.
    m_latest->store(++m_generation);
}

void PreviewPanel::refreshTotals()
{
    m_latest->store(++m_generation);
    m_sha.clear();
    if (!m_model->isOpen()) {
        m_digestPending = false;
        m_totalsText.clear();
        m_totals->clear();
        m_totals->setToolTip(QString());
        m_copySha->setEnabled(false);
        Q_EMIT totalsUpdated();
        return;
    }
    const SoulView view = m_preview->view();
    // The parts share the model's sections: nothing is joined or copied here.
    QByteArrayList parts;
    for (int k = 0; k < SlotCount; ++k) {
        std::optional<QByteArray> section = m_model->section(k, view);
        if (!section)
            continue;
        if (!parts.isEmpty())
            parts.append(QByteArray::fromRawData(SectionJoin, sizeof(SectionJoin) - 1));
        parts.append(std::move(*section));
    }
    const qint64 size = m_model->soulSize(view);
    const QStringList found = m_model->found(view);
    m_totalsText = tr("%1 bytes · about %2 tokens (approximate) · found: %3")
                       .arg(formatCount(size),
                            formatCount(approximateTokens(size)),
                            found.isEmpty() ? tr("none") : found.join(QStringLiteral(", ")));
    m_digestPending = true;
    m_digestGeneration = m_generation;
    m_digest.setFuture(QtConcurrent::run(soulDigest, parts, m_generation, m_latest));
    showTotals();
    Q_EMIT totalsUpdated();
}

void PreviewPanel::digestOutdated()
{
    m_latest->store(++m_generation);
    if (m_sha.isEmpty())
        return;
    // Once per pause in typing: the digest shown is no longer the text's.
    m_sha.clear();
    showTotals();
}

void PreviewPanel::digestArrived()
{
    if (m_digestGeneration != m_generation)
        return; // an edit came meanwhile; its own digest follows the pause
    m_digestPending = false;
    m_sha = QString::fromLatin1(m_digest.result());
    showTotals();
    Q_EMIT totalsUpdated();
}

void PreviewPanel::showTotals()
{
    if (m_totalsText.isEmpty())
        return;
    const QString digest = m_sha.isEmpty() ? tr("SHA-256 computing…")
                                           : tr("SHA-256 %1…").arg(m_sha.left(12));
    m_totals->setText(m_totalsText + QStringLiteral(" · ") + digest);
    m_totals->setToolTip(m_sha.isEmpty() ? QString() : tr("SHA-256: %1").arg(m_sha));
    m_copySha->setEnabled(!m_sha.isEmpty());
}

} // namespace soul
