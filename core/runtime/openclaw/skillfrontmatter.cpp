#include "skillfrontmatter.h"

#include "agents/json5.h"
#include "runtime/openclaw/openclawrule.h"

#include <yaml-cpp/yaml.h>

#include <QRegularExpression>
#include <QSet>

#include <cmath>

namespace soul {

namespace {

// A frontmatter of a few kilobytes may name a list a thousand times through
// aliases; writing it out as JSON would copy it each time. OpenClaw's YAML
// reader refuses such a block too (it counts alias uses), so past this many
// nodes written the block is refused rather than expanded.
constexpr qsizetype MaxExpandedNodes = 20000;
// yaml-cpp reads nested flow collections by recursion; a block of ten
// thousand '[' would exhaust the stack. Deeper than this is refused.
constexpr int MaxNesting = 400;

QString normalized(const QString &content)
{
    QString text = content;
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    text.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    text.replace(QLatin1Char('\r'), QLatin1Char('\n'));
    return text;
}

bool isBlankNotNewline(QChar c)
{
    return c != QLatin1Char('\n') && isJsWhiteSpace(c.unicode());
}

// Where a `---` delimiter line that starts at `at` ends (past its newline),
// or -1 when the line there is not one. At the end of the text the newline
// may be missing unless `needNewline`.
qsizetype delimiterEnd(const QString &text, qsizetype at, bool needNewline)
{
    if (QStringView(text).mid(at, 3) != QLatin1String("---"))
        return -1;
    qsizetype i = at + 3;
    while (i < text.size() && isBlankNotNewline(text.at(i)))
        ++i;
    if (i < text.size() && text.at(i) == QLatin1Char('\n'))
        return i + 1;
    return (i == text.size() && !needNewline) ? i : -1;
}

struct Block
{
    bool opened = false;
    bool closed = false;
    QString block;
    QString body;
};

Block splitFrontmatter(const QString &text)
{
    Block out;
    const qsizetype start = delimiterEnd(text, 0, true);
    if (start < 0)
        return out;
    out.opened = true;
    // The closing line: at the block's start, or after any newline in it.
    for (qsizetype at = start; at <= text.size();) {
        const qsizetype end = delimiterEnd(text, at, false);
        if (end >= 0) {
            out.closed = true;
            out.block = text.mid(start, at - start);
            out.body = text.mid(end);
            return out;
        }
        const qsizetype newline = text.indexOf(QLatin1Char('\n'), at);
        if (newline < 0)
            break;
        at = newline + 1;
        // A newline right before the closing line belongs to the match, not
        // the block.
        if (delimiterEnd(text, at, false) >= 0) {
            out.closed = true;
            out.block = text.mid(start, newline - start);
            out.body = text.mid(delimiterEnd(text, at, false));
            return out;
        }
    }
    return out;
}

QString stripQuotes(const QString &value)
{
    if (value.size() >= 1
        && (value.front() == QLatin1Char('"') || value.front() == QLatin1Char('\''))
        && value.back() == value.front())
        return value.mid(1, value.size() - 2);
    return value;
}

// `line` as `key: value` the way the fallback line reader sees it: key of
// ASCII word characters and '-', then ':', then optional whitespace.
bool keyLine(const QString &line, QString &key, QString &rest)
{
    qsizetype i = 0;
    while (i < line.size()
           && ((line.at(i).isLetterOrNumber() && line.at(i).unicode() < 128)
               || line.at(i) == QLatin1Char('_') || line.at(i) == QLatin1Char('-')))
        ++i;
    if (i == 0 || i >= line.size() || line.at(i) != QLatin1Char(':'))
        return false;
    QString after = line.mid(i + 1);
    // JavaScript's '.' stops at U+2028 and U+2029, so such a line does not match.
    if (after.contains(QChar(0x2028)) || after.contains(QChar(0x2029)))
        return false;
    key = line.left(i);
    rest = after;
    return true;
}

QHash<QString, QString> lineFields(const QString &block)
{
    QHash<QString, QString> result;
    const QStringList lines = block.split(QLatin1Char('\n'));
    const auto indented = [](const QString &line) {
        return line.startsWith(QLatin1Char(' ')) || line.startsWith(QLatin1Char('\t'));
    };
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString key;
        QString rest;
        if (!keyLine(lines.at(i), key, rest))
            continue;
        QString value = jsTrimmed(rest).toString();
        if (value.isEmpty() && i + 1 < lines.size() && indented(lines.at(i + 1))) {
            QStringList valueLines;
            while (i + 1 < lines.size()) {
                const QString &next = lines.at(i + 1);
                if (!next.isEmpty() && !indented(next))
                    break;
                valueLines.append(next);
                ++i;
            }
            value = jsTrimmed(valueLines.join(QLatin1Char('\n'))).toString();
        } else {
            value = stripQuotes(value);
        }
        if (!value.isEmpty())
            result.insert(key, value);
    }
    return result;
}

// JavaScript's String(number).
QString jsNumber(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("Infinity") : QStringLiteral("-Infinity");
    if (value == 0)
        return QStringLiteral("0");
    // Shortest digits that read back as the same double, then JavaScript's layout.
    const QString e = QString::number(std::fabs(value), 'e', QLocale::FloatingPointShortest);
    const qsizetype ePos = e.indexOf(QLatin1Char('e'));
    QString digits = e.left(ePos).remove(QLatin1Char('.'));
    const int exponent = e.mid(ePos + 1).toInt();
    const int n = exponent + 1; // the decimal point after n digits
    const int k = int(digits.size());
    QString out;
    if (k <= n && n <= 21) {
        out = digits + QString(n - k, QLatin1Char('0'));
    } else if (0 < n && n <= 21) {
        out = digits.left(n) + QLatin1Char('.') + digits.mid(n);
    } else if (-6 < n && n <= 0) {
        out = QStringLiteral("0.") + QString(-n, QLatin1Char('0')) + digits;
    } else {
        const QString exp = (n - 1 >= 0 ? QStringLiteral("+") : QStringLiteral("-"))
                            + QString::number(std::abs(n - 1));
        out = k == 1 ? digits + QLatin1Char('e') + exp
                     : digits.left(1) + QLatin1Char('.') + digits.mid(1) + QLatin1Char('e') + exp;
    }
    return value < 0 ? QLatin1Char('-') + out : out;
}

enum class ScalarKind { Null, Bool, Number, String };

struct Scalar
{
    ScalarKind kind = ScalarKind::String;
    QString text; // String: the value; Bool, Number: as JavaScript writes it
};

// A scalar as YAML 1.2's core schema types it: only plain scalars are
// resolved; quoted ones stay strings.
Scalar typedScalar(const YAML::Node &node)
{
    const QString value = QString::fromStdString(node.Scalar());
    if (node.Tag() != "?")
        return {ScalarKind::String, value};
    static const QRegularExpression nullRe(QStringLiteral("^(?:~|null|Null|NULL|)$"));
    static const QRegularExpression trueRe(QStringLiteral("^(?:true|True|TRUE)$"));
    static const QRegularExpression falseRe(QStringLiteral("^(?:false|False|FALSE)$"));
    static const QRegularExpression octRe(QStringLiteral("^0o([0-7]+)$"));
    static const QRegularExpression hexRe(QStringLiteral("^0x([0-9a-fA-F]+)$"));
    static const QRegularExpression intRe(QStringLiteral("^[-+]?[0-9]+$"));
    static const QRegularExpression floatRe(
        QStringLiteral("^[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"));
    static const QRegularExpression infRe(QStringLiteral("^([-+]?)\\.(?:inf|Inf|INF)$"));
    static const QRegularExpression nanRe(QStringLiteral("^\\.(?:nan|NaN|NAN)$"));
    if (nullRe.match(value).hasMatch())
        return {ScalarKind::Null, {}};
    if (trueRe.match(value).hasMatch())
        return {ScalarKind::Bool, QStringLiteral("true")};
    if (falseRe.match(value).hasMatch())
        return {ScalarKind::Bool, QStringLiteral("false")};
    if (const auto m = octRe.match(value); m.hasMatch()) {
        double v = 0;
        for (const QChar c : m.captured(1))
            v = v * 8 + (c.unicode() - '0');
        return {ScalarKind::Number, jsNumber(v)};
    }
    if (const auto m = hexRe.match(value); m.hasMatch()) {
        double v = 0;
        for (const QChar c : m.captured(1))
            v = v * 16 + QString(c).toInt(nullptr, 16);
        return {ScalarKind::Number, jsNumber(v)};
    }
    if (intRe.match(value).hasMatch() || floatRe.match(value).hasMatch())
        return {ScalarKind::Number, jsNumber(value.toDouble())};
    if (const auto m = infRe.match(value); m.hasMatch())
        return {ScalarKind::Number,
                m.captured(1) == QLatin1String("-") ? QStringLiteral("-Infinity")
                                                    : QStringLiteral("Infinity")};
    if (nanRe.match(value).hasMatch())
        return {ScalarKind::Number, QStringLiteral("NaN")};
    return {ScalarKind::String, value};
}

QString jsonString(const QString &text)
{
    QString out = QStringLiteral("\"");
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        switch (c) {
        case '"':
            out += QLatin1String("\\\"");
            break;
        case '\\':
            out += QLatin1String("\\\\");
            break;
        case '\b':
            out += QLatin1String("\\b");
            break;
        case '\f':
            out += QLatin1String("\\f");
            break;
        case '\n':
            out += QLatin1String("\\n");
            break;
        case '\r':
            out += QLatin1String("\\r");
            break;
        case '\t':
            out += QLatin1String("\\t");
            break;
        default:
            if (c < 0x20) {
                out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
            } else if (QChar::isSurrogate(c)) {
                const bool paired = QChar::isHighSurrogate(c) && i + 1 < text.size()
                                    && text.at(i + 1).isLowSurrogate();
                if (paired) {
                    out += text.at(i);
                    out += text.at(++i);
                } else {
                    out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
                }
            } else {
                out += QChar(c);
            }
        }
    }
    return out + QLatin1Char('"');
}

