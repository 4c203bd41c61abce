#include "previewpanel.h"

#include "counttext.h"
#include "persona/inspection.h"
#include "persona/personamodel.h"
#include "registry/runtimeregistry.h"
#include "runtimepreview.h"
#include "runtimetextview.h"
#include "soulpreview.h"
#include "text/whenshown.h"
#include "tokenbar.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <utility>

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

PreviewPanel::PreviewPanel(const PersonaModel *model, RuntimePreview *runtime, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_unsaved(new QCheckBox(tr("Include &unsaved edits"), this))
    , m_invisibles(new QCheckBox(tr("Show &invisibles"), this))
    , m_unsavedNote(new QLabel(this))
    , m_preview(new SoulPreview(model, this))
    , m_totals(new QLabel(this))
    , m_copySha(new QToolButton(this))
    , m_tokenBar(new TokenBar(this))
    , m_runtime(runtime)
    , m_runtimeChooser(new QComboBox(this))
    , m_runtimeSettings(new QWidget(this))
    , m_runtimeText(new RuntimeTextView(this))
    , m_runtimeTotals(new QLabel(this))
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
    layout->addLayout(buildRuntimeRow());
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_runtimeText, 1);
    layout->addWidget(m_runtimeTotals);
    layout->addWidget(m_tokenBar);
    layout->addLayout(totals);

    m_totalsTimer.setSingleShot(true);
    m_totalsTimer.setInterval(TotalsDelayMs);
    connect(&m_totalsTimer, &QTimer::timeout, this, &PreviewPanel::refreshTotals);
    m_sectionsShown = new WhenShown(m_preview, [this] {
        for (const int slot : std::exchange(m_sectionsDue, {}))
            m_preview->updateSection(slot);
    });
    m_totalsShown = new WhenShown(this, [this] {
        digestOutdated();
        m_totalsTimer.start();
    });
    connect(&m_digest, &QFutureWatcher<QByteArray>::finished, this, &PreviewPanel::digestArrived);

    connect(m_unsaved, &QCheckBox::toggled, this, [this](bool unsaved) {
        m_preview->setView(unsaved ? SoulView::Unsaved : SoulView::OnDisk);
        m_tokenBar->setView(m_preview->view());
        m_runtime->setView(m_preview->view());
        refreshNote();
        digestOutdated();
        m_totalsTimer.start();
    });
    connect(m_invisibles, &QCheckBox::toggled, m_preview, &SoulPreview::setShowInvisibles);
    connect(m_invisibles, &QCheckBox::toggled, this, &PreviewPanel::showRuntime);
    connect(m_runtime, &RuntimePreview::compositionChanged, this, &PreviewPanel::showRuntime);
    connect(m_runtime, &RuntimePreview::profileChanged, this, &PreviewPanel::showProfile);
    connect(m_copySha, &QToolButton::clicked, this, [this] {
        const QString sha = shownSha256();
        if (!sha.isEmpty())
            QGuiApplication::clipboard()->setText(sha);
    });
    connect(model, &PersonaModel::sectionChanged, this, &PreviewPanel::sectionChanged);
    connect(model, &PersonaModel::slotStateChanged, this, [this] { refreshNote(); });
    connect(model, &PersonaModel::directoryLostChanged, this, [this] { refreshNote(); });
    // The runtime's file joins the note while the runtime reads it.
    connect(m_runtime, &RuntimePreview::profileChanged, this, [this] { refreshNote(); });
    showProfile(m_runtime->profile());
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
    if (!m_sectionsDue.contains(slot))
        m_sectionsDue.append(slot);
    m_sectionsShown->request();
    m_totalsShown->request();
}

void PreviewPanel::refreshNote()
{
    QStringList names;
    for (int k : m_model->unsavedSlots())
        names.append(m_model->slotLabel(k));
    // The runtime's own file is part of what it reads, unsaved text and all.
    if (const int doc = m_runtime->readRuntimeDocument(); doc >= 0 && m_model->slot(doc).dirty)
        names.append(m_model->slotLabel(doc));
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
        return;
    }
    const SoulView view = m_preview->view();
    // The parts share the model's sections: nothing is joined or copied here.
    QByteArrayList parts;
    const ComposeRule &rule = m_model->rule();
    for (const int k : rule.order) {
        std::optional<QByteArray> section = m_model->section(k, view);
        if (!section)
            continue;
        if (!parts.isEmpty())
            parts.append(rule.sectionJoin);
        parts.append(std::move(*section));
    }
    const qint64 size = m_model->soulSize(view);
    const QStringList found = m_model->found(view);
    m_totalsText = tr("%1 bytes · found: %2")
                       .arg(formatCount(size),
                            found.isEmpty() ? tr("none") : found.join(QStringLiteral(", ")));
    m_digestPending = true;
    m_digestGeneration = m_generation;
    m_digest.setFuture(QtConcurrent::run(soulDigest, parts, m_generation, m_latest));
    showTotals();
}

