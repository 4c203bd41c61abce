// soul-gen-persona: writes a large, deterministic persona for the soulc benchmark.
//
//   soul-gen-persona OUTDIR [--size BYTES] [--seed N]
//
// Seven slot files of about BYTES each (default 2,000,000: just under the
// 2 MiB cap) of mixed UTF-8 Markdown: headings, lists, quotes, code spans and
// prose in several scripts with emoji. MEMORY.md is made larger than the cap
// (2,500,000 bytes at the default size) so the truncation path is measured
// too. The same seed always gives the same bytes, on any platform: the
// generator uses its own PRNG, not <random>'s implementation-defined
// distributions.

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>

namespace {

constexpr long long CapBytes = 2097152;

// clang-format off
const char *const SlotNames[] = {
    "AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md",
};

// Words from several scripts, so the decoder sees 1-, 2-, 3- and 4-byte
// sequences in realistic proportions (mostly ASCII, as real personas are).
const char *const Words[] = {
    // English (most of the text)
    "the", "agent", "answers", "briefly", "and", "checks", "its", "sources", "before", "acting",
    "user", "prefers", "metric", "units", "when", "asked", "about", "weather", "or", "travel",
    "keep", "a", "calm", "tone", "never", "invent", "facts", "summarise", "long", "threads",
    "remember", "schedule", "meetings", "in", "local", "time", "with", "care", "for", "privacy",
    // Latin with diacritics (2-byte)
    "café", "naïve", "Straße", "über", "façade", "señor", "jalapeño", "smörgåsbord", "déjà",
    "coöperate", "Zürich", "São", "Paulo", "crème", "brûlée",
    // Greek and Cyrillic (2-byte)
    "λόγος", "ψυχή", "ἦθος", "καλημέρα", "душа", "память", "пользователь", "привет",
    // Hebrew and Arabic (2-byte, right to left)
    "שלום", "נשמה", "مرحبا", "ذاكرة", "روح",
    // Devanagari, Thai (3-byte)
    "नमस्ते", "आत्मा", "स्मृति", "สวัสดี", "วิญญาณ",
    // CJK, Japanese kana, Korean (3-byte)
    "魂", "記憶", "用户", "工具", "心跳", "こんにちは", "エージェント", "안녕하세요", "영혼",
    // Emoji, including ZWJ sequences and variation selectors (4-byte and more)
    "🙂", "🚀", "🧠", "📅", "👩‍💻", "🏳️‍🌈", "❤️", "🇯🇵", "👍🏽",
    // Typography (3-byte punctuation)
    "—", "“quoted”", "‘single’", "…", "→", "≤", "€42", "№7",
};
// clang-format on
constexpr std::size_t WordCount = sizeof(Words) / sizeof(Words[0]);
constexpr std::size_t EnglishWords = 40;

// splitmix64: tiny, fast, and the same on every platform.
class Random
{
public:
    explicit Random(std::uint64_t seed)
        : m_state(seed)
    {}
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // 0 .. n-1
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

private:
    std::uint64_t m_state = 0;
};

const char *pickWord(Random &random)
{
    // Two words in three are English, so the text stays mostly ASCII.
    if (random.below(3) != 0)
        return Words[random.below(EnglishWords)];
    return Words[EnglishWords + random.below(WordCount - EnglishWords)];
}

void appendSentence(std::string &out, Random &random)
{
    const std::size_t words = 6 + random.below(14);
    for (std::size_t i = 0; i < words; ++i) {
        std::string word = pickWord(random);
        if (i == 0 && !word.empty() && word[0] >= 'a' && word[0] <= 'z')
            word[0] = static_cast<char>(word[0] - 'a' + 'A');
        if (i > 0)
            out += ' ';
        if (random.below(25) == 0)
            out += '`' + word + '`';
        else if (random.below(30) == 0)
            out += "**" + word + "**";
        else
            out += word;
    }
    out += random.below(8) == 0 ? "!" : ".";
}

void appendBlock(std::string &out, Random &random, int &sectionNumber)
{
    switch (random.below(10)) {
    case 0: {
        out += random.below(3) == 0 ? "### " : "## ";
        out += "Section " + std::to_string(++sectionNumber) + ": ";
        out += pickWord(random);
        out += ' ';
        out += pickWord(random);
        out += "\n\n";
        return;
    }
    case 1:
    case 2: {
        const std::size_t items = 2 + random.below(6);
        const bool numbered = random.below(4) == 0;
        for (std::size_t i = 0; i < items; ++i) {
            out += numbered ? std::to_string(i + 1) + ". " : std::string("- ");
            appendSentence(out, random);
            out += '\n';
        }
        out += '\n';
        return;
    }
    case 3:
        out += "> ";
        appendSentence(out, random);
        out += "\n\n";
        return;
    default: {
        const std::size_t sentences = 2 + random.below(6);
        for (std::size_t i = 0; i < sentences; ++i) {
            if (i > 0)
                out += ' ';
            appendSentence(out, random);
        }
        out += "\n\n";
        return;
    }
    }
}

// Markdown of at least `target` bytes, ending at a line end.
std::string generate(std::size_t target, const char *title, Random &random)
{
    std::string out;
    out.reserve(target + 4096);
    out += "# ";
    out += title;
    out += "\n\n";
    int sectionNumber = 0;
    while (out.size() < target)
        appendBlock(out, random, sectionNumber);
    return out;
}

bool writeFile(const std::string &path, const std::string &bytes)
{
    std::FILE *file = std::fopen(path.c_str(), "wb");
    if (!file) {
        std::fprintf(stderr, "soul-gen-persona: %s: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
    const int error = errno;
    if (std::fclose(file) != 0 || !ok) {
        std::fprintf(stderr,
                     "soul-gen-persona: %s: %s\n",
                     path.c_str(),
                     std::strerror(ok ? errno : error));
        return false;
    }
    return true;
}

int usage()
{
    std::fputs("usage: soul-gen-persona OUTDIR [--size BYTES] [--seed N]\n", stderr);
    return 2;
}

bool parseNumber(const char *text, unsigned long long &value)
{
    char *end = nullptr;
    errno = 0;
    value = std::strtoull(text, &end, 10);
    return errno == 0 && end != text && *end == '\0';
}

} // namespace

int main(int argc, char *argv[])
{
    const char *outDir = nullptr;
    unsigned long long size = 2000000;
    unsigned long long seed = 20261130;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if ((arg == "--size" || arg == "--seed") && i + 1 < argc) {
            if (!parseNumber(argv[++i], arg == "--size" ? size : seed))
                return usage();
        } else if (arg == "-h" || arg == "--help") {
            std::fputs("usage: soul-gen-persona OUTDIR [--size BYTES] [--seed N]\n", stdout);
            return 0;
        } else if (!outDir && !arg.empty() && arg[0] != '-') {
            outDir = argv[i];
        } else {
            return usage();
        }
    }
    if (!outDir || size == 0)
        return usage();
    if (::mkdir(outDir, 0777) != 0 && errno != EEXIST) {
        std::fprintf(stderr, "soul-gen-persona: %s: %s\n", outDir, std::strerror(errno));
        return 2;
    }

    Random random(seed);
    for (const char *name : SlotNames) {
        std::size_t target = static_cast<std::size_t>(size);
        // One slot over the cap, so the cut, the notice and a character split
        // by the cap are part of what is measured.
        if (std::strcmp(name, "MEMORY.md") == 0)
            target = static_cast<std::size_t>(
                size * 5 / 4 > static_cast<unsigned long long>(CapBytes) ? size * 5 / 4
                                                                         : CapBytes + 65536);
        const std::string text = generate(target, name, random);
        if (!writeFile(std::string(outDir) + '/' + name, text))
            return 2;
    }
    return 0;
}
