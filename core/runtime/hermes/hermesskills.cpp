#include "hermesskills.h"

#include "disk/guardedread.h"
#include "hermesscan.h"
#include "hermestext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <yaml-cpp/yaml.h>

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

namespace soul {

namespace {

// ---------------------------------------------------------------------------
// Values as Python holds them after PyYAML's safe load: what str(), truthiness
// and dict.get see. Only what the index reads is modelled.

struct PyValue;
using PyPtr = std::shared_ptr<const PyValue>;

struct PyValue
{
    enum Kind { None, Bool, Int, Float, Str, Date, List, Dict };
    Kind kind = None;
    bool boolean = false;
    QString text;                         // Int/Float/Date: str() of the value; Str: the string
    bool zero = false;                    // Int/Float: equal to zero (falsy)
    QList<PyPtr> items;                   // List
    QList<std::pair<PyPtr, PyPtr>> pairs; // Dict, insertion order, keys unique

    bool truthy() const
    {
        switch (kind) {
        case None:
            return false;
        case Bool:
            return boolean;
        case Int:
        case Float:
            return !zero;
        case Str:
            return !text.isEmpty();
        case Date:
            return true;
        case List:
            return !items.isEmpty();
        case Dict:
            return !pairs.isEmpty();
        }
        return false;
    }

    // dict.get(key) for a str key.
    PyPtr get(const QString &key) const
    {
        for (const auto &[k, v] : pairs)
            if (k->kind == Str && k->text == key)
                return v;
        return nullptr;
    }
};

PyPtr makeStr(const QString &s)
{
    auto v = std::make_shared<PyValue>();
    v->kind = PyValue::Str;
    v->text = s;
    return v;
}

// Too much text made from aliases: the parse stops.
struct BudgetExceeded
{};

class TextBudget
{
public:
    explicit TextBudget(qint64 bytes)
        : m_left(bytes)
    {}
    void take(qint64 n)
    {
        m_left -= n + 16;
        if (m_left < 0)
            throw BudgetExceeded{};
    }

private:
    qint64 m_left;
};

bool isPrintable(char32_t c)
{
    // Python's str.isprintable, as repr() escapes: not Cc, Cf, Cs, Co, Cn,
    // Zl, Zp, and no Zs other than the space.
    if (c == U' ')
        return true;
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
    case QChar::Separator_Space:
        return false;
    default:
        return true;
    }
}

QString pyRepr(const PyValue &v, TextBudget &budget);

QString pyStr(const PyValue &v, TextBudget &budget)
{
    switch (v.kind) {
    case PyValue::None:
        return QStringLiteral("None");
    case PyValue::Bool:
        return v.boolean ? QStringLiteral("True") : QStringLiteral("False");
    case PyValue::Int:
    case PyValue::Float:
    case PyValue::Date:
    case PyValue::Str:
        budget.take(v.text.size());
        return v.text;
    case PyValue::List:
    case PyValue::Dict:
        return pyRepr(v, budget);
    }
    return {};
}

QString stringRepr(const QString &s)
{
    const bool single = !s.contains(QLatin1Char('\'')) || s.contains(QLatin1Char('"'));
    const QChar quote = single ? QLatin1Char('\'') : QLatin1Char('"');
    QString out = quote;
    for (const char32_t c : s.toUcs4()) {
        if (c == quote.unicode() || c == U'\\') {
            out += QLatin1Char('\\');
            out += QChar(c);
        } else if (c == U'\n') {
            out += QLatin1String("\\n");
        } else if (c == U'\r') {
            out += QLatin1String("\\r");
        } else if (c == U'\t') {
            out += QLatin1String("\\t");
        } else if (!isPrintable(c)) {
            if (c < 0x100)
                out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
            else if (c < 0x10000)
                out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
            else
                out += QStringLiteral("\\U%1").arg(uint(c), 8, 16, QLatin1Char('0'));
        } else {
            out += QString::fromUcs4(&c, 1);
        }
    }
    return out + quote;
}

QString pyRepr(const PyValue &v, TextBudget &budget)
{
    switch (v.kind) {
    case PyValue::Str:
        budget.take(v.text.size());
        return stringRepr(v.text);
    case PyValue::Date:
        return QStringLiteral("datetime.date(%1)")
            .arg(v.text.split(QLatin1Char('-'))
                     .replaceInStrings(QRegularExpression(QStringLiteral("^0+(?=\\d)")), QString())
                     .join(QStringLiteral(", ")));
    case PyValue::List: {
        QStringList parts;
        for (const PyPtr &item : v.items)
            parts << pyRepr(*item, budget);
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case PyValue::Dict: {
        QStringList parts;
        for (const auto &[k, val] : v.pairs)
            parts << pyRepr(*k, budget) + QStringLiteral(": ") + pyRepr(*val, budget);
        return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    default:
        return pyStr(v, budget);
    }
}

// ---------------------------------------------------------------------------
// PyYAML's YAML 1.1 implicit resolution of plain scalars (resolver.py) and
// the safe constructors' values.

struct ScalarError
{};

std::optional<qint64> parseIntText(QString t)
{
    t.remove(QLatin1Char('_'));
    int sign = 1;
    if (t.startsWith(QLatin1Char('-'))) {
        sign = -1;
        t.remove(0, 1);
    } else if (t.startsWith(QLatin1Char('+'))) {
        t.remove(0, 1);
    }
    bool ok = false;
    qint64 value = 0;
    if (t == QLatin1String("0"))
        return 0;
    if (t.startsWith(QLatin1String("0b")))
        value = t.mid(2).toLongLong(&ok, 2);
    else if (t.startsWith(QLatin1String("0x")))
        value = t.mid(2).toLongLong(&ok, 16);
    else if (t.startsWith(QLatin1Char('0')))
        value = t.toLongLong(&ok, 8);
    else if (t.contains(QLatin1Char(':'))) {
        ok = true;
        qint64 base = 1;
        const QStringList digits = t.split(QLatin1Char(':'));
        for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
            value += it->toLongLong() * base;
            base *= 60;
        }
    } else
        value = t.toLongLong(&ok, 10);
    if (!ok)
        return std::nullopt;
    return sign * value;
}

// repr(float) in Python: the shortest text that reads back, in scientific
// form when the exponent is under -4 or at least 16.
QString pythonFloat(double d)
{
    if (std::isnan(d))
        return QStringLiteral("nan");
    if (std::isinf(d))
        return d < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    const QString sci = QString::fromLatin1(buf, int(res.ptr - buf));
    const int e = sci.indexOf(QLatin1Char('e'));
    QString mantissa = sci.left(e);
    const int exponent = sci.mid(e + 1).toInt();
    const bool negative = mantissa.startsWith(QLatin1Char('-'));
    if (negative)
        mantissa.remove(0, 1);
    QString digits = mantissa;
    digits.remove(QLatin1Char('.'));
    QString out;
    if (exponent < -4 || exponent >= 16) {
        out = digits.left(1);
        if (digits.size() > 1)
            out += QLatin1Char('.') + digits.mid(1);
        out += QStringLiteral("e%1%2")
                   .arg(exponent < 0 ? QLatin1Char('-') : QLatin1Char('+'))
                   .arg(std::abs(exponent), 2, 10, QLatin1Char('0'));
    } else if (exponent < 0) {
        out = QStringLiteral("0.") + QString(-exponent - 1, QLatin1Char('0')) + digits;
    } else {
        const int intDigits = exponent + 1;
        if (digits.size() <= intDigits)
            out = digits + QString(intDigits - digits.size(), QLatin1Char('0'))
                  + QStringLiteral(".0");
        else
            out = digits.left(intDigits) + QLatin1Char('.') + digits.mid(intDigits);
    }
    return negative ? QLatin1Char('-') + out : out;
}

PyPtr resolvePlain(const QString &t)
{
    static const QRegularExpression boolRe(QStringLiteral(
        "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"));
    static const QRegularExpression floatRe(QStringLiteral(
        "^(?:[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
        "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))"
        "$"));
    static const QRegularExpression intRe(QStringLiteral(
        "^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
        "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"));
    static const QRegularExpression nullRe(QStringLiteral("^(?:~|null|Null|NULL|)$"));
    static const QRegularExpression dateRe(
        QStringLiteral("^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$"));
    static const QRegularExpression stampRe(
        QStringLiteral("^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \\t]+)[0-9][0-9]?:"
                       "[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]["
                       "0-9])?))?$"));
    auto v = std::make_shared<PyValue>();
    // The resolvers PyYAML tries for a first character, in the order it added them.
    if (boolRe.match(t).hasMatch()) {
        v->kind = PyValue::Bool;
        const QString l = t.toLower();
        v->boolean = l == QLatin1String("yes") || l == QLatin1String("true")
                     || l == QLatin1String("on");
        return v;
    }
    if (floatRe.match(t).hasMatch()) {
        QString s = t;
        s.remove(QLatin1Char('_'));
        s = s.toLower();
        double sign = 1;
        if (s.startsWith(QLatin1Char('-')) || s.startsWith(QLatin1Char('+'))) {
            sign = s.startsWith(QLatin1Char('-')) ? -1 : 1;
            s.remove(0, 1);
        }
        double d = 0;
        if (s == QLatin1String(".inf"))
            d = sign * INFINITY;
        else if (s == QLatin1String(".nan"))
            d = NAN;
        else if (s.contains(QLatin1Char(':'))) {
            double base = 1;
            const QStringList parts = s.split(QLatin1Char(':'));
            for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
                d += it->toDouble() * base;
                base *= 60;
            }
            d *= sign;
        } else {
            d = sign * s.toDouble();
        }
        v->kind = PyValue::Float;
        v->zero = d == 0;
        v->text = pythonFloat(d);
        return v;
    }
    if (intRe.match(t).hasMatch()) {
        const std::optional<qint64> n = parseIntText(t);
        if (!n)
            throw ScalarError{}; // beyond 64 bits: not modelled
        v->kind = PyValue::Int;
        v->zero = *n == 0;
        v->text = QString::number(*n);
        return v;
    }
    if (nullRe.match(t).hasMatch())
        return v; // None
    if (const auto m = dateRe.match(t); m.hasMatch()) {
        const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
        if (!date.isValid() || date.year() < 1)
            throw ScalarError{}; // datetime.date raises: the YAML is "malformed"
        v->kind = PyValue::Date;
        v->text = t;
        return v;
    }
    if (stampRe.match(t).hasMatch())
        throw ScalarError{}; // a datetime: not modelled, treated as an error
    if (t == QLatin1String("="))
        throw ScalarError{}; // tag:yaml.org,2002:value has no safe constructor
    return makeStr(t);
}

PyPtr convert(const YAML::Node &node, TextBudget &budget, int depth)
{
    if (depth > 200)
        throw BudgetExceeded{};
    switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        return std::make_shared<PyValue>();
    case YAML::NodeType::Scalar: {
        const QString text = QString::fromStdString(node.Scalar());
        budget.take(text.size());
        if (node.Tag() == "!" || (node.Tag() != "?" && !node.Tag().empty()))
            return node.Tag() == "!" ? makeStr(text) : throw ScalarError{};
        return resolvePlain(text);
    }
    case YAML::NodeType::Sequence: {
        if (node.Tag() != "?" && !node.Tag().empty())
            throw ScalarError{};
        auto v = std::make_shared<PyValue>();
        v->kind = PyValue::List;
        for (const YAML::Node &item : node) {
            budget.take(0);
            v->items << convert(item, budget, depth + 1);
        }
        return v;
    }
    case YAML::NodeType::Map: {
        if (node.Tag() != "?" && !node.Tag().empty())
            throw ScalarError{};
        auto v = std::make_shared<PyValue>();
        v->kind = PyValue::Dict;
        for (const auto &kv : node) {
            budget.take(0);
            PyPtr key = convert(kv.first, budget, depth + 1);
            if (key->kind == PyValue::List || key->kind == PyValue::Dict)
                throw ScalarError{}; // unhashable key
            if (kv.first.IsScalar() && kv.first.Tag() == "?" && kv.first.Scalar() == "<<")
                throw ScalarError{}; // merge keys: not modelled
            PyPtr value = convert(kv.second, budget, depth + 1);
            bool replaced = false;
            for (auto &pair : v->pairs) {
                const PyValue &k = *pair.first;
                if (k.kind == key->kind && k.text == key->text && k.boolean == key->boolean) {
                    pair.second = value;
                    replaced = true;
                    break;
                }
            }
            if (!replaced)
                v->pairs.append({key, value});
        }
        return v;
    }
    }
    return std::make_shared<PyValue>();
}