struct Writer
{
    qsizetype nodes = 0;
    bool overflow = false;
    QString duplicate; // a key written twice in one mapping

    QString keyText(const YAML::Node &key)
    {
        if (key.IsScalar()) {
            const Scalar s = typedScalar(key);
            return s.kind == ScalarKind::Null ? QStringLiteral("") : s.text;
        }
        return json(key);
    }

    // The node as JSON.stringify writes what OpenClaw's reader made of it.
    QString json(const YAML::Node &node)
    {
        if (++nodes > MaxExpandedNodes) {
            overflow = true;
            return {};
        }
        if (overflow)
            return {};
        if (node.IsScalar()) {
            const Scalar s = typedScalar(node);
            switch (s.kind) {
            case ScalarKind::Null:
                return QStringLiteral("null");
            case ScalarKind::Bool:
                return s.text;
            case ScalarKind::Number:
                return s.text.contains(QLatin1String("Infinity")) || s.text == QLatin1String("NaN")
                           ? QStringLiteral("null")
                           : s.text;
            case ScalarKind::String:
                return jsonString(s.text);
            }
        }
        if (node.IsSequence()) {
            QStringList items;
            for (const YAML::Node &item : node)
                items.append(json(item));
            return QLatin1Char('[') + items.join(QLatin1Char(',')) + QLatin1Char(']');
        }
        if (node.IsMap()) {
            QStringList keys;
            QHash<QString, QString> values;
            for (const auto &pair : node) {
                const QString key = keyText(pair.first);
                if (values.contains(key)) {
                    duplicate = key;
                    continue;
                }
                keys.append(key);
                values.insert(key, json(pair.second));
            }
            QStringList members;
            for (const QString &key : javaScriptKeyOrder(keys))
                members.append(jsonString(key) + QLatin1Char(':') + values.value(key));
            return QLatin1Char('{') + members.join(QLatin1Char(',')) + QLatin1Char('}');
        }
        return QStringLiteral("null");
    }
};

