#include "personatestfile.h"

#include "compose/utf8.h"
#include "disk/guardedread.h"
#include "regexsearch.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <QScopeGuard>

#include <cmath>
#include <iterator>

namespace soul {

namespace {

// Thrown inside this file only, for a field that is wrong: parsePersonaTests
// turns it into the Result's sentence.
struct FieldError
{
    int line = 0;
    QString message;
};

// What reading one file may take out of its YAML: every scalar counted each
// time it is used (an alias repeats its anchor's text), plus a little for
// the node itself, so a file of a few kilobytes that names a megabyte a
// thousand times is refused instead of copied until memory runs out.
class ExpansionBudget
{
public:
    explicit ExpansionBudget(qint64 bytes)
        : m_left(bytes)
    {}
    void take(qint64 bytes, const YAML::Node &node);

private:
    qint64 m_left;
};

// The budget of the parse running on this thread (parses may run on
// several workers at once).
thread_local ExpansionBudget *currentBudget = nullptr;

constexpr const char *AssertTypes[] = {
    "equals",
    "contains",
    "icontains",
    "contains-any",
    "contains-all",
    "icontains-any",
    "icontains-all",
    "starts-with",
    "regex",
    "is-json",
    "latency",
    "cost",
    "llm-rubric",
};

bool takesList(const QString &type)
{
    return type.endsWith(QLatin1String("-any")) || type.endsWith(QLatin1String("-all"));
}

int lineOf(const YAML::Node &node)
{
    // A key that is missing from a mapping gives a node without a place.
    if (!node.IsDefined())
        return 0;
    return node.Mark().is_null() ? 0 : node.Mark().line + 1;
}

QString text(const YAML::Node &node)
{
    if (currentBudget)
        currentBudget->take(qint64(node.Scalar().size()), node);
    return QString::fromStdString(node.Scalar());
}

QString supportedText()
{
    return supportedAssertTypes().join(QStringLiteral(", "));
}

[[noreturn]] void refuse(const YAML::Node &node, const QString &message)
{
    throw FieldError{lineOf(node), message};
}

void ExpansionBudget::take(qint64 bytes, const YAML::Node &node)
{
    // A node costs something even when empty: a list of a million aliases
    // of "" is no cheaper to read than its text.
    constexpr qint64 NodeCost = 64;
    m_left -= bytes + NodeCost;
    if (m_left < 0)
        refuse(node,
               QStringLiteral("the file's aliases (*name) repeat more text than persona tests "
                              "read (%1 MiB in all, each use of an anchor counted). Write "
                              "repeated text fewer times.")
                   .arg(MaxPersonaTestsExpansion >> 20));
}

// A scalar field's text; `what` names the field for the error.
QString scalar(const YAML::Node &node, const QString &what)
{
    if (!node.IsScalar())
        refuse(node, QStringLiteral("%1 must be a single value.").arg(what));
    return text(node);
}

double number(const YAML::Node &node, const QString &what)
{
    bool ok = false;
    const double value = scalar(node, what).toDouble(&ok);
    if (!ok || !std::isfinite(value))
        refuse(node, QStringLiteral("%1 must be a number, not '%2'.").arg(what, text(node)));
    return value;
}

qint64 wholeNumber(const YAML::Node &node, const QString &what)
{
    bool ok = false;
    const qint64 value = scalar(node, what).toLongLong(&ok);
    if (!ok)
        refuse(node, QStringLiteral("%1 must be a whole number, not '%2'.").arg(what, text(node)));
    return value;
}

// The model of a provider id openai:chat:MODEL (or openai:MODEL).
QString modelOfId(const YAML::Node &id)
{
    const QString name = text(id);
    for (const QLatin1String prefix : {QLatin1String("openai:chat:"), QLatin1String("openai:")}) {
        if (name.startsWith(prefix) && name.size() > prefix.size())
            return name.mid(prefix.size());
    }
    refuse(id,
           QStringLiteral("provider '%1' is not one persona tests can use: give "
                          "openai:chat:MODEL (any OpenAI-compatible server).")
               .arg(name));
}

QUrl baseUrlOf(const YAML::Node &url)
{
    const QUrl base(scalar(url, QStringLiteral("apiBaseUrl")));
    if (!base.isValid() || base.host().isEmpty())
        refuse(url,
               QStringLiteral("apiBaseUrl '%1' is not a URL such as "
                              "http://127.0.0.1:8080/v1.")
                   .arg(text(url)));
    return base;
}

// A grading provider: an id, or {id, config: {apiBaseUrl}}.
JudgeProvider readJudge(const YAML::Node &provider, const QString &what)
{
    const YAML::Node id = provider.IsMap() ? provider["id"] : provider;
    if (!id || !id.IsScalar())
        refuse(provider, QStringLiteral("%1 needs an id, such as openai:chat:MODEL.").arg(what));
    JudgeProvider judge;
    judge.model = modelOfId(id);
    if (provider.IsMap() && provider["config"]) {
        const YAML::Node config = provider["config"];
        if (!config.IsMap())
            refuse(config, QStringLiteral("%1's config must be a mapping.").arg(what));
        if (const YAML::Node url = config["apiBaseUrl"])
            judge.apiBaseUrl = baseUrlOf(url);
    }
    return judge;
}

std::optional<double> price(const YAML::Node &config, const char *key)
{
    if (const YAML::Node value = config[key]) {
        const double dollars = number(value, QLatin1String(key));
        if (dollars < 0)
            refuse(value, QStringLiteral("%1 must not be negative.").arg(QLatin1String(key)));
        return dollars;
    }
    return std::nullopt;
}

void readProvider(const YAML::Node &providers, PersonaTestFile &file)
{
    if (!providers.IsSequence())
        refuse(providers, QStringLiteral("providers must be a list."));
    if (providers.size() > 1)
        refuse(providers,
               QStringLiteral("providers names %1 providers; persona tests run against one. "
                              "Keep one, or pick with --endpoint and --model.")
                   .arg(providers.size()));
    if (providers.size() == 0)
        return;
    const YAML::Node provider = providers[0];
    const YAML::Node id = provider.IsMap() ? provider["id"] : provider;
    if (!id || !id.IsScalar())
        refuse(provider, QStringLiteral("the provider needs an id, such as openai:chat:MODEL."));
    file.model = modelOfId(id);
    if (!provider.IsMap() || !provider["config"])
        return;
    const YAML::Node config = provider["config"];
    if (!config.IsMap())
        refuse(config, QStringLiteral("the provider's config must be a mapping."));
    if (const YAML::Node url = config["apiBaseUrl"])
        file.apiBaseUrl = baseUrlOf(url);
    // promptfoo's: cost prices both kinds of token; inputCost and
    // outputCost each one, over it.
    const std::optional<double> both = price(config, "cost");
    file.inputCost = price(config, "inputCost");
    file.outputCost = price(config, "outputCost");
    if (!file.inputCost)
        file.inputCost = both;
    if (!file.outputCost)
        file.outputCost = both;
    if (const YAML::Node value = config["temperature"])
        file.temperature = number(value, QStringLiteral("temperature"));
    if (const YAML::Node value = config["max_tokens"])
        file.maxTokens = wholeNumber(value, QStringLiteral("max_tokens"));
    if (const YAML::Node value = config["seed"])
        file.seed = wholeNumber(value, QStringLiteral("seed"));
    if (const YAML::Node value = config["apiKeyEnvar"])
        file.apiKeyEnvar = scalar(value, QStringLiteral("apiKeyEnvar"));
}

AssertSpec readAssert(const YAML::Node &node, const PersonaTestCase &test, int position)
{
    const QString where = QStringLiteral("%1, assert %2").arg(test.label()).arg(position);
    if (!node.IsMap())
        refuse(node, QStringLiteral("%1 must be a mapping with a type.").arg(where));
    const YAML::Node type = node["type"];
    if (!type)
        refuse(node, QStringLiteral("%1 has no type. Supported: %2.").arg(where, supportedText()));
    AssertSpec spec;
    spec.line = lineOf(node);
    spec.type = scalar(type, where + QStringLiteral("'s type"));
    spec.negated = spec.type.startsWith(QLatin1String("not-"));
    spec.baseType = spec.negated ? spec.type.mid(4) : spec.type;
    if (!supportedAssertTypes().contains(spec.baseType))
        refuse(type,
               QStringLiteral("%1: unknown assert type '%2'. Supported: %3 (each also as "
                              "not-TYPE).")
                   .arg(where, spec.type, supportedText()));
    if (const YAML::Node weight = node["weight"]) {
        spec.weight = number(weight, where + QStringLiteral("'s weight"));
        if (spec.weight < 0)
            refuse(weight, QStringLiteral("%1's weight must not be negative.").arg(where));
    }
    const YAML::Node value = node["value"];
    if (spec.baseType == QLatin1String("latency") || spec.baseType == QLatin1String("cost")) {
        const bool latency = spec.baseType == QLatin1String("latency");
        const YAML::Node threshold = node["threshold"];
        if (!threshold)
            refuse(node,
                   latency ? QStringLiteral("%1 (latency) needs a threshold: the most "
                                            "milliseconds the reply may take.")
                                 .arg(where)
                           : QStringLiteral("%1 (cost) needs a threshold: the most dollars the "
                                            "request may cost.")
                                 .arg(where));
        spec.threshold = number(threshold, where + QStringLiteral("'s threshold"));
        return spec;
    }
    if (spec.baseType == QLatin1String("llm-rubric")) {
        // promptfoo's: the grader's score must reach it, beside its pass.
        if (const YAML::Node threshold = node["threshold"])
            spec.threshold = number(threshold, where + QStringLiteral("'s threshold"));
        // promptfoo takes the grader from the assert's provider, or its
        // options.provider.
        const YAML::Node options = node["options"];
        const YAML::Node absent(YAML::NodeType::Undefined);
        const YAML::Node provider = node["provider"]             ? node["provider"]
                                    : options && options.IsMap() ? options["provider"]
                                                                 : absent;
        if (provider)
            spec.judge = readJudge(provider, where + QStringLiteral("'s provider"));
    }
    if (spec.baseType == QLatin1String("is-json")) {
        if (value)
            refuse(value,
                   QStringLiteral("%1: is-json with a schema (value) is not supported yet; "
                                  "leave the value out to check that the output is JSON.")
                       .arg(where));
        return spec;
    }
    if (!value || value.IsNull())
        refuse(node, QStringLiteral("%1 (%2) needs a value.").arg(where, spec.type));
    if (takesList(spec.baseType)) {
        if (value.IsSequence()) {
            for (const YAML::Node &item : value)
                spec.values.append(scalar(item, where + QStringLiteral("'s values")));
        } else {
            for (const QString &part :
                 scalar(value, where + QStringLiteral("'s value")).split(QLatin1Char(',')))
                spec.values.append(part.trimmed());
        }
        if (spec.values.isEmpty())
            refuse(value, QStringLiteral("%1 (%2) needs at least one value.").arg(where, spec.type));
        return spec;
    }
    spec.values.append(scalar(value, where + QStringLiteral("'s value")));
    if (spec.baseType == QLatin1String("regex")) {
        if (const QString problem = regexPatternProblem(spec.values.first()); !problem.isEmpty())
            refuse(value,
                   QStringLiteral("%1: the regex '%2' is invalid: %3.")
                       .arg(where, spec.values.first(), problem));
    }
    return spec;
}

QList<ChatMessage> readMessages(const YAML::Node &messages, const PersonaTestCase &test)
{
    if (!messages.IsSequence() || messages.size() == 0)
        refuse(messages,
               QStringLiteral("%1: vars.messages must be a list of {role, content}.")
                   .arg(test.label()));
    QList<ChatMessage> turns;
    int position = 0;
    for (const YAML::Node &message : messages) {
        ++position;
        const QString where = QStringLiteral("%1, message %2").arg(test.label()).arg(position);
        if (!message.IsMap() || !message["role"] || !message["content"])
            refuse(message, QStringLiteral("%1 needs a role and a content.").arg(where));
        ChatMessage turn;
        turn.role = scalar(message["role"], where + QStringLiteral("'s role"));
        turn.content = scalar(message["content"], where + QStringLiteral("'s content"));
        if (turn.role != QLatin1String("user") && turn.role != QLatin1String("assistant")
            && turn.role != QLatin1String("system"))
            refuse(message["role"],
                   QStringLiteral("%1: role '%2' is none of user, assistant, system.")
                       .arg(where, turn.role));
        turns.append(turn);
    }
    return turns;
}

PersonaTestCase readTest(const YAML::Node &node, int index)
{
    PersonaTestCase test;
    test.index = index;
    test.line = lineOf(node);
    if (!node.IsMap())
        refuse(node,
               QStringLiteral("%1 must be a mapping (description, vars, assert).").arg(test.label()));
    if (const YAML::Node description = node["description"])
        test.description = scalar(description, test.label() + QStringLiteral("'s description"));
    const YAML::Node vars = node["vars"];
    // An undefined node where vars is not a mapping: YAML::Node() would be a
    // defined null.
    const YAML::Node absent(YAML::NodeType::Undefined);
    const YAML::Node message = vars && vars.IsMap() ? vars["message"] : absent;
    const YAML::Node messages = vars && vars.IsMap() ? vars["messages"] : absent;
    if (message && messages)
        refuse(vars,
               QStringLiteral("%1 has both vars.message and vars.messages; give one.")
                   .arg(test.label()));
    if (message) {
        test.messages.append(
            {QStringLiteral("user"), scalar(message, test.label() + QStringLiteral("'s message"))});
    } else if (messages) {
        test.messages = readMessages(messages, test);
    } else {
        refuse(vars ? vars : node,
               QStringLiteral("%1 has no vars.message (the user's turn) or vars.messages (a "
                              "conversation).")
                   .arg(test.label()));
    }
    if (const YAML::Node repeat = node["repeat"]) {
        const qint64 count = wholeNumber(repeat, test.label() + QStringLiteral("'s repeat"));
        if (count < 1 || count > 1000)
            refuse(repeat, QStringLiteral("%1's repeat must be from 1 to 1000.").arg(test.label()));
        test.repeat = int(count);
    }
    if (const YAML::Node threshold = node["threshold"])
        test.threshold = number(threshold, test.label() + QStringLiteral("'s threshold"));
    const YAML::Node asserts = node["assert"];
    if (!asserts)
        refuse(node,
               QStringLiteral("%1 has no assert list: say what the reply must do.")
                   .arg(test.label()));
    if (!asserts.IsSequence())
        refuse(asserts, QStringLiteral("%1's assert must be a list.").arg(test.label()));
    int position = 0;
    for (const YAML::Node &item : asserts)
        test.asserts.append(readAssert(item, test, ++position));
    return test;
}

PersonaTestFile readFile(const YAML::Node &root, const QString &path)
{
    PersonaTestFile file;
    file.path = path;
    if (!root.IsMap())
        refuse(root, QStringLiteral("the file must be a mapping with a tests list."));
    if (const YAML::Node description = root["description"])
        file.description = scalar(description, QStringLiteral("description"));
    if (const YAML::Node providers = root["providers"])
        readProvider(providers, file);
    if (const YAML::Node defaults = root["defaultTest"]; defaults && defaults.IsMap()) {
        const YAML::Node options = defaults["options"];
        if (options && options.IsMap() && options["provider"])
            file.judge = readJudge(options["provider"],
                                   QStringLiteral("defaultTest.options.provider"));
    }
    const YAML::Node tests = root["tests"];
    if (!tests || !tests.IsSequence() || tests.size() == 0)
        refuse(tests ? tests : root, QStringLiteral("the file has no tests list, or it is empty."));
    if (tests.size() > std::size_t(MaxPersonaTestRuns))
        refuse(tests,
               QStringLiteral("the file has %1 tests, more than persona tests run (%2 runs "
                              "of cases in all). Split it into smaller files.")
                   .arg(tests.size())
                   .arg(MaxPersonaTestRuns));
    int index = 0;
    qint64 runs = 0;
    for (const YAML::Node &test : tests) {
        file.tests.append(readTest(test, ++index));
        runs += file.tests.constLast().repeat;
        if (runs > MaxPersonaTestRuns)
            refuse(test,
                   QStringLiteral("the tests ask for more than %1 runs (each case times its "
                                  "repeat), more than persona tests send before anything is "
                                  "judged. Lower the repeats, or split the file.")
                       .arg(MaxPersonaTestRuns));
    }
    return file;
}

} // namespace

QString PersonaTestCase::label() const
{
    return description.isEmpty() ? QStringLiteral("test %1").arg(index)
                                 : QStringLiteral("test %1 ('%2')").arg(index).arg(description);
}

QStringList supportedAssertTypes()
{
    QStringList types;
    for (const char *type : AssertTypes)
        types.append(QLatin1String(type));
    return types;
}

Result<PersonaTestFile> parsePersonaTests(const QByteArray &yaml, const QString &path)
{
    if (yaml.size() > MaxPersonaTestsBytes)
        return Result<PersonaTestFile>::failure(
            QStringLiteral("%1 is larger than persona tests read (%2 bytes at most). Split it "
                           "into smaller files.")
                .arg(path)
                .arg(MaxPersonaTestsBytes));
    if (const qsizetype valid = utf8::validPrefixLength(yaml); valid < yaml.size()) {
        const qsizetype lineStart = yaml.lastIndexOf('\n', valid - 1) + 1;
        return Result<PersonaTestFile>::failure(
            QStringLiteral("%1:%2:%3: is not valid UTF-8 (byte 0x%4). Save the file as UTF-8, "
                           "then run again.")
                .arg(path)
                .arg(yaml.left(valid).count('\n') + 1)
                .arg(valid - lineStart + 1)
                .arg(quint8(yaml.at(valid)), 2, 16, QLatin1Char('0')));
    }
    ExpansionBudget budget(MaxPersonaTestsExpansion);
    currentBudget = &budget;
    const auto done = qScopeGuard([] { currentBudget = nullptr; });
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        return readFile(root, path);
    } catch (const FieldError &error) {
        return Result<PersonaTestFile>::failure(
            error.line > 0
                ? QStringLiteral("%1:%2: %3").arg(path).arg(error.line).arg(error.message)
                : QStringLiteral("%1: %2").arg(path, error.message));
    } catch (const YAML::DeepRecursion &error) {
        return Result<PersonaTestFile>::failure(
            QStringLiteral("%1:%2:%3: the YAML is nested %4 levels deep, more than persona "
                           "tests read. A tests file needs a few levels: flatten it.")
                .arg(path)
                .arg(error.mark.line + 1)
                .arg(error.mark.column + 1)
                .arg(error.depth()));
    } catch (const YAML::Exception &error) {
        const QString what = QString::fromStdString(error.msg);
        if (error.mark.is_null())
            return Result<PersonaTestFile>::failure(
                QStringLiteral("%1: not valid YAML: %2.").arg(path, what));
        return Result<PersonaTestFile>::failure(
            QStringLiteral("%1:%2:%3: not valid YAML: %4. Fix the file, then run again.")
                .arg(path)
                .arg(error.mark.line + 1)
                .arg(error.mark.column + 1)
                .arg(what));
    }
}

Result<QByteArray> readPersonaTestsBytes(const QString &path)
{
    return readGuardedFile(path,
                           GuardedFile{QStringLiteral("The persona tests"),
                                       QStringLiteral("a YAML file such as %1")
                                           .arg(QLatin1String(PersonaTestsFileName)),
                                       QStringLiteral("Soul Studio"),
                                       MaxPersonaTestsBytes});
}

Result<PersonaTestFile> loadPersonaTests(const QString &path)
{
    const Result<QByteArray> bytes = readPersonaTestsBytes(path);
    if (!bytes)
        return Result<PersonaTestFile>::failure(
            QStringLiteral("%1 Write one (see 'soulc test --help'), or name another with --tests "
                           "FILE.")
                .arg(bytes.error()));
    return parsePersonaTests(*bytes, path);
}

} // namespace soul
