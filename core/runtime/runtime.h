#pragma once

#include "keptrange.h"
#include "lintitem.h"
#include "result.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QStringView>

// An agent runtime, as Soul Studio asks about it: which files it reads and in
// what order, what it injects from them (with what it keeps of each), its
// lints, its settings with their defaults, and the report `soulc stat`
// prints. Each runtime implements this in a folder of its own
// (runtime/toolnexus/, runtime/openclaw/, runtime/hermes/); the registry
// (registry/runtimeregistry.h) lists them. Nothing outside those folders
// decides anything by which runtime it is.
namespace soul {

class Tokenizer;
struct ComposeRule;
struct SkillsList;
struct SkillsRequest;
struct Inspection;
struct SoulTokenCounts;
struct SlotLayout;

// The unit a runtime measures files and budgets in.
enum class BudgetUnit { Bytes, Utf16Units, CodePoints };

// One number a runtime's output depends on, with its default. The window
// shows a spin box for each; a flag is 0 or 1 and shows as a check box.
struct RuntimeSetting
{
    QString key;   // as the runtime's own config names it: "bootstrapMaxChars"
    QString label; // "Per file"
    QString toolTip;
    qint64 defaultValue = 0;
    qint64 minimum = 0;
    qint64 maximum = 0;
    bool flag = false;
    QString minimumText; // shown for the minimum ("unset"), when it means something else
    // soulc's option for it ("--context-window", which takes a whole number
    // above 0); for a flag, the option that sets it against its default
    // ("--no-memory"). Empty: soulc has none.
    QString option;
};

// Setting values by key. A key the runtime does not list is ignored; one it
// lists and that is missing takes its default.
using RuntimeSettings = QMap<QString, qint64>;

// Where a runtime reads a persona from.
struct RuntimeInput
{
    QString dir; // the persona folder
    // A runtime with a home of its own (Hermes) reads the persona files from
    // `home` and the project files from `project`; both empty: `dir` is both
    // (the flat layout).
    QString home;
    QString project;
    // Editor texts that stand for files, by the names files() gives: the
    // runtime reads them as if saved. A file not here is read from disk.
    QHash<QString, QByteArray> buffers;
    // The buffers are the whole folder (a commit's files): a name not among
    // them is absent, and nothing is read from disk.
    bool buffersOnly = false;
};

// What one file comes to in the runtime's text: its pane's shading and meter.
// Ranges are in the file's decoded text (utf8::decode of its bytes: BOM and
// CRs included).
struct RuntimeFileView
{
    QString name;
    bool loaded = false;     // the runtime reads this name at all
    bool present = false;    // it took part with text of its own
    bool whole = false;      // injected untouched (up to trailing white space)
    bool truncated = false;  // present, and less of it injected than it holds
    bool droppedAll = false; // present, and none of it is injected
    KeptRange dropped;       // the middle that is not injected; empty if none
    // Places the author should see: lines restated elsewhere (OpenClaw's
    // policy digest), text a scan refuses (Hermes); `markNote` says why, and
    // `markWarns` when the mark is a problem rather than a fact.
    QList<KeptRange> marked;
    QString markNote;
    bool markWarns = false;
    // One line about the file as the runtime sees it, shown before its lints
    // ("MEMORY [7% — 163/2,200 chars], 3 entries").
    QString status;
    qint64 used = -1;      // its length in the runtime's unit; -1 when absent
    qint64 budget = 0;     // its own budget, in the same unit
    bool injected = false; // any of it reaches the agent
    QString injectedText;  // what the runtime's text holds of it, for its token count
    // Or, for a runtime that lists its blocks: the index in
    // RuntimeComposition::blocks of the block that is exactly what it
    // injects of this file (counted once, not held twice); -1: injectedText.
    int block = -1;
    // Where its part stands in RuntimeComposition::text (UTF-16 units), for
    // a runtime that places each file's part apart (OpenClaw: the text under
    // the file's header); `placed` false when it does not say.
    bool placed = false;
    KeptRange inText;
};

// One block of the runtime's text that the runtime places in a larger prompt
// of its own (Hermes's identity, project-context, memory and user-profile
// blocks): where it is in the text, in prompt order, and what the prompt
// holds after it that the text leaves out.
struct RuntimeBlock
{
    QString name;    // "identity"
    QString source;  // the files it comes from, as the panes name them: "SOUL.md"
    KeptRange range; // in RuntimeComposition::text, UTF-16 units
    // What the runtime puts between this block and the next one (after the
    // last: at the end of its prompt); empty when the text's join between
    // them is exactly the prompt's.
    QString gapAfter;
};

struct RuntimeComposition
{
    QString text;      // what the runtime injects, exactly
    QStringList found; // the files whose text is in it, in its order
    QList<RuntimeFileView> files;
    // The blocks of `text`, for a runtime whose text is blocks of a prompt
    // (their joins and what the prompt puts between them); empty for one
    // whose text is the prompt's whole part.
    QList<RuntimeBlock> blocks;
    qint64 totalUsed = 0;
    qint64 totalBudget = -1; // -1: no total
    QList<Lint> lints;
    // `soulc check` exits 1 for this, as for a lint error: a file cut,
    // blocked or over a limit.
    bool problems = false;
    // The runtime's own part of a snapshot manifest: its settings, and each
    // file's digest and kept ranges.
    QJsonObject manifest;

