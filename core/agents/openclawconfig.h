#pragma once

#include "json5.h"
#include "result.h"

#include <QJsonObject>
#include <QString>

// OpenClaw's config file read as OpenClaw 2026.9 reads it, as far as the
// agent roster needs: JSON5, then `$include` (a path or a list of paths,
// relative to the including file, inside the config's folder or
// OPENCLAW_INCLUDE_ROOTS, at most 10 deep; sibling keys merged over the
// included object, arrays joined), then `${VAR}` in string values (names of
// capital letters, digits and _, `$${VAR}` for the text itself, a variable
// unset or empty left as written). What OpenClaw would do that this reader
// cannot, it refuses by name rather than guess: variables the config's own
// `env` block or a .env file would set.
namespace soul {

struct OpenClawPaths;

struct OpenClawConfig
{
    QString path;        // the config file, absolute
    bool exists = false; // false: no file there; OpenClaw runs its single agent `main`
    QJsonObject root;    // after $include and ${VAR}
    // Key order and places of `root`, by JSON pointer (json5.h); a member
    // that came from an included file has that file's place.
    QHash<QString, QStringList> keyOrder;
    QHash<QString, Json5Place> places;

    // `pointer`'s object's keys in the order JavaScript lists them.
    QStringList keys(const QString &pointer) const;
    // "FILE line N" for a member, or the config's path when its place is unknown.
    QString where(const QString &pointer) const;
};

// Reads the config at `path` (absolute). A missing file is not an error
// unless `mustExist`: OpenClaw then runs without a config. A file that
// cannot be read, is not JSON5, includes what it cannot, or whose top level
// is not an object is a failure naming the file, and the line and column
// where there is one.
Result<OpenClawConfig> readOpenClawConfig(const QString &path,
                                          const OpenClawPaths &paths,
                                          bool mustExist = false);

} // namespace soul
