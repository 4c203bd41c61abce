#pragma once

#include <QFile>
#include <QObject>

class QSocketNotifier;

namespace soul {

class MainWindow;

// For tests of the real process only (tests/gui/tst_crashrecovery.cpp,
// tst_agentswindow.cpp), behind the hidden option --test-stdin: reads one
// command a line from standard input and answers each with a line
// "soulstudio: done COMMAND" on standard output.
//
//   edit FILE TEXT            FILE's pane gets TEXT ("\n" for a line break), as
//                             typing does; FILE may be the runtime's own file
//                             (BOOTSTRAP.md) once its pane is shown
//   runtime ID                chooses the runtime ID in the preview, as its
//                             chooser does
//   agent ID                  shows the agent ID of the window's roster, as a click
//                             in the sidebar does (FILE then means its pane)
//   show FILE                 scrolls to FILE's pane and gives it the keyboard, as
//                             View > Go to FILE does
//   action TEXT               triggers the window's action whose menu text (without
//                             its & mnemonic) is TEXT, e.g. "action Show Invisibles"
//   quit [save|discard|cancel]
//                             closes the window as File > Quit does; with an answer,
//                             the question about unsaved panes is answered with it
//                             instead of a dialog
class TestControl : public QObject
{
    Q_OBJECT

public:
    // `window` must outlive the control.
    explicit TestControl(MainWindow *window);

private:
    void readCommands();
    bool run(const QString &line);

    MainWindow *m_window = nullptr;
    QFile m_in;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace soul
