#pragma once

#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>

class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace soul {

class DeadlineFields;
class PersonaTestSession;
class RoomHost;
struct SuiteCase;

// The Tests room: a dock that runs the shown persona's persona-tests.yaml
// on its live soul, alone or against a snapshot or a commit, and shows each
// case's verdict, reply, asserts, latency and cached tokens. What it does
// is PersonaTestSession's (chat/); the dock shows it and passes on what
// the author asks. Owned by the host.
class TestsRoom : public QObject
{
    Q_OBJECT

public:
    explicit TestsRoom(RoomHost *host);

    QDockWidget *dock() const { return m_dock; }
    PersonaTestSession *tests() const { return m_tests; }

    // The tests file to run: `path`, instead of the one beside the persona.
    void chooseTestsFile(const QString &path);
    // Asks whether the API key may go to `endpoint`, which the tests file
    // `file` names; a yes is remembered for that file and host. By default
    // a question box; tests give their own answer.
    using KeyQuestion = std::function<bool(const QUrl &endpoint, const QString &file)>;
    void setKeyQuestion(KeyQuestion question) { m_keyQuestion = std::move(question); }
    // The other side of the next runs; each fails with a sentence shown in
    // the dock, and leaves the runs on the live soul alone.
    bool setAgainstSnapshot(const QString &soulPath);
    bool setAgainstCommit(const QString &rev);
    void clearAgainst();
    void run();

private:
    void sessionShown();
    void showFile();
    void showStatus();
    void rebuildCases();
    void showCase(int position);
    void againstChosen(int index);
    void showProblem(const QString &sentence);
    bool confirmKeyEndpoint(const QUrl &endpoint);
    void applyTimeouts();
    void fillSide(QTreeWidgetItem *item, const SuiteCase &side, const QString &title);

    RoomHost *m_host;
    PersonaTestSession *m_tests;
    QDockWidget *m_dock;
    QLabel *m_fileLabel = nullptr;
    QLabel *m_problem = nullptr;
    QLineEdit *m_endpoint = nullptr;
    QLineEdit *m_model = nullptr;
    DeadlineFields *m_deadlines = nullptr;
    KeyQuestion m_keyQuestion;
    QComboBox *m_against = nullptr;
    QLineEdit *m_revision = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_stopButton = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_cases = nullptr;
    QString m_directory;     // the shown persona's folder
    QString m_chosenFile;    // a file the author picked for it; empty: the one beside it
    QByteArray m_runSoulSha; // the live soul's digest when the run began
};

} // namespace soul
