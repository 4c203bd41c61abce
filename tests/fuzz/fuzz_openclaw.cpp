// The OpenClaw 2026.9 rule on arbitrary folders, for libFuzzer: a folder is
// made from the input, read as OpenClaw reads it, composed and linted.
//
// Input: nine bytes, one per name below, say what stands at that name (the
// byte modulo the number of kinds, see Kind); two little-endian 16-bit signed numbers, bootstrapMaxChars and
// bootstrapTotalMaxChars (0 or less: the default); nine little-endian 16-bit
// lengths; then the files' bytes one after another, each as long as its
// length (or what is left).
//
// What must hold: the reader gives each name the entry the rule's table of
// section 3 says (checked here from how the folder was made); the
// composition is deterministic and keeps every budget; a cut keeps a head
// and a tail of the file's text, within it, and the injected text starts and
// ends with them; no surrogate pair is ever split.
#include "fuzzsupport.h"

#include "persona/lint.h"
#include "runtime/openclaw/openclawlint.h"
#include "runtime/openclaw/openclawreader.h"
#include "runtime/openclaw/openclawrule.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <array>
#include <cstdint>
#include <sys/stat.h>
#include <unistd.h>

using namespace soul;

namespace {

constexpr std::array<const char *, 9> Names = {"AGENTS.md",
                                               "SOUL.md",
                                               "IDENTITY.md",
                                               "USER.md",
                                               "BOOTSTRAP.md",
                                               "MEMORY.md",
                                               "TOOLS.md",
                                               "HEARTBEAT.md",
                                               "memory.md"};

enum class Kind {
    Absent,
    File,
    File2, // a regular file too: they come twice as often as the other kinds
    Directory,
    Link,         // a symbolic link to a regular file
    DanglingLink, // a symbolic link to nothing
    HardLinked,   // a regular file with a second name
    Fifo,
    OverGuard, // a (sparse) file one byte over the 2 MiB guard
    Count
};

constexpr size_t HeaderBytes = Names.size() + 4 + 2 * Names.size();

int readInt16(const uint8_t *p)
{
    return int(int16_t(uint16_t(p[0] | (p[1] << 8))));
}

// Makes `kind` at `path` with `bytes` (for the kinds that hold any).
bool make(const QString &path, Kind kind, const QByteArray &bytes)
{
    const QByteArray native = QFile::encodeName(path);
    switch (kind) {
    case Kind::Absent:
    case Kind::Count:
        return true;
    case Kind::File:
    case Kind::File2:
        return fuzz::writeFile(path, bytes);
    case Kind::Directory:
        return QDir().mkdir(path);
    case Kind::Link:
        return fuzz::writeFile(path + QStringLiteral(".target"), bytes)
               && ::symlink(QFile::encodeName(path + QStringLiteral(".target")).constData(),
                            native.constData())
                      == 0;
    case Kind::DanglingLink:
        return ::symlink("nothing-here", native.constData()) == 0;
    case Kind::HardLinked:
        return fuzz::writeFile(path, bytes)
               && ::link(native.constData(),
                         QFile::encodeName(path + QStringLiteral(".second")).constData())
                      == 0;
    case Kind::Fifo:
        return ::mkfifo(native.constData(), 0600) == 0;
    case Kind::OverGuard: {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.resize(OpenClawMaxFileBytes + 1);
    }
    }
    return false;
}

// Whether `text` has no lone surrogate.
bool wellFormed(QStringView text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i).isHighSurrogate()) {
            if (i + 1 >= text.size() || !text.at(i + 1).isLowSurrogate())
                return false;
            ++i;
        } else if (text.at(i).isLowSurrogate()) {
            return false;
        }
    }
    return true;
}

