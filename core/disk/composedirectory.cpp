#include "composedirectory.h"

#include <QFileInfo>

#include "slotreader.h"

namespace soul {

bool composeDirectoryTo(const QString &dir,
                        const SoulWriter &write,
                        const ComposeRule &rule,
                        QStringList *found)
{
    QByteArray head;
    QByteArray scratch;
    QByteArray buffer;
    bool first = true;
    for (const int slot : rule.order) {
        SlotRead read = readSlot(dir, slot, ReadOptions(rule.readLimit()), std::move(buffer));
        if (read.presence == SlotPresence::Present) {
            head.clear();
            if (!first)
                head.append(rule.sectionJoin);
            first = false;
            appendSectionHead(head, slot, rule);
            const BodyPieces body = bodyPieces(read.bytes, scratch, rule);
            if (!write(head) || (!body.text.isEmpty() && !write(body.text))
                || (!body.notice.isEmpty() && !write(body.notice))) {
                return false;
            }
            if (found)
                found->append(slotName(slot));
        }
        // Absent or not, the read hands the memory back for the next slot.
        buffer = std::move(read.bytes);
    }
    return true;
}

Composition composeDirectory(const QString &dir, const ComposeRule &rule)
{
    Composition result;
    for (const int slot : rule.order) {
        const SlotRead read = readSlot(dir, slot, rule.readLimit());
        if (read.presence == SlotPresence::Present)
            appendSection(result, slot, read.bytes, rule);
    }
    return result;
}

QString checkDirectory(const QString &dir)
{
    const QFileInfo info(dir);
    if (!info.exists()) {
        // A loop of links, or a folder on the way that cannot be entered, is
        // not "no such directory".
        const SlotRead probe = readPath(dir, ReadOptions(0));
        if (probe.presence != SlotPresence::Missing)
            return QStringLiteral("%1 %2. Give the folder that holds the persona's Markdown files.")
                .arg(dir, absenceReason(probe));
        return QStringLiteral("%1: no such directory. Check the path.").arg(dir);
    }
    if (!info.isDir())
        return QStringLiteral("%1: not a directory. Give the folder that holds the persona's "
                              "Markdown files.")
            .arg(dir);
    if (!info.isReadable() || !info.isExecutable())
        return QStringLiteral("%1: permission denied. Make the directory readable.").arg(dir);
    return {};
}

} // namespace soul