bool yamlPrintable(char32_t c)
{
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0x7E) || c == 0x85
           || (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
           || (c >= 0x10000 && c <= 0x10FFFF);
}

struct YamlOutcome
{
    PyPtr value;   // null on error
    QString error; // what yaml-cpp said, with line and column (0-based in the text)
    int line = -1;
    int column = -1;
    bool tooLarge = false;
};

// yaml.load(text, CSafeLoader): one document, or an error.
YamlOutcome loadYaml(const QString &text)
{
    YamlOutcome out;
    const QList<uint> ucs = text.toUcs4();
    for (qsizetype i = 0; i < ucs.size(); ++i) {
        if (!yamlPrintable(ucs[i])) {
            out.error
                = QStringLiteral("a control character (U+%1) is not allowed in YAML")
                      .arg(
                          QString::number(ucs[i], 16).toUpper().rightJustified(4, QLatin1Char('0')));
            const QString before
                = QString::fromUcs4(reinterpret_cast<const char32_t *>(ucs.constData()), i);
            out.line = int(before.count(QLatin1Char('\n')));
            out.column = int(before.size() - before.lastIndexOf(QLatin1Char('\n')) - 1);
            return out;
        }
    }
    // PyYAML breaks lines at NEL, LS and PS too; yaml-cpp does not. Not modelled.
    if (text.contains(QChar(0x85)) || text.contains(QChar(0x2028)) || text.contains(QChar(0x2029))) {
        out.error = QStringLiteral("a line break other than LF (NEL, U+2028, U+2029)");
        return out;
    }
    try {
        const std::vector<YAML::Node> docs = YAML::LoadAll(text.toStdString());
        if (docs.size() > 1) {
            out.error = QStringLiteral("more than one YAML document");
            return out;
        }
        TextBudget budget(HermesSkillYamlBudget);
        out.value = docs.empty() ? std::make_shared<PyValue>() : convert(docs.front(), budget, 0);
    } catch (const YAML::Exception &e) {
        out.error = QString::fromStdString(e.msg);
        out.line = e.mark.is_null() ? -1 : e.mark.line;
        out.column = e.mark.is_null() ? -1 : e.mark.column;
        out.value = nullptr;
    } catch (const ScalarError &) {
        out.error = QStringLiteral("a value Hermes's YAML reader refuses");
        out.value = nullptr;
    } catch (const BudgetExceeded &) {
        out.tooLarge = true;
        out.value = nullptr;
    }
    return out;
}

