#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

// Hermes Agent 0.21.3's threat scan (tools/threat_patterns.py
// scan_for_threats), which replaces a context file, SOUL.md or a memory entry
// by a "[BLOCKED: ...]" line when it finds anything (docs/hermes-0.21.3.md,
// section 7).
//
// The 36 patterns are kept here as Hermes writes them, in Python's `re`
// syntax, and translated once into PCRE2 patterns with the same meaning:
// QRegularExpression's own \w, \s, \b and case-insensitive matching differ
// from Python's (PCRE2's \s has no U+001C-U+001F or U+0085; its caseless
// matching does not take U+0130 or U+0131 for "i"). The translation spells
// every atom out as an explicit class:
//   - a letter under IGNORECASE: the code points whose Python lower() is that
//     letter, plus sre's equivalences (i: U+0130 U+0131; k: U+212A; s: U+017F);
//   - \w: \p{L}, \p{N} and "_" (Python's str.isalnum() or "_": the same set);
//   - \s: the str.isspace() set; \b: a change between \w and not \w.
// Only whether a pattern matches somewhere decides anything, so the engines'
// different backtracking orders cannot change a result.
namespace soul {

enum class HermesScanScope {
    Context, // SOUL.md and context files: the 28 "all" and "context" patterns
    Strict,  // memory entries: all 36
};

// Where one finding is, in the text given to the scan (UTF-16 offsets).
// A pattern match is found in the NFKC form of the text; its place in the
// text itself is known when NFKC maps the text character by character (it
// does unless characters compose), else `start` is -1.
struct HermesFinding
{
    QString id; // "prompt_injection", "invisible_unicode_U+200D"
    qsizetype start = -1;
    qsizetype length = 0;
};

struct HermesScan
{
    // Invisible characters first, by code point; then patterns in table
    // order. Hermes lists the invisible ones in its string-hash order, which
    // changes from run to run; the set is the same.
    QList<HermesFinding> findings;

    bool blocked() const { return !findings.isEmpty(); }
    QStringList ids() const;
    // "id, id, id", as the BLOCKED line lists them.
    QString idList() const;
};

// The scan of `text` (its first 65,536 code points, as Hermes scans).
HermesScan hermesScanForThreats(QStringView text, HermesScanScope scope);

// One pattern of the table, for tests and for explaining a finding.
struct HermesThreatPattern
{
    QString id;
    QString python; // as tools/threat_patterns.py has it, f-strings expanded
    QString pcre;   // the translation QRegularExpression runs
    bool inContextScope = true;
};
const QList<HermesThreatPattern> &hermesThreatPatterns();

// Whether pattern `index` of the table matches somewhere in `normalized`
// (already NFKC, as the scan matches it).
bool hermesPatternMatches(qsizetype index, QStringView normalized);

// The invisible characters Hermes looks for, by code point.
const QList<char32_t> &hermesInvisibleCharacters();

// A Python `re` pattern compiled with IGNORECASE, as a PCRE2 pattern for
// QRegularExpression with no options; a null string for syntax outside the
// subset the table uses.
QString hermesTranslatePattern(QStringView python);

} // namespace soul