QLayout *PreviewPanel::buildRuntimeRow()
{
    for (const Runtime *runtime : RuntimeRegistry::instance().runtimes())
        m_runtimeChooser->addItem(runtime->displayName(), runtime->id());
    m_runtimeChooser->setAccessibleName(tr("Runtime"));
    m_runtimeChooser->setToolTip(tr("The agent runtime the preview, the panes' shading and "
                                    "the meters follow"));
    auto *runtimeLabel = new QLabel(tr("Ru&ntime:"), this);
    runtimeLabel->setBuddy(m_runtimeChooser);

    // The chosen runtime's settings, a row each under the chooser: side by
    // side they would make the panel wider when they appear, and every pane
    // and the preview would be laid out again at the new width.
    m_settingsForm = new QFormLayout(m_runtimeSettings);
    m_settingsForm->setContentsMargins(0, 0, 0, 0);
    m_settingsForm->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    m_runtimeSettings->hide();

    m_runtimeText->setAccessibleName(tr("What the runtime injects"));
    m_runtimeText->hide();
    m_runtimeTotals->setWordWrap(true);
    m_runtimeTotals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runtimeTotals->hide();

    connect(m_runtimeChooser, &QComboBox::currentIndexChanged, this, &PreviewPanel::chooseRuntime);

    auto *row = new QHBoxLayout;
    row->addWidget(runtimeLabel);
    row->addWidget(m_runtimeChooser);
    row->addStretch(1);
    auto *rows = new QVBoxLayout;
    rows->addLayout(row);
    rows->addWidget(m_runtimeSettings);
    return rows;
}

void PreviewPanel::buildSettings(const Runtime &runtime)
{
    while (m_settingsForm->rowCount() > 0)
        m_settingsForm->removeRow(0);
    m_settingBoxes.clear();
    m_settingChecks.clear();
    const RuntimeSettings values = m_runtime->settingsFor(runtime.id());
    for (const RuntimeSetting &setting : runtime.settings()) {
        const qint64 value = values.value(setting.key, setting.defaultValue);
        const QString tip = tr("%1 (default %2)")
                                .arg(setting.toolTip,
                                     setting.flag ? (setting.defaultValue ? tr("on") : tr("off"))
                                                  : formatCount(setting.defaultValue));
        if (setting.flag) {
            auto *check = new QCheckBox(setting.label, m_runtimeSettings);
            check->setChecked(value != 0);
            check->setToolTip(tip);
            check->setAccessibleName(setting.key);
            connect(check, &QCheckBox::toggled, this, &PreviewPanel::chooseRuntime);
            m_settingsForm->addRow(QString(), check);
            m_settingChecks.insert(setting.key, check);
            continue;
        }
        auto *box = new QSpinBox(m_runtimeSettings);
        box->setRange(int(qMin<qint64>(setting.minimum, INT_MAX)),
                      int(qMin<qint64>(setting.maximum, INT_MAX)));
        box->setGroupSeparatorShown(true);
        box->setSpecialValueText(setting.minimumText);
        box->setValue(int(qBound<qint64>(setting.minimum, value, setting.maximum)));
        box->setAccessibleName(setting.key);
        box->setToolTip(tip);
        connect(box, &QSpinBox::valueChanged, this, &PreviewPanel::chooseRuntime);
        m_settingsForm->addRow(setting.label, box);
        m_settingBoxes.insert(setting.key, box);
    }
}

void PreviewPanel::showProfile(const RuntimeProfile &profile)
{
    const QSignalBlocker chooser(m_runtimeChooser);
    m_runtimeChooser->setCurrentIndex(qMax(0, m_runtimeChooser->findData(profile.id())));
    if (m_settingsRuntime != profile.runtime) {
        m_settingsRuntime = profile.runtime;
        buildSettings(*profile.runtime);
    } else {
        for (auto it = m_settingBoxes.cbegin(); it != m_settingBoxes.cend(); ++it) {
            const QSignalBlocker blocker(it.value());
            it.value()->setValue(int(profile.runtime->setting(profile.settings, it.key())));
        }
        for (auto it = m_settingChecks.cbegin(); it != m_settingChecks.cend(); ++it) {
            const QSignalBlocker blocker(it.value());
            it.value()->setChecked(profile.runtime->setting(profile.settings, it.key()) != 0);
        }
    }
    const bool other = !profile.sectioned();
    if (!other) {
        // Another runtime's text goes before the soul preview is rebuilt, so
        // the two are never held at once.
        m_runtimeText->setBlocks({});
        m_runtimeText->clearText();
    }
    m_runtimeSettings->setVisible(other && m_settingsForm->rowCount() > 0);
    m_preview->setVisible(!other);
    m_preview->setSuspended(other);
    m_runtimeText->setVisible(other);
    m_runtimeTotals->setVisible(other);
    // The soul's bytes, tokens and SHA-256 are of the sections; another
    // runtime's figures are in the line above them.
    m_totals->setVisible(!other);
    m_tokenBar->setVisible(!other);
    m_copySha->setEnabled(other ? !m_runtimeSha.isEmpty() : !m_sha.isEmpty());
}

