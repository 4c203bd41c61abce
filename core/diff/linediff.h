#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

// Line and word differences of text, as pure functions.
namespace soul {

// A line diff of `before` against `after` in the unified style ("-" removed,
// "+" added, " " kept, with three lines of context, "@@" between the parts
// shown). Lines common to both ends are trimmed first; the middle is matched
// by the shortest edit script (see diffSequences()).
QString lineDiff(const QString &beforeName,
                 const QStringList &before,
                 const QString &afterName,
                 const QStringList &after);

// A stretch of one line: `start` and `length` in UTF-16 code units.
struct TextRange
{
    qsizetype start = 0;
    qsizetype length = 0;
    friend bool operator==(const TextRange &x, const TextRange &y)
    {
        return x.start == y.start && x.length == y.length;
    }
};

// What changed within a line: the ranges of `before` that are gone and the
// ranges of `after` that are new, compared word by word (a word is a run of
// letters, marks and digits, a run of white space, or any other character
// alone). Neighbouring changed words merge into one range.
struct ChangedWords
{
    QList<TextRange> removed;
    QList<TextRange> added;
};

ChangedWords changedWords(QStringView before, QStringView after);

} // namespace soul
