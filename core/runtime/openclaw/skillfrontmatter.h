#pragma once

#include <QHash>
#include <QString>

// The frontmatter of a SKILL.md as OpenClaw 2026.9 keeps it: the block
// between a leading `---` line and the next `---` line (after a BOM is
// dropped and CR LF / CR become LF), read as YAML 1.2's core schema. Each
// top-level key keeps a text: a scalar trimmed (numbers and booleans as
// JavaScript writes them), a list or mapping as its JSON text; keys the
// YAML left empty take what a plain `key: value` line reader finds. A
// frontmatter OpenClaw cannot read makes it skip the skill, so `error`
// says where and why.
namespace soul {

struct SkillFrontmatter
{
    QHash<QString, QString> fields;
    QString error; // empty: read; else a sentence without the file's name
    int line = 0;  // of the error within the file, 1-based; 0: none
    int column = 0;
    bool hasBlock = false; // a complete `---` block was there
};

// `content` is the whole SKILL.md, decoded.
SkillFrontmatter readSkillFrontmatter(const QString &content);

// The body after the frontmatter block (or all of `content`), normalized
// as above.
QString skillBody(const QString &content);

} // namespace soul
