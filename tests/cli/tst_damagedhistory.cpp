// soulc's history commands over damaged repositories, each made by git and
// then broken byte by byte as a disk, a bad copy or a hostile clone would
// break it: every command ends within seconds, exits 2 without crashing,
// names the damaged object and points at 'git fsck'; nothing is written. A
// shallow clone is no damage: its history is listed up to its cut, which is
// said, and a revision beyond the cut says so.
#include "soulcrun.h"

#include "gitfixture.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace soul;
using namespace soul::test;

namespace {

constexpr int Deadline = 20000; // ms: what every command must finish within

using namespace soul::clitest;

Run soulc(const QStringList &arguments)
{
    return runSoulc({arguments, {}, {}, std::nullopt, Deadline});
}

QString objectFile(const QString &repo, const QByteArray &id)
{
    return QStringLiteral("%1/.git/objects/%2/%3")
        .arg(repo, QString::fromLatin1(id.left(2)), QString::fromLatin1(id.mid(2)));
}

// A loose object's "TYPE SIZE\0CONTENT", inflated.
QByteArray inflated(const QByteArray &file)
{
    // qUncompress wants the inflated size in front, big-endian.
    QByteArray sized(4, '\0');
    const quint32 room = 1u << 20;
    sized[0] = char(room >> 24);
    sized[1] = char(room >> 16);
    sized[2] = char(room >> 8);
    sized[3] = char(room);
    return qUncompress(sized + file);
}

QByteArray deflated(const QByteArray &object)
{
    return qCompress(object).mid(4); // without qCompress's size prefix
}

// Every file under .git with its bytes' digest: what "nothing was written"
// is checked against.
QMap<QString, QByteArray> gitFiles(const QString &repo)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(repo + QStringLiteral("/.git"),
                    QDir::Files | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        struct stat st = {};
        if (::lstat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode)) {
            files.insert(path, "<not a file>"); // a FIFO is not opened
            continue;
        }
        QFile file(path);
        files.insert(path,
                     file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)
                         ? QCryptographicHash::hash(file.read(1 << 20), QCryptographicHash::Sha1)
                         : QByteArray("<unreadable>"));
    }
    return files;
}

// A pack (and its index) of a small blob and a delta against it whose
// header claims a result of `claimed` bytes, stored as the object `deltaId`.
// Written by hand so the claimed size is never made, by git or by anyone.
struct CraftedPack
{
    QByteArray pack;
    QByteArray index;
};

void appendBig32(QByteArray &out, quint32 value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.append(char((value >> shift) & 0xff));
}

QByteArray varint(quint64 value)
{
    QByteArray out;
    do {
        char byte = char(value & 0x7f);
        value >>= 7;
        if (value)
            byte = char(byte | 0x80);
        out.append(byte);
    } while (value);
    return out;
}

QByteArray objectHeader(int type, quint64 size)
{
    QByteArray out;
    char byte = char((type << 4) | (size & 0x0f));
    size >>= 4;
    while (size) {
        out.append(char(byte | 0x80));
        byte = char(size & 0x7f);
        size >>= 7;
    }
    out.append(byte);
    return out;
}

