#pragma once

#include "disk/recoverystore.h"
#include "disk/slotreader.h"
#include "persona/personamodel.h"
#include "quietprompter.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <utility>
#include <vector>

namespace soul::guitest {

// The main window as the GUI tests open it: shown offscreen, its settings in
// a temporary folder of its own, and a prompter of the test's type `P` that
// the window owns while the test keeps a typed pointer to set answers and
// read what was asked. A test calls init() from its init() and cleanup() from
// its cleanup(); the folder and the window live from one to the other.
template<typename P = QuietPrompter>
class TestWindow
{
public:
    TestWindow() = default;
    TestWindow(const TestWindow &) = delete;
    TestWindow &operator=(const TestWindow &) = delete;
    ~TestWindow() { cleanup(); }

    // A new, empty temporary folder, and no recovered text left by an
    // earlier test that the next window would offer.
    void init()
    {
        cleanup();
        QVERIFY(QDir(RecoveryStore::rootPath()).removeRecursively());
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    // Closes the window (its prompter answers whatever closing asks) and
    // removes the folder.
    void cleanup()
    {
        close();
        m_dir.reset();
    }

    // A window shown and exposed with nothing opened yet, for tests that
    // look at it before start().
    void create(std::unique_ptr<P> prompter = std::make_unique<P>())
    {
        close();
        m_window = std::make_unique<MainWindow>(options());
        m_prompter = prompter.get();
        m_window->setPrompter(std::move(prompter));
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    // A new window on the persona folder `dir`.
    void open(const QString &dir, std::unique_ptr<P> prompter = std::make_unique<P>())
    {
        create(std::move(prompter));
        if (QTest::currentTestFailed())
            return;
        m_opened = dir;
        m_window->start(dir);
        QVERIFY(m_window->model()->isOpen());
    }

    // Closes the window and opens the last folder in a new one, which reads
    // what the first one remembered in the settings.
    void reopen() { open(m_opened); }

    // Closes and destroys the window; false when it refused to close (the
    // window is destroyed all the same).
    bool close()
    {
        if (!m_window)
            return true;
        const bool closed = m_window->close();
        m_window.reset();
        m_prompter = nullptr;
        return closed;
    }

    // Destroys the window without closing it, as a crash would: nothing is
    // asked, saved or discarded, and its recovery copies stay.
    void abandon()
    {
        m_window.reset();
        m_prompter = nullptr;
    }

    // The options every window of the test is made with: its settings file
    // in the temporary folder, so a second window reads what the first one
    // wrote.
    MainWindow::Options options() const
    {
        MainWindow::Options options;
        options.settingsFile = filePath(QStringLiteral("settings.ini"));
        return options;
    }

    MainWindow *window() const { return m_window.get(); }
    // The window's action or menu named `name`, as a script finds it: each is
    // named after its WindowActions member ("save", "jumpToSlot1",
    // "recentMenu"). A name the window lacks fails the test, and a stand-in
    // is returned so the test goes on to its end instead of crashing.
    QAction *action(const char *name) { return named<QAction>(name); }
    QMenu *menu(const char *name) { return named<QMenu>(name); }
    P *prompter() const { return m_prompter; }
    QString dir() const { return m_dir->path(); }
    QString filePath(const QString &name) const { return m_dir->filePath(name); }
    // The file of `slot` in the temporary folder used as a persona.
    QString path(int slot) const { return slotPath(m_dir->path(), slot); }

private:
    template<typename T>
    T *named(const char *name)
    {
        if (m_window) {
            if (T *found = m_window->findChild<T *>(QLatin1String(name)))
                return found;
        }
        QTest::qFail(qPrintable(QStringLiteral("The window has no %1 named \"%2\".")
                                    .arg(QLatin1String(T::staticMetaObject.className()),
                                         QLatin1String(name))),
                     __FILE__,
                     __LINE__);
        auto standIn = std::make_unique<T>();
        T *kept = standIn.get();
        m_standIns.push_back(std::move(standIn));
        return kept;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::vector<std::unique_ptr<QObject>> m_standIns;
    std::unique_ptr<MainWindow> m_window;
    P *m_prompter = nullptr;
    QString m_opened;
};

} // namespace soul::guitest
