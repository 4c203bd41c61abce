#pragma once

#include <QString>
#include <QtGlobal>

// Counts as the sentences of every layer write them: in English, grouped by
// thousands whatever the user's locale, so a number in a lint, a status line
// or soulc's output reads the same and scripts can parse it.
namespace soul {

// 2097152 -> "2,097,152"
QString formatCount(qint64 n);
// (1, "byte", "bytes") -> "1 byte"; (2048, ...) -> "2,048 bytes"
QString plural(qint64 n, const char *one, const char *many);

} // namespace soul