quint32 crc32Of(QByteArrayView bytes)
{
    quint32 crc = 0xffffffffu;
    for (const char c : bytes) {
        crc ^= quint8(c);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

// The distance an offset delta names its base by, as git encodes it.
QByteArray ofsDistance(quint64 ofs)
{
    QByteArray distance;
    distance.prepend(char(ofs & 0x7f));
    while (ofs >>= 7)
        distance.prepend(char(0x80 | (--ofs & 0x7f)));
    return distance;
}

// One entry of a crafted pack: the id the index lists it under and its
// bytes in the pack (header and stream); `ofsBase`, when not negative, is
// the index of an earlier entry this one is an offset delta on, and `raw`
// then holds the header alone, the distance and the stream following.
struct PackEntry
{
    QByteArray id; // raw
    QByteArray raw;
    qsizetype ofsBase = -1;
    QByteArray stream; // an offset delta's, after the distance
};

PackEntry entryOf(const QByteArray &id, const QByteArray &raw)
{
    return {id, raw, -1, {}};
}

PackEntry ofsDeltaOf(const QByteArray &id,
                     const QByteArray &header,
                     qsizetype base,
                     const QByteArray &stream)
{
    return {id, header, base, stream};
}

// A pack of `entries` in their order, and its version 2 index.
CraftedPack packOf(const QList<PackEntry> &entries)
{
    QByteArray pack("PACK");
    appendBig32(pack, 2);
    appendBig32(pack, quint32(entries.size()));
    struct Entry
    {
        QByteArray id;
        quint32 crc;
        quint32 offset;
    };
    QList<Entry> listed;
    for (const PackEntry &e : entries) {
        const qint64 offset = pack.size();
        QByteArray raw = e.raw;
        if (e.ofsBase >= 0)
            raw += ofsDistance(quint64(offset - listed.at(e.ofsBase).offset)) + e.stream;
        pack += raw;
        listed.append({e.id, crc32Of(raw), quint32(offset)});
    }
    const QByteArray packSum = QCryptographicHash::hash(pack, QCryptographicHash::Sha1);
    pack += packSum;
    std::sort(listed.begin(), listed.end(), [](const Entry &a, const Entry &b) {
        return a.id < b.id;
    });
    QByteArray index("\xfftOc");
    appendBig32(index, 2);
    for (int byte = 0; byte < 256; ++byte) {
        quint32 count = 0;
        for (const Entry &e : listed)
            count += quint8(e.id.at(0)) <= byte ? 1 : 0;
        appendBig32(index, count);
    }
    for (const Entry &e : listed)
        index += e.id;
    for (const Entry &e : listed)
        appendBig32(index, e.crc);
    for (const Entry &e : listed)
        appendBig32(index, e.offset);
    index += packSum;
    index += QCryptographicHash::hash(index, QCryptographicHash::Sha1);
    return {pack, index};
}

// A delta's instructions: the base's size, the size it makes, one copy of
// `copied` bytes from the base's start.
QByteArray deltaOf(quint64 baseSize, quint64 resultSize, quint8 copied)
{
    return varint(baseSize) + varint(resultSize) + QByteArray("\x90") + char(copied);
}

CraftedPack craftPack(const QByteArray &baseBody, const QByteArray &deltaId, quint64 claimed)
{
    const QByteArray baseId = QCryptographicHash::hash("blob " + QByteArray::number(baseBody.size())
                                                           + '\0' + baseBody,
                                                       QCryptographicHash::Sha1);
    const QByteArray delta = deltaOf(quint64(baseBody.size()), claimed, quint8(baseBody.size()));
    return packOf({entryOf(baseId, objectHeader(3, quint64(baseBody.size())) + deflated(baseBody)),
                   ofsDeltaOf(deltaId, objectHeader(6, quint64(delta.size())), 0, deflated(delta))});
}

// A Unix socket's file at `path`, left behind when the socket is closed.
bool makeSocketFile(const QString &path)
{
    const QByteArray local = QFile::encodeName(path);
    sockaddr_un address = {};
    if (size_t(local.size()) >= sizeof address.sun_path)
        return false;
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, local.constData(), size_t(local.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    const bool bound = ::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address)
                       == 0;
    ::close(fd);
    return bound;
}

} // namespace

Q_DECLARE_METATYPE(CraftedPack)

class TstDamagedHistory : public QObject
{
    Q_OBJECT

private:
    QString m_root;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<GitFixture> m_git;

    // A persona repository of three commits, each changing SOUL.md and
    // MEMORY.md.
    QString makeRepo(const QString &name)
    {
        const QString repo = m_root + QLatin1Char('/') + name;
        QDir().mkpath(repo);
        if (m_git->git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull())
            return {};
        for (int i = 0; i < 3; ++i) {
            writeBytes(repo + QStringLiteral("/SOUL.md"),
                       QByteArray("I am Ava, version ") + QByteArray::number(i) + ".\n");
            writeBytes(repo + QStringLiteral("/MEMORY.md"),
                       QByteArray("memory ") + QByteArray::number(i) + '\n');
            if (m_git->commitAll(repo, QStringLiteral("c%1").arg(i)).isNull())
                return {};
        }
        return repo;
    }

    QByteArray blobAtHead(const QString &repo)
    {
        return m_git->revParse(repo, QStringLiteral("HEAD:SOUL.md"));
    }

    bool rewrite(const QString &path, const QByteArray &bytes)
    {
        ::chmod(QFile::encodeName(path).constData(), 0644);
        return writeBytes(path, bytes);
    }

    // Makes repository `kind`, damaged; `object` is what the sentence must
    // name.
    QString damage(const QString &kind, QByteArray &object)
    {
        const QString repo = makeRepo(kind);
        if (repo.isEmpty())
            return {};
        if (kind.startsWith(QLatin1String("pack"))) {
            if (m_git->git(repo, {QStringLiteral("gc"), QStringLiteral("-q")}).isNull())
                return {};
            const QDir packs(repo + QStringLiteral("/.git/objects/pack"));
            const QString suffix = kind == QLatin1String("pack-index") ? QStringLiteral("*.idx")
                                                                       : QStringLiteral("*.pack");
            const QStringList found = packs.entryList({suffix});
            if (found.size() != 1)
                return {};
            const QString path = packs.filePath(found.first());
            QByteArray bytes = readBytes(path);
            if (kind == QLatin1String("pack-index")) {
                // The fan-out table and the first ids, overwritten.
                for (qsizetype i = 8; i < 1100 && i < bytes.size(); ++i)
                    bytes[i] = char(0xff);
            } else if (kind == QLatin1String("pack-truncated")) {
                bytes.truncate(bytes.size() / 2);
            } else {
                for (qsizetype i = 40; i + 40 < bytes.size(); i += 37)
                    bytes[i] = char(bytes.at(i) ^ 0x55);
            }
            object = m_git->revParse(repo, QStringLiteral("HEAD")).left(7);
            return rewrite(path, bytes) ? repo : QString();
        }
        if (kind == QLatin1String("commit-truncated")) {
            object = m_git->revParse(repo, QStringLiteral("HEAD~1"));
            const QString path = objectFile(repo, object);
            const QByteArray bytes = readBytes(path);
            return rewrite(path, bytes.left(bytes.size() - 6)) ? repo : QString();
        }
        object = blobAtHead(repo);
        const QString path = objectFile(repo, object);
        const QByteArray file = readBytes(path);
        const QByteArray whole = inflated(file);
        const QByteArray body = whole.mid(whole.indexOf('\0') + 1);
        QByteArray broken;
        if (kind == QLatin1String("short-header"))
            broken = deflated("blob " + QByteArray::number(body.size() - 5) + '\0' + body);
        else if (kind == QLatin1String("long-header"))
            broken = deflated("blob " + QByteArray::number(body.size() + 50) + '\0' + body);
        else if (kind == QLatin1String("huge-header"))
            broken = deflated(QByteArrayLiteral("blob 99999999999999999999\0") + body);
        else if (kind == QLatin1String("wrong-type"))
            broken = deflated("blub " + QByteArray::number(body.size()) + '\0' + body);
        else if (kind == QLatin1String("truncated"))
            broken = file.left(file.size() / 2);
        else if (kind == QLatin1String("bit-flipped")) {
            broken = file;
            broken[broken.size() / 2] = char(broken.at(broken.size() / 2) ^ 0x10);
        } else if (kind == QLatin1String("other-content"))
            broken = deflated(QByteArrayLiteral("blob 6\0forged"));
        else if (kind == QLatin1String("missing")) {
            return QFile::remove(path) ? repo : QString();
        } else if (kind == QLatin1String("fifo")) {
            return QFile::remove(path) && ::mkfifo(QFile::encodeName(path).constData(), 0644) == 0
                       ? repo
                       : QString();
        }
        return !broken.isEmpty() && rewrite(path, broken) ? repo : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!GitFixture::available())
            QFAIL("these tests make and damage repositories with the git command line, a build "
                  "dependency of the tests: install git");
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_root = m_dir->path();
        const QString home = m_root + QStringLiteral("/home");
        QDir().mkpath(home);
        m_git = std::make_unique<GitFixture>(home);
    }

    // Each command over each kind of damage: exit 2 with a sentence naming
    // the object and 'git fsck', within the deadline, and no file of the
    // repository touched.
    void damagedObject_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("sentence");
        // What each damage is called, where it has words of its own.
        const QMap<QString, QString> sentences = {
            {QStringLiteral("short-header"), QStringLiteral("longer than the")},
            {QStringLiteral("long-header"), QStringLiteral("fewer than the")},
            {QStringLiteral("huge-header"),
             QStringLiteral("its header declares 4611686018427387904 bytes, more than its file "
                            "could hold compressed")},
            {QStringLiteral("wrong-type"), QStringLiteral("names the type 'blub'")},
            {QStringLiteral("other-content"),
             QStringLiteral("its content does not match its id (it hashes to "
                            "80cc20fe08716d672a1030630e573e8997013c47)")},
        };
        for (const char *kind : {"short-header",
                                 "long-header",
                                 "huge-header",
                                 "wrong-type",
                                 "truncated",
                                 "bit-flipped",
                                 "other-content",
                                 "missing",
                                 "fifo",
                                 "commit-truncated",
                                 "pack-index",
                                 "pack-data",
                                 "pack-truncated"})
            QTest::newRow(kind) << QString::fromLatin1(kind)
                                << sentences.value(QString::fromLatin1(kind));
    }

    void damagedObject()
    {
        QFETCH(QString, kind);
        QFETCH(QString, sentence);
        QByteArray object;
        const QString repo = damage(kind, object);
        QVERIFY2(!repo.isEmpty(), qPrintable(m_git->lastError()));
        const auto before = gitFiles(repo);
        const QList<QStringList> commands = {
            {QStringLiteral("log"), repo},
            {QStringLiteral("log"), QStringLiteral("--json"), repo},
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("HEAD"), repo},
            {QStringLiteral("stat"), QStringLiteral("--rev"), QStringLiteral("HEAD"), repo},
        };
        for (const QStringList &command : commands) {
            const Run run = soulc(command);
            const QByteArray what = command.join(QLatin1Char(' ')).toUtf8() + ": " + run.err;
            QVERIFY2(run.exitCode == 2, what.constData());
            QVERIFY2(run.err.contains("is damaged"), what.constData());
            QVERIFY2(run.err.contains("git fsck"), what.constData());
            QVERIFY2(run.err.contains(sentence.toUtf8()), what.constData());
            if (kind != QLatin1String("pack-index") && kind != QLatin1String("pack-truncated")
                && kind != QLatin1String("pack-data")) {
                QVERIFY2(run.err.contains(object), what.constData());
            }
            QVERIFY2(run.out.isEmpty() || command.at(0) == QLatin1String("log"), what.constData());
        }
        QCOMPARE(gitFiles(repo), before);
    }

    // A FIFO, socket or device where git keeps a file: libgit2 would open it
    // and wait forever. Every command ends at once, exits 2 and names it.
    void specialFileInGitFolder_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        const QStringList files = {QStringLiteral("refs/heads/main"),
                                   QStringLiteral("HEAD"),
                                   QStringLiteral("packed-refs"),
                                   QStringLiteral("shallow"),
                                   QStringLiteral("objects/info/alternates"),
                                   QStringLiteral("config"),
                                   QStringLiteral("included.cfg"),
                                   QStringLiteral("index"),
                                   QStringLiteral("logs/HEAD"),
                                   QStringLiteral("logs/refs/heads/main")};
        for (const QString &file : files)
            QTest::newRow(qPrintable(file)) << file << QStringLiteral("fifo");
        QTest::newRow("config (a device)") << QStringLiteral("config") << QStringLiteral("device");
        QTest::newRow("refs/heads/main (a socket)")
            << QStringLiteral("refs/heads/main") << QStringLiteral("socket");
    }

    void specialFileInGitFolder()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        const QString name = QStringLiteral("special-%1-%2")
                                 .arg(QString(file).replace(QLatin1Char('/'), QLatin1Char('-')),
                                      kind);
        const QString repo = makeRepo(name);
        QVERIFY2(!repo.isEmpty(), qPrintable(m_git->lastError()));
        const QString gitDir = repo + QStringLiteral("/.git");
        if (file == QLatin1String("included.cfg")) {
            QFile config(gitDir + QStringLiteral("/config"));
            QVERIFY(config.open(QIODevice::Append));
            config.write("[include]\n\tpath = included.cfg\n");
        }
        QVERIFY(writeBytes(repo + QStringLiteral("/SOUL.md"), "I am Ava, changed.\n"));
        const QString path = gitDir + QLatin1Char('/') + file;
        QFile::remove(path);
        QDir().mkpath(QFileInfo(path).path());
        if (kind == QLatin1String("fifo")) {
            QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0644) == 0);
        } else if (kind == QLatin1String("device")) {
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        } else {
            QVERIFY(makeSocketFile(path));
        }
        const QList<QStringList> commands = {
            {QStringLiteral("log"), repo},
            {QStringLiteral("log"), QStringLiteral("--json"), repo},
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("HEAD"), repo},
            {QStringLiteral("checkpoint"), repo},
        };
        for (const QStringList &command : commands) {
            const Run run = runSoulc({command, {}, {}, std::nullopt, 10000});
            const QByteArray what = command.join(QLatin1Char(' ')).toUtf8() + ": " + run.err;
            QVERIFY2(run.exitCode == 2, what.constData());
            QVERIFY2(run.err.contains(QFile::encodeName(path)), what.constData());
            QVERIFY2(run.err.contains("not a regular file") && run.err.contains("Remove it"),
                     what.constData());
            QVERIFY2(run.out.isEmpty(), what.constData());
        }
    }

    // A pack of a few hundred bytes whose delta claims to make 1.9 GiB: the
    // size is read from the pack's headers and the object refused as too
    // large (not damaged), before anything is allocated for it.
    void packedObjectTooLarge()
    {
        const QString repo = m_root + QStringLiteral("/packed-too-large");
        QDir().mkpath(repo);
        QVERIFY2(!m_git->git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull(),
                 qPrintable(m_git->lastError()));
        const QByteArray hugeId = QCryptographicHash::hash("a blob of 1.9 GiB",
                                                           QCryptographicHash::Sha1);
        const CraftedPack crafted = craftPack(QByteArray(64, 'x'), hugeId, quint64(1900) << 20);
        const QString packs = repo + QStringLiteral("/.git/objects/pack/");
        const QString name
            = QStringLiteral("pack-")
              + QString::fromLatin1(
                  QCryptographicHash::hash(crafted.pack, QCryptographicHash::Sha1).toHex());
        QVERIFY(writeBytes(packs + name + QStringLiteral(".pack"), crafted.pack));
        QVERIFY(writeBytes(packs + name + QStringLiteral(".idx"), crafted.index));
        const QByteArray tree = m_git
                                    ->git(repo,
                                          {QStringLiteral("mktree"), QStringLiteral("--missing")},
                                          "100644 blob " + hugeId.toHex() + "\tSOUL.md\n")
                                    .trimmed();
        QVERIFY2(!tree.isEmpty(), qPrintable(m_git->lastError()));
        const QByteArray commit = m_git
                                      ->git(repo,
                                            {QStringLiteral("commit-tree"),
                                             QString::fromLatin1(tree),
                                             QStringLiteral("-m"),
                                             QStringLiteral("large")})
                                      .trimmed();
        QVERIFY2(!commit.isEmpty(), qPrintable(m_git->lastError()));
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("update-ref"),
                            QStringLiteral("refs/heads/main"),
                            QString::fromLatin1(commit)})
                     .isNull());
        // git itself reads the size from the pack as this test wrote it.
        QCOMPARE(m_git
                     ->git(repo,
                           {QStringLiteral("cat-file"),
                            QStringLiteral("-s"),
                            QString::fromLatin1(hugeId.toHex())})
                     .trimmed(),
                 QByteArray::number(qint64(1900) << 20));
        const QList<QStringList> commands = {
            {QStringLiteral("log"), repo},
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("HEAD"), repo},
        };
        for (const QStringList &command : commands) {
            const Run run = soulc(command);
            const QByteArray what = command.join(QLatin1Char(' ')).toUtf8() + ": " + run.err;
            QVERIFY2(run.exitCode == 2, what.constData());
            QVERIFY2(run.err.contains("too large to read") && run.err.contains(hugeId.toHex())
                         && run.err.contains("1992294400 bytes"),
                     what.constData());
            QVERIFY2(!run.err.contains("is damaged"), what.constData());
        }
    }

    // A repository whose HEAD holds SOUL.md as the object `soulId`, found
    // only in the pack `crafted`; empty on failure.
    QString repoWithPack(const QString &name, const CraftedPack &crafted, const QByteArray &soulId)
    {
        const QString repo = m_root + QLatin1Char('/') + name;
        QDir().mkpath(repo);
        if (m_git->git(repo, {QStringLiteral("init"), QStringLiteral("-q")}).isNull())
            return {};
        const QByteArray tree = m_git
                                    ->git(repo,
                                          {QStringLiteral("mktree"), QStringLiteral("--missing")},
                                          "100644 blob " + soulId.toHex() + "\tSOUL.md\n")
                                    .trimmed();
        const QByteArray commit = m_git
                                      ->git(repo,
                                            {QStringLiteral("commit-tree"),
                                             QString::fromLatin1(tree),
                                             QStringLiteral("-m"),
                                             QStringLiteral("packed")})
                                      .trimmed();
        if (tree.isEmpty() || commit.isEmpty()
            || m_git
                   ->git(repo,
                         {QStringLiteral("update-ref"),
                          QStringLiteral("refs/heads/main"),
                          QString::fromLatin1(commit)})
                   .isNull())
            return {};
        // The pack last: git itself may not read it.
        const QString packs
            = repo + QStringLiteral("/.git/objects/pack/pack-")
              + QString::fromLatin1(
                  QCryptographicHash::hash(crafted.pack, QCryptographicHash::Sha1).toHex());
        if (!writeBytes(packs + QStringLiteral(".pack"), crafted.pack)
            || !writeBytes(packs + QStringLiteral(".idx"), crafted.index))
            return {};
        return repo;
    }

    // A small object made from a huge one by deltas: libgit2 would inflate
    // the base whole, so every entry on the chain is held to the cap before
    // libgit2 reads, and a chain that loops is refused. The object asked for
    // and the one at fault are both named.
    void deltaChainChecked_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<CraftedPack>("crafted");
        QTest::addColumn<QByteArray>("soulId");
        QTest::addColumn<QList<QByteArray>>("said");
        QTest::addColumn<bool>("tooLarge");

        const quint64 huge = quint64(1900) << 20;
        auto id = [](const char *label) {
            return QCryptographicHash::hash(label, QCryptographicHash::Sha1);
        };
        const QByteArray hugeId = id("a blob of 1.9 GiB");
        const QByteArray smallDelta = deltaOf(huge, 10, 10);
        const QByteArray small = deflated(smallDelta);
        const QByteArray smallHeader = objectHeader(6, quint64(smallDelta.size()));
        const QByteArray smallRefHeader = objectHeader(7, quint64(smallDelta.size()));
        const QByteArray tinyDelta = deltaOf(10, 10, 10);
        const QByteArray tinyRefHeader = objectHeader(7, quint64(tinyDelta.size()));
        // The huge blob's stream holds one byte: nothing that reads it whole
        // gets far, but its header is all the guard needs.
        const PackEntry hugeBlob = entryOf(hugeId, objectHeader(3, huge) + deflated("x"));
        const QByteArray sizeText = QByteArray::number(huge) + " bytes";

        const QByteArray top = id("a delta of ten bytes");
        QTest::newRow("offset delta on a huge base")
            << QStringLiteral("ofs-huge-base")
            << packOf({hugeBlob, ofsDeltaOf(top, smallHeader, 0, small)}) << top
            << QList<QByteArray>{top.toHex(), hugeId.toHex(), sizeText, "made from the object"}
            << true;

        QTest::newRow("reference delta on a huge base")
            << QStringLiteral("ref-huge-base")
            << packOf({hugeBlob, entryOf(top, smallRefHeader + hugeId + small)}) << top
            << QList<QByteArray>{top.toHex(), hugeId.toHex(), sizeText} << true;

        const QByteArray middle = id("a delta in the middle");
        QTest::newRow("two deltas above a huge base")
            << QStringLiteral("chain-huge-base")
            << packOf({hugeBlob,
                       ofsDeltaOf(middle, smallHeader, 0, small),
                       entryOf(top, tinyRefHeader + middle + deflated(tinyDelta))})
            << top << QList<QByteArray>{top.toHex(), hugeId.toHex(), sizeText} << true;

        const QByteArray hugeDelta = id("a delta on a huge delta");
        QTest::newRow("delta on a delta that makes a huge object")
            << QStringLiteral("huge-middle")
            << packOf({entryOf(middle, objectHeader(3, 10) + deflated("0123456789")),
                       ofsDeltaOf(hugeDelta,
                                  objectHeader(6, quint64(deltaOf(10, huge, 10).size())),
                                  0,
                                  deflated(deltaOf(10, huge, 10))),
                       entryOf(top, smallRefHeader + hugeDelta + small)})
            << top << QList<QByteArray>{top.toHex(), hugeDelta.toHex(), sizeText} << true;

        const QByteArray other = id("the other delta of the loop");
        QTest::newRow("reference deltas in a loop")
            << QStringLiteral("delta-loop")
            << packOf({entryOf(top, tinyRefHeader + other + deflated(tinyDelta)),
                       entryOf(other, tinyRefHeader + top + deflated(tinyDelta))})
            << top << QList<QByteArray>{top.toHex(), "is damaged", "loops"} << false;
    }

    void deltaChainChecked()
    {
        QFETCH(QString, name);
        QFETCH(CraftedPack, crafted);
        QFETCH(QByteArray, soulId);
        QFETCH(QList<QByteArray>, said);
        QFETCH(bool, tooLarge);
        const QString repo = repoWithPack(name, crafted, soulId);
        QVERIFY2(!repo.isEmpty(), qPrintable(m_git->lastError()));
        const QList<QStringList> commands = {
            {QStringLiteral("log"), repo},
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("HEAD"), repo},
        };
        for (const QStringList &command : commands) {
            const Run run = soulc(command);
            const QByteArray what = command.join(QLatin1Char(' ')).toUtf8() + ": " + run.err;
            QVERIFY2(run.exitCode == 2, what.constData());
            for (const QByteArray &words : said)
                QVERIFY2(run.err.contains(words), (words + " not in " + what).constData());
            QVERIFY2(run.err.contains("too large to read") == tooLarge, what.constData());
            QVERIFY2(run.err.contains("is damaged") != tooLarge, what.constData());
        }
    }

    // core.worktree pointing away from the folder that holds .git: the
    // persona's files are not where the commits have them, which is said,
    // with exit 2, rather than an empty soul or "damaged".
    void worktreeElsewhere()
    {
        const QString repo = makeRepo(QStringLiteral("worktree-root"));
        QVERIFY(!repo.isEmpty());
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("config"),
                            QStringLiteral("core.worktree"),
                            QStringLiteral("/")})
                     .isNull());
        const QList<QStringList> commands = {
            {QStringLiteral("log"), repo},
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("HEAD"), repo},
            {QStringLiteral("checkpoint"), repo},
        };
        for (const QStringList &command : commands) {
            const Run run = soulc(command);
            const QByteArray what = command.join(QLatin1Char(' ')).toUtf8() + ": " + run.err;
            QVERIFY2(run.exitCode == 2, what.constData());
            QVERIFY2(run.err.contains("sets core.worktree to /")
                         && run.err.contains("config --unset core.worktree"),
                     what.constData());
            QVERIFY2(!run.err.contains("is damaged") && run.out.isEmpty(), what.constData());
        }
    }

    // HEAD leading through symbolic refs that loop: said, naming the refs.
    void symbolicRefLoop()
    {
        const QString repo = makeRepo(QStringLiteral("symref-loop"));
        QVERIFY(!repo.isEmpty());
        QVERIFY(writeBytes(repo + QStringLiteral("/.git/HEAD"), "ref: refs/heads/a\n"));
        QVERIFY(writeBytes(repo + QStringLiteral("/.git/refs/heads/a"), "ref: refs/heads/b\n"));
        QVERIFY(writeBytes(repo + QStringLiteral("/.git/refs/heads/b"), "ref: refs/heads/a\n"));
        QVERIFY(writeBytes(repo + QStringLiteral("/SOUL.md"), "I am Ava, changed.\n"));
        const QList<QStringList> commands = {
            {QStringLiteral("checkpoint"), repo},
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("HEAD"), repo},
        };
        for (const QStringList &command : commands) {
            const Run run = soulc(command);
            const QByteArray what = command.join(QLatin1Char(' ')).toUtf8() + ": " + run.err;
            QVERIFY2(run.exitCode == 2, what.constData());
            QVERIFY2(run.err.contains("symbolic refs form a loop (HEAD -> refs/heads/a -> "
                                      "refs/heads/b -> refs/heads/a)"),
                     what.constData());
            QVERIFY2(!run.err.contains("Give a commit id"), what.constData());
        }
    }

    // A non-cone sparse checkout: MEMORY.md is left out of the working tree
    // (skip-worktree), and a checkpoint keeps it as the index has it.
    void sparseCheckoutKeepsSkippedSlots()
    {
        const QString repo = makeRepo(QStringLiteral("sparse-skip"));
        QVERIFY(!repo.isEmpty());
        QVERIFY2(!m_git
                      ->git(repo,
                            {QStringLiteral("sparse-checkout"),
                             QStringLiteral("set"),
                             QStringLiteral("--no-cone"),
                             QStringLiteral("/SOUL.md")})
                      .isNull(),
                 qPrintable(m_git->lastError()));
        QVERIFY(!QFileInfo::exists(repo + QStringLiteral("/MEMORY.md")));
        QVERIFY(writeBytes(repo + QStringLiteral("/SOUL.md"), "I am Ava, sparse.\n"));
        const Run run = soulc({QStringLiteral("checkpoint"), repo});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.out.contains("MEMORY.md"), run.out.constData());
        QCOMPARE(m_git->git(repo,
                            {QStringLiteral("ls-tree"),
                             QStringLiteral("--name-only"),
                             QStringLiteral("HEAD")}),
                 QByteArray("MEMORY.md\nSOUL.md\n"));
        QCOMPARE(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")}),
                 QByteArray());
    }

    // A submodule's entry where SOUL.md is, and a file on disk (git status:
    // " T SOUL.md"): refused, rather than "nothing to checkpoint".
    void gitlinkAtSlotIsRefused()
    {
        const QString repo = makeRepo(QStringLiteral("gitlink"));
        QVERIFY(!repo.isEmpty());
        const QByteArray head = m_git->revParse(repo, QStringLiteral("HEAD"));
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("rm"),
                            QStringLiteral("-q"),
                            QStringLiteral("--cached"),
                            QStringLiteral("SOUL.md")})
                     .isNull());
        QVERIFY(!m_git
                     ->git(repo,
                           {QStringLiteral("update-index"),
                            QStringLiteral("--add"),
                            QStringLiteral("--cacheinfo"),
                            QStringLiteral("160000,%1,SOUL.md").arg(QString::fromLatin1(head))})
                     .isNull());
        QVERIFY(
            !m_git
                 ->git(repo,
                       {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("gitlink")})
                 .isNull());
        QVERIFY(m_git->git(repo, {QStringLiteral("status"), QStringLiteral("--porcelain")})
                    .contains(" T SOUL.md"));
        const QByteArray before = m_git->revParse(repo, QStringLiteral("HEAD"));
        const Run run = soulc({QStringLiteral("checkpoint"), repo});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("is a submodule (a gitlink) in HEAD but a file on disk")
                     && run.err.contains("git rm --cached SOUL.md"),
                 run.err.constData());
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), before);
    }

    // git 2.39's sparse index: said to be one, with how to expand it, not
    // called damaged.
    void sparseIndexIsSaid()
    {
        const QString repo = makeRepo(QStringLiteral("sparse-index"));
        QVERIFY(!repo.isEmpty());
        QVERIFY(writeBytes(repo + QStringLiteral("/away/notes.md"), "away\n"));
        QVERIFY(writeBytes(repo + QStringLiteral("/near/notes.md"), "near\n"));
        QVERIFY(!m_git->commitAll(repo, QStringLiteral("folders")).isNull());
        QVERIFY2(!m_git
                      ->git(repo,
                            {QStringLiteral("sparse-checkout"),
                             QStringLiteral("set"),
                             QStringLiteral("--cone"),
                             QStringLiteral("--sparse-index"),
                             QStringLiteral("near")})
                      .isNull(),
                 qPrintable(m_git->lastError()));
        QVERIFY(m_git->git(repo, {QStringLiteral("ls-files"), QStringLiteral("--sparse")})
                    .contains("away/\n"));
        QVERIFY(writeBytes(repo + QStringLiteral("/SOUL.md"), "I am Ava, sparse.\n"));
        const QByteArray before = m_git->revParse(repo, QStringLiteral("HEAD"));
        const Run run = soulc({QStringLiteral("checkpoint"), repo});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("is a sparse index")
                     && run.err.contains("git sparse-checkout disable")
                     && run.err.contains("git config index.sparse false && git sparse-checkout "
                                         "reapply")
                     && !run.err.contains("is damaged") && !run.err.contains("rm "),
                 run.err.constData());
        QCOMPARE(m_git->revParse(repo, QStringLiteral("HEAD")), before);
    }

    // safe.directory '*' in the user's config trusts every repository, as
    // in git 2.39.
    void safeDirectoryStar()
    {
        const QString repo = makeRepo(QStringLiteral("other-owner"));
        QVERIFY(!repo.isEmpty());
        QProcess chown;
        chown.start(QStringLiteral("chown"),
                    {QStringLiteral("-R"), QStringLiteral("12345:12345"), repo});
        if (!chown.waitForFinished(30000) || chown.exitCode() != 0)
            QSKIP("only root can give a repository to another user");
        const QString home = m_root + QStringLiteral("/star-home");
        QVERIFY(writeBytes(home + QStringLiteral("/.gitconfig"), "[safe]\n\tdirectory = *\n"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home);
        env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
        Run run = runSoulc({{QStringLiteral("log"), repo}, {}, {}, env, Deadline});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("SOUL.md"), run.out.constData());
        // Without it, the repository is not trusted.
        QVERIFY(
            writeBytes(home + QStringLiteral("/.gitconfig"), "[safe]\n\tdirectory = /elsewhere\n"));
        run = runSoulc({{QStringLiteral("log"), repo}, {}, {}, env, Deadline});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("belongs to another user"), run.err.constData());
    }

    // A commit that reads, with an older one damaged: the command that does
    // not need the damaged one works.
    void damageElsewhereIsNotReported()
    {
        QByteArray object;
        const QString repo = damage(QStringLiteral("short-header"), object);
        QVERIFY(!repo.isEmpty());
        const Run run = soulc(
            {QStringLiteral("compose"), QStringLiteral("--rev"), QStringLiteral("HEAD~1"), repo});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("I am Ava, version 1."));
    }

    // A checkpoint over a damaged index names the index, not a slot file,
    // and writes nothing.
    void damagedIndex_data()
    {
        QTest::addColumn<QByteArray>("kind");
        QTest::newRow("signature") << QByteArray("signature");
        QTest::newRow("cut short") << QByteArray("cut");
    }

    void damagedIndex()
    {
        QFETCH(QByteArray, kind);
        const QString repo = makeRepo(QStringLiteral("index-") + QString::fromLatin1(kind));
        QVERIFY(!repo.isEmpty());
        const QString index = repo + QStringLiteral("/.git/index");
        QByteArray bytes = readBytes(index);
        if (kind == "signature")
            bytes.replace(0, 4, "DIRX");
        else
            bytes.truncate(40);
        QVERIFY(rewrite(index, bytes));
        QVERIFY(writeBytes(repo + QStringLiteral("/SOUL.md"), "I am Ava, changed.\n"));
        const auto before = gitFiles(repo);
        const Run run = soulc({QStringLiteral("checkpoint"), repo});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("index") && run.err.contains("is damaged")
                     && run.err.contains("git reset") && !run.err.contains("SOUL.md: cannot"),
                 run.err.constData());
        QCOMPARE(gitFiles(repo), before);
    }

    void gitFilePointingNowhere()
    {
        const QString dir = m_root + QStringLiteral("/gitfile");
        QVERIFY(writeBytes(dir + QStringLiteral("/SOUL.md"), "I am Ava.\n"));
        QVERIFY(writeBytes(dir + QStringLiteral("/.git"), "gitdir: ../nowhere/repo.git\n"));
        const Run run = soulc({QStringLiteral("log"), dir});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("/.git points to") && run.err.contains("nowhere/repo.git"),
                 run.err.constData());
        QVERIFY2(!run.err.contains("not in a git repository"), run.err.constData());
    }

    // `git clone --depth N`: the history up to the cut, which is said; git
    // fsck passes on it, and so do the commands.
    void shallowClone_data()
    {
        QTest::addColumn<int>("depth");
        QTest::newRow("depth 1") << 1;
        QTest::newRow("depth 2") << 2;
    }

    void shallowClone()
    {
        QFETCH(int, depth);
        const QString source = makeRepo(QStringLiteral("shallow-source-%1").arg(depth));
        QVERIFY(!source.isEmpty());
        const QString clone = m_root + QStringLiteral("/shallow-%1").arg(depth);
        QVERIFY2(!m_git
                      ->git(m_root,
                            {QStringLiteral("clone"),
                             QStringLiteral("-q"),
                             QStringLiteral("--depth"),
                             QString::number(depth),
                             QStringLiteral("file://") + source,
                             clone})
                      .isNull(),
                 qPrintable(m_git->lastError()));
        QVERIFY2(!m_git->git(clone, {QStringLiteral("fsck")}).isNull(),
                 qPrintable(m_git->lastError()));
        const QByteArray gitLog = m_git->git(clone,
                                             {QStringLiteral("log"), QStringLiteral("--format=%H")});

        Run run = soulc({QStringLiteral("log"), QStringLiteral("--json"), clone});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root.value(QStringLiteral("shallow")).toBool(), true);
        const QJsonArray commits = root.value(QStringLiteral("commits")).toArray();
        QCOMPARE(commits.size(), depth);
        QByteArrayList ids;
        for (const QJsonValue &commit : commits)
            ids.append(commit.toObject().value(QStringLiteral("id")).toString().toLatin1());
        QCOMPARE(ids.join('\n') + '\n', gitLog);
        // The last commit listed is where the clone is cut, and only it.
        for (qsizetype i = 0; i < commits.size(); ++i) {
            QCOMPARE(commits.at(i).toObject().value(QStringLiteral("cut")).toBool(),
                     i == commits.size() - 1);
        }

        run = soulc({QStringLiteral("log"), clone});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("shallow clone") && run.out.contains("git fetch --unshallow"),
                 run.out.constData());

        run = soulc(
            {QStringLiteral("stat"), QStringLiteral("--rev"), QStringLiteral("HEAD"), clone});
        QVERIFY2(run.exitCode == 0, run.err.constData());

        const QString beyond = QStringLiteral("HEAD~%1").arg(depth);
        run = soulc({QStringLiteral("compose"), QStringLiteral("--rev"), beyond, clone});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("shallow clone") && !run.err.contains("is damaged"),
                 run.err.constData());
        run = soulc({QStringLiteral("compose"),
                     QStringLiteral("--rev"),
                     QStringLiteral("HEAD~%1").arg(depth - 1),
                     clone});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY(run.out.contains("I am Ava, version " + QByteArray::number(3 - depth) + "."));
    }

    // Revisions git reads differently from a name: the sentence says what
    // is wrong, not libgit2's "(unknown error)" or another file.
    void revisionSentences_data()
    {
        QTest::addColumn<QString>("rev");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("message search") << QStringLiteral(":/c1") << 0 << QString();
        QTest::newRow("no previous branch")
            << QStringLiteral("@{-1}") << 2 << QStringLiteral("branches checked out before");
        QTest::newRow("unknown id")
            << QStringLiteral("deadbeef") << 2 << QStringLiteral("names no commit");
    }

    void revisionSentences()
    {
        QFETCH(QString, rev);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const QString repo = m_root + QStringLiteral("/revs");
        if (!QFileInfo::exists(repo))
            QVERIFY(!makeRepo(QStringLiteral("revs")).isEmpty());
        const Run run = soulc({QStringLiteral("compose"), QStringLiteral("--rev"), rev, repo});
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err.constData());
        QVERIFY2(!run.err.contains("unknown error") && !run.err.contains(".gitconfig")
                     && !run.err.contains("is damaged"),
                 run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TstDamagedHistory)
#include "tst_damagedhistory.moc"
