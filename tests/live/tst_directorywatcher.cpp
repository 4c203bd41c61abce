#include "compose/composerule.h"
#include "disk/directorywatcher.h"
#include "disk/slotreader.h"
#include "disk/slotsaver.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

using namespace soul;

namespace {

constexpr int Agents = 0;
constexpr int Soul = 1;
constexpr int User = 3;
constexpr int Heartbeat = 5; // the sentinel: written in place by drain()
constexpr int Memory = 6;

QByteArray sha(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

bool writeInPlace(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

bool append(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Append) && file.write(bytes) == bytes.size();
}

// As editors save: a temporary file beside the target, renamed over it.
bool replaceAtomically(const QString &path, const QByteArray &bytes)
{
    const QString temp = path + QStringLiteral(".swp~");
    return writeInPlace(temp, bytes)
           && std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(path).constData())
                  == 0;
}

QString change(int slot, const QByteArray &digest)
{
    return QStringLiteral("%1:%2").arg(slotName(slot), QString::fromLatin1(digest));
}

} // namespace

class tst_DirectoryWatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void baselineIsNotReported();
    void inPlaceWrite();
    void atomicReplaceIsReArmed();
    void deleteAndCreate();
    void deleteThenRecreate();
    void touchIsNotAChange();
    void expectedSaveIsNotAChange();
    void burstIsCoalesced();
    void slowWriterIsReadOnceSettled();
    void largeFileIsHashedByStreaming();
    void fifoNeverBlocks();
    void linkTargetAppearsElsewhere();
    void directoryRemovedAndRecreated();
    void directoryRenamedAndBack();
    void directoryReplacedByAnother();
    void directoryMissingAtStart();
    void clearStopsWatching();

private:
    QString slotFile(int slot) const { return slotPath(m_dir, slot); }
    // Writes the sentinel slot in place and waits for its report: every event
    // before it has then been dealt with. Returns the reports of the other
    // slots since the last drain, and forgets them.
    QStringList drain();
    void startWatcher();

    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_dir;
    std::unique_ptr<DirectoryWatcher> m_watcher;
    std::unique_ptr<QSignalSpy> m_spy;
    int m_sentinel = 0;
};

void tst_DirectoryWatcher::init()
{
    m_tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(m_tmp->isValid());
    m_dir = m_tmp->filePath(QStringLiteral("persona"));
    QVERIFY(QDir().mkpath(m_dir));
    QVERIFY(writeInPlace(slotFile(Soul), "You are Kip.\n"));
    QVERIFY(writeInPlace(slotFile(Memory), "- metric\n"));
    QVERIFY(writeInPlace(slotFile(Heartbeat), "sentinel 0\n"));
    m_sentinel = 0;
    startWatcher();
}

void tst_DirectoryWatcher::startWatcher()
{
    m_spy.reset();
    m_watcher = std::make_unique<DirectoryWatcher>(ComposeRule::toolnexus().readLimit());
    m_watcher->setSettleInterval(40);
    m_spy = std::make_unique<QSignalSpy>(m_watcher.get(), &DirectoryWatcher::slotChanged);
    m_watcher->setDirectory(m_dir);
    QCOMPARE(m_watcher->isWatching(), QFileInfo(m_dir).isDir());
}

void tst_DirectoryWatcher::cleanup()
{
    m_spy.reset();
    m_watcher.reset();
    m_tmp.reset();
}

QStringList tst_DirectoryWatcher::drain()
{
    const QByteArray content = "sentinel " + QByteArray::number(++m_sentinel) + '\n';
    if (!writeInPlace(slotFile(Heartbeat), content))
        return {QStringLiteral("cannot write the sentinel")};
    const QString expected = change(Heartbeat, sha(content));
    QStringList others;
    bool seen = false;
    for (int round = 0; round < 100 && !seen; ++round) {
        if (m_spy->isEmpty() && !m_spy->wait(5000))
            break;
        while (!m_spy->isEmpty()) {
            const QList<QVariant> args = m_spy->takeFirst();
            const QString c = change(args.at(0).toInt(), args.at(1).toByteArray());
            if (c == expected)
                seen = true;
            else if (args.at(0).toInt() != Heartbeat)
                others << c;
        }
    }
    if (!seen)
        others << QStringLiteral("the sentinel was never reported");
    return others;
}

void tst_DirectoryWatcher::baselineIsNotReported()
{
    QVERIFY(m_watcher->isWatching());
    QCOMPARE(m_watcher->knownContent(Soul), sha("You are Kip.\n"));
    QCOMPARE(m_watcher->knownContent(User), QByteArray());
    QCOMPARE(drain(), QStringList());
}

