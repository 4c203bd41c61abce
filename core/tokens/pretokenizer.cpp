#include "pretokenizer.h"

namespace soul::tokens {

namespace {

// Unicode White_Space, as in contract.h's isWhiteSpace(), for a bracket class.
const QString &whiteSpaceMembers()
{
    static const QString members = QStringLiteral(
        "\\t\\n\\x{0B}\\f\\r\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}"
        "\\x{202F}\\x{205F}\\x{3000}");
    return members;
}

} // namespace

QString Pretokenizer::withWhiteSpaceClass(const QString &pattern, QString *error)
{
    QString out;
    out.reserve(pattern.size() + 128);
    bool inClass = false;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern[i];
        if (c == u'\\' && i + 1 < pattern.size()) {
            const QChar next = pattern[i + 1];
            ++i;
            if (next == u's') {
                if (inClass)
                    out += whiteSpaceMembers();
                else
                    out += QLatin1Char('[') + whiteSpaceMembers() + QLatin1Char(']');
            } else if (next == u'S') {
                if (inClass) {
                    if (error)
                        *error = QStringLiteral("\\S inside a character class is not supported");
                    return {};
                }
                out += QStringLiteral("[^") + whiteSpaceMembers() + QLatin1Char(']');
            } else {
                out += c;
                out += next;
            }
            continue;
        }
        if (!inClass && c == u'[') {
            inClass = true;
            out += c;
            // A ']' right after '[' or '[^' is a member, not the end.
            if (i + 1 < pattern.size() && pattern[i + 1] == u'^') {
                out += pattern[++i];
            }
            if (i + 1 < pattern.size() && pattern[i + 1] == u']')
                out += pattern[++i];
            continue;
        }
        if (inClass && c == u']')
            inClass = false;
        out += c;
    }
    return out;
}

Result<Pretokenizer> Pretokenizer::create(const QStringList &patterns, bool dropGaps)
{
    Pretokenizer p;
    p.m_dropGaps = dropGaps;
    for (const QString &pattern : patterns) {
        QString error;
        const QString rewritten = withWhiteSpaceClass(pattern, &error);
        if (!error.isEmpty())
            return Result<Pretokenizer>::failure(error);
        QRegularExpression re(rewritten, QRegularExpression::UseUnicodePropertiesOption);
        if (!re.isValid())
            return Result<Pretokenizer>::failure(
                QStringLiteral("the pattern %1 is not valid (%2)").arg(pattern, re.errorString()));
        // Compiled (and JIT-compiled) now, so that sharing the expression
        // between threads only ever reads it.
        re.optimize();
        p.m_patterns.push_back(std::move(re));
    }
    return p;
}

} // namespace soul::tokens
