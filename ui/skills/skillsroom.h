#pragma once

#include "runtime/lintitem.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace soul {

class PersonaSession;
class RoomHost;
class SkillsSession;

// The Skills room: a dock listing the skills the shown persona's runtime
// puts in its prompt (OpenClaw's skills list, Hermes's skills index), each
// with where it comes from and what became of it (listed, shortened,
// dropped for the budget, replaced by a skill of the same name from a
// higher source, left out and why), and the list's exact text with its
// characters and tokens. New, Rename and Remove act on the persona's own
// skills; Open shows a SKILL.md in a pane beside the slots. What it shows is
// SkillsSession's (session/); it reads only while the dock is shown.
class SkillsRoom : public QObject
{
    Q_OBJECT

public:
    explicit SkillsRoom(RoomHost *host);
    ~SkillsRoom() override;

    QDockWidget *dock() const { return m_dock; }
    // The shown persona's skills; null while the dock is hidden or no
    // persona is shown.
    SkillsSession *skills() const { return m_skills.get(); }
    // What skillLintsChanged() said last.
    const QHash<QString, QList<Lint>> &skillLints() const { return m_lints; }
    // The list's text as shown.
    QString shownText() const;
    QTreeWidget *skillTree() const { return m_tree; }

    // Questions the room asks (a name for New and Rename, a yes for
    // Remove); by default dialogs, tests give their own answers.
    using NameQuestion = std::function<QString(const QString &title, const QString &initial)>;
    using Confirmation = std::function<bool(const QString &question)>;
    void setNameQuestion(NameQuestion question) { m_askName = std::move(question); }
    void setConfirmation(Confirmation confirm) { m_confirm = std::move(confirm); }

    void newSkill();
    void renameSkill();
    void removeSkill();
    void openSkill();

Q_SIGNALS:
    // The author asked to edit `path` (a SKILL.md of the persona).
    void openRequested(const QString &path);
    // What the runtime says of each skill file (its lints, and why it is
    // not listed), by absolute path: for the skills' panes.
    void skillLintsChanged(const QHash<QString, QList<soul::Lint>> &lints);

private:
    void sessionShown();
    void show();
    void updateButtons();
    QString currentPath() const;
    void say(const QString &sentence);

    RoomHost *m_host;
    QDockWidget *m_dock;
    PersonaSession *m_session = nullptr;
    std::unique_ptr<SkillsSession> m_skills;
    QLabel *m_summary = nullptr;
    QLabel *m_problem = nullptr;
    QTreeWidget *m_tree = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QPushButton *m_new = nullptr;
    QPushButton *m_rename = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_open = nullptr;
    QHash<QString, QList<Lint>> m_lints;
    NameQuestion m_askName;
    Confirmation m_confirm;
};

} // namespace soul
