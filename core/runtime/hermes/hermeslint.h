#pragma once

#include "hermesrule.h"
#include "runtime/lintitem.h"

#include <QList>
#include <QString>
#include <QStringList>

// What an author should know about a persona under Hermes Agent 0.21.3, as
// lints (lint.h): files the scan blocks (with the pattern and where it
// matched), cuts, memory limits and dropped entries, unreadable files, the
// project files that lose to another, the files Hermes never reads, and
// what Hermes does around the folder (its SOUL.md template, the git root).
namespace soul {

// Where the lints' files are, as the user named the folders: a file of the
// home is `home`/NAME (SOUL.md; memories/MEMORY.md, or MEMORY.md beside it in
// a flat folder), a project file `project`/LABEL.
struct HermesLintPaths
{
    QString home;
    QString project;
    bool flat = false;
};

// `neverRead`: files beside the persona's that Hermes does not read
// (IDENTITY.md, TOOLS.md, HEARTBEAT.md, ...), as present.
QList<Lint> lintHermes(const HermesInput &input,
                       const HermesComposition &composition,
                       const HermesLintPaths &paths,
                       const QStringList &neverRead = {});

// Whether `soulc check` fails: something blocked, cut, unreadable or over
// a memory limit.
bool hermesHasProblems(const HermesComposition &composition);

// "line 3, column 14" of UTF-16 offset `at` in `text` (columns in code points).
QString hermesPlace(QStringView text, qsizetype at);

// Lines of one text, indexed once, for many places in it: each line number in
// O(log lines), where counting the line breaks before each place would make
// a memory file of many entries quadratic.
class HermesLines
{
public:
    explicit HermesLines(QStringView text);

    qsizetype line(qsizetype at) const;   // 1-based
    qsizetype column(qsizetype at) const; // 1-based, in code points
    QString place(qsizetype at) const;    // "line 3, column 14"

private:
    QStringView m_text;
    QList<qsizetype> m_starts; // offset where each line starts
};

} // namespace soul
