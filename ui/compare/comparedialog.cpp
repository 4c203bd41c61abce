#include "comparedialog.h"

#include "comparecontroller.h"
#include "runtime/runtime.h"

#include <QCheckBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace soul {

CompareDialog::CompareDialog(CompareController *controller, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
{
    setWindowTitle(tr("Compare with snapshot"));
    setModal(false);
    resize(900, 700);

    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    m_error->hide();
    m_prefix = new QLabel(this);
    m_prefix->setWordWrap(true);
    m_prefix->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_prefix->setAccessibleName(tr("Cache-stable prefix"));
    QFont bold = m_prefix->font();
    bold.setBold(true);
    m_prefix->setFont(bold);
    m_jump = new QPushButton(tr("&Go to the First Change"), this);
    m_jump->setEnabled(false);
    m_reuse = new QLabel(this);
    m_reuse->setWordWrap(true);
    m_reuse->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sections = new QLabel(this);
    m_sections->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diff = new QTextBrowser(this);
    m_diff->setLineWrapMode(QTextEdit::NoWrap);
    m_diff->setAccessibleName(tr("Diff of the changed sections"));
    m_invisibles = new QCheckBox(tr("Show &invisibles"), this);
    // The controller may have compared before, for an earlier dialog.
    m_invisibles->setChecked(m_controller->showInvisibles());
    m_invisibles->setToolTip(
        tr("Marks tabs, trailing spaces, NUL, byte order marks and CRs in the diff, as the "
           "preview does"));

    auto *prefixRow = new QHBoxLayout;
    prefixRow->addWidget(m_prefix, 1);
    prefixRow->addWidget(m_jump, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_error);
    layout->addLayout(prefixRow);
    layout->addWidget(m_reuse);
    layout->addWidget(m_sections);
    layout->addWidget(m_invisibles);
    layout->addWidget(m_diff, 1);

    connect(m_controller, &CompareController::updated, this, &CompareDialog::showResult);
    connect(m_controller, &CompareController::diffUpdated, this, [this] {
        m_diff->setHtml(m_controller->diffHtml());
    });
    connect(m_invisibles, &QCheckBox::toggled, m_controller, &CompareController::setShowInvisibles);
    connect(m_jump, &QPushButton::clicked, this, [this] {
        if (m_controller->hasResult() && m_controller->result().firstChange) {
            const QPair<qint64, qint64> place = m_controller->firstChangePlace();
            Q_EMIT jumpRequested(m_controller->result().firstChange->slot,
                                 place.first,
                                 place.second);
        }
    });
}

void CompareDialog::compareWith(const QString &soulPath)
{
    m_diff->clear();
    m_controller->open(soulPath);
    showResult();
}

void CompareDialog::showResult()
{
    const QString which = m_controller->view() == SoulView::Unsaved
                              ? tr("the soul with unsaved edits")
                              : tr("the soul on disk");
    if (const Runtime *runtime = m_controller->runtime()) {
        // Like with like: the snapshot holds what the runtime injected, and
        // the persona is composed for it now, by the snapshot's settings.
        const QString what = m_controller->view() == SoulView::Unsaved
                                 ? tr("what %1 injects of the persona with unsaved edits")
                                 : tr("what %1 injects of the persona on disk");
        m_title->setText(tr("Comparing %1 with the snapshot %2")
                             .arg(what.arg(runtime->displayName()),
                                  QDir::toNativeSeparators(m_controller->snapshotPath())));
    } else {
        m_title->setText(tr("Comparing %1 with the snapshot %2")
                             .arg(which, QDir::toNativeSeparators(m_controller->snapshotPath())));
    }
    const QString error = m_controller->error();
    m_error->setVisible(!error.isEmpty());
    if (!error.isEmpty()) {
        m_error->setText(tr("This snapshot cannot be compared: %1").arg(error));
        m_prefix->clear();
        m_reuse->clear();
        m_sections->clear();
        m_diff->clear();
        m_jump->setEnabled(false);
        return;
    }
    if (!m_controller->hasResult()) {
        m_prefix->setText(tr("Counting tokens…"));
        return;
    }
    const LiveComparison &result = m_controller->result();
    m_prefix->setText(m_controller->prefixSentence());
    m_jump->setEnabled(result.firstChange.has_value());
    QString reuse = tr("What a provider's prompt cache would reuse:")
                    + QStringLiteral("<ul style=\"margin:0\">");
    for (const QString &line : m_controller->reuseSentences())
        reuse += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
    reuse += QStringLiteral("</ul>");
    if (!m_controller->prefixNote().isEmpty())
        reuse += QStringLiteral("<p>%1</p>").arg(m_controller->prefixNote().toHtmlEscaped());
    m_reuse->setText(reuse);
    QString sections = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
    for (const RuntimeFileStatus &file : m_controller->fileStatuses()) {
        const SectionStatus s = file.status;
        const QString color = s == SectionStatus::Unchanged ? QStringLiteral("#555")
                              : s == SectionStatus::Added   ? QStringLiteral("#1b7f1b")
                              : s == SectionStatus::Removed ? QStringLiteral("#b00020")
                                                            : QStringLiteral("#a05a00");
        sections += QStringLiteral("<tr><td>%1&nbsp;&nbsp;</td><td style=\"color:%2\">%3</td></tr>")
                        .arg(file.name.toHtmlEscaped(),
                             color,
                             file.placed ? sectionStatusName(s)
                                         : tr("%1 (judged by the whole text: the snapshot "
                                              "does not say where this file stands)")
                                               .arg(sectionStatusName(s)));
    }
    sections += QStringLiteral("</table>");
    m_sections->setText(sections);
}

} // namespace soul