int nestingDepth(const QString &block)
{
    int depth = 0;
    int most = 0;
    for (const QChar c : block) {
        if (c == QLatin1Char('[') || c == QLatin1Char('{'))
            most = qMax(most, ++depth);
        else if ((c == QLatin1Char(']') || c == QLatin1Char('}')) && depth > 0)
            --depth;
    }
    return most;
}

struct Parsed
{
    QHash<QString, QString> fields;
    QString error;
    int line = 0; // within the block, 0-based
    int column = 0;
    bool parseError = false;
};

Parsed parseOnce(const QString &block, const QHash<QString, QString> &fallback)
{
    Parsed out;
    if (nestingDepth(block) > MaxNesting) {
        out.error = QStringLiteral("its frontmatter nests lists or mappings more than %1 deep")
                        .arg(MaxNesting);
        return out;
    }
    YAML::Node root;
    try {
        root = YAML::Load(block.toStdString());
    } catch (const YAML::ParserException &e) {
        out.error = QString::fromStdString(e.msg);
        out.line = e.mark.line;
        out.column = e.mark.column;
        out.parseError = true;
        return out;
    } catch (const YAML::Exception &e) {
        out.error = QString::fromStdString(e.msg);
        return out;
    }
    if (!root.IsMap()) {
        out.error = QStringLiteral("frontmatter must be a YAML mapping");
        return out;
    }
    // Keys whose value starts on the key's line and holds a ':' there: a
    // flow mapping written inline keeps the line reader's text.
    QSet<QString> inlineColonKeys;
    const QStringList lines = block.split(QLatin1Char('\n'));
    Writer writer;
    QSet<QString> seen;
    for (const auto &pair : root) {
        const QString rawKey = writer.keyText(pair.first);
        if (seen.contains(rawKey)) {
            out.error = QStringLiteral("Map keys must be unique");
            out.line = pair.first.Mark().line;
            out.column = pair.first.Mark().column;
            return out;
        }
        seen.insert(rawKey);
        const YAML::Mark mark = pair.first.Mark();
        if (!mark.is_null() && mark.line >= 0 && mark.line < lines.size()) {
            QString key;
            QString rest;
            if (keyLine(lines.at(mark.line).mid(mark.column), key, rest)
                && rest.contains(QLatin1Char(':')))
                inlineColonKeys.insert(key);
        }
        const QString key = jsTrimmed(rawKey).toString();
        if (key.isEmpty())
            continue;
        const YAML::Node &value = pair.second;
        QString text;
        if (value.IsScalar()) {
            const Scalar s = typedScalar(value);
            if (s.kind == ScalarKind::Null)
                continue;
            text = s.kind == ScalarKind::String ? jsTrimmed(s.text).toString() : s.text;
        } else if (value.IsSequence() || value.IsMap()) {
            text = writer.json(value);
            if (writer.overflow) {
                out.error = QStringLiteral("Excessive alias count indicates a resource "
                                           "exhaustion attack");
                return out;
            }
            if (inlineColonKeys.contains(key) && fallback.contains(key))
                text = fallback.value(key);
        } else {
            continue;
        }
        out.fields.insert(key, text);
    }
    if (!writer.duplicate.isEmpty()) {
        out.fields.clear();
        out.error = QStringLiteral("Map keys must be unique");
        return out;
    }
    for (auto it = fallback.cbegin(); it != fallback.cend(); ++it) {
        if (!out.fields.contains(it.key()))
            out.fields.insert(it.key(), it.value());
    }
    return out;
}

