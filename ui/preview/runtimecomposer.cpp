#include "runtimecomposer.h"

#include "lint.h"
#include "openclawreader.h"
#include "soultokencounter.h"
#include "tokenizer.h"
#include "utf8.h"

#include <QHash>

#include <algorithm>
#include <vector>

namespace soul {

struct RuntimeComposer::Job
{
    QString dir;
    RuntimeProfile profile;
    SoulView view = SoulView::Unsaved;
    std::array<bool, SlotCount> bufferPresent{};
    std::array<QByteArray, SlotCount> buffers;
    std::shared_ptr<const Tokenizer> tokenizer; // null: no counts
};

struct RuntimeComposer::Output
{
    OpenClawComposition composition;
    std::array<RuntimePaneView, SlotCount> panes;
    qint64 sectionTokens = -1;
    QString encoding;
};

namespace {

// Maps positions of a file's decoded text (BOM and CRs included) to the pane's
// text, which keeps the BOM aside and holds each CR LF as one '\n'.
class PanePositions
{
public:
    explicit PanePositions(QStringView decoded)
        : m_bom(decoded.startsWith(QChar(0xFEFF)) ? 1 : 0)
    {
        for (qsizetype i = decoded.indexOf(u"\r\n"); i >= 0; i = decoded.indexOf(u"\r\n", i + 2))
            m_crlf.push_back(i);
    }

    qsizetype map(qsizetype position) const
    {
        const auto before = std::lower_bound(m_crlf.begin(), m_crlf.end(), position)
                            - m_crlf.begin();
        return qMax<qsizetype>(0, position - m_bom - before);
    }