// ---------------------------------------------------------------------------
// Frontmatter as Hermes's parse_frontmatter finds it.

struct Frontmatter
{
    PyPtr dict;        // always a Dict
    QString yamlError; // "line L, column C: message" (file lines) or ""
    bool tooLarge = false;
};

PyPtr emptyDict()
{
    auto v = std::make_shared<PyValue>();
    v->kind = PyValue::Dict;
    return v;
}

Frontmatter parseFrontmatter(QString content)
{
    Frontmatter fm;
    fm.dict = emptyDict();
    if (content.startsWith(QChar(0xFEFF)))
        content.remove(0, 1);
    if (!content.startsWith(QLatin1String("---")))
        return fm;
    // re.search(r"\n---\s*\n", content[3:]): the leftmost "\n---", then the
    // longest run of whitespace that ends in a line feed.
    qsizetype fenceAt = -1;
    for (qsizetype i = 3; i + 4 <= content.size(); ++i) {
        if (content[i] != QLatin1Char('\n') || content.mid(i + 1, 3) != QLatin1String("---"))
            continue;
        qsizetype j = i + 4;
        qsizetype lastNewline = -1;
        while (j < content.size()) {
            char32_t c = content[j].unicode();
            qsizetype width = 1;
            if (content[j].isHighSurrogate() && j + 1 < content.size()) {
                c = QChar::surrogateToUcs4(content[j], content[j + 1]);
                width = 2;
            }
            if (!isPythonSpace(c))
                break;
            if (c == U'\n')
                lastNewline = j;
            j += width;
        }
        if (lastNewline >= 0) {
            fenceAt = i;
            break;
        }
    }
    if (fenceAt < 0)
        return fm;
    const QString yamlText = content.mid(3, fenceAt - 3);
    const YamlOutcome parsed = loadYaml(yamlText);
    if (parsed.tooLarge) {
        fm.tooLarge = true;
        return fm;
    }
    if (parsed.value) {
        if (parsed.value->kind == PyValue::Dict)
            fm.dict = parsed.value;
        return fm;
    }
    fm.yamlError = parsed.line >= 0
                       ? QStringLiteral("line %1, column %2: %3")
                             .arg(parsed.line + 1)
                             .arg(parsed.line == 0 ? parsed.column + 4 : parsed.column + 1)
                             .arg(parsed.error)
                       : parsed.error;
    // The fallback: "key: value" lines, split at the first colon, stripped.
    auto dict = std::make_shared<PyValue>();
    dict->kind = PyValue::Dict;
    const QString stripped = pythonStripped(yamlText).toString();
    for (const QString &line : stripped.split(QLatin1Char('\n'))) {
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon < 0)
            continue;
        PyPtr key = makeStr(pythonStripped(QStringView(line).left(colon)).toString());
        PyPtr value = makeStr(pythonStripped(QStringView(line).mid(colon + 1)).toString());
        bool replaced = false;
        for (auto &pair : dict->pairs) {
            if (pair.first->text == key->text) {
                pair.second = value;
                replaced = true;
            }
        }
        if (!replaced)
            dict->pairs.append({key, value});
    }
    fm.dict = dict;
    return fm;
}

// str(x).strip().strip("'\"")
QString stripQuotes(const QString &text)
{
    QStringView s = pythonStripped(text);
    while (!s.isEmpty() && (s.front() == QLatin1Char('\'') || s.front() == QLatin1Char('"')))
        s = s.mid(1);
    while (!s.isEmpty() && (s.back() == QLatin1Char('\'') || s.back() == QLatin1Char('"')))
        s.chop(1);
    return s.toString();
}

QString truncateCodePoints(const QString &text, qsizetype limit)
{
    if (codePointCount(text) <= limit)
        return text;
    return text.left(utf16Offset(text, limit - 3)) + QStringLiteral("...");
}

// Python's sort order of str: by code point.
bool codePointLess(const QString &a, const QString &b)
{
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t x = a[i].unicode();
        const char16_t y = b[i].unicode();
        if (x == y)
            continue;
        const bool xs = x >= 0xD800 && x <= 0xDFFF;
        const bool ys = y >= 0xD800 && y <= 0xDFFF;
        if (xs == ys)
            return x < y;
        return xs ? false : true; // a surrogate stands for a code point above U+FFFF
    }
    return a.size() < b.size();
}

// Python's str.lower() for the ASCII and Latin letters a platform tag uses.
QString pyLower(const QString &s)
{
    return s.toLower();
}

// The items Python iterates in `for x in value`.
QList<PyPtr> iterate(const PyPtr &value, bool *crash)
{
    QList<PyPtr> out;
    if (!value)
        return out;
    switch (value->kind) {
    case PyValue::List:
        return value->items;
    case PyValue::Dict:
        for (const auto &pair : value->pairs)
            out << pair.first;
        return out;
    case PyValue::Str:
        for (const char32_t c : value->text.toUcs4())
            out << makeStr(QString::fromUcs4(&c, 1));
        return out;
    default:
        if (crash)
            *crash = true; // TypeError: not iterable
        return out;
    }
}

// ---------------------------------------------------------------------------
// Reading files.

struct ReadOutcome
{
    std::optional<QByteArray> bytes; // none: Hermes's read raises
    QString problem;                 // a sentence when something is off
    bool partial = false;
};

ReadOutcome readSkillFile(const QString &path, const QHash<QString, QByteArray> &buffers)
{
    ReadOutcome out;
    if (const auto it = buffers.constFind(path); it != buffers.constEnd()) {
        out.bytes = *it;
        return out;
    }
    struct stat st
    {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) {
        out.problem = QStringLiteral("%1 cannot be read (a dangling link, or no permission); "
                                     "Hermes lists the skill under its folder's name with no "
                                     "description.")
                          .arg(QDir::toNativeSeparators(path));
        return out;
    }
    if (S_ISREG(st.st_mode) && st.st_size > HermesSkillFileLimit) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly)) {
            out.bytes = file.read(HermesSkillFileLimit);
            out.partial = true;
            out.problem = QStringLiteral("%1 is larger than %2 MiB: only its start was read. "
                                         "Hermes reads it whole; invalid UTF-8 after that point "
                                         "would make it list the skill without a description.")
                              .arg(QDir::toNativeSeparators(path))
                              .arg(HermesSkillFileLimit >> 20);
            return out;
        }
    }
    GuardedFile guard;
    guard.what = QStringLiteral("The skill file");
    guard.kind = QStringLiteral("a Markdown file");
    guard.limitOwner = QStringLiteral("Soul Studio");
    guard.maxBytes = HermesSkillFileLimit;
    Result<QByteArray> read = readGuardedFile(path, guard);
    if (!read) {
        out.problem = read.error();
        if (!S_ISREG(st.st_mode))
            out.problem += QStringLiteral(" Hermes would wait on it, or list the skill under its "
                                          "folder's name with no description.");
        return out;
    }
    out.bytes = read.value();
    return out;
}

