#include "testsroom.h"

#include "chat/deadlinefields.h"
#include "chatclient.h"
#include "personasession.h"
#include "personatestsession.h"
#include "suiterun.h"
#include "window/roomhost.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace soul {

namespace {

constexpr char EndpointKey[] = "tests/endpoint";
constexpr char ModelKey[] = "tests/model";
// "FILE\nscheme://host:port" for each host the author let the key go to.
constexpr char KeyHostsKey[] = "tests/keyHosts";

QString originOf(const QUrl &url)
{
    QUrl origin;
    origin.setScheme(url.scheme().toLower());
    origin.setHost(url.host().toLower());
    origin.setPort(url.port(origin.scheme() == QLatin1String("https") ? 443 : 80));
    return origin.toString();
}

enum Column { CaseColumn, LiveColumn, AgainstColumn, LatencyColumn, CachedColumn };
enum AgainstChoice { AgainstNothing, AgainstSnapshot, AgainstCommit };

const QColor PassColor(0x2e, 0x7d, 0x32);
const QColor FailColor(0xc6, 0x28, 0x28);
const QColor DifferColor(0xff, 0xec, 0xb3);

// "pass", "fail (1 of 3 runs passed)", "running (2 of 3)".
QString verdictText(const SuiteCase &item)
{
    const auto runs = int(item.runs.size());
    switch (item.state) {
    case SuiteCase::State::Waiting:
        return QObject::tr("waiting");
    case SuiteCase::State::Running:
        return item.runsWanted > 1
                   ? QObject::tr("running (%1 of %2)").arg(runs + 1).arg(item.runsWanted)
                   : QObject::tr("running");
    case SuiteCase::State::Failed:
        return QObject::tr("error");
    case SuiteCase::State::Stopped:
        return QObject::tr("stopped");
    case SuiteCase::State::Done:
        break;
    }
    QString text = item.pass() ? QObject::tr("pass") : QObject::tr("fail");
    if (runs > 1)
        text += QObject::tr(" (%1 of %2 runs passed)").arg(item.passedRuns()).arg(runs);
    return text;
}

// The run to show: the first that failed, else the first.
const CaseRun *shownRun(const SuiteCase &item)
{
    for (const CaseRun &run : item.runs) {
        if (!run.verdict.pass)
            return &run;
    }
    return item.runs.isEmpty() ? nullptr : &item.runs.first();
}

QString latencyText(const SuiteCase &item)
{
    if (item.runs.isEmpty())
        return {};
    qint64 total = 0;
    for (const CaseRun &run : item.runs)
        total += run.reply.latencyMs;
    return QObject::tr("%1 ms").arg(total / item.runs.size());
}

QString cachedText(const SuiteCase &item)
{
    const CaseRun *run = shownRun(item);
    if (!run)
        return {};
    const ChatUsage &usage = run->reply.usage;
    if (!usage.cachedTokens)
        return QObject::tr("not reported");
    if (usage.promptTokens)
        return QObject::tr("%1 of %2").arg(*usage.cachedTokens).arg(*usage.promptTokens);
    return QString::number(*usage.cachedTokens);
}

void paintVerdict(QTreeWidgetItem *item, int column, const SuiteCase &side)
{
    item->setText(column, verdictText(side));
    if (side.state == SuiteCase::State::Done || side.state == SuiteCase::State::Failed)
        item->setForeground(column, side.pass() ? PassColor : FailColor);
    else
        item->setData(column, Qt::ForegroundRole, QVariant());
    item->setToolTip(column,
                     side.reused ? QObject::tr("Unchanged since the last run: its verdict is kept.")
                                 : QString());
}

QTreeWidgetItem *textRow(QTreeWidgetItem *parent, const QString &text)
{
    auto *row = new QTreeWidgetItem(parent);
    row->setText(CaseColumn, text);
    row->setToolTip(CaseColumn, text);
    row->setFirstColumnSpanned(true);
    return row;
}

} // namespace

