#pragma once

#include "hermesscan.h"
#include "hermestext.h"

#include <QList>
#include <QString>
#include <QStringView>

#include <utility>

// What Hermes Agent 0.21.3 injects from a persona: the identity (SOUL.md),
// project-context, memory (MEMORY.md) and user-profile (USER.md) blocks of
// its system prompt, exactly, as a pure function of the files it reads (read
// by hermesreader.h from disk, or made from editor buffers), two paths and
// the settings. The rule is docs/hermes-0.21.3.md; Hermes's own code is the
// oracle (.ci/hermes-oracle). Counts and cuts are in code points, as Python
// counts; every offset into a text is in UTF-16 units, as QString indexes.
namespace soul {

// The settings that change what Hermes injects (section 10.2), with its
// defaults.
struct HermesSettings
{
    static constexpr qint64 DefaultCap = 20000;
    static constexpr qint64 DefaultMemoryCharLimit = 2200;
    static constexpr qint64 DefaultUserCharLimit = 1375;

    qint64 contextWindow = 0;       // the model's window in tokens; 0 or less: unknown
    qint64 contextFileMaxChars = 0; // config.yaml context_file_max_chars; 0 or less: unset
    qint64 memoryCharLimit = DefaultMemoryCharLimit;
    qint64 userCharLimit = DefaultUserCharLimit;
    bool memoryEnabled = true;
    bool userProfileEnabled = true;

    // The cap on SOUL.md and on each project-context section (section 6.1).
    qint64 cap() const;

    bool operator==(const HermesSettings &o) const
    {
        return contextWindow == o.contextWindow && contextFileMaxChars == o.contextFileMaxChars
               && memoryCharLimit == o.memoryCharLimit && userCharLimit == o.userCharLimit
               && memoryEnabled == o.memoryEnabled && userProfileEnabled == o.userProfileEnabled;
    }
    bool operator!=(const HermesSettings &o) const { return !(*this == o); }
};

// One file where Hermes looks for it.
struct HermesFile
{
    enum class State {
        Missing,    // no such path (a dangling link included)
        NotAFile,   // a directory or another non-regular file: Hermes reads nothing
        Unreadable, // a regular file that cannot be read or is not valid UTF-8
        Text,
    };
    State state = State::Missing;
    QString text;           // Text: decoded, BOM dropped, line breaks LF
    qsizetype badByte = -1; // Unreadable for its bytes: offset of the first invalid one
    QString reason;         // Unreadable, NotAFile: why, as a phrase

    static HermesFile fromText(QString text)
    {
        HermesFile f;
        f.state = State::Text;
        f.text = std::move(text);
        return f;
    }
};
// A file's bytes decoded as Hermes decodes them: Text, or Unreadable at the
// first invalid byte.
HermesFile hermesFileFromBytes(QByteArrayView bytes);

// One directory where Hermes looks for project files, with the files of the
// names it looks for (the others are taken as missing).
struct HermesProjectDirectory
{
    QString path; // resolved and absolute, as Path.resolve() gives it
    QList<std::pair<QString, HermesFile>> files;