// A cut that may have split a UTF-8 sequence at its end: drop the broken tail.
QByteArray trimPartialUtf8(QByteArray bytes)
{
    for (int back = 1; back <= 3 && back <= bytes.size(); ++back) {
        const uchar c = uchar(bytes.at(bytes.size() - back));
        if ((c & 0xC0) == 0x80)
            continue;
        if (c >= 0xC0) {
            const int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (need > back)
                bytes.chop(back);
        }
        break;
    }
    return bytes;
}

// ---------------------------------------------------------------------------
// The walk: os.walk(skills, followlinks=True), pruned as Hermes prunes.

const QSet<QString> &excludedDirs()
{
    static const QSet<QString> dirs = {
        QStringLiteral(".git"),
        QStringLiteral(".github"),
        QStringLiteral(".hub"),
        QStringLiteral(".archive"),
        QStringLiteral(".curator_backups"),
        QStringLiteral(".venv"),
        QStringLiteral("venv"),
        QStringLiteral("node_modules"),
        QStringLiteral("site-packages"),
        QStringLiteral("__pycache__"),
        QStringLiteral(".tox"),
        QStringLiteral(".nox"),
        QStringLiteral(".pytest_cache"),
        QStringLiteral(".mypy_cache"),
        QStringLiteral(".ruff_cache"),
    };
    return dirs;
}

const QSet<QString> &supportDirs()
{
    static const QSet<QString> dirs = {QStringLiteral("references"),
                                       QStringLiteral("templates"),
                                       QStringLiteral("assets"),
                                       QStringLiteral("scripts")};
    return dirs;
}

struct WalkResult
{
    QStringList skillFiles;
    QStringList descriptionFiles;
    QStringList notes;
};

WalkResult walkSkills(const QString &skillsDir, const QString &activeOrg)
{
    WalkResult out;
    int entries = 0;
    bool stopped = false;
    const QString orgRoot = skillsDir + QStringLiteral("/_org");
    // Folders on the way down, by device and inode, so a link back up is not followed again.
    std::function<void(const QString &, std::set<std::pair<dev_t, ino_t>> &)> walk;
    walk = [&](const QString &root, std::set<std::pair<dev_t, ino_t>> &onPath) {
        if (stopped)
            return;
        QDir dir(root);
        const QStringList names = dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                    | QDir::NoDotAndDotDot,
                                                QDir::NoSort);
        QStringList dirs;
        QSet<QString> files;
        for (const QString &name : names) {
            if (++entries > HermesSkillWalkLimit) {
                stopped = true;
                out.notes << QStringLiteral("%1 holds more than %2 files and folders; the walk "
                                            "stopped there, so the index shown may lack skills "
                                            "Hermes lists.")
                                 .arg(QDir::toNativeSeparators(skillsDir))
                                 .arg(HermesSkillWalkLimit);
                return;
            }
            struct stat st
            {};
            const QByteArray full = QFile::encodeName(root + QLatin1Char('/') + name);
            if (::stat(full.constData(), &st) == 0 && S_ISDIR(st.st_mode))
                dirs << name;
            else
                files.insert(name);
        }
        const bool hasSkill = files.contains(QStringLiteral("SKILL.md"));
        if (root == skillsDir && dirs.contains(QStringLiteral("_org")) && activeOrg.isEmpty())
            dirs.removeAll(QStringLiteral("_org"));
        else if (root == orgRoot)
            dirs.erase(std::remove_if(dirs.begin(),
                                      dirs.end(),
                                      [&](const QString &d) { return d != activeOrg; }),
                       dirs.end());
        if (files.contains(QStringLiteral("SKILL.md")))
            out.skillFiles << root + QStringLiteral("/SKILL.md");
        if (files.contains(QStringLiteral("DESCRIPTION.md")))
            out.descriptionFiles << root + QStringLiteral("/DESCRIPTION.md");
        for (const QString &d : std::as_const(dirs)) {
            if (excludedDirs().contains(d) || (hasSkill && supportDirs().contains(d)))
                continue;
            const QString child = root + QLatin1Char('/') + d;
            struct stat st
            {};
            if (::stat(QFile::encodeName(child).constData(), &st) != 0)
                continue;
            const auto key = std::make_pair(st.st_dev, st.st_ino);
            if (onPath.count(key)) {
                out.notes << QStringLiteral("%1 links back to a folder above it; the walk does not "
                                            "follow it again (Hermes would, until the path is too "
                                            "long).")
                                 .arg(QDir::toNativeSeparators(child));
                continue;
            }
            onPath.insert(key);
            walk(child, onPath);
            onPath.erase(key);
        }
    };
    struct stat st
    {};
    if (::stat(QFile::encodeName(skillsDir).constData(), &st) == 0 && S_ISDIR(st.st_mode)) {
        std::set<std::pair<dev_t, ino_t>> onPath{{st.st_dev, st.st_ino}};
        walk(skillsDir, onPath);
    }
    return out;
}

// ---------------------------------------------------------------------------

struct Entry
{
    int skill = -1; // index into the result's skills
    QString skillName;
    QString frontmatterName;
    QString category;
    QString description;
    QString orgId;
    QString orgAuthor;
    PyPtr conditions; // metadata.hermes, or null
    bool compatible = true;

    QString entryName() const { return frontmatterName.isEmpty() ? skillName : frontmatterName; }
};

// The body of a Python string literal with its escapes read (\\ \' \" \n \r
// \t \xHH \uHHHH \UHHHHHHHH); none for another escape.
std::optional<QString> unescapeLiteral(const QString &body)
{
    QString out;
    for (qsizetype i = 0; i < body.size(); ++i) {
        if (body[i] != QLatin1Char('\\')) {
            out += body[i];
            continue;
        }
        if (++i >= body.size())
            return std::nullopt;
        const QChar c = body[i];
        int hex = 0;
        if (c == QLatin1Char('\\') || c == QLatin1Char('\'') || c == QLatin1Char('"'))
            out += c;
        else if (c == QLatin1Char('n'))
            out += QLatin1Char('\n');
        else if (c == QLatin1Char('r'))
            out += QLatin1Char('\r');
        else if (c == QLatin1Char('t'))
            out += QLatin1Char('\t');
        else if (c == QLatin1Char('x'))
            hex = 2;
        else if (c == QLatin1Char('u'))
            hex = 4;
        else if (c == QLatin1Char('U'))
            hex = 8;
        else
            return std::nullopt;
        if (hex) {
            bool ok = false;
            const uint code = body.mid(i + 1, hex).toUInt(&ok, 16);
            if (!ok || body.mid(i + 1, hex).size() != hex || code > 0x10FFFF)
                return std::nullopt;
            const char32_t cp = code;
            out += QString::fromUcs4(&cp, 1);
            i += hex;
        }
    }
    return out;
}