TestsRoom::TestsRoom(RoomHost *host)
    : QObject(host)
    , m_host(host)
    , m_tests(new PersonaTestSession(this))
    , m_dock(new QDockWidget(tr("Tests"), host->window()))
{
    m_dock->setObjectName(QStringLiteral("testsDock"));
    auto *inside = new QWidget(m_dock);
    inside->setObjectName(QStringLiteral("testsPanel"));
    auto *layout = new QVBoxLayout(inside);

    auto *fileRow = new QHBoxLayout;
    m_fileLabel = new QLabel(inside);
    m_fileLabel->setObjectName(QStringLiteral("testsFile"));
    m_fileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *choose = new QPushButton(tr("Choose File…"), inside);
    choose->setObjectName(QStringLiteral("testsChoose"));
    fileRow->addWidget(m_fileLabel, 1);
    fileRow->addWidget(choose);
    layout->addLayout(fileRow);

    m_problem = new QLabel(inside);
    m_problem->setObjectName(QStringLiteral("testsProblem"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problem->hide();
    layout->addWidget(m_problem);

    auto *form = new QFormLayout;
    m_endpoint = new QLineEdit(inside);
    m_endpoint->setObjectName(QStringLiteral("testsEndpoint"));
    m_endpoint->setClearButtonEnabled(true);
    m_model = new QLineEdit(inside);
    m_model->setObjectName(QStringLiteral("testsModel"));
    m_model->setClearButtonEnabled(true);
    form->addRow(tr("Endpoint:"), m_endpoint);
    form->addRow(tr("Model:"), m_model);
    m_deadlines
        = new DeadlineFields(QStringLiteral("tests"), tr("request"), host->settings(), inside);
    form->addRow(tr("Deadlines:"), m_deadlines);
    auto *againstRow = new QHBoxLayout;
    m_against = new QComboBox(inside);
    m_against->setObjectName(QStringLiteral("testsAgainst"));
    m_against->addItems({tr("The live soul only"), tr("A snapshot…"), tr("A commit")});
    m_revision = new QLineEdit(inside);
    m_revision->setObjectName(QStringLiteral("testsRevision"));
    m_revision->setPlaceholderText(tr("HEAD~1, a tag or a commit id; Enter"));
    m_revision->hide();
    againstRow->addWidget(m_against);
    againstRow->addWidget(m_revision, 1);
    form->addRow(tr("Against:"), againstRow);
    layout->addLayout(form);

    auto *runRow = new QHBoxLayout;
    m_runButton = new QPushButton(tr("Run"), inside);
    m_runButton->setObjectName(QStringLiteral("testsRun"));
    m_runButton->setToolTip(tr("Run the tests on the live soul (Ctrl+R)"));
    m_stopButton = new QPushButton(tr("Stop"), inside);
    m_stopButton->setObjectName(QStringLiteral("testsStop"));
    m_stopButton->setEnabled(false);
    m_status = new QLabel(inside);
    m_status->setObjectName(QStringLiteral("testsStatus"));
    m_status->setWordWrap(true);
    runRow->addWidget(m_runButton);
    runRow->addWidget(m_stopButton);
    runRow->addWidget(m_status, 1);
    layout->addLayout(runRow);

    m_cases = new QTreeWidget(inside);
    m_cases->setObjectName(QStringLiteral("testsCases"));
    m_cases->setHeaderLabels(
        {tr("Case"), tr("Live soul"), tr("Against"), tr("Latency"), tr("Cached tokens")});
    m_cases->setColumnHidden(AgainstColumn, true);
    m_cases->setMinimumHeight(160);
    m_cases->setWordWrap(true);
    m_cases->setUniformRowHeights(false);
    m_cases->header()->setStretchLastSection(false);
    m_cases->header()->setSectionResizeMode(CaseColumn, QHeaderView::Stretch);
    for (const int column : {LiveColumn, AgainstColumn, LatencyColumn, CachedColumn})
        m_cases->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    layout->addWidget(m_cases, 1);
    m_dock->setWidget(inside);
    m_dock->setFocusProxy(m_cases);
    inside->setFocusProxy(m_cases);

    // Ctrl+R runs while the focus is in the dock; the window keeps it
    // otherwise.
    auto *runKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_R), m_dock);
    runKey->setContext(Qt::WidgetWithChildrenShortcut);
    connect(runKey, &QShortcut::activated, this, &TestsRoom::run);
    connect(m_runButton, &QPushButton::clicked, this, &TestsRoom::run);
    connect(m_stopButton, &QPushButton::clicked, m_tests, &PersonaTestSession::stop);
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_dock,
                                                          tr("Choose Persona Tests"),
                                                          m_directory,
                                                          tr("Persona tests (*.yaml *.yml)"));
        if (!path.isEmpty())
            chooseTestsFile(path);
    });
    connect(m_against, qOverload<int>(&QComboBox::activated), this, &TestsRoom::againstChosen);
    connect(m_revision, &QLineEdit::returnPressed, this, [this] {
        setAgainstCommit(m_revision->text().trimmed());
    });

    QSettings *settings = host->settings();
    if (settings) {
        m_endpoint->setText(settings->value(QLatin1String(EndpointKey)).toString());
        m_model->setText(settings->value(QLatin1String(ModelKey)).toString());
    }
    applyTimeouts();
    connect(m_deadlines, &DeadlineFields::changed, this, &TestsRoom::applyTimeouts);
    m_keyQuestion = [this](const QUrl &endpoint, const QString &file) {
        return QMessageBox::question(
                   m_dock,
                   tr("Send the API Key?"),
                   tr("%1 sends its requests to %2, which you did not type.\n\nSend the API "
                      "key in OPENAI_API_KEY there? Answer yes only if you trust that file and "
                      "that server; the answer is kept for this file and host.")
                       .arg(QDir::toNativeSeparators(file), endpoint.toDisplayString()),
                   QMessageBox::Yes | QMessageBox::Cancel,
                   QMessageBox::Cancel)
               == QMessageBox::Yes;
    };
    m_tests->setKeyConfirmation(
        [this](const QUrl &endpoint) { return confirmKeyEndpoint(endpoint); });
    m_tests->setEndpoint(m_endpoint->text().trimmed());
    m_tests->setModel(m_model->text().trimmed());
    connect(m_endpoint, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_tests->setEndpoint(text.trimmed());
        if (m_host->settings())
            m_host->settings()->setValue(QLatin1String(EndpointKey), text.trimmed());
    });
    connect(m_model, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_tests->setModel(text.trimmed());
        if (m_host->settings())
            m_host->settings()->setValue(QLatin1String(ModelKey), text.trimmed());
    });

    // The live soul at the start of each run, kept by the run until it ends.
    m_tests->setSoulSource([this] {
        const LiveSoul soul = m_host->liveSoul();
        m_runSoulSha = QCryptographicHash::hash(soul.bytes, QCryptographicHash::Sha256);
        return soul.bytes;
    });
    connect(m_tests, &PersonaTestSession::fileChanged, this, &TestsRoom::showFile);
    connect(m_tests, &PersonaTestSession::started, this, &TestsRoom::rebuildCases);
    connect(m_tests, &PersonaTestSession::caseChanged, this, &TestsRoom::showCase);
    connect(m_tests, &PersonaTestSession::runningChanged, this, &TestsRoom::showStatus);
    connect(m_tests, &PersonaTestSession::runFailed, this, &TestsRoom::showProblem);
    connect(host, &RoomHost::sessionChanged, this, &TestsRoom::sessionShown);
    // A session is shown before its folder is read: the folder comes with
    // its soul.
    connect(host, &RoomHost::liveSoulChanged, this, [this] {
        sessionShown();
        showStatus();
    });

    host->addDock(m_dock, tr("&Tests"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E));
    sessionShown();
}

