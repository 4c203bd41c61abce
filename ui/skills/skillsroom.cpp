#include "skillsroom.h"

#include "personasession.h"
#include "runtime/runtime.h"
#include "skillssession.h"
#include "text/documentchange.h"
#include "window/roomhost.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace soul {

namespace {

enum Column { NameColumn, SourceColumn, StateColumn, CharsColumn, ColumnCount };

// What became of the skill, in the room's words.
QString stateText(const SkillItem &skill)
{
    if (!skill.loaded)
        return QObject::tr("not read: %1").arg(skill.problem);
    if (!skill.winner)
        return QObject::tr("replaced by %1").arg(skill.shadowedBy);
    if (!skill.eligible)
        return QObject::tr("left out: %1").arg(skill.whyNot);
    switch (skill.fate) {
    case SkillFate::Kept:
        return QObject::tr("listed");
    case SkillFate::Shortened:
        return QObject::tr("listed, description shortened for the budget");
    case SkillFate::Dropped:
        return QObject::tr("dropped: the list is over its budget");
    case SkillFate::Unlisted:
        break;
    }
    return QObject::tr("not listed");
}

bool sameLints(const QHash<QString, QList<Lint>> &a, const QHash<QString, QList<Lint>> &b)
{
    if (a.size() != b.size())
        return false;
    for (auto it = a.cbegin(); it != a.cend(); ++it) {
        const auto other = b.constFind(it.key());
        if (other == b.cend() || other->size() != it->size())
            return false;
        for (qsizetype i = 0; i < it->size(); ++i) {
            if (it->at(i).level != other->at(i).level || it->at(i).message != other->at(i).message)
                return false;
        }
    }
    return true;
}

bool inPrompt(const SkillItem &skill)
{
    return skill.loaded && skill.winner && skill.eligible
           && (skill.fate == SkillFate::Kept || skill.fate == SkillFate::Shortened);
}

} // namespace

