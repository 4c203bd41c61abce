#pragma once

#include "chatclient.h"
#include "result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

// persona-tests.yaml: the cases a persona is held to, in a subset of
// promptfoo's config format (description, providers, tests with vars,
// assert and repeat), so a file can move between the two tools.
namespace soul {

// The name soulc looks for beside the persona's files.
inline constexpr char PersonaTestsFileName[] = "persona-tests.yaml";

// The bounds of a tests file, each refused with a sentence: its size; the
// text its YAML expands to, each use of an anchor counted; and the runs it
// asks for (each case times its repeat) before anything is sent.
inline constexpr qint64 MaxPersonaTestsBytes = qint64(16) << 20;
inline constexpr qint64 MaxPersonaTestsExpansion = qint64(64) << 20;
inline constexpr qint64 MaxPersonaTestRuns = 100000;

// A model that grades replies (llm-rubric): promptfoo's provider of an
// assert or of defaultTest.options. Empty fields take the tested ones.
struct JudgeProvider
{
    QString model;
    QUrl apiBaseUrl;
};

struct AssertSpec
{
    QString type;     // as written: "icontains", "not-regex"
    QString baseType; // without "not-"
    bool negated = false;
    // The value: one string, or for the -any and -all types a list (a
    // string there is split at commas). Empty for is-json and latency.
    QStringList values;
    // latency: the most milliseconds allowed; cost: the most dollars
    std::optional<double> threshold;
    std::optional<JudgeProvider> judge; // llm-rubric: its own provider
    double weight = 1.0;
    int line = 0; // 1-based, in the file
};

struct PersonaTestCase
{
    int index = 0; // 1-based, in the file's order
    QString description;
    int line = 0;
    QList<ChatMessage> messages; // the turns after the system message
    QList<AssertSpec> asserts;
    int repeat = 1;
    // promptfoo's: the case passes when its weighted score reaches this;
    // without it every assert must pass.
    std::optional<double> threshold;

    // "test 2 ('introduces herself')", for messages.
    QString label() const;
};

struct PersonaTestFile
{
    QString path;
    QString description;
    // From the provider (providers[0]): id openai:chat:MODEL and its config.
    QString model;
    QUrl apiBaseUrl;
    std::optional<double> temperature;
    std::optional<qint64> maxTokens;
    std::optional<qint64> seed;
    QString apiKeyEnvar; // the variable that holds the API key; empty: OPENAI_API_KEY
    // Dollars per prompt and per completion token (config cost, or
    // inputCost and outputCost, as promptfoo reads them), for cost asserts.
    std::optional<double> inputCost;
    std::optional<double> outputCost;
    // defaultTest.options.provider: who grades llm-rubric asserts that
    // name no provider; without it, the tested model grades them.
    std::optional<JudgeProvider> judge;
    QList<PersonaTestCase> tests;
};

// The assert types the runner checks, without their not- forms.
QStringList supportedAssertTypes();

// The bytes of a tests file, read through readGuardedFile() (no FIFO,
// device or folder; at most MaxPersonaTestsBytes).
Result<QByteArray> readPersonaTestsBytes(const QString &path);
// Reads a test file. A YAML syntax error names the file, line and column;
// an unknown assert type names itself and the supported ones; a missing
// field names the test by number and description; bytes that are not UTF-8,
// nesting past yaml-cpp's depth and the bounds above are named too.
Result<PersonaTestFile> loadPersonaTests(const QString &path);
// The same, of `yaml` read from `path`.
Result<PersonaTestFile> parsePersonaTests(const QByteArray &yaml, const QString &path);

} // namespace soul
