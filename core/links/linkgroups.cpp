#include "linkgroups.h"

#include "agents/json5.h"
#include "agents/openclawroster.h"
#include "agents/personafolders.h"
#include "compose/contract.h"
#include "disk/atomicwrite.h"
#include "disk/guardedread.h"
#include "disk/slotreader.h"
#include "runtime/reporttext.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

namespace soul {

namespace {

const QString GroupFileName = QStringLiteral("soul-links.json");
const QString TextStoreName = QStringLiteral(".soul-links");

QByteArray digestOf(const QByteArray &bytes)
{
    return sha256Hex(bytes).toLatin1();
}

bool isHexDigest(const QString &text)
{
    if (text.size() != 64)
        return false;
    for (const QChar c : text) {
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9'))
              || (c >= QLatin1Char('a') && c <= QLatin1Char('f'))))
            return false;
    }
    return true;
}

// A group's name: 1 to 64 of letters, digits, '.', '_' and '-', not starting
// with '.', so it can name a file and be typed on a command line.
QString groupNameProblem(const QString &name)
{
    if (name.isEmpty())
        return QStringLiteral("A group needs a name.");
    bool fine = name.size() <= 64 && !name.startsWith(QLatin1Char('.'));
    for (const QChar c : name) {
        fine = fine
               && ((c >= QLatin1Char('a') && c <= QLatin1Char('z'))
                   || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
                   || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.')
                   || c == QLatin1Char('_') || c == QLatin1Char('-'));
    }
    if (fine)
        return {};
    return QStringLiteral(
               "The group name \"%1\" is not one Soul Studio takes: use 1 to 64 letters, "
               "digits, '.', '_' or '-', not starting with '.'.")
        .arg(printableText(name));
}

QString jsonString(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\')) {
            out += QLatin1Char('\\');
            out += c;
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f || c.unicode() == 0x2028
                   || c.unicode() == 0x2029) {
            out += QStringLiteral("\\u%1").arg(uint(c.unicode()), 4, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    out += QLatin1Char('"');
    return out;
}

// 1-based line of the first byte where `a` and `b` differ; 0 when equal.
int firstDifferingLine(const QByteArray &a, const QByteArray &b)
{
    const qsizetype common = std::min(a.size(), b.size());
    int line = 1;
    for (qsizetype i = 0; i < common; ++i) {
        if (a.at(i) != b.at(i))
            return line;
        if (a.at(i) == '\n')
            ++line;
    }
    return a.size() == b.size() ? 0 : line;
}

// The copy's path refused when it leads out of the agent's folder.
QString escapeProblem(const QString &folder, const QString &path)
{
    const QFileInfo info(path);
    if (!info.isSymLink() && !info.exists())
        return {};
    const QString target = info.canonicalFilePath();
    const QString home = QFileInfo(folder).canonicalFilePath();
    if (target.isEmpty() || home.isEmpty() || target.startsWith(home + QLatin1Char('/')))
        return {};
    return QStringLiteral("%1 leads out of its agent's folder %2 (to %3). A shared file is a real "
                          "copy in each folder (OpenClaw refuses links that leave the "
                          "workspace): replace the link by a copy of the file.")
        .arg(path, folder, target);
}

struct GroupFileReader
{
    const LinkPlace &place;
    const Json5Document &doc;

    int lineOf(const QString &pointer) const
    {
        // The nearest member written in the text: an array element has no
        // key of its own, so its first key stands for it.
        for (const QString &p : {pointer + QStringLiteral("/name"), pointer}) {
            const auto it = doc.places.constFind(p);
            if (it != doc.places.constEnd())
                return it->line;
        }
        return 0;
    }
    QString at(int line, const QString &what) const
    {
        return line > 0 ? QStringLiteral("The link groups file %1, line %2: %3")
                              .arg(place.groupFile)
                              .arg(line)
                              .arg(what)
                        : QStringLiteral("The link groups file %1: %2").arg(place.groupFile, what);
    }
};

} // namespace

const LinkAgent *LinkPlace::agent(const QString &name) const
{
    for (const LinkAgent &a : agents) {
        if (a.name == name)
            return &a;
    }
    return nullptr;
}