SkillsRoom::SkillsRoom(RoomHost *host)
    : QObject(host)
    , m_host(host)
    , m_dock(new QDockWidget(tr("Skills"), host->window()))
{
    m_dock->setObjectName(QStringLiteral("skillsDock"));
    auto *inside = new QWidget(m_dock);
    auto *layout = new QVBoxLayout(inside);
    m_summary = new QLabel(inside);
    m_summary->setObjectName(QStringLiteral("skillsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem = new QLabel(inside);
    m_problem->setObjectName(QStringLiteral("skillsProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("color: palette(highlight);"));
    m_problem->hide();
    layout->addWidget(m_summary);
    layout->addWidget(m_problem);

    auto *split = new QSplitter(Qt::Vertical, inside);
    m_tree = new QTreeWidget(split);
    m_tree->setObjectName(QStringLiteral("skillTree"));
    m_tree->setHeaderLabels({tr("Skill"), tr("Source"), tr("In the prompt"), tr("Chars")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(StateColumn, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_text = new QPlainTextEdit(split);
    m_text->setObjectName(QStringLiteral("skillsText"));
    m_text->setReadOnly(true);
    m_text->setUndoRedoEnabled(false);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("No skill reaches the prompt."));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    auto *buttons = new QHBoxLayout;
    m_new = new QPushButton(tr("&New Skill…"), inside);
    m_open = new QPushButton(tr("&Open"), inside);
    m_rename = new QPushButton(tr("Re&name…"), inside);
    m_remove = new QPushButton(tr("Re&move…"), inside);
    m_new->setToolTip(tr("A folder under skills/ with a SKILL.md naming it (Insert)"));
    m_open->setToolTip(tr("Edit the SKILL.md in a pane beside the slots (Return)"));
    m_rename->setToolTip(tr("Rename the skill's folder and its name in SKILL.md (F2)"));
    m_remove->setToolTip(tr("Move the skill's folder to the trash (Delete)"));
    for (QPushButton *button : {m_new, m_open, m_rename, m_remove})
        buttons->addWidget(button);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    m_dock->setWidget(inside);
    // The room's key puts the keyboard in the list.
    inside->setFocusProxy(m_tree);
    m_dock->setFocusProxy(m_tree);

    const auto addKey = [this](const QKeySequence &key, void (SkillsRoom::*slot)()) {
        auto *action = new QAction(m_dock);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_dock->addAction(action);
        connect(action, &QAction::triggered, this, slot);
    };
    addKey(QKeySequence(Qt::Key_Insert), &SkillsRoom::newSkill);
    addKey(QKeySequence(Qt::Key_F2), &SkillsRoom::renameSkill);
    addKey(QKeySequence(Qt::Key_Delete), &SkillsRoom::removeSkill);
    addKey(QKeySequence(Qt::Key_F5), &SkillsRoom::show); // the list as it is now
    connect(m_new, &QPushButton::clicked, this, &SkillsRoom::newSkill);
    connect(m_open, &QPushButton::clicked, this, &SkillsRoom::openSkill);
    connect(m_rename, &QPushButton::clicked, this, &SkillsRoom::renameSkill);
    connect(m_remove, &QPushButton::clicked, this, &SkillsRoom::removeSkill);
    connect(m_tree, &QTreeWidget::itemActivated, this, &SkillsRoom::openSkill);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &SkillsRoom::updateButtons);

    m_askName = [this](const QString &title, const QString &initial) {
        bool ok = false;
        const QString name = QInputDialog::getText(m_dock,
                                                   title,
                                                   tr("Name (a folder name):"),
                                                   QLineEdit::Normal,
                                                   initial,
                                                   &ok);
        return ok ? name.trimmed() : QString();
    };
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(m_dock,
                                     tr("Remove Skill"),
                                     question,
                                     QMessageBox::Yes | QMessageBox::Cancel,
                                     QMessageBox::Cancel)
               == QMessageBox::Yes;
    };

    connect(host, &RoomHost::sessionChanged, this, &SkillsRoom::sessionShown);
    // A closed dock reads nothing: the list is read when it is shown.
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_skills)
            sessionShown();
    });
    host->addDock(m_dock, tr("S&kills"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_K));
    sessionShown();
}

SkillsRoom::~SkillsRoom() = default;

void SkillsRoom::sessionShown()
{
    PersonaSession *session = m_host->session();
    if (session != m_session || !m_skills) {
        m_skills.reset();
        m_session = session;
        if (m_session && m_dock->isVisible()) {
            m_skills = std::make_unique<SkillsSession>(m_session);
            connect(m_skills.get(), &SkillsSession::changed, this, &SkillsRoom::show);
        }
    }
    show();
}

QString SkillsRoom::shownText() const
{
    return m_text->toPlainText();
}

void SkillsRoom::show()
{
    const QString selected = currentPath();
    const bool available = m_skills && m_skills->available();
    m_new->setEnabled(available);
    if (!available) {
        m_tree->clear();
        m_text->clear();
        const Runtime *runtime = m_session ? m_session->runtimeProfile().runtime : nullptr;
        m_summary->setText(!m_session ? tr("Open a persona to see its skills.")
                           : runtime && !runtime->listsSkills()
                               ? tr("%1 puts no skills list in its prompt. Choose a runtime that "
                                    "does (OpenClaw, Hermes) to see and edit the agent's skills.")
                                     .arg(runtime->displayName())
                               : tr("Reading the skills…"));
        m_problem->hide();
        updateButtons();
        return;
    }
    const SkillsList &list = m_skills->list();
    m_problem->setVisible(!m_skills->error().isEmpty());
    m_problem->setText(m_skills->error());
    const QLocale locale;
    QString summary = tr("%1 of %2 skills in the prompt: %3 characters")
                          .arg(list.listed)
                          .arg(list.skills.size())
                          .arg(locale.toString(qint64(list.prompt.size())));
    if (list.maxChars >= 0)
        summary += tr(" of %1").arg(locale.toString(qint64(list.maxChars)));
    summary += m_skills->promptTokens() >= 0
                   ? tr(", %1 tokens (o200k_base).").arg(locale.toString(m_skills->promptTokens()))
                   : tr(".");
    if (!list.bundledHow.isEmpty()) {
        summary
            += QLatin1Char(' ')
               + (list.bundledDir.isEmpty()
                      ? tr("No bundled skills folder found.")
                      : tr("Bundled skills from %1 (%2).").arg(list.bundledDir, list.bundledHow));
    }
    if (m_skills->busy())
        summary += QLatin1Char(' ') + tr("Updating…");
    m_summary->setText(summary);

    // Rows are updated in place while the skills are the same ones (typing in
    // a SKILL.md changes a row's figures, not the rows): a keystroke does not
    // rebuild a list of hundreds.
    const QSignalBlocker quiet(m_tree);
    bool sameRows = m_tree->topLevelItemCount() == list.skills.size();
    for (int i = 0; sameRows && i < list.skills.size(); ++i) {
        sameRows = m_tree->topLevelItem(i)->data(NameColumn, Qt::UserRole).toString()
                   == list.skills.at(i).filePath;
    }
    if (!sameRows)
        m_tree->clear();
    QTreeWidgetItem *current = nullptr;
    const QColor grey = m_tree->palette().color(QPalette::Disabled, QPalette::Text);
    const QColor normal = m_tree->palette().color(QPalette::Active, QPalette::Text);
    for (int i = 0; i < list.skills.size(); ++i) {
        const SkillItem &skill = list.skills.at(i);
        QTreeWidgetItem *item = sameRows ? m_tree->topLevelItem(i) : new QTreeWidgetItem(m_tree);
        const QString chars = inPrompt(skill) ? locale.toString(qint64(skill.entryChars))
                                              : QString();
        const QString state = stateText(skill);
        if (sameRows && item->text(NameColumn) == skill.name && item->text(StateColumn) == state
            && item->text(CharsColumn) == chars && item->text(SourceColumn) == skill.source) {
            if (skill.filePath == selected)
                current = item;
            continue;
        }
        item->setText(NameColumn, skill.name);
        item->setText(SourceColumn, skill.source);
        item->setText(StateColumn, state);
        item->setText(CharsColumn, chars);
        item->setTextAlignment(CharsColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setData(NameColumn, Qt::UserRole, skill.filePath);
        QStringList tip{skill.filePath, state};
        for (const Lint &lint : skill.lints)
            tip << lint.message;
        for (int column = 0; column < ColumnCount; ++column) {
            item->setToolTip(column, tip.join(QLatin1Char('\n')));
            item->setForeground(column, inPrompt(skill) ? normal : grey);
        }
        item->setIcon(NameColumn,
                      skill.lints.isEmpty()
                          ? QIcon()
                          : m_tree->style()->standardIcon(QStyle::SP_MessageBoxWarning));
        if (skill.filePath == selected)
            current = item;
    }
    if (!sameRows) {
        for (int column = 0; column < ColumnCount; ++column) {
            if (column != StateColumn)
                m_tree->resizeColumnToContents(column);
        }
    }
    if (!current && m_tree->topLevelItemCount() > 0)
        current = m_tree->topLevelItem(0);
    if (current)
        m_tree->setCurrentItem(current);
    QHash<QString, QList<Lint>> byFile;
    for (const SkillItem &skill : list.skills) {
        QList<Lint> lints = skill.lints;
        if (!inPrompt(skill)) {
            lints.prepend({skill.filePath,
                           -1,
                           LintLevel::Info,
                           QStringLiteral("skill-state"),
                           tr("Not in the prompt: %1.").arg(stateText(skill))});
        }
        byFile.insert(skill.filePath, lints);
    }
    if (!sameLints(byFile, m_lints)) {
        m_lints = byFile;
        Q_EMIT skillLintsChanged(m_lints);
    }
    // The text follows as one edit of the range that changed.
    replaceAsOneEdit(m_text, list.prompt);

    updateButtons();
}

void SkillsRoom::updateButtons()
{
    const QString path = currentPath();
    const bool own = m_skills && !path.isEmpty()
                     && path.startsWith(m_skills->skillsFolder() + QLatin1Char('/'));
    m_open->setEnabled(own);
    m_rename->setEnabled(own);
    m_remove->setEnabled(own);
}

QString SkillsRoom::currentPath() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(NameColumn, Qt::UserRole).toString() : QString();
}

void SkillsRoom::say(const QString &sentence)
{
    m_problem->setText(sentence);
    m_problem->setVisible(!sentence.isEmpty());
}

void SkillsRoom::newSkill()
{
    if (!m_skills || !m_skills->available())
        return;
    const QString name = m_askName(tr("New Skill"), QString());
    if (name.isEmpty())
        return;
    const Result<QString> made
        = m_skills->createSkill(name, tr("What %1 does, and when to use it.").arg(name));
    if (!made) {
        say(made.error());
        return;
    }
    say({});
    Q_EMIT openRequested(*made);
}

void SkillsRoom::renameSkill()
{
    const QString path = currentPath();
    if (!m_skills || path.isEmpty() || !m_rename->isEnabled())
        return;
    const QString old = QFileInfo(QFileInfo(path).absolutePath()).fileName();
    const QString name = m_askName(tr("Rename Skill"), old);
    if (name.isEmpty() || name == old)
        return;
    const Result<QString> renamed = m_skills->renameSkill(path, name);
    say(renamed ? QString() : renamed.error());
}

void SkillsRoom::removeSkill()
{
    const QString path = currentPath();
    if (!m_skills || path.isEmpty() || !m_remove->isEnabled())
        return;
    const QString folder = QFileInfo(path).absolutePath();
    if (!m_confirm(tr("Move the skill folder %1, and everything in it, to the trash?").arg(folder)))
        return;
    const Result<QString> removed = m_skills->removeSkill(path);
    say(removed ? QString() : removed.error());
}

void SkillsRoom::openSkill()
{
    const QString path = currentPath();
    if (!path.isEmpty() && m_open->isEnabled())
        Q_EMIT openRequested(path);
}

} // namespace soul