    const RuntimeFileView *file(QStringView name) const;
    // Where `file`'s part stands in `text`: its own place, or its block's;
    // false when the runtime does not say (nothing injected, or a block of
    // several files).
    bool placeOf(const RuntimeFileView &file, KeptRange *range) const;
};

class Runtime
{
public:
    virtual ~Runtime() = default;

    // "openclaw": the name soulc's --runtime takes and settings are kept under.
    virtual QString id() const = 0;
    // "OpenClaw 2026.9": the name shown to people.
    virtual QString displayName() const = 0;
    // "OpenClaw": the name inside a sentence ("%1 now reads AGENTS.md").
    virtual QString shortName() const { return displayName(); }
    // The files it reads, relative to the persona folder, in its order.
    virtual QStringList files() const = 0;
    // Persona files it never reads: their panes say so.
    virtual QStringList neverRead() const { return {}; }
    // A file among files() whose presence means the first run is still
    // pending (OpenClaw's BOOTSTRAP.md): its pane offers to finish setup by
    // deleting it. Empty when there is none.
    virtual QString setupFile() const { return {}; }

    virtual BudgetUnit budgetUnit() const = 0;
    virtual QList<RuntimeSetting> settings() const { return {}; }
    virtual qint64 fileBudget(QStringView fileName, const RuntimeSettings &settings) const = 0;
    // -1: no total budget.
    virtual qint64 totalBudget(const RuntimeSettings &settings) const;

    // What it injects from `input`, with its lints. Fails with a sentence
    // naming the folder when there is nothing to read at all.
    virtual Result<RuntimeComposition> compose(const RuntimeInput &input,
                                               const RuntimeSettings &settings) const = 0;
    // What `soulc stat` prints of `input`, as a table or as JSON.
    virtual Result<QByteArray> statReport(const RuntimeInput &input,
                                          const RuntimeSettings &settings,
                                          const Tokenizer &tokenizer,
                                          bool json) const = 0;
    // How `soulc check` names the file of `lint`.
    virtual QString lintLocation(const RuntimeInput &input, const Lint &lint) const;
    // Whether it reads the persona files from a home of its own and the
    // project files from a project folder (RuntimeInput::home, ::project)
    // when given them, rather than one persona folder.
    virtual bool readsHome() const { return false; }
    // A sentence for the pane of `slot` about its place in `layout`, said
    // before the file's own status (Hermes: a home's project pane whose file
    // another project file has replaced in `composition`); empty for none.
    virtual QString paneNote(const SlotLayout &layout,
                             const RuntimeComposition &composition,
                             int slot) const
    {
        Q_UNUSED(layout)
        Q_UNUSED(composition)
        Q_UNUSED(slot)
        return {};
    }