// OpenClaw's second chance for free text: a top-level `description:` (or a
// `read_when:` / `summary:` whose value holds ": ") on the line of the error
// is rewritten as one quoted string, and the block read again.
QString recovered(const QString &block, int errorLine)
{
    QStringList lines = block.split(QLatin1Char('\n'));
    if (errorLine < 0 || errorLine >= lines.size())
        return block;
    static const QRegularExpression fieldRe(
        QStringLiteral("^(?:([\\w-]+)|\"([\\w-]+)\"|'([\\w-]+)'):\\s*(.*)$"));
    const QRegularExpressionMatch m = fieldRe.match(lines.at(errorLine));
    if (!m.hasMatch())
        return block;
    QString key = m.captured(1);
    if (key.isEmpty())
        key = m.captured(2);
    if (key.isEmpty())
        key = m.captured(3);
    const QString value = jsTrimmed(m.captured(4)).toString();
    static const QRegularExpression blockIndicator(
        QStringLiteral("^[|>](?:[1-9][+-]?|[+-][1-9]?)?$"));
    const bool freeform = key == QLatin1String("description") || key == QLatin1String("read_when")
                          || key == QLatin1String("summary");
    if (!freeform || value.isEmpty() || blockIndicator.match(value).hasMatch())
        return block;
    if (key != QLatin1String("description") && !value.contains(QLatin1String(": ")))
        return block;
    lines[errorLine] = key + QStringLiteral(": ") + jsonString(stripQuotes(value));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString skillBody(const QString &content)
{
    const QString text = normalized(content);
    const Block block = splitFrontmatter(text);
    return block.closed ? block.body : text;
}

SkillFrontmatter readSkillFrontmatter(const QString &content)
{
    SkillFrontmatter out;
    const QString text = normalized(content);
    const Block block = splitFrontmatter(text);
    if (!block.closed) {
        if (block.opened) {
            out.error = QStringLiteral("its frontmatter has no closing --- line");
            out.line = 1;
            out.column = 1;
        }
        return out;
    }
    out.hasBlock = true;
    if (block.block.isEmpty())
        return out;
    const QHash<QString, QString> fallback = lineFields(block.block);
    Parsed parsed = parseOnce(block.block, fallback);
    QString current = block.block;
    for (int i = 0; i < 3 && !parsed.error.isEmpty() && parsed.parseError; ++i) {
        const QString next = recovered(current, parsed.line);
        if (next == current)
            break;
        current = next;
        parsed = parseOnce(current, fallback);
    }
    if (!parsed.error.isEmpty()) {
        out.error = parsed.error;
        // The block starts on the file's second line.
        out.line = parsed.line + 2;
        out.column = parsed.column + 1;
        return out;
    }
    out.fields = parsed.fields;
    return out;
}

} // namespace soul