void TestsRoom::sessionShown()
{
    const QString directory = m_host->directory();
    if (directory == m_directory && !directory.isEmpty())
        return;
    m_directory = directory;
    m_chosenFile.clear();
    m_tests->clearAgainst();
    m_against->setCurrentIndex(AgainstNothing);
    m_revision->hide();
    m_cases->clear();
    m_tests->setTestsPath(directory.isEmpty()
                              ? QString()
                              : QDir(directory).filePath(QLatin1String(PersonaTestsFileName)));
}

void TestsRoom::chooseTestsFile(const QString &path)
{
    sessionShown();
    m_chosenFile = path;
    m_cases->clear();
    m_tests->setTestsPath(path);
}

void TestsRoom::showFile()
{
    const QString path = m_tests->testsPath();
    if (path.isEmpty()) {
        m_fileLabel->setText(tr("No persona is open."));
    } else {
        const QString shown = !m_directory.isEmpty()
                                      && QFileInfo(path).absolutePath()
                                             == QFileInfo(m_directory).absoluteFilePath()
                                  ? QFileInfo(path).fileName()
                                  : QDir::toNativeSeparators(path);
        const PersonaTestFile &file = m_tests->file();
        m_fileLabel->setText(m_tests->fileIsValid()
                                 ? (file.tests.size() == 1
                                        ? tr("%1: 1 case").arg(shown)
                                        : tr("%1: %2 cases").arg(shown).arg(file.tests.size()))
                                 : shown);
        m_fileLabel->setToolTip(QDir::toNativeSeparators(path));
        m_endpoint->setPlaceholderText(
            file.apiBaseUrl.isEmpty()
                ? tr("http://127.0.0.1:8080/v1")
                : tr("%1 (from the file)").arg(file.apiBaseUrl.toDisplayString()));
        m_model->setPlaceholderText(file.model.isEmpty()
                                        ? tr("the model's name")
                                        : tr("%1 (from the file)").arg(file.model));
        // The key comes from the environment, as soulc takes it, and from
        // OPENAI_API_KEY only: a tests file does not choose which secret is
        // sent.
        m_tests->setApiKey(qEnvironmentVariable("OPENAI_API_KEY"));
        QList<QUrl> confirmed;
        const QStringList remembered
            = m_host->settings()
                  ? m_host->settings()->value(QLatin1String(KeyHostsKey)).toStringList()
                  : QStringList();
        for (const QString &entry : remembered) {
            if (entry.section(QLatin1Char('\n'), 0, 0) == path)
                confirmed.append(QUrl(entry.section(QLatin1Char('\n'), 1)));
        }
        m_tests->setKeyEndpoints(confirmed);
    }
    m_problem->setVisible(!m_tests->fileError().isEmpty());
    m_problem->setText(m_tests->fileError());
    showStatus();
}