QString LinkPlace::textStore() const
{
    return QFileInfo(groupFile).dir().filePath(TextStoreName);
}

const LinkGroup *LinkGroups::group(const QString &name) const
{
    for (const LinkGroup &g : groups) {
        if (g.name == name)
            return &g;
    }
    return nullptr;
}

Result<LinkPlace> personaFoldersPlace(const QString &parent)
{
    const Result<QList<PersonaFolder>> folders = listPersonaFolders(parent);
    if (!folders)
        return Result<LinkPlace>::failure(folders.error());
    LinkPlace place;
    const QString dir = QFileInfo(parent).absoluteFilePath();
    place.groupFile = QDir(dir).filePath(GroupFileName);
    place.what = QStringLiteral("the folder of personas %1").arg(dir);
    for (const PersonaFolder &folder : *folders)
        place.agents.append({folder.name, folder.path});
    return place;
}

LinkPlace openClawPlace(const OpenClawRoster &roster)
{
    LinkPlace place;
    place.groupFile = QFileInfo(roster.configPath).dir().filePath(GroupFileName);
    place.what = QStringLiteral("OpenClaw's roster (config %1)").arg(roster.configPath);
    for (const OpenClawAgent &agent : roster.agents)
        place.agents.append({agent.id, agent.workspace});
    return place;
}

QString linkFileProblem(const QString &file)
{
    const QString fix = QStringLiteral(
        "Name a slot file (AGENTS.md, SOUL.md, IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md, "
        "MEMORY.md), BOOTSTRAP.md or skills/NAME/SKILL.md.");
    if (file.isEmpty())
        return QStringLiteral("A group needs a file. %1").arg(fix);
    for (const char *slot : BootstrapOrder) {
        if (file == QLatin1String(slot))
            return {};
    }
    if (file == QLatin1String("BOOTSTRAP.md"))
        return {};
    const QStringList parts = file.split(QLatin1Char('/'));
    if (parts.size() == 3 && parts.at(0) == QLatin1String("skills")
        && parts.at(2) == QLatin1String("SKILL.md") && !parts.at(1).isEmpty()
        && !parts.at(1).startsWith(QLatin1Char('.')) && !parts.at(1).contains(QLatin1Char('\\')))
        return {};
    return QStringLiteral("\"%1\" is not a file Soul Studio shares. %2")
        .arg(printableText(file), fix);
}

