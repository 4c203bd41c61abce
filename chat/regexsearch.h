#pragma once

#include "result.h"

#include <QString>

// A regex assert's search, through PCRE2 itself (the engine behind
// QRegularExpression) so that a search that cannot finish is told apart
// from one that found nothing: a pattern that backtracks past PCRE2's match,
// depth or heap limit on a reply is an error with its reason, never "no
// match" (which would pass a not-regex assert).
namespace soul {

// Why `pattern` is not a regex, as "missing closing parenthesis at offset
// 4"; empty when it is one.
QString regexPatternProblem(const QString &pattern);

// Whether `pattern` matches somewhere in `subject`; fails with PCRE2's
// reason ("match limit exceeded") when the search could not finish, or
// with regexPatternProblem() for a pattern that is not a regex.
Result<bool> searchRegex(const QString &pattern, const QString &subject);

} // namespace soul
