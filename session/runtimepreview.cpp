#include "runtimepreview.h"

#include "compose/utf8.h"
#include "disk/slotlayout.h"
#include "persona/lint.h"
#include "persona/personamodel.h"
#include "persona/soultokencounter.h"
#include "registry/runtimeregistry.h"
#include "tokens/tokenchunks.h"
#include "tokens/tokenizer.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QHash>

#include <algorithm>
#include <vector>

namespace soul {

struct RuntimePreview::Job
{
    QString dir;
    SlotLayout layout; // where each slot's file is, and the runtime's name for it
    RuntimeProfile profile;
    SoulView view = SoulView::Unsaved;
    std::array<bool, SlotCount> bufferPresent{};
    std::array<QByteArray, SlotCount> buffers;
    std::shared_ptr<const Tokenizer> tokenizer; // null: no counts
    // The chunks counted by the runs before, kept by the composer; one run
    // uses it at a time.
    std::shared_ptr<ChunkedTokenCount> counts;
    RuntimeSettings hint;
    // The runtime's file beside the slots, when it reads it: its name and
    // buffer (none when the file is absent).
    QString runtimeFileName;
    std::optional<QByteArray> runtimeFile;
};

struct RuntimePreview::Output
{
    RuntimeComposition composition;
    std::array<RuntimePaneView, SlotCount> panes;
    RuntimePaneView runtimeFile;
    qint64 sectionTokens = -1;
    QList<qint64> blockTokens;
    QString encoding;
    QString sha256;
    // What it was composed for.
    SoulView view = SoulView::Unsaved;
    RuntimeProfile profile;
};

// What the runtime reads from disk for `job`: the folder, and a home's layout.
RuntimeInput RuntimePreview::diskInput(const Job &job)
{
    RuntimeInput disk;
    disk.dir = job.dir;
    disk.home = job.layout.home;
    disk.project = job.layout.project;
    return disk;
}

// The same with the panes' buffers, and the runtime's own file's, in place
// of the files.
RuntimeInput RuntimePreview::unsavedInput(const Job &job)
{
    RuntimeInput unsaved = diskInput(job);
    for (int k = 0; k < SlotCount; ++k) {
        if (job.bufferPresent.at(size_t(k)))
            unsaved.buffers.insert(job.layout.names.at(size_t(k)), job.buffers.at(size_t(k)));
    }
    if (job.runtimeFile)
        unsaved.buffers.insert(job.runtimeFileName, *job.runtimeFile);
    return unsaved;
}

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

// Whether `a` and `b` name the same file: the same path, or one reached
// through a link of the other.
bool samePath(const QString &a, const QString &b)
{
    if (QDir::cleanPath(a) == QDir::cleanPath(b))
        return true;
    const QString canonical = QFileInfo(a).canonicalFilePath();
    return !canonical.isEmpty() && canonical == QFileInfo(b).canonicalFilePath();
}

// A folder that cannot be read (it was removed meanwhile) composes to nothing;
// the window says so in its own bar.
RuntimeComposition composedOrEmpty(Result<RuntimeComposition> result)
{
    return result ? std::move(result).value() : RuntimeComposition();
}

// What every pane's view is made from: one run's text and counts.
struct PaneFigures
{
    const SlotLayout &layout;
    const RuntimeProfile &profile;
    const RuntimeSettings &hint;
    const std::shared_ptr<const Tokenizer> &tokenizer;
    ChunkedTokenCount &counts;
    const Runtime &runtime;
    const RuntimeComposition &edited;
    const QList<qint64> &blockTokens;
    qint64 editedTokens;
    const QString &encoding;
};

// What the pane of slot `slot` (-1: the runtime's own file, BOOTSTRAP.md),
// the file `name` at `path` with its buffer `buffer` or none, shows of
// `figures.edited`.
RuntimePaneView fileView(const PaneFigures &figures,
                         int slot,
                         const QString &name,
                         const QString &path,
                         const QByteArray *buffer)
{
    const RuntimeComposition &edited = figures.edited;
    RuntimePaneView pane;
    const RuntimeFileView *file = edited.file(name);
    pane.active = true;
    pane.hintSettings = figures.hint;
    pane.loaded = file && file->loaded;
    pane.budget = figures.profile.fileBudget(name);
    pane.totalUsed = edited.totalUsed;
    pane.totalBudget = edited.totalBudget;
    pane.totalTokens = figures.editedTokens;
    pane.encoding = figures.encoding;
    QStringList notes;
    // What the runtime says of a slot pane's place first (a Hermes home's
    // project pane whose file another one has replaced).
    if (slot >= 0) {
        if (const QString note = figures.runtime.paneNote(figures.layout, edited, slot);
            !note.isEmpty())
            notes.append(note);
    }
    if (file && !file->status.isEmpty())
        notes.append(file->status);
    for (const Lint &lint : edited.lints) {
        // A runtime names a file as the pane does, or by its path. In a
        // layout, names repeat across folders (the project's SOUL.md is
        // not the home's): only the pane's own path is its file.
        if (figures.layout.isFolder()
                ? lint.file == name || lint.file.endsWith(QLatin1Char('/') + name)
                : samePath(lint.file, path))
            notes.append(lint.message);
    }
    if (!pane.loaded && notes.isEmpty())
        notes.append(
            RuntimePreview::tr("%1 is not loaded by %2.").arg(name, figures.runtime.displayName()));
    pane.note = notes.join(QLatin1Char(' '));
    if (!pane.loaded || !file)
        return pane;
    if (file->present) {
        pane.used = file->used;
        if (!file->injected)
            pane.tokens = figures.tokenizer ? 0 : -1;
        else if (file->block >= 0 && file->block < figures.blockTokens.size())
            pane.tokens = figures.blockTokens.at(file->block);
        else
            pane.tokens = figures.counts.count(figures.tokenizer, file->injectedText.toUtf8());
    }
    pane.whole = file->whole;
    pane.markNote = file->markNote;
    pane.markWarns = file->markWarns;
    if (!buffer || !file->present || (file->dropped.length == 0 && file->marked.isEmpty()))
        return pane;
    // The ranges are in the file's decoded text; the pane holds it
    // without the BOM and with each CR LF as one line break. Decoded only
    // for a file with ranges: a copy of a file of megabytes.
    const PanePositions positions(utf8::decode(*buffer));
    if (file->dropped.length > 0)
        pane.dropped = positions.map(file->dropped);
    for (const KeptRange &line : file->marked)
        pane.digestLines.append(positions.map(line));
    return pane;
}

} // namespace

