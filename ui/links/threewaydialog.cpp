#include "threewaydialog.h"

#include "diff/diffhtml.h"
#include "diff/souldiff.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace soul {

namespace {

// Past this a diff is not shown: marking the words of a megabyte of changed
// lines and laying out its spans takes seconds, and nobody reads a diff that
// long in a dialog. Checked on the unified diff before any HTML is built,
// then on the HTML (which marks words and invisibles, so it grows past the
// diff).
constexpr qsizetype MaxDiffBytes = qsizetype(512) << 10;
constexpr qsizetype MaxDiffHtml = qsizetype(2) << 20;

QString paragraph(const QString &sentence)
{
    return QStringLiteral("<p>%1</p>").arg(sentence.toHtmlEscaped());
}

// The diff of `before` against `after` as HTML, `same` when they are equal,
// a sentence when the diff is too large to show. The texts are diffed as
// bytes; only the diff is decoded (as the panes decode, each invalid UTF-8
// sequence one U+FFFD), so any bytes of any length stay as cheap as their
// lines.
QString diffHtml(const QByteArray &before,
                 const QString &beforeLabel,
                 const QByteArray &after,
                 const QString &afterLabel,
                 const QString &same)
{
    if (before == after)
        return paragraph(same);
    SectionedSoul a;
    a.label = beforeLabel;
    a.soul = before;
    SectionedSoul b;
    b.label = afterLabel;
    b.soul = after;
    const QByteArray diff = unifiedSoulDiff(a, b);
    const auto tooLarge = [](qsizetype bytes) {
        return paragraph(ThreeWayDialog::tr("This diff is too large to show here (%1). Compare "
                                            "the two texts in a diff program.")
                             .arg(QLocale().formattedDataSize(bytes)));
    };
    if (diff.size() > MaxDiffBytes)
        return tooLarge(diff.size());
    // Invisibles are marked: a copy an agent rewrote may differ only by
    // line ends or trailing spaces, and the diff must show where.
    QString html = textDiffHtml(QString(), diff, true);
    if (html.size() > MaxDiffHtml)
        return tooLarge(diff.size());
    return html;
}

QLabel *wrappedLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QTextBrowser *diffView(QWidget *parent)
{
    auto *view = new QTextBrowser(parent);
    view->setLineWrapMode(QTextEdit::NoWrap);
    view->setOpenLinks(false);
    return view;
}

// A bold caption over a diff view, a little room above it for the
// sentences over the panel.
QWidget *captionedView(QWidget *parent, const QFont &bold, QLabel **caption, QTextBrowser **view)
{
    auto *panel = new QWidget(parent);
    *caption = wrappedLabel(panel);
    (*caption)->setFont(bold);
    *view = diffView(panel);
    (*caption)->setBuddy(*view);
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->addWidget(*caption);
    layout->addWidget(*view, 1);
    return panel;
}

} // namespace

ThreeWayDialog::ThreeWayDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("A copy differs from its group"));
    resize(900, 720);

    m_heading = wrappedLabel(this);
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    m_note = wrappedLabel(this);

    QWidget *copyPanel = captionedView(this, bold, &m_copyCaption, &m_copyView);
    m_groupPanel = captionedView(this, bold, &m_groupCaption, &m_groupView);

    // Stacked: a persona file's lines are long paragraphs, and a unified
    // diff reads better at full width than in half of it.
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(copyPanel);
    splitter->addWidget(m_groupPanel);

    m_adopt = new QPushButton(tr("&Adopt into the group"), this);
    m_adopt->setAutoDefault(false);
    m_leave = new QPushButton(tr("&Leave the group"), this);
    m_leave->setAutoDefault(false);
    m_close = new QPushButton(tr("Close"), this);
    m_close->setToolTip(tr("Decides nothing now: every copy stays as it is."));
    // Enter must not adopt or leave by accident.
    m_close->setDefault(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_adopt);
    buttons->addWidget(m_leave);
    buttons->addStretch(1);
    buttons->addWidget(m_close);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_note);
    layout->addWidget(splitter, 1);
    layout->addLayout(buttons);

    connect(m_adopt, &QPushButton::clicked, this, [this] {
        m_choice = Choice::Adopt;
        accept();
    });
    connect(m_leave, &QPushButton::clicked, this, [this] {
        m_choice = Choice::Leave;
        accept();
    });
    connect(m_close, &QPushButton::clicked, this, &QDialog::reject);
}

void ThreeWayDialog::setTexts(const ThreeWayTexts &texts)
{
    m_choice = Choice::Close;
    setWindowTitle(tr("%1 of %2 differs from its group").arg(texts.file, texts.agent));
    m_heading->setText(texts.others.isEmpty()
                           ? tr("%1 of %2 differs from the group %3's text.")
                                 .arg(texts.file, texts.agent, texts.group)
                           : tr("%1 of %2 differs from the group %3's text (shared with %4).")
                                 .arg(texts.file,
                                      texts.agent,
                                      texts.group,
                                      texts.others.join(QStringLiteral(", "))));

    const QString copyLabel = tr("%1's copy").arg(texts.agent);
    const QString lastLabel = tr("the group's last text");
    const QString nowLabel = tr("the group's text now");
    const bool lastKept = !texts.lastGroup.isEmpty();
    if (lastKept) {
        m_note->setText(tr("The group last wrote the same text to every copy. Below, what %1's "
                           "copy on disk changed since, and what the group's text (in the panes, "
                           "saved or not) changed since.")
                            .arg(texts.agent));
        m_copyCaption->setText(tr("What %1's copy changed").arg(texts.agent));
        m_copyHtml = diffHtml(texts.lastGroup,
                              lastLabel,
                              texts.thisCopy,
                              copyLabel,
                              tr("Nothing: %1's copy is still what the group last wrote.")
                                  .arg(texts.agent));
        m_groupCaption->setText(tr("What the group changed since"));
        m_groupHtml = diffHtml(texts.lastGroup,
                               lastLabel,
                               texts.groupNow,
                               nowLabel,
                               tr("Nothing: the group's text is still what it last wrote."));
    } else {
        m_note->setText(tr("The group's last text is not kept, so what %1 changed cannot be told "
                           "from what the group changed. Below, the group's text now (in the "
                           "panes, saved or not) against %1's copy on disk.")
                            .arg(texts.agent));
        m_copyCaption->setText(
            tr("How %1's copy differs from the group's text now").arg(texts.agent));
        m_copyHtml = diffHtml(texts.groupNow,
                              nowLabel,
                              texts.thisCopy,
                              copyLabel,
                              tr("Nothing: %1's copy is the group's text now.").arg(texts.agent));
        m_groupHtml.clear();
    }
    m_copyView->setHtml(m_copyHtml);
    m_copyView->setAccessibleName(m_copyCaption->text());
    m_groupView->setHtml(m_groupHtml);
    m_groupView->setAccessibleName(m_groupCaption->text());
    m_groupPanel->setVisible(lastKept);

    m_adopt->setToolTip(tr("%1's copy becomes the group's text: every member's pane of %2 takes "
                           "it as an unsaved edit, and Save writes it to every copy.")
                            .arg(texts.agent, texts.file));
    m_leave->setToolTip(tr("%1 leaves the group and keeps its own %2 as it is; the group file "
                           "soul-links.json is rewritten without it.")
                            .arg(texts.agent, texts.file));
}

} // namespace soul