void checkEntry(const OpenClawEntry &entry, Kind kind, const QByteArray &bytes)
{
    const auto unreadable = [&entry](const char *reason) {
        fuzz::require(entry.kind == OpenClawEntry::Kind::Unreadable
                          && entry.reason == QLatin1String(reason)
                          && entry.text
                                 == QStringLiteral("[UNREADABLE: %1]").arg(QLatin1String(reason)),
                      "a refused file gives the UNREADABLE line the rule names");
    };
    switch (kind) {
    case Kind::Absent:
        fuzz::require(entry.kind == OpenClawEntry::Kind::Missing && entry.text.isEmpty(),
                      "nothing at the path is a MISSING entry");
        return;
    case Kind::File:
    case Kind::File2:
        fuzz::require(entry.kind == OpenClawEntry::Kind::Content
                          && entry.text == fuzz::referenceDecode(bytes),
                      "a regular file's text is its bytes decoded");
        return;
    case Kind::Link:
    case Kind::DanglingLink:
        unreadable("symlink path component not allowed");
        return;
    case Kind::Directory:
    case Kind::Fifo:
        unreadable("path does not have the required file type");
        return;
    case Kind::HardLinked:
        unreadable("path must not be hardlinked");
        return;
    case Kind::OverGuard:
        unreadable("File exceeds 2097152 bytes");
        return;
    case Kind::Count:
        break;
    }
    fuzz::fail("no such kind");
}