QSet<QString> stringSet(const PyPtr &value, TextBudget &budget)
{
    // parse_config_string_list, then {name.strip() for ... if name.strip()}.
    QStringList names;
    if (!value || value->kind == PyValue::None)
        return {};
    if (value->kind == PyValue::Str) {
        const QString stripped = pythonStripped(value->text).toString();
        bool parsedList = false;
        if (stripped.startsWith(QLatin1Char('['))) {
            // ast.literal_eval of a list of string literals (JSON or Python quoting).
            static const QRegularExpression item(QStringLiteral(
                "\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|'((?:[^'\\\\]|\\\\.)*)')\\s*(,|\\])"));
            qsizetype pos = 1;
            QStringList items;
            bool ok = true;
            if (QRegularExpression(QStringLiteral("^\\[\\s*\\]$")).match(stripped).hasMatch()) {
                parsedList = true;
            } else {
                while (pos < stripped.size()) {
                    const auto m = item.match(stripped,
                                              pos,
                                              QRegularExpression::NormalMatch,
                                              QRegularExpression::AnchorAtOffsetMatchOption);
                    if (!m.hasMatch()) {
                        ok = false;
                        break;
                    }
                    const std::optional<QString> s = unescapeLiteral(
                        m.captured(1).isNull() ? m.captured(2) : m.captured(1));
                    if (!s) {
                        ok = false;
                        break;
                    }
                    items << *s;
                    pos = m.capturedEnd();
                    if (m.captured(3) == QLatin1String("]")) {
                        ok = pos == stripped.size();
                        break;
                    }
                }
                if (ok && pos == stripped.size()) {
                    parsedList = true;
                    names = items;
                }
            }
        }
        if (!parsedList)
            names << value->text;
    } else if (value->kind == PyValue::List) {
        for (const PyPtr &item : value->items)
            names << pyStr(*item, budget);
    }
    QSet<QString> out;
    for (const QString &n : std::as_const(names)) {
        const QString s = pythonStripped(n).toString();
        if (!s.isEmpty())
            out.insert(s);
    }
    return out;
}

QString describeList(const PyPtr &value)
{
    TextBudget budget(HermesSkillYamlBudget);
    try {
        return value ? pyStr(*value, budget) : QString();
    } catch (const BudgetExceeded &) {
        return QStringLiteral("(too long)");
    }
}

} // namespace

HermesSkillsSession HermesSkillsSession::defaultCli()
{
    HermesSkillsSession s;
    s.toolsets = {
        QStringLiteral("web"),
        QStringLiteral("terminal"),
        QStringLiteral("file"),
        QStringLiteral("vision"),
        QStringLiteral("image_gen"),
        QStringLiteral("skills"),
        QStringLiteral("browser"),
        QStringLiteral("tts"),
        QStringLiteral("todo"),
        QStringLiteral("memory"),
        QStringLiteral("session_search"),
        QStringLiteral("clarify"),
        QStringLiteral("code_execution"),
        QStringLiteral("delegation"),
        QStringLiteral("cronjob"),
    };
    s.tools = {
        QStringLiteral("web_search"),
        QStringLiteral("web_extract"),
        QStringLiteral("terminal"),
        QStringLiteral("process_manage"),
        QStringLiteral("read_file"),
        QStringLiteral("write_file"),
        QStringLiteral("patch"),
        QStringLiteral("search_files"),
        QStringLiteral("vision_analyze"),
        QStringLiteral("image_generate"),
        QStringLiteral("skills_list"),
        QStringLiteral("skill_view"),
        QStringLiteral("skill_manage"),
        QStringLiteral("browser_navigate"),
        QStringLiteral("browser_snapshot"),
        QStringLiteral("browser_click"),
        QStringLiteral("browser_type"),
        QStringLiteral("browser_scroll"),
        QStringLiteral("browser_back"),
        QStringLiteral("browser_press"),
        QStringLiteral("browser_get_images"),
        QStringLiteral("browser_vision"),
        QStringLiteral("browser_console"),
        QStringLiteral("browser_cdp"),
        QStringLiteral("browser_dialog"),
        QStringLiteral("text_to_speech"),
        QStringLiteral("todo_list"),
        QStringLiteral("memory"),
        QStringLiteral("session_search"),
        QStringLiteral("clarify"),
        QStringLiteral("execute_code"),
        QStringLiteral("delegate_task"),
        QStringLiteral("cronjob_manage"),
    };
    return s;
}

