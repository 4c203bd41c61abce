#include "heap.h"
#include "window/freedmemory.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <cstring>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace soul;

namespace {

// Resident memory now, in bytes; -1 where the system does not say.
qint64 residentBytes()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields.at(1).toLongLong() * 4096 : -1;
}

} // namespace

class tst_FreedMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // First: a block is mapped only when the heap has no free room for it,
    // and the tests after it leave free room.
    void largeBlocksAreMappedWhenAsked();
    void releaseGivesFreedHeapBack();
    void releaseSoonWaitsForQuiet();
};

// Blocks below the size glibc maps on their own come from the heap; freed
// while a later block keeps the heap's top in use, they stay resident until
// released.
void tst_FreedMemory::releaseGivesFreedHeapBack()
{
#if !defined(__GLIBC__)
    QSKIP("only glibc keeps freed heap memory this way");
#endif
#if defined(__SANITIZE_ADDRESS__)
    QSKIP("the address sanitizer's allocator keeps freed memory its own way");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    QSKIP("the address sanitizer's allocator keeps freed memory its own way");
#endif
#endif
    constexpr size_t BlockBytes = 64 * 1024;
    constexpr int Blocks = 400; // 25 MiB
    std::vector<char *> blocks;
    for (int i = 0; i < Blocks; ++i) {
        auto *block = static_cast<char *>(std::malloc(BlockBytes));
        QVERIFY(block);
        std::memset(block, i & 0xff, BlockBytes);
        blocks.push_back(block);
    }
    auto *top = static_cast<char *>(std::malloc(BlockBytes));
    std::memset(top, 1, BlockBytes);
    const qint64 held = residentBytes();
    if (held < 0)
        QSKIP("this system does not say how much memory is resident");
    for (char *block : blocks)
        std::free(block);
    const qint64 freed = residentBytes();
    FreedMemory::releaseNow();
    const qint64 released = residentBytes();
    std::free(top);
    // Most of the 25 MiB goes back; freeing alone gave back next to nothing.
    QVERIFY2(freed - released > 16 * 1024 * 1024,
             qPrintable(
                 QStringLiteral("held %1, freed %2, released %3").arg(held).arg(freed).arg(released)));
}

void tst_FreedMemory::releaseSoonWaitsForQuiet()
{
    FreedMemory memory;
    QSignalSpy released(&memory, &FreedMemory::released);
    memory.releaseSoon();
    memory.releaseSoon();
    QCOMPARE(released.count(), 0);
    QVERIFY(released.wait(FreedMemory::QuietMs * 5));
    // Two requests close together: one release.
    QVERIFY(!released.wait(FreedMemory::QuietMs * 2));
    QCOMPARE(memory.releases(), 1);
}

// Mapped: a block of a mebibyte or more gets a mapping of its own, even after
// a larger block was freed (which raises glibc's own threshold to that size).
// Not mapped: such blocks come from the heap.
void tst_FreedMemory::largeBlocksAreMappedWhenAsked()
{
#if !defined(__GLIBC__)
    QSKIP("only glibc is told which blocks to map on their own");
#else
#if defined(__SANITIZE_ADDRESS__)
    QSKIP("the address sanitizer's allocator maps blocks its own way");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    QSKIP("the address sanitizer's allocator maps blocks its own way");
#endif
#endif
    constexpr size_t Mebibyte = 1024 * 1024;
    // Mapped bytes while a 2 MiB block is held, after an 8 MiB one was freed.
    // Through volatile pointers, so that an optimiser cannot drop the blocks.
    const auto mappedForTwoMebibytes = [] {
        void *volatile larger = std::malloc(8 * Mebibyte);
        std::memset(larger, 1, 8 * Mebibyte);
        std::free(larger);
        const size_t before = mallinfo2().hblkhd;
        void *volatile block = std::malloc(2 * Mebibyte);
        std::memset(block, 2, 2 * Mebibyte);
        const size_t with = mallinfo2().hblkhd;
        std::free(block);
        return with - before;
    };
    QVERIFY(!largeBlocksMapped());
    mapLargeBlocks(true);
    QVERIFY(largeBlocksMapped());
    QVERIFY(mappedForTwoMebibytes() >= 2 * Mebibyte);
    mapLargeBlocks(false);
    QVERIFY(!largeBlocksMapped());
    QCOMPARE(mappedForTwoMebibytes(), size_t(0));
#endif
}

QTEST_MAIN(tst_FreedMemory)
#include "tst_freedmemory.moc"