Result<LinkGroups> readLinkGroups(const LinkPlace &place)
{
    LinkGroups groups;
    groups.path = place.groupFile;
    const QFileInfo info(place.groupFile);
    if (!info.exists() && !info.isSymLink())
        return groups;
    groups.exists = true;
    const Result<QByteArray> bytes = readGuardedFile(place.groupFile,
                                                     {QStringLiteral("The link groups file"),
                                                      QStringLiteral("a JSON file"),
                                                      QStringLiteral("Soul Studio"),
                                                      MaxLinkFileBytes});
    if (!bytes)
        return Result<LinkGroups>::failure(bytes.error());
    const auto fail = [](const QString &why) { return Result<LinkGroups>::failure(why); };
    if (!QByteArrayView(*bytes).isValidUtf8()) {
        return fail(QStringLiteral("The link groups file %1 is not UTF-8 text. Fix it with a text "
                                   "editor, or remove it to start again.")
                        .arg(place.groupFile));
    }
    Json5Error error;
    const std::optional<Json5Document> doc = parseJson5(QString::fromUtf8(*bytes),
                                                        place.groupFile,
                                                        &error);
    if (!doc) {
        return fail(QStringLiteral("The link groups file %1, line %2, column %3: %4. Fix it with "
                                   "a text editor, or remove it to start again.")
                        .arg(place.groupFile)
                        .arg(error.place.line)
                        .arg(error.place.column)
                        .arg(error.message));
    }
    const GroupFileReader reader{place, *doc};
    const QJsonObject top = doc->value.toObject();
    if (!doc->value.isObject() || top.value(QStringLiteral("version")).toDouble() != 1) {
        return fail(reader.at(reader.lineOf(QStringLiteral("/version")),
                              QStringLiteral("this Soul Studio reads version 1 of the file "
                                             "(an object with \"version\": 1 and \"groups\").")));
    }
    const QJsonValue list = top.value(QStringLiteral("groups"));
    if (!list.isArray() && !list.isUndefined()) {
        return fail(reader.at(reader.lineOf(QStringLiteral("/groups")),
                              QStringLiteral("\"groups\" must be a list of groups.")));
    }
    const QJsonArray array = list.toArray();
    if (array.size() > MaxLinkGroups) {
        return fail(reader.at(reader.lineOf(QStringLiteral("/groups")),
                              QStringLiteral("%1 groups are more than Soul Studio reads (%2). "
                                             "Split the agents into folders of their own.")
                                  .arg(array.size())
                                  .arg(MaxLinkGroups)));
    }
    // The group that holds each agent's copy of each file.
    QHash<QString, QString> holder;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString pointer = QStringLiteral("/groups/%1").arg(i);
        const int line = reader.lineOf(pointer);
        const QJsonObject object = array.at(i).toObject();
        if (!array.at(i).isObject())
            return fail(reader.at(line, QStringLiteral("group %1 is not an object.").arg(i + 1)));
        LinkGroup group;
        group.line = line;
        group.name = object.value(QStringLiteral("name")).toString();
        if (const QString why = groupNameProblem(group.name); !why.isEmpty())
            return fail(reader.at(line, why));
        if (groups.group(group.name)) {
            return fail(reader.at(line,
                                  QStringLiteral("the group \"%1\" is declared twice (first "
                                                 "on line %2). Give each group its own name.")
                                      .arg(group.name)
                                      .arg(groups.group(group.name)->line)));
        }
        group.file = object.value(QStringLiteral("file")).toString();
        if (const QString why = linkFileProblem(group.file); !why.isEmpty())
            return fail(reader.at(line, QStringLiteral("group \"%1\": %2").arg(group.name, why)));
        const QJsonValue members = object.value(QStringLiteral("members"));
        const QJsonArray memberArray = members.toArray();
        if (!members.isArray() || memberArray.size() < 2) {
            return fail(reader.at(line,
                                  QStringLiteral("group \"%1\" needs \"members\": a list of "
                                                 "two agents or more.")
                                      .arg(group.name)));
        }
        if (memberArray.size() > MaxLinkMembers) {
            return fail(reader.at(line,
                                  QStringLiteral("group \"%1\" has %2 members, more than "
                                                 "Soul Studio reads (%3).")
                                      .arg(group.name)
                                      .arg(memberArray.size())
                                      .arg(MaxLinkMembers)));
        }
        for (const QJsonValue &member : memberArray) {
            const QString name = member.toString();
            if (!member.isString() || name.isEmpty()) {
                return fail(reader.at(line,
                                      QStringLiteral("group \"%1\": each member is an "
                                                     "agent's name, in quotes.")
                                          .arg(group.name)));
            }
            if (!place.agent(name)) {
                const bool path = name.contains(QLatin1Char('/'))
                                  || name.contains(QLatin1Char('\\'))
                                  || name == QLatin1String("..");
                return fail(
                    reader.at(line,
                              QStringLiteral("group \"%1\" names \"%2\", %3 of %4. %5")
                                  .arg(group.name,
                                       printableText(name),
                                       path ? QStringLiteral("a path, not an agent")
                                            : QStringLiteral("which is not an agent"),
                                       place.what,
                                       path ? QStringLiteral(
                                           "Members are agents' names; their folders "
                                           "come from the place.")
                                            : QStringLiteral(
                                                "Add the agent, or take it out of the group."))));
            }
            if (group.members.contains(name)) {
                return fail(reader.at(line,
                                      QStringLiteral("group \"%1\" lists \"%2\" twice.")
                                          .arg(group.name, printableText(name))));
            }
            const QString key = name + QLatin1Char('\n') + group.file;
            if (holder.contains(key)) {
                return fail(reader.at(line,
                                      QStringLiteral("%1 of \"%2\" is in the groups \"%3\" "
                                                     "and \"%4\"; a file can be in one "
                                                     "group only. Take it out of one.")
                                          .arg(group.file,
                                               printableText(name),
                                               holder.value(key),
                                               group.name)));
            }
            holder.insert(key, group.name);
            group.members.append(name);
        }
        const QString sha = object.value(QStringLiteral("sha256")).toString();
        if (!isHexDigest(sha)) {
            return fail(reader.at(line,
                                  QStringLiteral("group \"%1\" needs \"sha256\", the "
                                                 "digest of its text (64 lower-case hex "
                                                 "digits); `soulc links add` writes it.")
                                      .arg(group.name)));
        }
        group.sha256 = sha.toLatin1();
        const QJsonValue pending = object.value(QStringLiteral("pendingFrom"));
        if (!pending.isUndefined()) {
            if (!isHexDigest(pending.toString())) {
                return fail(reader.at(line,
                                      QStringLiteral("group \"%1\": \"pendingFrom\" must "
                                                     "be a digest (64 lower-case hex "
                                                     "digits).")
                                          .arg(group.name)));
            }
            group.pendingFrom = pending.toString().toLatin1();
        }
        groups.groups.append(group);
    }
    return groups;
}

