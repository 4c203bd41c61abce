// soul-diff-bench: times the steps of `soulc diff A B` in one process.
//
//   soul-diff-bench A B [RUNS]
//
// A and B are persona folders or exported souls, as for soulc diff. Each run
// loads both souls (composing a folder), compares the sections, builds the
// unified diff, finds the stable prefix with the byte encoder and maps the
// first change; the medians of RUNS runs (default 15) are printed in
// milliseconds of wall-clock and of CPU time, each step and the whole.

#include "diff/sectionedsoul.h"
#include "diff/souldiff.h"
#include "diff/tokenencoder.h"
#include "persona/snapshotfile.h"

#include <QElapsedTimer>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace soul;

namespace {

// Wall-clock and CPU milliseconds since start: the machine may be shared, and
// CPU time shows the work apart from waiting for a core.
class Stopwatch
{
public:
    Stopwatch() { restart(); }
    void restart()
    {
        m_wall.start();
        m_cpu = cpuNow();
    }
    double wallMs() const { return double(m_wall.nsecsElapsed()) / 1e6; }
    double cpuMs() const { return (cpuNow() - m_cpu) / 1e6; }

private:
    static double cpuNow()
    {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
    }
    QElapsedTimer m_wall;
    double m_cpu = 0;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

int main(int argc, char *argv[])
{
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: soul-diff-bench A B [RUNS]\n");
        return 2;
    }
    const QString pathA = QString::fromLocal8Bit(argv[1]);
    const QString pathB = QString::fromLocal8Bit(argv[2]);
    const int runs = argc == 4 ? std::max(3, std::atoi(argv[3])) : 15;
    const TokenEncoding encoding = byteEncoding();

    struct Step
    {
        const char *name;
        std::vector<double> wall;
        std::vector<double> cpu;
        void add(const Stopwatch &w)
        {
            wall.push_back(w.wallMs());
            cpu.push_back(w.cpuMs());
        }
    };
    Step load{"load both", {}, {}};
    Step sections{"sections", {}, {}};
    Step diff{"diff", {}, {}};
    Step prefix{"prefix", {}, {}};
    Step first{"first", {}, {}};
    Step total{"total", {}, {}};
    qsizetype diffBytes = 0;
    StablePrefix p;
    std::optional<FirstChange> change;
    qsizetype soulA = 0;
    qsizetype soulB = 0;
    for (int run = 0; run < runs; ++run) {
        const Stopwatch whole;
        Stopwatch t;
        const Result<SectionedSoul> a = loadComparableSoul(pathA);
        const Result<SectionedSoul> b = loadComparableSoul(pathB);
        if (!a || !b) {
            std::fprintf(stderr, "soul-diff-bench: %s\n", qPrintable(!a ? a.error() : b.error()));
            return 2;
        }
        load.add(t);
        t.restart();
        const auto status = compareSections(*a, *b);
        sections.add(t);
        t.restart();
        diffBytes = unifiedSoulDiff(*a, *b).size();
        diff.add(t);
        t.restart();
        p = stablePrefix(a->soul, b->soul, encoding);
        prefix.add(t);
        t.restart();
        change = firstChange(*a, *b, status, qsizetype(p.bytes));
        first.add(t);
        total.add(whole);
        soulA = a->soul.size();
        soulB = b->soul.size();
    }
    std::printf("souls       %lld and %lld bytes; diff %lld bytes; %d runs\n",
                static_cast<long long>(soulA),
                static_cast<long long>(soulB),
                static_cast<long long>(diffBytes),
                runs);
    std::printf("prefix      %lld of %lld %s; first change: %s line %lld\n",
                static_cast<long long>(p.tokens),
                static_cast<long long>(p.totalTokens),
                qPrintable(encoding.unit),
                change ? qPrintable(change->file) : "-",
                change ? static_cast<long long>(change->line) : 0LL);
    std::printf("step        median wall ms   median CPU ms\n");
    for (const Step *step : {&load, &sections, &diff, &prefix, &first, &total})
        std::printf("%-10s  %14.2f  %14.2f\n", step->name, median(step->wall), median(step->cpu));
    return 0;
}