RuntimePreview::RuntimePreview(const PersonaModel *model, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_memory(settings)
    , m_remembers(settings != nullptr)
    , m_profile(RuntimeProfile::toolnexus())
    , m_counts(std::make_shared<ChunkedTokenCount>())
{
    m_pool.setMaxThreadCount(1);
    m_timer.setSingleShot(true);
    m_timer.setInterval(DelayMs);
    connect(&m_timer, &QTimer::timeout, this, &RuntimePreview::start);
    // Each runtime's last settings, so switching back finds them, and the
    // last choice made anywhere until a folder opens with its own.
    if (m_remembers) {
        for (const Runtime *runtime : RuntimeRegistry::instance().runtimes())
            m_settings.insert(runtime->id(), m_memory.settingsOf(*runtime));
        const RuntimeProfile last = m_memory.profileFor(QString());
        m_settings.insert(last.id(), last.settings);
        m_profile = last;
    }
    m_hint = hintSettings();
    m_shownProfile = m_profile;
    connect(model, &PersonaModel::opened, this, &RuntimePreview::folderOpened);
    connect(model, &PersonaModel::closed, this, [this] {
        if (!m_profile.sectioned())
            recomputeNow();
    });
    connect(model, &PersonaModel::sectionChanged, this, &RuntimePreview::schedule);
    // A document beside the slots has no section; the runtime may read it.
    connect(model, &PersonaModel::slotStateChanged, this, [this](int doc) {
        if (doc >= SlotCount && doc == readRuntimeDocument())
            schedule();
    });
}

RuntimePreview::~RuntimePreview()
{
    m_pool.waitForDone();
}

void RuntimePreview::choose(const RuntimeProfile &profile)
{
    if (!profile.runtime)
        return;
    if (m_remembers)
        m_memory.remember(m_model->isOpen() ? m_model->directory() : QString(), profile);
    setProfile(profile);
}

bool RuntimePreview::chooseRuntime(const QString &runtimeId)
{
    const Runtime *runtime = RuntimeRegistry::instance().find(runtimeId);
    if (!runtime)
        return false;
    choose(RuntimeProfile::of(runtime, settingsFor(runtime->id())));
    return true;
}

RuntimeSettings RuntimePreview::settingsFor(const QString &runtimeId) const
{
    return m_settings.value(runtimeId);
}

RuntimeSettings RuntimePreview::hintSettings() const
{
    const Runtime *hinting = RuntimeRegistry::instance().hintRuntime();
    return hinting ? hinting->withDefaults(settingsFor(hinting->id())) : RuntimeSettings();
}

void RuntimePreview::setAgentProfile(const RuntimeProfile &own)
{
    m_agentProfile = own;
}

void RuntimePreview::folderOpened(const QString &dir)
{
    // The folder opens with the runtime chosen for it last time, else the
    // last one chosen anywhere; an agent of a roster with its own settings.
    RuntimeProfile profile = m_remembers ? m_memory.profileFor(dir) : m_profile;
    if (const RuntimeProfile &own = m_agentProfile; own.runtime) {
        m_settings.insert(own.id(), own.settings);
        if (profile.runtime == own.runtime)
            profile = own;
    }
    m_hint = hintSettings();
    // Composed once for the folder: under a runtime that composes by
    // sections, only the panes' hint (no worker).
    if (profile != m_profile)
        setProfile(profile);
    else
        recomputeNow();
}

void RuntimePreview::setProfile(const RuntimeProfile &profile)
{
    m_settings.insert(profile.id(), profile.settings);
    if (profile == m_profile)
        return;
    m_profile = profile;
    m_hint = hintSettings();
    Q_EMIT profileChanged(m_profile);
    recomputeNow();
}

void RuntimePreview::setView(SoulView view)
{
    if (view == m_view)
        return;
    m_view = view;
    if (!m_profile.sectioned())
        recomputeNow();
}

void RuntimePreview::setTokenCounter(const SoulTokenCounter *counter)
{
    m_counter = counter;
    connect(counter, &SoulTokenCounter::encodingChanged, this, [this] {
        if (!m_profile.sectioned())
            recomputeNow();
    });
    if (!m_profile.sectioned())
        recomputeNow();
}

int RuntimePreview::readRuntimeDocument() const
{
    if (!m_profile.runtime)
        return -1;
    const QStringList files = m_profile.runtime->files();
    for (const QString &name : files) {
        const int doc = m_model->documentIndex(name);
        if (doc >= 0 && m_model->isDocumentOpen(doc))
            return doc;
    }
    return -1;
}

void RuntimePreview::schedule()
{
    if (!m_profile.sectioned())
        m_timer.start();
}

void RuntimePreview::recomputeNow()
{
    m_timer.stop();
    start();
}

bool RuntimePreview::upToDate() const
{
    return !m_profile.sectioned() && m_shown > 0 && !busy() && m_shownView == SoulView::Unsaved
           && m_shownProfile == m_profile;
}

QByteArray RuntimePreview::currentText() const
{
    if (!m_model->isOpen())
        return {};
    if (m_profile.sectioned())
        return m_model->soul(SoulView::Unsaved);
    if (upToDate())
        return m_composition.text.toUtf8();
    // Typed since the last result: what the worker will show after the
    // pause, composed here without its counts.
    const Job now = job();
    return composedOrEmpty(now.profile.runtime->compose(unsavedInput(now), now.profile.settings))
        .text.toUtf8();
}

RuntimePreview::Job RuntimePreview::job() const
{
    Job job;
    job.dir = m_model->directory();
    job.layout = m_model->layout();
    job.profile = m_profile;
    job.hint = m_hint;
    job.view = m_view;
    if (m_counter)
        job.tokenizer = m_counter->tokenizer();
    job.counts = m_counts;
    for (int k = 0; k < SlotCount; ++k) {
        const SlotState &state = m_model->slot(k);
        job.bufferPresent.at(size_t(k)) = state.bufferPresent;
        job.buffers.at(size_t(k)) = state.bufferBytes; // shared, not copied
    }
    if (const int doc = readRuntimeDocument(); doc >= 0) {
        const SlotState &state = m_model->slot(doc);
        job.runtimeFileName = m_model->slotLabel(doc);
        if (state.bufferPresent)
            job.runtimeFile = state.bufferBytes; // shared, not copied
    }
    return job;
}

void RuntimePreview::start()
{
    if (m_running) {
        m_again = true;
        return;
    }
    Job next = job();
    const quint64 generation = ++m_requested;
    if (next.profile.sectioned()) {
        auto output = std::make_shared<Output>();
        output->view = next.view;
        output->profile = next.profile;
        for (RuntimePaneView &pane : output->panes)
            pane.hintSettings = next.hint;
        finish(generation, output);
        return;
    }
    m_running = true;
    m_pool.start([this, next = std::move(next), generation] {
        std::shared_ptr<Output> output = run(next);
        QMetaObject::invokeMethod(
            this, [this, generation, output] { finish(generation, output); }, Qt::QueuedConnection);
    });
}

std::shared_ptr<RuntimePreview::Output> RuntimePreview::run(const Job &job)
{
    auto output = std::make_shared<Output>();
    output->view = job.view;
    output->profile = job.profile;
    if (job.dir.isEmpty())
        return output;
    const Runtime &runtime = *job.profile.runtime;
    // The panes hold the buffers: they show what the runtime keeps of those,
    // and the preview shows that too unless it shows what is on disk.
    const RuntimeInput disk = diskInput(job);
    const RuntimeInput unsaved = unsavedInput(job);
    const RuntimeComposition edited = composedOrEmpty(
        runtime.compose(unsaved, job.profile.settings));
    if (job.view == SoulView::Unsaved) {
        output->composition = edited;
    } else {
        output->composition = composedOrEmpty(runtime.compose(disk, job.profile.settings));
    }

    // Exact tokens of the text, of each of its blocks and of each file's part
    // in it, counted here off the GUI thread: Hermes injects memory files
    // whole, megabytes on a large persona. A keystroke changes a chunk or two
    // of them; the others keep the counts of the run before.
    ChunkedTokenCount &counts = *job.counts;
    counts.nextRound();
    const auto countTokens = [&job, &counts](QStringView text) {
        return counts.count(job.tokenizer, text.toUtf8());
    };
    const auto countBlocks = [&countTokens](const RuntimeComposition &composition) {
        QList<qint64> tokens;
        tokens.reserve(composition.blocks.size());
        for (const RuntimeBlock &block : composition.blocks)
            tokens.append(countTokens(
                QStringView(composition.text).sliced(block.range.start, block.range.length)));
        return tokens;
    };
    // The shown text as UTF-8 once, for its count and its digest.
    const QByteArray shownUtf8 = output->composition.text.toUtf8();
    const qint64 shownTokens = counts.count(job.tokenizer, shownUtf8);
    const qint64 editedTokens = job.view == SoulView::Unsaved ? shownTokens
                                                              : countTokens(edited.text);
    output->sectionTokens = shownTokens;
    const QList<qint64> editedBlockTokens = countBlocks(edited);
    output->blockTokens = job.view == SoulView::Unsaved ? editedBlockTokens
                                                        : countBlocks(output->composition);
    if (job.tokenizer)
        output->encoding = job.tokenizer->name();
    output->sha256 = QString::fromLatin1(
        QCryptographicHash::hash(shownUtf8, QCryptographicHash::Sha256).toHex());

    const PaneFigures figures{job.layout,
                              job.profile,
                              job.hint,
                              job.tokenizer,
                              counts,
                              runtime,
                              edited,
                              editedBlockTokens,
                              editedTokens,
                              output->encoding};
    for (int k = 0; k < SlotCount; ++k) {
        const bool present = job.bufferPresent.at(size_t(k));
        output->panes.at(size_t(k)) = fileView(figures,
                                               k,
                                               job.layout.names.at(size_t(k)),
                                               job.layout.paths.at(size_t(k)),
                                               present ? &job.buffers.at(size_t(k)) : nullptr);
    }
    if (!job.runtimeFileName.isEmpty()) {
        output->runtimeFile = fileView(figures,
                                       -1,
                                       job.runtimeFileName,
                                       QDir(job.dir).filePath(job.runtimeFileName),
                                       job.runtimeFile ? &*job.runtimeFile : nullptr);
    }
    // What the files inject was only wanted for the counts: the window keeps
    // the text, not a second copy of each file's part of it.
    for (RuntimeFileView &file : output->composition.files)
        file.injectedText.clear();
    return output;
}

void RuntimePreview::finish(quint64 generation, const std::shared_ptr<Output> &output)
{
    m_running = false;
    // Runs are one at a time in order, so a later generation is newer text;
    // when another run is already asked for (the profile or the view changed
    // meanwhile), this result is out of date and the next one replaces it.
    if (generation > m_shown && !m_again) {
        m_shown = generation;
        m_composition = std::move(output->composition);
        m_panes = std::move(output->panes);
        m_runtimeFileView = std::move(output->runtimeFile);
        m_sectionTokens = output->sectionTokens;
        m_blockTokens = std::move(output->blockTokens);
        m_encoding = std::move(output->encoding);
        m_sha256 = std::move(output->sha256);
        m_shownView = output->view;
        m_shownProfile = std::move(output->profile);
        Q_EMIT compositionChanged();
    }
    if (m_again) {
        m_again = false;
        start();
    }
}

} // namespace soul