QByteArray linkGroupsText(const LinkGroups &groups)
{
    QString out = QStringLiteral("{\n  \"version\": 1,\n  \"groups\": [");
    for (qsizetype i = 0; i < groups.groups.size(); ++i) {
        const LinkGroup &g = groups.groups.at(i);
        QStringList members;
        for (const QString &member : g.members)
            members.append(jsonString(member));
        out += i == 0 ? QStringLiteral("\n") : QStringLiteral(",\n");
        out += QStringLiteral("    {\n      \"name\": %1,\n      \"file\": %2,\n"
                              "      \"members\": [%3],\n      \"sha256\": \"%4\"")
                   .arg(jsonString(g.name),
                        jsonString(g.file),
                        members.join(QStringLiteral(", ")),
                        QString::fromLatin1(g.sha256));
        if (!g.pendingFrom.isEmpty()) {
            out += QStringLiteral(",\n      \"pendingFrom\": \"%1\"")
                       .arg(QString::fromLatin1(g.pendingFrom));
        }
        out += QStringLiteral("\n    }");
    }
    out += groups.groups.isEmpty() ? QStringLiteral("]\n}\n") : QStringLiteral("\n  ]\n}\n");
    return out.toUtf8();
}

Status writeLinkGroups(const LinkGroups &groups)
{
    return writeFileAtomically(groups.path, linkGroupsText(groups));
}

Result<QByteArray> keepGroupText(const LinkPlace &place, const QByteArray &bytes)
{
    const QByteArray sha = digestOf(bytes);
    if (groupText(place, sha))
        return sha;
    const QString store = place.textStore();
    if (!QDir().mkpath(store)) {
        return Result<QByteArray>::failure(
            QStringLiteral("Could not make the folder %1, where the groups' texts are kept. "
                           "Check that you may write there.")
                .arg(store));
    }
    const Status written = writeFileAtomically(QDir(store).filePath(QString::fromLatin1(sha)),
                                               bytes);
    if (!written)
        return Result<QByteArray>::failure(written.error());
    return sha;
}

std::optional<QByteArray> groupText(const LinkPlace &place, const QByteArray &sha256)
{
    const SlotRead read = readPath(QDir(place.textStore()).filePath(QString::fromLatin1(sha256)),
                                   ReadOptions(MaxLinkCopyBytes));
    if (read.presence != SlotPresence::Present || !read.complete || digestOf(read.bytes) != sha256)
        return std::nullopt;
    return read.bytes;
}

void pruneGroupTexts(const LinkPlace &place, const LinkGroups &groups)
{
    QSet<QString> kept;
    for (const LinkGroup &g : groups.groups) {
        kept.insert(QString::fromLatin1(g.sha256));
        if (!g.pendingFrom.isEmpty())
            kept.insert(QString::fromLatin1(g.pendingFrom));
    }
    QDir store(place.textStore());
    const QStringList names = store.entryList(QDir::Files | QDir::Hidden);
    for (const QString &name : names) {
        if (isHexDigest(name) && !kept.contains(name))
            store.remove(name);
    }
}