void TestsRoom::run()
{
    if (!m_host->session())
        return;
    sessionShown();
    m_problem->hide();
    if (const Status status = m_tests->run(); !status)
        showProblem(status.error());
    showStatus();
}

bool TestsRoom::confirmKeyEndpoint(const QUrl &endpoint)
{
    const QString path = m_tests->testsPath();
    if (!m_keyQuestion || !m_keyQuestion(endpoint, path))
        return false;
    if (QSettings *settings = m_host->settings()) {
        QStringList remembered = settings->value(QLatin1String(KeyHostsKey)).toStringList();
        remembered.append(path + QLatin1Char('\n') + originOf(endpoint));
        remembered.removeDuplicates();
        settings->setValue(QLatin1String(KeyHostsKey), remembered);
    }
    return true;
}

void TestsRoom::applyTimeouts()
{
    m_tests->setTimeouts(m_deadlines->timeoutMs(), m_deadlines->idleTimeoutMs());
}

void TestsRoom::showProblem(const QString &sentence)
{
    m_problem->setText(sentence);
    m_problem->setVisible(!sentence.isEmpty());
}

void TestsRoom::showStatus()
{
    const bool running = m_tests->isRunning();
    m_runButton->setEnabled(m_host->session() && m_tests->fileIsValid());
    m_stopButton->setEnabled(running);
    const QList<SuiteCase> &cases = m_tests->live().cases();
    if (cases.isEmpty()) {
        m_status->setText(m_tests->fileIsValid() ? tr("Not run yet.") : QString());
        return;
    }
    int passed = 0;
    int ended = 0;
    for (const SuiteCase &item : cases) {
        passed += item.pass() ? 1 : 0;
        ended += item.state == SuiteCase::State::Done || item.state == SuiteCase::State::Failed;
    }
    QString text
        = running ? tr("Running: %1 of %2 done, %3 passed").arg(ended).arg(cases.size()).arg(passed)
                  : tr("%1 of %2 passed").arg(passed).arg(cases.size());
    if (m_tests->hasAgainst()) {
        const QList<SuiteCase> &other = m_tests->against().cases();
        const auto otherPassed = std::count_if(other.cbegin(),
                                               other.cend(),
                                               [](const SuiteCase &c) { return c.pass(); });
        text += tr(" (against: %1 of %2)").arg(otherPassed).arg(other.size());
    }
    text += tr(", %1 at %2")
                .arg(m_tests->live().model(), m_tests->live().endpoint().toDisplayString());
    const QByteArray liveSha = QCryptographicHash::hash(m_host->liveSoul().bytes,
                                                        QCryptographicHash::Sha256);
    if (!m_runSoulSha.isEmpty() && liveSha != m_runSoulSha)
        text += tr(
            ". The soul has changed since this run began: Run again to test it as it is now.");
    m_status->setText(text);
}

