// soulstudio-pane-follow-bench: how long a shown pane takes to follow a
// one-line change of its 2 MiB buffer (a disk change, a Revert, a Reload),
// as the undoable range edit SlotPane::follow() makes, against loading the
// whole text again (SlotPane::reload(), setPlainText). Prints JSON:
//   {"follow_p50_ms": ..., "follow_p95_ms": ..., "reload_p50_ms": ..., ...}

#include "compose/contract.h"
#include "persona/personamodel.h"
#include "slots/slotpane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace soul;

namespace {

constexpr int Runs = 21;
constexpr int Lines = 30000; // about 2 MiB

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const size_t i = size_t(p * double(values.size() - 1) + 0.5);
    return values.at(std::min(i, values.size() - 1));
}

double round2(double v)
{
    return double(qRound64(v * 100.0)) / 100.0;
}

QByteArray makeText(int changed)
{
    QByteArray text;
    text.reserve(Lines * 72);
    for (int i = 0; i < Lines; ++i) {
        text += "- line " + QByteArray::number(i)
                + ": the team keeps notes on sources, "
                  "methods and caveats";
        if (i == Lines / 2)
            text += " (changed " + QByteArray::number(changed) + ")";
        text += '\n';
    }
    return text;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;
    const int slot = 6;
    const QString path = slotPath(dir.path(), slot);
    if (!dir.isValid() || !writeFile(path, makeText(0)))
        return 2;
    PersonaModel model;
    if (!model.open(dir.path()))
        return 2;

    // Two panes of the same slot, both on screen: one follows by range
    // edits, the other loads the whole text each time.
    QWidget window;
    auto *layout = new QHBoxLayout(&window);
    auto *following = new SlotPane(slot, &model, &window);
    auto *reloading = new SlotPane(slot, &model, &window);
    layout->addWidget(following);
    layout->addWidget(reloading);
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 2;
    following->reload();
    reloading->reload();
    QCoreApplication::processEvents();

    std::vector<double> follow;
    std::vector<double> reload;
    QElapsedTimer timer;
    for (int run = 1; run <= Runs; ++run) {
        // The watcher's report of the new text, as the window takes it.
        QSignalSpy replaced(&model, &PersonaModel::bufferReplaced);
        if (!writeFile(path, makeText(run)) || !replaced.wait(10000))
            return 2;
        timer.start();
        following->follow();
        follow.push_back(double(timer.nsecsElapsed()) / 1e6);
        QCoreApplication::processEvents();
        timer.start();
        reloading->reload();
        reload.push_back(double(timer.nsecsElapsed()) / 1e6);
        QCoreApplication::processEvents();
        if (following->editor()->document()->toRawText()
            != reloading->editor()->document()->toRawText()) {
            std::fprintf(stderr, "the panes differ after run %d\n", run);
            return 1;
        }
    }
    const QJsonObject result{
        {QStringLiteral("bytes"), double(model.slot(slot).bufferBytes.size())},
        {QStringLiteral("follow_p50_ms"), round2(percentile(follow, 0.5))},
        {QStringLiteral("follow_p95_ms"), round2(percentile(follow, 0.95))},
        {QStringLiteral("reload_p50_ms"), round2(percentile(reload, 0.5))},
        {QStringLiteral("reload_p95_ms"), round2(percentile(reload, 0.95))},
        {QStringLiteral("undo_steps_kept"), following->editor()->document()->isUndoAvailable()},
    };
    std::printf("%s", QJsonDocument(result).toJson().constData());
    return 0;
}