RuntimeProfile PreviewPanel::runtimeProfile() const
{
    return m_runtime->profile();
}

QString PreviewPanel::shownSha256() const
{
    return m_runtime->profile().sectioned() ? m_sha : m_runtimeSha;
}

QPlainTextEdit *PreviewPanel::runtimeText() const
{
    return m_runtimeText;
}

QSpinBox *PreviewPanel::settingBox(const QString &key) const
{
    return m_settingBoxes.value(key);
}

QCheckBox *PreviewPanel::settingCheck(const QString &key) const
{
    return m_settingChecks.value(key);
}

void PreviewPanel::chooseRuntime()
{
    const Runtime *runtime = RuntimeRegistry::instance().find(
        m_runtimeChooser->currentData().toString());
    RuntimeSettings values = m_runtime->settingsFor(runtime ? runtime->id() : QString());
    if (runtime && runtime == m_settingsRuntime) {
        for (auto it = m_settingBoxes.cbegin(); it != m_settingBoxes.cend(); ++it)
            values.insert(it.key(), it.value()->value());
        for (auto it = m_settingChecks.cbegin(); it != m_settingChecks.cend(); ++it)
            values.insert(it.key(), it.value()->isChecked() ? 1 : 0);
    }
    // The session applies and remembers it; the panel shows it then.
    m_runtime->choose(RuntimeProfile::of(runtime, values));
}

void PreviewPanel::showRuntime()
{
    const RuntimeProfile profile = m_runtime->profile();
    if (profile.sectioned())
        return;
    const RuntimeComposition &composition = m_runtime->composition();
    // Only what changed is replaced: Hermes's text holds its memory files
    // whole, megabytes on a large persona.
    m_runtimeText->showText(composition.text, m_invisibles->isChecked());
    // Each block's name, files and exact tokens; the view marks the joins.
    QList<RuntimeTextView::Block> blocks;
    for (qsizetype i = 0; i < composition.blocks.size(); ++i) {
        const RuntimeBlock &block = composition.blocks.at(i);
        QString label = block.source.isEmpty() ? block.name
                                               : tr("%1 (%2)").arg(block.name, block.source);
        const qint64 tokens = m_runtime->blockTokens(i);
        label += tokens >= 0
                     ? tr(" · %1 tokens (%2)").arg(formatCount(tokens), m_runtime->encodingName())
                     : tr(" · counting tokens…");
        blocks.append({block.range, label, block.gapAfter});
    }
    m_runtimeText->setBlocks(blocks);
    QStringList cut;
    for (const RuntimeFileView &file : composition.files) {
        if (file.truncated)
            cut.append(file.name);
    }
    QString text;
    const qint64 total = composition.totalBudget;
    if (total > 0) {
        text = tr("%1 injects %2 of %3 characters (%4 %)")
                   .arg(profile.displayName(),
                        formatCount(composition.totalUsed),
                        formatCount(total))
                   .arg(double(composition.totalUsed) * 100.0 / double(total), 0, 'f', 1);
        if (composition.totalUsed >= Runtime::nearLimit(total))
            text += tr(", near the total budget");
    } else {
        text = tr("%1 injects %2 characters")
                   .arg(profile.displayName(), formatCount(composition.text.size()));
    }
    if (m_runtime->sectionTokens() >= 0) {
        text += tr(", %1 tokens (%2)")
                    .arg(formatCount(m_runtime->sectionTokens()), m_runtime->encodingName());
    }
    text += tr(" · cut: %1").arg(cut.isEmpty() ? tr("none") : cut.join(QStringLiteral(", ")));
    m_runtimeSha = m_runtime->textSha256();
    text += tr(" · SHA-256 %1…").arg(m_runtimeSha.left(12));
    m_runtimeTotals->setText(text);
    m_runtimeTotals->setToolTip(tr("SHA-256: %1").arg(m_runtimeSha));
    m_copySha->setEnabled(true);
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
}

void PreviewPanel::showTotals()
{
    if (m_totalsText.isEmpty())
        return;
    const QString digest = m_sha.isEmpty() ? tr("SHA-256 computing…")
                                           : tr("SHA-256 %1…").arg(m_sha.left(12));
    m_totals->setText(m_totalsText + QStringLiteral(" · ") + digest);
    m_totals->setToolTip(m_sha.isEmpty() ? QString() : tr("SHA-256: %1").arg(m_sha));
    m_copySha->setEnabled(!shownSha256().isEmpty());
}

} // namespace soul
