#include "testcontrol.h"

#include "compose/contract.h"
#include "personasession.h"
#include "preview/previewpanel.h"
#include "prompter.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "window/mainwindow.h"
#include "window/personaeditor.h"

#include <QAction>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QSocketNotifier>
#include <QTextStream>

#include <unistd.h>

namespace soul {

namespace {

// Answers the unsaved question as the test said; nothing else is expected
// while the window closes, so every other question is cancelled.
class AnsweringPrompter final : public Prompter
{
public:
    explicit AnsweringPrompter(UnsavedAnswer answer)
        : m_answer(answer)
    {}

    UnsavedAnswer askUnsaved(const QStringList &) override { return m_answer; }
    ExportAnswer askExportWithUnsaved(const QStringList &) override { return ExportAnswer::Cancel; }
    QString askExportPath(const QString &) override { return {}; }
    QString askOpenDirectory(const QString &) override { return {}; }
    QString askSaveAllDirectory(const QString &) override { return {}; }
    NewPersona askNewPersona(const QString &) override { return {}; }
    void showError(const QString &title, const QString &text) override
    {
        QTextStream(stderr) << "soulstudio: " << title << ": " << text << Qt::endl;
    }
    void showCompare(const QString &, const QString &) override {}

private:
    UnsavedAnswer m_answer = UnsavedAnswer::Cancel;
};

} // namespace

TestControl::TestControl(MainWindow *window)
    : QObject(window)
    , m_window(window)
{
    // Unbuffered, so every line read leaves the rest in the pipe, where the
    // notifier sees it.
    if (!m_in.open(STDIN_FILENO, QIODevice::ReadOnly | QIODevice::Unbuffered))
        return;
    m_notifier = new QSocketNotifier(m_in.handle(), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &TestControl::readCommands);
}

void TestControl::readCommands()
{
    // Tests write whole lines, so reading one never waits for long.
    const QByteArray line = m_in.readLine();
    if (line.isEmpty()) {
        // End of input: nothing more will come.
        m_notifier->setEnabled(false);
        return;
    }
    const QString command = QString::fromUtf8(line).trimmed();
    QTextStream out(stdout);
    out << "soulstudio: " << (run(command) ? "done " : "unknown ") << command << Qt::endl;
}

bool TestControl::run(const QString &line)
{
    if (line == QLatin1String("quit")) {
        m_window->close();
        return true;
    }
    if (line.startsWith(QLatin1String("quit "))) {
        const QString answer = line.mid(5);
        Prompter::UnsavedAnswer unsaved = Prompter::UnsavedAnswer::Cancel;
        if (answer == QLatin1String("save"))
            unsaved = Prompter::UnsavedAnswer::SaveAll;
        else if (answer == QLatin1String("discard"))
            unsaved = Prompter::UnsavedAnswer::Discard;
        else if (answer != QLatin1String("cancel"))
            return false;
        m_window->setPrompter(std::make_unique<AnsweringPrompter>(unsaved));
        m_window->close();
        return true;
    }
    if (line.startsWith(QLatin1String("agent "))) {
        for (int i = 0; i < m_window->sessionCount(); ++i) {
            if (m_window->session(i)->agent().id == line.mid(6)) {
                m_window->setCurrentIndex(i);
                return true;
            }
        }
        return false;
    }
    if (line.startsWith(QLatin1String("show "))) {
        for (int k = 0; k < SlotCount; ++k) {
            if (slotName(k) == line.mid(5)) {
                m_window->panes()->showPane(k);
                return true;
            }
        }
        return false;
    }
    if (line.startsWith(QLatin1String("action "))) {
        const QString text = line.mid(7);
        // The window's own list: every action is added to it for its shortcut.
        const QList<QAction *> actions = m_window->actions();
        for (QAction *action : actions) {
            if (action->isEnabled() && action->text().remove(QLatin1Char('&')) == text) {
                action->trigger();
                return true;
            }
        }
        return false;
    }
    if (line.startsWith(QLatin1String("runtime "))) {
        QComboBox *chooser = m_window->previewPanel()->runtimeChooser();
        const int index = chooser->findData(line.mid(8));
        if (index < 0)
            return false;
        chooser->setCurrentIndex(index);
        return true;
    }
    if (line.startsWith(QLatin1String("edit "))) {
        const QString rest = line.mid(5);
        const qsizetype space = rest.indexOf(QLatin1Char(' '));
        const QString name = rest.left(space);
        QString text = space < 0 ? QString() : rest.mid(space + 1);
        text.replace(QLatin1String("\\n"), QLatin1String("\n"));
        for (int k = 0; k < SlotCount; ++k) {
            if (slotName(k) != name)
                continue;
            m_window->panes()->pane(k)->editor()->setPlainText(text);
            return true;
        }
        // The runtime's own file (OpenClaw's BOOTSTRAP.md), once its pane is there.
        const PersonaEditor *editor = m_window->currentEditor();
        if (SlotPane *setup = editor ? editor->setupPane() : nullptr;
            setup && setup->objectName().endsWith(QLatin1Char('_') + name)) {
            setup->editor()->setPlainText(text);
            return true;
        }
    }
    return false;
}

} // namespace soul
