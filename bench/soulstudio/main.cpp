// soulstudio-bench: drives the real Soul Studio window offscreen and prints
//   {"typical": {...}, "large": {...}}
// with keystroke_p50_ms, keystroke_p95_ms, disk_inplace_p95_ms,
// disk_atomic_p95_ms, open_ms and peak_rss_mib for each persona.
//
// Keystroke: a key press in a pane until the preview document holds the
// edit (the whole path is synchronous: pane -> model -> section -> range
// edit). Keystroke count: a key press until the exact token counts of the
// section and the soul have arrived from the counting thread
// (keystroke_count_p50_ms, keystroke_count_p95_ms). Disk: a write by
// another program until the preview holds it (this includes the watcher's
// settle interval). Open: start(dir) until the panes
// and the preview are filled; counts_after_open_ms: start(dir) until every
// token count is exact (they arrive after the window is usable; the first
// window also loads o200k_base's ranks meanwhile). In a child process of its
// own: o200k_load_ms and o200k_extra_rss_mib, the time and resident memory
// that loading o200k_base (and counting 1 MiB with it) adds.

#include "personamodel.h"
#include "preview/previewpanel.h"
#include "preview/soulpreview.h"
#include "slots/panestack.h"
#include "slots/slotpane.h"
#include "soultokencounter.h"
#include "tokenizer.h"
#include "window/mainwindow.h"
#include "window/prompter.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QPlainTextEdit>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <sys/resource.h>

using namespace soul;

namespace {

constexpr int Keystrokes = 200;
constexpr int DiskEvents = 25;

class QuietPrompter final : public Prompter
{
public:
    UnsavedAnswer askUnsaved(const QStringList &) override { return UnsavedAnswer::Discard; }
    ExportAnswer askExportWithUnsaved(const QStringList &) override { return ExportAnswer::Cancel; }
    QString askExportPath(const QString &) override { return {}; }
    QString askOpenDirectory(const QString &) override { return {}; }
    QString askSaveAllDirectory(const QString &) override { return {}; }
    NewPersona askNewPersona(const QString &) override { return {}; }
    void showError(const QString &, const QString &text) override
    {
        std::fprintf(stderr, "soulstudio-bench: %s\n", qPrintable(text));
    }
    void showCompare(const QString &, const QString &) override {}
};

// Markdown-like prose: headings, lists, emphasis, about 70 bytes a line.
QByteArray makeText(qint64 bytes, int seed)
{
    static const char *const words[] = {"persona",
                                        "agent",
                                        "**always**",
                                        "tools",
                                        "memory",
                                        "`code`",
                                        "user",
                                        "prefers",
                                        "metric",
                                        "units",
                                        "brief",
                                        "_gently_",
                                        "answer",
                                        "check",
                                        "before",
                                        "acting"};
    QByteArray out;
    out.reserve(bytes + 128);
    quint32 state = quint32(seed) * 2654435761u + 1;
    int line = 0;
    while (out.size() < bytes) {
        if (line % 20 == 0)
            out += "## Part " + QByteArray::number(line / 20) + "\n\n";
        out += (line % 3 == 0) ? "- " : "";
        for (int w = 0; w < 9; ++w) {
            state = state * 1664525u + 1013904223u;
            out += words[(state >> 16) % 16];
            out += ' ';
        }
        out.chop(1);
        out += ".\n";
        ++line;
    }
    out.truncate(bytes - 1);
    out += '\n';
    return out;
}

bool writeFile(const QString &path, const QByteArray &bytes, bool atomic)
{
    const QString target = atomic ? path + QStringLiteral(".tmp~") : path;
    QFile file(target);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
        return false;
    file.close();
    if (!atomic)
        return true;
    return ::rename(QFile::encodeName(target).constData(), QFile::encodeName(path).constData())
           == 0;
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    const size_t index = std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5));
    return values[index];
}

double peakRssMib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // KiB on Linux
}

// Resident memory now, not the peak.
double currentRssMib()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? double(fields.at(1).toLongLong()) * 4096.0 / (1024.0 * 1024.0) : -1;
}

