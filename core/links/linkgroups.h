#pragma once

#include "result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Link groups: one persona file (a slot, BOOTSTRAP.md or a skill's SKILL.md)
// shared by several agents. Every member keeps a real copy in its own
// folder, so every runtime reads it as before; the group remembers the text
// it last wrote to them and says which copies still hold it.
//
// The groups of a place (a folder of personas, or OpenClaw's roster) are
// declared in one small JSON file beside the agents, never inside an agent's
// folder: `soul-links.json` in the folder of personas, or beside the OpenClaw
// config. The group's text is kept beside it, by digest, in `.soul-links/`,
// so a copy that went its own way can be compared with what the group wrote.
//
//   {
//     "version": 1,
//     "groups": [
//       {"name": "house-user", "file": "USER.md",
//        "members": ["ava", "coach", "writer"],
//        "sha256": "<hex digest of the group's text>"}
//     ]
//   }
//
// A sync that is under way also records "pendingFrom", the digest of the text
// it replaces: a run killed part way leaves each copy old or new (every copy
// goes through the atomic writer), and the next sync finishes the job
// without taking the old copies for diverged ones.
namespace soul {

// One agent of a place: the name a group names it by and its folder.
struct LinkAgent
{
    QString name;   // a persona folder's name, or an OpenClaw agent id
    QString folder; // absolute
};

// Where groups are declared and the agents they may name.
struct LinkPlace
{
    QString groupFile; // absolute path of soul-links.json
    QString what;      // "the folder of personas /p", "OpenClaw's roster (config /c)"
    QList<LinkAgent> agents;

    const LinkAgent *agent(const QString &name) const;
    // The folder that keeps the groups' texts (.soul-links beside the file).
    QString textStore() const;
};

// The personas under `parent` (listPersonaFolders()), groups in
// `parent`/soul-links.json.
Result<LinkPlace> personaFoldersPlace(const QString &parent);
// OpenClaw's agents, as the roster reader lists them, groups beside the
// config file.
struct OpenClawRoster;
LinkPlace openClawPlace(const OpenClawRoster &roster);

struct LinkGroup
{
    QString name;
    QString file; // relative to each member's folder: "USER.md", "skills/x/SKILL.md"
    QStringList members;
    QByteArray sha256;      // hex digest of the group's text
    QByteArray pendingFrom; // hex digest of the text a sync is replacing; empty: none
    int line = 0;           // where the group file declares it; 0: not read from one
};

struct LinkGroups
{
    QString path; // the group file
    bool exists = false;
    QList<LinkGroup> groups;

    const LinkGroup *group(const QString &name) const;
};

// The most a group file may declare; more is refused with a sentence.
inline constexpr int MaxLinkGroups = 1000;
inline constexpr int MaxLinkMembers = 1000;
// The most of a group file and of one copy that is read.
inline constexpr qint64 MaxLinkFileBytes = qint64(4) * 1024 * 1024;
inline constexpr qint64 MaxLinkCopyBytes = qint64(16) * 1024 * 1024;

// Why `file` cannot be a group's file, as a sentence; empty when it can: a
// slot file, BOOTSTRAP.md, or skills/NAME/SKILL.md, relative and inside.
QString linkFileProblem(const QString &file);

// The place's group file; none there is no groups. A file that is not one
// (a FIFO, over MaxLinkFileBytes, not JSON, an unknown agent, a member or a
// file twice, the same file of one agent in two groups...) is a failure
// naming the file and the line.
Result<LinkGroups> readLinkGroups(const LinkPlace &place);
// Writes `groups` to their file atomically (nothing else).
Status writeLinkGroups(const LinkGroups &groups);
// The file's text for `groups`: the format readLinkGroups() reads.
QByteArray linkGroupsText(const LinkGroups &groups);

// The group's text, kept by digest beside the group file: keepGroupText()
// stores `bytes` (once per digest) and returns their digest; groupText()
// reads it back, checking the digest; nullopt when it is not kept.
Result<QByteArray> keepGroupText(const LinkPlace &place, const QByteArray &bytes);
std::optional<QByteArray> groupText(const LinkPlace &place, const QByteArray &sha256);
// Removes kept texts that no group names (nor a pending sync).
void pruneGroupTexts(const LinkPlace &place, const LinkGroups &groups);

enum class CopyState {
    Same,    // holds the group's text
    Differs, // holds other bytes
    Missing, // there is no file
};

struct LinkCopy
{
    QString agent;
    QString path; // absolute
    CopyState state = CopyState::Missing;
    QByteArray bytes;           // as read; empty when missing
    QByteArray sha256;          // of `bytes`; empty when missing
    bool behind = false;        // differs, and holds the text a killed sync was replacing
    int firstDifferingLine = 0; // 1-based, when the group's text is kept and differs
};

// `group`'s copies, each read (bounded) and compared with the group's text.
// A copy that cannot be read (a FIFO, a folder, too large, a link out of the
// agent's folder) is a failure naming it.
Result<QList<LinkCopy>> readCopies(const LinkPlace &place, const LinkGroup &group);

QString copyStateName(CopyState state); // "same", "differs", "missing"

// Declares the group `name` of `file` for `members` (two or more agents of
// the place), its text taken from `from`'s copy (default: the first
// member's), which must exist. Writes the group file and the kept text,
// nothing in the members' folders. Refused with a sentence, writing nothing,
// for a bad name or file, an unknown or repeated agent, a name in use, or a
// member's file already in another group.
Status addGroup(const LinkPlace &place,
                LinkGroups &groups,
                const QString &name,
                const QString &file,
                const QStringList &members,
                const QString &from);
// Takes the group out of the file; every member keeps its copy as it is.
Status removeGroup(const LinkPlace &place, LinkGroups &groups, const QString &name);

// A file that is the same, byte for byte, in several agents and in no group
// of theirs: a group waiting to be made.
struct LinkCandidate
{
    QString file;
    QStringList agents; // in the place's order
    qint64 bytes = 0;
};

// The candidates among the slot files and BOOTSTRAP.md of the place's
// agents (empty files, and files that cannot be read, are passed over), by
// file then by first agent.
QList<LinkCandidate> linkCandidates(const LinkPlace &place, const LinkGroups &groups);

// What a sync wrote, and what it did not.
struct SyncOutcome
{
    QStringList written;   // agents whose copy now holds the group's text, written now
    QStringList unchanged; // already held it
    QString error;         // why it stopped; empty when every copy holds the text
    bool ok() const { return error.isEmpty(); }
};

// Writes the group's text to every member. `from` (an agent of the group),
// when given, makes that copy the group's text first. Each copy is read
// again just before it is written and must still hold the bytes read at the
// start; a copy changed meanwhile stops the sync there, naming it. Without
// `force`, a copy that diverged (holds neither the group's text nor, after a
// killed sync, the text it was replacing) stops the sync before anything is
// written. Updates the group file (`groups`, in memory and on disk).
SyncOutcome syncGroup(const LinkPlace &place,
                      LinkGroups &groups,
                      const QString &name,
                      const QString &from,
                      bool force);

} // namespace soul