    HermesFile file(QStringView name) const;
};

struct HermesInput
{
    QString homePath;  // HOME as Hermes prints it (absolute, links kept)
    HermesFile soul;   // HOME/SOUL.md
    HermesFile memory; // HOME/memories/MEMORY.md
    HermesFile user;   // HOME/memories/USER.md
    // The directories from the git root down to the project directory, which
    // is last; the project directory alone outside a git repository.
    QList<HermesProjectDirectory> chain;
    // DIR/.cursor/rules/*.mdc, by name (".cursor/rules/NAME"), in Hermes's
    // order (by code point); empty without that folder.
    QList<std::pair<QString, HermesFile>> cursorRules;
};

// The names Hermes looks for in every directory of the chain, and in the
// project directory only, in its order.
QStringList hermesChainFileNames();   // .hermes.md HERMES.md AGENTS.override.md AGENTS.md agents.md
QStringList hermesProjectFileNames(); // CLAUDE.md claude.md .cursorrules

// Hermes's identity when it has no SOUL.md (DEFAULT_AGENT_IDENTITY).
QString hermesDefaultIdentity();

// How a text was held to the cap (section 6.2).
struct HermesCut
{
    bool truncated = false;
    qsizetype length = 0; // N, in code points
    qsizetype cap = 0;
    qsizetype head = 0; // h: code points kept from the start
    qsizetype tail = 0; // t: from the end (0 keeps the whole text a second time)
    QString warnName;   // the name the marker and Hermes's warning give
    QString readPath;   // the path the marker gives
};

enum class HermesBlock { Identity, ProjectContext, Memory, UserProfile };

// One file Hermes read or looked at for SOUL.md or the project context.
struct HermesFileReport
{
    QString name; // its label: "SOUL.md", "AGENTS.md", "../AGENTS.md", ".cursor/rules/a.mdc"
    QString path; // absolute
    HermesBlock block = HermesBlock::Identity;
    HermesFile::State state = HermesFile::State::Missing;
    qsizetype badByte = -1;
    QString reason;      // Unreadable, NotAFile: why, as a phrase (HermesFile::reason)
    qsizetype chars = 0; // code points of its stripped text
    bool read = true;    // Hermes reads it (a rival the search never reached is not)
    bool used = false;   // its text, or its BLOCKED line, is in the prompt
    // A project file with text that another file won over: that file's label.
    QString beatenBy;
    HermesScan scan;        // what the scan found; positions in the file's text
    QString blockedLine;    // the line that replaces it, when the scan found anything
    HermesCut cut;          // the cut of the section it is in
    QList<HermesSpan> kept; // the parts of the file's text in the prompt
};

// One entry of a memory file.
struct HermesMemoryEntry
{
    HermesSpan span; // in the file's text, stripped
    QString text;
    qsizetype chars = 0;          // code points
    qsizetype duplicateOf = -1;   // the earlier equal entry: Hermes drops this one
    HermesScan scan;              // strict scope; positions in the file's text
    QString injected;             // the entry or its BLOCKED line; empty for a duplicate
    bool pushesOverLimit = false; // the memory tool's count passes the limit here
};

// MEMORY.md or USER.md, and its block.
struct HermesMemoryStore
{
    QString name;  // "MEMORY.md", "USER.md"
    QString title; // "MEMORY (your personal notes)", "USER PROFILE (who the user is)"
    HermesFile::State state = HermesFile::State::Missing;
    qsizetype badByte = -1;
    QString reason; // Unreadable, NotAFile: why, as a phrase (HermesFile::reason)
    bool enabled = true;
    qsizetype limit = 0;
    QList<HermesMemoryEntry> entries; // non-blank, in file order, duplicates included
    qsizetype blankEntries = 0;       // pieces between separators with nothing but whitespace
    qsizetype chars = 0;              // what the memory tool counts: the kept entries joined
    qsizetype injectedChars = 0;      // what the header counts: after BLOCKED lines replace entries
    int percent = 0;
    QString usage; // "28% — 638/2,200 chars"
    QString block; // the block as injected; empty when there is none
    QList<HermesSpan> kept;

    bool overLimit() const { return chars > limit; }
};

enum class HermesProjectSource { None, HermesMd, AgentsChain, Claude, CursorRules };

struct HermesComposition
{
    qsizetype cap = 0;
    bool soulLoaded = false; // else the identity is hermesDefaultIdentity()
    HermesProjectSource projectSource = HermesProjectSource::None;
    // Each block as it enters the prompt (stripped); empty when absent. The
    // identity is never absent.
    QString identity;
    QString projectContext;
    QString memory;
    QString userProfile;
    // The blocks joined by a blank line, in prompt order: the prompt with
    // every block that is not the persona's removed. No final newline.
    QString joined;
    QList<std::pair<HermesBlock, HermesSpan>> blocks; // where each present block is in joined
    // SOUL.md, then each project file Hermes found, in the order it looks.
    QList<HermesFileReport> files;
    HermesCut chainCut; // the AGENTS chain's own cut, when several directories gave text
    HermesMemoryStore memoryStore;
    HermesMemoryStore userStore;

    const HermesFileReport *file(QStringView name) const;
};

HermesComposition composeHermes(const HermesInput &input, const HermesSettings &settings = {});

} // namespace soul