double round2(double v)
{
    return double(qRound64(v * 100.0)) / 100.0;
}

// Waits until `done` holds, running the event loop; returns milliseconds, or
// -1 after `timeoutMs`.
template<typename Done>
double waitFor(Done done, int timeoutMs = 10000)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return -1;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return double(timer.nsecsElapsed()) / 1e6;
}

// Waits in the event loop (not spinning, which would take the CPU from the
// counting thread) until the counter's counts satisfy `done`; milliseconds,
// or -1 after `timeoutMs`.
template<typename Done>
double waitForCounts(SoulTokenCounter *counter, Done done, int timeoutMs = 60000)
{
    QElapsedTimer timer;
    timer.start();
    if (done())
        return 0;
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    QObject::connect(counter, &SoulTokenCounter::countsChanged, &loop, [&] {
        if (done())
            loop.exit(0);
    });
    timeout.start(timeoutMs);
    return loop.exec() == 0 ? double(timer.nsecsElapsed()) / 1e6 : -1;
}

// Loads o200k_base and counts 1 MiB with it: the time, and the resident
// memory it adds.
QJsonObject measureO200k()
{
    const QByteArray text = makeText(1024 * 1024, 9);
    const double before = currentRssMib();
    QElapsedTimer load;
    load.start();
    const qint64 tokens = Tokenizer::builtin(u"o200k_base")->count(text);
    const double loadMs = double(load.nsecsElapsed()) / 1e6;
    if (tokens <= 0)
        std::fprintf(stderr, "soulstudio-bench: o200k_base counted nothing\n");
    return {{QStringLiteral("o200k_load_ms"), round2(loadMs)},
            {QStringLiteral("o200k_extra_rss_mib"), round2(currentRssMib() - before)}};
}

