#include "json5.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace soul {

namespace {

// Deeper nesting than any config needs; the limit keeps a hostile file from
// exhausting the stack.
constexpr int MaxDepth = 512;

bool isLineTerminator(char32_t c)
{
    return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029;
}

bool isJson5WhiteSpace(char32_t c)
{
    switch (c) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0xA0:
    case 0x2028:
    case 0x2029:
    case 0xFEFF:
        return true;
    default:
        return QChar::category(c) == QChar::Separator_Space;
    }
}

bool isIdStart(char32_t c)
{
    if (c == '$' || c == '_')
        return true;
    switch (QChar::category(c)) {
    case QChar::Letter_Uppercase:
    case QChar::Letter_Lowercase:
    case QChar::Letter_Titlecase:
    case QChar::Letter_Modifier:
    case QChar::Letter_Other:
    case QChar::Number_Letter:
        return true;
    default:
        return false;
    }
}

bool isIdContinue(char32_t c)
{
    if (isIdStart(c) || c == 0x200C || c == 0x200D)
        return true;
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Number_DecimalDigit:
    case QChar::Punctuation_Connector:
        return true;
    default:
        return false;
    }
}

int hexValue(char32_t c)
{
    if (c >= '0' && c <= '9')
        return int(c - '0');
    if (c >= 'a' && c <= 'f')
        return int(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return int(c - 'A' + 10);
    return -1;
}

bool isDigit(char32_t c)
{
    return c >= '0' && c <= '9';
}

QString describe(char32_t c)
{
    if (c == 0)
        return QStringLiteral("end of input");
    if (c < 0x20 || c == 0x7F)
        return QStringLiteral("character U+%1").arg(uint(c), 4, 16, QLatin1Char('0')).toUpper();
    return QStringLiteral("character '%1'").arg(QString::fromUcs4(&c, 1));
}

class Parser
{
public:
    Parser(QStringView text, const QString &file)
        : m_text(text)
        , m_file(file)
    {}

    std::optional<Json5Document> run(Json5Error *error)
    {
        Json5Document document;
        m_document = &document;
        skipSpace();
        if (m_failed)
            return finish(error);
        if (atEnd()) {
            fail(QStringLiteral("the text holds no value"));
            return finish(error);
        }
        std::optional<QJsonValue> value = parseValue(QString(), 0);
        if (value) {
            skipSpace();
            if (!m_failed && !atEnd())
                failHere(QStringLiteral("invalid %1 after the value").arg(describe(peek())));
        }
        if (m_failed)
            return finish(error);
        document.value = std::move(*value);
        return document;
    }

private:
    std::optional<Json5Document> finish(Json5Error *error)
    {
        if (error)
            *error = m_error;
        return std::nullopt;
    }

    bool atEnd() const { return m_pos >= m_text.size(); }

    char32_t peek(qsizetype ahead = 0) const
    {
        qsizetype at = m_pos;
        for (; ahead > 0 && at < m_text.size(); --ahead)
            at += codeUnitsAt(at);
        if (at >= m_text.size())
            return 0;
        return codePointAt(at);
    }

    qsizetype codeUnitsAt(qsizetype at) const
    {
        const QChar c = m_text.at(at);
        return c.isHighSurrogate() && at + 1 < m_text.size() && m_text.at(at + 1).isLowSurrogate()
                   ? 2
                   : 1;
    }

    char32_t codePointAt(qsizetype at) const
    {
        const QChar c = m_text.at(at);
        if (codeUnitsAt(at) == 2)
            return QChar::surrogateToUcs4(c, m_text.at(at + 1));
        return c.unicode();
    }

    // Consumes one code point, keeping line and column as json5 does.
    char32_t next()
    {
        if (atEnd())
            return 0;
        const char32_t c = codePointAt(m_pos);
        const qsizetype units = codeUnitsAt(m_pos);
        m_pos += units;
        if (c == '\n') {
            ++m_line;
            m_column = 1;
        } else {
            m_column += int(units);
        }
        return c;
    }

    Json5Place here() const { return {m_file, m_line, m_column}; }

    void fail(const QString &message, const Json5Place &place)
    {
        if (m_failed)
            return;
        m_failed = true;
        m_error = {place, message};
    }
    void fail(const QString &message) { fail(message, here()); }
    // A message about the next character, at its place.
    void failHere(const QString &message) { fail(message, here()); }

    void skipSpace()
    {
        while (!atEnd()) {
            const char32_t c = peek();
            if (isJson5WhiteSpace(c)) {
                next();
            } else if (c == '/' && peek(1) == '/') {
                while (!atEnd() && !isLineTerminator(peek()))
                    next();
            } else if (c == '/' && peek(1) == '*') {
                const Json5Place start = here();
                next();
                next();
                bool closed = false;
                while (!atEnd()) {
                    if (peek() == '*' && peek(1) == '/') {
                        next();
                        next();
                        closed = true;
                        break;
                    }
                    next();
                }
                if (!closed) {
                    fail(QStringLiteral("a /* comment is never closed"), start);
                    return;
                }
            } else if (c == '/') {
                failHere(QStringLiteral("invalid character '/' (a comment starts with // or /*)"));
                return;
            } else {
                return;
            }
        }
    }

    bool takeWord(QStringView word)
    {
        const qsizetype size = word.size();
        if (m_text.mid(m_pos, size) != word)
            return false;
        for (qsizetype i = 0; i < size; ++i)
            next();
        return true;
    }

    std::optional<QJsonValue> parseValue(const QString &pointer, int depth)
    {
        if (depth > MaxDepth) {
            failHere(QStringLiteral("values are nested more than %1 deep").arg(MaxDepth));
            return std::nullopt;
        }
        const char32_t c = peek();
        switch (c) {
        case '{':
            return parseObject(pointer, depth);
        case '[':
            return parseArray(pointer, depth);
        case '"':
        case '\'': {
            std::optional<QString> text = parseString();
            if (!text)
                return std::nullopt;
            return QJsonValue(*text);
        }
        default:
            break;
        }
        if (takeWord(u"null"))
            return endOfWord() ? std::optional<QJsonValue>(QJsonValue(QJsonValue::Null))
                               : std::nullopt;
        if (takeWord(u"true"))
            return endOfWord() ? std::optional<QJsonValue>(QJsonValue(true)) : std::nullopt;
        if (takeWord(u"false"))
            return endOfWord() ? std::optional<QJsonValue>(QJsonValue(false)) : std::nullopt;
        if (c == '+' || c == '-' || c == '.' || isDigit(c) || c == 'I' || c == 'N')
            return parseNumber();
        failHere(QStringLiteral("invalid %1 where a value should start").arg(describe(c)));
        return std::nullopt;
    }

    // A word (null, true, Infinity) must not run on into an identifier.
    bool endOfWord()
    {
        if (!atEnd() && isIdContinue(peek())) {
            failHere(QStringLiteral("invalid %1").arg(describe(peek())));
            return false;
        }
        return true;
    }

    std::optional<QJsonValue> parseNumber()
    {
        const Json5Place start = here();
        double sign = 1.0;
        if (peek() == '+' || peek() == '-') {
            sign = next() == '-' ? -1.0 : 1.0;
        }
        if (takeWord(u"Infinity")) {
            if (!endOfWord())
                return std::nullopt;
            return QJsonValue(sign * std::numeric_limits<double>::infinity());
        }
        if (takeWord(u"NaN")) {
            if (!endOfWord())
                return std::nullopt;
            return QJsonValue(std::numeric_limits<double>::quiet_NaN());
        }
        if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
            next();
            next();
            if (hexValue(peek()) < 0) {
                failHere(QStringLiteral("invalid %1 in a hexadecimal number").arg(describe(peek())));
                return std::nullopt;
            }
            double value = 0;
            while (hexValue(peek()) >= 0)
                value = value * 16 + hexValue(next());
            if (!endOfNumber())
                return std::nullopt;
            return QJsonValue(sign * value);
        }
        QString digits;
        if (peek() == '0') {
            digits += QLatin1Char(char(next()));
            if (isDigit(peek())) {
                failHere(QStringLiteral("invalid %1: a number cannot start with 0 and a digit")
                             .arg(describe(peek())));
                return std::nullopt;
            }
        } else {
            while (isDigit(peek()))
                digits += QLatin1Char(char(next()));
        }
        const bool integerDigits = !digits.isEmpty();
        bool fractionDigits = false;
        if (peek() == '.') {
            digits += QLatin1Char(char(next()));
            while (isDigit(peek())) {
                digits += QLatin1Char(char(next()));
                fractionDigits = true;
            }
        }
        if (!integerDigits && !fractionDigits) {
            failHere(QStringLiteral("invalid %1 in a number").arg(describe(peek())));
            return std::nullopt;
        }
        if (peek() == 'e' || peek() == 'E') {
            digits += QLatin1Char(char(next()));
            if (peek() == '+' || peek() == '-')
                digits += QLatin1Char(char(next()));
            if (!isDigit(peek())) {
                failHere(QStringLiteral("invalid %1 in a number's exponent").arg(describe(peek())));
                return std::nullopt;
            }
            while (isDigit(peek()))
                digits += QLatin1Char(char(next()));
        }
        if (!endOfNumber())
            return std::nullopt;
        bool ok = false;
        const double value = digits.toDouble(&ok);
        if (!ok && !std::isinf(value)) {
            fail(QStringLiteral("the number '%1' cannot be read").arg(digits), start);
            return std::nullopt;
        }
        return QJsonValue(sign * value);
    }

    bool endOfNumber()
    {
        if (!atEnd() && (isIdContinue(peek()) || peek() == '.')) {
            failHere(QStringLiteral("invalid %1 in a number").arg(describe(peek())));
            return false;
        }
        return true;
    }

    std::optional<QString> parseString()
    {
        const char32_t quote = next();
        QString out;
        while (true) {
            if (atEnd()) {
                failHere(QStringLiteral("a string is never closed"));
                return std::nullopt;
            }
            const char32_t c = peek();
            if (c == quote) {
                next();
                return out;
            }
            if (c == '\n' || c == '\r') {
                failHere(QStringLiteral("a line break inside a string (end the line with \\ "
                                        "to continue the string)"));
                return std::nullopt;
            }
            if (c != '\\') {
                next();
                out += QString::fromUcs4(&c, 1);
                continue;
            }
            next();
            if (!parseEscape(out))
                return std::nullopt;
        }
    }

    bool parseEscape(QString &out)
    {
        const char32_t c = peek();
        switch (c) {
        case 'b':
            next();
            out += QLatin1Char('\b');
            return true;
        case 'f':
            next();
            out += QLatin1Char('\f');
            return true;
        case 'n':
            next();
            out += QLatin1Char('\n');
            return true;
        case 'r':
            next();
            out += QLatin1Char('\r');
            return true;
        case 't':
            next();
            out += QLatin1Char('\t');
            return true;
        case 'v':
            next();
            out += QLatin1Char('\v');
            return true;
        case '0':
            next();
            if (isDigit(peek())) {
                failHere(QStringLiteral("invalid %1 after \\0").arg(describe(peek())));
                return false;
            }
            out += QChar(0);
            return true;
        case 'x': {
            next();
            int value = 0;
            for (int i = 0; i < 2; ++i) {
                const int digit = hexValue(peek());
                if (digit < 0) {
                    failHere(QStringLiteral("invalid %1 in a \\x escape").arg(describe(peek())));
                    return false;
                }
                next();
                value = value * 16 + digit;
            }
            out += QChar(value);
            return true;
        }
        case 'u': {
            next();
            const std::optional<char16_t> unit = parseUnicodeEscape();
            if (!unit)
                return false;
            out += QChar(*unit);
            return true;
        }
        case '\n':
        case 0x2028:
        case 0x2029:
            next();
            return true;
        case '\r':
            next();
            if (peek() == '\n')
                next();
            return true;
        case 0:
            failHere(QStringLiteral("a string is never closed"));
            return false;
        default:
            break;
        }
        if (c >= '1' && c <= '9') {
            failHere(QStringLiteral("invalid escape \\%1").arg(QChar(char16_t(c))));
            return false;
        }
        next();
        out += QString::fromUcs4(&c, 1);
        return true;
    }

    // The four hexadecimal digits after \u, kept as one UTF-16 code unit:
    // JavaScript joins escaped surrogate halves into a pair itself.
    std::optional<char16_t> parseUnicodeEscape()
    {
        int value = 0;
        for (int i = 0; i < 4; ++i) {
            const int digit = hexValue(peek());
            if (digit < 0) {
                failHere(QStringLiteral("invalid %1 in a \\u escape").arg(describe(peek())));
                return std::nullopt;
            }
            next();
            value = value * 16 + digit;
        }
        return char16_t(value);
    }

    std::optional<QString> parseKey()
    {
        const char32_t c = peek();
        if (c == '"' || c == '\'')
            return parseString();
        QString key;
        bool first = true;
        while (true) {
            char32_t cp = peek();
            if (cp == '\\') {
                const Json5Place escape = here();
                next();
                if (peek() != 'u') {
                    failHere(QStringLiteral("invalid %1 after \\ in a key").arg(describe(peek())));
                    return std::nullopt;
                }
                next();
                const std::optional<char16_t> unit = parseUnicodeEscape();
                if (!unit)
                    return std::nullopt;
                cp = *unit;
                if (first ? !isIdStart(cp) : !isIdContinue(cp)) {
                    fail(QStringLiteral("the escape \\u%1 is not allowed in a key")
                             .arg(uint(cp), 4, 16, QLatin1Char('0')),
                         escape);
                    return std::nullopt;
                }
                key += QString::fromUcs4(&cp, 1);
            } else if (first ? isIdStart(cp) : isIdContinue(cp)) {
                next();
                key += QString::fromUcs4(&cp, 1);
            } else if (first) {
                failHere(QStringLiteral("invalid %1 where a key should start (quote a key that "
                                        "is not a name)")
                             .arg(describe(cp)));
                return std::nullopt;
            } else {
                return key;
            }
            first = false;
        }
    }

    std::optional<QJsonValue> parseObject(const QString &pointer, int depth)
    {
        next();                                        // {
        QList<std::pair<QString, QJsonValue>> members; // in written order, each key once
        QHash<QString, qsizetype> memberIndex;
        QStringList order;
        skipSpace();
        while (!m_failed) {
            if (peek() == '}') {
                next();
                m_document->keyOrder.insert(pointer, order);
                return QJsonValue(jsonObjectOf(std::move(members)));
            }
            const Json5Place keyPlace = here();
            std::optional<QString> key = parseKey();
            if (!key)
                return std::nullopt;
            skipSpace();
            if (m_failed)
                return std::nullopt;
            if (peek() != ':') {
                failHere(QStringLiteral("invalid %1 after a key (a ':' should follow)")
                             .arg(describe(peek())));
                return std::nullopt;
            }
            next();
            skipSpace();
            if (m_failed)
                return std::nullopt;
            const QString member = pointer + QLatin1Char('/') + jsonPointerSegment(*key);
            std::optional<QJsonValue> value = parseValue(member, depth + 1);
            if (!value)
                return std::nullopt;
            // A repeated key keeps its first place and takes the last value.
            const auto known = memberIndex.constFind(*key);
            if (known == memberIndex.cend()) {
                memberIndex.insert(*key, members.size());
                members.append({*key, std::move(*value)});
                order.append(*key);
            } else {
                members[*known].second = std::move(*value);
            }
            m_document->places.insert(member, keyPlace);
            skipSpace();
            if (m_failed)
                return std::nullopt;
            if (peek() == ',') {
                next();
                skipSpace();
                continue;
            }
            if (peek() != '}') {
                failHere(QStringLiteral("invalid %1 after a member (a ',' or '}' should follow)")
                             .arg(describe(peek())));
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    std::optional<QJsonValue> parseArray(const QString &pointer, int depth)
    {
        next(); // [
        QJsonArray array;
        skipSpace();
        while (!m_failed) {
            if (peek() == ']') {
                next();
                return QJsonValue(array);
            }
            std::optional<QJsonValue> value
                = parseValue(pointer + QLatin1Char('/') + QString::number(array.size()), depth + 1);
            if (!value)
                return std::nullopt;
            array.append(*value);
            skipSpace();
            if (m_failed)
                return std::nullopt;
            if (peek() == ',') {
                next();
                skipSpace();
                continue;
            }
            if (peek() != ']') {
                failHere(QStringLiteral("invalid %1 after an element (a ',' or ']' should follow)")
                             .arg(describe(peek())));
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    QStringView m_text;
    QString m_file;
    qsizetype m_pos = 0;
    int m_line = 1;
    int m_column = 1;
    bool m_failed = false;
    Json5Error m_error;
    Json5Document *m_document = nullptr;
};

} // namespace

std::optional<Json5Document> parseJson5(QStringView text, const QString &file, Json5Error *error)
{
    return Parser(text, file).run(error);
}

QString jsonPointerSegment(const QString &key)
{
    QString out = key;
    out.replace(QLatin1Char('~'), QLatin1String("~0"));
    out.replace(QLatin1Char('/'), QLatin1String("~1"));
    return out;
}

QString printableText(const QString &text)
{
    const auto isControl = [](char16_t c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029;
    };
    if (std::none_of(text.cbegin(), text.cend(), [&](QChar c) { return isControl(c.unicode()); }))
        return text;
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (!isControl(u)) {
            out += c;
        } else if (u == u'\n') {
            out += QLatin1String("\\n");
        } else if (u == u'\r') {
            out += QLatin1String("\\r");
        } else if (u == u'\t') {
            out += QLatin1String("\\t");
        } else {
            out += QStringLiteral("\\u%1").arg(uint(u), 4, 16, QLatin1Char('0'));
        }
    }
    return out;
}

QJsonObject jsonObjectOf(QList<std::pair<QString, QJsonValue>> members)
{
    std::sort(members.begin(), members.end(), [](const auto &a, const auto &b) {
        return a.first < b.first;
    });
    QJsonObject object;
    for (const auto &[key, value] : std::as_const(members))
        object.insert(key, value);
    return object;
}

QStringList javaScriptKeyOrder(const QStringList &keys)
{
    QList<std::pair<quint64, QString>> indices;
    QStringList others;
    for (const QString &key : keys) {
        bool ok = false;
        const quint64 n = key.toULongLong(&ok);
        const bool index = ok && !key.isEmpty() && key.at(0).isDigit()
                           && (key == QLatin1String("0") || key.at(0) != QLatin1Char('0'))
                           && n < 4294967295ULL && QString::number(n) == key;
        if (index)
            indices.append({n, key});
        else
            others.append(key);
    }
    std::sort(indices.begin(), indices.end());
    QStringList out;
    for (const auto &index : std::as_const(indices))
        out.append(index.second);
    out += others;
    return out;
}

} // namespace soul