void TestsRoom::rebuildCases()
{
    const QList<SuiteCase> &cases = m_tests->live().cases();
    m_cases->setColumnHidden(AgainstColumn, !m_tests->hasAgainst());
    m_cases->headerItem()->setText(AgainstColumn, m_tests->againstLabel());
    // Keep which cases the author opened.
    QSet<int> expanded;
    for (int i = 0; i < m_cases->topLevelItemCount(); ++i) {
        if (m_cases->topLevelItem(i)->isExpanded())
            expanded.insert(i);
    }
    if (m_cases->topLevelItemCount() != cases.size()) {
        m_cases->clear();
        for (qsizetype i = 0; i < cases.size(); ++i)
            new QTreeWidgetItem(m_cases);
    }
    for (qsizetype i = 0; i < cases.size(); ++i) {
        showCase(int(i));
        m_cases->topLevelItem(int(i))->setExpanded(expanded.contains(int(i)));
    }
    showStatus();
}

void TestsRoom::fillSide(QTreeWidgetItem *item, const SuiteCase &side, const QString &title)
{
    QTreeWidgetItem *parent = item;
    if (!title.isEmpty()) {
        parent = textRow(item, title);
        parent->setExpanded(true);
    }
    if (side.state == SuiteCase::State::Failed) {
        textRow(parent, tr("Error: %1").arg(side.error))->setForeground(CaseColumn, FailColor);
        return;
    }
    const CaseRun *run = shownRun(side);
    if (!run)
        return;
    const PersonaTestCase &test = m_tests->file().tests.value(side.testIndex);
    QString reply = run->reply.content;
    if (side.runs.size() > 1)
        reply = tr("Run %1 of %2: %3").arg(run->run).arg(run->runs).arg(reply);
    textRow(parent, tr("Reply: %1").arg(reply));
    for (qsizetype i = 0; i < run->outcomes.size(); ++i) {
        const AssertOutcome &outcome = run->outcomes.at(i);
        const QString type = i < test.asserts.size() ? test.asserts.at(i).type : QString();
        QTreeWidgetItem *row = textRow(parent,
                                       QStringLiteral("%1 %2: %3")
                                           .arg(outcome.pass ? QStringLiteral("✓")
                                                             : QStringLiteral("✗"),
                                                type,
                                                outcome.reason));
        row->setForeground(CaseColumn, outcome.pass ? PassColor : FailColor);
    }
    if (!run->verdict.reason.isEmpty())
        textRow(parent, run->verdict.reason)->setForeground(CaseColumn, FailColor);
}