    KeptRange map(const KeptRange &range) const
    {
        const qsizetype start = map(range.start);
        return {start, map(range.start + range.length) - start};
    }

private:
    qsizetype m_bom = 0;
    std::vector<qsizetype> m_crlf;
};

// The entries OpenClaw would read if every buffer were saved: a buffer stands
// for a regular file with its bytes; a file OpenClaw refuses on disk stays
// refused, and BOOTSTRAP.md is what is on disk.
OpenClawInput withBuffers(const OpenClawInput &disk,
                          const std::array<bool, SlotCount> &present,
                          const std::array<QByteArray, SlotCount> &buffers)
{
    QHash<QString, OpenClawEntry> onDisk;
    for (const OpenClawEntry &entry : disk.entries)
        onDisk.insert(entry.name, entry);
    OpenClawInput input;
    input.dir = disk.dir;
    input.bootstrapPending = disk.bootstrapPending;
    for (const QString &name : openClawFileOrder()) {
        const int slot = slotIndex(name);
        const auto found = onDisk.constFind(name);
        const bool buffer = slot >= 0 && present.at(size_t(slot));
        if (!buffer
            || (found != onDisk.constEnd() && found->kind == OpenClawEntry::Kind::Unreadable)) {
            if (found != onDisk.constEnd())
                input.entries.append(*found);
            continue;
        }
        OpenClawEntry entry;
        entry.name = name;
        entry.text = utf8::decode(buffers.at(size_t(slot)));
        input.entries.append(entry);
    }
    return input;
}

} // namespace

RuntimeComposer::RuntimeComposer(const PersonaModel *model, QObject *parent)
    : QObject(parent)
    , m_model(model)
{
    m_pool.setMaxThreadCount(1);
    m_timer.setSingleShot(true);
    m_timer.setInterval(DelayMs);
    connect(&m_timer, &QTimer::timeout, this, &RuntimeComposer::start);
}

RuntimeComposer::~RuntimeComposer()
{
    m_pool.waitForDone();
}

void RuntimeComposer::setProfile(const RuntimeProfile &profile)
{
    // The OpenClaw settings count under toolnexus too: the panes' hints use them.
    if (profile == m_profile && profile.openClaw == m_profile.openClaw)
        return;
    m_profile = profile;
    recomputeNow();
}

void RuntimeComposer::setView(SoulView view)
{
    if (view == m_view)
        return;
    m_view = view;
    if (m_profile.runtime != Runtime::Toolnexus)
        recomputeNow();
}

void RuntimeComposer::setTokenCounter(const SoulTokenCounter *counter)
{
    m_counter = counter;
    connect(counter, &SoulTokenCounter::encodingChanged, this, [this] {
        if (m_profile.runtime != Runtime::Toolnexus)
            recomputeNow();
    });
    if (m_profile.runtime != Runtime::Toolnexus)
        recomputeNow();
}

void RuntimeComposer::schedule()
{
    if (m_profile.runtime != Runtime::Toolnexus)
        m_timer.start();
}

void RuntimeComposer::recomputeNow()
{
    m_timer.stop();
    start();
}

void RuntimeComposer::start()
{
    if (m_running) {
        m_again = true;
        return;
    }
    Job job;
    job.dir = m_model->directory();
    job.profile = m_profile;
    job.view = m_view;
    if (m_counter)
        job.tokenizer = m_counter->tokenizer();
    for (int k = 0; k < SlotCount; ++k) {
        const SlotState &state = m_model->slot(k);
        job.bufferPresent.at(size_t(k)) = state.bufferPresent;
        job.buffers.at(size_t(k)) = state.bufferBytes; // shared, not copied
    }
    const quint64 generation = ++m_requested;
    if (job.profile.runtime == Runtime::Toolnexus) {
        auto output = std::make_shared<Output>();
        for (RuntimePaneView &pane : output->panes)
            pane.openClaw = job.profile.openClaw;
        finish(generation, output);
        return;
    }
    m_running = true;
    m_pool.start([this, job = std::move(job), generation] {
        std::shared_ptr<Output> output = run(job);
        QMetaObject::invokeMethod(
            this, [this, generation, output] { finish(generation, output); }, Qt::QueuedConnection);
    });
}

std::shared_ptr<RuntimeComposer::Output> RuntimeComposer::run(const Job &job)
{
    auto output = std::make_shared<Output>();
    if (job.dir.isEmpty())
        return output;
    const OpenClawSettings &settings = job.profile.openClaw;
    // The panes' text stands for the files that have a buffer: unless the
    // preview shows what is on disk, those files are only checked, not read
    // (on a large persona that is some 12 MiB read and 24 MiB decoded less).
    QStringList checkOnly;
    if (job.view == SoulView::Unsaved) {
        for (int k = 0; k < SlotCount; ++k) {
            if (job.bufferPresent.at(size_t(k)))
                checkOnly.append(slotName(k));
        }
    }
    const OpenClawInput disk = readOpenClawDirectory(job.dir, checkOnly);
    const OpenClawInput unsaved = withBuffers(disk, job.bufferPresent, job.buffers);
    const OpenClawComposition edited = composeOpenClaw(unsaved, settings);
    output->composition = job.view == SoulView::Unsaved ? edited : composeOpenClaw(disk, settings);

    // Exact tokens of the section and of each file's text in it: at most a
    // few hundred KB under OpenClaw's budgets, counted here off the GUI thread.
    const auto countTokens = [&job](const QString &text) {
        return job.tokenizer ? job.tokenizer->count(text.toUtf8()) : qint64(-1);
    };
    const qint64 editedTokens = countTokens(edited.section);
    output->sectionTokens = job.view == SoulView::Unsaved
                                ? editedTokens
                                : countTokens(output->composition.section);
    if (job.tokenizer)
        output->encoding = job.tokenizer->name();

    // The panes hold the buffers: they show what the rule keeps of those.
    const QList<Lint> lints = lintOpenClaw(job.dir, unsaved, edited);
    for (int k = 0; k < SlotCount; ++k) {
        RuntimePaneView &pane = output->panes.at(size_t(k));
        const QString name = slotName(k);
        pane.active = true;
        pane.openClaw = settings;
        pane.loaded = job.profile.loads(name);
        pane.budget = job.profile.fileBudget(name);
        pane.totalUsed = edited.totalInjected;
        pane.totalBudget = job.profile.totalBudget();
        pane.totalTokens = editedTokens;
        pane.encoding = output->encoding;
        QStringList notes;
        for (const Lint &lint : lints) {
            if (lint.file == name)
                notes.append(lint.message);
        }
        if (!pane.loaded && notes.isEmpty())
            notes.append(tr("%1 is not loaded by %2.").arg(name, job.profile.displayName()));
        pane.note = notes.join(QLatin1Char(' '));
        if (!pane.loaded)
            continue;
        for (const OpenClawFileFigures &figures : edited.files) {
            if (figures.name == name && figures.kind == OpenClawEntry::Kind::Content) {
                pane.used = figures.raw;
                pane.tokens = !figures.injectedAny ? (job.tokenizer ? 0 : -1)
                                                   : countTokens(figures.promptText);
            }
        }
        const OpenClawKept kept = openClawKept(edited, name);
        pane.whole = kept.whole;
        const OpenClawEntry *entry = nullptr;
        for (const OpenClawEntry &candidate : unsaved.entries) {
            if (candidate.name == name && candidate.kind == OpenClawEntry::Kind::Content)
                entry = &candidate;
        }
        if (!entry || !job.bufferPresent.at(size_t(k)))
            continue;
        const PanePositions positions(entry->text);
        if (kept.droppedByTotal)
            pane.dropped = positions.map(KeptRange{0, entry->text.size()});
        else if (kept.dropped.length > 0)
            pane.dropped = positions.map(kept.dropped);
        for (const KeptRange &line : kept.digestLines)
            pane.digestLines.append(positions.map(line));
    }
    return output;
}

void RuntimeComposer::finish(quint64 generation, const std::shared_ptr<Output> &output)
{
    m_running = false;
    // Runs are one at a time in order, so a later generation is newer text;
    // when another run is already asked for (the profile or the view changed
    // meanwhile), this result is out of date and the next one replaces it.
    if (generation > m_shown && !m_again) {
        m_shown = generation;
        m_composition = std::move(output->composition);
        m_panes = std::move(output->panes);
        m_sectionTokens = output->sectionTokens;
        m_encoding = std::move(output->encoding);
        Q_EMIT updated();
    }
    if (m_again) {
        m_again = false;
        start();
    }
}

} // namespace soul