    // How soulc's help speaks of it after "--runtime NAME": "what OpenClaw
    // 2026.9 injects". Its display name unless it says more.
    virtual QString description() const { return displayName(); }
    // What soulc's help of compose, stat and check says of its options (its
    // settings' RuntimeSetting::option, homeOption()): lines that start with
    // a blank one and end with one; empty for none.
    virtual QString optionsHelp() const { return {}; }
    // Whether it composes a commit of a persona's history (soulc --rev, the
    // History panel's commits by the folder's rule) and measures folders by
    // that rule (soulc stat --all).
    virtual bool readsRevisions() const { return false; }
    // What `soulc stat --rev REV` prints of commit `commitId` (`shortId`),
    // whose slot files `inspection` found by the runtime's rule, with the
    // soul's `tokens`; as a table or as JSON. Fails, with a sentence, for a
    // runtime that does not read revisions.
    virtual Result<QByteArray> revisionReport(const Inspection &inspection,
                                              const SoulTokenCounts &tokens,
                                              const QString &rev,
                                              const QString &shortId,
                                              const QByteArray &commitId,
                                              bool json) const;
    // Whether the sidebar sums a persona up by what this runtime injects of
    // it against its total budget, whichever runtime the preview shows.
    virtual bool summarizesBudget() const { return false; }

    // Whether the runtime lists an agent's skills in its prompt, and that
    // list (runtimeskills.h): every SKILL.md found, and the list's exact
    // text. The default lists none: a failure that says so.
    virtual bool listsSkills() const { return false; }
    virtual Result<SkillsList> skills(const SkillsRequest &request) const;

    // A runtime that reads a home of its own (readsHome()): where the home is
    // found when none is named (it may not exist), its name in sentences
    // ("Hermes's home"), soulc's option that names it ("--hermes-home"), and
    // the panes of the home run in `project`, with `preferred` the label of
    // the project file to show when it is one of those read. Fails with a
    // sentence; the defaults give nothing and fail.
    virtual QString homeDirectory() const { return {}; }
    virtual QString homeOption() const { return {}; }
    virtual Result<SlotLayout> homeLayout(const QString &home,
                                          const QString &project,
                                          const QString &preferred = QString()) const;
    // The labels of the files of `project` whose text makes the project's
    // part of its text when it runs there, in order ("../AGENTS.md"), and
    // the folders whose changes can change them; none by default.
    virtual Result<QStringList> homeProjectFiles(const QString &home, const QString &project) const
    {
        Q_UNUSED(home)
        Q_UNUSED(project)
        return QStringList();
    }
    virtual QStringList homeProjectFolders(const QString &project) const
    {
        Q_UNUSED(project)
        return {};
    }
    // The files that composing `input` may read, as paths, for soulc's
    // refusal to write over one; `slotNames` are the persona's slot files,
    // which the flat layout reads from input.dir. The default: those.
    virtual QStringList readPaths(const RuntimeInput &input, const QStringList &slotNames) const;
    // A folder whose *.mdc files it reads under `input`, for the same
    // refusal; empty for none.
    virtual QString readRulesFolder(const RuntimeInput &input) const
    {
        Q_UNUSED(input)
        return {};
    }

    // Whether the panes of a folder composed by another runtime's rule hint
    // at what this runtime would keep of their files (keepHint()).
    virtual bool hintsPanes() const { return false; }
    // The hint for file `fileName` of `characters` characters under this
    // runtime's `settings`: a sentence, empty when it keeps the file whole or
    // does not read it. Its lint's code is "<id>-chars".
    virtual QString keepHint(QStringView fileName,
                             qint64 characters,
                             const RuntimeSettings &settings) const
    {
        Q_UNUSED(fileName)
        Q_UNUSED(characters)
        Q_UNUSED(settings)
        return {};
    }

    // A runtime whose text is one section per file by a ComposeRule names
    // the rule: the window then updates its preview one section at a time,
    // and soulc streams the text. Others compose whole.
    virtual const ComposeRule *sectionRule() const { return nullptr; }

    bool reads(QStringView fileName) const;
    // `values` completed with the defaults of every setting.
    RuntimeSettings withDefaults(const RuntimeSettings &values) const;
    qint64 setting(const RuntimeSettings &values, const QString &key) const;
    // At or above this a file, or the total, is "near its limit" (85%, up).
    static qint64 nearLimit(qint64 budget);
};

// The registered runtime whose hints the panes of a folder composed by another
// rule show (RuntimeRegistry::hintRuntime()); nullptr when none gives them.
// The registry defines it: the lints below the registry ask through it.
const Runtime *paneHintRuntime();

} // namespace soul