QString copyStateName(CopyState state)
{
    switch (state) {
    case CopyState::Same:
        return QStringLiteral("same");
    case CopyState::Differs:
        return QStringLiteral("differs");
    case CopyState::Missing:
        break;
    }
    return QStringLiteral("missing");
}

namespace {

// One copy as it is on disk now, or a sentence why it cannot be read.
Result<LinkCopy> readCopy(const LinkAgent &agent, const LinkGroup &group)
{
    LinkCopy copy;
    copy.agent = agent.name;
    copy.path = QDir::cleanPath(QDir(agent.folder).filePath(group.file));
    if (const QString why = escapeProblem(agent.folder, copy.path); !why.isEmpty())
        return Result<LinkCopy>::failure(why);
    const SlotRead read = readPath(copy.path, ReadOptions(MaxLinkCopyBytes + 1));
    switch (read.presence) {
    case SlotPresence::Missing:
        copy.state = CopyState::Missing;
        return copy;
    case SlotPresence::Present:
        break;
    case SlotPresence::Directory:
    case SlotPresence::NotRegularFile:
    case SlotPresence::DanglingLink:
    case SlotPresence::Unreadable:
        return Result<LinkCopy>::failure(
            QStringLiteral("%1's copy %2 %3. Make it a regular file, or take %1 out of the "
                           "group \"%4\".")
                .arg(agent.name, copy.path, absenceReason(read), group.name));
    }
    if (!read.complete || read.bytes.size() > MaxLinkCopyBytes) {
        return Result<LinkCopy>::failure(
            QStringLiteral("%1's copy %2 is larger than Soul Studio reads for a shared file (%3 "
                           "bytes at most). Make it smaller, or take %1 out of the group \"%4\".")
                .arg(agent.name, copy.path)
                .arg(MaxLinkCopyBytes)
                .arg(group.name));
    }
    copy.bytes = read.bytes;
    copy.sha256 = digestOf(copy.bytes);
    copy.state = copy.sha256 == group.sha256 ? CopyState::Same : CopyState::Differs;
    copy.behind = copy.state == CopyState::Differs && !group.pendingFrom.isEmpty()
                  && copy.sha256 == group.pendingFrom;
    return copy;
}

} // namespace

Result<QList<LinkCopy>> readCopies(const LinkPlace &place, const LinkGroup &group)
{
    const std::optional<QByteArray> text = groupText(place, group.sha256);
    QList<LinkCopy> copies;
    for (const QString &member : group.members) {
        const LinkAgent *agent = place.agent(member);
        if (!agent) {
            return Result<QList<LinkCopy>>::failure(
                QStringLiteral("The group \"%1\" names \"%2\", which is not an agent of %3.")
                    .arg(group.name, printableText(member), place.what));
        }
        Result<LinkCopy> copy = readCopy(*agent, group);
        if (!copy)
            return Result<QList<LinkCopy>>::failure(copy.error());
        if (copy->state == CopyState::Differs && text)
            copy->firstDifferingLine = firstDifferingLine(copy->bytes, *text);
        copies.append(*copy);
    }
    return copies;
}