void checkCut(const OpenClawFileFigures &figures, QStringView content)
{
    const OpenClawCut &cut = figures.cut;
    const QStringView text = jsTrimmedEnd(content);
    fuzz::require(cut.length == text.size(), "the cut measures the trim-ended text");
    fuzz::require(cut.limit >= 1 && cut.limit <= figures.limit, "a file's limit is within B");
    fuzz::require(cut.text.size() <= cut.limit, "the cut text keeps its limit");
    fuzz::require(figures.injected <= cut.text.size(), "nothing is injected beyond the cut");
    fuzz::require(cut.truncated == (text.size() > cut.limit), "cut iff over the limit");
    if (!cut.truncated) {
        fuzz::require(cut.text == text, "a file that fits is its trim-ended text");
        return;
    }
    fuzz::require(cut.head.start == 0 && cut.head.length >= 0 && cut.tail.length >= 0
                      && cut.tail.start + cut.tail.length == text.size()
                      && cut.head.length <= cut.tail.start,
                  "the head and the tail lie in the text and do not overlap");
    fuzz::require(cut.requestedHead - cut.head.length <= 1 && cut.requestedHead >= cut.head.length
                      && cut.requestedTail - cut.tail.length <= 1
                      && cut.requestedTail >= cut.tail.length,
                  "a safe cut keeps at most one unit fewer than asked");
    fuzz::require(cut.text.startsWith(text.first(cut.head.length))
                      && cut.text.endsWith(text.sliced(cut.tail.start)),
                  "the injected text starts with the head and ends with the tail");
    for (const KeptRange &line : cut.digestLines) {
        fuzz::require(line.start >= 0 && line.length >= 0 && line.start + line.length <= text.size(),
                      "a digest line lies in the text");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HeaderBytes)
        return 0;
    std::array<Kind, Names.size()> kinds{};
    std::array<QByteArray, Names.size()> bytes;
    const uint8_t *lengths = data + Names.size() + 4;
    size_t from = HeaderBytes;
    for (size_t i = 0; i < Names.size(); ++i) {
        kinds[i] = Kind(data[i] % int(Kind::Count));
        const size_t length = std::min<size_t>(size - from,
                                               lengths[2 * i] | (lengths[2 * i + 1] << 8));
        if (kinds[i] == Kind::File || kinds[i] == Kind::File2 || kinds[i] == Kind::Link
            || kinds[i] == Kind::HardLinked) {
            bytes[i] = QByteArray(reinterpret_cast<const char *>(data + from), qsizetype(length));
            from += length;
        }
    }
    OpenClawSettings settings;
    settings.bootstrapMaxChars = readInt16(data + Names.size());
    settings.bootstrapTotalMaxChars = readInt16(data + Names.size() + 2);

    const QString dir = fuzz::scratchDir() + QStringLiteral("/persona");
    QDir(dir).removeRecursively();
    fuzz::require(QDir().mkdir(dir), "the folder is made");
    for (size_t i = 0; i < Names.size(); ++i) {
        fuzz::require(make(dir + QLatin1Char('/') + QLatin1String(Names[i]), kinds[i], bytes[i]),
                      "the folder's entries are made");
    }

    // The reader against the table of the rule's section 3.
    const OpenClawInput input = readOpenClawDirectory(dir);
    fuzz::require(input.dir == dir, "the folder's path is kept");
    const Kind bootstrap = kinds[4];
    fuzz::require(input.bootstrapPending
                      == (bootstrap != Kind::Absent && bootstrap != Kind::DanglingLink),
                  "the first run is pending iff stat finds BOOTSTRAP.md");
    qsizetype next = 0;
    for (size_t i = 0; i < 6; ++i) {
        const bool listedOnly = i == 3 || i == 5;
        const bool entry = i == 4 ? input.bootstrapPending
                                  : !(listedOnly && kinds[i] == Kind::Absent);
        if (!entry)
            continue;
        fuzz::require(next < input.entries.size()
                          && input.entries.at(next).name == QLatin1String(Names[i]),
                      "the entries are the loaded names, in order");
        checkEntry(input.entries.at(next), kinds[i], bytes[i]);
        ++next;
    }
    fuzz::require(next == input.entries.size(), "no other name takes part");

    // The composition.
    const OpenClawComposition c = composeOpenClaw(input, settings);
    fuzz::require(composeOpenClaw(input, settings).section == c.section,
                  "composing is deterministic");
    fuzz::require(c.files.size() == input.entries.size(), "a figure per entry");
    qsizetype injected = 0;
    qsizetype injectedContent = 0;
    bool truncated = false;
    for (qsizetype i = 0; i < c.files.size(); ++i) {
        const OpenClawFileFigures &f = c.files.at(i);
        const OpenClawEntry &entry = input.entries.at(i);
        const bool missing = entry.kind == OpenClawEntry::Kind::Missing;
        fuzz::require(f.name == entry.name && f.kind == entry.kind,
                      "the figures follow the entries");
        fuzz::require(f.limit == settings.limitFor(f.name), "a file's limit is B");
        fuzz::require(f.raw == (missing ? 0 : jsTrimmedEnd(entry.text).size()),
                      "raw is the trim-ended length");
        fuzz::require(f.truncated == (!missing && f.injected < f.raw), "truncated as section 7");
        fuzz::require(f.injectedAny == (f.injected > 0), "injected or not");
        if (!missing && f.cut.limit > 0)
            checkCut(f, entry.text);
        if (!missing && f.injectedAny)
            fuzz::require(f.cut.limit > 0, "what is injected went through the cut");
        injected += f.injected;
        injectedContent += missing ? 0 : f.injected;
        truncated = truncated || f.truncated;

        const OpenClawKept kept = openClawKept(c, f.name);
        for (const KeptRange &range : kept.kept) {
            fuzz::require(range.start >= 0 && range.length >= 0
                              && range.start + range.length <= entry.text.size(),
                          "a kept range lies in the file's text");
        }
    }
    fuzz::require(injected <= settings.totalMaxChars(), "the total keeps its budget");
    fuzz::require(c.totalInjected == injectedContent, "the total counts the files' text");
    fuzz::require(c.notice == truncated, "the notice iff a file was truncated");
    fuzz::require(c.section.startsWith(QLatin1String("## Bootstrap Pending\n"))
                      == input.bootstrapPending,
                  "the pending block iff the first run is pending");
    fuzz::require(wellFormed(c.section), "no surrogate pair is split");

    // A lint is about one of the names, or (empty) the folder as a whole.
    for (const Lint &lint : lintOpenClaw(dir, input, c)) {
        fuzz::require(!lint.message.isEmpty() && !lint.code.isEmpty(), "a lint says something");
        fuzz::require(lint.file.isEmpty()
                          || std::any_of(Names.begin(),
                                         Names.end(),
                                         [&lint](const char *name) {
                                             return lint.file == QLatin1String(name);
                                         }),
                      "a lint is about a name of the folder");
    }
    return 0;
}