void TestsRoom::showCase(int position)
{
    const QList<SuiteCase> &cases = m_tests->live().cases();
    if (position < 0 || position >= cases.size() || position >= m_cases->topLevelItemCount())
        return;
    QTreeWidgetItem *item = m_cases->topLevelItem(position);
    const SuiteCase &live = cases.at(position);
    const PersonaTestCase &test = m_tests->file().tests.value(live.testIndex);
    item->setText(CaseColumn,
                  test.description.isEmpty() ? tr("test %1").arg(test.index) : test.description);
    paintVerdict(item, LiveColumn, live);
    item->setText(LatencyColumn, latencyText(live));
    item->setText(CachedColumn, cachedText(live));
    const bool expanded = item->isExpanded();
    qDeleteAll(item->takeChildren());
    const bool against = m_tests->hasAgainst() && position < m_tests->against().cases().size();
    fillSide(item, live, against ? tr("Live soul") : QString());
    const PersonaTestSession::Difference difference = m_tests->difference(position);
    for (int column = 0; column < m_cases->columnCount(); ++column)
        item->setData(column, Qt::BackgroundRole, QVariant());
    if (against) {
        const SuiteCase &other = m_tests->against().cases().at(position);
        paintVerdict(item, AgainstColumn, other);
        fillSide(item, other, m_tests->againstLabel());
        QStringList marks;
        if (difference.verdict)
            marks.append(tr("verdict differs"));
        if (difference.output)
            marks.append(tr("reply differs"));
        if (!marks.isEmpty()) {
            // The mark in the cell, what differs in its tip and on the
            // other side's heading.
            const QString differs = marks.join(QStringLiteral(", "));
            item->setText(AgainstColumn, QStringLiteral("≠ ") + item->text(AgainstColumn));
            item->setToolTip(AgainstColumn, differs);
            QTreeWidgetItem *heading = item->child(item->childCount() - 1);
            heading->setText(CaseColumn, heading->text(CaseColumn) + QStringLiteral(": ") + differs);
            for (const int column : {CaseColumn, LiveColumn, AgainstColumn})
                item->setBackground(column, DifferColor);
        }
    }
    item->setData(CaseColumn, Qt::UserRole, difference.any());
    item->setExpanded(expanded);
    showStatus();
}

void TestsRoom::againstChosen(int index)
{
    m_revision->setVisible(index == AgainstCommit);
    if (index == AgainstNothing) {
        clearAgainst();
    } else if (index == AgainstSnapshot) {
        const QString path
            = QFileDialog::getOpenFileName(m_dock,
                                           tr("Test Against a Snapshot"),
                                           m_directory,
                                           tr("Frozen souls (*.txt);;All files (*)"));
        if (path.isEmpty() || !setAgainstSnapshot(path)) {
            m_against->setCurrentIndex(m_tests->hasAgainst() ? m_against->currentIndex()
                                                             : int(AgainstNothing));
        }
    } else {
        m_revision->setFocus();
    }
}

bool TestsRoom::setAgainstSnapshot(const QString &soulPath)
{
    sessionShown();
    const Result<QByteArray> soul = snapshotSoulBytes(soulPath);
    if (!soul) {
        showProblem(soul.error());
        return false;
    }
    m_problem->hide();
    m_tests->setAgainst(*soul, tr("Snapshot %1").arg(QFileInfo(soulPath).fileName()));
    m_against->setCurrentIndex(AgainstSnapshot);
    m_against->setItemText(AgainstSnapshot, QFileInfo(soulPath).fileName());
    m_against->setToolTip(QDir::toNativeSeparators(soulPath));
    m_revision->hide();
    rebuildCases();
    return true;
}

bool TestsRoom::setAgainstCommit(const QString &rev)
{
    if (rev.isEmpty())
        return false;
    sessionShown();
    const LiveSoul live = m_host->liveSoul();
    const Result<QByteArray> soul = revisionSoulBytes(live.directory, rev, live.runtimeId);
    if (!soul) {
        showProblem(soul.error());
        return false;
    }
    m_problem->hide();
    m_tests->setAgainst(*soul, tr("Commit %1").arg(rev));
    m_against->setCurrentIndex(AgainstCommit);
    m_revision->setText(rev);
    m_revision->show();
    rebuildCases();
    return true;
}

void TestsRoom::clearAgainst()
{
    m_tests->clearAgainst();
    m_against->setCurrentIndex(AgainstNothing);
    m_against->setItemText(AgainstSnapshot, tr("A snapshot…"));
    m_revision->hide();
    rebuildCases();
}

} // namespace soul