Status addGroup(const LinkPlace &place,
                LinkGroups &groups,
                const QString &name,
                const QString &file,
                const QStringList &members,
                const QString &from)
{
    if (const QString why = groupNameProblem(name); !why.isEmpty())
        return Status::failure(why);
    if (groups.group(name)) {
        return Status::failure(
            QStringLiteral("%1 already declares a group \"%2\". Choose another name, or remove "
                           "that group first.")
                .arg(groups.path, name));
    }
    if (const QString why = linkFileProblem(file); !why.isEmpty())
        return Status::failure(why);
    if (members.size() < 2)
        return Status::failure(QStringLiteral("A group needs two agents or more."));
    if (members.size() > MaxLinkMembers) {
        return Status::failure(
            QStringLiteral("A group has at most %1 members.").arg(MaxLinkMembers));
    }
    LinkGroup group;
    group.name = name;
    group.file = file;
    for (const QString &member : members) {
        if (!place.agent(member)) {
            return Status::failure(QStringLiteral("\"%1\" is not an agent of %2.")
                                       .arg(printableText(member), place.what));
        }
        if (group.members.contains(member)) {
            return Status::failure(
                QStringLiteral("\"%1\" is named twice.").arg(printableText(member)));
        }
        for (const LinkGroup &other : groups.groups) {
            if (other.file == file && other.members.contains(member)) {
                return Status::failure(
                    QStringLiteral("%1 of \"%2\" is already in the group \"%3\"; a file can be "
                                   "in one group only.")
                        .arg(file, printableText(member), other.name));
            }
        }
        group.members.append(member);
    }
    const QString source = from.isEmpty() ? members.constFirst() : from;
    if (!group.members.contains(source)) {
        return Status::failure(QStringLiteral("\"%1\" is not one of the group's agents (%2).")
                                   .arg(printableText(source), members.join(QStringLiteral(", "))));
    }
    const Result<LinkCopy> copy = readCopy(*place.agent(source), group);
    if (!copy)
        return Status::failure(copy.error());
    if (copy->state == CopyState::Missing) {
        return Status::failure(
            QStringLiteral("%1's copy %2 does not exist, so it cannot be the group's text. Name "
                           "another agent to take it from.")
                .arg(source, copy->path));
    }
    const Result<QByteArray> sha = keepGroupText(place, copy->bytes);
    if (!sha)
        return Status::failure(sha.error());
    group.sha256 = *sha;
    LinkGroups next = groups;
    next.groups.append(group);
    if (const Status saved = writeLinkGroups(next); !saved)
        return saved;
    groups = next;
    groups.exists = true;
    return {};
}

Status removeGroup(const LinkPlace &place, LinkGroups &groups, const QString &name)
{
    const LinkGroup *group = groups.group(name);
    if (!group)
        return Status::failure(
            QStringLiteral("%1 declares no group \"%2\".").arg(groups.path, name));
    LinkGroups next = groups;
    next.groups.removeAt(group - groups.groups.constData());
    if (const Status saved = writeLinkGroups(next); !saved)
        return saved;
    groups = next;
    pruneGroupTexts(place, groups);
    return {};
}

QList<LinkCandidate> linkCandidates(const LinkPlace &place, const LinkGroups &groups)
{
    QStringList files;
    for (const char *slot : BootstrapOrder)
        files.append(QLatin1String(slot));
    files.append(QStringLiteral("BOOTSTRAP.md"));
    QList<LinkCandidate> candidates;
    for (const QString &file : files) {
        QList<QByteArray> order;
        QHash<QByteArray, LinkCandidate> byDigest;
        for (const LinkAgent &agent : place.agents) {
            const bool linked = std::any_of(groups.groups.cbegin(),
                                            groups.groups.cend(),
                                            [&](const LinkGroup &g) {
                                                return g.file == file
                                                       && g.members.contains(agent.name);
                                            });
            if (linked)
                continue;
            const SlotRead read = readPath(QDir(agent.folder).filePath(file),
                                           ReadOptions(MaxLinkCopyBytes));
            if (read.presence != SlotPresence::Present || !read.complete || read.bytes.isEmpty())
                continue;
            const QByteArray digest = digestOf(read.bytes);
            auto it = byDigest.find(digest);
            if (it == byDigest.end()) {
                order.append(digest);
                it = byDigest.insert(digest, {file, {}, read.bytes.size()});
            }
            it->agents.append(agent.name);
        }
        for (const QByteArray &digest : order) {
            if (byDigest.value(digest).agents.size() >= 2)
                candidates.append(byDigest.value(digest));
        }
    }
    return candidates;
}

