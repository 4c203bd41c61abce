// Git objects as a persona's history reads them (core/history), for
// libFuzzer.
//
// Input: a first byte that picks the mode, then the bytes.
//   even: the bytes are the file of a loose object, read by
//         inflateLooseObject(), whole and header only.
//   odd:  the bytes are the content of a commit (second byte even) or of the
//         tree HEAD's commit points to (odd), stored as a well-formed loose
//         object in a repository of its own; the history is then read
//         through PersonaHistory (log, the commit, its files).
//
// What must hold: no crash, no hang; a loose object read has exactly the
// size its header declares and inflates to the same bytes with zlib's own
// uncompress(); the header-only read agrees with the whole read; every
// failure is a sentence.
#include "fuzzsupport.h"

#include "history/looseobject.h"
#include "history/personahistory.h"

#include <QCryptographicHash>
#include <QDir>

#include <zlib.h>

#include <cstdint>

using namespace soul;

namespace {

void checkLoose(const QByteArray &file)
{
    const git::LooseResult whole = git::inflateLooseObject(file);
    const git::LooseResult header = git::inflateLooseObject(file, true);
    if (!whole.ok) {
        fuzz::require(!whole.problem.isEmpty(), "a refused object says why");
        return;
    }
    fuzz::require(header.ok, "an object read whole has a readable header");
    fuzz::require(header.object.type == whole.object.type, "the header's type is the object's");
    fuzz::require(header.object.size == whole.object.size, "the header's size is the object's");
    fuzz::require(whole.object.bytes.size() == whole.object.size,
                  "the content has the declared size");
    // zlib's own one-shot inflate gives the same header and content.
    const QByteArray expected = QByteArray(git::looseTypeName(whole.object.type)) + ' '
                                + QByteArray::number(whole.object.size) + '\0' + whole.object.bytes;
    QByteArray out(expected.size() + 1, '\0');
    uLongf outSize = uLongf(out.size());
    uLong inSize = uLong(file.size());
    const int status = uncompress2(reinterpret_cast<Bytef *>(out.data()),
                                   &outSize,
                                   reinterpret_cast<const Bytef *>(file.constData()),
                                   &inSize);
    fuzz::require(status == Z_OK, "zlib inflates what was read");
    fuzz::require(QByteArrayView(out.constData(), qsizetype(outSize)) == expected,
                  "zlib inflates to the same bytes");
}

QByteArray looseFile(const QByteArray &type, const QByteArray &content, QByteArray &id)
{
    const QByteArray object = type + ' ' + QByteArray::number(content.size()) + '\0' + content;
    id = QCryptographicHash::hash(object, QCryptographicHash::Sha1).toHex();
    return qCompress(object).mid(4); // qCompress puts the length before zlib's stream
}

bool storeLoose(const QString &git,
                const QByteArray &type,
                const QByteArray &content,
                QByteArray &id)
{
    const QByteArray file = looseFile(type, content, id);
    const QString dir = QStringLiteral("%1/objects/%2").arg(git, QString::fromLatin1(id.left(2)));
    QDir().mkpath(dir);
    return fuzz::writeFile(dir + QLatin1Char('/') + QString::fromLatin1(id.mid(2)), file);
}

void checkHistory(const QByteArray &content, bool asTree)
{
    const QString root = fuzz::scratchDir() + QStringLiteral("/repo");
    QDir(root).removeRecursively();
    const QString git = root + QStringLiteral("/.git");
    QDir().mkpath(git + QStringLiteral("/refs/heads"));
    fuzz::writeFile(git + QStringLiteral("/HEAD"), "ref: refs/heads/main\n");
    fuzz::writeFile(git + QStringLiteral("/config"),
                    "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
    QByteArray commitId;
    bool stored = false;
    if (asTree) {
        QByteArray treeId;
        stored = storeLoose(git, "tree", content, treeId)
                 && storeLoose(git,
                               "commit",
                               "tree " + treeId
                                   + "\nauthor A <a@b> 1700000000 +0000\ncommitter A <a@b> "
                                     "1700000000 +0000\n\nm\n",
                               commitId);
    } else {
        stored = storeLoose(git, "commit", content, commitId);
    }
    if (!stored || !fuzz::writeFile(git + QStringLiteral("/refs/heads/main"), commitId + '\n'))
        fuzz::fail("cannot write the repository");

    auto history = PersonaHistory::open(root);
    if (!history) {
        fuzz::require(!history.error().isEmpty(), "a failure to open says why");
        return;
    }
    const Result<QList<HistoryCommit>> log = (*history)->log();
    if (!log)
        fuzz::require(!log.error().isEmpty(), "a failed log says why");
    const Result<HistoryCommit> head = (*history)->commit(QStringLiteral("HEAD"));
    if (!head)
        fuzz::require(!head.error().isEmpty(), "a failed commit says why");
    const Result<PersonaRevision> files = (*history)->readRevision(QStringLiteral("HEAD"),
                                                                   ReadOptions(4096));
    if (!files)
        fuzz::require(!files.error().isEmpty(), "a failed read says why");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const QByteArray bytes(reinterpret_cast<const char *>(data) + 2, qsizetype(size) - 2);
    if ((data[0] & 1) == 0)
        checkLoose(QByteArray(reinterpret_cast<const char *>(data) + 1, qsizetype(size) - 1));
    else
        checkHistory(bytes, (data[1] & 1) != 0);
    return 0;
}