QJsonObject run(const QString &settings, const std::vector<qint64> &sizes)
{
    QTemporaryDir dir;
    for (int k = 0; k < SlotCount; ++k)
        writeFile(slotPath(dir.path(), k), makeText(sizes[size_t(k)], k), false);

    MainWindow::Options options;
    options.settingsFile = settings;
    MainWindow window(options);
    window.setPrompter(std::make_unique<QuietPrompter>());
    window.show();
    QCoreApplication::processEvents();

    QElapsedTimer timer;
    timer.start();
    window.start(dir.path());
    QCoreApplication::processEvents();
    const double openMs = double(timer.nsecsElapsed()) / 1e6;
    SoulTokenCounter *counter = window.tokenCounter();
    const double countedAfterOpen = waitForCounts(counter, [&] { return counter->isSettled(); });
    const double countsAfterOpenMs = countedAfterOpen < 0 ? -1 : double(timer.nsecsElapsed()) / 1e6;

    SoulPreview *preview = window.previewPanel()->preview();
    PersonaModel *model = window.model();

    // Keystrokes in the middle of SOUL.md.
    QPlainTextEdit *editor = window.panes()->pane(1)->editor();
    window.panes()->showPane(1);
    QTextCursor cursor = editor->textCursor();
    cursor.setPosition(editor->document()->characterCount() / 2);
    editor->setTextCursor(cursor);
    std::vector<double> keystrokes;
    std::vector<double> keystrokeCounts;
    for (int i = 0; i < Keystrokes; ++i) {
        const int before = preview->rangeEditCount();
        const QChar c = QLatin1Char(char('a' + i % 26));
        timer.restart();
        QKeyEvent press(QEvent::KeyPress, Qt::Key_A + i % 26, Qt::NoModifier, QString(c));
        QKeyEvent release(QEvent::KeyRelease, Qt::Key_A + i % 26, Qt::NoModifier, QString(c));
        QApplication::sendEvent(editor, &press);
        QApplication::sendEvent(editor, &release);
        if (preview->rangeEditCount() == before)
            std::fprintf(stderr, "soulstudio-bench: keystroke %d did not reach the preview\n", i);
        keystrokes.push_back(double(timer.nsecsElapsed()) / 1e6);
        const double counted = waitForCounts(counter, [&] {
            return counter->sectionTokens(1, SoulView::Unsaved).exact
                   && counter->soulTokens(SoulView::Unsaved).exact;
        });
        keystrokeCounts.push_back(counted < 0 ? 10000.0 : double(timer.nsecsElapsed()) / 1e6);
        QCoreApplication::processEvents();
    }

    // External writes to a clean pane (USER.md), in place and atomically.
    const QString userPath = slotPath(dir.path(), 3);
    const QByteArray base = makeText(sizes[3], 3);
    auto diskRun = [&](bool atomic) {
        std::vector<double> times;
        for (int i = 0; i < DiskEvents; ++i) {
            const QByteArray marker = (atomic ? "atomic " : "inplace ") + QByteArray::number(i);
            QByteArray bytes = base;
            bytes.replace(0, marker.size(), marker);
            const QByteArray expected = composeSection(3, bytes);
            timer.restart();
            writeFile(userPath, bytes, atomic);
            const double waited = waitFor([&] {
                return model->section(3, SoulView::Unsaved) == expected
                       && preview->document()->characterCount() > 0;
            });
            times.push_back(waited < 0 ? 10000.0 : double(timer.nsecsElapsed()) / 1e6);
            // Let the watcher settle before the next write.
            QTest::qWait(60);
        }
        return times;
    };
    const std::vector<double> inPlace = diskRun(false);
    const std::vector<double> atomic = diskRun(true);

    // Discard the typing so closing does not ask.
    model->revert(1);

    return QJsonObject{
        {QStringLiteral("keystroke_p50_ms"), round2(percentile(keystrokes, 0.50))},
        {QStringLiteral("keystroke_p95_ms"), round2(percentile(keystrokes, 0.95))},
        {QStringLiteral("disk_inplace_p95_ms"), round2(percentile(inPlace, 0.95))},
        {QStringLiteral("disk_atomic_p95_ms"), round2(percentile(atomic, 0.95))},
        {QStringLiteral("keystroke_count_p50_ms"), round2(percentile(keystrokeCounts, 0.50))},
        {QStringLiteral("keystroke_count_p95_ms"), round2(percentile(keystrokeCounts, 0.95))},
        {QStringLiteral("open_ms"), round2(openMs)},
        {QStringLiteral("counts_after_open_ms"), round2(countsAfterOpenMs)},
        {QStringLiteral("peak_rss_mib"), round2(peakRssMib())},
    };
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir settingsDir;
    const QString settings = settingsDir.filePath(QStringLiteral("settings.ini"));

    const std::vector<qint64> typical(SlotCount, 4096);
    std::vector<qint64> large(SlotCount, 2 * 1024 * 1024 - 4096);
    large[6] = CapBytes + 256 * 1024; // MEMORY.md over the cap

    // "--only typical" or "--only large" runs one persona (for profiling).
    const QStringList args = QCoreApplication::arguments();
    const qsizetype only = args.indexOf(QStringLiteral("--only"));
    const QString which = only >= 0 && only + 1 < args.size() ? args.at(only + 1) : QString();

    // The cost of o200k_base alone, in a process of its own: here the
    // windows load it lazily, as the program does.
    if (args.contains(QStringLiteral("--o200k-only"))) {
        QTextStream(stdout) << QJsonDocument(measureO200k()).toJson(QJsonDocument::Compact);
        return 0;
    }
    QJsonObject result;
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--o200k-only")});
    if (child.waitForFinished(120000)) {
        const QJsonObject o200k = QJsonDocument::fromJson(child.readAllStandardOutput()).object();
        for (auto it = o200k.begin(); it != o200k.end(); ++it)
            result.insert(it.key(), it.value());
    }
    if (which.isEmpty() || which == QLatin1String("typical"))
        result.insert(QStringLiteral("typical"), run(settings, typical));
    if (which.isEmpty() || which == QLatin1String("large"))
        result.insert(QStringLiteral("large"), run(settings, large));
    QTextStream(stdout) << QJsonDocument(result).toJson(QJsonDocument::Indented);
    return 0;
}