SyncOutcome syncGroup(const LinkPlace &place,
                      LinkGroups &groups,
                      const QString &name,
                      const QString &from,
                      bool force)
{
    SyncOutcome outcome;
    const LinkGroup *found = groups.group(name);
    if (!found) {
        outcome.error = QStringLiteral("%1 declares no group \"%2\".").arg(groups.path, name);
        return outcome;
    }
    LinkGroup &group = groups.groups[found - groups.groups.constData()];
    const Result<QList<LinkCopy>> copies = readCopies(place, group);
    if (!copies) {
        outcome.error = copies.error();
        return outcome;
    }
    QByteArray text;
    if (!from.isEmpty()) {
        const auto source = std::find_if(copies->cbegin(), copies->cend(), [&](const LinkCopy &c) {
            return c.agent == from;
        });
        if (source == copies->cend()) {
            outcome.error = QStringLiteral("\"%1\" is not a member of the group \"%2\" (%3).")
                                .arg(printableText(from),
                                     group.name,
                                     group.members.join(QStringLiteral(", ")));
            return outcome;
        }
        if (source->state == CopyState::Missing) {
            outcome.error = QStringLiteral("%1's copy %2 does not exist, so it cannot become the "
                                           "text of the group \"%3\".")
                                .arg(from, source->path, group.name);
            return outcome;
        }
        text = source->bytes;
    } else if (const std::optional<QByteArray> kept = groupText(place, group.sha256)) {
        text = *kept;
    } else {
        const auto same = std::find_if(copies->cbegin(), copies->cend(), [](const LinkCopy &c) {
            return c.state == CopyState::Same;
        });
        if (same == copies->cend()) {
            outcome.error
                = QStringLiteral("The text of the group \"%1\" is not kept (%2 is missing) and no "
                                 "copy holds it. Make one agent's copy the group's text.")
                      .arg(group.name,
                           QDir(place.textStore()).filePath(QString::fromLatin1(group.sha256)));
            return outcome;
        }
        text = same->bytes;
    }
    if (from.isEmpty() && !force) {
        QStringList diverged;
        for (const LinkCopy &copy : *copies) {
            if (copy.state == CopyState::Differs && !copy.behind)
                diverged.append(copy.agent);
        }
        if (!diverged.isEmpty()) {
            outcome.error = QStringLiteral("In the group \"%1\", the %2 of %3 diverged from the "
                                           "group's text. Nothing was written.")
                                .arg(group.name,
                                     diverged.size() == 1 ? QStringLiteral("copy")
                                                          : QStringLiteral("copies"),
                                     diverged.join(QStringLiteral(", ")));
            return outcome;
        }
    }
    const Result<QByteArray> sha = keepGroupText(place, text);
    if (!sha) {
        outcome.error = sha.error();
        return outcome;
    }
    if (*sha != group.sha256) {
        group.pendingFrom = group.sha256;
        group.sha256 = *sha;
        if (const Status saved = writeLinkGroups(groups); !saved) {
            outcome.error = saved.error();
            return outcome;
        }
    }
    for (const LinkCopy &copy : *copies) {
        if (copy.sha256 == *sha) {
            outcome.unchanged.append(copy.agent);
            continue;
        }
        // The copy must still be what was read: an agent or an editor may
        // have written it since.
        const LinkAgent *agent = place.agent(copy.agent);
        const Result<LinkCopy> now = readCopy(*agent, group);
        if (!now || (now->state == CopyState::Missing) != (copy.state == CopyState::Missing)
            || now->bytes != copy.bytes) {
            outcome.error = QStringLiteral("%1's copy %2 changed on disk while the group \"%3\" "
                                           "was being written, so it was left as it is.")
                                .arg(copy.agent, copy.path, group.name);
            return outcome;
        }
        const QString parent = QFileInfo(copy.path).absolutePath();
        if (copy.state == CopyState::Missing && !QDir().mkpath(parent)) {
            outcome.error = QStringLiteral("Could not make the folder %1 for %2's copy. Check "
                                           "that you may write there.")
                                .arg(parent, copy.agent);
            return outcome;
        }
        const Status written = writeFileAtomically(copy.path, text);
        if (!written) {
            outcome.error = written.error();
            return outcome;
        }
        outcome.written.append(copy.agent);
    }
    if (!group.pendingFrom.isEmpty()) {
        group.pendingFrom.clear();
        if (const Status saved = writeLinkGroups(groups); !saved) {
            outcome.error = saved.error();
            return outcome;
        }
    }
    pruneGroupTexts(place, groups);
    return outcome;
}

} // namespace soul
