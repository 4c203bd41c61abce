#include "grouphistory.h"

#include "compose/contract.h"
#include "history/commitreader.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace soul {

namespace {

QString nativePath(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

} // namespace

QByteArray gitBlobId(const QByteArray &bytes)
{
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData("blob " + QByteArray::number(bytes.size()));
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(bytes);
    return hash.result().toHex();
}

GroupFileLog readGroupFileLog(const LinkPlace &place,
                              const LinkGroup &group,
                              const std::function<bool()> &cancelled)
{
    GroupFileLog out;
    out.file = group.file;
    const int slot = slotIndex(group.file);
    if (slot < 0) {
        // PersonaHistory follows the slot files only.
        out.problem = QStringLiteral("The history lists the commits of the slot files, and %1 "
                                     "is not one: use git log in a member's folder to see its "
                                     "commits.")
                          .arg(group.file);
        return out;
    }
    for (const QString &member : group.members) {
        GroupMemberLog log;
        log.agent = member;
        const LinkAgent *agent = place.agent(member);
        if (!agent) {
            log.problem = QStringLiteral("%1 is not an agent of %2.").arg(member, place.what);
            out.members.append(log);
            continue;
        }
        log.folder = agent->folder;
        if (!QFileInfo(agent->folder).isDir()) {
            log.problem = QStringLiteral("%1 has no folder at %2, so it has no history.")
                              .arg(member, nativePath(agent->folder));
            out.members.append(log);
            continue;
        }
        if (!insideRepository(agent->folder)) {
            log.problem = QStringLiteral("%1 has no git repository (%2 is in none), so its "
                                         "copy has no history; a checkpoint from its History "
                                         "panel makes one.")
                              .arg(member, nativePath(agent->folder));
            out.members.append(log);
            continue;
        }
        const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(agent->folder);
        if (!opened) {
            log.problem
                = QStringLiteral("%1's repository cannot be read: %2").arg(member, opened.error());
            out.members.append(log);
            continue;
        }
        const Status walked = (*opened)->log([&](const HistoryCommit &commit) {
            if (cancelled && cancelled())
                return false;
            if (commit.change(slot) == SlotChange::Unchanged)
                return true;
            if (log.listed >= MaxGroupFileCommits) {
                log.cut = true;
                return false;
            }
            GroupFileCommit found;
            found.agent = member;
            found.folder = agent->folder;
            found.commit = commit;
            const HistorySlot &at = commit.slots.at(size_t(slot));
            found.present = at.present();
            if (found.present)
                found.blobId = at.blobId;
            out.commits.append(found);
            ++log.listed;
            return true;
        });
        if (!walked) {
            log.problem
                = QStringLiteral("%1's repository cannot be read: %2").arg(member, walked.error());
        }
        out.members.append(log);
        if (cancelled && cancelled())
            break;
    }
    // Each member's commits come newest first; a stable sort keeps that, and
    // the group's order of members for commits of the same second.
    std::stable_sort(out.commits.begin(),
                     out.commits.end(),
                     [](const GroupFileCommit &a, const GroupFileCommit &b) {
                         return a.commit.commitTime > b.commit.commitTime;
                     });
    return out;
}

Result<QByteArray> readGroupFileAt(const QString &folder,
                                   const QString &file,
                                   const QByteArray &commitId)
{
    const int slot = slotIndex(file);
    if (slot < 0) {
        return Result<QByteArray>::failure(
            QStringLiteral("The history reads the slot files, and %1 is not one.").arg(file));
    }
    ReadOptions options(MaxLinkCopyBytes);
    const Result<PersonaRevision> revision = readCommit(folder,
                                                        QString::fromLatin1(commitId),
                                                        options);
    if (!revision)
        return Result<QByteArray>::failure(revision.error());
    const SlotRead &read = revision->reads.at(size_t(slot));
    if (read.presence != SlotPresence::Present)
        return QByteArray();
    if (!read.complete) {
        return Result<QByteArray>::failure(
            QStringLiteral("%1 at %2 is larger than the %3 MiB a linked file may be; read it "
                           "with git show.")
                .arg(file, revision->commit.shortId)
                .arg(MaxLinkCopyBytes >> 20));
    }
    return read.bytes.isNull() ? QByteArray("") : read.bytes;
}

QString groupCheckpointProblem(const LinkGroup &group)
{
    if (slotIndex(group.file) >= 0)
        return {};
    return QStringLiteral("A checkpoint commits the slot files, and the group \"%1\" shares "
                          "%2: commit it with git in each member's folder.")
        .arg(group.name, group.file);
}

QString groupCheckpointMessage(const LinkGroup &group)
{
    return QStringLiteral("Link group %1: %2").arg(group.name, group.file);
}

QList<MemberCheckpoint> checkpointGroup(const LinkPlace &place,
                                        const LinkGroup &group,
                                        const QString &message,
                                        HistoryCounts &counts,
                                        bool stopAtFailure)
{
    QList<MemberCheckpoint> out;
    if (const QString problem = groupCheckpointProblem(group); !problem.isEmpty()) {
        MemberCheckpoint refused;
        refused.error = problem;
        out.append(refused);
        return out;
    }
    const QString said = message.isEmpty() ? groupCheckpointMessage(group) : message;
    for (const QString &member : group.members) {
        MemberCheckpoint one;
        one.agent = member;
        const LinkAgent *agent = place.agent(member);
        const Result<Checkpoint> made
            = agent ? checkpointFolder(agent->folder, said, counts)
                    : Result<Checkpoint>::failure(
                        QStringLiteral("\"%1\" is not an agent of %2.").arg(member, place.what));
        if (made)
            one.made = *made;
        else
            one.error = made.error();
        out.append(one);
        if (!made && stopAtFailure)
            break;
    }
    return out;
}

} // namespace soul
