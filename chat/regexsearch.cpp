#include "regexsearch.h"

#define PCRE2_CODE_UNIT_WIDTH 16
#include <pcre2.h>

#include <memory>

namespace soul {

namespace {

// The options QRegularExpression compiles with by default, and a subject
// that is not valid UTF-16 (a lone surrogate a server sent) searched as
// it is rather than refused.
constexpr uint32_t CompileOptions = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

QString errorText(int code)
{
    PCRE2_UCHAR buffer[256];
    const int length = pcre2_get_error_message(code, buffer, std::size(buffer));
    if (length < 0)
        return QStringLiteral("PCRE2 error %1").arg(code);
    return QString::fromUtf16(reinterpret_cast<const char16_t *>(buffer), length);
}

struct CodeFree
{
    void operator()(pcre2_code *code) const { pcre2_code_free(code); }
};
struct MatchDataFree
{
    void operator()(pcre2_match_data *data) const { pcre2_match_data_free(data); }
};
using Code = std::unique_ptr<pcre2_code, CodeFree>;

Code compile(const QString &pattern, QString *problem)
{
    int code = 0;
    PCRE2_SIZE offset = 0;
    Code compiled(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.utf16()),
                                PCRE2_SIZE(pattern.size()),
                                CompileOptions,
                                &code,
                                &offset,
                                nullptr));
    if (!compiled)
        *problem = QStringLiteral("%1 at offset %2").arg(errorText(code)).arg(offset);
    return compiled;
}

} // namespace

QString regexPatternProblem(const QString &pattern)
{
    QString problem;
    compile(pattern, &problem);
    return problem;
}

Result<bool> searchRegex(const QString &pattern, const QString &subject)
{
    QString problem;
    const Code code = compile(pattern, &problem);
    if (!code)
        return Result<bool>::failure(QStringLiteral("the regex is invalid: %1").arg(problem));
    const std::unique_ptr<pcre2_match_data, MatchDataFree> data(
        pcre2_match_data_create_from_pattern(code.get(), nullptr));
    if (!data)
        return Result<bool>::failure(QStringLiteral("out of memory for the regex search"));
    const int rc = pcre2_match(code.get(),
                               reinterpret_cast<PCRE2_SPTR>(subject.utf16()),
                               PCRE2_SIZE(subject.size()),
                               0,
                               0,
                               data.get(),
                               nullptr);
    if (rc >= 0)
        return true;
    if (rc == PCRE2_ERROR_NOMATCH)
        return false;
    const bool limit = rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT
                       || rc == PCRE2_ERROR_HEAPLIMIT;
    return Result<bool>::failure(
        limit ? QStringLiteral("the search could not finish (%1): the pattern backtracks too "
                               "much on this reply")
                    .arg(errorText(rc))
              : QStringLiteral("the search failed (%1)").arg(errorText(rc)));
}

} // namespace soul
