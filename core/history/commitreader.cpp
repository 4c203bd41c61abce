#include "history/commitreader.h"

#include "compose/composerule.h"
#include "diff/sectionedsoul.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

namespace soul {

bool insideRepository(const QString &dir)
{
    QDir at(QFileInfo(dir).absoluteFilePath());
    while (true) {
        if (QFileInfo::exists(at.filePath(QStringLiteral(".git"))))
            return true;
        if (!at.cdUp())
            return false;
    }
}

Result<PersonaRevision> readCommit(const QString &dir,
                                   const QString &rev,
                                   const ReadOptions &options)
{
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened)
        return Result<PersonaRevision>::failure(opened.error());
    return (*opened)->readRevision(rev, options);
}

QStringList describeRevision(const PersonaRevision &revision)
{
    QStringList notes;
    if (revision.folderMissing)
        notes.append(QObject::tr("The folder did not exist at this commit."));
    for (int k = 0; k < SlotCount; ++k) {
        const SlotRead &read = revision.reads[size_t(k)];
        if (read.isSymlink && read.presence == SlotPresence::Present) {
            notes.append(QObject::tr("%1 is a symbolic link at this commit: the "
                                     "file it leads to in the same commit is "
                                     "shown.")
                             .arg(slotName(k)));
        }
        if (revision.checkoutConverts[size_t(k)]) {
            notes.append(QObject::tr("%1: a checkout would convert its bytes "
                                     "(.gitattributes or core.autocrlf); the "
                                     "soul is composed from the bytes git stores.")
                             .arg(slotName(k)));
        }
    }
    return notes;
}

QString revisionLabel(const QString &dir, const QString &rev)
{
    return rev + QLatin1Char(':') + QDir::cleanPath(dir);
}

Result<SectionedSoul> revisionSoul(const QString &dir, const QString &rev, const ComposeRule &rule)
{
    const Result<PersonaRevision> revision = readCommit(dir, rev, ReadOptions(rule.readLimit()));
    if (!revision)
        return Result<SectionedSoul>::failure(revision.error());
    return sectionedSoul(compose(slotBuffers(revision->reads), rule), revisionLabel(dir, rev));
}

QList<ChangedSlot> changedSlots(const HistoryCommit &commit, const SoulFigures *figures)
{
    QList<ChangedSlot> changed;
    for (int slot = 0; slot < SlotCount; ++slot) {
        const SlotChange change = commit.change(slot);
        if (change == SlotChange::Unchanged)
            continue;
        changed.append({slot, change, figures ? figures->tokenChange[size_t(slot)] : 0});
    }
    return changed;
}

Result<Checkpoint> checkpointFolder(const QString &dir,
                                    const QString &message,
                                    HistoryCounts &counts)
{
    const Result<std::unique_ptr<PersonaHistory>> opened = PersonaHistory::open(dir);
    if (!opened)
        return Result<Checkpoint>::failure(opened.error());
    return (*opened)->checkpoint(message, counts);
}

} // namespace soul