void tst_DirectoryWatcher::inPlaceWrite()
{
    QVERIFY(writeInPlace(slotFile(Soul), "You are Kip, terse.\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("You are Kip, terse.\n"))});
    // Same size, new content.
    QVERIFY(writeInPlace(slotFile(Soul), "You are Pik, terse.\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("You are Pik, terse.\n"))});
}

void tst_DirectoryWatcher::atomicReplaceIsReArmed()
{
    QVERIFY(replaceAtomically(slotFile(Soul), "first replace\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("first replace\n"))});
    QVERIFY(replaceAtomically(slotFile(Soul), "second replace\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("second replace\n"))});
    // An edit in place reaches only a watch on the new file itself.
    QVERIFY(writeInPlace(slotFile(Soul), "then in place\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("then in place\n"))});
}

void tst_DirectoryWatcher::deleteAndCreate()
{
    QVERIFY(QFile::remove(slotFile(Soul)));
    QCOMPARE(drain(), QStringList{change(Soul, QByteArray())});
    QCOMPARE(m_watcher->knownContent(Soul), QByteArray());

    QVERIFY(writeInPlace(slotFile(User), "likes tea\n"));
    QCOMPARE(drain(), QStringList{change(User, sha("likes tea\n"))});
    QVERIFY(writeInPlace(slotFile(User), "likes coffee\n"));
    QCOMPARE(drain(), QStringList{change(User, sha("likes coffee\n"))});
}

void tst_DirectoryWatcher::deleteThenRecreate()
{
    QVERIFY(QFile::remove(slotFile(Soul)));
    QVERIFY(writeInPlace(slotFile(Soul), "born again\n"));
    const QStringList seen = drain();
    QVERIFY2(!seen.isEmpty() && seen.size() <= 2, qPrintable(seen.join(u' ')));
    QCOMPARE(seen.constLast(), change(Soul, sha("born again\n")));

    // The same content back is no change at all.
    QVERIFY(QFile::remove(slotFile(Soul)));
    QVERIFY(writeInPlace(slotFile(Soul), "born again\n"));
    const QStringList again = drain();
    QVERIFY2(again.isEmpty()
                 || again
                        == QStringList(
                            {change(Soul, QByteArray()), change(Soul, sha("born again\n"))}),
             qPrintable(again.join(u' ')));

    QVERIFY(writeInPlace(slotFile(Soul), "edited in place\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("edited in place\n"))});
}

void tst_DirectoryWatcher::touchIsNotAChange()
{
    // Times in the future, so the touch surely changes them.
    struct timeval times[2] = {{2000000000, 0}, {2000000000, 0}};
    QCOMPARE(::utimes(QFile::encodeName(slotFile(Soul)).constData(), times), 0);
    QCOMPARE(::utimes(QFile::encodeName(slotFile(Memory)).constData(), times), 0);
    QCOMPARE(drain(), QStringList());

    // And the touched files are still watched.
    QVERIFY(writeInPlace(slotFile(Memory), "- imperial\n"));
    QCOMPARE(drain(), QStringList{change(Memory, sha("- imperial\n"))});
}

void tst_DirectoryWatcher::expectedSaveIsNotAChange()
{
    const QByteArray saved = "You are Kip, saved by us.\n";
    QVERIFY(saveSlotFile(slotFile(Soul), saved).ok());
    m_watcher->expectContent(Soul, sha(saved));
    QCOMPARE(drain(), QStringList());

    // A new slot saved by us.
    QVERIFY(saveSlotFile(slotFile(User), "new user\n").ok());
    m_watcher->expectContent(User, sha("new user\n"));
    QCOMPARE(drain(), QStringList());

    // Someone else's change right after is reported.
    QVERIFY(writeInPlace(slotFile(Soul), "theirs\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("theirs\n"))});
}

void tst_DirectoryWatcher::burstIsCoalesced()
{
    QByteArray last;
    for (int i = 0; i < 50; ++i) {
        last = "version " + QByteArray::number(i) + '\n';
        QVERIFY(writeInPlace(slotFile(Soul), last));
        QCoreApplication::processEvents();
    }
    const QStringList seen = drain();
    QVERIFY2(!seen.isEmpty() && seen.size() <= 3, qPrintable(seen.join(u' ')));
    QCOMPARE(seen.constLast(), change(Soul, sha(last)));
}

void tst_DirectoryWatcher::slowWriterIsReadOnceSettled()
{
    // Chunks come faster than the settle interval: the half-written file
    // must never be read.
    m_watcher->setSettleInterval(300);
    QByteArray written;
    int chunks = 0;
    QTimer writer;
    writer.setInterval(10);
    connect(&writer, &QTimer::timeout, this, [&] {
        const QByteArray chunk = "chunk " + QByteArray::number(chunks) + " of a slow writer\n";
        if (append(slotFile(User), chunk))
            written += chunk;
        if (++chunks == 10)
            writer.stop();
    });
    writer.start();
    QTRY_COMPARE(chunks, 10);
    QCOMPARE(written.count('\n'), 10);

    QTRY_VERIFY(!m_spy->isEmpty());
    const QList<QVariant> first = m_spy->takeFirst();
    QCOMPARE(change(first.at(0).toInt(), first.at(1).toByteArray()), change(User, sha(written)));
    m_watcher->setSettleInterval(40);
    QCOMPARE(drain(), QStringList());
}

void tst_DirectoryWatcher::largeFileIsHashedByStreaming()
{
    QByteArray big(5 * 1024 * 1024 + 3, 'x');
    for (qsizetype i = 0; i < big.size(); i += 4096)
        big[i] = char('a' + (i / 4096) % 26);

    ReadOptions options(0);
    options.limit = 0;
    options.sha256 = true;
    QVERIFY(writeInPlace(slotFile(Memory), big));
    const SlotRead read = readPath(slotFile(Memory), options);
    QCOMPARE(read.presence, SlotPresence::Present);
    QCOMPARE(read.bytes, QByteArray());
    QCOMPARE(read.size, big.size());
    QCOMPARE(read.sha256, sha(big));

    QCOMPARE(drain(), QStringList{change(Memory, sha(big))});
}

void tst_DirectoryWatcher::fifoNeverBlocks()
{
    QCOMPARE(::mkfifo(QFile::encodeName(slotFile(Agents)).constData(), 0600), 0);
    // Still absent, but absent for another reason: reported with no digest.
    QCOMPARE(drain(), QStringList{change(Agents, QByteArray())});

    // A FIFO replacing a file.
    QVERIFY(QFile::remove(slotFile(Soul)));
    QCOMPARE(::mkfifo(QFile::encodeName(slotFile(Soul)).constData(), 0600), 0);
    QCOMPARE(drain(), QStringList{change(Soul, QByteArray())});

    QVERIFY(QFile::remove(slotFile(Agents)));
    QVERIFY(writeInPlace(slotFile(Agents), "rules\n"));
    QCOMPARE(drain(), QStringList{change(Agents, sha("rules\n"))});
}

// No event in the persona directory says that a dangling link's target came
// into being in another folder: the poll finds it.
void tst_DirectoryWatcher::linkTargetAppearsElsewhere()
{
    const QString outside = m_tmp->filePath(QStringLiteral("outside"));
    QVERIFY(QDir().mkpath(outside));
    QCOMPARE(::symlink("../outside/user.md", QFile::encodeName(slotFile(User)).constData()), 0);
    QCOMPARE(drain(), QStringList{change(User, QByteArray())}); // missing -> dangling link

    QVERIFY(writeInPlace(outside + QStringLiteral("/user.md"), "from afar\n"));
    QTRY_COMPARE(m_spy->count(), 1);
    QCOMPARE(change(m_spy->at(0).at(0).toInt(), m_spy->at(0).at(1).toByteArray()),
             change(User, sha("from afar\n")));
    m_spy->clear();

    // From then on the target itself is watched.
    QVERIFY(writeInPlace(outside + QStringLiteral("/user.md"), "edited afar\n"));
    QCOMPARE(drain(), QStringList{change(User, sha("edited afar\n"))});

    // An atomic save of the target, in its own folder.
    QVERIFY(replaceAtomically(outside + QStringLiteral("/user.md"), "replaced afar\n"));
    QCOMPARE(drain(), QStringList{change(User, sha("replaced afar\n"))});
    QVERIFY(writeInPlace(outside + QStringLiteral("/user.md"), "and edited again\n"));
    QCOMPARE(drain(), QStringList{change(User, sha("and edited again\n"))});
}

void tst_DirectoryWatcher::directoryRemovedAndRecreated()
{
    QSignalSpy lost(m_watcher.get(), &DirectoryWatcher::directoryLost);
    QSignalSpy restored(m_watcher.get(), &DirectoryWatcher::directoryRestored);
    QSignalSpy watching(m_watcher.get(), &DirectoryWatcher::watchingChanged);

    QVERIFY(QDir(m_dir).removeRecursively());
    QTRY_COMPARE(lost.count(), 1);
    QVERIFY(!m_watcher->isWatching());
    QCOMPARE(watching.count(), 1);
    QCOMPARE(watching.at(0).at(0).toBool(), false);
    // While it is gone, nothing is reported for the slots.
    QCOMPARE(m_spy->count(), 0);

    QVERIFY(QDir().mkpath(m_dir));
    QVERIFY(writeInPlace(slotFile(Soul), "You are Kip.\n")); // as before
    QVERIFY(writeInPlace(slotFile(User), "new user\n"));
    QVERIFY(writeInPlace(slotFile(Heartbeat), "sentinel 0\n"));
    QTRY_COMPARE(restored.count(), 1);
    QVERIFY(m_watcher->isWatching());
    QCOMPARE(watching.count(), 2);
    QCOMPARE(watching.at(1).at(0).toBool(), true);

    QStringList seen = drain();
    seen.sort();
    QStringList expected{change(User, sha("new user\n")), change(Memory, QByteArray())};
    expected.sort();
    QCOMPARE(seen, expected);
    QCOMPARE(lost.count(), 1);
    QCOMPARE(restored.count(), 1);

    QVERIFY(writeInPlace(slotFile(Soul), "rewritten\n"));
    QCOMPARE(drain(), QStringList{change(Soul, sha("rewritten\n"))});
}

void tst_DirectoryWatcher::directoryRenamedAndBack()
{
    QSignalSpy lost(m_watcher.get(), &DirectoryWatcher::directoryLost);
    QSignalSpy restored(m_watcher.get(), &DirectoryWatcher::directoryRestored);
    const QString moved = m_dir + QStringLiteral("-moved");

    QVERIFY(QDir().rename(m_dir, moved));
    QTRY_COMPARE(lost.count(), 1);
    QVERIFY(!m_watcher->isWatching());

    QVERIFY(QDir().rename(moved, m_dir));
    QTRY_COMPARE(restored.count(), 1);
    QVERIFY(m_watcher->isWatching());
    QCOMPARE(drain(), QStringList());
    QCOMPARE(lost.count(), 1);

    QVERIFY(writeInPlace(slotFile(Memory), "- back\n"));
    QCOMPARE(drain(), QStringList{change(Memory, sha("- back\n"))});
}

void tst_DirectoryWatcher::directoryReplacedByAnother()
{
    QSignalSpy lost(m_watcher.get(), &DirectoryWatcher::directoryLost);
    QSignalSpy restored(m_watcher.get(), &DirectoryWatcher::directoryRestored);

    QVERIFY(QDir().rename(m_dir, m_dir + QStringLiteral("-old")));
    QVERIFY(QDir().mkpath(m_dir));
    QVERIFY(writeInPlace(slotFile(Heartbeat), "sentinel 0\n"));
    QVERIFY(writeInPlace(slotFile(Soul), "another persona\n"));
    QTRY_COMPARE(restored.count(), 1);
    QCOMPARE(lost.count(), 1);
    QVERIFY(m_watcher->isWatching());

    QStringList seen = drain();
    seen.sort();
    QStringList expected{change(Soul, sha("another persona\n")), change(Memory, QByteArray())};
    expected.sort();
    QCOMPARE(seen, expected);

    // The old directory, still on disk under its new name, is not watched.
    QVERIFY(writeInPlace(m_dir + QStringLiteral("-old/SOUL.md"), "old one edited\n"));
    QCOMPARE(drain(), QStringList());
    QCOMPARE(lost.count(), 1);
    QCOMPARE(restored.count(), 1);
}

void tst_DirectoryWatcher::directoryMissingAtStart()
{
    QVERIFY(QDir(m_dir).removeRecursively());
    startWatcher();
    QVERIFY(!m_watcher->isWatching());
    QSignalSpy restored(m_watcher.get(), &DirectoryWatcher::directoryRestored);
    QSignalSpy lost(m_watcher.get(), &DirectoryWatcher::directoryLost);

    QVERIFY(QDir().mkpath(m_dir));
    QVERIFY(writeInPlace(slotFile(Heartbeat), "sentinel 0\n"));
    QVERIFY(writeInPlace(slotFile(Soul), "hello\n"));
    QTRY_COMPARE(restored.count(), 1);
    QVERIFY(m_watcher->isWatching());
    QCOMPARE(drain(), QStringList{change(Soul, sha("hello\n"))});
    QCOMPARE(lost.count(), 0);
}

void tst_DirectoryWatcher::clearStopsWatching()
{
    QSignalSpy watching(m_watcher.get(), &DirectoryWatcher::watchingChanged);
    m_watcher->clear();
    QVERIFY(!m_watcher->isWatching());
    QCOMPARE(watching.count(), 1);
    QCOMPARE(m_watcher->directory(), QString());

    // Watching again: the new baseline is what is there now.
    QVERIFY(writeInPlace(slotFile(Soul), "while not watched\n"));
    m_watcher->setDirectory(m_dir);
    QVERIFY(m_watcher->isWatching());
    QCOMPARE(drain(), QStringList());
}

QTEST_GUILESS_MAIN(tst_DirectoryWatcher)
#include "tst_directorywatcher.moc"