HermesSkillsIndex hermesSkillsIndex(const QString &home,
                                    const HermesSkillsSession &session,
                                    const QHash<QString, QByteArray> &buffers)
{
    HermesSkillsIndex out;
    const QString homeDir = QFileInfo(home).absoluteFilePath();
    const QString skillsDir = homeDir + QStringLiteral("/skills");
    TextBudget configBudget(HermesSkillYamlBudget);

    // config.yaml: skills.disabled and skills.platform_disabled.<platform>.
    QSet<QString> disabled;
    {
        const QString configPath = homeDir + QStringLiteral("/config.yaml");
        std::optional<QByteArray> bytes;
        if (const auto it = buffers.constFind(configPath); it != buffers.constEnd())
            bytes = *it;
        else if (QFileInfo::exists(configPath)) {
            GuardedFile guard;
            guard.what = QStringLiteral("The Hermes config");
            guard.kind = QStringLiteral("a YAML file");
            guard.limitOwner = QStringLiteral("Soul Studio");
            guard.maxBytes = HermesSkillFileLimit;
            Result<QByteArray> read = readGuardedFile(configPath, guard);
            if (read)
                bytes = read.value();
            else
                out.notes << read.error();
        }
        if (bytes) {
            // read_text(encoding="utf-8"): a BOM stays (YAML skips it), newlines become LF.
            QByteArray raw = *bytes;
            const bool bom = raw.startsWith("\xEF\xBB\xBF");
            if (bom)
                raw.remove(0, 3);
            const HermesDecoded decoded = hermesDecode(raw);
            if (!decoded.ok) {
                out.notes << QStringLiteral(
                                 "%1 is not valid UTF-8 (byte %2); Hermes ignores it, so "
                                 "no skill is disabled.")
                                 .arg(QDir::toNativeSeparators(configPath))
                                 .arg(decoded.badByte);
            } else {
                const YamlOutcome parsed = loadYaml(decoded.text);
                if (!parsed.value) {
                    out.notes << QStringLiteral(
                                     "%1 is not valid YAML (%2); Hermes ignores it, so no "
                                     "skill is disabled.")
                                     .arg(QDir::toNativeSeparators(configPath),
                                          parsed.tooLarge
                                              ? QStringLiteral("its aliases expand too far")
                                              : parsed.error);
                } else if (parsed.value->kind == PyValue::Dict) {
                    const PyPtr skills = parsed.value->get(QStringLiteral("skills"));
                    if (skills && skills->kind == PyValue::Dict) {
                        try {
                            disabled = stringSet(skills->get(QStringLiteral("disabled")),
                                                 configBudget);
                            if (!session.platform.isEmpty()) {
                                const PyPtr perPlatform = skills->get(
                                    QStringLiteral("platform_disabled"));
                                if (perPlatform && perPlatform->truthy()) {
                                    if (perPlatform->kind != PyValue::Dict) {
                                        out.notes
                                            << QStringLiteral("skills.platform_disabled in %1 is "
                                                              "not a mapping; Hermes stops "
                                                              "building its prompt on it.")
                                                   .arg(QDir::toNativeSeparators(configPath));
                                    } else if (const PyPtr list = perPlatform->get(session.platform);
                                               list && list->kind != PyValue::None) {
                                        disabled.unite(stringSet(list, configBudget));
                                    }
                                }
                            }
                        } catch (const BudgetExceeded &) {
                            out.notes
                                << QStringLiteral("skills.disabled in %1 repeats too much text "
                                                  "through aliases; it was not read.")
                                       .arg(QDir::toNativeSeparators(configPath));
                        }
                        disabled.remove(QStringLiteral("hermes-agent"));
                        if (skills->get(QStringLiteral("external_dirs"))
                            && skills->get(QStringLiteral("external_dirs"))->truthy())
                            out.notes
                                << QStringLiteral("%1 names skills.external_dirs; their skills "
                                                  "are not shown here.")
                                       .arg(QDir::toNativeSeparators(configPath));
                    }
                }
            }
        }
    }

    QFileInfo skillsInfo(skillsDir);
    if (!skillsInfo.exists())
        return out;

    // The active org mirror: skills/_org/.active_org, stripped.
    QString activeOrg;
    {
        const QString marker = skillsDir + QStringLiteral("/_org/.active_org");
        if (QFileInfo::exists(marker)) {
            GuardedFile guard;
            guard.what = QStringLiteral("The active org marker");
            guard.kind = QStringLiteral("a text file");
            guard.limitOwner = QStringLiteral("Soul Studio");
            guard.maxBytes = 4096;
            Result<QByteArray> read = readGuardedFile(marker, guard);
            if (read) {
                const HermesDecoded decoded = hermesDecode(read.value());
                if (decoded.ok && !read.value().startsWith("\xEF\xBB\xBF"))
                    activeOrg = pythonStripped(decoded.text).toString();
                else
                    out.notes << QStringLiteral("%1 is not plain UTF-8; Hermes stops building its "
                                                "prompt on it.")
                                     .arg(QDir::toNativeSeparators(marker));
            } else {
                out.notes << read.error();
            }
        }
    }

    WalkResult walk = walkSkills(skillsDir, activeOrg);
    out.notes << walk.notes;
    // Unsaved files not on disk yet count as found where their folder is.
    for (auto it = buffers.constBegin(); it != buffers.constEnd(); ++it) {
        if (!it.key().startsWith(skillsDir + QLatin1Char('/')))
            continue;
        if (it.key().endsWith(QStringLiteral("/SKILL.md")) && !walk.skillFiles.contains(it.key()))
            walk.skillFiles << it.key();
        if (it.key().endsWith(QStringLiteral("/DESCRIPTION.md"))
            && !walk.descriptionFiles.contains(it.key()))
            walk.descriptionFiles << it.key();
    }
    std::sort(walk.skillFiles.begin(), walk.skillFiles.end(), codePointLess);
    std::sort(walk.descriptionFiles.begin(), walk.descriptionFiles.end(), codePointLess);

    const QSet<QString> tools(session.tools.cbegin(), session.tools.cend());
    const QSet<QString> toolsets(session.toolsets.cbegin(), session.toolsets.cend());
    const QString platformKey = pythonStripped(session.platform).toString().toLower();

    QList<Entry> entries;
    for (const QString &path : std::as_const(walk.skillFiles)) {
        HermesSkill skill;
        skill.path = path;
        const QString rel = path.mid(skillsDir.size() + 1);
        QStringList parts = rel.split(QLatin1Char('/'));
        Entry e;
        if (parts.size() >= 3 && parts[0] == QLatin1String("_org")) {
            e.orgId = parts[1];
            parts = parts.mid(2);
        }
        e.skillName = QFileInfo(QFileInfo(path).path()).fileName();
        e.category = parts.size() < 2   ? QStringLiteral("general")
                     : parts.size() > 2 ? parts.mid(0, parts.size() - 2).join(QLatin1Char('/'))
                                        : parts[0];
        skill.folder = e.skillName;

        ReadOutcome read = readSkillFile(path, buffers);
        if (!read.problem.isEmpty())
            skill.lints << read.problem;
        PyPtr fm = emptyDict();
        bool readFailed = !read.bytes.has_value();
        if (read.bytes) {
            QByteArray bytes = read.partial ? trimPartialUtf8(*read.bytes) : *read.bytes;
            if (bytes.startsWith("\xEF\xBB\xBF"))
                bytes.remove(0, 3);
            const HermesDecoded decoded = hermesDecode(bytes);
            if (!decoded.ok) {
                readFailed = true;
                skill.lints << QStringLiteral("%1 is not valid UTF-8 (byte %2): Hermes cannot read "
                                              "it and lists the skill under its folder's name "
                                              "with no description.")
                                   .arg(QDir::toNativeSeparators(path))
                                   .arg(decoded.badByte);
            } else {
                const Frontmatter parsed = parseFrontmatter(decoded.text);
                fm = parsed.dict;
                if (parsed.tooLarge)
                    skill.lints << QStringLiteral("The frontmatter of %1 repeats more text through "
                                                  "aliases than Soul Studio reads (%2 MiB); it was "
                                                  "read as empty, and Hermes's index may differ.")
                                       .arg(QDir::toNativeSeparators(path))
                                       .arg(HermesSkillYamlBudget >> 20);
                if (!parsed.yamlError.isEmpty())
                    skill.lints << QStringLiteral(
                                       "The frontmatter of %1 is not valid YAML (%2); "
                                       "Hermes falls back to reading 'key: value' lines.")
                                       .arg(QDir::toNativeSeparators(path), parsed.yamlError);
            }
        }

        TextBudget budget(HermesSkillYamlBudget);
        try {
            if (!readFailed) {
                // Platforms: any tag that the host's sys.platform ("linux") starts with.
                const PyPtr platforms = fm->get(QStringLiteral("platforms"));
                if (platforms && platforms->truthy()) {
                    const QList<PyPtr> tags = platforms->kind == PyValue::List
                                                  ? platforms->items
                                                  : QList<PyPtr>{platforms};
                    bool match = false;
                    for (const PyPtr &tag : tags) {
                        QString mapped = pythonStripped(pyLower(pyStr(*tag, budget))).toString();
                        if (mapped == QLatin1String("macos"))
                            mapped = QStringLiteral("darwin");
                        else if (mapped == QLatin1String("windows"))
                            mapped = QStringLiteral("win32");
                        if (QStringLiteral("linux").startsWith(mapped))
                            match = true;
                    }
                    if (!match) {
                        e.compatible = false;
                        skill.reason = QStringLiteral("Not listed: its platforms (%1) do not "
                                                      "include Linux.")
                                           .arg(describeList(platforms));
                    }
                }
                const PyPtr envs = fm->get(QStringLiteral("environments"));
                if (e.compatible && envs && envs->truthy()) {
                    const QList<PyPtr> tags = envs->kind == PyValue::List ? envs->items
                                                                          : QList<PyPtr>{envs};
                    bool match = false;
                    for (const PyPtr &tag : tags) {
                        const QString n = pythonStripped(pyLower(pyStr(*tag, budget))).toString();
                        if (n.isEmpty())
                            continue;
                        if ((n != QLatin1String("kanban") && n != QLatin1String("docker")
                             && n != QLatin1String("s6"))
                            || session.environments.contains(n)) {
                            match = true;
                            break;
                        }
                    }
                    if (!match) {
                        e.compatible = false;
                        skill.reason = QStringLiteral("Not listed: its environments (%1) are not "
                                                      "active in this session.")
                                           .arg(describeList(envs));
                    }
                }
            }
            const PyPtr name = fm->get(QStringLiteral("name"));
            e.frontmatterName = name ? pyStr(*name, budget) : e.skillName;
            if (e.compatible) {
                const PyPtr desc = fm->get(QStringLiteral("description"));
                if (desc && desc->truthy())
                    e.description = truncateCodePoints(stripQuotes(pyStr(*desc, budget)), 60);
            }
            const PyPtr metadata = fm->get(QStringLiteral("metadata"));
            if (metadata && metadata->kind == PyValue::Dict) {
                const PyPtr hermes = metadata->get(QStringLiteral("hermes"));
                if (hermes && hermes->kind == PyValue::Dict && hermes->truthy())
                    e.conditions = hermes;
            }
        } catch (const BudgetExceeded &) {
            skill.lints << QStringLiteral("The frontmatter of %1 repeats more text through aliases "
                                          "than Soul Studio reads; Hermes's index may differ.")
                               .arg(QDir::toNativeSeparators(path));
        }

        if (!e.orgId.isEmpty()) {
            const QString prov = skillsDir + QStringLiteral("/_org/") + e.orgId
                                 + QStringLiteral("/.org-provenance.json");
            GuardedFile guard;
            guard.what = QStringLiteral("The org provenance");
            guard.kind = QStringLiteral("a JSON file");
            guard.limitOwner = QStringLiteral("Soul Studio");
            guard.maxBytes = HermesSkillFileLimit;
            if (QFileInfo::exists(prov)) {
                Result<QByteArray> read2 = readGuardedFile(prov, guard);
                if (read2) {
                    QByteArray bytes = read2.value();
                    if (bytes.startsWith("\xEF\xBB\xBF"))
                        bytes.remove(0, 3);
                    const QJsonObject o = QJsonDocument::fromJson(bytes).object();
                    const QString device = o.value(QStringLiteral("author_device")).toString();
                    e.orgAuthor = !device.isEmpty()
                                      ? device
                                      : o.value(QStringLiteral("author_user_id")).toString();
                }
            }
        }

        skill.name = e.entryName();
        skill.category = e.orgId.isEmpty() ? e.category : QStringLiteral("org:") + e.orgId;
        skill.description = e.description;

        // Lints of our own: Hermes's limits for a skill it writes, and its threat patterns.
        if (!readFailed) {
            const PyPtr name = fm->get(QStringLiteral("name"));
            if (!name || !name->truthy())
                skill.lints << QStringLiteral("%1 has no name in its frontmatter; Hermes lists it "
                                              "as '%2', its folder's name.")
                                   .arg(QDir::toNativeSeparators(path), e.skillName);
            else if (codePointCount(e.frontmatterName) > 64)
                skill.lints << QStringLiteral("The name in %1 is %2 characters long; Hermes allows "
                                              "64.")
                                   .arg(QDir::toNativeSeparators(path))
                                   .arg(codePointCount(e.frontmatterName));
            const PyPtr desc = fm->get(QStringLiteral("description"));
            TextBudget lintBudget(HermesSkillYamlBudget);
            QString full;
            try {
                full = desc && desc->truthy() ? stripQuotes(pyStr(*desc, lintBudget)) : QString();
            } catch (const BudgetExceeded &) {
            }
            if (full.isEmpty())
                skill.lints << QStringLiteral("%1 has no description; the index shows its name "
                                              "alone.")
                                   .arg(QDir::toNativeSeparators(path));
            else if (codePointCount(full) > 1024)
                skill.lints << QStringLiteral("The description in %1 is %2 characters long; Hermes "
                                              "allows 1,024 (the index shows 60).")
                                   .arg(QDir::toNativeSeparators(path),
                                        pythonThousands(codePointCount(full)));
            else if (codePointCount(full) > 60)
                skill.lints << QStringLiteral("The description in %1 is cut to 57 characters and "
                                              "'...' in the index.")
                                   .arg(QDir::toNativeSeparators(path));
            if (!full.isEmpty()) {
                const HermesScan scan = hermesScanForThreats(full, HermesScanScope::Context);
                if (scan.blocked())
                    skill.lints << QStringLiteral("The description in %1 matches Hermes's threat "
                                                  "patterns (%2); Hermes does not scan the index, "
                                                  "so the model sees it as written.")
                                       .arg(QDir::toNativeSeparators(path), scan.idList());
            }
        }

        e.skill = int(out.skills.size());
        out.skills << skill;
        entries << e;
    }

    // hides(): disabled by name or folder, or the session's conditions.
    const auto hiddenBecause = [&](const Entry &e, bool *crash) -> QString {
        if (disabled.contains(e.entryName()) || disabled.contains(e.skillName))
            return QStringLiteral("Not listed: config.yaml disables it (skills.disabled%1).")
                .arg(session.platform.isEmpty()
                         ? QString()
                         : QStringLiteral(" or skills.platform_disabled.") + session.platform);
        if (!e.conditions)
            return {};
        const auto listOf = [&](const char *key) {
            const PyPtr v = e.conditions->get(QString::fromLatin1(key));
            return v ? iterate(v, crash) : QList<PyPtr>{};
        };
        const PyPtr sessionPlatforms = e.conditions->get(QStringLiteral("session_platforms"));
        if (sessionPlatforms && sessionPlatforms->truthy() && !platformKey.isEmpty()) {
            QStringList wanted;
            TextBudget b(HermesSkillYamlBudget);
            for (const PyPtr &p : iterate(sessionPlatforms, crash)) {
                const QString s = pythonStripped(pyStr(*p, b)).toString().toLower();
                if (!s.isEmpty())
                    wanted << s;
            }
            if (!wanted.isEmpty() && !wanted.contains(platformKey))
                return QStringLiteral("Not listed: it is for the platforms %1, not %2.")
                    .arg(wanted.join(QStringLiteral(", ")), session.platform);
        }
        if (!session.toolInfo)
            return {};
        const auto isIn = [](const PyPtr &v, const QSet<QString> &set) {
            return v->kind == PyValue::Str && set.contains(v->text);
        };
        for (const PyPtr &ts : listOf("fallback_for_toolsets"))
            if (isIn(ts, toolsets))
                return QStringLiteral("Not listed: it is a fallback for the toolset %1, which the "
                                      "session has.")
                    .arg(ts->text);
        for (const PyPtr &t : listOf("fallback_for_tools"))
            if (isIn(t, tools))
                return QStringLiteral("Not listed: it is a fallback for the tool %1, which the "
                                      "session has.")
                    .arg(t->text);
        for (const PyPtr &ts : listOf("requires_toolsets"))
            if (!isIn(ts, toolsets))
                return QStringLiteral("Not listed: it requires the toolset %1, which the session "
                                      "lacks.")
                    .arg(describeList(ts));
        for (const PyPtr &t : listOf("requires_tools"))
            if (!isIn(t, tools))
                return QStringLiteral(
                           "Not listed: it requires the tool %1, which the session lacks.")
                    .arg(describeList(t));
        return {};
    };

    QList<const Entry *> visible;
    for (const Entry &e : std::as_const(entries)) {
        HermesSkill &skill = out.skills[e.skill];
        if (!e.compatible)
            continue;
        bool crash = false;
        const QString why = hiddenBecause(e, &crash);
        if (crash)
            skill.lints << QStringLiteral("A condition under metadata.hermes in %1 is not a list; "
                                          "Hermes stops building its prompt on it.")
                               .arg(QDir::toNativeSeparators(skill.path));
        if (!why.isEmpty()) {
            skill.reason = why;
            continue;
        }
        visible << &e;
    }

    // Org labels and name collisions, then the categories.
    std::map<QString, QSet<bool>> owners;
    for (const Entry *e : std::as_const(visible))
        owners[e->entryName()].insert(!e->orgId.isEmpty());
    std::map<QString, QList<std::pair<QString, QString>>, bool (*)(const QString &, const QString &)>
        byCategory(codePointLess);
    for (const Entry *e : std::as_const(visible)) {
        QString desc = e->description;
        if (!e->orgId.isEmpty())
            desc = pythonStripped(QStringLiteral("[org-shared%1] %2")
                                      .arg(e->orgAuthor.isEmpty()
                                               ? QString()
                                               : QStringLiteral(": by ") + e->orgAuthor,
                                           desc))
                       .toString();
        const QString category = !e->orgId.isEmpty()     ? QStringLiteral("org:") + e->orgId
                                 : e->category.isEmpty() ? QStringLiteral("general")
                                                         : e->category;
        if (owners[e->entryName()].size() > 1)
            desc = pythonStripped(QStringLiteral("[name collision — also exists %1; load via "
                                                 "category path] %2")
                                      .arg(e->orgId.isEmpty() ? QStringLiteral("in your org")
                                                              : QStringLiteral("personally"),
                                           desc))
                       .toString();
        byCategory[category].append({e->entryName(), desc});
        out.skills[e->skill].included = true;
        out.skills[e->skill].description = desc;
        out.skills[e->skill].category = category;
    }

    // DESCRIPTION.md of each category (the first line that names it wins by path order: last write).
    QHash<QString, QString> categoryDescriptions;
    for (const QString &path : std::as_const(walk.descriptionFiles)) {
        ReadOutcome read = readSkillFile(path, buffers);
        if (!read.bytes) {
            out.notes << read.problem;
            continue;
        }
        QByteArray bytes = read.partial ? trimPartialUtf8(*read.bytes) : *read.bytes;
        if (bytes.startsWith("\xEF\xBB\xBF"))
            bytes.remove(0, 3);
        const HermesDecoded decoded = hermesDecode(bytes);
        if (!decoded.ok)
            continue;
        const Frontmatter parsed = parseFrontmatter(decoded.text);
        const PyPtr desc = parsed.dict->get(QStringLiteral("description"));
        if (!desc || !desc->truthy())
            continue;
        TextBudget budget(HermesSkillYamlBudget);
        try {
            const QStringList parts = path.mid(skillsDir.size() + 1).split(QLatin1Char('/'));
            const QString key = parts.size() > 1
                                    ? parts.mid(0, parts.size() - 1).join(QLatin1Char('/'))
                                    : QStringLiteral("general");
            categoryDescriptions.insert(key, stripQuotes(pyStr(*desc, budget)));
        } catch (const BudgetExceeded &) {
        }
    }

    if (byCategory.empty())
        return out;
    const QString basicTools = session.toolInfo && !tools.contains(QStringLiteral("web_search"))
                                   ? QStringLiteral("terminal")
                                   : QStringLiteral("web_search or terminal");
    QStringList lines;
    for (auto &[category, list] : byCategory) {
        const QString catDesc = categoryDescriptions.value(category);
        lines << (catDesc.isEmpty() ? QStringLiteral("  %1:").arg(category)
                                    : QStringLiteral("  %1: %2").arg(category, catDesc));
        std::stable_sort(list.begin(), list.end(), [](const auto &a, const auto &b) {
            return codePointLess(a.first, b.first);
        });
        QSet<QString> seen;
        for (const auto &[name, desc] : std::as_const(list)) {
            if (seen.contains(name))
                continue;
            seen.insert(name);
            lines << (desc.isEmpty() ? QStringLiteral("    - %1").arg(name)
                                     : QStringLiteral("    - %1: %2").arg(name, desc));
        }
    }
    out.text
        = QStringLiteral(
              "## Skills\n"
              "Before replying, scan the skills below. If a skill matches or is even partially "
              "relevant to your task, you MUST load it with skill_view(name) and follow its "
              "instructions. Err on the side of loading — it is always better to have context "
              "you don't need than to miss critical steps, pitfalls, or established workflows. "
              "Skills contain specialized knowledge — API endpoints, tool-specific commands, "
              "and proven workflows that outperform general-purpose approaches. Load the skill "
              "even if you think you could handle the task with basic tools like %1. Skills "
              "also encode the user's preferred approach, conventions, and quality standards "
              "for tasks like code review, planning, and testing — load them even for tasks "
              "you already know how to do, because the skill defines how it should be done "
              "here.\n"
              "If a skill has issues, fix it with skill_manage(action='patch').\n"
              "After difficult/iterative tasks, offer to save as a skill. If a skill you loaded "
              "was missing steps, had wrong commands, or needed pitfalls you discovered, update "
              "it before finishing.\n"
              "\n"
              "<available_skills>\n")
              .arg(basicTools)
          + lines.join(QLatin1Char('\n'))
          + QStringLiteral("\n</available_skills>\n\n"
                           "Only proceed without loading a skill if genuinely none are "
                           "relevant to the task.");
    return out;
}

QString hermesSkillsIndexText(const QString &home, const HermesSkillsSession &session)
{
    return hermesSkillsIndex(home, session).text;
}

} // namespace soul
